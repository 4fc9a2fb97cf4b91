//! What the engine tells its caller: typed events, one per thing that happened. Each
//! dialect (`crate::protocol`) writes them as its own lines; `koma analyse` and the tests
//! read them as values.

use std::sync::Arc;

use crate::game::state::{GameResult, GameState};
use crate::game::SwitchInfo;

/// Where the engine's events go (the dialect's formatter, or a test's channel). Called
/// from the engine's thread and from its job threads.
pub type Sink = Arc<dyn Fn(Event) + Send + Sync>;

/// A score: centipawns, or mate in plies (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// One report of search progress. Moves are the game's own tokens (rules.md).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: Option<usize>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
    /// The score is proven (the game's table or the exact solver), not searched: a mate
    /// score is then the distance with best play and 0 a draw. USI has no word for it;
    /// `koma analyse` writes `"exact": true`.
    pub exact: bool,
}

/// The result of `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    Mate(Vec<String>),
    NoMate,
    Timeout,
}

/// One thing the engine has to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The answer to [`crate::engine::Command::Hello`]: who the engine is and its options.
    Hello {
        name: String,
        author: String,
        options: Vec<SwitchInfo>,
    },
    /// `isready` answered: the engine is ready.
    Ready,
    Info(Info),
    /// A remark for the user (`info string` in USI).
    Message(String),
    /// The search answers from the opening book with this move.
    BookMove(String),
    /// A request could not be carried out; nothing of it was applied.
    Error(String),
    /// The game is over: before a search of a finished position (`by: None`), or because
    /// the move the search is about to answer ends it (`by: Some(move)`).
    GameOver {
        by: Option<String>,
        result: GameResult,
    },
    /// The end of every search: the move, or `None` to resign.
    BestMove {
        mv: Option<String>,
        ponder: Option<String>,
    },
    /// The end of every `go mate`.
    Checkmate(MateResult),
    /// The legal moves (`moves`).
    Moves(Vec<String>),
    /// The position and where its game stands (`d`).
    State(Box<GameState>),
    /// A new variant is played: its name, board and start position (SFEN).
    VariantChanged {
        name: &'static str,
        files: usize,
        ranks: usize,
        startpos: String,
    },
    /// `go perft`'s count below each legal move (each dialect lists them in its own
    /// notation's order).
    PerftMoves(Vec<(String, u64)>),
    /// The end of `go perft`: the total, or how far a stopped count got.
    PerftTotal {
        nodes: u64,
        stopped: Option<(usize, usize)>,
    },
    /// One position of `bench` searched.
    BenchPosition {
        index: usize,
        nodes: u64,
        best: Option<String>,
        sfen: String,
    },
    /// `bench` was stopped in this position (1-based) of so many.
    BenchStopped {
        index: usize,
        of: usize,
    },
    /// The end of `bench`.
    BenchTotal {
        ms: u64,
        nodes: u64,
        nps: u64,
        stopped: bool,
    },
}
