//! Every integration test, built as one test binary.
//!
//! Each file beside this one is a module here, named for what it tests (`cargo test
//! --release kokesu_rules::` runs one of them). One binary links the engine once instead
//! of once per file, which took most of the suite's build time in CI. `Cargo.toml` turns
//! off Cargo's one-binary-per-file discovery (`autotests = false`), so a new test file
//! must be declared below: `every_test_file_is_in_the_suite` fails until it is.

mod common;

mod analyse;
mod crab_search;
mod crosscheck;
mod dialects;
mod docs;
mod every_game;
mod game_report;
mod hostile_input;
mod hostile_records;
mod hostile_serve;
mod kaninariebi_reference;
mod kaninariebi_rules;
mod kanishogi_reference;
mod kanishogi_rules;
mod kokesu_nnue;
mod kokesu_rules;
mod layers;
mod levels;
mod notation;
mod numbershogi_play;
mod numbershogi_rules;
mod numbershogi_solve;
mod perft;
mod protocol;
mod python;
mod readme;
mod records;
mod records_rules;
mod registry;
mod release;
mod scripting;
mod search_sanity;
mod selfplay;
mod serve;
mod serve_board;
mod serve_browser;
mod serve_explore;
mod serve_page;
mod serve_records;
mod shogi66_nnue;
mod shogi66_rules;
mod threads;
mod time_and_control;
mod tools;
mod transcripts;

/// A `.rs` file under `tests/` that is not declared above would never be compiled.
#[test]
fn every_test_file_is_in_the_suite() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let suite = std::fs::read_to_string(dir.join("suite.rs")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(module) = name.strip_suffix(".rs") {
            if module != "suite" && !suite.lines().any(|l| l == format!("mod {module};")) {
                missing.push(name);
            }
        }
    }
    assert!(missing.is_empty(), "not declared in tests/suite.rs: {missing:?}");
}
