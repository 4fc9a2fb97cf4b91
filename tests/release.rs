//! The habits of a released project: `koma --version` names the release and the commit,
//! and the web server and the network training can be left out of a build.

use std::process::Command;

/// `koma --version`: `koma X.Y.Z (DESCRIBE)`, where DESCRIBE is what `git describe` says
/// of the commit this binary was built from (the suite is built from a checkout).
#[test]
fn version_names_the_release_and_the_commit() {
    let out = Command::new(env!("CARGO_BIN_EXE_koma")).arg("--version").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = format!("koma {} (", env!("CARGO_PKG_VERSION"));
    assert!(text.starts_with(&want) && text.trim_end().ends_with(')'), "{text}");
    let describe = &text.trim_end()[want.len()..text.trim_end().len() - 1];
    let head = Command::new("git").args(["rev-parse", "--short=12", "HEAD"]).output().ok();
    if let Some(head) = head.filter(|h| h.status.success()) {
        let head = String::from_utf8(head.stdout).unwrap();
        // The suite may be run after a commit without rebuilding koma: then the hash is
        // an ancestor's. It is always a commit of this repository.
        let hash = describe.trim_end_matches("-modified").rsplit("-g").next().unwrap();
        let known = Command::new("git").args(["cat-file", "-e", &format!("{hash}^{{commit}}")]).status().unwrap();
        assert!(known.success(), "{describe} does not name a commit here (HEAD {head})");
    }
}

/// `cargo build --no-default-features`: neither the web server's stack nor the training's
/// temporary files are in the dependency tree.
#[test]
fn no_default_features_leaves_the_web_server_and_training_out() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let tree = |extra: &[&str]| {
        let out = Command::new(&cargo)
            .args(["tree", "-p", "koma", "-e", "normal", "--prefix", "none", "--offline"])
            .args(extra)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let names = |t: &str| t.lines().map(|l| l.split(' ').next().unwrap_or("").to_string()).collect::<Vec<_>>();
    let full = names(&tree(&[]));
    let lean = names(&tree(&["--no-default-features"]));
    for dep in ["axum", "tokio", "hyper", "tempfile", "koma-deps"] {
        assert!(full.iter().any(|n| n == dep), "{dep} is in the default build");
        assert!(!lean.iter().any(|n| n == dep), "{dep} is in a --no-default-features build");
    }
    assert!(lean.iter().any(|n| n == "clap"), "the engine's own dependencies stay");
}
