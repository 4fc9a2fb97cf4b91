//! `koma analyse`: positions in, one JSON object a line out.
//!
//! Each input line is `<variant> <sfen> [moves ...]`, `<variant> startpos [moves ...]`,
//! or, with `--variant`, the same without the variant. Blank lines and `#` comments are
//! skipped. Every position goes through the engine exactly as a GUI's commands would
//! (`setoption`, `position`, `go`), so the answers are the ones a GUI gets. A line that
//! cannot be analysed gives an object with an `error` field and the run goes on.
//! A progress bar goes to stderr only when stderr is a terminal.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::engine::Engine;
use crate::engine::{Command, Event, Info, Score, Sink};
use crate::games;
use crate::search::limits::GoParams;
use crate::state::GameState;

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 8;

/// Options of `koma analyse`.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(about = "Analyse positions (one a line, from FILEs or stdin) and write one JSON object a line")]
pub struct Args {
    /// The variant of lines that do not start with one (shogi66, kokesu, numbershogi,
    /// kanishogi, kaninariebi).
    #[arg(long)]
    pub variant: Option<String>,
    /// Search each position to this depth (the default: 8; at least 1).
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds.
    #[arg(long, group = "limit", value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes.
    #[arg(long, group = "limit", value_name = "N")]
    pub nodes: Option<u64>,
    /// Report this many best lines (`multipv` in the output).
    #[arg(long, value_name = "K")]
    pub multipv: Option<usize>,
    /// Search threads (the engine's `Threads` option).
    #[arg(long, value_name = "T")]
    pub threads: Option<usize>,
    /// Files of positions; stdin when there are none (or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// A score as in `info ... score`: centipawns, or mate in plies (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JsonScore {
    Cp(i32),
    Mate(i32),
}

/// One line of a multi-PV answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub multipv: usize,
    pub score: Option<JsonScore>,
    pub depth: u32,
    pub pv: Vec<String>,
}

/// The answer for one input line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The input line, as read.
    pub input: String,
    /// Where the line came from: `FILE:LINE` (`-` is stdin).
    pub at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<&'static str>,
    /// The move found; `null` when the game is over (see `state.result`) or no move exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bestmove: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<JsonScore>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pv: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Every line when `--multipv` is above 1, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub multipv: Option<Vec<Line>>,
    /// The position before the search: board, side, hands, ply, phase, result, SFEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<GameState>,
}

/// A position line, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionLine {
    pub variant: &'static str,
    pub sfen: Option<String>,
    pub moves: Vec<String>,
}

/// Reads `<variant> [position] [sfen] <sfen>|startpos [moves ...]`: the variant (any case)
/// may be left to `default`, and the words of a USI `position` command may stand before the
/// position, so `kokesu position startpos moves 5g5e` reads as `kokesu startpos moves 5g5e`.
pub fn parse_line(line: &str, default: Option<&'static str>) -> Result<PositionLine, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let names = games::names();
    let (variant, rest) = match words.first().and_then(|w| names.iter().find(|n| n.eq_ignore_ascii_case(w))) {
        Some(name) => (*name, &words[1..]),
        _ => match default {
            Some(v) => (v, &words[..]),
            None => {
                return Err(format!("no variant: start the line with one of {} or give --variant", names.join(", ")))
            }
        },
    };
    let rest = rest.strip_prefix(&["position"]).unwrap_or(rest);
    let rest = rest.strip_prefix(&["sfen"]).unwrap_or(rest);
    let moves_at = rest.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], rest[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (rest, Vec::new()),
    };
    let sfen = match head {
        [] => return Err("no position: expected an SFEN or 'startpos'".into()),
        ["startpos"] => None,
        [first, ..] if *first == "startpos" => return Err(format!("unexpected '{}' after startpos", head[1])),
        _ => Some(head.join(" ")),
    };
    Ok(PositionLine { variant, sfen, moves })
}

/// Runs positions through one engine.
pub struct Analyser {
    engine: Engine,
    replies: Receiver<Event>,
    go: GoParams,
    multipv: usize,
    default_variant: Option<&'static str>,
}

impl Analyser {
    /// An engine set up for `args` (limits, MultiPV, Threads). An option the engine
    /// refuses is an error.
    pub fn new(args: &Args) -> Result<Analyser, String> {
        let (tx, replies) = channel();
        let sink: Sink = Arc::new(move |r: Event| {
            let _ = tx.send(r);
        });
        let default_variant = match &args.variant {
            None => None,
            Some(v) => Some(
                games::names()
                    .into_iter()
                    .find(|n| n.eq_ignore_ascii_case(v))
                    .ok_or_else(|| format!("--variant {v}: no such variant (one of {})", games::names().join(", ")))?,
            ),
        };
        let mut a =
            Analyser { engine: Engine::new(sink), replies, go: GoParams::default(), multipv: 1, default_variant };
        // No minimum thinking time: a script does not race a GUI. Every position is
        // searched, book positions too, so that each has a score, a depth and its lines.
        a.option("MinimumThinkingTime", "0")?;
        a.option("USI_OwnBook", "false")?;
        if let Some(k) = args.multipv {
            a.option("MultiPV", &k.to_string())?;
            a.multipv = k;
        }
        if let Some(t) = args.threads {
            a.option("Threads", &t.to_string())?;
        }
        a.go = GoParams {
            depth: args.depth.or((args.movetime.is_none() && args.nodes.is_none()).then_some(DEFAULT_DEPTH)),
            movetime: args.movetime,
            nodes: args.nodes,
            ..GoParams::default()
        };
        Ok(a)
    }

    /// Errors the engine reported since the last call.
    fn errors(&self) -> Vec<String> {
        self.replies
            .try_iter()
            .filter_map(|r| match r {
                Event::Error(e) => Some(e),
                _ => None,
            })
            .collect()
    }

    fn option(&mut self, name: &str, value: &str) -> Result<(), String> {
        self.engine.handle(Command::SetOption { name: name.into(), value: Some(value.into()) });
        match self.errors().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Analyses one input line (not blank, not a comment).
    pub fn analyse(&mut self, input: &str, at: &str) -> Analysis {
        let mut out = Analysis { input: input.to_string(), at: at.to_string(), ..Analysis::default() };
        if let Err(e) = self.try_analyse(input, &mut out) {
            out = Analysis { input: out.input, at: out.at, error: Some(e), ..Analysis::default() };
        }
        out
    }

    fn try_analyse(&mut self, input: &str, out: &mut Analysis) -> Result<(), String> {
        let line = parse_line(input, self.default_variant)?;
        let _ = self.errors();
        if self.engine.variant() != line.variant {
            self.option("USI_Variant", line.variant)?;
        }
        out.variant = Some(line.variant);
        self.engine.handle(Command::Position { sfen: line.sfen, moves: line.moves });
        if let Some(e) = self.errors().into_iter().next() {
            return Err(e);
        }
        let state = self.engine.state()?;
        let over = state.result.is_some();
        out.state = Some(state);
        if over {
            out.bestmove = Some(None);
            return Ok(());
        }
        self.engine.handle(Command::Go(self.go.clone()));
        let mut lines: Vec<Option<Info>> = vec![None; self.multipv.max(1)];
        let best = loop {
            match self.replies.recv_timeout(Duration::from_millis(50)) {
                Ok(Event::Info(info)) => {
                    let k = info.multipv.unwrap_or(1).clamp(1, lines.len());
                    lines[k - 1] = Some(info);
                }
                Ok(Event::BestMove { mv, .. }) => break mv,
                Ok(Event::Error(e)) => return Err(e),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) if self.engine.is_searching() => {}
                Err(_) => return Err("the search ended without a best move".into()),
            }
        };
        out.bestmove = Some(best);
        let score = |i: &Info| {
            i.score.map(|s| match s {
                Score::Cp(c) => JsonScore::Cp(c),
                Score::Mate(m) => JsonScore::Mate(m),
            })
        };
        if let Some(Some(top)) = lines.first() {
            out.score = score(top);
            out.depth = Some(top.depth);
            out.seldepth = Some(top.seldepth.max(top.depth));
            out.pv = Some(top.pv.clone());
            out.nodes = Some(top.nodes);
        }
        if self.multipv > 1 {
            out.multipv = Some(
                lines
                    .iter()
                    .flatten()
                    .enumerate()
                    .map(|(i, l)| Line { multipv: i + 1, score: score(l), depth: l.depth, pv: l.pv.clone() })
                    .collect(),
            );
        }
        Ok(())
    }
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

/// `koma analyse`: exit status 0 when every line was analysed, 1 when some line had an
/// error (its object says which), 2 when the options themselves are wrong.
pub fn main(args: Args) -> ExitCode {
    let mut analyser = match Analyser::new(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("koma analyse: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut failed = false;
    // The first failed write ends the run: a closed pipe (`| head -1`) quietly, any other
    // failure (a full disk) with a message; either way the exit status is not 0.
    let mut write_error: Option<std::io::Error> = None;
    let mut emit = |a: &Analysis| -> bool {
        failed |= a.error.is_some();
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
    let stdin_only = args.files.is_empty();
    let files: Vec<PathBuf> = if stdin_only { vec![PathBuf::from("-")] } else { args.files.clone() };
    // Files are read whole first (as bytes: a line that is not UTF-8 is one bad line), so
    // that the progress bar knows how many positions remain.
    let mut texts = Vec::new();
    for f in &files {
        if f.as_os_str() == "-" {
            texts.push((f.clone(), None));
        } else {
            match std::fs::read(f) {
                Ok(t) => texts.push((f.clone(), Some(t))),
                Err(e) => {
                    let a = Analysis {
                        at: f.display().to_string(),
                        error: Some(format!("cannot read {}: {e}", f.display())),
                        ..Analysis::default()
                    };
                    if !emit(&a) {
                        break;
                    }
                }
            }
        }
    }
    let total = texts
        .iter()
        .map(|(_, t)| t.as_ref().map(|t| t.split(|&b| b == b'\n').filter(|l| is_position_bytes(l)).count() as u64))
        .sum::<Option<u64>>();
    let bar = progress(total);
    'files: for (path, text) in texts {
        let mut run = |n: usize, line: &[u8]| -> bool {
            if !is_position_bytes(line) {
                return true;
            }
            let at = format!("{}:{}", path.display(), n + 1);
            let a = match std::str::from_utf8(line) {
                Ok(l) => analyser.analyse(l.trim(), &at),
                Err(e) => Analysis {
                    input: String::from_utf8_lossy(line).trim().to_string(),
                    at,
                    error: Some(format!("the line is not valid UTF-8 ({e})")),
                    ..Analysis::default()
                },
            };
            bar.inc(1);
            emit(&a)
        };
        match text {
            Some(t) => {
                for (n, l) in t.split(|&b| b == b'\n').enumerate() {
                    if !run(n, l) {
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
                    if !run(n, buf.strip_suffix(b"\n").unwrap_or(&buf)) {
                        break 'files;
                    }
                }
            }
        }
    }
    bar.finish_and_clear();
    if let Some(e) = write_error {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("koma analyse: cannot write the output: {e}");
        }
        return ExitCode::FAILURE;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A line that holds a position: not blank, not a comment (`#`), as bytes.
fn is_position_bytes(line: &[u8]) -> bool {
    let trimmed = line.trim_ascii();
    !trimmed.is_empty() && !trimmed.starts_with(b"#")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines() {
        let p = parse_line("kokesu startpos moves 5g5f", None).unwrap();
        assert_eq!((p.variant, p.sfen, p.moves), ("kokesu", None, vec!["5g5f".to_string()]));
        let p = parse_line("6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1", Some("shogi66")).unwrap();
        assert_eq!(p.sfen.as_deref(), Some("6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1"));
        assert!(parse_line("6/pppppp/6/6/PPPPPP/6 b - 1", None).unwrap_err().contains("no variant"));
        assert!(parse_line("kokesu", None).unwrap_err().contains("no position"));
        assert!(parse_line("kokesu startpos 5g5f", None).is_err());
    }
}
