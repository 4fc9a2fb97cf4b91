//! `koma analyse`: one JSON object per position line, an `error` field for a line it
//! cannot read (and the run goes on), the game state of each position, nothing on stderr
//! when stderr is not a terminal.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn koma() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("koma"));
    c.env_remove("RUST_LOG");
    c
}

fn objects(out: &Output) -> Vec<Value> {
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// The legal moves of a position, asked of the engine itself.
fn legal(variant: &str, position: &str) -> Vec<String> {
    let out = koma()
        .args([&format!("setoption name USI_Variant value {variant}"), position, "moves", "quit"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().last().unwrap().split_whitespace().map(str::to_string).collect()
}

#[test]
fn a_file_of_good_and_bad_lines() {
    let dir = std::env::temp_dir().join(format!("koma-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("positions.txt");
    let lines = [
        "# a comment, then a blank line",
        "",
        "kokesu rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1 moves 5g5e",
        "chess startpos",
        "kokesu startpos moves 5g5e 5b5d 5e5d",
        "kanishogi A3b/D3c/K3k/C3d/B3a b - 1 moves 5c3c",
        "kaninariebi 2+C+Cc/4+C/5/1c3/1C1c1 w - 46",
        "shogi66 6/pppppp/6/6/PPPPPP b - 1",
    ];
    std::fs::write(&file, lines.join("\n")).unwrap();
    let out = koma().args(["analyse", "--depth", "3"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "some lines had errors");
    let got = objects(&out);
    assert_eq!(got.len(), 6, "one object per position line: {got:?}");
    for (o, n) in got.iter().zip([3, 4, 5, 6, 7, 8]) {
        assert_eq!(o["input"], lines[n - 1], "{o}");
        assert_eq!(o["at"], format!("{}:{n}", file.display()), "{o}");
    }

    // Searched positions: a legal best move that starts its PV, a score, the depth asked for.
    for (o, variant, position) in
        [(&got[0], "kokesu", "position startpos moves 5g5e"), (&got[3], "kanishogi", "position startpos moves 5c3c")]
    {
        assert!(o.get("error").is_none(), "{o}");
        let best = o["bestmove"].as_str().expect("a best move");
        assert!(legal(variant, position).iter().any(|m| m == best), "{best} is not legal: {o}");
        assert_eq!(o["pv"][0], best, "{o}");
        assert_eq!(o["depth"], 3, "{o}");
        assert!(o["score"]["cp"].is_i64() || o["score"]["mate"].is_i64(), "{o}");
        assert!(o["nodes"].as_u64().unwrap() > 0, "{o}");
        assert_eq!(o["state"]["phase"], "play", "{o}");
        assert_eq!(o["state"]["side"], "w", "{o}");
        assert_eq!(o["state"]["ply"], 2, "{o}");
    }
    assert_eq!(got[0]["state"]["sfen"], "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR w - 2");

    // Lines it could not read: the reason, and nothing else.
    assert!(got[1]["error"].as_str().unwrap().starts_with("no variant"), "{}", got[1]);
    assert!(got[2]["error"].as_str().unwrap().contains("move 3 of the moves list"), "{}", got[2]);
    assert!(got[5]["error"].as_str().unwrap().contains("sfen"), "{}", got[5]);
    for o in [&got[1], &got[2], &got[5]] {
        assert!(o.get("bestmove").is_none() && o.get("state").is_none(), "{o}");
    }

    // A finished game: no move, and the result with its rule.
    let over = &got[4];
    assert!(over["bestmove"].is_null() && over.get("error").is_none(), "{over}");
    assert_eq!(over["state"]["phase"], "over");
    assert_eq!(over["state"]["result"]["winner"], "b");
    assert_eq!(over["state"]["result"]["reason"], "three shrimps");
}

#[test]
fn stdin_with_a_default_variant_and_multipv() {
    let mut child = koma()
        .args(["analyse", "--variant", "kokesu", "--nodes", "3000", "--multipv", "2", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1").unwrap();
    writeln!(stdin, "kokesu startpos moves 4g4e").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let got = objects(&out);
    assert_eq!(got.len(), 2);
    for o in &got {
        let lines = o["multipv"].as_array().expect("multipv lines");
        assert_eq!(lines.len(), 2, "{o}");
        assert_ne!(lines[0]["pv"][0], lines[1]["pv"][0], "two different first moves: {o}");
        assert_eq!(o["bestmove"], lines[0]["pv"][0], "{o}");
        assert_eq!(o["at"].as_str().unwrap().split(':').next(), Some("-"));
    }
}

#[test]
fn a_wrong_option_stops_before_any_position() {
    let out = koma().args(["analyse", "--variant", "chess"]).stdin(Stdio::null()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--variant chess"), "{err}");
}

/// A score the engine proves (Number Shogi after setup: its shipped table) is marked
/// `"exact": true` with its distance to the end; a searched score carries no mark. The
/// proof comes at once, whatever the time limit.
#[test]
fn a_proven_score_is_marked_exact_and_a_searched_one_is_not() {
    let run = |limit: &[&str]| {
        let mut child = koma()
            .args(["analyse", "--variant", "numbershogi"])
            .args(limit)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"bef/acd/3/FEC/BDA b - 13\n").unwrap();
        objects(&child.wait_with_output().unwrap()).remove(0)
    };
    let proven = run(&["--movetime", "600000"]);
    assert_eq!(proven["exact"], true, "{proven}");
    assert_eq!(proven["score"]["mate"], 7, "{proven}");
    assert_eq!(proven["nodes"], 0, "the table answers: {proven}");
    let searched = run(&["--depth", "3"]);
    assert!(searched.get("exact").is_none(), "{searched}");
    assert!(searched["score"].get("cp").is_some(), "{searched}");
}
