//! Named tests for each protocol behaviour of issue 2 §2, against the real binary.
//! Time bounds here are generous sanity limits, not benchmarks.

use crate::common;

use std::time::{Duration, Instant};

use common::Koma;

const T: Duration = Duration::from_secs(10);

fn bestmoves(lines: &[String]) -> usize {
    lines.iter().filter(|l| l.starts_with("bestmove")).count()
}

#[test]
fn usi_handshake_prints_only_id_and_options_before_usiok() {
    let mut k = Koma::spawn();
    k.send("usi");
    let lines = k.read_until("usiok", T);
    assert!(lines[0].starts_with("id name koma "), "{lines:?}");
    assert_eq!(lines[1], "id author the koma developers");
    for l in &lines[2..lines.len() - 1] {
        assert!(l.starts_with("option name "), "unexpected line before usiok: {l}");
        assert!(!l.ends_with(' '), "trailing space: '{l}'");
    }
    let has = |p: &str| lines.iter().any(|l| l.starts_with(p));
    assert!(has("option name USI_Variant type combo default shogi66 var shogi66"));
    assert!(has("option name USI_Hash type spin"));
    assert!(has("option name USI_Ponder type check"));
    assert!(has("option name MultiPV type spin"));
    assert_eq!(lines.last().map(String::as_str), Some("usiok"));
    assert_eq!(k.ask("isready"), "readyok");
    let (ok, rest, stderr) = k.finish();
    assert!(ok && rest.is_empty() && stderr.is_empty());
}

#[test]
fn unknown_command_gets_one_error_line_and_engine_keeps_answering() {
    let mut k = Koma::spawn();
    assert_eq!(k.ask("xyzzy plugh"), "info string error: unknown command 'xyzzy'");
    k.expect_silence(Duration::from_millis(100));
    assert_eq!(k.ask("isready"), "readyok");
}

#[test]
fn garbage_bytes_get_an_error_line_and_engine_keeps_answering() {
    let mut k = Koma::spawn();
    k.send_bytes(b"\xff\xfe\x00garbage\x01\n");
    let l = k.next_line(T).expect("a reply to garbage");
    assert!(l.starts_with("info string error: "), "{l}");
    k.send_bytes(b"position sfen \xff\xff b - 1\n");
    let l = k.next_line(T).expect("a reply to a garbage sfen");
    assert!(l.starts_with("info string error: position rejected"), "{l}");
    assert_eq!(k.ask("isready"), "readyok");
    let (ok, _, stderr) = k.finish();
    assert!(ok && stderr.is_empty(), "{stderr}");
}

#[test]
fn malformed_sfen_is_rejected_with_one_error_line() {
    let mut k = Koma::spawn();
    for bad in
        ["position sfen 6/pppppp/6/6/PPPPPP b - 1", "position sfen 7/pppppp/6/6/PPPPPP/6 b - 1", "position sfen xyz"]
    {
        let l = k.ask(bad);
        assert!(l.starts_with("info string error: position rejected"), "{bad}: {l}");
        k.expect_silence(Duration::from_millis(50));
    }
}

#[test]
fn illegal_move_rejects_the_whole_position_command() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*1f K*1a");
    let before = k.ask("d");
    k.read_until("sfen ", T);
    let _ = before;
    let l = k.ask("position startpos moves K*2f K*2a 1e1d");
    assert!(l.starts_with("info string error: position rejected: move 3"), "{l}");
    // Nothing of the rejected command is applied, and go does not search a stale position.
    k.send("go btime 1000 wtime 1000");
    let e = k.next_line(T).expect("error line");
    assert!(e.starts_with("info string error: go: no position"), "{e}");
    assert_eq!(k.next_line(T).as_deref(), Some("bestmove resign"));
    // A good position command restores normal service.
    k.send("position startpos moves K*2f");
    k.send("moves");
    let moves = k.next_line(T).expect("moves");
    assert!(moves.split(' ').any(|m| m == "K*2a"), "{moves}");
}

#[test]
fn isready_is_answered_during_a_search_without_stopping_it() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    k.send("isready");
    let lines = k.read_until("readyok", T);
    assert_eq!(bestmoves(&lines), 0, "{lines:?}");
    k.expect_silence(Duration::from_millis(0));
    std::thread::sleep(Duration::from_millis(200));
    k.send("stop");
    let lines = k.read_until("bestmove", T);
    assert_eq!(bestmoves(&lines), 1);
    k.expect_silence(Duration::from_millis(200));
}

#[test]
fn stop_ends_an_infinite_search_promptly_with_one_bestmove() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(500));
    k.send("stop");
    let lines = k.read_until("bestmove", T);
    // How fast (20 ms at p99) is measured by tools/gui_clock.py, not here: a wall-clock
    // bound would fail on a loaded machine (issue 11).
    assert_eq!(bestmoves(&lines), 1);
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
    let legal = k.moves();
    assert!(legal.contains(&best), "{best} not in {legal:?}");
}

#[test]
fn ponder_prints_no_bestmove_until_ponderhit() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*2f K*5a");
    k.send("go ponder btime 1000 wtime 1000 byoyomi 300");
    let t = Instant::now();
    std::thread::sleep(Duration::from_millis(100));
    while let Some(l) = k.next_line(Duration::from_millis(700)) {
        assert!(!l.starts_with("bestmove"), "bestmove while pondering after {:?}", t.elapsed());
        if t.elapsed() > Duration::from_millis(800) {
            break;
        }
    }
    k.send("ponderhit");
    let lines = k.read_until("bestmove", T);
    assert_eq!(bestmoves(&lines), 1);
}

#[test]
fn stop_during_ponder_gives_one_bestmove() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    k.send("go ponder btime 0 wtime 0 byoyomi 1000");
    k.expect_silence(Duration::from_millis(0));
    std::thread::sleep(Duration::from_millis(300));
    k.send("stop");
    let lines = k.read_until("bestmove", T);
    assert_eq!(bestmoves(&lines), 1);
    k.expect_silence(Duration::from_millis(200));
}

#[test]
fn go_infinite_waits_for_stop_even_when_the_search_is_done() {
    let mut k = Koma::spawn();
    // One legal reply only: the search has nothing to do, but infinite waits anyway.
    k.send("position startpos moves K*1f K*1a R*2f B*2a G*3f G*3a S*4f S*4a N*5f N*5a L*6f");
    k.send("go infinite");
    let mut early = Vec::new();
    while let Some(l) = k.next_line(Duration::from_millis(400)) {
        early.push(l);
    }
    assert_eq!(bestmoves(&early), 0, "{early:?}");
    k.send("stop");
    k.read_until("bestmove L*6a", T);
}

#[test]
fn a_new_go_ends_the_running_search_first() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    k.send("go depth 1");
    let first = k.read_until("bestmove", T);
    let second = k.read_until("bestmove", T);
    assert_eq!(bestmoves(&first) + bestmoves(&second), 2);
    k.expect_silence(Duration::from_millis(200));
}

#[test]
fn eof_during_a_search_still_prints_the_bestmove() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    k.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let (ok, rest, stderr) = k.finish();
    assert!(ok, "exit status");
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1, "{rest:?}");
    assert!(stderr.is_empty());
}

#[test]
fn minimum_thinking_time_holds_even_for_a_placement_drop() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    let t = Instant::now();
    k.send("go btime 0 wtime 0 byoyomi 1000");
    k.read_until("bestmove", T);
    assert!(t.elapsed() >= Duration::from_millis(95), "answered after {:?}", t.elapsed());
}

/// Each of these ends in one `bestmove` on its own; that it comes in time is the time
/// plan's logic (tested on a hand-moved clock in src/search/time.rs) and is measured
/// under load by tools/gui_clock.py.
#[test]
fn movetime_and_byoyomi_searches_end_on_their_own() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a");
    for go in ["go movetime 300", "go btime 0 wtime 0 byoyomi 300", "go btime 200 wtime 200"] {
        k.send(go);
        let lines = k.read_until("bestmove", T);
        assert_eq!(bestmoves(&lines), 1, "{go}");
    }
}

#[test]
fn zero_clock_without_byoyomi_moves_promptly() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a");
    k.send("go btime 0 wtime 0");
    k.read_until("bestmove", T);
}

#[test]
fn setoption_rejects_bad_values_and_keeps_the_old_ones() {
    let mut k = Koma::spawn();
    for (cmd, want) in [
        ("setoption name USI_Hash value lots", "info string error: option USI_Hash: bad value 'lots'"),
        ("setoption name USI_Hash value 0", "info string error: option USI_Hash: bad value '0'"),
        ("setoption name MultiPV value -1", "info string error: option MultiPV: bad value '-1'"),
        ("setoption name USI_Variant value xiangqi", "info string error: option USI_Variant: bad value 'xiangqi'"),
        ("setoption name NoSuchOption value 1", "info string error: unknown option 'NoSuchOption'"),
        ("setoption name USI_Ponder value maybe", "info string error: option USI_Ponder: bad value 'maybe'"),
    ] {
        let l = k.ask(cmd);
        assert!(l.starts_with(want), "{cmd}: {l}");
    }
    // Still 66 shogi at the start position.
    k.send("d");
    let lines = k.read_until("sfen ", T);
    assert_eq!(lines.last().unwrap(), "sfen 6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1");
}

#[test]
fn multipv_reports_several_lines() {
    let mut k = Koma::spawn();
    k.send("setoption name MultiPV value 3");
    k.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a");
    k.send("go depth 3");
    let lines = k.read_until("bestmove", T);
    for n in 1..=3 {
        assert!(
            lines.iter().any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {n} "))),
            "{lines:?}"
        );
    }
}

#[test]
fn info_lines_carry_the_usi_fields() {
    let mut k = Koma::spawn();
    k.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a");
    k.send("go depth 4");
    let lines = k.read_until("bestmove", T);
    let info = lines.iter().find(|l| l.starts_with("info depth 4 ")).expect("depth 4 info");
    for field in [" seldepth ", " score cp ", " nodes ", " nps ", " time ", " hashfull ", " pv "] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
}

#[test]
fn bench_gives_the_same_node_count_every_run() {
    let run = || {
        let mut k = Koma::spawn();
        k.send("bench 4");
        let lines = k.read_until("Nodes/second", Duration::from_secs(60));
        lines.iter().find(|l| l.starts_with("Nodes searched")).cloned().expect("node count")
    };
    let a = run();
    assert_eq!(a, run());
    let n: u64 = a.rsplit(' ').next().unwrap().parse().unwrap();
    assert!(n > 1000, "{a}");
}

#[test]
fn perft_prints_one_line_per_move_then_the_total() {
    let mut k = Koma::spawn();
    k.send("position startpos");
    k.send("go perft 2");
    let lines = k.read_until("Nodes searched: ", T);
    let total: u64 = lines.last().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    let body = &lines[..lines.len() - 1];
    assert_eq!(body.len(), 7 * 6, "{body:?}"); // K R B G S N L, six squares each
    let sum: u64 = body.iter().map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, total);
}

#[test]
fn variant_change_announces_the_board() {
    let mut k = Koma::spawn();
    k.send("usi");
    let lines = k.read_until("usiok", T);
    let combo = lines.iter().find(|l| l.starts_with("option name USI_Variant")).unwrap().clone();
    for v in combo.split(" var ").skip(1) {
        let l = k.ask(&format!("setoption name USI_Variant value {v}"));
        assert!(l.starts_with(&format!("info string variant {v} files ")), "{l}");
        assert!(l.contains(" startpos "), "{l}");
        // UCI_Variant is accepted too.
        let l = k.ask(&format!("setoption name UCI_Variant value {v}"));
        assert!(l.starts_with(&format!("info string variant {v} ")), "{l}");
    }
}

#[test]
fn go_mate_finds_a_mate_and_reports_nomate() {
    let mut k = Koma::spawn();
    // Gote king on 1a, sente gold in hand, sente silver on 2c: G*1b is mate.
    k.send("position sfen 5k/6/4S1/6/6/K5 b G 30");
    k.send("go mate 5000");
    let l = k.read_until("checkmate", T);
    let mate = l.last().unwrap().clone();
    // G*1b and G*2b both mate at once; either is a right answer, so check it by playing it.
    assert!(mate == "checkmate G*1b" || mate == "checkmate G*2b", "{mate}");
    k.send(&format!("position sfen 5k/6/4S1/6/6/K5 b G 30 moves {}", &mate[10..]));
    assert_eq!(k.ask("moves"), "");
    k.send("position sfen 5k/6/6/6/6/K5 b P 30");
    k.send("go mate 5000");
    let l = k.read_until("checkmate", T);
    assert_eq!(l.last().unwrap(), "checkmate nomate");
}

#[test]
fn stderr_stays_quiet_through_a_whole_session() {
    let mut k = Koma::spawn();
    for c in
        ["usi", "isready", "usinewgame", "position startpos", "go btime 0 wtime 0 byoyomi 100", "bogus", "d", "moves"]
    {
        k.send(c);
    }
    k.read_until("bestmove", T);
    let (ok, _, stderr) = k.finish();
    assert!(ok);
    assert!(stderr.is_empty(), "stderr: {stderr}");
}

/// Seeded random command streams in every variant: valid commands, positions reached by
/// random legal moves, and mutations of valid commands (bytes deleted, replaced or
/// inserted, invalid UTF-8 included). After each command the engine still answers
/// `isready`; every finite `go` ends in exactly one `bestmove` (`go mate`: one
/// `checkmate`) and nothing else ever prints one; at the end it exits cleanly with
/// nothing on stderr.
#[test]
fn random_command_streams_never_break_the_engine() {
    let mut rng = fastrand::Rng::with_seed(20_261_123);
    let variants = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"];
    let plain = [
        "usi",
        "usinewgame",
        "d",
        "moves",
        "go perft 2",
        "stop",
        "ponderhit",
        "gameover draw",
        "setoption name MultiPV value 2",
        "setoption name USI_Hash value 4",
        "setoption name KokesuPromotion value free",
        "setoption name NumberShogiPromotion value off",
        "position sfen 4k3/8/8/8/8/8/3N4/4K3 b - 7",
        "position sfen cfb/ead/3/DAE/BFC b - 1 moves 1d1c",
        "position sfen lrnskg/pppppp/6/6/PPPPPP/GKSNRL b - 13 moves 2e2d",
        "position sfen A3b/D3c/K3k/C3d/B3a b - 1",
    ];
    let searches =
        ["go depth 3", "go movetime 30", "go nodes 2000", "go btime 100 wtime 100 byoyomi 60", "go mate 100"];
    let mut k = Koma::spawn();
    let mut history: Vec<String> = Vec::new();
    for step in 0..1500 {
        let mut line: Vec<u8> = match rng.usize(..10) {
            0 => format!("setoption name USI_Variant value {}", variants[rng.usize(..variants.len())]).into_bytes(),
            1 | 2 => {
                // A position some random legal moves deep.
                k.send("position startpos");
                let mut moves: Vec<String> = Vec::new();
                for _ in 0..rng.usize(..16) {
                    k.send(&format!("position startpos moves {}", moves.join(" ")));
                    let legal = k.moves();
                    if legal.is_empty() {
                        break;
                    }
                    moves.push(legal[rng.usize(..legal.len())].clone());
                }
                format!("position startpos moves {}", moves.join(" ")).into_bytes()
            }
            3 | 4 => searches[rng.usize(..searches.len())].as_bytes().to_vec(),
            _ => plain[rng.usize(..plain.len())].as_bytes().to_vec(),
        };
        let search = line.starts_with(b"go ") && !line.starts_with(b"go perft");
        if !search && rng.bool() {
            for _ in 0..1 + rng.usize(..4) {
                let at = rng.usize(..=line.len());
                match rng.usize(..3) {
                    0 if at < line.len() => {
                        line.remove(at);
                    }
                    1 if at < line.len() => line[at] = rng.u8(..),
                    _ => line.insert(at, rng.u8(..)),
                }
            }
            line.retain(|&b| b != b'\n' && b != b'\r');
            // A mutation must not become a search, a bench or a quit of its own.
            let first = line.split(|&b| b == b' ').next().unwrap_or(&[]).to_vec();
            if [&b"go"[..], b"bench", b"quit"].contains(&first.as_slice()) {
                line = b"xyzzy".to_vec();
            }
        }
        history.push(String::from_utf8_lossy(&line).into_owned());
        line.push(b'\n');
        k.send_bytes(&line);
        let mut out = Vec::new();
        if search {
            let end = if line.starts_with(b"go mate") { "checkmate" } else { "bestmove" };
            out = k.read_until(end, T);
        }
        k.send("isready");
        out.extend(k.read_until("readyok", T));
        let finals = out.iter().filter(|l| l.starts_with("bestmove") || l.starts_with("checkmate")).count();
        assert_eq!(finals, usize::from(search), "step {step}: {out:?}\nafter {history:?}");
    }
    let (ok, _, stderr) = k.finish();
    assert!(ok, "the engine did not exit cleanly");
    assert!(stderr.is_empty(), "stderr: {stderr}");
}
