//! The Python tools' own unit tests (tools/tests/: match statistics, the match referee
//! against this binary, `koma solve` and a match's game pairs farmed out with Ray), run
//! with the test suite's Python: `.venv`, which the README's command makes (with Ray in
//! it: the root pyproject.toml). `tools` is a package: the tests import `tools.match`,
//! `tools.lib.engine` and the like from the root.
//!
//! Without `.venv` the test fails with the line to run (most of these tests would skip
//! for want of Ray and pass without running: issue 44's "silent skip in CI"), unless
//! `KOMA_SKIP_CROSSCHECK` is set at build time, which skips it as ignored, with the
//! reason, as it skips the pyffish cross-check.

use std::path::Path;
use std::process::Command;

use crate::common::VENV_SETUP as SETUP;

#[test]
#[cfg_attr(
    koma_skip_crosscheck,
    ignore = "KOMA_SKIP_CROSSCHECK is set: the Python tools' tests (which need .venv) are skipped"
)]
fn python_tools_pass_their_unit_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    assert!(python.exists(), "no .venv: the Python tools' tests need it; run: {SETUP}");
    let out = Command::new(&python)
        .args(["-m", "unittest", "discover", "-s", "tools/tests", "-t", "."])
        .current_dir(root)
        .env("KOMA", assert_cmd::cargo::cargo_bin("koma"))
        .output()
        .expect("python runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("OK"), "{err}");
}
