//! The README's two commands (section "Two commands") are what CI runs: `.ci/run`
//! holds exactly those lines, and runs nothing else. Its code map ("How it is built")
//! names every module at the root of `src/`, and only paths that exist.

use std::path::Path;

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The command lines of the README's "Two commands" block (comments and blank lines left out).
fn readme_commands() -> Vec<String> {
    let readme = read("README.md");
    let section = readme.split("## Two commands").nth(1).expect("README has a 'Two commands' section");
    let block = section.split("```sh\n").nth(1).expect("with a sh block");
    let block = block.split("```").next().unwrap();
    block.lines().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).map(str::to_string).collect()
}

#[test]
fn ci_runs_exactly_the_readme_commands() {
    let commands = readme_commands();
    assert_eq!(commands.len(), 2, "{commands:?}");
    assert!(commands[0].starts_with("cargo run --release -- "), "{}", commands[0]);
    assert!(commands[1].ends_with("cargo test --release"), "{}", commands[1]);
    assert!(commands[1].contains("python3 -m venv .venv"), "the test command makes its own venv: {}", commands[1]);
    assert!(!commands[1].contains("python3 -m pip"), "no pip outside the venv: {}", commands[1]);
    let ci = read(".ci/run");
    // What .ci/run does besides the two commands: shell setup only.
    let setup = ["set -euo pipefail", "cd \"$(dirname \"$0\")/..\"", "unset KOMA_SKIP_CROSSCHECK"];
    let steps: Vec<&str> =
        ci.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !setup.contains(l)).collect();
    assert_eq!(steps, commands, ".ci/run must run the README's two commands, in order, and nothing else");
}

#[test]
fn no_link_leaves_the_repository() {
    // A clone has no ../shared: the rules live in protocol/rules.md.
    for rel in ["README.md", "protocol/README.md", "protocol/rules.md", "protocol/transcripts.md"] {
        let text = read(rel);
        assert!(!text.contains("../shared") && !text.contains("/work/"), "{rel} links outside the repository");
    }
    assert!(read("README.md").contains("(protocol/rules.md)"));
    assert!(read("protocol/README.md").contains("(rules.md)"));
    assert!(read("protocol/README.md").contains("(transcripts.md)"));
}

/// The paths of the README's code map ("How it is built"), one a row: each row's first
/// path (`src/input/`, `src/game/mod.rs`).
fn code_map() -> Vec<String> {
    let readme = read("README.md");
    let section = readme.split("## How it is built").nth(1).expect("README has a 'How it is built' section");
    let section = section.split("\n## ").next().unwrap();
    section.lines().filter_map(|l| l.strip_prefix("| `")?.split('`').next()).map(str::to_string).collect()
}

#[test]
fn the_code_map_names_every_module_and_only_what_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = code_map();
    assert!(map.len() >= 30, "{map:?}");
    let gone: Vec<&String> = map.iter().filter(|p| !p.contains('<') && !root.join(p).exists()).collect();
    assert!(gone.is_empty(), "the README's code map names what does not exist: {gone:?}");
    let mut unnamed = Vec::new();
    for entry in std::fs::read_dir(root.join("src")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        let path = if entry.path().is_dir() { format!("src/{name}/") } else { format!("src/{name}") };
        if !map.contains(&path) {
            unnamed.push(path);
        }
    }
    unnamed.sort();
    assert!(unnamed.is_empty(), "the README's code map (\"How it is built\") lacks a row for: {unnamed:?}");
}
