//! The Number Shogi perft suite (fixtures/perft/numbershogi.perft).

use koma::games::numbershogi::NumberShogi;

/// Lines with more expected leaves than this are skipped (all of them run in well under
/// a second in release mode).
const CAP: u64 = 2_000_000;

#[test]
fn numbershogi_perft_suite() {
    match koma::game::perft::run_suite::<NumberShogi>(include_str!("../fixtures/perft/numbershogi.perft"), CAP) {
        Ok(n) => assert!(n >= 60, "only {n} figures checked"),
        Err(failures) => panic!("perft mismatches:\n{}", failures.join("\n")),
    }
}
