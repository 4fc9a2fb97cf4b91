//! `koma serve`: play the five games in a browser. A local web server (axum on tokio)
//! serves one page, embedded in the binary (`web/`), and speaks JSON over a WebSocket
//! (`/ws`, docs/serve.md): each game runs in the server on its own [`crate::engine`]
//! with its position on an engine [`crate::engine::Board`], so every rule, legal move and
//! result the page shows is the engine's.
//!
//! - [`messages`]: the WebSocket messages;
//! - [`game`]: one game, its task and its engine thread;
//! - [`registry`]: the running games, their number bounded, idle ones ended;
//! - [`assets`]: the page's files, [`howto`] its rules panel;
//! - [`explore`]: exact values of every move, from the solver.

pub mod assets;
pub mod explore;
pub mod game;
pub mod howto;
pub mod messages;
pub mod registry;

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::serve::ListenerExt;
use axum::Router;
use tokio::sync::mpsc::unbounded_channel;

use game::ToGame;
use messages::ClientMsg;
use registry::{Handle, Registry};

/// The largest WebSocket message taken off the wire at all; up to this size a message
/// too long for [`messages::MAX_MESSAGE`] is answered with an error, beyond it the
/// connection is closed.
const MAX_WIRE_MESSAGE: usize = 1 << 20;

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
}

pub fn main(args: Args) -> ExitCode {
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
    let addr = listener.local_addr().map_or_else(|_| format!("{}:{}", args.bind, args.port), |a| a.to_string());
    let url = format!("http://{addr}/");
    println!("koma serve: playing at {url}");
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
    let app = Router::new().route("/ws", get(websocket)).merge(assets::routes()).with_state(registry);
    // Small messages go out at once: with Nagle's algorithm, the second of two quick
    // messages (a state, then `thinking`) waited for the browser's delayed ACK, 40 ms.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    match axum::serve(listener, app).await {
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
    let (out, mut outbox) = unbounded_channel::<Arc<str>>();
    let mut following: Option<Handle> = None;
    if socket.send(Message::Text(messages::hello().into())).await.is_err() {
        return;
    }
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Binary(_))) => {
                        let _ = out.send(messages::error("binary messages are not read: send JSON text").into());
                        continue;
                    }
                    Some(Ok(_)) => continue,
                    // Closed, or broken (a message over MAX_WIRE_MESSAGE among others).
                    Some(Err(_)) | None => break,
                };
                if let Some(h) = &following {
                    h.shared.touch();
                }
                if let Err(e) = request(text.as_str(), &registry, &mut following, &out) {
                    let _ = out.send(e.into());
                }
            }
            Some(text) = outbox.recv() => {
                if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    if let Some(h) = following {
        let _ = h.tx.send(ToGame::Left(out));
    }
}

/// Carries out one message; `Err` is the error message to answer.
fn request(text: &str, registry: &Registry, following: &mut Option<Handle>, out: &game::Outbox) -> Result<(), String> {
    if text.len() > messages::MAX_MESSAGE {
        return Err(messages::error(&format!(
            "message too long: {} bytes, at most {} are read",
            text.len(),
            messages::MAX_MESSAGE
        )));
    }
    let msg: ClientMsg = serde_json::from_str(text).map_err(|e| messages::error(&format!("bad message: {e}")))?;
    match msg {
        ClientMsg::New(new) => {
            let (_, handle) = registry.create(new).map_err(|e| messages::error(&e))?;
            follow(handle, following, out);
        }
        ClientMsg::Explore(req) => explore::start(req, out)?,
        ClientMsg::Join { game } => {
            let handle = registry.get(&game).ok_or_else(|| {
                serde_json::json!({ "type": "error", "code": "no-game",
                                    "message": "that game is no longer running: start a new one" })
                .to_string()
            })?;
            follow(handle, following, out);
        }
        msg => {
            let h = following.as_ref().ok_or_else(|| messages::error("no game yet: send a 'new' message first"))?;
            if h.tx.send(ToGame::Client(msg, out.clone())).is_err() {
                *following = None;
                return Err(messages::error("that game has ended: start a new one"));
            }
        }
    }
    Ok(())
}

fn follow(handle: Handle, following: &mut Option<Handle>, out: &game::Outbox) {
    if let Some(old) = following.take() {
        let _ = old.tx.send(ToGame::Left(out.clone()));
    }
    let _ = handle.tx.send(ToGame::Attach(out.clone()));
    handle.shared.touch();
    *following = Some(handle);
}
