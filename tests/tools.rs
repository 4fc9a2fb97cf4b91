//! The Python tools' own unit tests (tools/tests/: match statistics, the match referee
//! against this binary, `koma solve` and a match's game pairs farmed out with Ray), run
//! with the test suite's Python: `.venv`, which the README's command makes (with Ray in
//! it: the root pyproject.toml). `tools` is a package: the tests import `tools.match`,
//! `tools.lib.engine` and the like from the root.
//!
//! One Rust test a Python test module, so that the suite runs them side by side with
//! the rest instead of as one long test at its end; `every_tools_test_module_is_run`
//! checks that the list below names every `tools/tests/test_*.py`.
//!
//! Without `.venv` each test fails with the line to run (most of these tests would skip
//! for want of Ray and pass without running: issue 44's "silent skip in CI"), unless
//! `KOMA_SKIP_CROSSCHECK` is set at build time, which skips them as ignored, with the
//! reason, as it skips the pyffish cross-check.

use std::path::Path;
use std::process::Command;

use crate::common::VENV_SETUP as SETUP;

/// Runs one module of tools/tests with unittest and fails with its output unless all
/// of its tests pass.
fn run_module(module: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    assert!(python.exists(), "no .venv: the Python tools' tests need it; run: {SETUP}");
    let out = Command::new(&python)
        .args(["-m", "unittest", &format!("tools.tests.{module}")])
        .current_dir(root)
        .env("KOMA", assert_cmd::cargo::cargo_bin("koma"))
        .output()
        .expect("python runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{module}: {err}");
    assert!(err.contains("\nOK"), "{module}: {err}");
    assert!(!err.contains("Ran 0 tests"), "{module} has no test: {err}");
}

macro_rules! tools_tests {
    ($($module:ident),* $(,)?) => {
        const MODULES: &[&str] = &[$(stringify!($module)),*];
        $(
            #[test]
            #[cfg_attr(
                koma_skip_crosscheck,
                ignore = "KOMA_SKIP_CROSSCHECK is set: the Python tools' tests (which need .venv) are skipped"
            )]
            fn $module() {
                run_module(stringify!($module));
            }
        )*
    };
}

tools_tests!(
    test_eval_disagree,
    test_fsf_label,
    test_fsf_relabel,
    test_knowledge,
    test_levels_ladder,
    test_match_combine,
    test_match_referee,
    test_match_stats,
    test_match_stockfish,
    test_numbershogi_equilibrium,
    test_pub_items,
    test_ray_fsf_games,
    test_ray_match,
    test_ray_nnue_data,
    test_ray_sf_data,
    test_ray_solve,
    test_report_stability,
    test_search_speed,
    test_sf_label_quality,
    test_sf_relabel,
    test_spsa,
    test_tactics,
    test_xboard_demo,
);

#[test]
fn every_tools_test_module_is_run() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/tests");
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .expect("tools/tests")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|n| Some(n.strip_prefix("test_")?.strip_suffix(".py")?.to_string()))
        .map(|n| format!("test_{n}"))
        .collect();
    found.sort();
    assert_eq!(found, MODULES, "tools/tests/test_*.py and the list in tests/tools.rs");
}
