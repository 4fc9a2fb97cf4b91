//! What a script over a pipe gets (issue 36): commands in order, searches never cut short by
//! the next line, the end of a game said, and hostile input answered with one error line.
//! Each test is named after the defect it guards against.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn koma() -> Command {
    let mut c = Command::new(assert_cmd::cargo::cargo_bin("koma"));
    c.env_remove("RUST_LOG");
    c
}

/// Runs koma with `input` piped in whole; asserts a clean exit and a silent stderr.
fn piped(args: &[&str], input: &[u8]) -> Vec<String> {
    let out = run(args, input);
    assert!(out.status.success(), "exit {:?}", out.status);
    assert!(out.stderr.is_empty(), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child =
        koma().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("koma");
    // Written on a thread of its own while the output is read (a long input can fill the
    // output pipe first); a process that exits before reading everything (a refused
    // option) closes the pipe.
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn index_of(lines: &[String], prefix: &str) -> usize {
    lines.iter().position(|l| l.starts_with(prefix)).unwrap_or_else(|| panic!("no '{prefix}' in {lines:?}"))
}

#[test]
fn a_piped_go_depth_is_not_cut_short_by_the_next_go() {
    let lines = piped(&[], b"setoption name USI_Variant value kokesu\nposition startpos\ngo depth 6\ngo depth 1\n");
    let first_best = index_of(&lines, "bestmove");
    assert!(lines[..first_best].iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 2, "{lines:?}");
}

#[test]
fn a_piped_perft_is_counted_in_full_before_the_next_command() {
    let lines = piped(&[], b"setoption name USI_Variant value kokesu\ngo perft 3\nposition startpos moves 5g5e\nd\n");
    assert!(lines.contains(&"Nodes searched: 8902".to_string()), "{lines:?}");
    assert!(index_of(&lines, "Nodes searched") < index_of(&lines, "sfen "), "{lines:?}");
}

#[test]
fn a_final_quit_lets_bench_finish() {
    let lines = piped(&[], b"setoption name USI_Variant value kokesu\nbench 3\nquit\n");
    let total = &lines[index_of(&lines, "Nodes searched  : ")];
    assert!(!total.contains("stopped"), "{lines:?}");
}

#[test]
fn stop_still_ends_a_perft_at_once() {
    let lines = piped(&[], b"go perft 12\nstop\n");
    assert!(lines.last().unwrap().contains("(stopped: "), "{lines:?}");
}

#[test]
fn go_perft_beyond_the_bound_is_an_error_line_not_a_crash() {
    for depth in ["8000", "4294967295"] {
        let lines =
            piped(&[], format!("setoption name USI_Variant value kokesu\ngo perft {depth}\nisready\n").as_bytes());
        assert!(lines.iter().any(|l| l.starts_with("info string error: perft: depth ")), "{lines:?}");
        assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    }
}

#[test]
fn the_move_that_ends_the_game_is_said_before_its_bestmove() {
    // Kokesu: the rook mates on the back rank.
    let lines =
        piped(&[], b"setoption name USI_Variant value kokesu\nposition sfen 7k/8/6K1/8/8/8/8/R7 b - 1\ngo depth 3\n");
    let said = index_of(&lines, "info string 8h8a ends the game: sente wins: checkmate");
    assert_eq!(lines[said + 1], "bestmove 8h8a");
}

#[test]
fn go_on_a_finished_game_says_why_it_resigns() {
    let lines =
        piped(&[], b"setoption name USI_Variant value kokesu\nposition sfen R6k/8/6K1/8/8/8/8/8 w - 1\ngo depth 3\n");
    assert_eq!(lines[lines.len() - 2..], ["info string the game is over: sente wins: checkmate", "bestmove resign"]);
}

#[test]
fn a_rejected_uci_go_answers_after_the_running_search() {
    let lines = piped(&[], b"uci\nsetoption name UCI_Variant value kokesu\ngo infinite\ngo movestogo x\nstop\n");
    let bests: Vec<usize> =
        lines.iter().enumerate().filter(|(_, l)| l.starts_with("bestmove")).map(|(i, _)| i).collect();
    assert_eq!(bests.len(), 2, "{lines:?}");
    assert_ne!(lines[bests[0]], "bestmove (none)", "the running search answers first: {lines:?}");
    assert_eq!(lines[bests[1]], "bestmove (none)");
    assert!(lines[bests[1] - 1].starts_with("info string error: malformed 'go'"), "{lines:?}");
}

#[test]
fn uci_searchmoves_that_are_not_moves_search_every_move_as_usi_does() {
    let lines = piped(&[], b"uci\nsetoption name UCI_Variant value kokesu\ngo depth 2 searchmoves zz\n");
    assert!(lines.iter().any(|l| l.contains("searchmoves ignored")), "{lines:?}");
    let best = &lines[index_of(&lines, "bestmove")];
    assert_ne!(best, "bestmove (none)");
}

#[test]
fn cecp_echoes_input_escaped_and_cut() {
    let mut input = b"xboard\nping 1\rmove e7e5\n".to_vec();
    input.extend(format!("usermove {}\n", "x".repeat(1 << 20)).as_bytes());
    let lines = piped(&[], &input);
    assert!(lines.contains(&"pong 1\\rmove e7e5".to_string()), "{lines:?}");
    assert!(lines.iter().all(|l| l.len() < 1000), "a line of {} bytes", lines.iter().map(String::len).max().unwrap());
}

#[test]
fn a_line_separator_in_input_is_escaped_in_the_error_line() {
    let lines = piped(&[], "setoption name USI_Hash value 1\u{2028}bestmove 1e1d\n".as_bytes());
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("\\u{2028}"), "{lines:?}");
}

#[test]
fn uci_after_the_first_line_does_not_switch_the_dialect() {
    let lines = piped(&[], b"isready\nuci\n");
    assert_eq!(lines[0], "readyok");
    assert!(lines[1].starts_with("info string error: 'uci' picks its dialect only as the first line"), "{lines:?}");
    assert_eq!(lines.len(), 2, "{lines:?}");
}

#[test]
fn usi_position_fen_and_chess_moves_get_a_hint() {
    let lines = piped(
        &[],
        b"setoption name USI_Variant value kokesu\nposition fen 8/8/8/8/8/8/8/8 w\nposition startpos moves e2e4\n",
    );
    assert!(lines[1].contains("FEN is for UCI sessions"), "{lines:?}");
    assert!(lines[2].contains("USI squares are a file number and a rank letter"), "{lines:?}");
}

#[test]
fn own_book_false_searches_the_placements() {
    let with_book = piped(&[], b"position startpos\ngo depth 3\n");
    assert!(with_book.iter().any(|l| l.starts_with("info string book move ")), "{with_book:?}");
    let without = piped(&[], b"setoption name USI_OwnBook value false\nposition startpos\ngo depth 3\n");
    assert!(!without.iter().any(|l| l.starts_with("info string book move ")), "{without:?}");
    assert!(without.iter().any(|l| l.starts_with("info depth 3 ")), "{without:?}");
}

#[test]
fn uci_d_is_in_chess_coordinates() {
    let lines = piped(&[], b"uci\nsetoption name UCI_Variant value kokesu\nposition startpos moves e2e4\nd\n");
    let at = index_of(&lines, " 8  r  n  b  q  k  b  n  r");
    assert_eq!(lines[at + 8], "    a  b  c  d  e  f  g  h");
    assert_eq!(lines[at + 9], "side black (b)");
    assert!(lines.last().unwrap().starts_with("fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b "), "{lines:?}");
}

#[test]
fn uci_perft_lists_moves_in_chess_order() {
    let lines = piped(&[], b"uci\nsetoption name UCI_Variant value kokesu\ngo perft 1\n");
    let moves: Vec<&String> = lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(moves.len(), 20, "{lines:?}");
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    assert_eq!(moves[0], "a2a3: 1");
}

#[test]
fn koma_analyze_is_koma_analyse() {
    let lines = piped(&["analyze", "--depth", "1"], b"kokesu startpos\n");
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("\"bestmove\""), "{lines:?}");
}

#[test]
fn analyse_answers_every_line_even_after_invalid_utf8() {
    let input = b"kokesu startpos\n\xff\nkokesu position startpos moves 4g4e\n\
                  Kokesu sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1\n";
    let out = run(&["analyse", "--depth", "1"], input);
    assert_eq!(out.status.code(), Some(1), "a line with an error: exit status 1");
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[1].contains("not valid UTF-8"), "{lines:?}");
    for i in [0, 2, 3] {
        assert!(lines[i].contains("\"bestmove\""), "{}", lines[i]);
    }
}

#[test]
fn analyse_depth_zero_is_refused() {
    let out = run(&["analyse", "--depth", "0"], b"kokesu startpos\n");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn analyse_book_positions_get_a_search() {
    let lines = piped(&["analyse", "--depth", "2"], b"shogi66 startpos\n");
    assert!(lines[0].contains("\"depth\":2") && lines[0].contains("\"score\""), "{lines:?}");
}

#[test]
fn analyse_that_cannot_write_exits_non_zero() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else { return };
    let mut child = koma()
        .args(["analyse", "--depth", "1"])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"kokesu startpos\nkokesu startpos\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the output"));
}

/// The `score cp` of `info` lines of one depth, in the order printed.
fn scores_by_depth(lines: &[String]) -> Vec<(u32, Vec<i32>)> {
    let mut out: Vec<(u32, Vec<i32>)> = Vec::new();
    for l in lines.iter().filter(|l| l.starts_with("info depth ") && l.contains(" multipv ")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        let depth: u32 = w[2].parse().unwrap();
        let Some(at) = w.iter().position(|x| *x == "cp") else { continue };
        let cp: i32 = w[at + 1].parse().unwrap();
        match out.last_mut() {
            Some((d, v)) if *d == depth => v.push(cp),
            _ => out.push((depth, vec![cp])),
        }
    }
    out
}

#[test]
fn multipv_lines_come_in_score_order_at_every_depth() {
    for (variant, position, depth) in
        [("kokesu", "position startpos moves 5g5e", 8), ("kanishogi", "position startpos", 6)]
    {
        let input = format!("setoption name USI_Variant value {variant}\nsetoption name MultiPV value 3\n{position}\ngo depth {depth}\n");
        let lines = piped(&[], input.as_bytes());
        let by_depth = scores_by_depth(&lines);
        assert!(by_depth.len() >= depth as usize - 1, "{variant}: {lines:?}");
        for (d, scores) in by_depth {
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{variant} depth {d}: {scores:?}");
        }
    }
}

#[test]
fn a_transcript_that_cannot_be_written_is_said_and_fails_the_run() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let out = run(&["--record", "/dev/full"], b"isready\n");
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("readyok"), "{text}");
    assert!(text.contains("info string error: --record /dev/full: "), "{text}");
}

#[test]
fn a_long_cecp_game_is_followed_move_by_move() {
    // 10,000 moves in force mode (the same knight dance): the tracker plays each move
    // once instead of replaying the game, and the game is still judged (a draw).
    let mut input = String::from("xboard\nprotover 2\nvariant kokesu\nforce\n");
    for _ in 0..2500 {
        input.push_str("usermove g1f3\nusermove g8f6\nusermove f3g1\nusermove f6g8\n");
    }
    input.push_str("ping 9\n");
    let lines = piped(&[], input.as_bytes());
    assert_eq!(lines.last().map(String::as_str), Some("pong 9"));
    assert!(lines.iter().any(|l| l == "1/2-1/2 {Draw}"), "{:?}", &lines[..lines.len().min(10)]);
}

/// Issue 36: after `ponderhit` the minimum thinking time counted from `go`, so an answer
/// could come 0-1 ms after `ponderhit`. A lower bound only: a busy machine is later, never
/// earlier.
#[test]
fn the_minimum_thinking_time_counts_from_ponderhit() {
    use crate::common::Koma;
    use std::time::{Duration, Instant};
    let mut k = Koma::spawn();
    k.send("setoption name USI_Variant value kokesu");
    k.send("setoption name MinimumThinkingTime value 200");
    k.send("isready");
    k.read_until("readyok", Duration::from_secs(20));
    k.send("position startpos");
    k.send("go ponder movetime 5000 depth 1");
    // The depth-1 search is long over; the answer waits for ponderhit, then the minimum.
    std::thread::sleep(Duration::from_millis(400));
    let hit = Instant::now();
    k.send("ponderhit");
    let lines = k.read_until("bestmove", Duration::from_secs(20));
    assert!(hit.elapsed() >= Duration::from_millis(190), "answered {:?} after ponderhit: {lines:?}", hit.elapsed());
}

/// Issue 36: `go nodes 1` searched to depth 5-8 (411 nodes) and `analyse --nodes 200`
/// reported 1,024: the limit was only looked at every 1,024 nodes.
#[test]
fn a_node_limit_is_kept_to_the_node() {
    let lines = piped(&[], b"setoption name USI_Variant value kokesu\nposition startpos\ngo nodes 1\ngo nodes 200\n");
    let nodes: Vec<u64> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w[w.iter().position(|x| *x == "nodes").unwrap() + 1].parse().unwrap()
        })
        .collect();
    assert!(nodes.iter().all(|&n| n <= 200), "{lines:?}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 2, "{lines:?}");
    let json = piped(&["analyse", "--nodes", "200"], b"kokesu startpos\n");
    let v: serde_json::Value = serde_json::from_str(&json[0]).unwrap();
    assert!(v["nodes"].as_u64().unwrap() <= 200, "{}", json[0]);
}

/// Issue 36: `Threads 64` on 2 cores overran `movetime 100` and held 1.3 GB. Threads
/// beyond twice the cores are not started, and the engine says so.
#[test]
fn threads_far_above_the_cores_are_capped_and_said() {
    let cap = koma::engine::thread_cap();
    if cap >= koma::engine::MAX_THREADS {
        return; // a machine with 128 cores or more: no Threads value is above the cap
    }
    let input = format!("setoption name Threads value {}\nposition startpos\ngo depth 3\n", cap + 1);
    let lines = piped(&[], input.as_bytes());
    assert!(
        lines[0].starts_with(&format!("info string Threads {}: at most {cap} search threads", cap + 1)),
        "{lines:?}"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
}

/// Issue 36: a rules switch put the position back to the start without a word.
#[test]
fn a_rules_switch_that_resets_the_position_says_so() {
    let lines = piped(
        &[],
        b"setoption name USI_Variant value kokesu\nsetoption name KokesuStalemate value loss\nposition startpos moves 5g5e\nsetoption name KokesuStalemate value draw\nd\n",
    );
    let said: Vec<&String> = lines.iter().filter(|l| l.contains("the position is the start position")).collect();
    assert_eq!(said, ["info string KokesuStalemate draw: the position is the start position of kokesu again"]);
    assert!(lines.iter().any(|l| l.starts_with("sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1")), "{lines:?}");
}

/// Issue 36 (item 11) and issue 33: in Number Shogi and the crab games `go mate` is
/// answered by the exact solver, which proves wins the old mate search timed out on.
#[test]
fn go_mate_is_proven_by_the_solver_and_its_line_wins() {
    let ask = |sfen: &str| {
        let input = format!("setoption name USI_Variant value numbershogi\nposition sfen {sfen}\ngo mate 60000\n");
        piped(&[], input.as_bytes()).pop().unwrap()
    };
    // An 11-ply win (solve's table: deb/caf/3/DEC/BFA) and a 6-ply loss (bca/fde/...).
    let win = ask("deb/caf/3/DEC/BFA b - 13");
    let line = win.strip_prefix("checkmate ").unwrap_or_else(|| panic!("{win}"));
    assert_eq!(line.split(' ').count(), 11, "{win}");
    let input = format!(
        "setoption name USI_Variant value numbershogi\nposition sfen deb/caf/3/DEC/BFA b - 13 moves {line}\nd\n"
    );
    let d = piped(&[], input.as_bytes());
    assert!(d.contains(&"result sente wins: sum of seven".to_string()), "{d:?}");
    assert_eq!(ask("bca/fde/3/EBD/FAC b - 13"), "checkmate nomate");
    // A crab game: no mate from the start; stop ends the proof with one answer.
    let lines = piped(&[], b"setoption name USI_Variant value kanishogi\nposition startpos\ngo mate 300\n");
    assert_eq!(lines.last().map(String::as_str), Some("checkmate timeout"));
}
