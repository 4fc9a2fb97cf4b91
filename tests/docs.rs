//! Every example of engine input and output in the README and the protocol pages is a
//! transcript (protocol/transcripts.md), and replays against this binary: a doc that shows
//! what koma answers cannot drift from what it answers (issue 36).

use std::path::Path;

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
    let mut files = vec![root.join("README.md")];
    for entry in std::fs::read_dir(root.join("protocol")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            files.push(path);
        }
    }
    for file in files {
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
