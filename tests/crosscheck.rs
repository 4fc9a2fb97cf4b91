//! Runs every independent cross-check script in `tests/reference/` (pyffish, i.e.
//! Fairy-Stockfish's current rules). Each script recomputes the figures of a perft
//! fixture with the independent implementation and exits non-zero on any mismatch; the
//! Rust perft tests check koma against the same fixtures.
//!
//! The scripts run with the virtual environment that the README's test command creates
//! (`.venv/bin/python`), or `python3` when there is none. A missing or wrong pyffish
//! fails with one line saying what to run. `KOMA_SKIP_CROSSCHECK=1` at build time marks this test
//! ignored (it takes most of the suite's time; `build.rs`), so `cargo test` reports it as
//! skipped; CI (`.ci/run`) always runs it.
//!
//! Every script takes `--max-nodes N` and skips fixture lines with more expected leaves
//! (pyffish walks the tree from Python, about 10^5 leaves a second); CI checks up to
//! [`MAX_NODES`]: every rule at the depths where its figures stay small. Run a script by hand with a larger `--max-nodes` (or `3000000`, all) to
//! check the deeper figures: they take minutes more.
//!
//! This is the suite's longest test (its scripts keep both cores busy for about a
//! minute): the module's name puts it early in the order libtest runs the tests in, so
//! that it runs beside the others rather than alone at the end.

use std::path::{Path, PathBuf};
use std::process::Command;

const MAX_NODES: &str = "20000";
const SKIP: &str = "KOMA_SKIP_CROSSCHECK";
use crate::common::VENV_SETUP as SETUP;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The interpreter of the README's virtual environment, else `python3`.
fn python() -> PathBuf {
    let venv = root().join(".venv/bin/python");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// The pyffish version that the root `pyproject.toml` pins (`"pyffish==0.0.90",`).
fn pinned_pyffish() -> String {
    let toml = std::fs::read_to_string(root().join("pyproject.toml")).expect("pyproject.toml");
    toml.lines()
        .find_map(|l| l.trim().strip_prefix("\"pyffish==")?.split('"').next())
        .expect("pyproject.toml pins \"pyffish==X.Y.Z\"")
        .to_string()
}

/// `Err(one line)` unless `python` imports the pinned pyffish.
fn check_pyffish(python: &Path) -> Result<(), String> {
    let want = pinned_pyffish();
    let probe = "import pyffish; print('.'.join(map(str, pyffish.version())))";
    let found = match Command::new(python).args(["-c", probe]).output() {
        Err(e) => format!("{} cannot run ({e})", python.display()),
        Ok(o) if o.status.success() => {
            let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
            if v == want {
                return Ok(());
            }
            format!("{} has pyffish {v}", python.display())
        }
        Ok(_) => format!("{} has no pyffish", python.display()),
    };
    Err(format!("the cross-check needs pyffish {want}, but {found}: run `{SETUP}` (or set {SKIP}=1 to skip it)"))
}

#[test]
#[cfg_attr(koma_skip_crosscheck, ignore = "KOMA_SKIP_CROSSCHECK is set: the pyffish cross-check is skipped")]
fn perft_fixtures_agree_with_the_independent_implementations() {
    let python = python();
    if let Err(line) = check_pyffish(&python) {
        panic!("{line}");
    }
    let dir = root().join("tests/reference");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/reference exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "py"))
        .collect();
    scripts.sort();
    assert!(!scripts.is_empty(), "no cross-check scripts in {}", dir.display());
    // The scripts run side by side, each read to its end by its own thread (the 66 shogi
    // one also spreads its figures over the cores): this is the suite's longest test.
    let outputs: Vec<_> = std::thread::scope(|scope| {
        let runs: Vec<_> = scripts
            .iter()
            .map(|script| {
                let python = &python;
                scope.spawn(move || {
                    let out = Command::new(python)
                        .arg(script)
                        .args(["--max-nodes", MAX_NODES])
                        .current_dir(root())
                        .output()
                        .unwrap_or_else(|e| panic!("{} cannot run ({e}): run `{SETUP}`", python.display()));
                    (script, out)
                })
            })
            .collect();
        runs.into_iter().map(|run| run.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect()
    });
    let mut failures = Vec::new();
    for (script, out) in outputs {
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

#[test]
fn a_missing_pyffish_is_one_line_saying_what_to_run() {
    // An interpreter without pyffish: a Python with no site packages at all.
    if Command::new("python3").args(["-c", "pass"]).status().is_err() {
        return; // no python3 on this machine: the other test says what to run
    }
    let fake = std::env::temp_dir().join(format!("koma-nopyffish-{}", std::process::id()));
    std::fs::write(&fake, "#!/bin/sh\nexec python3 -I -S \"$@\"\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let err = check_pyffish(&fake).unwrap_err();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("has no pyffish"), "{err}");
    assert!(err.contains(SETUP), "{err}");
    let missing = check_pyffish(Path::new("/nonexistent/python")).unwrap_err();
    assert!(missing.contains("cannot run") && missing.contains(SETUP), "{missing}");
}
