//! The Python binding (`import koma`, python/): its pytest tests (python/tests/) and its
//! stubs (python/koma/*.pyi) checked against the built module by mypy's stubtest, with the
//! `.venv` the README's test command makes, which installs the binding from ./python.
//! An extension older than the sources would test old code: that fails with the command
//! that rebuilds it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

const REINSTALL: &str = ".venv/bin/python -m pip install --quiet --disable-pip-version-check ./python";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `.venv`'s Python, or a failure that says how to make it.
fn venv_python() -> PathBuf {
    let python = root().join(".venv/bin/python");
    assert!(python.exists(), "no .venv: run the README's test command (it makes .venv and installs ./python there)");
    python
}

fn newest_mtime(dir: &Path, newest: &mut SystemTime) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            newest_mtime(&path, newest);
        } else if path.extension().is_some_and(|e| e == "rs" || e == "txt" || e == "bin") {
            *newest = (*newest).max(entry.metadata().unwrap().modified().unwrap());
        }
    }
}

/// The installed extension module's file, checked to be newer than the Rust sources and
/// the stub.
fn installed_extension(python: &Path) -> PathBuf {
    let out = Command::new(python)
        .args([
            "-c",
            "import koma, sys; sys.stdout.write(koma.koma.__file__ if hasattr(koma, 'koma') else koma.__file__)",
        ])
        .current_dir(std::env::temp_dir())
        .output()
        .expect("python runs");
    assert!(out.status.success(), "koma is not installed in .venv: run `{REINSTALL}`");
    let path = PathBuf::from(String::from_utf8(out.stdout).unwrap());
    let built = std::fs::metadata(&path).and_then(|m| m.modified()).unwrap();
    let mut newest = SystemTime::UNIX_EPOCH;
    newest_mtime(&root().join("src"), &mut newest);
    newest_mtime(&root().join("python/src"), &mut newest);
    for stub in ["python/koma/__init__.pyi", "python/koma/records.pyi", "python/koma/__init__.py"] {
        newest = newest.max(std::fs::metadata(root().join(stub)).and_then(|m| m.modified()).unwrap());
    }
    assert!(built >= newest, "the koma module in .venv is older than the sources: run `{REINSTALL}`");
    path
}

fn run(python: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(python)
        .args(args)
        .current_dir(root())
        .env("KOMA", assert_cmd::cargo::cargo_bin("koma"))
        .output()
        .expect("python runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn python_binding_passes_its_tests() {
    let python = venv_python();
    installed_extension(&python);
    // pytest's exit status: 0 all passed; 1 failures; 5 no test collected (also a failure
    // here), others an error of pytest itself.
    let (ok, text) = run(&python, &["-m", "pytest", "-q", "-p", "no:cacheprovider", "python/tests"]);
    assert!(ok, "{text}");
    let summary = text.lines().last().unwrap_or("");
    assert!(summary.contains(" passed") && !summary.contains("skipped"), "{summary}");
}

#[test]
fn python_stub_matches_the_module() {
    let python = venv_python();
    installed_extension(&python);
    let (ok, text) = run(&python, &["-m", "mypy.stubtest", "koma", "--allowlist", "python/stubtest-allowlist.txt"]);
    assert!(ok, "stubtest: {text}");
    let (ok, text) = run(&python, &["-m", "mypy", "--strict", "--no-incremental", "examples/kaninariebi_game.py"]);
    assert!(ok, "mypy: {text}");
}
