//! `koma serve`'s help for players, on the server side: `GET /howto.json` (each game's
//! section of protocol/rules.md and its pieces' moves, asked of the engine) and the
//! `explore` message (every legal move with its exact value, from the solver), its limits
//! (one running per connection, none during a placement, only the
//! game's rules switches) and its values checked against `koma solve`'s.

use std::io::{Read, Write};
use std::net::TcpStream as StdTcpStream;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use koma::search::solve::Budget;
use koma::serve::{explore, ExploreRequest};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

use crate::common::server::Server;

type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

const WAIT: Duration = Duration::from_secs(120);

/// A Number Shogi position in play, sente to move with the 6 in hand: taking the 1 on 2c
/// makes a hand of 1 + 6, a win in one ply.
const WIN_IN_ONE: &str = "bcd/e2/1a1/BAC/DEF b F 30";

fn request(variant: &str, sfen: Option<&str>, moves: &[&str]) -> ExploreRequest {
    ExploreRequest {
        variant: variant.into(),
        rules: Default::default(),
        sfen: sfen.map(str::to_string),
        moves: moves.iter().map(|m| m.to_string()).collect(),
    }
}

fn get(url: &str, path: &str) -> (String, String) {
    let addr = url.trim_start_matches("http://").trim_end_matches('/');
    let mut tcp = StdTcpStream::connect(addr).expect("the server listens");
    tcp.set_read_timeout(Some(WAIT)).unwrap();
    write!(tcp, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).expect("an answer");
    let (head, body) = answer.split_once("\r\n\r\n").expect("headers and a body");
    (head.to_string(), body.to_string())
}

#[test]
fn howto_json_has_every_games_rules_section_and_its_pieces_moves_from_the_engine() {
    let server = Server::start(&[]);
    let (head, body) = get(&server.url, "/howto.json");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("content-type: application/json"), "{head}");
    let v: Value = serde_json::from_str(&body).expect("JSON");
    let games = v["games"].as_array().expect("games");
    assert_eq!(games.len(), koma::games::names().len());
    for g in games {
        let name = g["name"].as_str().unwrap();
        let rules = g["rules"].as_str().unwrap_or_else(|| panic!("{name}: no rules section"));
        // The section is rules.md's own text, from its heading to the next one.
        assert!(rules.starts_with("## ") && rules.contains(&format!("(`{name}`)")), "{name}: {rules:.80}");
        assert!(koma::serve::RULES_MD.contains(rules), "{name}: not a part of rules.md");
        assert!(!rules[3..].contains("\n## "), "{name}: the section runs into the next one");
        assert!(rules.contains("**Winning**"), "{name}: no winning rule");
        let pieces = g["pieces"].as_array().unwrap();
        assert!(!pieces.is_empty(), "{name}: no piece diagrams");
        for p in pieces {
            assert!(!p["targets"].as_array().unwrap().is_empty(), "{name}: {p} cannot move");
        }
    }
    let game = |n: &str| games.iter().find(|g| g["name"] == n).unwrap().clone();
    // Checkmate where rules.md says so; exact values where the solver plays.
    let flags: Vec<(bool, bool)> = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"]
        .iter()
        .map(|n| (game(n)["checkmate"] == true, game(n)["exact"] == true))
        .collect();
    assert_eq!(flags, [(true, false), (true, false), (false, true), (false, true), (false, true)]);
    // The engine's moves: a 66 shogi rook on an open file and rank, a Number Shogi 6 (a
    // gold's steps), a Kokesu pawn's double step from its rank, a shrimp's four diagonals.
    let piece = |g: &str, p: &str| {
        let d = game(g)["pieces"].as_array().unwrap().iter().find(|d| d["piece"] == p).cloned();
        d.unwrap_or_else(|| panic!("{g}: no diagram of {p}"))
    };
    let targets = |d: &Value| d["targets"].as_array().unwrap().len();
    assert_eq!(targets(&piece("shogi66", "R")), 10, "{}", piece("shogi66", "R"));
    assert_eq!(targets(&piece("shogi66", "+R")), 14);
    assert_eq!(targets(&piece("numbershogi", "F")), 6, "{}", piece("numbershogi", "F"));
    assert_eq!(targets(&piece("numbershogi", "+A")), 8, "{}", piece("numbershogi", "+A"));
    assert_eq!(targets(&piece("kokesu", "P")), 2);
    assert_eq!(targets(&piece("kaninariebi", "+C")), 4);
    for g in ["shogi66", "kokesu"] {
        assert_eq!(targets(&piece(g, "K")), 8, "{g}: a king in the open");
    }
    // A Kani Shogi parent reaches the river, carried or drifting along it.
    let parent = piece("kanishogi", "K");
    let river = parent["targets"].as_array().unwrap().iter().filter(|t| t.as_str().unwrap().starts_with('3')).count();
    assert!(river >= 2, "{parent}");
    assert_eq!(server.stop(), "");
}

#[test]
fn explore_gives_every_move_its_exact_value_as_koma_solve_does() {
    let v =
        explore::explore(&request("numbershogi", Some(WIN_IN_ONE), &[]), Duration::from_secs(60)).expect("explored");
    assert_eq!(v["type"], "explore");
    assert_eq!(v["complete"], true, "{v}");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves[0]["value"], "win");
    assert_eq!(moves[0]["plies"], 1);
    assert!(moves.iter().any(|m| m["move"] == "2d2c" && m["value"] == "win" && m["plies"] == 1), "{v}");
    // Each value, the other way round: the position after the move, solved by `koma solve`.
    let budget = Budget { max_ms: Some(60_000), ..Budget::default() };
    let mut rank_seen = Vec::new();
    for m in moves {
        let mv = m["move"].as_str().unwrap();
        let a = koma::cli::solve::answer(&format!("sfen {WIN_IN_ONE} moves {mv}"), Some("numbershogi"), &budget);
        let (value, plies) = (a.value.unwrap(), a.plies.unwrap());
        let expected = match value {
            "win" => json!({ "move": mv, "value": "loss", "plies": plies + 1 }),
            "loss" => json!({ "move": mv, "value": "win", "plies": plies + 1 }),
            _ => json!({ "move": mv, "value": "draw", "plies": null }),
        };
        assert_eq!(m, &expected);
        // Sorted: the fastest wins, draws, then the slowest losses first.
        let n = m["plies"].as_i64().unwrap_or(0);
        rank_seen.push(match value {
            "loss" => (0, n),
            "win" => (2, -n),
            _ => (1, 0),
        });
    }
    assert!(rank_seen.windows(2).all(|w| w[0] <= w[1]), "{rank_seen:?}");
}

#[test]
fn explore_refuses_placements_other_games_unknown_switches_and_bad_moves() {
    let t = Duration::from_secs(5);
    let e = |r: ExploreRequest| explore::explore(&r, t).expect_err("refused");
    assert!(e(request("numbershogi", None, &["D*2e"])).contains("placement"));
    assert!(e(request("kokesu", None, &[])).contains("numbershogi"));
    assert!(e(request("chess", None, &[])).contains("no game"));
    assert!(e(request("numbershogi", Some(WIN_IN_ONE), &["2d2c"])).contains("over"));
    assert!(e(request("numbershogi", Some(WIN_IN_ONE), &["9z9z"])).contains("move 1"));
    let mut r = request("numbershogi", Some(WIN_IN_ONE), &[]);
    r.rules.insert("NumberShogiSolution".into(), "/etc/passwd".into());
    assert!(e(r).contains("no rules switch"));
    let mut r = request("numbershogi", Some(WIN_IN_ONE), &[]);
    r.rules.insert("NumberShogiPromotion".into(), "off".into());
    assert!(explore::explore(&r, t).is_ok());
}

async fn connect(server: &Server) -> Ws {
    let (mut ws, _) = connect_async(server.ws_url()).await.expect("the WebSocket opens");
    assert_eq!(next(&mut ws).await["type"], "hello");
    ws
}

async fn next(ws: &mut Ws) -> Value {
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await.expect("a message in time") {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Some(Ok(_)) => continue,
            other => panic!("the connection ended: {other:?}"),
        }
    }
}

async fn send(ws: &mut Ws, v: &Value) {
    ws.send(Message::Text(v.to_string().into())).await.expect("sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn explore_runs_once_per_connection_and_within_its_time() {
    let server = Server::start(&[]);
    // The crab games' start: far too big to solve, so each exploration takes its whole time.
    let long = json!({ "type": "explore", "variant": "kanishogi" });
    let mut a = connect(&server).await;
    let started = Instant::now();
    send(&mut a, &long).await;
    send(&mut a, &long).await;
    let busy = next(&mut a).await;
    assert_eq!(busy["type"], "error", "{busy}");
    assert!(busy["message"].as_str().unwrap().contains("already running"), "{busy}");
    let done = next(&mut a).await;
    assert_eq!(done["type"], "explore", "{done}");
    assert_eq!(done["complete"], false);
    assert!(done["moves"].as_array().unwrap().iter().any(|m| m["value"] == "unknown"));
    // Bounded by the server's time (a generous margin for a loaded machine).
    assert!(started.elapsed() >= Duration::from_millis(explore::MAX_MS - 100), "it gave up early");
    assert!(done["ms"].as_u64().unwrap() < explore::MAX_MS + 5_000, "{}", done["ms"]);
    // Once answered, the connection may explore again.
    send(&mut a, &json!({ "type": "explore", "variant": "numbershogi", "sfen": WIN_IN_ONE })).await;
    let again = next(&mut a).await;
    assert_eq!(again["moves"][0]["value"], "win", "{again}");
    assert_eq!(server.stop(), "");
}
