//! The accept loop: every TCP connection is served by hyper with a deadline for its
//! request headers, and the number of open connections is capped. When the cap is
//! reached, a connection is closed to make room, so that idle or half-sent connections (a
//! local program holding sockets open) can never lock the owner's page out: a new
//! connection always gets in. The one closed is the longest-silent of those that follow no
//! game; a page that follows a game (its [`Mark`] set) is closed only when every open
//! connection follows one, so connections that ping and follow nothing never evict the
//! owner's silent tab.

use std::collections::HashMap;
use std::io;
use std::net::Shutdown;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};

/// How long a client has to send a request's headers (the first request's and each
/// following one's on a kept-alive connection).
pub(crate) const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// The kernel's send buffer of a connection, fixed (not grown by the kernel up to
/// megabytes for a page that does not read): a few dozen states.
pub(crate) const SEND_BUFFER: usize = 256 * 1024;

/// One open connection as the table sees it.
struct Entry {
    /// A second handle on the socket, to shut it down when the connection is evicted.
    socket: std::net::TcpStream,
    /// Milliseconds since the server started at the last byte the client sent.
    heard: Arc<AtomicU64>,
    /// Whether the connection follows a game.
    following: Mark,
}

/// Whether a connection follows a game: set by its WebSocket, read by the cap. Each
/// request of the connection carries it (an extension, [`Marked`]).
#[derive(Clone, Default, Debug)]
pub struct Mark(Arc<AtomicBool>);

impl Mark {
    pub fn set(&self, following: bool) {
        self.0.store(following, Ordering::Relaxed);
    }

    pub fn get(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// The open connections.
pub(crate) struct Connections {
    max: usize,
    started: Instant,
    next: AtomicU64,
    open: Mutex<HashMap<u64, Entry>>,
}

/// Held by a connection's socket while it is open: its place in the table.
pub(crate) struct Slot {
    id: u64,
    table: Arc<Connections>,
    heard: Arc<AtomicU64>,
    following: Mark,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.table.lock().remove(&self.id);
    }
}

impl Slot {
    fn heard_now(&self) {
        self.heard.store(self.table.started.elapsed().as_millis() as u64, Ordering::Relaxed);
    }
}

impl Connections {
    pub(crate) fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max,
            started: Instant::now(),
            next: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes a place for `socket`, closing connections first if the table is full: the
    /// longest-silent of those that follow no game, and only if there is none, the
    /// longest-silent of all.
    fn admit(self: &Arc<Self>, socket: &TcpStream) -> io::Result<Slot> {
        let std_socket = socket_handle(socket)?;
        let heard = Arc::new(AtomicU64::new(self.started.elapsed().as_millis() as u64));
        let following = Mark::default();
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let mut open = self.lock();
        while open.len() >= self.max {
            let Some(victim) = open
                .iter()
                .min_by_key(|(_, e)| (e.following.get(), e.heard.load(Ordering::Relaxed)))
                .map(|(id, _)| *id)
            else {
                break;
            };
            if let Some(e) = open.remove(&victim) {
                log::info!("connection cap ({}) reached: closing the longest-silent connection", self.max);
                let _ = e.socket.shutdown(Shutdown::Both);
            }
        }
        open.insert(id, Entry { socket: std_socket, heard: Arc::clone(&heard), following: following.clone() });
        drop(open);
        Ok(Slot { id, table: Arc::clone(self), heard, following })
    }
}

/// A second handle on a tokio socket, to shut it down from elsewhere.
fn socket_handle(socket: &TcpStream) -> io::Result<std::net::TcpStream> {
    Ok(socket2::SockRef::from(socket).try_clone()?.into())
}

/// A socket that keeps its connection's [`Slot`] for as long as it lives (through an
/// upgrade to a WebSocket too) and notes when the client last sent something.
pub(crate) struct Tracked {
    inner: TcpStream,
    slot: Slot,
}

impl AsyncRead for Tracked {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let this = &mut *self;
        let poll = Pin::new(&mut this.inner).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.slot.heard_now();
        }
        poll
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The app as one connection's hyper service: each request carries the connection's
/// [`Mark`] (an extension the WebSocket takes).
struct Marked {
    inner: TowerToHyperService<Router>,
    mark: Mark,
}

impl hyper::service::Service<Request<Incoming>> for Marked {
    type Response = <TowerToHyperService<Router> as hyper::service::Service<Request<Incoming>>>::Response;
    type Error = <TowerToHyperService<Router> as hyper::service::Service<Request<Incoming>>>::Error;
    type Future = <TowerToHyperService<Router> as hyper::service::Service<Request<Incoming>>>::Future;

    fn call(&self, mut request: Request<Incoming>) -> Self::Future {
        request.extensions_mut().insert(self.mark.clone());
        self.inner.call(request)
    }
}

/// Serves `app` on `listener` until the listener fails.
pub(crate) async fn run(listener: TcpListener, app: Router, table: Arc<Connections>) -> io::Result<()> {
    loop {
        let (socket, _) = match listener.accept().await {
            Ok(s) => s,
            // Out of descriptors and the like: wait a little rather than spin.
            Err(e) => {
                log::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // Small messages go out at once: with Nagle's algorithm, the second of two quick
        // messages (a state, then `thinking`) waited for the browser's delayed ACK, 40 ms.
        let _ = socket.set_nodelay(true);
        let _ = socket2::SockRef::from(&socket).set_send_buffer_size(SEND_BUFFER);
        let slot = match table.admit(&socket) {
            Ok(s) => s,
            Err(e) => {
                log::warn!("connection not admitted: {e}");
                continue;
            }
        };
        let service = Marked { inner: TowerToHyperService::new(app.clone()), mark: slot.following.clone() };
        let io = TokioIo::new(Tracked { inner: socket, slot });
        tokio::spawn(async move {
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(io, service)
                .with_upgrades();
            if let Err(e) = conn.await {
                log::debug!("connection: {e}");
            }
        });
    }
}
