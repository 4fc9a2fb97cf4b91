//! Positions in, JSON lines out: the input and output loop that `koma analyse` and
//! `koma solve` share. Files (or stdin, for none or `-`) are read as bytes, one position a
//! line (blank lines and `#` comments skipped); each line gets exactly one JSON object,
//! a line that is not UTF-8 an error object of its own, and the run goes on. The first
//! failed write ends the run: a closed pipe (`| head -1`) quietly, any other failure (a
//! full disk) with a message; either way the exit status is not 0.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

/// One answer object.
pub trait Answer: Serialize {
    /// The object for a line (or file) that could not be read: `input` as far as it goes,
    /// where it came from (`FILE:LINE`), and why.
    fn unreadable(input: String, at: String, why: String) -> Self;
    /// Whether this answer is an error (the exit status is then 1).
    fn failed(&self) -> bool;
}

/// A line that holds a position: not blank, not a comment (`#`).
fn is_position(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    !trimmed.is_empty() && !trimmed.starts_with(b"#")
}

fn progress(total: Option<u64>) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let (bar, template) = match total {
        Some(n) => (
            ProgressBar::with_draw_target(Some(n), ProgressDrawTarget::stderr()),
            "{bar:30} {pos}/{len} positions  {per_sec}  {eta} left",
        ),
        None => {
            (ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()), "{spinner} {pos} positions  {per_sec}")
        }
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}

/// Answers every position line of `files` with `answer(line, at)` (the line trimmed,
/// `at` as `FILE:LINE`) and writes the objects to stdout, one a line. `tool` names the
/// command in messages. Exit status 0 when no answer failed, 1 otherwise or when the
/// output could not be written.
pub fn run<A: Answer>(tool: &str, files: &[PathBuf], mut answer: impl FnMut(&str, &str) -> A) -> ExitCode {
    let stdout = std::io::stdout();
    let mut failed = false;
    let mut write_error: Option<std::io::Error> = None;
    let mut emit = |a: &A| -> bool {
        failed |= a.failed();
        let Ok(text) = serde_json::to_string(a) else { return true };
        let mut out = stdout.lock();
        match writeln!(out, "{text}").and_then(|_| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                write_error = Some(e);
                false
            }
        }
    };
    let stdin_only = files.is_empty();
    let files: Vec<PathBuf> = if stdin_only { vec![PathBuf::from("-")] } else { files.to_vec() };
    // Files are read whole first, so that the progress bar knows how many positions remain.
    let mut texts: Vec<(&Path, Option<Vec<u8>>)> = Vec::new();
    for f in &files {
        if f.as_os_str() == "-" {
            texts.push((f, None));
            continue;
        }
        match std::fs::read(f) {
            Ok(t) => texts.push((f, Some(t))),
            Err(e) => {
                let at = f.display().to_string();
                if !emit(&A::unreadable(String::new(), at, format!("cannot read {}: {e}", f.display()))) {
                    break;
                }
            }
        }
    }
    let count = |t: &Vec<u8>| t.split(|&b| b == b'\n').filter(|l| is_position(l)).count() as u64;
    let bar = progress(texts.iter().map(|(_, t)| t.as_ref().map(count)).sum::<Option<u64>>());
    'files: for (path, text) in texts {
        let mut one = |n: usize, line: &[u8]| -> bool {
            if !is_position(line) {
                return true;
            }
            let at = format!("{}:{}", path.display(), n + 1);
            let a = match std::str::from_utf8(line) {
                Ok(l) => answer(l.trim(), &at),
                Err(e) => A::unreadable(
                    String::from_utf8_lossy(line).trim().to_string(),
                    at,
                    format!("the line is not valid UTF-8 ({e})"),
                ),
            };
            bar.inc(1);
            emit(&a)
        };
        match text {
            Some(t) => {
                for (n, l) in t.split(|&b| b == b'\n').enumerate() {
                    if !one(n, l) {
                        break 'files;
                    }
                }
            }
            None => {
                let mut input = std::io::stdin().lock();
                let mut buf = Vec::new();
                for n in 0.. {
                    buf.clear();
                    match input.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    if !one(n, buf.strip_suffix(b"\n").unwrap_or(&buf)) {
                        break 'files;
                    }
                }
            }
        }
    }
    bar.finish_and_clear();
    if let Some(e) = write_error {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("{tool}: cannot write the output: {e}");
        }
        return ExitCode::FAILURE;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
