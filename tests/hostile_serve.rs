//! `koma serve` against what a page, a script or a local program may send (issue 53): no
//! origin but the page's own, and beyond loopback no request without the token; no `new`
//! refused while an unfollowed game can be ended; no connection cap that closes the page
//! that follows a game before those that follow none; a fair queue of explorations; a
//! slow page given the latest state rather than dropped; the default caps within 512 MiB;
//! and `load` fuzzed in-process. Servers are reached only through 127.0.0.1, other
//! addresses only forged in `Host` and `Origin`; waits are generous deadlines.

use std::io::{Read, Write};
use std::net::TcpStream as StdTcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::connect_async;
use tokio_tungstenite::tungstenite::Message;

use crate::common::server::Server;
use crate::serve::{connect, new_game, next, send, until, Ws};

const WAIT: Duration = Duration::from_secs(120);

/// One HTTP request to the server at `port` through 127.0.0.1, with these header lines;
/// the answer's head (status line and headers).
fn head_of(port: u16, request_line: &str, headers: &[String]) -> String {
    let mut tcp = StdTcpStream::connect(("127.0.0.1", port)).expect("the server listens");
    tcp.set_read_timeout(Some(WAIT)).unwrap();
    let mut text = format!("{request_line}\r\n");
    for h in headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    if !headers.iter().any(|h| h.starts_with("Connection:")) {
        text.push_str("Connection: close\r\n");
    }
    text.push_str("\r\n");
    tcp.write_all(text.as_bytes()).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    // The head is enough (a WebSocket that opens does not close).
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        match tcp.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
    let answer = String::from_utf8_lossy(&answer).to_string();
    answer.split("\r\n\r\n").next().unwrap_or_default().to_string()
}

/// The status code of a WebSocket handshake on `/ws` + `query` with these headers.
fn upgrade(port: u16, query: &str, headers: &[String]) -> String {
    let mut all = vec![
        "Upgrade: websocket".to_string(),
        "Connection: Upgrade".to_string(),
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==".to_string(),
        "Sec-WebSocket-Version: 13".to_string(),
    ];
    all.extend_from_slice(headers);
    let head = head_of(port, &format!("GET /ws{query} HTTP/1.1"), &all);
    head.split(' ').nth(1).unwrap_or_default().to_string()
}

#[test]
fn row8_on_every_address_an_ip_literal_origin_is_refused_and_every_request_needs_the_token() {
    let server = Server::start(&["--bind", "0.0.0.0"]);
    let port = server.port();
    let token = server.token().expect("bound beyond loopback, the printed address has a token");
    assert_eq!(token.len(), 32, "{}", server.url);
    assert!(server.url.starts_with(&format!("http://0.0.0.0:{port}/?token=")), "{}", server.url);
    let host = |h: &str| format!("Host: {h}:{port}");
    let origin = |h: &str| format!("Origin: http://{h}:{port}");
    let with_token = format!("?token={token}");

    // Another site's page, served from an IP address, even one that knows the token.
    for site in ["203.0.113.7", "[2001:db8::1]"] {
        assert_eq!(upgrade(port, &with_token, &[host("127.0.0.1"), origin(site)]), "403", "{site}");
        assert_eq!(upgrade(port, "", &[host("127.0.0.1"), origin(site)]), "403", "{site}");
    }
    // Without the token, nothing: not the WebSocket, not the page, not its files.
    assert_eq!(upgrade(port, "", &[host("127.0.0.1"), origin("127.0.0.1")]), "403");
    assert_eq!(upgrade(port, "", &[host("127.0.0.1")]), "403");
    assert_eq!(upgrade(port, "?token=00000000000000000000000000000000", &[host("127.0.0.1")]), "403");
    for path in ["/", "/app.js", "/howto.json"] {
        let head = head_of(port, &format!("GET {path} HTTP/1.1"), &[host("127.0.0.1")]);
        assert!(head.starts_with("HTTP/1.1 403"), "{path}: {head}");
    }
    // With it: the page's own origin, a script without one, and a page of this machine
    // opened through one of its addresses.
    assert_eq!(upgrade(port, &with_token, &[host("127.0.0.1"), origin("127.0.0.1")]), "101");
    assert_eq!(upgrade(port, &with_token, &[host("127.0.0.1")]), "101");
    assert_eq!(upgrade(port, &with_token, &[host("203.0.113.7"), origin("203.0.113.7")]), "101");

    // The printed address: the page load sets the cookie and drops the token from the
    // address; the cookie then carries the page's other requests and its WebSocket.
    let head = head_of(port, &format!("GET /?variant=x&token={token} HTTP/1.1"), &[host("127.0.0.1")]);
    assert!(head.starts_with("HTTP/1.1 303"), "{head}");
    let lower = head.to_ascii_lowercase();
    assert!(lower.contains("\r\nlocation: /?variant=x"), "{head}");
    let cookie_line = format!("set-cookie: koma_token_{port}={token}; path=/; httponly; samesite=strict");
    assert!(lower.contains(&cookie_line), "{head}");
    let cookie = format!("Cookie: koma_token_{port}={token}");
    for path in ["/", "/app.js"] {
        let head = head_of(port, &format!("GET {path} HTTP/1.1"), &[host("127.0.0.1"), cookie.clone()]);
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    }
    assert_eq!(upgrade(port, "", &[host("127.0.0.1"), origin("127.0.0.1"), cookie.clone()]), "101");
    assert_eq!(upgrade(port, "", &[host("127.0.0.1"), origin("203.0.113.7"), cookie]), "403");
    assert_eq!(server.stop(), "");

    // On loopback no token is asked, and none printed.
    let local = Server::start(&[]);
    assert_eq!(local.token(), None);
    assert_eq!(upgrade(local.port(), "", &[format!("Host: 127.0.0.1:{}", local.port())]), "101");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row9_every_new_gets_a_game_while_an_unfollowed_game_can_be_ended() {
    let server = Server::start(&["--max-games", "8"]);
    // Eight games, then none followed: the page that started them one after the other
    // follows only the last, and closes.
    let mut first = connect(&server).await;
    for _ in 0..8 {
        send(&mut first, new_game(koma::games::names()[0], "human", "human", json!({ "depth": 1 }))).await;
        until(&mut first, "state").await;
    }
    drop(first);
    // Four `new` at once: each ends an unfollowed game, or waits for one ended for it.
    let mut pages = Vec::new();
    for _ in 0..4 {
        pages.push(connect(&server).await);
    }
    for ws in &mut pages {
        send(ws, new_game(koma::games::names()[0], "human", "human", json!({ "depth": 1 }))).await;
    }
    for ws in &mut pages {
        let st = until(ws, "state").await;
        assert_eq!(st["moves"], json!([]), "{st}");
    }
    assert_eq!(server.stop(), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row10_the_connection_cap_closes_pages_that_follow_nothing_before_the_owners_silent_tab() {
    let server = Server::start(&["--max-connections", "4"]);
    let mut owner = connect(&server).await;
    send(&mut owner, new_game(koma::games::names()[0], "human", "human", json!({ "depth": 1 }))).await;
    until(&mut owner, "state").await;
    // The owner's tab is silent from now on; others connect and ping, again and again.
    let mut others: Vec<Ws> = Vec::new();
    for round in 0..12 {
        tokio::time::sleep(Duration::from_millis(20)).await;
        let mut ws = connect(&server).await;
        ws.send(Message::Ping(vec![round as u8].into())).await.expect("a ping");
        others.push(ws);
    }
    // Still open: it answers.
    send(&mut owner, json!({ "type": "undo" })).await;
    let answer = next(&mut owner).await;
    assert!(answer["message"].as_str().is_some_and(|m| m.contains("no move")), "{answer}");
    assert_eq!(server.stop(), "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row11_explorations_are_a_fair_queue_so_a_page_that_loops_cannot_keep_another_out() {
    let server = Server::start(&[]);
    // Two pages ask again as soon as they are answered, each time for a position too big
    // to solve (so each exploration takes its whole time).
    let stop = Arc::new(AtomicBool::new(false));
    let mut hogs = Vec::new();
    for _ in 0..2 {
        let mut ws = connect(&server).await;
        let stop = Arc::clone(&stop);
        hogs.push(tokio::spawn(async move {
            let long = json!({ "type": "explore", "variant": crab_game() });
            while !stop.load(Ordering::SeqCst) {
                send(&mut ws, long.clone()).await;
                let _ = next(&mut ws).await;
            }
        }));
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut owner = connect(&server).await;
    let quick = json!({ "type": "explore", "variant": solved_game(), "sfen": "bcd/e2/1a1/BAC/DEF b F 30" });
    for _ in 0..3 {
        send(&mut owner, quick.clone()).await;
        let answer = next(&mut owner).await;
        assert_eq!(answer["type"], "explore", "the owner's turn comes: {answer}");
    }
    stop.store(true, Ordering::SeqCst);
    for h in hogs {
        tokio::time::timeout(WAIT, h).await.expect("the loops end").expect("no panic");
    }
    assert_eq!(server.stop(), "");
}

/// A game the solver plays whose start is far too big to solve in an exploration's time.
fn crab_game() -> &'static str {
    koma::games::names().iter().find(|n| n.starts_with("kani")).expect("a crab game")
}

/// The game whose position `bcd/e2/1a1/BAC/DEF b F 30` is (a win in one).
fn solved_game() -> &'static str {
    koma::games::names().iter().find(|n| n.starts_with("number")).expect("the numbers game")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row12_a_follower_that_reads_slowly_gets_the_latest_state_and_is_not_dropped() {
    const TOGGLES: usize = 20_000;
    let server = Server::start(&[]);
    let mut player = connect(&server).await;
    send(&mut player, new_game(koma::games::names()[0], "human", "human", json!({ "depth": 1 }))).await;
    let game = until(&mut player, "state").await["game"].as_str().unwrap().to_string();
    // A second page follows the same game and reads one message every 10 ms.
    let (mut slow, _) = connect_async(server.ws_url()).await.expect("the WebSocket opens");
    assert_eq!(next(&mut slow).await["type"], "hello");
    send(&mut slow, json!({ "type": "join", "game": game })).await;
    assert_eq!(until(&mut slow, "state").await["paused"], false);
    // The player pauses and resumes 20,000 times, ending paused, reading what comes.
    let (mut sink, mut stream) = player.split();
    let drain = tokio::spawn(async move { while let Some(Ok(_)) = stream.next().await {} });
    let toggles = tokio::spawn(async move {
        for i in 0..TOGGLES {
            let m = json!({ "type": "pause", "paused": i % 2 == 1 }).to_string();
            sink.send(Message::Text(m.into())).await.expect("sent");
        }
        // The last change, told by its limit.
        let last = json!({ "type": "seats", "seats": { "b": "human", "w": "human" }, "limit": { "depth": 2 } });
        sink.send(Message::Text(last.to_string().into())).await.expect("sent");
        sink
    });
    let mut states = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let m = next(&mut slow).await;
        if m["type"] == "state" {
            states += 1;
            if m["limit"] == json!({ "depth": 2 }) {
                assert_eq!(m["paused"], true, "the latest state");
                break;
            }
        }
    }
    assert!(states < TOGGLES, "{states} states for {TOGGLES} changes: stale ones were queued");
    // Still followed: the slow page sees the next change.
    let mut sink = toggles.await.unwrap();
    sink.send(Message::Text(json!({ "type": "pause", "paused": false }).to_string().into())).await.unwrap();
    loop {
        let m = next(&mut slow).await;
        if m["type"] == "state" && m["paused"] == false {
            break;
        }
    }
    drain.abort();
    assert_eq!(server.stop(), "");
}

#[test]
fn row17_the_default_caps_fit_in_512_mib_and_help_states_them() {
    use koma::serve::{DEFAULT_HASH_MIB, DEFAULT_MAX_GAMES, DEFAULT_MEMORY_MIB, FIXED_MIB, GAME_OVERHEAD_MIB};
    assert_eq!(DEFAULT_MEMORY_MIB, DEFAULT_MAX_GAMES * (DEFAULT_HASH_MIB + GAME_OVERHEAD_MIB) + FIXED_MIB);
    // Checked when the test is built: the default caps within 512 MiB.
    const { assert!(DEFAULT_MEMORY_MIB <= 512, "the default caps take more than 512 MiB") };
    let out = std::process::Command::new(crate::common::koma_path()).args(["serve", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(help.contains(&format!("[default: {DEFAULT_HASH_MIB}]")), "{help}");
    assert!(help.contains(&format!("[default: {DEFAULT_MAX_GAMES}]")), "{help}");
    assert!(help.contains(&format!("at most about {DEFAULT_MEMORY_MIB} MiB")), "{help}");
}

/// Records of every game in every format that holds it, from random games.
fn record_texts(rng: &mut fastrand::Rng) -> Vec<(String, String)> {
    use koma::records::{Format, Record, Walk};
    let mut texts = Vec::new();
    for &variant in koma::games::names().iter() {
        let mut board = koma::engine::new_board(variant).unwrap();
        let mut moves = Vec::new();
        for _ in 0..24 {
            board.set_position(None, &moves).unwrap();
            let legal = board.legal_moves().unwrap();
            if legal.is_empty() || board.outcome().is_some() {
                break;
            }
            moves.push(legal[rng.usize(..legal.len())].clone());
        }
        let mut record = Record::new(variant);
        record.headers = vec![
            ("sente".into(), "先手 human".into()),
            ("gote".into(), "koma".into()),
            ("event".into(), "fuzz".into()),
        ];
        let mut walk = Walk::new(record, 0).map_err(|_| "walk").unwrap();
        for (i, m) in moves.iter().enumerate() {
            walk.push(m, 0);
            if i % 5 == 0 {
                walk.comment("a comment, 一言");
            }
        }
        let record = walk.finish(None).whole().unwrap();
        for format in Format::ALL.into_iter().filter(|f| f.supports(variant)) {
            if let Ok(text) = koma::records::write(format, &record) {
                texts.push((text, format!("game.{}", format.extension())));
            }
        }
    }
    texts
}

/// `text` changed a few times: characters cut, inserted (of several byte lengths),
/// lines doubled or dropped, the text cut short.
fn mutate(text: &str, rng: &mut fastrand::Rng) -> String {
    const PIECES: &[&str] = &[
        "é", "あ", "十", "歩", "+", "-", "%", "P", "\n", "V2.2\n", ":", "\"", "[", "]", " ", "0", "9", "\r", "\t", "*",
    ];
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.usize(1..4) {
        let at = rng.usize(..=chars.len());
        match rng.u8(..6) {
            0 if !chars.is_empty() => {
                let end = (at + rng.usize(1..8)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 | 2 => {
                let piece = PIECES[rng.usize(..PIECES.len())];
                let inserted: Vec<char> = piece.repeat(rng.usize(1..4)).chars().collect();
                chars.splice(at..at, inserted);
            }
            3 => chars.truncate(at),
            4 => {
                let lines: Vec<String> = chars.iter().collect::<String>().lines().map(str::to_string).collect();
                if !lines.is_empty() {
                    let i = rng.usize(..lines.len());
                    let mut out = lines.clone();
                    if rng.bool() {
                        out.insert(i, lines[i].clone());
                    } else {
                        out.remove(i);
                    }
                    chars = out.join("\n").chars().collect();
                }
            }
            _ => {
                if let Some(c) = chars.get_mut(at) {
                    *c = char::from_u32(rng.u32(0x20..0x3100)).unwrap_or('?');
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn load_fuzzed_with_fixed_seeds_never_panics() {
    const MUTANTS: usize = 24_000;
    let mut rng = fastrand::Rng::with_seed(53);
    let bases = record_texts(&mut rng);
    assert!(bases.len() >= 10, "{} records", bases.len());
    for (text, name) in &bases {
        let answer: Value = serde_json::from_str(&koma::serve::records::load(text, Some(name)).expect("read")).unwrap();
        assert_eq!(answer["type"], "load");
    }
    let mut panics = Vec::new();
    for n in 0..MUTANTS {
        let (text, name) = &bases[n % bases.len()];
        let mutant = mutate(text, &mut rng);
        let name = if rng.u8(..4) == 0 { None } else { Some(name.as_str()) };
        let result = std::panic::catch_unwind(|| koma::serve::records::load(&mutant, name));
        match result {
            Err(payload) => {
                let why = payload.downcast_ref::<String>().cloned().unwrap_or_default();
                let format = koma::records::Format::detect(&mutant, name).name();
                panics.push(format!("{format} record: {why}: {mutant:?}"));
            }
            Ok(Ok(answer)) => assert!(answer.contains("\"type\":\"load\""), "{answer}"),
            Ok(Err(e)) => assert!(!e.is_empty() && !e.contains('\n'), "one line: {e:?}"),
        }
    }
    let shown = panics[..3.min(panics.len())].join("\n");
    assert!(panics.is_empty(), "{} of {MUTANTS} mutants panicked `load`, e.g.\n{shown}", panics.len());
}
