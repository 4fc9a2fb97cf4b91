//! `koma serve`: play the five games in a browser. A local web server (axum on tokio)
//! serves one page, embedded in the binary (`web/`), and speaks JSON over a WebSocket
//! (`/ws`, protocol/serve.md): each game runs in the server on its own [`crate::engine`]
//! with its position on an engine [`crate::engine::Board`], so every rule, legal move and
//! result the page shows is the engine's.
//!
//! - [`messages`]: the WebSocket messages;
//! - [`game`]: one game, its task and its engine thread;
//! - [`hidden`]: a hidden setup kept from the page;
//! - [`registry`]: the running games, their engines bounded, idle ones ended;
//! - [`outbox`]: a connection's bounded queue of messages;
//! - [`guard`]: the Host and Origin checks and the security headers;
//! - [`listener`]: the accept loop, its connection cap and header deadline;
//! - [`assets`]: the page's files, [`howto`] its rules panel;
//! - [`explore`]: exact values of every move, from the solver;
//! - [`records`]: the game saved as a record, a record file opened.

pub mod assets;
pub mod explore;
pub mod game;
pub mod guard;
pub mod hidden;
pub mod howto;
pub mod listener;
pub mod messages;
pub mod outbox;
pub mod records;
pub mod registry;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Router;

use game::ToGame;
use messages::ClientMsg;
use outbox::Outbox;
use registry::{Handle, Registry};

/// The largest WebSocket message taken off the wire at all; up to this size a message
/// too long for [`messages::MAX_MESSAGE`] is answered with an error, beyond it the
/// connection is closed.
const MAX_WIRE_MESSAGE: usize = 1 << 20;

/// A page that does not take a message within this time is closed.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// A connection that follows no game and sends nothing for this long is closed.
const LONELY_TIMEOUT: Duration = Duration::from_secs(300);

/// A page that follows a game may be silent while its player thinks: a day.
const FOLLOWING_TIMEOUT: Duration = Duration::from_secs(86_400);

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The port (0: any free port; the address is printed on stdout).
    #[arg(long, default_value_t = 8066)]
    pub port: u16,
    /// The address to listen on; other machines can reach the games only if this is not
    /// a loopback address.
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The most games played at once (each has its engine and table).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_games: u64,
    /// Minutes after which a game that no page follows is ended.
    #[arg(long, default_value_t = 30)]
    pub idle_minutes: u64,
    /// The hash table of each game's engine, MiB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// The most connections open at once; when full, the connection that has been silent
    /// the longest is closed to let a new one in.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u64).range(2..=10_000))]
    pub max_connections: u64,
    /// A further host name the server answers to (repeatable), e.g. this machine's name on
    /// a trusted network with `--bind 0.0.0.0`. Loopback names and IP addresses need none.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,
}

/// Large blocks go back to the system when freed. glibc raises its threshold for
/// serving a block by `mmap` each time such a block is freed, after which large blocks come
/// from its per-thread pools and stay resident once freed; with an engine per game, each
/// searching on threads of its own, that kept about 15 MiB a game (tools/serve_bench.py:
/// 366 MiB for 20 games at `--hash 1`, 55 MiB with the threshold fixed).
fn return_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; called before any thread
    // of the server starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

pub fn main(args: Args) -> ExitCode {
    return_large_blocks();
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(r) => r,
        Err(e) => {
            println!("koma serve: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(serve(args))
}

async fn serve(args: Args) -> ExitCode {
    let idle = Duration::from_secs(args.idle_minutes.saturating_mul(60));
    let registry = Arc::new(Registry::new(args.max_games as usize, idle, args.hash as usize));
    let listener = match tokio::net::TcpListener::bind(SocketAddr::new(args.bind, args.port)).await {
        Ok(l) => l,
        Err(e) => {
            println!("koma serve: cannot listen on {}:{}: {e}", args.bind, args.port);
            return ExitCode::FAILURE;
        }
    };
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let url = format!("http://{}/", SocketAddr::new(args.bind, port));
    println!("koma serve: playing at {url}");
    if !args.bind.is_loopback() {
        println!(
            "koma serve: warning: listening on {}: anyone who can reach this machine on port {port} can play and \
             start engines here; the page has no login. Use the default --bind 127.0.0.1 unless this network is \
             yours alone.",
            args.bind
        );
    }
    if args.open {
        open_browser(&url);
    }
    let reaper = Arc::clone(&registry);
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(Duration::from_secs(10)).await;
            reaper.reap();
        }
    });
    let allowed = Arc::new(guard::Allowed {
        port,
        bind: args.bind,
        names: args.allow_hosts.iter().map(|n| n.to_ascii_lowercase()).collect(),
    });
    let app = Router::new()
        .route("/ws", get(websocket))
        .merge(assets::routes())
        .with_state(registry)
        .layer(axum::middleware::from_fn_with_state(allowed, guard::middleware));
    let table = listener::Connections::new(args.max_connections as usize);
    match listener::run(listener, app, table).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("koma serve: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Opens `url` with the desktop's opener; a failure is printed, never fatal.
fn open_browser(url: &str) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let spawned = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = spawned {
        println!("koma serve: could not open a browser ({}: {e}); open {url} yourself", opener[0]);
    }
}

async fn websocket(ws: WebSocketUpgrade, State(registry): State<Arc<Registry>>) -> Response {
    ws.max_message_size(MAX_WIRE_MESSAGE)
        .max_frame_size(MAX_WIRE_MESSAGE)
        .on_upgrade(move |socket| connection(socket, registry))
}

/// One page's connection: its messages go to the game it follows, the game's to it.
async fn connection(mut socket: WebSocket, registry: Arc<Registry>) {
    let (out, mut inbox) = Outbox::new();
    let mut following: Option<Handle> = None;
    if socket.send(Message::Text(messages::hello().into())).await.is_err() {
        return;
    }
    loop {
        let lonely = if following.is_none() { LONELY_TIMEOUT } else { FOLLOWING_TIMEOUT };
        tokio::select! {
            incoming = tokio::time::timeout(lonely, socket.recv()) => {
                let text = match incoming {
                    Ok(Some(Ok(Message::Text(t)))) => t,
                    Ok(Some(Ok(Message::Binary(_)))) => {
                        out.send(messages::error("binary messages are not read: send JSON text"));
                        continue;
                    }
                    Ok(Some(Ok(_))) => continue,
                    // Closed, or broken (a message over MAX_WIRE_MESSAGE among others), or
                    // silent for long while following no game.
                    Ok(Some(Err(_)) | None) | Err(_) => break,
                };
                if let Some(h) = &following {
                    h.shared.touch();
                }
                if let Err(e) = request(text.as_str(), &registry, &mut following, &out).await {
                    out.send(e);
                }
            }
            Some(text) = inbox.messages.recv() => {
                let sent = tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.as_ref().into()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
            // Too many messages waiting: this page does not read; it is closed.
            () = inbox.behind.notified() => break,
        }
    }
    if let Some(h) = following {
        leave(&h, &out).await;
    }
}

/// This connection no longer follows `h`'s game.
async fn leave(h: &Handle, out: &Outbox) {
    h.shared.followers.fetch_sub(1, Ordering::SeqCst);
    h.shared.touch();
    let _ = h.tx.send(ToGame::Left(out.clone())).await;
}

/// Carries out one message; `Err` is the error message to answer.
async fn request(text: &str, registry: &Registry, following: &mut Option<Handle>, out: &Outbox) -> Result<(), String> {
    if text.len() > messages::MAX_MESSAGE {
        return Err(messages::error(&records::too_long(text)));
    }
    let msg: ClientMsg = serde_json::from_str(text).map_err(|e| messages::error(&format!("bad message: {e}")))?;
    match msg {
        ClientMsg::New(new) => {
            // Leave the old game first, so that it can make room for the new one.
            if let Some(old) = following.take() {
                leave(&old, out).await;
            }
            let (_, handle) = registry.create(new).await.map_err(|e| messages::error(&e))?;
            follow(handle, following, out).await;
        }
        ClientMsg::Explore(req) => explore::start(req, out)?,
        ClientMsg::Load { text, name } => {
            out.send(records::load(&text, name.as_deref()).map_err(|e| messages::error(&e))?);
        }
        ClientMsg::Join { game } => {
            let handle = registry.get(&game).ok_or_else(|| {
                serde_json::json!({ "type": "error", "code": "no-game",
                                    "message": "that game is no longer running: start a new one" })
                .to_string()
            })?;
            follow(handle, following, out).await;
        }
        msg => {
            let h = following.as_ref().ok_or_else(|| messages::error("no game yet: send a 'new' message first"))?;
            if h.tx.send(ToGame::Client(msg, out.clone())).await.is_err() {
                h.shared.followers.fetch_sub(1, Ordering::SeqCst);
                *following = None;
                return Err(messages::error("that game has ended: start a new one"));
            }
        }
    }
    Ok(())
}

async fn follow(handle: Handle, following: &mut Option<Handle>, out: &Outbox) {
    if let Some(old) = following.take() {
        leave(&old, out).await;
    }
    handle.shared.followers.fetch_add(1, Ordering::SeqCst);
    handle.shared.touch();
    let _ = handle.tx.send(ToGame::Attach(out.clone())).await;
    *following = Some(handle);
}
