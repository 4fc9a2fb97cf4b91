//! Every example of engine input and output in the documents (the README, the protocol
//! pages, docs/) is a transcript (protocol/transcripts.md), and replays against this
//! binary: a doc that shows what koma answers cannot drift from what it answers (issue 36).
//! Every link, repository path and `python3 -m tools...` command they name exists, so a
//! moved file cannot leave a document pointing at nothing.

use std::path::{Path, PathBuf};

use regex::Regex;

/// The Markdown documents: the README, CONTRIBUTING.md, the protocol's pages and docs/
/// (docs/README.md indexes them all).
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("CONTRIBUTING.md")];
    for dir in ["protocol", "docs"] {
        let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        pages.sort();
        files.extend(pages);
    }
    files
}

/// The fenced blocks of a Markdown text whose first line that is not a comment sends a
/// command (`> ...`): the transcript examples. With the line each block starts on.
fn transcript_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, Vec<&str>)> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            match current.take() {
                Some((at, lines)) => {
                    let first = lines.iter().find(|l| !l.trim().is_empty() && !l.starts_with('#'));
                    if first.is_some_and(|l| l.starts_with("> ")) {
                        blocks.push((at, lines.join("\n")));
                    }
                }
                None => current = Some((i + 2, Vec::new())),
            }
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        }
    }
    blocks
}

#[test]
fn every_transcript_example_in_the_docs_replays() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let binary = assert_cmd::cargo::cargo_bin("koma");
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in documents(root) {
        let text = std::fs::read_to_string(&file).unwrap();
        for (at, block) in transcript_blocks(&text) {
            checked += 1;
            let result = koma::cli::transcript::parse(&block)
                .and_then(|steps| koma::cli::transcript::replay(&steps, &binary, block.lines().count().max(1)));
            if let Err(f) = result {
                failures.push(format!("{} (block at line {at}): {f}", file.display()));
            }
        }
    }
    assert!(checked >= 5, "only {checked} examples found");
    assert!(failures.is_empty(), "{} of {checked} examples do not replay:\n{}", failures.len(), failures.join("\n"));
}

/// What a document names that must exist: its relative links (from the document's
/// folder), the repository paths it writes out (`tools/lib/engine.py`, from the root)
/// and the modules of its `python3 -m tools.NAME` commands.
fn named_files(doc: &Path, root: &Path, text: &str) -> Vec<(String, PathBuf)> {
    let link = Regex::new(r"\]\(([^)#\s]+)(#[^)]*)?\)").unwrap();
    let path = Regex::new(
        r"\b((?:src|tools|docs|protocol|tests|fixtures|examples|python)/[A-Za-z0-9_./-]*[A-Za-z0-9_]\.(?:md|rs|py|pyi|txt|sh|ini|toml|js|html|css|perft))\b",
    )
    .unwrap();
    let module = Regex::new(r"python3 -m (tools(?:\.[a-z_]+)+)").unwrap();
    let dir = doc.parent().unwrap();
    let mut named = Vec::new();
    for c in link.captures_iter(text) {
        let target = &c[1];
        if !target.contains("://") && !target.starts_with("mailto:") {
            named.push((format!("link ({target})"), dir.join(target)));
        }
    }
    for c in path.captures_iter(text) {
        named.push((format!("path {}", &c[1]), root.join(&c[1])));
    }
    for c in module.captures_iter(text) {
        let file = c[1].replace('.', "/");
        let as_file = root.join(format!("{file}.py"));
        let target = if as_file.exists() { as_file } else { root.join(file).join("__init__.py") };
        named.push((format!("command python3 -m {}", &c[1]), target));
    }
    named
}

#[test]
fn every_link_path_and_tool_command_in_the_docs_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut missing = Vec::new();
    for doc in documents(root) {
        let text = std::fs::read_to_string(&doc).unwrap();
        for (what, target) in named_files(&doc, root, &text) {
            checked += 1;
            if !target.exists() {
                missing.push(format!("{}: {what}", doc.strip_prefix(root).unwrap().display()));
            }
        }
    }
    assert!(checked >= 100, "only {checked} names found");
    assert!(missing.is_empty(), "{} of {checked} names lead nowhere:\n{}", missing.len(), missing.join("\n"));
}

#[test]
fn a_name_that_leads_nowhere_is_caught() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = root.join("docs/README.md");
    let text = "[gone](GONE.md), tools/usi_engine.py, `python3 -m tools.match_stats`, [ok](STRENGTH.md), \
                [web](https://example.org/x.md), tools/lib/engine.py, `python3 -m tools.match --help`";
    let named = named_files(&doc, root, text);
    let gone: Vec<&str> = named.iter().filter(|(_, p)| !p.exists()).map(|(w, _)| w.as_str()).collect();
    assert_eq!(gone, ["link (GONE.md)", "path tools/usi_engine.py", "command python3 -m tools.match_stats"]);
    assert_eq!(named.len(), 6, "{named:?}");
}

/// The commands protocol/python.md gives to run (`.venv/bin/...`, in its shell blocks and
/// in backquotes): each as written, from the repository root, in the venv the README's
/// test command makes. The line that makes the venv is that command's own step.
fn python_page_commands(text: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for block in text.split("```sh\n").skip(1) {
        let block = block.split("```").next().unwrap();
        for line in block.lines() {
            let command = line.split("  #").next().unwrap().trim();
            if command.starts_with(".venv/bin/") {
                commands.push(command.to_string());
            }
        }
    }
    let quoted = Regex::new(r"`(\.venv/bin/python [^`]+)`").unwrap();
    for c in quoted.captures_iter(text) {
        if !c[1].contains("pip install") && !commands.contains(&c[1].to_string()) {
            commands.push(c[1].to_string());
        }
    }
    commands
}

#[test]
fn docs_every_command_of_the_python_page_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("protocol/python.md")).unwrap();
    assert!(text.contains("python3 -m venv .venv"), "the page's venv is the git-ignored .venv");
    assert!(std::fs::read_to_string(root.join(".gitignore")).unwrap().lines().any(|l| l == ".venv/"));
    let commands = python_page_commands(&text);
    assert!(commands.iter().any(|c| c.contains("examples/kaninariebi_game.py")), "{commands:?}");
    assert!(!text.contains("`python3 examples/"), "the examples need the venv's Python");
    assert!(root.join(".venv/bin/python").exists(), "no .venv: run the README's test command");
    for command in &commands {
        let out = std::process::Command::new("sh").arg("-c").arg(command).current_dir(root).output().unwrap();
        assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "{command} printed nothing");
    }
}

/// One date form per format: KIF writes `2026/11/28` whatever form the record read had
/// (RokuRokuGUI's `2026-11-28`), as the page's saved KIF does.
#[test]
fn docs_the_annotated_kif_writes_its_date_with_slashes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let kif = std::env::temp_dir().join(format!("koma-docs-date-{}.kif", std::process::id()));
    let out = std::process::Command::new(crate::common::koma_path())
        .args(["analyse", "--game"])
        .arg(root.join("fixtures/records/rokuroku_20261128_123456.txt"))
        .args(["--depth", "1", "--annotated"])
        .arg(&kif)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&kif).unwrap();
    let _ = std::fs::remove_file(&kif);
    assert!(text.contains("開始日時：2026/11/28 12:34:56\n"), "{text}");
    let records = std::fs::read_to_string(root.join("protocol/records.md")).unwrap();
    assert!(records.contains("開始日時：2026/11/28"));
    assert!(records.contains("`after` is `null` when the move ended the game"));
}

/// A count of one is said in the singular: `1 piece`, not `1 pieces`.
#[test]
fn docs_one_piece_is_not_one_pieces() {
    let mut k = crate::common::Koma::spawn();
    k.send("setoption name USI_Variant value numbershogi");
    k.send("position sfen 3/3/3/3/3 b ABCDEabcdef 1");
    let line = k.read_until("info string error", std::time::Duration::from_secs(10)).pop().unwrap();
    assert!(line.contains("1 piece of value 6 (F)"), "{line}");
}
