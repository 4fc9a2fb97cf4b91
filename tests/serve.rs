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

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(120);

async fn connect(server: &Server) -> Ws {
    let (mut ws, _) = connect_async(server.ws_url()).await.expect("the WebSocket opens");
    let hello = next(&mut ws).await;
    assert_eq!(hello["type"], "hello", "{hello}");
    assert_eq!(hello["games"].as_array().map(Vec::len), Some(5), "{hello}");
    ws
}

/// The next JSON message; panics after [`WAIT`] or when the connection ends.
async fn next(ws: &mut Ws) -> Value {
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
async fn until(ws: &mut Ws, kind: &str) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == kind {
            return m;
        }
        assert_ne!(m["type"], "error", "waiting for {kind}: {m}");
    }
}

async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("sent");
}

async fn error_for(ws: &mut Ws, msg: Message) -> String {
    ws.send(msg).await.expect("sent");
    let m = until_error(ws).await;
    m["message"].as_str().unwrap_or_default().to_string()
}

async fn until_error(ws: &mut Ws) -> Value {
    loop {
        let m = next(ws).await;
        if m["type"] == "error" {
            return m;
        }
    }
}

fn new_game(variant: &str, b: &str, w: &str, limit: Value) -> Value {
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
async fn fifty_games_at_once_make_moves_without_an_error() {
    let server = Server::start(&["--max-games", "60"]);
    let variants = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"];
    let mut tasks = Vec::new();
    for i in 0..50 {
        tasks.push(tokio::spawn(play_against_koma(server.ws_url(), variants[i % 5], 4)));
    }
    for t in tasks {
        let plies = t.await.expect("a game task ends without a panic");
        assert!(plies >= 4, "only {plies} plies");
    }
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

    // The reloaded page joins the first game, which went on: koma's move was played.
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
