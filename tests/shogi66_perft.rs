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

/// Debug helper: prints positions from seeded random games after the standard setup
/// (`N=20 cargo test --release --test shogi66_perft random_positions -- --ignored --nocapture`).
#[test]
#[ignore]
fn random_positions() {
    let n: usize = std::env::var("N").ok().and_then(|d| d.parse().ok()).unwrap_or(10);
    let mut seed: u64 = std::env::var("SEED").ok().and_then(|d| d.parse().ok()).unwrap_or(1);
    let mut rnd = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut moves = Vec::new();
    for _ in 0..n {
        let mut pos = Shogi66::startpos(&Default::default());
        let len = 12 + 8 + rnd() % 40;
        for _ in 0..len {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            // Prefer captures a little so hands fill up.
            let caps: Vec<_> = moves.iter().copied().filter(|&m| pos.is_tactical(m)).collect();
            let mv =
                if !caps.is_empty() && rnd() % 2 == 0 { caps[rnd() % caps.len()] } else { moves[rnd() % moves.len()] };
            pos.play(mv);
        }
        moves.clear();
        pos.legal_moves(&mut moves);
        println!("{} | moves {} check {}", pos.to_sfen(), moves.len(), pos.in_check());
    }
}

/// Debug helper: the book's placement from `SFEN` (default startpos) to the end.
#[test]
#[ignore]
fn book_line() {
    let sfen = std::env::var("SFEN").unwrap_or_else(|_| "6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1".into());
    let mut pos = Shogi66::from_sfen(&sfen, &Default::default()).expect("valid sfen");
    let mut line = Vec::new();
    while let Some(m) = pos.book_move() {
        line.push(pos.format_move(m));
        pos.play(m);
    }
    println!("{} -> {}  eval {}", line.join(" "), pos.to_sfen(), pos.evaluate());
}
