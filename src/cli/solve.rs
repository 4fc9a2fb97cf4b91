//! `koma solve`: Number Shogi positions in, their exact values out (one JSON object a
//! line). The solver itself is [`crate::search::solve`]; it also answers `go mate` in the
//! games it can prove. It proves with the solver alone, never the shipped table: it is
//! what makes and checks that table (docs/RAY.md).

use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::analyse::parse_line;
use crate::cli::jsonl;
use crate::game::referee::Referee;
use crate::game::Game;
use crate::games::numbershogi::NumberShogi;
use crate::search::prove::Sources;
use crate::search::solve::Budget;

/// Options of `koma solve`.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(about = "Solve Number Shogi positions exactly (one a line, from FILEs or stdin), one JSON object a line")]
pub struct Args {
    /// The variant of lines that do not start with one (only numbershogi is solved).
    #[arg(long)]
    pub variant: Option<String>,
    /// Give up on a position after expanding this many positions: `"value":"unknown"`
    /// (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: Option<u64>,
    /// Give up on a position after this many milliseconds: `"value":"unknown"` (at
    /// least 1).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_ms: Option<u64>,
    /// Files of positions; stdin when there are none (or for `-`).
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

impl jsonl::Answer for Answer {
    fn unreadable(input: String, _at: String, why: String) -> Self {
        Answer { input, error: Some(why), ..Answer::default() }
    }
    fn failed(&self) -> bool {
        self.error.is_some()
    }
}

/// The answer for one input line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Answer {
    pub input: String,
    /// `win`, `loss` or `draw` for the side to move, or `unknown` (budget exceeded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<&'static str>,
    /// Plies to the end with best play: the fastest win, the slowest loss; 0 for a
    /// draw or a finished game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<u32>,
    /// A move that keeps the value; `null` when the game is over or unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bestmove: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Solves one input line (`[variant] startpos|sfen ... [moves ...]`).
pub fn answer(input: &str, default_variant: Option<&'static str>, budget: &Budget) -> Answer {
    match try_answer(input, default_variant, budget) {
        Ok(a) => a,
        Err(e) => Answer { input: input.to_string(), error: Some(e), ..Answer::default() },
    }
}

fn try_answer(input: &str, default_variant: Option<&'static str>, budget: &Budget) -> Result<Answer, String> {
    let line = parse_line(input, default_variant)?;
    if line.variant != NumberShogi::NAME {
        return Err(format!("koma solve solves only {} (this line is {})", NumberShogi::NAME, line.variant));
    }
    let rules = Default::default();
    let root = match &line.sfen {
        None => NumberShogi::startpos(&rules),
        Some(s) => NumberShogi::from_sfen(s, &rules).map_err(|e| e.to_string())?,
    };
    let mut game = Referee::new(root);
    for token in &line.moves {
        if game.verdict().is_some() {
            return Err(format!("'{token}' cannot be played: the game is already over"));
        }
        let mv = game.pos().parse_move(token).map_err(|e| e.to_string())?;
        game.play(mv);
    }
    let e = crate::search::prove::solve_game(&game, budget, Sources::SolverOnly)?;
    Ok(Answer {
        input: input.to_string(),
        value: Some(e.value.map_or("unknown", |v| v.name())),
        plies: e.plies,
        bestmove: Some(e.bestmove),
        nodes: Some(e.nodes),
        ms: Some(e.ms),
        error: None,
    })
}

/// `koma solve`: exit status 0 when every line was solved (or ran out of budget), 1
/// when some line had an error (its object says which), 2 when the options are wrong.
pub fn main(args: Args) -> ExitCode {
    let default_variant = match &args.variant {
        None => None,
        Some(v) if v == NumberShogi::NAME => Some(NumberShogi::NAME),
        Some(v) => {
            eprintln!("koma solve: --variant {v}: only {} is solved", NumberShogi::NAME);
            return ExitCode::from(2);
        }
    };
    let budget = Budget { max_nodes: args.max_nodes, max_ms: args.max_ms, ..Budget::default() };
    jsonl::run("koma solve", &args.files, |line, _| answer(line, default_variant, &budget))
}
