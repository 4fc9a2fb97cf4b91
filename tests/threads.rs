//! `Threads` above 1 (Lazy SMP) through the protocol, in every game: one legal
//! `bestmove` per `go`, `isready` and `stop` answered during the search, nodes of all
//! threads in `info`, and bad values refused.

use crate::common;

use std::time::Duration;

use common::Koma;

const T: Duration = Duration::from_secs(20);

fn bestmoves(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .map(|l| l.split_whitespace().nth(1).unwrap_or("").to_string())
        .collect()
}

fn send_until(k: &mut Koma, line: &str, prefix: &str) -> Vec<String> {
    k.send(line);
    k.read_until(prefix, T)
}

fn engine(variant: &str, position: &str, threads: usize) -> Koma {
    let mut k = Koma::spawn();
    k.send(&format!("setoption name USI_Variant value {variant}"));
    k.send(&format!("setoption name Threads value {threads}"));
    let lines = send_until(&mut k, "isready", "readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    k.send(position);
    k
}

#[test]
fn threads_give_one_legal_bestmove_per_go_in_every_game() {
    for (variant, position) in common::SEARCH_POSITIONS {
        let mut k = engine(variant, position, 3);
        let legal = k.moves();
        for go in ["go depth 6", "go nodes 20000", "go movetime 200"] {
            let lines = send_until(&mut k, go, "bestmove");
            let best = bestmoves(&lines);
            assert_eq!(best.len(), 1, "{variant} {go}: {lines:?}");
            assert!(legal.contains(&best[0]), "{variant} {go}: {} not in {legal:?}", best[0]);
            assert!(!lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
        }
        k.expect_silence(Duration::from_millis(100));
        let (ok, _, stderr) = k.finish();
        assert!(ok && stderr.is_empty(), "{variant}: {stderr}");
    }
}

#[test]
fn threads_answer_isready_and_stop_during_an_infinite_search() {
    for (variant, position) in common::SEARCH_POSITIONS {
        let mut k = engine(variant, position, 4);
        let legal = k.moves();
        k.send("go infinite");
        std::thread::sleep(Duration::from_millis(150));
        let lines = send_until(&mut k, "isready", "readyok");
        assert!(bestmoves(&lines).is_empty(), "{variant}: {lines:?}");
        let lines = send_until(&mut k, "stop", "bestmove");
        let best = bestmoves(&lines);
        assert_eq!(best.len(), 1, "{variant}: {lines:?}");
        assert!(legal.contains(&best[0]), "{variant}: {} not in {legal:?}", best[0]);
        k.expect_silence(Duration::from_millis(200));
        assert_eq!(k.ask("isready"), "readyok");
    }
}

#[test]
fn info_counts_the_nodes_of_every_thread() {
    // With a node limit the search stops once all threads together reach it (each
    // thread adds its count to the total every 1024 nodes).
    let mut k = engine("kokesu", "position startpos", 2);
    let lines = send_until(&mut k, "go nodes 200000", "bestmove");
    let last_info = lines.iter().rev().find(|l| l.starts_with("info depth")).expect("an info line");
    let nodes: u64 = last_info.split_whitespace().skip_while(|w| *w != "nodes").nth(1).unwrap().parse().unwrap();
    assert!(nodes <= 200_000 + 2 * 2 * 1024, "{last_info}");
}

#[test]
fn bad_threads_values_are_refused_and_the_old_one_kept() {
    let mut k = Koma::spawn();
    for bad in ["0", "257", "-1", "two"] {
        let reply = k.ask(&format!("setoption name Threads value {bad}"));
        assert!(reply.starts_with("info string error: option Threads: bad value"), "{reply}");
    }
    k.send("position startpos");
    let lines = send_until(&mut k, "go depth 3", "bestmove");
    assert_eq!(bestmoves(&lines).len(), 1);
}
