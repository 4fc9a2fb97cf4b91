//! The kokesu perft suite (fixtures/perft/kokesu.perft), figures cross-checked with
//! pyffish by tests/reference/kokesu_pyffish.py.

use koma::game::perft::run_suite;
use koma::games::kokesu::Kokesu;

const CAP: u64 = 20_000_000;

#[test]
fn kokesu_perft_suite() {
    match run_suite::<Kokesu>(include_str!("../fixtures/perft/kokesu.perft"), CAP) {
        Ok(n) => assert!(n >= 50, "only {n} figures checked"),
        Err(failures) => panic!("perft mismatches:\n{}", failures.join("\n")),
    }
}
