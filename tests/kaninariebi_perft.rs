//! The Kani Nari Ebi perft suite (`fixtures/perft/kaninariebi.perft`).

use koma::game::perft::run_suite;
use koma::games::kaninariebi::KaniNariEbi;

#[test]
fn perft_suite() {
    match run_suite::<KaniNariEbi>(include_str!("../fixtures/perft/kaninariebi.perft"), 20_000_000) {
        Ok(n) => assert!(n >= 15, "only {n} lines checked"),
        Err(e) => panic!("{}", e.join("\n")),
    }
}
