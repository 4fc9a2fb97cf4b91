//! Game records (issue 47): every format reads back what it writes on 300 random games
//! of each game it holds; RokuRokuGUI's own record of a whole game reads and writes back
//! byte for byte; readers name the line of what they cannot read; PGN's SAN is
//! Fairy-Stockfish's (pyffish) on every move of 300 random Kokesu games.

use std::path::Path;
use std::process::Command;

use fastrand::Rng;
use koma::records::{self, position, Ending, Format, Played, Record, RecordMove};

const GAMES: usize = 300;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A random game of `variant` played with the game's own legal moves and ended by its
/// referee (or cut at a random length: then it is unfinished).
pub fn random_game(variant: &'static str, rng: &mut Rng) -> Record {
    random_game_from(variant, None, rng)
}

/// A random game from `start` (an SFEN; the start position for `None`).
fn random_game_from(variant: &'static str, start: Option<String>, rng: &mut Rng) -> Record {
    let mut pos = position(variant, start.as_deref()).unwrap();
    let mut r = Record::new(variant);
    r.start = start;
    let cap = rng.usize(1..250);
    while r.moves.len() < cap && pos.ending().is_none() {
        let legal = pos.legal_moves();
        let m = legal[rng.usize(..legal.len())].clone();
        pos.play(&m).unwrap();
        r.moves.push(RecordMove { usi: m, comment: None });
    }
    r.result = pos.ending();
    r
}

const WORDS: [&str; 6] = ["good", "move", "a slip", "Zeitnot", "best: 5e", "?!"];

fn words(rng: &mut Rng) -> String {
    (0..rng.usize(1..4)).map(|_| WORDS[rng.usize(..WORDS.len())]).collect::<Vec<_>>().join(" ")
}

/// What `format` holds besides the moves: headers, comments, a result it can say
/// without the board (a resignation).
fn dress(format: Format, r: &mut Record, rng: &mut Rng) {
    // In the order PGN's seven-tag roster has them (the other formats keep any order).
    let keys = ["event", "site", "date", "sente", "gote"];
    for k in keys {
        if rng.bool() && (format != Format::Rokuroku || ["sente", "gote", "date"].contains(&k)) {
            r.headers.push((k.to_string(), words(rng)));
        }
    }
    if format == Format::Rokuroku {
        r.headers.sort_by_key(|(k, _)| ["date", "sente", "gote"].iter().position(|x| x == k));
        if r.result.is_none() {
            r.headers.push(("result".into(), "none".into()));
        }
        return;
    }
    if rng.usize(..4) == 0 {
        let lines = if format == Format::Pgn { 1 } else { rng.usize(1..3) };
        r.headers.push(("comment".into(), (0..lines).map(|_| words(rng)).collect::<Vec<_>>().join("\n")));
    }
    for m in r.moves.iter_mut() {
        if rng.usize(..5) == 0 {
            let lines = rng.usize(1..3);
            m.comment = Some((0..lines).map(|_| words(rng)).collect::<Vec<_>>().join("\n"));
        }
    }
    if r.result.is_none() && rng.bool() {
        // The side to move resigns (KIF and CSA say no more).
        let mut pos = position(r.variant, r.start.as_deref()).unwrap();
        for m in &r.moves {
            pos.play(&m.usi).unwrap();
        }
        let winner = Some(pos.side_to_move().flip());
        r.result = Some(Ending { winner, rule: Some("resignation".into()) });
    }
}

fn round_trips(format: Format, variant: &'static str, seed: u64) {
    let mut rng = Rng::with_seed(seed);
    for i in 0..GAMES {
        let mut r = random_game(variant, &mut rng);
        // KIF and koma's record also start from the middle of a game (a KIF diagram).
        if matches!(format, Format::Kif | Format::Koma) && i % 4 == 1 && r.result.is_none() && !r.moves.is_empty() {
            let mut pos = position(variant, None).unwrap();
            for m in &r.moves {
                pos.play(&m.usi).unwrap();
            }
            r = random_game_from(variant, Some(pos.sfen()), &mut rng);
        }
        dress(format, &mut r, &mut rng);
        let text = records::write(format, &r).unwrap_or_else(|e| panic!("{variant} game {i}: {e}"));
        let back = records::read(Format::detect(&text, None), &text, Some(variant));
        assert!(back.errors.is_empty(), "{variant} game {i} in {format:?}: {:?}\n{text}", back.errors);
        assert_eq!(back.record, r, "{variant} game {i} in {format:?}:\n{text}");
        assert_eq!(records::write(format, &back.record).unwrap(), text);
    }
}

#[test]
fn koma_records_read_what_they_write_for_every_game() {
    for (i, variant) in koma::games::names().into_iter().enumerate() {
        round_trips(Format::Koma, variant, 100 + i as u64);
    }
}

#[test]
fn kif_reads_what_it_writes_for_66_shogi_and_number_shogi() {
    round_trips(Format::Kif, "shogi66", 1);
    round_trips(Format::Kif, "numbershogi", 2);
}

#[test]
fn csa_reads_what_it_writes_for_66_shogi() {
    round_trips(Format::Csa, "shogi66", 3);
}

#[test]
fn rokuroku_reads_what_it_writes_for_66_shogi() {
    round_trips(Format::Rokuroku, "shogi66", 4);
}

#[test]
fn pgn_reads_what_it_writes_for_kokesu() {
    round_trips(Format::Pgn, "kokesu", 5);
}

/// A whole game that koma played against itself in RokuRokuGUI's form: placement, play,
/// mate. It reads into the game's positions and writes back byte for byte.
#[test]
fn rokuroku_fixture_reads_into_its_game_and_writes_back_byte_for_byte() {
    let path = root().join("fixtures/records/rokuroku_20261128_123456.txt");
    let text = records::read_file(&path).unwrap();
    let parsed = records::read(Format::detect(&text, None), &text, None);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let r = parsed.record;
    assert_eq!(r.variant, "shogi66");
    // The tokens are the file's move lines, in order.
    let tokens: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(". black ") || l.contains(". white "))
        .map(|l| l.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(r.tokens(), tokens);
    assert!(r.moves[..12].iter().all(|m| m.usi.contains('*')), "twelve placement drops first");
    // Each position of the game, replayed through the engine's own board.
    let mut board = koma::engine::new_board("shogi66").unwrap();
    for n in 0..=tokens.len() {
        board.set_position(None, &r.tokens()[..n]).unwrap();
        let phase = board.state().unwrap().phase;
        assert_eq!(
            phase,
            if n < 12 {
                "placement"
            } else if n < tokens.len() {
                "play"
            } else {
                "over"
            },
            "ply {n}"
        );
    }
    let result = board.state().unwrap().result.unwrap();
    assert_eq!(result.reason, "checkmate");
    let ending = r.result.clone().unwrap();
    assert_eq!(ending.rule.as_deref(), Some("checkmate"));
    assert_eq!(ending.winner.map(|c| ["b", "w"][c.index()]), result.winner);
    assert_eq!(records::write(Format::Rokuroku, &r).unwrap(), text);
}

#[test]
fn readers_name_the_line_and_the_reason_and_keep_what_came_before() {
    let kif = "手合割：66将棋\n先手：A\n手数----指手---------消費時間--\n   1 １六玉打\n   2 １一玉打\n   3 ９九歩(77)\n   4 ２一桂打\n";
    let p = records::read(Format::Kif, kif, None);
    assert_eq!(p.record.tokens(), ["K*1f", "K*1a"]);
    assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
    assert_eq!(p.errors[0].line, 6);
    assert!(p.errors[0].to_string().starts_with("line 6: move 3: "), "{}", p.errors[0]);
    assert_eq!(p.record.header("sente"), Some("A"));

    let csa = "V2.2\nP1 *  *  *  *  *  * \n";
    let p = records::read(Format::Csa, csa, None);
    assert!(p.errors.iter().any(|e| e.reason.contains("P1..P6")), "{:?}", p.errors);
    let p = records::read(Format::Csa, "PI\n+\n", None);
    assert!(p.errors.iter().any(|e| e.line == 1 && e.reason.contains("9x9")), "{:?}", p.errors);

    let pgn = "[Variant \"Kokesu\"]\n\n1. e4 e5 2. Ke2 Qh4 3. Kf9 *\n";
    let p = records::read(Format::Pgn, pgn, None);
    assert_eq!(p.record.moves.len(), 4);
    assert!(p.errors[0].reason.contains("'Kf9' is not a legal move"), "{:?}", p.errors);
    assert_eq!(p.errors[0].line, 3);

    let koma = "# koma record\nvariant kanishogi\nstart startpos\nmove 9z9z\nresult x\n";
    let p = records::read(Format::Koma, koma, None);
    assert_eq!(p.errors.iter().map(|e| e.line).collect::<Vec<_>>(), [4, 5], "{:?}", p.errors);

    // A stated result that the final position contradicts.
    let roku = std::fs::read_to_string(root().join("fixtures/records/rokuroku_20261128_123456.txt")).unwrap();
    let flipped = if roku.contains("result: black") {
        roku.replace("result: black", "result: white")
    } else {
        roku.replace("result: white", "result: black")
    };
    let p = records::read(Format::Rokuroku, &flipped, None);
    assert!(p.errors[0].reason.contains("the record says"), "{:?}", p.errors);
}

#[test]
fn record_files_are_size_checked_regular_files() {
    let dir = std::env::temp_dir().join(format!("koma-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    assert!(records::read_file(&dir).unwrap_err().contains("not a regular file"));
    let big = dir.join("big.kif");
    std::fs::write(&big, vec![b' '; records::MAX_FILE_BYTES as usize + 1]).unwrap();
    assert!(records::read_file(&big).unwrap_err().contains("more than"));
    // Shift_JIS, as older KIF files are.
    let sjis = dir.join("old.kif");
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：66将棋\n");
    std::fs::write(&sjis, &bytes).unwrap();
    assert_eq!(records::read_file(&sjis).unwrap(), "手合割：66将棋\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// PGN's SAN against pyffish's on every move of 300 random Kokesu games (skipped with
/// the other pyffish cross-checks, see tests/crosscheck.rs).
#[test]
#[cfg_attr(koma_skip_crosscheck, ignore = "KOMA_SKIP_CROSSCHECK is set: the pyffish cross-check is skipped")]
fn pgn_san_is_pyffish_san_on_every_move_of_random_kokesu_games() {
    let chess = koma::games::descriptor("kokesu").unwrap().chess_game().unwrap();
    let mut rng = Rng::with_seed(47);
    let mut lines = String::new();
    let mut count = 0;
    for _ in 0..GAMES {
        let r = random_game("kokesu", &mut rng);
        let mut pos = position("kokesu", None).unwrap();
        let (mut uci, mut san) = (Vec::new(), Vec::new());
        for m in &r.moves {
            uci.push(chess.move_to_chess(&m.usi).unwrap());
            san.push(records::notation::name(pos.as_ref(), &m.usi, records::notation::Style::San, None));
            pos.play(&m.usi).unwrap();
        }
        count += uci.len();
        lines.push_str(&serde_json::json!({"uci": uci, "san": san}).to_string());
        lines.push('\n');
    }
    assert!(count > 15_000, "only {count} moves");
    let file = std::env::temp_dir().join(format!("koma-san-{}.jsonl", std::process::id()));
    std::fs::write(&file, lines).unwrap();
    let venv = root().join(".venv/bin/python");
    let python = if venv.exists() { venv } else { "python3".into() };
    let out = Command::new(python)
        .arg(root().join("tests/reference/records/kokesu_san_pyffish.py"))
        .arg(&file)
        .output()
        .expect("python runs");
    let _ = std::fs::remove_file(&file);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}");
    assert!(said.contains(&format!("{count} moves agree")), "{said}");
}

/// protocol/records.md shows one record of each format: each reads without an error and
/// koma writes it back byte for byte.
#[test]
fn every_record_example_in_the_docs_reads_and_writes_back() {
    let text = std::fs::read_to_string(root().join("protocol/records.md")).unwrap();
    let mut seen = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(format) = line.strip_prefix("```").and_then(Format::named) else { continue };
        let block: String = lines.by_ref().take_while(|l| !l.starts_with("```")).map(|l| format!("{l}\n")).collect();
        let parsed = records::read(format, &block, None);
        assert!(parsed.errors.is_empty(), "{format:?} example: {:?}\n{block}", parsed.errors);
        assert_eq!(records::write(format, &parsed.record).unwrap(), block, "{format:?} example");
        seen.push(format);
    }
    for f in Format::ALL {
        assert!(seen.contains(&f), "no {f:?} example in protocol/records.md");
    }
}

fn koma_analyse(args: &[&str]) -> (Vec<serde_json::Value>, std::process::ExitStatus) {
    let out = Command::new(assert_cmd::cargo::cargo_bin("koma")).arg("analyse").args(args).output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let lines = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    (lines, out.status)
}

/// `koma analyse --game`: one object a move with evaluations, best move and mark, the
/// totals last; the annotated record reads back as the same game; the graph is an SVG.
#[test]
fn game_report_of_the_fixture_game() {
    let dir = std::env::temp_dir().join(format!("koma-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (kif, svg) = (dir.join("game.kif"), dir.join("game.svg"));
    let game = root().join("fixtures/records/rokuroku_20261128_123456.txt");
    let (lines, status) = koma_analyse(&[
        "--game",
        game.to_str().unwrap(),
        "--depth",
        "3",
        "--annotated",
        kif.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(status.success());
    let record = records::read_path(&game, None).unwrap().record;
    assert_eq!(lines.len(), record.moves.len() + 1);
    for (i, l) in lines[..record.moves.len()].iter().enumerate() {
        assert_eq!(l["ply"], i + 1);
        assert_eq!(l["move"], record.moves[i].usi.as_str());
        assert_eq!(l["side"], ["b", "w"][i % 2]);
        assert!(l["loss"].as_f64().unwrap() >= 0.0);
        let loss = l["loss"].as_f64().unwrap();
        if !(4.9..=5.1).contains(&loss) {
            assert_eq!(l.get("mark").is_some(), loss > 5.0, "{l}");
        }
    }
    let last = &lines[record.moves.len() - 1];
    assert_eq!(last["over"], "sente wins: checkmate");
    assert_eq!(last["win_after"], 100.0);
    let totals = &lines[record.moves.len()]["totals"];
    assert_eq!(totals[0][1]["moves"], record.moves.len().div_ceil(2));
    let annotated = records::read_path(&kif, None).unwrap().whole().unwrap();
    assert_eq!(annotated.tokens(), record.tokens());
    assert!(
        annotated.moves.iter().filter(|m| m.comment.as_deref().is_some_and(|c| c.starts_with("eval "))).count() > 60
    );
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("<polyline"), "{svg}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Number Shogi after setup: the positions the table or the solver proves get exact
/// values (`mate` scores), and a record that stops being readable is reported by line
/// with the game read so far analysed.
#[test]
fn game_report_gives_number_shogi_exact_values_and_names_bad_lines() {
    let dir = std::env::temp_dir().join(format!("koma-report-ns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng::with_seed(7);
    let mut r = random_game("numbershogi", &mut rng);
    while r.moves.len() < 16 {
        r = random_game("numbershogi", &mut rng);
    }
    r.moves.truncate(16);
    r.result = None;
    let path = dir.join("game.koma");
    let text = records::write(Format::Koma, &r).unwrap() + "move 9z9z\n";
    std::fs::write(&path, text).unwrap();
    let (lines, status) = koma_analyse(&["--game", path.to_str().unwrap(), "--depth", "2"]);
    assert_eq!(status.code(), Some(1));
    assert!(lines[0]["error"].as_str().unwrap().contains("9z9z"), "{}", lines[0]);
    assert!(lines[0]["at"].as_str().unwrap().ends_with(&format!(":{}", 4 + r.moves.len())), "{}", lines[0]);
    let moves = &lines[1..lines.len() - 1];
    assert_eq!(moves.len(), r.moves.len());
    assert!(moves[..11].iter().all(|m| m.get("exact").is_none()), "setup is searched");
    let exact: Vec<_> = moves[12..].iter().filter(|m| m["exact"] == true).collect();
    assert!(!exact.is_empty(), "{moves:?}");
    for m in exact {
        assert!(m["before"].get("mate").is_some() || m["before"]["cp"] == 0, "{m}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A KIF writer called directly with a game KIF cannot hold answers an error, as
/// `records::write` does, rather than failing inside.
#[test]
fn kif_writer_refuses_a_game_it_cannot_hold() {
    let r = Record::new("kokesu");
    let err = records::kif::write(&r).unwrap_err();
    assert!(err.contains("KIF") && err.contains("kokesu"), "{err}");
}
