//! `koma serve` as a server: bad and oversized WebSocket messages are answered with errors
//! and the server goes on; fifty games at once make moves without an error; a page closed
//! while koma thinks does no harm, and its game can be joined again (a page reload).
//! No test here times anything: waits are generous deadlines for a loaded machine.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use crate::common::server::Server;

pub(crate) type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(120);

pub(crate) async fn connect(server: &Server) -> Ws {
    let (mut ws, _) = connect_async(server.ws_url()).await.expect("the WebSocket opens");
    let hello = next(&mut ws).await;
    assert_eq!(hello["type"], "hello", "{hello}");
    assert_eq!(hello["games"].as_array().map(Vec::len), Some(5), "{hello}");
    ws
}

/// The next JSON message; panics after [`WAIT`] or when the connection ends.
pub(crate) async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(WAIT, ws.next()).await.expect("a message in time");
        match msg {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Some(Ok(_)) => continue,
            other => panic!("the connection ended: {other:?}"),
        }
    }
}

/// Messages until one of type `kind` (which is returned); an `error` on the way fails.
pub(crate) async fn until(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == kind {
            return m;
        }
        assert_ne!(m["type"], "error", "waiting for {kind}: {m}");
    }
}

pub(crate) async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("sent");
}

async fn error_for(ws: &mut Ws, msg: Message) -> String {
    ws.send(msg).await.expect("sent");
    let m = until_error(ws).await;
    m["message"].as_str().unwrap_or_default().to_string()
}

pub(crate) async fn until_error(ws: &mut Ws) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == "error" {
            return m;
        }
    }
}

pub(crate) fn new_game(variant: &str, b: &str, w: &str, limit: Value) -> Value {
    json!({ "type": "new", "variant": variant, "seats": { "b": b, "w": w }, "limit": limit })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_and_oversized_messages_get_errors_and_the_server_goes_on() {
    let mut server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let text = |s: &str| Message::Text(s.to_string().into());
    assert!(error_for(&mut ws, text("not json")).await.starts_with("bad message"));
    assert!(error_for(&mut ws, text(r#"{"type":"fly"}"#)).await.starts_with("bad message"));
    assert!(error_for(&mut ws, text(r#"{"type":"move","move":"7g7f"}"#)).await.contains("no game yet"));
    assert!(error_for(&mut ws, Message::Binary(vec![1, 2, 3].into())).await.contains("binary"));
    let long = format!(r#"{{"type":"paste","text":"{}"}}"#, "x".repeat(100_000));
    assert!(error_for(&mut ws, text(&long)).await.contains("too long"));
    let bad_variant = new_game("chess", "human", "human", json!({ "movetime": 100 })).to_string();
    assert!(error_for(&mut ws, text(&bad_variant)).await.contains("chess"));
    let bad_limit = new_game("kokesu", "human", "koma", json!({ "movetime": 1 })).to_string();
    assert!(error_for(&mut ws, text(&bad_limit)).await.contains("limit"));
    let mut bad_rule = new_game("kokesu", "human", "human", json!({ "depth": 1 }));
    bad_rule["rules"] = json!({ "KokesuPromotion": "sometimes" });
    assert!(!error_for(&mut ws, text(&bad_rule.to_string())).await.is_empty());
    let mut bad_clock = new_game("kokesu", "human", "koma", json!({ "depth": 1 }));
    bad_clock["clock"] = json!({ "main": 0, "increment": 2000 });
    assert!(error_for(&mut ws, text(&bad_clock.to_string())).await.contains("clock out of range"));
    let join = json!({ "type": "join", "game": "0000" }).to_string();
    ws.send(text(&join)).await.unwrap();
    assert_eq!(until_error(&mut ws).await["code"], "no-game");

    // A game, then moves that are not legal, and a move that is.
    send(&mut ws, new_game("kokesu", "human", "human", json!({ "depth": 1 }))).await;
    let st = until(&mut ws, "state").await;
    assert_eq!(st["state"]["side"], "b");
    assert!(error_for(&mut ws, text(r#"{"type":"move","move":"5g5c"}"#)).await.contains("illegal move"));
    assert!(error_for(&mut ws, text(r#"{"type":"move","move":"x\u0000y"}"#)).await.contains("illegal move"));
    assert!(error_for(&mut ws, text(r#"{"type":"paste","text":"position sfen nonsense"}"#)).await.contains("position"));
    assert!(error_for(&mut ws, text(r#"{"type":"undo"}"#)).await.contains("no move"));
    send(&mut ws, json!({ "type": "move", "move": "5g5e" })).await;
    let st = until(&mut ws, "state").await;
    assert_eq!(st["moves"], json!(["5g5e"]));
    send(&mut ws, json!({ "type": "undo" })).await;
    assert_eq!(until(&mut ws, "state").await["moves"], json!([]));
    send(&mut ws, json!({ "type": "move", "move": "5g5e" })).await;
    assert_eq!(until(&mut ws, "state").await["moves"], json!(["5g5e"]));

    // A message over the wire limit (1 MiB) ends that connection, and only that one.
    let huge = format!(r#"{{"type":"paste","text":"{}"}}"#, "x".repeat(2 << 20));
    let _ = ws.send(text(&huge)).await;
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await.expect("the connection ends in time") {
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            Some(Ok(_)) => continue,
        }
    }
    assert!(server.alive());
    let mut again = connect(&server).await;
    send(&mut again, new_game("shogi66", "human", "human", json!({ "depth": 1 }))).await;
    let st = until(&mut again, "state").await;
    assert_eq!(st["state"]["phase"], "placement");
    drop(again);
    assert_eq!(server.stop(), "", "nothing on stderr without RUST_LOG");
}

/// One game against koma at a fixed node count: the human side plays the first legal move
/// each turn, `plies` times; every message must be free of errors.
async fn play_against_koma(server_ws: String, variant: &'static str, human_moves: usize) -> usize {
    let (mut ws, _) = connect_async(server_ws).await.expect("the WebSocket opens");
    assert_eq!(next(&mut ws).await["type"], "hello");
    send(&mut ws, new_game(variant, "human", "koma", json!({ "nodes": 300 }))).await;
    let mut played = 0;
    loop {
        let st = until(&mut ws, "state").await;
        if st["state"].get("result").is_some() || played == human_moves {
            return st["moves"].as_array().map_or(0, Vec::len);
        }
        if st["thinking"] == true || st["state"]["side"] != "b" {
            continue;
        }
        let mv = st["legal"][0].as_str().expect("a legal move").to_string();
        send(&mut ws, json!({ "type": "move", "move": mv })).await;
        played += 1;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_games_at_once_make_moves_without_an_error_in_bounded_memory() {
    let server = Server::start(&["--max-games", "60", "--hash", "16"]);
    let variants = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"];
    let mut tasks = Vec::new();
    for i in 0..50 {
        tasks.push(tokio::spawn(play_against_koma(server.ws_url(), variants[i % 5], 4)));
    }
    for t in tasks {
        let plies = t.await.expect("a game task ends without a panic");
        assert!(plies >= 4, "only {plies} plies");
    }
    // Their 16 MiB tables, and at most 4 MiB each besides.
    let rss_mib = server.status("VmRSS") / 1024;
    assert!(rss_mib < 50 * (16 + 4), "{rss_mib} MiB resident with 50 games");
    let mut ws = connect(&server).await;
    send(&mut ws, new_game("kokesu", "human", "human", json!({ "depth": 1 }))).await;
    until(&mut ws, "state").await;
    assert_eq!(server.stop(), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_closed_while_koma_thinks_does_no_harm_and_its_game_can_be_joined() {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    send(&mut ws, new_game("kokesu", "koma", "koma", json!({ "movetime": 2000 }))).await;
    let st = until(&mut ws, "state").await;
    let id = st["game"].as_str().unwrap().to_string();
    until(&mut ws, "thinking").await;
    drop(ws); // closed mid-search

    // Another page plays meanwhile.
    let mut other = connect(&server).await;
    send(&mut other, new_game("kaninariebi", "human", "human", json!({ "depth": 1 }))).await;
    until(&mut other, "state").await;
    send(&mut other, json!({ "type": "move", "move": "5a4a" })).await;
    assert_eq!(until(&mut other, "state").await["moves"], json!(["5a4a"]));

    // The reloaded page joins the first game, which paused while nobody watched and goes on
    // now: koma's move is played.
    let mut back = connect(&server).await;
    send(&mut back, json!({ "type": "join", "game": id })).await;
    loop {
        let st = until(&mut back, "state").await;
        assert_eq!(st["game"], id);
        if !st["moves"].as_array().unwrap().is_empty() {
            break;
        }
    }
    send(&mut back, json!({ "type": "pause", "paused": true })).await;
    let st = until(&mut back, "state").await;
    assert_eq!(st["paused"], true);
    assert_eq!(server.stop(), "");
}

// ---- A person's machine: what another site's page or a local program can do ----

/// The status code of a raw request to the server with these headers.
async fn status_of(server: &Server, path: &str, host: &str, origin: Option<&str>) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut tcp = TcpStream::connect(server.host()).await.expect("connects");
    let origin = origin.map(|o| format!("Origin: {o}\r\n")).unwrap_or_default();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {host}\r\n{origin}Upgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    tcp.write_all(req.as_bytes()).await.unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(WAIT, tcp.read(&mut buf)).await.expect("an answer in time").unwrap();
    let head = String::from_utf8_lossy(&buf[..n]).to_string();
    let code = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (code, head)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cross_site_websocket_hijacking_and_dns_rebinding_are_refused() {
    let mut server = Server::start(&[]);
    let host = server.host();
    let port = host.rsplit(':').next().unwrap().to_string();
    let own = format!("http://{host}");
    for (h, o) in [
        (host.clone(), Some("https://evil.example.com")),
        (host.clone(), Some("null")),
        (host.clone(), Some("http://evil.example.com")),
        (host.clone(), Some(&*format!("http://evil.example.com:{port}"))),
        (format!("evil.example.com:{port}"), None),
        ("attacker.rebind.example".into(), None),
        (format!("attacker.rebind.example:{port}"), Some(&*format!("http://attacker.rebind.example:{port}"))),
    ] {
        let (code, head) = status_of(&server, "/ws", &h, o).await;
        assert_eq!(code, 403, "Host {h}, Origin {o:?}: {head}");
        let (code, _) = status_of(&server, "/", &h, o).await;
        assert_eq!(code, 403, "the page too, Host {h}, Origin {o:?}");
    }
    // The server's own page, and programs that send no Origin.
    for (h, o) in [
        (host.clone(), Some(own.as_str())),
        (host.clone(), None),
        (format!("localhost:{port}"), Some(&*format!("http://localhost:{port}"))),
    ] {
        let (code, head) = status_of(&server, "/ws", &h, o).await;
        assert_eq!(code, 101, "Host {h}, Origin {o:?}: {head}");
    }
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers() {
    let server = Server::start(&[]);
    let host = server.host();
    for path in ["/", "/app.js", "/style.css", "/nothing-here"] {
        let (_, head) = status_of(&server, path, &host, None).await;
        let head = head.to_ascii_lowercase();
        assert!(head.contains("content-security-policy: default-src 'self'"), "{path}: {head}");
        assert!(head.contains("frame-ancestors 'none'"), "{path}: {head}");
        assert!(head.contains("x-content-type-options: nosniff"), "{path}: {head}");
        assert!(head.contains("x-frame-options: deny"), "{path}: {head}");
    }
    let (_, head) = status_of(&server, "/", "evil.example.com", None).await;
    assert!(head.to_ascii_lowercase().contains("x-frame-options: deny"), "a refusal too: {head}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_file_switch_is_reachable_from_a_message() {
    let mut server = Server::start(&[]);
    let (mut ws, _) = connect_async(server.ws_url()).await.unwrap();
    let hello = next(&mut ws).await;
    let offered: Vec<String> = hello["games"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap().to_string()))
        .collect();
    assert!(!offered.is_empty());
    assert!(offered.iter().all(|n| !n.contains("File") && !n.contains("Solution")), "{offered:?}");
    for (variant, switch) in [("kokesu", "KokesuNetFile"), ("shogi66", "Shogi66NetFile"), ("kokesu", "kokesunetfile")] {
        for path in ["/etc/shadow", "/nonexistent/x", "/etc", "/dev/zero"] {
            let mut msg = new_game(variant, "human", "human", json!({ "depth": 1 }));
            msg["rules"] = json!({ switch: path });
            let e = error_for(&mut ws, Message::Text(msg.to_string().into())).await;
            assert!(e.contains("names a file"), "{switch}={path}: {e}");
            assert!(!e.contains("KOMANNUE") && !e.contains("No such") && !e.contains("directory"), "{e}");
        }
    }
    // Engine options are not rules switches either.
    for name in ["NumberShogiSolution", "USI_Hash", "Threads"] {
        let mut msg = new_game("numbershogi", "human", "human", json!({ "depth": 1 }));
        msg["rules"] = json!({ name: "/etc/passwd" });
        let e = error_for(&mut ws, Message::Text(msg.to_string().into())).await;
        assert!(e.contains("no rules switch"), "{name}: {e}");
    }
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_games_bounds_the_engines_under_a_flood_of_new_games() {
    let mut server = Server::start(&["--max-games", "4"]);
    let base = server.status("Threads");
    let mut conns = Vec::new();
    for _ in 0..4 {
        let (mut ws, _) = connect_async(server.ws_url()).await.unwrap();
        next(&mut ws).await;
        conns.push(ws);
    }
    let koma_game = new_game("kokesu", "koma", "koma", json!({ "movetime": 60000 })).to_string();
    let mut most = 0;
    for round in 0..30 {
        for ws in conns.iter_mut() {
            ws.send(Message::Text(koma_game.clone().into())).await.unwrap();
        }
        if round % 5 == 0 {
            most = most.max(server.status("Threads"));
        }
    }
    // Each connection's answers: its last message must be a state of a running game.
    let mut states = 0;
    for ws in conns.iter_mut() {
        let deadline = tokio::time::Instant::now() + WAIT;
        let mut got = 0;
        while got < 30 {
            let m = tokio::time::timeout_at(deadline, next(ws)).await.expect("every new game is answered");
            if m["type"] == "state" || m["type"] == "error" {
                got += 1;
            }
            if m["type"] == "state" {
                states += 1;
            }
            most = most.max(server.status("Threads"));
        }
    }
    assert!(states >= 4, "games were started: {states}");
    // An engine is a thread and its search thread; 4 engines and the server's own threads.
    assert!(most <= base + 4 * 3 + 4, "threads: {most} at most, {base} at start");
    drop(conns);
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_that_never_reads_is_closed_after_the_send_timeout_and_memory_stays_bounded() {
    let mut server = Server::start(&[]);
    // A small receive buffer, so that the kernel holds little for the page that stops
    // reading and the server's sending to it stalls.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let tcp = socket.connect(server.host().parse().unwrap()).await.unwrap();
    let (mut lazy, _) = tokio_tungstenite::client_async(server.ws_url(), MaybeTlsStream::Plain(tcp)).await.unwrap();
    assert_eq!(next(&mut lazy).await["type"], "hello");
    send(&mut lazy, new_game("kanishogi", "human", "human", json!({ "depth": 1 }))).await;
    let id = until(&mut lazy, "state").await["game"].as_str().unwrap().to_string();
    let rss_start = server.status("VmRSS");
    // From here on the lazy page reads nothing. A second page follows the same game and
    // makes it send a state to both, 2,000 times (several MB: more than any kernel buffer).
    let mut watcher = connect(&server).await;
    send(&mut watcher, json!({ "type": "join", "game": id })).await;
    until(&mut watcher, "state").await;
    for i in 0..2000 {
        send(&mut watcher, json!({ "type": "pause", "paused": i % 2 == 0 })).await;
        until(&mut watcher, "state").await;
    }
    let rss = server.status("VmRSS");
    assert!(rss < rss_start + 64 * 1024, "RSS {rss} kB, {rss_start} kB before");
    // Its states coalesced (the latest one waits); a page that takes nothing for the send
    // timeout (10 s) is closed: what it reads after that ends in a close.
    tokio::time::sleep(Duration::from_secs(15)).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut read = 0;
    loop {
        match tokio::time::timeout_at(deadline, lazy.next()).await.expect("the lazy page is closed in time") {
            Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            Some(Ok(_)) => read += 1,
        }
    }
    assert!(read < 2000, "the lazy page was dropped before it got every state ({read})");
    // The game and the other page go on.
    send(&mut watcher, json!({ "type": "pause", "paused": false })).await;
    let st = until(&mut watcher, "state").await;
    let mv = st["legal"][0].clone();
    send(&mut watcher, json!({ "type": "move", "move": mv })).await;
    assert_eq!(until(&mut watcher, "state").await["moves"], json!([mv]));
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_connection_cap_and_the_header_deadline_keep_the_owners_page_in() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut server = Server::start(&["--max-connections", "8"]);
    // Half-sent requests and idle WebSockets, more than the cap.
    let mut half = Vec::new();
    for _ in 0..12 {
        let mut tcp = TcpStream::connect(server.host()).await.unwrap();
        tcp.write_all(b"GET / HTTP/1.1\r\nHost: ").await.unwrap();
        half.push(tcp);
    }
    let mut idle = Vec::new();
    for _ in 0..12 {
        if let Ok((ws, _)) = connect_async(server.ws_url()).await {
            idle.push(ws);
        }
    }
    // The owner's page still connects and plays.
    let mut ws = connect(&server).await;
    send(&mut ws, new_game("kokesu", "human", "human", json!({ "depth": 1 }))).await;
    until(&mut ws, "state").await;
    // Of the half-sent requests, none is still open (closed to make room, or at the
    // header deadline): each reads to its end.
    for mut tcp in half {
        let mut buf = [0u8; 1024];
        loop {
            match tokio::time::timeout(WAIT, tcp.read(&mut buf)).await.expect("closed in time") {
                Ok(0) | Err(_) => break,
                Ok(_) => continue,
            }
        }
    }
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_tab_pauses_a_koma_against_koma_game_until_it_is_joined_again() {
    let mut server = Server::start(&[]);
    let mut ws = connect(&server).await;
    send(&mut ws, new_game("kokesu", "koma", "koma", json!({ "movetime": 1000 }))).await;
    let id = until(&mut ws, "state").await["game"].as_str().unwrap().to_string();
    until(&mut ws, "thinking").await;
    drop(ws);
    // Nobody watches: no search runs. Over the next 3 s of the server's life it uses
    // almost no CPU, where a running search would use about a second of it each second.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = server.cpu_ticks();
    tokio::time::sleep(Duration::from_secs(3)).await;
    let used = server.cpu_ticks() - before;
    assert!(used < 50, "{used} ticks of CPU in 3 s with nobody watching");
    // Joined again, the game goes on: koma moves.
    let mut back = connect(&server).await;
    send(&mut back, json!({ "type": "join", "game": id })).await;
    let first = until(&mut back, "state").await["moves"].as_array().unwrap().len();
    loop {
        let st = until(&mut back, "state").await;
        if st["moves"].as_array().unwrap().len() > first {
            break;
        }
    }
    assert!(server.alive());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn number_shogis_hidden_setup_stays_hidden_until_both_are_placed() {
    let mut server = Server::start(&[]);
    let mut ws = connect(&server).await;
    send(&mut ws, new_game("numbershogi", "human", "koma", json!({ "nodes": 1000 }))).await;
    let mut st = until(&mut ws, "state").await;
    assert_eq!(st["hidden"]["side"], "w", "{st}");
    let mut seen_hidden = false;
    loop {
        if st["state"]["phase"] != "placement" {
            break;
        }
        if st["state"]["side"] == "b" && st["thinking"] == false {
            let moves = st["moves"].as_array().unwrap();
            let placed = st["hidden"]["placed"].as_u64().unwrap() as usize;
            assert_eq!(placed, moves.len() / 2, "{st}");
            // koma's placements are "?" and nowhere on the board; its hand is whole.
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(m == "?", i % 2 == 1, "{st}");
            }
            let sfen = st["state"]["sfen"].as_str().unwrap();
            let board = sfen.split(' ').next().unwrap();
            assert!(!board.chars().any(|c| c.is_ascii_lowercase()), "{sfen}");
            assert_eq!(st["state"]["hands"]["w"], "abcdef", "{st}");
            for line in st["state"]["board"].as_array().unwrap() {
                let line = line.as_str().unwrap();
                let cells = match (line.find('|'), line.rfind('|')) {
                    (Some(a), Some(b)) if a < b => &line[a..b],
                    _ => "",
                };
                assert!(!cells.chars().any(|c| c.is_ascii_lowercase()), "{line}");
            }
            assert!(st["evals"].as_array().unwrap().iter().all(Value::is_null));
            if placed > 0 {
                seen_hidden = true;
                let e = error_for(&mut ws, Message::Text(json!({ "type": "analyse" }).to_string().into())).await;
                assert!(e.contains("hidden"), "{e}");
            }
            let mv = st["legal"][0].clone();
            send(&mut ws, json!({ "type": "move", "move": mv })).await;
        }
        st = loop {
            let m = next(&mut ws).await;
            assert_ne!(m["type"], "error", "{m}");
            if m["type"] == "info" {
                assert!(m.get("pv").is_none() && m.get("best").is_none(), "nothing of koma's search: {m}");
            }
            if m["type"] == "state" {
                break m;
            }
        };
    }
    assert!(seen_hidden);
    // Both placed: everything is shown.
    assert!(st["hidden"].is_null(), "{st}");
    let moves = st["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 12);
    assert!(moves.iter().all(|m| m != "?"), "{st}");
    assert!(st["state"]["sfen"].as_str().unwrap().chars().any(|c| c.is_ascii_lowercase()));
    assert!(server.alive());
}

#[test]
fn binding_another_address_warns_and_prints_the_address_with_its_token() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(crate::common::koma_path())
        .args(["serve", "--port", "0", "--bind", "0.0.0.0", "--hash", "1"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    let mut second = String::new();
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains("playing at http://0.0.0.0:") && first.contains("/?token="), "{first}");
    assert!(second.contains("warning") && second.contains("token"), "{second}");
}

/// First run: `koma serve --open` where no browser can be opened (no display) says so
/// plainly, beside the address to open by hand.
#[test]
fn first_run_serve_open_without_a_display_says_no_browser_could_be_opened() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(crate::common::koma_path())
        .args(["serve", "--port", "0", "--hash", "1", "--open"])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let (mut first, mut second) = (String::new(), String::new());
    out.read_line(&mut first).unwrap();
    out.read_line(&mut second).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(first.contains("playing at http://127.0.0.1:"), "{first}");
    let url = first.trim().rsplit(' ').next().unwrap();
    assert!(second.contains("no browser could be opened") && second.contains("no display"), "{second}");
    assert!(second.contains(&format!("open {url} yourself")), "{second}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn levels_are_offered_per_game_and_koma_plays_at_one() {
    let mut server = Server::start(&[]);
    let (mut ws, _) = connect_async(server.ws_url()).await.unwrap();
    let hello = next(&mut ws).await;
    for g in hello["games"].as_array().unwrap() {
        let levels = g["levels"].as_array().unwrap();
        assert!(levels.len() >= 3, "{g}");
        assert!(levels.iter().all(|l| l["name"].is_string() && l["elo"].is_u64() && l["level"].is_u64()), "{g}");
    }
    let e = error_for(
        &mut ws,
        Message::Text(new_game("kokesu", "human", "koma", json!({ "level": 99 })).to_string().into()),
    )
    .await;
    assert!(e.contains("level 0..20"), "{e}");
    // koma moves at the weakest level, and full strength again after a change of limit.
    send(&mut ws, new_game("kokesu", "koma", "human", json!({ "level": 0 }))).await;
    let st = loop {
        let st = until(&mut ws, "state").await;
        if !st["moves"].as_array().unwrap().is_empty() {
            break st;
        }
    };
    assert_eq!(st["limit"], json!({ "level": 0 }));
    let mv = st["legal"][0].clone();
    send(&mut ws, json!({ "type": "seats", "seats": { "b": "koma", "w": "human" }, "limit": { "depth": 2 } })).await;
    until(&mut ws, "state").await;
    send(&mut ws, json!({ "type": "move", "move": mv })).await;
    loop {
        let st = until(&mut ws, "state").await;
        if st["moves"].as_array().unwrap().len() == 3 {
            break;
        }
    }
    assert!(server.alive());
}

/// `hello` carries each game's title and look as its module declares them
/// (`Game::APPEARANCE`, through the registry): the page draws from nothing else.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hello_carries_each_games_look_from_the_registry() {
    let server = Server::start(&[]);
    let (mut ws, _) = connect_async(server.ws_url()).await.expect("the WebSocket opens");
    let hello = next(&mut ws).await;
    let sent = hello["games"].as_array().expect("games").clone();
    let registry = koma::games::descriptors();
    assert_eq!(sent.len(), registry.len(), "{hello}");
    for (g, d) in sent.iter().zip(registry) {
        let a = d.appearance;
        assert_eq!(g["name"], d.name);
        assert_eq!(g["title"], a.title);
        let water = a.water.map(|w| json!({ "file": w.file, "name": w.name }));
        let mut look = g["look"].clone();
        let kanji = look.as_object_mut().and_then(|l| l.remove("kanji")).expect("kanji, or null");
        let expected = json!({ "light": a.light, "dark": a.dark, "line": a.line, "tinted": a.tinted, "water": water,
            "pieces": a.pieces.word(), "hands": a.hands, "pointed": a.pointed, "promote": a.promote, "stay": a.stay,
            "chess": a.chess });
        assert_eq!(look, expected, "{}", d.name);
        // Kanji for the games with KIF names, the KIF diagrams' characters.
        assert_eq!(kanji.is_object(), koma::records::kif::supports(d.name), "{}: {kanji}", d.name);
        let players = if a.chess { json!(["White", "Black"]) } else { json!(d.players) };
        assert_eq!(g["players"], players, "{}", d.name);
    }
    // What the page showed before it read `hello`, game by game.
    let of = |name: &str| sent.iter().find(|g| g["name"] == name).unwrap_or_else(|| panic!("{name} in hello")).clone();
    let titles: Vec<&str> = sent.iter().map(|g| g["title"].as_str().unwrap()).collect();
    assert_eq!(titles, ["66 shogi", "Kokesu", "Number Shogi", "Kani Shogi", "Kani Nari Ebi"]);
    let kokesu = of("kokesu")["look"].clone();
    assert_eq!(
        (&kokesu["light"], &kokesu["dark"], &kokesu["pieces"]),
        (&json!("#f0d9b5"), &json!("#b58863"), &json!("kokeshi"))
    );
    assert_eq!((&kokesu["hands"], &kokesu["pointed"]), (&json!(false), &json!(false)));
    let numbers = of("numbershogi")["look"].clone();
    assert_eq!(
        (&numbers["pieces"], &numbers["hands"], &numbers["pointed"]),
        (&json!("numbers"), &json!(true), &json!(true))
    );
    let river = of("kanishogi")["look"].clone();
    assert_eq!((&river["water"], &river["promote"]), (&json!({ "file": 3, "name": "river" }), &json!("Grow")));
    assert_eq!(river["tinted"], json!([[5, "#e3dccb"], [1, "#f4d9d4"]]));
    let current = of("kaninariebi")["look"].clone();
    assert_eq!(current["water"]["name"], "current");
    assert_eq!((&current["pieces"], &current["promote"]), (&json!("crabs-and-shrimps"), &json!("Become a shrimp")));
    assert_eq!(of("shogi66")["look"]["stay"], "Don't promote");
    let shogi = of("shogi66")["look"]["kanji"].clone();
    assert_eq!(
        (&shogi["+S"], &shogi["K"], &shogi["k"]),
        (&json!(["全", "成銀"]), &json!(["玉", "玉将"]), &json!(["王", "王将"]))
    );
    assert_eq!(of("numbershogi")["look"]["kanji"]["+F"], json!(["陸", "陸"]));
    assert_eq!(kokesu["chess"], true);
    drop(ws);
    assert_eq!(server.stop(), "");
}
