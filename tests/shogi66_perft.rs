//! The 66-shogi perft suite (`fixtures/perft/shogi66.perft`), figures cross-checked by
//! `tests/reference/shogi66_pyffish.py`.

use koma::game::Game;
use koma::games::shogi66::Shogi66;
use koma::perft::{divide, perft, run_suite};

/// Lines with more expected leaves than this are skipped in CI.
const CAP: u64 = 3_000_000;

#[test]
fn perft_suite() {
    match run_suite::<Shogi66>(include_str!("../fixtures/perft/shogi66.perft"), CAP) {
        Ok(n) => assert!(n > 20, "only {n} perft lines checked"),
        Err(failures) => panic!("perft mismatches:\n{}", failures.join("\n")),
    }
}

/// Debug helper: `SFEN='...' DEPTH=3 cargo test --release --test shogi66_perft -- --ignored --nocapture`.
#[test]
#[ignore]
fn divide_from_env() {
    let sfen = std::env::var("SFEN").unwrap_or_else(|_| "6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1".into());
    let depth: u32 = std::env::var("DEPTH").ok().and_then(|d| d.parse().ok()).unwrap_or(2);
    let pos = Shogi66::from_sfen(&sfen, &Default::default()).expect("valid sfen");
    let t = std::time::Instant::now();
    if std::env::var("DIVIDE").is_ok() {
        for (m, n) in divide(&pos, depth) {
            println!("{m}: {n}");
        }
    }
    let n = perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("perft {depth} = {n} in {s:.3}s ({:.0} nodes/s)", n as f64 / s);
}
