//! Every registry game's perft suite, `fixtures/perft/<name>.perft` (the format:
//! `koma::game::perft::parse_suite`), the figures cross-checked against an independent
//! implementation (`tests/reference/`). A game added to the registry without a suite fails
//! here.

use std::path::Path;

use koma::game::perft::run_suite;
use koma::game::{Notation, Strategy};
use koma::games::{self, Visitor};

/// Lines with more expected leaves than this are skipped (each of the others runs in well
/// under a second in release mode).
const CAP: u64 = 20_000_000;

/// Every suite checks at least this many figures under the cap.
const LEAST: usize = 15;

struct Suite<'a>(&'a str);

impl Visitor for Suite<'_> {
    type Output = Result<usize, Vec<String>>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        run_suite::<G>(self.0, CAP)
    }
}

#[test]
fn every_registry_game_passes_its_perft_suite() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/perft");
    let mut wrong = Vec::new();
    for name in games::names() {
        let text = match std::fs::read_to_string(dir.join(format!("{name}.perft"))) {
            Ok(text) => text,
            Err(e) => {
                wrong.push(format!("{name}: no fixtures/perft/{name}.perft ({e})"));
                continue;
            }
        };
        match games::visit(name, Suite(&text)).expect("a registry name") {
            Ok(n) if n >= LEAST => {}
            Ok(n) => wrong.push(format!("{name}: only {n} figures checked")),
            Err(failures) => wrong.extend(failures.iter().map(|f| format!("{name}: {f}"))),
        }
    }
    assert!(wrong.is_empty(), "perft suites:\n{}", wrong.join("\n"));
}
