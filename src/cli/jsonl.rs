//! Positions in, JSON lines out: the input and output loop that `koma analyse` and
//! `koma solve` share. Files (or stdin, for none or `-`) are read a line at a time as
//! bytes, one position a line (blank lines and `#` comments skipped); each line gets
//! exactly one JSON object, a line that is not UTF-8 or longer than 64 KiB an error object
//! of its own (the input in it cut short), and the run goes on; an input that cannot be
//! read (a directory as stdin) is an error object, and the run goes on with the next. The first
//! failed write ends the run: a closed pipe (`| head -1`) quietly, any other failure (a
//! full disk) with a message; either way the exit status is not 0.

use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;

use crate::input::{self, lines::Lines, lines::MAX_LINE_BYTES};

/// One answer object.
pub(crate) trait Answer: Serialize {
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

/// Where the answers go: stdout, one object a line, and whether any failed.
struct Output {
    failed: bool,
    write_error: Option<std::io::Error>,
}

impl Output {
    /// Writes `a`; false once a write failed (the run then ends).
    fn emit<A: Answer>(&mut self, a: &A) -> bool {
        self.failed |= a.failed();
        let Ok(text) = serde_json::to_string(a) else { return true };
        let mut out = std::io::stdout().lock();
        match writeln!(out, "{text}").and_then(|_| out.flush()) {
            Ok(()) => true,
            Err(e) => {
                self.write_error = Some(e);
                false
            }
        }
    }
}

/// The most characters of an over-long line echoed in its error object's `input`.
const ECHOED_CHARS: usize = 200;

/// The input file `path` (`-`: stdin), as a reader of lines. A named file is a regular
/// file (`/dev/zero` or a FIFO is refused: stream those through stdin), of any size: it
/// is read a line at a time.
fn open(path: &Path) -> Result<Lines<Box<dyn BufRead>>, input::file::FileError> {
    let reader: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let (file, _) = input::file::open_regular(path, u64::MAX, "an input file")?;
        Box::new(std::io::BufReader::new(file))
    };
    Ok(Lines::new(reader))
}

/// The position lines of the regular files among `files`, for the progress bar; `None`
/// when stdin or anything that cannot be read twice is among them.
fn count(files: &[PathBuf]) -> Option<u64> {
    let mut total = 0;
    for f in files {
        if f.as_os_str() == "-" || !std::fs::metadata(f).is_ok_and(|m| m.is_file()) {
            return None;
        }
        let mut lines = open(f).ok()?;
        while let Ok(Some(line)) = lines.next_line() {
            total += u64::from(is_position(line.bytes));
        }
    }
    Some(total)
}

/// Answers every position line of `files` with `answer(line, at)` (the line trimmed,
/// `at` as `FILE:LINE`) and writes the objects to stdout, one a line. `tool` names the
/// command in messages. Files are read a line at a time (at most
/// [`MAX_LINE_BYTES`] bytes a line: a longer one is an error object with its input cut
/// short); a file or stdin that cannot be read is an error object too. Exit status 0
/// when no answer failed, 1 otherwise or when the output could not be written.
pub(crate) fn run<A: Answer>(tool: &str, files: &[PathBuf], mut answer: impl FnMut(&str, &str) -> A) -> ExitCode {
    let mut out = Output { failed: false, write_error: None };
    let files: Vec<PathBuf> = if files.is_empty() { vec![PathBuf::from("-")] } else { files.to_vec() };
    let bar = progress(if std::io::stderr().is_terminal() { count(&files) } else { None });
    'files: for path in &files {
        let shown = input::path(path);
        let mut lines = match open(path) {
            Ok(l) => l,
            Err(e) => {
                if !out.emit(&A::unreadable(String::new(), shown.clone(), format!("cannot read {shown}: {e}"))) {
                    break;
                }
                continue;
            }
        };
        for n in 1.. {
            let at = format!("{shown}:{n}");
            let a = match lines.next_line() {
                Ok(None) => break,
                Err(e) => {
                    // The rest of this input cannot be read: said once, then the next file.
                    if !out.emit(&A::unreadable(String::new(), at, format!("cannot read {shown}: {e}"))) {
                        break 'files;
                    }
                    break;
                }
                Ok(Some(line)) if !is_position(line.bytes) => continue,
                Ok(Some(line)) if line.cut > 0 => {
                    let text = String::from_utf8_lossy(line.bytes);
                    let head: String = text.trim_start().chars().take(ECHOED_CHARS).collect();
                    let length = line.bytes.len() as u64 + line.cut;
                    let rest = length.saturating_sub(head.len() as u64);
                    let echoed = format!("{}... ({rest} more bytes)", input::escaped(&head, usize::MAX));
                    let why = format!("the line is {length} bytes, longer than the {MAX_LINE_BYTES} a line may have");
                    A::unreadable(echoed, at, why)
                }
                Ok(Some(line)) => match std::str::from_utf8(line.bytes) {
                    Ok(l) => answer(l.trim(), &at),
                    Err(e) => A::unreadable(
                        String::from_utf8_lossy(line.bytes).trim().to_string(),
                        at,
                        format!("the line is not valid UTF-8 ({e})"),
                    ),
                },
            };
            bar.inc(1);
            if !out.emit(&a) {
                break 'files;
            }
        }
    }
    bar.finish_and_clear();
    if let Some(e) = out.write_error {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("{tool}: cannot write the output: {e}");
        }
        return ExitCode::FAILURE;
    }
    if out.failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
