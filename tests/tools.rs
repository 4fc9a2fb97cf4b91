//! The Python tools' own unit tests (match statistics, the match referee against this
//! binary, `koma solve` and a match's game pairs farmed out with Ray), run with the test
//! suite's Python: `.venv` when the README's command made it (with Ray in it:
//! tests/reference/requirements.txt). `tools` is a package: the tests import
//! `tools.match` and the like from the root.

use std::path::Path;
use std::process::Command;

#[test]
fn python_tools_pass_their_unit_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join(".venv/bin/python");
    let python = if venv.exists() { venv } else { "python3".into() };
    let out = Command::new(&python)
        .args(["-m", "unittest", "discover", "-s", "tools", "-t", "."])
        .current_dir(root)
        .env("KOMA", assert_cmd::cargo::cargo_bin("koma"))
        .output()
        .expect("python runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("OK"), "{err}");
}
