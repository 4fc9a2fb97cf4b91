//! `koma analyse`: positions in, one JSON object a line out.
//!
//! Each input line is `<variant> <sfen> [moves ...]`, `<variant> startpos [moves ...]`,
//! or, with `--variant`, the same without the variant. Blank lines and `#` comments are
//! skipped. Every position goes through the engine exactly as a GUI's commands would
//! (`setoption`, `position`, `go`), so the answers are the ones a GUI gets. A line that
//! cannot be analysed gives an object with an `error` field and the run goes on.
//! A progress bar goes to stderr only when stderr is a terminal.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::cli::jsonl;
use crate::engine::options::{MAX_MULTIPV, MAX_THREADS};
use crate::engine::Engine;
use crate::engine::{Command, Event, Info, Score, Sink};
use crate::game::state::GameState;
use crate::game::Live;
use crate::games;
use crate::search::limits::GoParams;

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 8;
/// The deepest `--depth`: the search's own limit.
const MAX_DEPTH: i64 = crate::search::limits::MAX_DEPTH as i64;

/// Options of `koma analyse`.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(about = "Analyse positions (one a line, from FILEs or stdin) and write one JSON object a line")]
pub struct Args {
    /// The variant of lines that do not start with one (shogi66, kokesu, numbershogi,
    /// kanishogi, kaninariebi).
    #[arg(long)]
    pub variant: Option<String>,
    /// Search each position to this depth (1 to 127, the search's deepest). With no limit:
    /// depth 8, and 10000 nodes a position with --game.
    #[arg(long, group = "limit", value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH))]
    pub depth: Option<u32>,
    /// Search each position for this many milliseconds (at least 1).
    #[arg(long, group = "limit", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search each position for this many nodes (at least 1).
    #[arg(long, group = "limit", value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Report this many best lines (`multipv` in the output; 1 to 64).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=MAX_MULTIPV as u64))]
    pub multipv: Option<u64>,
    /// Search threads (the engine's `Threads` option; 1 to 256).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    pub threads: Option<u64>,
    /// A game record (KIF, CSA, PGN, RokuRokuGUI's, koma's: protocol/records.md) to report
    /// on move by move instead of positions.
    #[arg(long, value_name = "FILE", conflicts_with = "files")]
    pub game: Option<PathBuf>,
    /// With --game: write the record annotated with the report here, in the game's
    /// natural format (KIF, PGN, koma's).
    #[arg(long, value_name = "OUT", requires = "game")]
    pub annotated: Option<PathBuf>,
    /// With --game: write the evaluation graph here as an SVG image.
    #[arg(long, value_name = "OUT", requires = "game")]
    pub svg: Option<PathBuf>,
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
    /// The score is proven (the game's table or the exact solver), not searched: written
    /// only when true.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
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
            a.multipv = k as usize;
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

    /// Sets an engine option or a game's switch, as `setoption` does; the engine's
    /// refusal is the error.
    pub fn option(&mut self, name: &str, value: &str) -> Result<(), String> {
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

    /// Analyses the current position of a live game (under its rules), `at` naming it.
    pub fn analyse_game(&mut self, game: &dyn Live, at: &str) -> Analysis {
        self.analyse_game_with(game, at, self.go.clone())
    }

    /// The limits of a deeper look at a position: `factor` times the nodes or the time of
    /// these limits, or their depth plus `plies`.
    pub fn deeper(&self, factor: u64, plies: u32) -> GoParams {
        GoParams {
            depth: self.go.depth.map(|d| (d + plies).min(MAX_DEPTH as u32)),
            nodes: self.go.nodes.map(|n| n.saturating_mul(factor)),
            movetime: self.go.movetime.map(|t| t.saturating_mul(factor)),
            ..GoParams::default()
        }
    }

    /// Empties the engine's table (and what else `usinewgame` forgets), so that the next
    /// search does not depend on the ones before it.
    pub fn new_game(&mut self) {
        self.engine.handle(Command::NewGame);
    }

    /// [`Analyser::analyse_game`] within the limits `go` (its `searchmoves` too).
    pub fn analyse_game_with(&mut self, game: &dyn Live, at: &str, go: GoParams) -> Analysis {
        let mut out = Analysis { input: game.sfen(), at: at.to_string(), ..Analysis::default() };
        let _ = self.errors();
        out.variant = Some(game.variant());
        self.engine.handle(Command::Rules(game.rule_set().clone()));
        let position = Command::Position { sfen: Some(game.root_sfen()), moves: game.moves() };
        if let Err(e) = self.search(position, go, &mut out) {
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
        self.search(Command::Position { sfen: line.sfen, moves: line.moves }, self.go.clone(), out)
    }

    /// Sets the position and searches it as the limits say.
    fn search(&mut self, position: Command, go: GoParams, out: &mut Analysis) -> Result<(), String> {
        self.engine.handle(position);
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
        self.engine.handle(Command::Go(go));
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
            out.exact = top.exact;
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

/// `koma analyse`: exit status 0 when every line was analysed, 1 when some line had an
/// error (its object says which) or the output could not be written, 2 when the options
/// themselves are wrong.
pub fn main(args: Args) -> ExitCode {
    let mut analyser = match Analyser::new(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("koma analyse: {e}");
            return ExitCode::from(2);
        }
    };
    jsonl::run("koma analyse", &args.files, |line, at| analyser.analyse(line, at))
}

impl jsonl::Answer for Analysis {
    fn unreadable(input: String, at: String, why: String) -> Self {
        Analysis { input, at, error: Some(why), ..Analysis::default() }
    }
    fn failed(&self) -> bool {
        self.error.is_some()
    }
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
