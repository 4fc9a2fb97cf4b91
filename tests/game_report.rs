//! The game report's marks and graph (issue 56): a mark is a loss a deeper look confirms,
//! never on a book or forced move, the same at fixed nodes run after run; the graph has
//! axes, ply numbers, the even line, which side is up and a legend, and stays well-formed
//! at 300 plies.

use std::path::{Path, PathBuf};
use std::process::Command;

use fastrand::Rng;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture() -> PathBuf {
    root().join("fixtures/records/rokuroku_20261128_123456.txt")
}

/// `koma analyse --game` with `args`: its raw stdout, checked for a quiet stderr and success.
fn report_text(args: &[&str]) -> String {
    let out =
        Command::new(assert_cmd::cargo::cargo_bin("koma")).args(["analyse", "--game"]).args(args).output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The report's move lines (the totals line left out).
fn report(args: &[&str]) -> Vec<Value> {
    let lines: Vec<Value> = report_text(args).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    lines.into_iter().filter(|l| l.get("ply").is_some()).collect()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-game-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn kokesu_game(name: &str, moves: &[&str]) -> PathBuf {
    let path = temp(name);
    let text: String = moves.iter().map(|m| format!("move {m}\n")).collect();
    std::fs::write(&path, format!("# koma record\nvariant kokesu\nstart startpos\n{text}")).unwrap();
    path
}

#[test]
fn the_reports_marks_never_mark_a_book_move() {
    let moves = report(&[fixture().to_str().unwrap(), "--nodes", "2000"]);
    // koma's own placement (its book) in the shipped game: never marked, no loss.
    let book: Vec<&Value> = moves.iter().filter(|m| m["book"] == true).collect();
    assert!(book.len() >= 8, "{book:?}");
    for m in &book {
        assert!(m["ply"].as_u64().unwrap() <= 12, "only placement drops are book: {m}");
        assert!(m.get("mark").is_none() && m["loss"] == 0.0, "{m}");
    }
    // The first placement drop is the book's (K*5f), and the report said it lost value
    // before book moves were exempt (issue 56).
    assert_eq!(moves[0]["move"], "K*5f");
    assert_eq!(moves[0]["book"], true);
}

#[test]
fn the_reports_marks_never_mark_a_forced_move() {
    // After 1. e4 f5 2. Qh5+ Black's only move is g6 (g7-g6): forced, never marked.
    let game = kokesu_game("forced.koma", &["4g4e", "3b3d", "5h1d", "2b2c"]);
    let moves = report(&[game.to_str().unwrap(), "--nodes", "2000"]);
    assert_eq!(moves[3]["forced"], true, "{}", moves[3]);
    assert!(moves[3].get("mark").is_none() && moves[3]["loss"] == 0.0, "{}", moves[3]);
    assert!(moves[3].get("checked").is_none(), "a forced move is not searched again: {}", moves[3]);
    // The shipped game's forced moves too.
    let moves = report(&[fixture().to_str().unwrap(), "--nodes", "2000"]);
    let forced: Vec<&Value> = moves.iter().filter(|m| m["forced"] == true).collect();
    assert!(forced.len() >= 3, "{forced:?}");
    assert!(forced.iter().all(|m| m.get("mark").is_none() && m["loss"] == 0.0), "{forced:?}");
}

#[test]
fn the_reports_marks_drop_a_loss_the_deeper_search_does_not_confirm() {
    let moves = report(&[fixture().to_str().unwrap(), "--nodes", "2000"]);
    // A move the report's own limit saw as a blunder (15 points or more) that the deeper
    // look from the position before it, played move against best move, does not: no mark.
    let dropped: Vec<&Value> = moves
        .iter()
        .filter(|m| m["checked"]["first_loss"].as_f64().is_some_and(|l| l >= 15.0) && m.get("mark").is_none())
        .collect();
    assert!(!dropped.is_empty(), "{moves:?}");
    for m in dropped {
        assert!(m["loss"].as_f64().unwrap() < 5.0, "{m}");
        assert!(m["checked"]["depth"].as_u64().unwrap() >= 2, "{m}");
    }
    // Every mark is the deeper look's: its loss, over the threshold.
    for m in moves.iter().filter(|m| m.get("mark").is_some()) {
        assert!(m.get("checked").is_some() || m["exact"] == true, "{m}");
        assert!(m["loss"].as_f64().unwrap() >= 5.0, "{m}");
    }
}

#[test]
fn the_reports_marks_keep_a_real_blunder() {
    // 1. f3 e5 2. g4?? Qh4#: 2. g4 allows mate in one, a blunder at any depth.
    let game = kokesu_game("fool.koma", &["3g3f", "4b4d", "2g2e", "5a1e"]);
    let moves = report(&[game.to_str().unwrap(), "--nodes", "2000"]);
    assert_eq!(moves[2]["mark"], "blunder", "{}", moves[2]);
    assert!(moves[2]["loss"].as_f64().unwrap() >= 40.0, "{}", moves[2]);
    assert!(moves[2]["checked"]["eval"]["mate"].as_i64().is_some_and(|n| n < 0), "{}", moves[2]);
    assert_eq!(moves[3]["over"], "gote wins: checkmate");
}

#[test]
fn the_reports_marks_are_deterministic_at_fixed_nodes() {
    let args = [fixture().to_str().unwrap().to_string(), "--nodes".into(), "3000".into()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let first = report_text(&args);
    assert_eq!(first, report_text(&args));
    assert!(first.contains("\"mark\""), "{first}");
}

/// A random 66-shogi game of `plies` moves, none of which ends it.
fn long_game(plies: usize, rng: &mut Rng) -> Vec<String> {
    let mut game = koma::records::position("shogi66", None).unwrap();
    while game.plies() < plies {
        let mut legal = game.legal_moves();
        rng.shuffle(&mut legal);
        let keeps_going = legal.into_iter().find(|m| {
            game.push(m).unwrap();
            let over = game.verdict().is_some();
            if over {
                game.pop();
            }
            !over
        });
        keeps_going.expect("a move that keeps the game going");
    }
    game.moves()
}

/// Whether `text` is well-formed XML as far as an SVG needs: every tag closed in order,
/// attribute values quoted, no bare `&` or `<` in text.
fn well_formed(text: &str) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('<') {
        let between = &rest[..i];
        if let Some(amp) = between.find('&') {
            let entity = &between[amp..];
            if !["&amp;", "&lt;", "&gt;", "&quot;"].iter().any(|e| entity.starts_with(e)) {
                return Err(format!("a bare & in {between:?}"));
            }
        }
        let end = rest[i..].find('>').ok_or("a tag that does not end")? + i;
        let tag = &rest[i + 1..end];
        if tag.contains('<') {
            return Err(format!("< inside the tag {tag:?}"));
        }
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop().as_deref() != Some(name.trim()) {
                return Err(format!("</{name}> closes nothing open"));
            }
        } else {
            let name = tag.split_whitespace().next().ok_or("an empty tag")?.trim_end_matches('/').to_string();
            if !tag.matches('"').count().is_multiple_of(2) {
                return Err(format!("an unquoted or unclosed attribute in {tag:?}"));
            }
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        rest = &rest[end + 1..];
    }
    match open.is_empty() && rest.trim().is_empty() {
        true => Ok(()),
        false => Err(format!("left open: {open:?}")),
    }
}

#[test]
fn the_reports_graph_of_a_300_ply_game_has_axes_legend_and_zero_line() {
    let moves = long_game(300, &mut Rng::with_seed(56));
    let game = temp("long.koma");
    let text: String = moves.iter().map(|m| format!("move {m}\n")).collect();
    std::fs::write(&game, format!("# koma record\nvariant shogi66\nstart startpos\n{text}")).unwrap();
    let svg = temp("long.svg");
    let lines = report(&[game.to_str().unwrap(), "--depth", "1", "--svg", svg.to_str().unwrap()]);
    assert_eq!(lines.len(), 300);
    let svg = std::fs::read_to_string(&svg).unwrap();
    well_formed(&svg).unwrap_or_else(|e| panic!("{e}:\n{svg}"));
    assert!(well_formed("<svg><g></svg>").is_err() && well_formed("<a b=\"1>x</a>").is_err());
    // Axes with their labels, ply numbers up to the last, which side is up, the even line.
    for needle in ["class=\"x-axis\"", "class=\"y-axis\"", ">ply</text>", "Sente wins (%)", ">100%<", ">0%<"] {
        assert!(svg.contains(needle), "{needle} in {svg}");
    }
    for ply in [0, 100, 200, 300] {
        assert!(svg.contains(&format!(">{ply}</text>")), "ply {ply}");
    }
    assert!(svg.matches("</text>").count() < 60, "few enough labels to read at 300 plies");
    assert!(svg.contains("▲ Sente ahead") && svg.contains("▼ Gote ahead"));
    assert!(svg.contains("class=\"zero\"") && svg.contains("even (0)"));
    // The legend: the three marks and the mate marker.
    let legend = svg.split("class=\"legend\"").nth(1).unwrap();
    for word in ["inaccuracy", "mistake", "blunder", "mate"] {
        assert!(legend.contains(word), "{word} in the legend");
    }
    // A random game is full of marks and ends in mates: each has its dot or marker.
    let marked = lines.iter().filter(|l| l.get("mark").is_some()).count();
    assert_eq!(svg.matches("<circle cx").count() - 3, marked);
    let mates = lines.iter().filter(|l| l["after"].get("mate").is_some()).count();
    assert_eq!(svg.matches("class=\"mate\"").count(), mates);
    // Kokesu's sides are White and Black.
    let fool = kokesu_game("fool-graph.koma", &["3g3f", "4b4d", "2g2e", "5a1e"]);
    let svg = temp("fool.svg");
    report(&[fool.to_str().unwrap(), "--nodes", "500", "--svg", svg.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("White wins (%)") && svg.contains("▼ Black ahead"), "{svg}");
    assert!(svg.contains("class=\"mate\""), "2. g4 allows a mate: its marker");
}
