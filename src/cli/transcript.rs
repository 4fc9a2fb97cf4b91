//! Transcripts: a protocol session written down so that it can be replayed against a
//! binary and checked line by line. `koma --record FILE` writes them ([`Recorder`]),
//! `koma replay FILE...` and `cargo test` replay them ([`replay_file`]). The format is
//! documented in `protocol/transcripts.md`.
//!
//! One directive per line:
//! - `> text`     send `text` to the engine
//! - `< text`     the next output line is exactly `text`
//! - `<~ text`    the next output line starts with `text`
//! - `<... text`  skip output lines until one starts with `text` (it is consumed)
//! - `<re RE`     the next output line matches the regular expression `RE` (anywhere;
//!   anchor it with `^`/`$`)
//! - `<...re RE`  skip output lines until one matches `RE`
//!   (consecutive skips may find their lines in any order: a line one skip passed over
//!   can be found by the next, until a `<`, `<~`, `<re` or `<silent` directive)
//! - `<silent MS` nothing is printed for MS milliseconds
//! - `eof`        close the engine's input now (what follows reads its last words)
//! - `# ...` and blank lines are comments.
//!
//! After the last directive the engine's input is closed: it must exit cleanly, print
//! nothing more, and never write to stderr.

use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Mutex;
use std::time::Duration;

use regex::Regex;
use wait_timeout::ChildExt;

use crate::engine::Command;
use crate::protocol::io::Tap;
use crate::protocol::parse_command;

/// How much of a replayed engine's stderr is kept.
const STDERR_KEPT: u64 = 64 << 10;

/// How long a `<` directive waits for its line.
pub const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// The longest `<silent MS`: a minute (a replay is a test; a longer wait is a typing
/// slip, and `u64::MAX` milliseconds would overflow the clock).
pub const MAX_SILENT_MS: u64 = 60_000;

/// One directive of a transcript.
#[derive(Clone, Debug)]
pub enum Directive {
    Send(String),
    Exact(String),
    Prefix(String),
    SkipTo(String),
    Matches(Regex),
    SkipToMatch(Regex),
    Silent(u64),
    Eof,
}

/// A directive and the line (1-based) it was read from.
#[derive(Clone, Debug)]
pub struct Step {
    pub line: usize,
    pub directive: Directive,
}

/// Why a transcript did not replay: the line of the directive that failed and what
/// happened there, shown as `FILE:LINE: expected ..., got ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.line, self.message)
    }
}

fn fail<T>(line: usize, message: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { line, message: message.into() })
}

/// Reads a transcript. A line that is not a directive is an error naming its line.
pub fn parse(text: &str) -> Result<Vec<Step>, Failure> {
    let mut steps = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let trimmed = raw.trim_end();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (op, arg) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        let regex =
            |arg: &str| Regex::new(arg).map_err(|e| Failure { line, message: format!("bad regular expression: {e}") });
        let directive = match op {
            ">" => Directive::Send(arg.to_string()),
            "<" => Directive::Exact(arg.to_string()),
            "<~" => Directive::Prefix(arg.to_string()),
            "<..." => Directive::SkipTo(arg.to_string()),
            "<re" => Directive::Matches(regex(arg)?),
            "<...re" => Directive::SkipToMatch(regex(arg)?),
            "<silent" => match arg.parse() {
                Ok(ms) if ms <= MAX_SILENT_MS => Directive::Silent(ms),
                _ => return fail(line, format!("'<silent' needs milliseconds from 0 to {MAX_SILENT_MS}, got '{arg}'")),
            },
            "eof" if arg.is_empty() => Directive::Eof,
            _ => return fail(line, format!("unknown directive '{op}'")),
        };
        steps.push(Step { line, directive });
    }
    Ok(steps)
}

/// The engine under test: a child process fed and read over pipes.
struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Lines skip directives passed over since the last other `<` directive.
    passed: Vec<String>,
    stderr: Option<std::thread::JoinHandle<String>>,
}

impl EngineProcess {
    fn spawn(binary: &Path) -> std::io::Result<EngineProcess> {
        let mut child = Process::new(binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_remove("RUST_LOG")
            .spawn()?;
        let stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // What the engine writes on stderr is kept up to a bound (only its first lines are
        // shown) and the rest drained, so a chatty engine neither fills memory nor blocks.
        let stderr = std::thread::spawn(move || {
            let mut kept = Vec::new();
            let _ = (&mut stderr).take(STDERR_KEPT).read_to_end(&mut kept);
            let _ = std::io::copy(&mut stderr, &mut std::io::sink());
            String::from_utf8_lossy(&kept).into_owned()
        });
        let stdin = child.stdin.take();
        Ok(EngineProcess { child, stdin, lines, passed: Vec::new(), stderr: Some(stderr) })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let Some(stdin) = self.stdin.as_mut() else { return Err("the engine's input is already closed".into()) };
        writeln!(stdin, "{line}").and_then(|_| stdin.flush()).map_err(|e| format!("the engine stopped reading ({e})"))
    }

    /// The next line printed; the lines skipped so far are forgotten.
    fn next(&mut self, timeout: Duration) -> Option<String> {
        self.passed.clear();
        self.lines.recv_timeout(timeout).ok()
    }

    /// A skip directive: the first line a recent skip passed over that fits, else the
    /// next printed line that fits, passing over (and keeping) the others. Consecutive
    /// skips thus find their lines in any order: a search's output and the answers to
    /// commands sent during it interleave differently from run to run.
    fn skip_to(&mut self, fits: impl Fn(&str) -> bool) -> bool {
        if let Some(i) = self.passed.iter().position(|l| fits(l)) {
            self.passed.remove(i);
            return true;
        }
        while let Ok(l) = self.lines.recv_timeout(LINE_TIMEOUT) {
            if fits(&l) {
                return true;
            }
            self.passed.push(l);
        }
        false
    }

    /// Closes input, waits for the exit; (exited cleanly, lines printed after, stderr).
    fn finish(mut self) -> (bool, Vec<String>, String) {
        drop(self.stdin.take());
        let status = match self.child.wait_timeout(Duration::from_secs(10)) {
            Ok(Some(s)) => Some(s),
            _ => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                None
            }
        };
        let mut rest = Vec::new();
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
            rest.push(l);
        }
        let stderr = self.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
        (status.is_some_and(|s| s.success()), rest, stderr)
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl EngineProcess {
    /// What came instead of an expected line: the line, or nothing, and then whether the
    /// engine had exited, with its status and what it wrote on stderr (a crash is named
    /// as one, not as a timeout).
    fn got(&mut self, line: Option<String>) -> String {
        if let Some(l) = line {
            return format!("'{l}'");
        }
        // The output ends a moment before the process is reaped.
        let mut exited = self.child.try_wait();
        for _ in 0..40 {
            if !matches!(exited, Ok(None)) {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
            exited = self.child.try_wait();
        }
        match exited {
            Ok(Some(status)) => {
                let stderr = self.stderr.take().and_then(|h| h.join().ok()).unwrap_or_default();
                let said: Vec<&str> = stderr.lines().take(3).collect();
                let said = if said.is_empty() { String::new() } else { format!("; stderr: {}", said.join(" | ")) };
                format!("nothing: the engine exited ({status}){said}")
            }
            _ => format!("nothing within {}s", LINE_TIMEOUT.as_secs()),
        }
    }
}

/// Replays `steps` against `binary`. `last_line` is the transcript's line count, named
/// when the engine misbehaves after the last directive.
pub fn replay(steps: &[Step], binary: &Path, last_line: usize) -> Result<(), Failure> {
    let mut engine = EngineProcess::spawn(binary)
        .map_err(|e| Failure { line: 1, message: format!("cannot start {}: {e}", binary.display()) })?;
    for step in steps {
        let at = step.line;
        match &step.directive {
            Directive::Send(text) => engine.send(text).map_err(|m| Failure { line: at, message: m })?,
            Directive::Exact(want) => match engine.next(LINE_TIMEOUT) {
                Some(l) if &l == want => {}
                other => return fail(at, format!("expected '{want}', got {}", engine.got(other))),
            },
            Directive::Prefix(want) => match engine.next(LINE_TIMEOUT) {
                Some(l) if l.starts_with(want.as_str()) => {}
                other => return fail(at, format!("expected a line starting '{want}', got {}", engine.got(other))),
            },
            Directive::Matches(re) => match engine.next(LINE_TIMEOUT) {
                Some(l) if re.is_match(&l) => {}
                other => return fail(at, format!("expected a line matching /{re}/, got {}", engine.got(other))),
            },
            Directive::SkipTo(want) => {
                if !engine.skip_to(|l| l.starts_with(want.as_str())) {
                    return fail(at, format!("expected a line starting '{want}', got {}", engine.got(None)));
                }
            }
            Directive::SkipToMatch(re) => {
                if !engine.skip_to(|l| re.is_match(l)) {
                    return fail(at, format!("expected a line matching /{re}/, got {}", engine.got(None)));
                }
            }
            Directive::Silent(ms) => {
                if let Some(l) = engine.next(Duration::from_millis(*ms)) {
                    return fail(at, format!("expected silence for {ms} ms, got '{l}'"));
                }
            }
            Directive::Eof => drop(engine.stdin.take()),
        }
    }
    let (clean, rest, stderr) = engine.finish();
    if let Some(l) = rest.first() {
        return fail(last_line, format!("expected no more output at the end, got '{l}'"));
    }
    if !clean {
        return fail(last_line, "expected the engine to exit cleanly at the end of its input, got no clean exit");
    }
    if let Some(l) = stderr.lines().next() {
        return fail(last_line, format!("expected nothing on stderr, got '{l}'"));
    }
    Ok(())
}

/// The most bytes a transcript file may have.
pub const MAX_TRANSCRIPT_BYTES: u64 = 16 << 20;

/// Replays the transcript at `path`; the error is the one line `koma replay` prints:
/// `FILE:LINE: expected ..., got ...`.
pub fn replay_file(path: &Path, binary: &Path) -> Result<(), String> {
    let shown = crate::input::path(path);
    let text = crate::input::file::read_text(path, MAX_TRANSCRIPT_BYTES, "a transcript")
        .map_err(|e| format!("{shown}: {e}"))?;
    let last_line = text.lines().count().max(1);
    parse(&text).and_then(|steps| replay(&steps, binary, last_line)).map_err(|f| format!("{shown}:{f}"))
}

/// `koma replay FILE...`: one line per file on stdout; true when every file passed.
pub fn replay_files(paths: &[std::path::PathBuf], binary: &Path, out: &mut impl Write) -> bool {
    let mut all = true;
    for p in paths {
        let line = match replay_file(p, binary) {
            Ok(()) => format!("{}: ok", crate::input::path(p)),
            Err(e) => {
                all = false;
                e
            }
        };
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    all
}

/// What kind of search is running, for what its output may be trusted to repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Search {
    None,
    /// `go depth N` alone on one thread, with no `Loose` search before it in the game:
    /// the same moves, scores and PVs on any machine.
    Fixed,
    /// `go mate`: its answer repeats.
    Mate,
    /// Anything with a clock, or disturbed by a command while it ran: only its shape
    /// (some `info` lines, then a `bestmove`) repeats.
    Loose,
    /// `go perft` or `bench`; `true` once a command came while it ran (a `stop` cuts it
    /// at a moment that differs from run to run: only its closing lines' shape repeats).
    Count(bool),
}

struct RecorderState {
    out: Box<dyn Write + Send>,
    /// The first write that failed (a full disk, a file that cannot be written): the
    /// session goes on, and the binary reports it at the end.
    error: Option<std::io::Error>,
    /// The searches whose `bestmove` has not come yet, oldest first (a `go` during a
    /// search stops it: its `bestmove` comes before the new search's output).
    searches: std::collections::VecDeque<Search>,
    threads: u32,
    /// A search with a clock (or disturbed) has run since the game began: the table and
    /// the move statistics it left behind depend on timing, so no later search of this
    /// game repeats exactly, until `usinewgame` clears them.
    tainted: bool,
}

/// Writes a session as a transcript that replays on any machine: what changes from run
/// to run (nodes, nps, time, hashfull, seldepth; the whole search when it is not
/// fixed-depth) is written as a pattern. A write error does not stop the session; it is
/// kept ([`Recorder::error`]) and `koma --record` reports it when the session ends.
pub struct Recorder {
    state: Mutex<RecorderState>,
}

fn escape(s: &str) -> String {
    regex::escape(s)
}

/// An `info depth ...` line as a pattern: its fixed words exact, its volatile figures `\d+`.
fn info_pattern(line: &str) -> String {
    let mut out = String::from("^");
    let words: Vec<&str> = line.split(' ').collect();
    let mut i = 0;
    while i < words.len() {
        if i > 0 {
            out.push(' ');
        }
        let w = words[i];
        out.push_str(&escape(w));
        if matches!(w, "seldepth" | "nodes" | "nps" | "time" | "hashfull")
            && i + 1 < words.len()
            && words[i + 1].parse::<u64>().is_ok()
        {
            out.push_str(" \\d+");
            i += 1;
        }
        i += 1;
    }
    out.push('$');
    out
}

impl RecorderState {
    /// Writes one line (flushed); the first failure is kept and later writes are skipped.
    fn write(&mut self, line: &str) {
        if self.error.is_none() {
            if let Err(e) = writeln!(self.out, "{line}").and_then(|_| self.out.flush()) {
                self.error = Some(e);
            }
        }
    }
}

impl Recorder {
    /// The first write to the transcript that failed, if one did.
    pub fn error(&self) -> Option<String> {
        self.lock().error.as_ref().map(|e| e.to_string())
    }

    pub fn new(out: Box<dyn Write + Send>) -> Recorder {
        let mut st = RecorderState { out, error: None, searches: Default::default(), threads: 1, tainted: false };
        st.write(&format!(
            "# A koma session recorded by `koma --record` (koma {}). Replay it with `koma replay FILE`;\n# the format is protocol/transcripts.md.",
            env!("CARGO_PKG_VERSION")
        ));
        Recorder { state: Mutex::new(st) }
    }

    pub fn create(path: &Path) -> std::io::Result<Recorder> {
        let file = std::fs::File::create(path)?;
        Ok(Recorder::new(Box::new(std::io::LineWriter::new(file))))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RecorderState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A line the engine read.
    pub fn input(&self, line: &str) {
        let line = line.trim_end_matches(['\r', '\n']);
        let mut st = self.lock();
        if line.trim().is_empty() {
            return;
        }
        st.write(&format!("> {line}"));
        let cmd = parse_command(line).ok().flatten();
        // A command during a search: from here on, its output comes when it comes.
        if !st.searches.is_empty() {
            st.searches.iter_mut().for_each(|s| {
                *s = match s {
                    Search::Count(_) => Search::Count(true),
                    _ => Search::Loose,
                }
            });
            st.tainted = true;
        }
        match cmd {
            Some(Command::Go(p)) => {
                let clockless = p.btime.is_none()
                    && p.wtime.is_none()
                    && p.binc.is_none()
                    && p.winc.is_none()
                    && p.byoyomi.is_none()
                    && p.movetime.is_none()
                    && p.nodes.is_none()
                    && !p.infinite
                    && !p.ponder;
                let kind = if p.mate.is_some() {
                    Search::Mate
                } else if clockless && p.depth.is_some() && st.threads <= 1 && !st.tainted {
                    Search::Fixed
                } else {
                    Search::Loose
                };
                st.tainted |= kind == Search::Loose;
                st.searches.push_back(kind);
            }
            Some(Command::Perft(_)) | Some(Command::Bench(_)) => st.searches.push_back(Search::Count(false)),
            // A `go` only a chess dialect reads (UCI's `movestogo`): its search is on a clock.
            None if line.split_whitespace().next() == Some("go") => {
                st.tainted = true;
                st.searches.push_back(Search::Loose);
            }
            // The engine ends any search first, then clears the table and statistics.
            Some(Command::NewGame) => st.tainted = false,
            Some(Command::SetOption { name, value }) if name.eq_ignore_ascii_case("Threads") => {
                if let Some(n) = value.and_then(|v| v.trim().parse().ok()) {
                    st.threads = n;
                }
            }
            _ => {}
        }
    }

    /// The engine's input ended.
    pub fn end_of_input(&self) {
        let mut st = self.lock();
        st.write("eof");
    }

    /// Text the engine wrote (one reply; it may hold several lines).
    pub fn output(&self, text: &str) {
        let mut st = self.lock();
        for line in text.lines() {
            let directive = Self::directive(&mut st, line);
            if let Some(d) = directive {
                st.write(&d);
            }
        }
    }

    fn directive(st: &mut RecorderState, line: &str) -> Option<String> {
        let exact = |line: &str| {
            if line.trim_end() != line || line.starts_with(' ') {
                format!("<re ^{}$", escape(line))
            } else {
                format!("< {line}")
            }
        };
        // A book move may be a random draw from a mix (Number Shogi's placement, BookSeed
        // 0): the search that played it is kept only by its shape, its bestmove included.
        if line.starts_with("info string book move ") {
            if let Some(front @ Search::Fixed) = st.searches.front_mut() {
                *front = Search::Loose;
            }
        }
        let search = st.searches.front().copied().unwrap_or(Search::None);
        let ends_search = match search {
            Search::Count(_) => line.starts_with("Nodes searched: ") || line.starts_with("Nodes/second    : "),
            _ => line.starts_with("bestmove ") || line.starts_with("checkmate "),
        };
        if ends_search {
            st.searches.pop_front();
        }
        let d = match search {
            // A disturbed count: its move lines and positions vary; its totals keep their shape.
            Search::Count(true) if line.starts_with("Nodes searched: ") => {
                "<...re ^Nodes searched: \\d+( \\(stopped: \\d+ of \\d+ moves counted\\))?$".to_string()
            }
            Search::Count(true) if line.starts_with("Nodes searched  : ") => {
                "<...re ^Nodes searched  : \\d+( \\(stopped\\))?$".to_string()
            }
            Search::Count(true) if line.starts_with("Total time (ms) : ") => return None,
            Search::Count(true) if line.starts_with("Nodes/second    : ") => "<re ^Nodes/second    : \\d+$".to_string(),
            Search::Count(true) if line.contains(": ") || line.starts_with("info string bench ") => return None,
            Search::Loose if line.starts_with("info depth ") => return None,
            // Whether the solver finishes within its share of a clock depends on the
            // machine; a placement may be a random draw from a mix (BookSeed 0).
            Search::Loose if line.starts_with("info string solved: ") => return None,
            Search::Loose if line.starts_with("info string book move ") => {
                "<...re ^info string book move \\S+$".to_string()
            }
            Search::Loose if line == "bestmove resign" => "<... bestmove resign".to_string(),
            Search::Loose if line.starts_with("bestmove ") => "<...re ^bestmove \\S+( ponder \\S+)?$".to_string(),
            Search::Loose if line.starts_with("checkmate ") => "<...re ^checkmate ".to_string(),
            Search::Loose => format!("<...re ^{}$", escape(line)),
            Search::Fixed | Search::Mate if line.starts_with("info depth ") => format!("<re {}", info_pattern(line)),
            _ if line.starts_with("id name koma ") => "<~ id name koma ".to_string(),
            // CECP's feature line names the version: any release replays.
            _ if line.starts_with("feature ") && line.contains(" myname=\"koma ") => {
                let version = escape(env!("CARGO_PKG_VERSION"));
                format!("<re ^{}$", escape(line).replace(&format!("koma {version}"), "koma [^\"]+"))
            }
            _ if line.starts_with("Total time (ms) : ") => "<re ^Total time \\(ms\\) : \\d+$".to_string(),
            _ if line.starts_with("Nodes/second    : ") => "<re ^Nodes/second    : \\d+$".to_string(),
            _ => exact(line),
        };
        Some(d)
    }
}

impl Tap for Recorder {
    fn input(&self, line: &str) {
        Recorder::input(self, line)
    }
    fn output(&self, line: &str) {
        Recorder::output(self, line)
    }
    fn end_of_input(&self) {
        Recorder::end_of_input(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn recorded(f: impl FnOnce(&Recorder)) -> Vec<String> {
        let buf = Buf::default();
        let r = Recorder::new(Box::new(buf.clone()));
        f(&r);
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
    }

    #[test]
    fn fixed_depth_info_keeps_score_and_pv_but_not_figures() {
        let lines = recorded(|r| {
            r.input("go depth 2");
            r.output("info depth 2 seldepth 3 score cp -6 nodes 80 nps 8000 time 10 hashfull 1 pv 6e6d 1b1c");
            r.output("bestmove 6e6d ponder 1b1c");
        });
        assert_eq!(
            lines,
            [
                "> go depth 2",
                r"<re ^info depth 2 seldepth \d+ score cp \-6 nodes \d+ nps \d+ time \d+ hashfull \d+ pv 6e6d 1b1c$",
                "< bestmove 6e6d ponder 1b1c",
            ]
        );
        let re = Regex::new(&lines[1][4..]).unwrap();
        assert!(re.is_match("info depth 2 seldepth 9 score cp -6 nodes 81 nps 1 time 999 hashfull 0 pv 6e6d 1b1c"));
        assert!(!re.is_match("info depth 2 seldepth 9 score cp -7 nodes 81 nps 1 time 999 hashfull 0 pv 6e6d 1b1c"));
    }

    #[test]
    fn a_book_move_may_be_drawn_at_random_so_its_search_keeps_only_its_shape() {
        let lines = recorded(|r| {
            r.input("go depth 3");
            r.output("info string book move F*1d");
            r.output("bestmove F*1d");
            r.input("go byoyomi 100");
            r.output("info string solved: a win in 9 plies for the side to move, proven by the solver");
            r.output("bestmove 1d1c");
        });
        assert_eq!(
            lines,
            [
                "> go depth 3",
                r"<...re ^info string book move \S+$",
                r"<...re ^bestmove \S+( ponder \S+)?$",
                "> go byoyomi 100",
                r"<...re ^bestmove \S+( ponder \S+)?$",
            ]
        );
    }

    #[test]
    fn timed_search_keeps_only_its_shape() {
        let lines = recorded(|r| {
            r.input("go byoyomi 100");
            r.output("info depth 1 seldepth 1 score cp 3 nodes 8 nps 800 time 10 hashfull 0 pv 6e6d");
            r.input("isready");
            r.output("readyok");
            r.output("bestmove 6e6d");
            r.input("d");
            r.output("sfen x ");
        });
        assert_eq!(
            lines,
            [
                "> go byoyomi 100",
                "> isready",
                r"<...re ^readyok$",
                r"<...re ^bestmove \S+( ponder \S+)?$",
                "> d",
                r"<re ^sfen x $",
            ]
        );
    }

    #[test]
    fn a_go_during_a_search_waits_for_the_old_bestmove() {
        // The new `go` stops the old search: its bestmove comes first, then the new
        // search's output, which is recorded by the new search's own kind (a mate search
        // here: its answer repeats).
        let lines = recorded(|r| {
            r.input("go byoyomi 1000");
            r.output("info depth 1 seldepth 1 score cp 3 nodes 8 nps 800 time 10 hashfull 0 pv 6e6d");
            r.input("go mate 1");
            r.output("bestmove 6e6d");
            r.output("checkmate nomate");
            r.input("moves");
            r.output("6e6d 5e5d");
        });
        assert_eq!(
            lines,
            [
                "> go byoyomi 1000",
                "> go mate 1",
                r"<...re ^bestmove \S+( ponder \S+)?$",
                "< checkmate nomate",
                "> moves",
                "< 6e6d 5e5d",
            ]
        );
    }

    #[test]
    fn a_fixed_depth_search_after_a_timed_one_keeps_only_its_shape_until_a_new_game() {
        // The timed search left table entries and move statistics that depend on how long
        // it ran, and the next search starts from them: its scores need not repeat.
        let session = |r: &Recorder| {
            r.input("go depth 1");
            r.output("info depth 1 seldepth 1 score cp 3 nodes 8 nps 800 time 10 hashfull 0 pv 6e6d");
            r.output("bestmove 6e6d");
        };
        let lines = recorded(|r| {
            r.input("go byoyomi 100");
            r.output("bestmove 6e6d");
            session(r);
            r.input("usinewgame");
            session(r);
        });
        assert_eq!(
            lines,
            [
                "> go byoyomi 100",
                r"<...re ^bestmove \S+( ponder \S+)?$",
                "> go depth 1",
                r"<...re ^bestmove \S+( ponder \S+)?$",
                "> usinewgame",
                "> go depth 1",
                r"<re ^info depth 1 seldepth \d+ score cp 3 nodes \d+ nps \d+ time \d+ hashfull \d+ pv 6e6d$",
                "< bestmove 6e6d",
            ]
        );
    }

    #[test]
    fn parse_names_the_bad_line() {
        assert_eq!(parse("# c\n> usi\n<nope x").unwrap_err().line, 3);
        assert_eq!(parse("<re (").unwrap_err().line, 1);
        assert_eq!(parse("> usi\n\n< usiok\neof\n").unwrap().len(), 3);
    }
}
