//! Runs every independent cross-check script in `tests/reference/` (pyffish, i.e.
//! Fairy-Stockfish's current rules). Each script recomputes the figures of a perft
//! fixture with the independent implementation and exits non-zero on any mismatch; the
//! Rust perft tests check koma against the same fixtures.
//!
//! Every script takes `--max-nodes N` and skips fixture lines with more expected leaves
//! (pyffish walks the tree from Python, about 10^5 leaves a second); CI checks up to
//! [`MAX_NODES`]. Run a script by hand without the flag to check every figure.

use std::process::Command;

const MAX_NODES: &str = "50000";

#[test]
fn perft_fixtures_agree_with_the_independent_implementations() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/reference exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no cross-check scripts in {}", dir.display());
    let mut failures = Vec::new();
    for script in &scripts {
        let out = Command::new("python3")
            .arg(script)
            .args(["--max-nodes", MAX_NODES])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap_or_else(|e| panic!("python3 cannot run ({e}); install the README's test requirements"));
        if !out.status.success() {
            failures.push(format!(
                "{}:\n{}{}",
                script.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
