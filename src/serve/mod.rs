//! `koma serve`: play the five games in a browser. A local web server (axum on tokio)
//! serves one page, embedded in the binary (`web/`), and speaks JSON over a WebSocket
//! (`/ws`, protocol/serve.md): each game runs in the server on its own [`crate::engine`]
//! with its position on an engine [`crate::engine::Board`], so every rule, legal move and
//! result the page shows is the engine's.
//!
//! - [`messages`]: the WebSocket messages;
//! - [`game`]: one game, its task and its engine thread; [`clock`] its clock;
//! - [`hidden`]: a hidden setup kept from the page;
//! - [`registry`]: the running games, their engines bounded, idle ones ended;
//! - [`outbox`]: a connection's bounded queue of messages;
//! - [`guard`]: the Host and Origin checks and the security headers;
//! - [`listener`]: the accept loop, its connection cap and header deadline;
//! - [`assets`]: the page's files, [`howto`] its rules panel;
//! - [`explore`]: exact values of every move, from the solver;
//! - [`records`]: the game saved as a record, a record file opened;
//! - [`report`]: the game report of a game shown (an analysis board).

pub(crate) mod assets;
pub mod clock;
pub mod explore;
pub(crate) mod game;
pub(crate) mod guard;
pub(crate) mod hidden;
pub(crate) mod howto;
pub(crate) mod listener;
pub(crate) mod messages;
pub(crate) mod outbox;
pub mod records;
pub(crate) mod registry;
pub(crate) mod report;

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
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc::error::TrySendError;

use game::ToGame;
pub use howto::RULES_MD;
use messages::ClientMsg;
pub use messages::ExploreRequest;
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

/// The most games at once, by default.
pub const DEFAULT_MAX_GAMES: u64 = 64;

/// Each game's engine's hash table by default, MiB: small, so that the server at its caps
/// fits a laptop beside its browser (issue 53: 64 games with 16 MiB tables held about 1 GB).
pub const DEFAULT_HASH_MIB: u64 = 2;

/// What a game holds besides its table, MiB, at most: its engine (the search's stacks and
/// histories, its threads), its board and its messages (protocol/serve.md, "Measured":
/// 64 games of koma against koma held 386 MiB with 2 MiB tables, about 5 MiB a game).
pub const GAME_OVERHEAD_MIB: u64 = 4;

/// What the server holds however many games it plays, MiB, at most: the explorations'
/// solver tables ([`explore::MAX_RUNNING`] of about 26 MiB), the game report's engine (one
/// at a time, a 4 MiB table and an engine's overhead), the runtime, the page's files and
/// the connections' buffers.
pub const FIXED_MIB: u64 = 72;

/// The most memory the server takes at its default caps, MiB.
pub const DEFAULT_MEMORY_MIB: u64 = DEFAULT_MAX_GAMES * (DEFAULT_HASH_MIB + GAME_OVERHEAD_MIB) + FIXED_MIB;

#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// The port (0: any free port; the address is printed on stdout).
    #[arg(long, default_value_t = 8066)]
    pub port: u16,
    /// The address to listen on; other machines can reach the games only if this is not
    /// a loopback address, and then every page and WebSocket must carry the secret token
    /// in the printed address (`?token=`).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The most games played at once (each has its engine and table). With the default
    /// caps and --hash, the server takes at most about 456 MiB.
    #[arg(long, default_value_t = DEFAULT_MAX_GAMES, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub max_games: u64,
    /// Minutes after which a game that no page follows is ended.
    #[arg(long, default_value_t = 30)]
    pub idle_minutes: u64,
    /// The hash table of each game's engine, MiB (small, so that 64 games fit a laptop).
    #[arg(long, default_value_t = DEFAULT_HASH_MIB, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: u64,
    /// The most connections open at once; when full, the connection that has been silent
    /// the longest is closed to let a new one in (one that follows no game first).
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

/// A panic anywhere in the server (a reader's bug on a page's record, say) is logged once,
/// through the log (stderr stays quiet unless `RUST_LOG` asks), and costs only the task it
/// happened in: a connection's task gives back what it held as it unwinds ([`Following`]),
/// a game's engine thread its slot.
fn log_panics() {
    std::panic::set_hook(Box::new(|info| log::error!("koma serve: internal error (one task ended): {info}")));
}

pub fn main(args: Args) -> ExitCode {
    return_large_blocks();
    log_panics();
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
    // Beyond loopback, the address's secret is the page's login (protocol/serve.md).
    let token = if args.bind.is_loopback() {
        None
    } else {
        match guard::Token::new() {
            Ok(t) => Some(t),
            Err(e) => {
                println!("koma serve: cannot start: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let url = match &token {
        None => format!("http://{}/", SocketAddr::new(args.bind, port)),
        Some(t) => format!("http://{}/?token={}", SocketAddr::new(args.bind, port), t.as_str()),
    };
    println!("koma serve: playing at {url}");
    if !args.bind.is_loopback() {
        println!(
            "koma serve: warning: listening on {}: anyone who can reach this machine on port {port} and has this \
             address with its token can play and start engines here. Use the default --bind 127.0.0.1 unless this \
             network is yours alone.",
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
        token,
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

/// Opens `url` with the desktop's opener; a failure is printed, never fatal. On a system
/// with X11 or Wayland desktops, no `DISPLAY` nor `WAYLAND_DISPLAY` means no browser can be
/// opened: said at once. An opener that starts and then fails is said when it exits.
fn open_browser(url: &str) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(windows) {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let desktop = ["DISPLAY", "WAYLAND_DISPLAY"].iter().any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    if opener[0] == "xdg-open" && !desktop {
        println!("koma serve: no browser could be opened (no display: DISPLAY and WAYLAND_DISPLAY are unset); open {url} yourself");
        return;
    }
    let spawned = std::process::Command::new(opener[0])
        .args(&opener[1..])
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    match spawned {
        Err(e) => println!("koma serve: no browser could be opened ({}: {e}); open {url} yourself", opener[0]),
        Ok(mut child) => {
            let (name, url) = (opener[0], url.to_string());
            std::thread::spawn(move || {
                if let Ok(status) = child.wait() {
                    if !status.success() {
                        println!(
                            "koma serve: no browser could be opened ({name} failed: {status}); open {url} yourself"
                        );
                    }
                }
            });
        }
    }
}

async fn websocket(
    ws: WebSocketUpgrade,
    State(registry): State<Arc<Registry>>,
    mark: Option<axum::Extension<listener::Mark>>,
) -> Response {
    let mark = mark.map(|axum::Extension(m)| m).unwrap_or_default();
    ws.max_message_size(MAX_WIRE_MESSAGE)
        .max_frame_size(MAX_WIRE_MESSAGE)
        .on_upgrade(move |socket| connection(socket, registry, mark))
}

/// A connection's follow of a game: counted among the game's followers, and the
/// connection marked as following one for the connection cap, for as long as it lives.
/// Dropping it gives both back and tells the game, whatever ends the connection's task: a
/// page closed, another game followed, or a panic (the task unwinds through it), so a
/// connection that dies never holds a game as followed, and its slot can be reused.
pub struct Following {
    pub handle: Handle,
    out: Outbox,
    mark: listener::Mark,
}

impl Following {
    /// Follows `handle`'s game (the game is told, and sends its state).
    pub async fn new(handle: Handle, out: &Outbox, mark: &listener::Mark) -> Following {
        handle.shared.followers.fetch_add(1, Ordering::SeqCst);
        handle.shared.touch();
        mark.set(true);
        let following = Following { handle, out: out.clone(), mark: mark.clone() };
        let _ = following.handle.tx.send(ToGame::Attach(out.clone())).await;
        following
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        self.handle.shared.followers.fetch_sub(1, Ordering::SeqCst);
        self.handle.shared.touch();
        self.mark.set(false);
        // The game may be busy with a full inbox: the word waits in a task of its own
        // rather than here (a drop cannot wait).
        if let Err(TrySendError::Full(left)) = self.handle.tx.try_send(ToGame::Left(self.out.clone())) {
            let tx = self.handle.tx.clone();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    let _ = tx.send(left).await;
                });
            }
        }
    }
}

/// One page's connection: its messages go to the game it follows, the game's to it. The
/// page's messages are read while the game's go out, so a page that reads slowly still has
/// its requests carried out and gets the latest state (`outbox`).
async fn connection(socket: WebSocket, registry: Arc<Registry>, mark: listener::Mark) {
    let (mut sink, mut stream) = socket.split();
    let (out, inbox) = Outbox::new();
    out.send(messages::hello());
    let writer = async {
        loop {
            let text = inbox.recv().await;
            let sent = tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text.as_ref().into()))).await;
            if !matches!(sent, Ok(Ok(()))) {
                break;
            }
        }
    };
    let mut following: Option<Following> = None;
    let reader = async {
        loop {
            // The page's answers wait to be taken: no further request until it has.
            out.room(outbox::OUTBOX_MESSAGES).await;
            let lonely = if following.is_none() { LONELY_TIMEOUT } else { FOLLOWING_TIMEOUT };
            let text = match tokio::time::timeout(lonely, stream.next()).await {
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
            if let Some(f) = &following {
                f.handle.shared.touch();
            }
            if let Err(e) = request(text.as_str(), &registry, &mut following, &out, &mark).await {
                out.send(e);
            }
        }
    };
    tokio::select! {
        () = writer => {}
        () = reader => {}
    }
    drop(following);
}

/// Carries out one message; `Err` is the error message to answer.
pub async fn request(
    text: &str,
    registry: &Registry,
    following: &mut Option<Following>,
    out: &Outbox,
    mark: &listener::Mark,
) -> Result<(), String> {
    if text.len() > messages::MAX_MESSAGE {
        return Err(messages::error(&records::too_long(text)));
    }
    let msg: ClientMsg = serde_json::from_str(text).map_err(|e| messages::error(&format!("bad message: {e}")))?;
    match msg {
        ClientMsg::New(new) => {
            // Leave the old game first, so that it can make room for the new one.
            *following = None;
            let (_, handle) = registry.create(new).await.map_err(|e| messages::error(&e))?;
            *following = Some(Following::new(handle, out, mark).await);
        }
        ClientMsg::Explore(req) => explore::start(req, out)?,
        ClientMsg::Report(req) => report::start(req, out)?,
        ClientMsg::Load { text, name } => {
            out.send(records::load(&text, name.as_deref()).map_err(|e| messages::error(&e))?);
        }
        ClientMsg::Join { game } => {
            let handle = registry.get(&game).ok_or_else(|| {
                serde_json::json!({ "type": "error", "code": "no-game",
                                    "message": "that game is no longer running: start a new one" })
                .to_string()
            })?;
            *following = None;
            *following = Some(Following::new(handle, out, mark).await);
        }
        msg => {
            let f = following.as_ref().ok_or_else(|| messages::error("no game yet: send a 'new' message first"))?;
            if f.handle.tx.send(ToGame::Client(msg, out.clone())).await.is_err() {
                *following = None;
                return Err(messages::error("that game has ended: start a new one"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game() -> messages::NewGame {
        let variant = crate::games::names()[0];
        serde_json::from_value(serde_json::json!({ "variant": variant, "seats": { "b": "human", "w": "human" } }))
            .expect("a new game")
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn row2_a_connection_task_that_panics_gives_back_its_follow_so_its_game_can_make_room() {
        let registry = Arc::new(Registry::new(1, Duration::from_secs(3600), 1));
        let (id, handle) = registry.create(new_game()).await.expect("a game");
        let mark = listener::Mark::default();
        let (r, m) = (Arc::clone(&registry), mark.clone());
        // A connection's task follows the game, then panics (a reader's bug on a `load`).
        let task = tokio::spawn(async move {
            let (out, _inbox) = Outbox::new();
            let mut following = None;
            let join = serde_json::json!({ "type": "join", "game": id }).to_string();
            request(&join, &r, &mut following, &out, &m).await.expect("joined");
            assert!(m.get(), "marked as following for the connection cap");
            if following.is_some() {
                panic!("a bug while the connection follows a game");
            }
        });
        assert!(task.await.expect_err("the task panicked").is_panic());
        assert_eq!(handle.shared.followers.load(Ordering::SeqCst), 0, "the follow is given back");
        assert!(!mark.get(), "and the connection's mark");
        // The only slot is the panicked page's game's: unfollowed, it makes room.
        let again = tokio::time::timeout(Duration::from_secs(120), registry.create(new_game())).await;
        assert!(again.expect("in time").is_ok(), "the server is not full for good");
    }
}
