//! The repository's own source, read by the tests that check how it is written.

use std::path::{Path, PathBuf};

/// Every file under `dir` (recursively) whose name ends in one of `exts`, sorted.
pub fn files(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, exts, out);
        } else if path.extension().is_some_and(|e| exts.iter().any(|x| e == *x)) {
            out.push(path);
        }
    }
}

/// The lines of Rust `text` that are code outside tests, with their numbers (from 1):
/// comments are left out, and everything from a `#[cfg(test)]` on, unless the attribute
/// is on one element of a list (a test-only entry, such as a throwaway switch).
pub fn code_lines(text: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let code = line.trim_start();
        if code.starts_with("#[cfg(test)]") {
            if !lines.get(i + 1).is_some_and(|next| next.trim_end().ends_with(',')) {
                break;
            }
            continue;
        }
        if !code.starts_with("//") {
            out.push((i + 1, code));
        }
    }
    out
}
