//! The Kani Shogi perft suite (`fixtures/perft/kanishogi.perft`).

use koma::game::perft::run_suite;
use koma::games::kanishogi::KaniShogi;

#[test]
fn perft_suite() {
    match run_suite::<KaniShogi>(include_str!("../fixtures/perft/kanishogi.perft"), 2_000_000) {
        Ok(n) => assert!(n >= 20, "only {n} lines checked"),
        Err(e) => panic!("{}", e.join("\n")),
    }
}
