//! The 66-shogi perft suite (`fixtures/perft/shogi66.perft`), figures cross-checked by
//! `tests/reference/shogi66_pyffish.py`.

use koma::game::perft::run_suite;
use koma::games::shogi66::Shogi66;

/// Lines with more expected leaves than this are skipped in CI.
const CAP: u64 = 3_000_000;

#[test]
fn perft_suite() {
    match run_suite::<Shogi66>(include_str!("../fixtures/perft/shogi66.perft"), CAP) {
        Ok(n) => assert!(n > 20, "only {n} perft lines checked"),
        Err(failures) => panic!("perft mismatches:\n{}", failures.join("\n")),
    }
}
