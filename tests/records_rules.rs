//! Records under rules switches that are not the defaults (issue 55 item 2,
//! protocol/records.md): every format that holds a game writes its rules where the format
//! keeps them and reads them back; a bad rules value or an unknown switch in a record is an
//! error naming its line; and, for each game with rules switches, a game played on the page
//! under other rules is saved in every format that holds it (the WebSocket `record` the page
//! sends), read again and opened again (`load`, then `new` as the page starts it) with the
//! same moves, rules and result, and reported (`koma analyse --game` on the saved file) under
//! those rules: a move or a result only they allow is accepted.

use std::process::Command;

use fastrand::Rng;
use koma::records::{self, position, position_under, Format, Played, Record, RecordMove, RuleSwitches};
use serde_json::{json, Value};

use crate::common::server::Server;
use crate::serve::{connect, send, until, Ws};

/// The tables of Number Shogi's pieces: the default, and one where the 1 steps NW, not N.
const ONE_STEPS_NW: &str = "1:NW 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S";

/// A game under other rules for each game that has rules switches, as (name, value).
const UNDER: [(&str, &[(&str, &str)]); 4] = [
    ("kokesu", &[("KokesuPromotion", "free"), ("KokesuStalemate", "loss")]),
    ("numbershogi", &[("NumberShogiPieceMoves", ONE_STEPS_NW), ("NumberShogiPromotion", "off")]),
    ("kanishogi", &[("KaniShogiGrownMove", "diagonal")]),
    ("kaninariebi", &[("KaniNariEbiBonds", "any")]),
];

fn rule_switches(variant: &str, pairs: &[(&str, &str)]) -> RuleSwitches {
    let mut rules = RuleSwitches::default();
    for (name, value) in pairs {
        rules.set(variant, name, value).unwrap_or_else(|e| panic!("{variant}: {e}"));
    }
    rules
}

/// Whether `token` is a legal move at `sfen` under the default rules.
fn legal_by_default(variant: &str, sfen: &str, token: &str) -> bool {
    position(variant, Some(sfen)).is_ok_and(|p| p.legal_moves().iter().any(|m| m == token))
}

/// A random game of `variant` under `rules`, taking a move the default rules do not allow
/// whenever there is one; and how many it took.
fn random_game_under(variant: &'static str, rules: &RuleSwitches, rng: &mut Rng) -> (Record, usize) {
    let mut pos = position_under(variant, rules, None).unwrap();
    let mut r = Record::new(variant);
    r.rules = rules.clone();
    let (cap, mut only) = (rng.usize(1..120), 0);
    while r.moves.len() < cap && pos.ending().is_none() {
        let legal = pos.legal_moves();
        let sfen = pos.sfen();
        let m = match legal.iter().find(|m| !legal_by_default(variant, &sfen, m)) {
            Some(m) => {
                only += 1;
                m.clone()
            }
            None => legal[rng.usize(..legal.len())].clone(),
        };
        pos.play(&m).unwrap();
        r.moves.push(RecordMove { usi: m, comment: None });
    }
    r.result = pos.ending();
    (r, only)
}

/// Where each format keeps the rules: the text of the first one, as written.
fn written_rule(format: Format, rules: &RuleSwitches) -> String {
    let first = rules.entries().next().expect("a rules switch");
    match format {
        Format::Koma => format!("\nrule {first}\n"),
        Format::Kif => format!("\nルール：{first}\n"),
        Format::Csa => format!("\n$RULE:{first}\n"),
        Format::Pgn => format!("\n[Rules \"{}\"]\n", rules.entries().collect::<Vec<_>>().join("; ")),
        Format::Rokuroku => unreachable!("66 shogi has no rules switches"),
    }
}

#[test]
fn row2_every_format_writes_the_rules_of_its_games_and_reads_them_back() {
    let mut rng = Rng::with_seed(55);
    for (variant, pairs) in UNDER {
        let rules = rule_switches(variant, pairs);
        assert_eq!(rules.iter().count(), pairs.len(), "{variant}: {rules:?}");
        let formats: Vec<Format> = Format::ALL.into_iter().filter(|f| f.supports(variant)).collect();
        let mut only = 0;
        for _ in 0..20 {
            let (game, n) = random_game_under(variant, &rules, &mut rng);
            only += n;
            for &format in &formats {
                let text = records::write(format, &game).unwrap_or_else(|e| panic!("{variant} {format:?}: {e}"));
                assert!(text.contains(&written_rule(format, &rules)), "{variant} {format:?}:\n{text}");
                let read = records::read(format, &text, None)
                    .whole()
                    .unwrap_or_else(|e| panic!("{variant} {format:?}: {e}\n{text}"));
                assert_eq!(read.variant, variant);
                assert_eq!(read.rules, rules, "{variant} {format:?}");
                assert_eq!(read.tokens(), game.tokens(), "{variant} {format:?}");
                assert_eq!(read.result, game.result, "{variant} {format:?}");
            }
        }
        // Under the default rules nothing is written.
        for &format in &formats {
            let text = records::write(format, &Record::new(variant)).unwrap();
            let mark = written_rule(format, &rules);
            let mark = mark.split(['=', ' ', '"']).next().unwrap();
            assert!(!text.contains(mark), "{variant} {format:?}: {mark}\n{text}");
            assert!(records::read(format, &text, None).whole().unwrap().rules.is_default());
        }
        // Kani Shogi's switch only takes moves away.
        assert!(only > 0 || variant == "kanishogi", "{variant}: no move that only these rules allow was played");
    }
}

#[test]
fn row2_a_bad_rules_value_or_an_unknown_switch_in_a_record_is_an_error_naming_its_line() {
    let first_error = |format: Format, text: &str| {
        let parsed = records::read(format, text, None);
        parsed.errors.first().unwrap_or_else(|| panic!("no error for {text}")).to_string()
    };
    let koma = "# koma record\nvariant kokesu\nrule KokesuPromotion=maybe\nstart startpos\nmove 5g5e\n";
    assert_eq!(
        first_error(Format::Koma, koma),
        "line 3: rules switch KokesuPromotion: bad value 'maybe': expected one of captured, free"
    );
    let koma = "# koma record\nvariant kanishogi\nstart startpos\nrule KaniShogiGrownMoves=diagonal\n";
    assert_eq!(
        first_error(Format::Koma, koma),
        "line 4: 'KaniShogiGrownMoves' is not a rules switch of kanishogi (they are KaniShogiGrownMove)"
    );
    let kif = "先手：A\n手合割：数字将棋\nルール：NumberShogiPieceMoves=1:N,S\n手数----指手---------消費時間--\n";
    let e = first_error(Format::Kif, kif);
    assert!(e.starts_with("line 3: rules switch NumberShogiPieceMoves: "), "{e}");
    let pgn = "[Event \"?\"]\n[Variant \"Kokesu\"]\n[Rules \"KokesuPromotion=free; KokesuStalemate=never\"]\n\n*\n";
    assert_eq!(
        first_error(Format::Pgn, pgn),
        "line 3: rules switch KokesuStalemate: bad value 'never': expected one of draw, loss"
    );
    let pgn = "[Variant \"Kokesu\"]\n[Rules \"KokesuEval=nnue\"]\n\n*\n";
    assert!(first_error(Format::Pgn, pgn).starts_with("line 2: 'KokesuEval' is not a rules switch of kokesu"));
    let csa = records::write(Format::Csa, &Record::new("shogi66")).unwrap();
    let csa = csa.replacen("V2.2\n", "V2.2\n$RULE:Shogi66Anything=on\n", 1);
    assert_eq!(first_error(Format::Csa, &csa), "line 2: shogi66 has no rules switches: 'Shogi66Anything' is not one");
    // Without its rules line, a move only the rules allow cannot be played.
    let free = "# koma record\nvariant kokesu\nstart sfen k7/2P5/2N5/8/8/8/8/1RBQKBNR b - 1\nmove 6b6aq\n";
    assert!(first_error(Format::Koma, free).starts_with("line 4: move 1: '6b6aq' is not a legal move here"));
    let with_rule = free.replace("move", "rule KokesuPromotion=free\nmove");
    assert!(records::read(Format::Koma, &with_rule, None).errors.is_empty());
}

// ---- On the page: played, saved, opened, reported ----

fn tokens(v: &Value) -> Vec<String> {
    v.as_array().expect("moves").iter().map(|m| m.as_str().expect("a token").to_string()).collect()
}

/// A game of people on the page under `rules` (a JSON object), from `sfen`: the `script`ed
/// moves, then up to `more` moves, each one the default rules do not allow when there is
/// one; the last `state` and how many moves only the rules allowed.
async fn play(
    ws: &mut Ws,
    variant: &str,
    rules: &Value,
    sfen: Option<&str>,
    script: &[&str],
    more: usize,
) -> (Value, usize) {
    let new = json!({ "type": "new", "variant": variant, "rules": rules, "sfen": sfen,
                      "seats": { "b": "human", "w": "human" }, "limit": { "depth": 1 } });
    send(ws, new).await;
    let mut state = until(ws, "state").await;
    let (mut only, mut rng) = (0, Rng::with_seed(7));
    for i in 0..script.len() + more {
        if state["state"]["result"].is_object() {
            break;
        }
        let sfen = state["state"]["sfen"].as_str().expect("an SFEN").to_string();
        let legal = tokens(&state["legal"]);
        let mv = match script.get(i) {
            Some(m) => m.to_string(),
            None => match legal.iter().find(|m| !legal_by_default(variant, &sfen, m)) {
                Some(m) => m.clone(),
                None => legal[rng.usize(..legal.len())].clone(),
            },
        };
        only += usize::from(!legal_by_default(variant, &sfen, &mv));
        send(ws, json!({ "type": "move", "move": mv })).await;
        state = until(ws, "state").await;
    }
    (state, only)
}

/// The game the page plays under `pairs`, then saved in every format its game has, read
/// again, opened again, and reported; `result` is the expected (winner, rule).
async fn saved_opened_reported(
    variant: &'static str,
    pairs: &[(&str, &str)],
    sfen: Option<&str>,
    script: &[&str],
    more: usize,
    result: Option<(&str, &str)>,
) -> usize {
    let server = Server::start(&[]);
    let mut ws = connect(&server).await;
    let rules_json: Value =
        pairs.iter().map(|(n, v)| (n.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into();
    let (end, only) = play(&mut ws, variant, &rules_json, sfen, script, more).await;
    let moves = tokens(&end["moves"]);
    let state_result = &end["state"]["result"];
    if let Some((winner, rule)) = result {
        assert_eq!(state_result["winner"], winner, "{end}");
        assert_eq!(state_result["reason"], rule, "{end}");
    }
    let rules = rule_switches(variant, pairs);
    let dir = std::env::temp_dir().join(format!("koma-records-rules-{}-{variant}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for format in Format::ALL.into_iter().filter(|f| f.supports(variant)) {
        let what = format!("{variant} as {}", format.name());
        // Saved, as the page's "Save record" asks.
        send(&mut ws, json!({ "type": "record", "format": format })).await;
        let saved = until(&mut ws, "record").await;
        let text = saved["text"].as_str().expect("text");
        let read = records::read(format, text, None).whole().unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
        assert_eq!(read.variant, variant, "{what}");
        assert_eq!(read.rules, rules, "{what}:\n{text}");
        assert_eq!(read.start.as_deref(), sfen, "{what}");
        assert_eq!(read.tokens(), moves, "{what}");
        let winner = read.result.as_ref().map(|e| match e.winner {
            Some(koma::game::Color::Sente) => json!("b"),
            Some(koma::game::Color::Gote) => json!("w"),
            None => Value::Null,
        });
        assert_eq!(winner.unwrap_or(Value::Null), state_result["winner"].clone(), "{what}");
        let rule = read.result.as_ref().and_then(|e| e.rule.clone());
        assert_eq!(json!(rule), state_result["reason"].clone(), "{what}");
        assert_eq!(saved["result"]["rule"], state_result["reason"], "{what}");
        // Opened again, as the page opens a file, and started as the page starts it.
        send(&mut ws, json!({ "type": "load", "text": text, "name": saved["filename"] })).await;
        let opened = until(&mut ws, "load").await;
        assert_eq!(opened["rules"], rules_json_of(&rules), "{what}");
        assert_eq!(tokens(&opened["moves"]), moves, "{what}");
        let again = json!({ "type": "new", "variant": variant, "rules": opened["rules"], "sfen": opened["sfen"],
                            "moves": opened["moves"], "seats": { "b": "human", "w": "human" },
                            "limit": { "depth": 1 } });
        send(&mut ws, again).await;
        let state = until(&mut ws, "state").await;
        assert_eq!(tokens(&state["moves"]), moves, "{what}");
        assert_eq!(state["state"]["result"], *state_result, "{what}");
        assert_eq!(state["state"]["sfen"], end["state"]["sfen"], "{what}");
        // Reported: the engine analyses the game under its rules.
        let file = dir.join(saved["filename"].as_str().expect("a file name"));
        std::fs::write(&file, text).unwrap();
        let natural = Format::natural(variant);
        let annotated = dir.join(format!("annotated.{}", natural.extension()));
        let out = Command::new(assert_cmd::cargo::cargo_bin("koma"))
            .env_remove("RUST_LOG")
            .args(["analyse", "--game"])
            .arg(&file)
            .args(["--depth", "1", "--annotated"])
            .arg(&annotated)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{what}: {}\n{stdout}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{what}: {}", String::from_utf8_lossy(&out.stderr));
        let lines: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
        assert_eq!(lines.len(), moves.len() + 1, "{what}: {stdout}");
        for (m, line) in moves.iter().zip(&lines) {
            assert_eq!(line["move"], json!(m), "{what}: {line}");
        }
        // The annotated record is the same game, under the same rules.
        let notes = records::read_file(&annotated).unwrap();
        let notes = records::read(natural, &notes, None).whole().unwrap_or_else(|e| panic!("{what}: {e}\n{notes}"));
        assert_eq!((&notes.rules, notes.tokens()), (&rules, moves.clone()), "{what}");
        let summary = lines.last().unwrap();
        assert_eq!(summary["result"], state_result.get("text").cloned().unwrap_or(Value::Null), "{what}: {summary}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    drop(ws);
    assert_eq!(server.stop(), "");
    only
}

fn rules_json_of(rules: &RuleSwitches) -> Value {
    rules.iter().map(|(n, v)| (n.to_string(), json!(v))).collect::<serde_json::Map<_, _>>().into()
}

/// Every Q, R, B and N of sente on the board, a pawn on c7 (6b): under `KokesuPromotion
/// free` it becomes a queen and mates; under `captured` it stays a pawn and stalemates.
const KOKESU_PROMOTION: &str = "k7/2P5/2N5/8/8/8/8/1RBQKBNR b - 1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row2_kokesu_under_other_rules_is_saved_opened_and_reported_with_them() {
    let (_, rules) = UNDER[0];
    let free =
        saved_opened_reported("kokesu", rules, Some(KOKESU_PROMOTION), &["6b6aq"], 0, Some(("b", "checkmate"))).await;
    assert_eq!(free, 1);
    // A stalemate that loses, where the default rules draw.
    let stalemate = [("KokesuStalemate", "loss")];
    saved_opened_reported("kokesu", &stalemate, Some(KOKESU_PROMOTION), &["6b6a"], 0, Some(("b", "stalemate"))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row2_numbershogi_under_other_rules_is_saved_opened_and_reported_with_them() {
    let (_, rules) = UNDER[1];
    // The setup, then the 1 on 2d steps NW, as only this table allows.
    let script =
        ["A*2d", "B*2b", "C*1d", "D*1b", "E*3d", "F*3b", "B*2e", "A*2a", "D*1e", "C*1a", "F*3e", "E*3a", "2d3c"];
    let only = saved_opened_reported("numbershogi", rules, None, &script, 20, None).await;
    assert!(only >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row2_kanishogi_under_other_rules_is_saved_opened_and_reported_with_them() {
    let (_, rules) = UNDER[2];
    // Black's pieces boxed in but for the grown A's step sideways to 4c: with grown
    // children moving only diagonally, black has no move after red's and loses.
    saved_opened_reported(
        "kanishogi",
        rules,
        Some("Ka3/Bb3/+A3k/Cc3/Dd3 w - 1"),
        &["1c2c"],
        0,
        Some(("w", "no legal move")),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn row2_kaninariebi_under_other_rules_is_saved_opened_and_reported_with_them() {
    let (_, rules) = UNDER[3];
    let only = saved_opened_reported("kaninariebi", rules, None, &[], 40, None).await;
    assert!(only >= 1, "no bond move between crabs of different types was played");
}
