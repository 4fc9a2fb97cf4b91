//! What a game is, in three traits that each game module implements:
//!
//! - [`Game`]: the rules (positions, legal moves, notation of moves and positions, when
//!   the game ends). Perft, the referee and the protocol need nothing else.
//! - [`Strategy`]: how to play it well: the evaluation, move ordering and the search's
//!   per-game knobs. The search is generic over `Strategy`.
//! - [`Notation`]: how the game is written in the chess protocols (UCI, CECP), if at all.
//!
//! A game module never prints and never knows the protocol or the search. The registry of
//! games is `src/games/mod.rs`; CONTRIBUTING.md lists the steps for adding one.

mod appearance;
mod live;
mod notation;
pub mod perft;
pub mod referee;
mod rule_set;
pub(crate) mod search_params;
pub(crate) mod sfen_fields;
pub mod state;
mod strategy;
pub(crate) mod switch;
pub mod zobrist;

pub use appearance::{Appearance, PieceStyle, Water};
pub use live::{Live, LiveGame, Queries};
pub use notation::{ChessGame, ChessNotation, Notation, NotationError};
pub use rule_set::RuleSet;
pub use strategy::{BookChoice, Known, Strategy, CORRECTION_KEYS};
pub use switch::{Scope, Switch, SwitchInfo, SwitchKind};

use std::fmt::Debug;
use std::hash::Hash;

use thiserror::Error;

/// The two players. Sente moves first in `startpos`, is uppercase in SFEN and `b` as
/// side to move; its clock is `btime`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Sente,
    Gote,
}

impl Color {
    pub fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The result of a finished game, from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

/// A malformed or impossible SFEN. The message says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SfenError {
    #[error("sfen has {0} fields, expected 3 or 4 (board, side, hand[, ply])")]
    FieldCount(usize),
    #[error("sfen board: {0}")]
    Board(String),
    #[error("sfen side to move '{0}' is not 'b' or 'w'")]
    Side(String),
    #[error("sfen hand: {0}")]
    Hand(String),
    #[error("sfen ply '{0}' is not a positive number")]
    Ply(String),
    #[error("sfen describes an impossible position: {0}")]
    Invalid(String),
}

/// A move token that is malformed or not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    #[error("'{0}' is not a move token of this game")]
    Syntax(String),
    #[error("'{0}' is not a legal move here: {1}")]
    Illegal(String, String),
    #[error("'{0}' cannot be played: the game is already over")]
    GameOver(String),
}

/// A rules switch (`setoption`) with a value the game does not accept.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("option {name}: {why}")]
pub struct RuleError {
    pub name: String,
    pub why: String,
}

impl RuleError {
    /// A switch this game does not have.
    pub fn unknown(name: &str, value: &str) -> RuleError {
        RuleError { name: name.to_string(), why: format!("no such option (value '{value}')") }
    }
}

/// A game: its position type, its move type and its rules.
///
/// Positions are small plain values (no heap): the search copies a position and plays a
/// move on the copy (copy-make), so `Clone` must be cheap.
/// `==` is "the same position" as repetition counts it (board, hands, side to move,
/// placement state; not the ply): the exact solver compares positions with it.
pub trait Game: Clone + PartialEq + Send + Sync + 'static {
    /// A move as the game knows it. One value per distinct token.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The values of this game's switches (rules, evaluation and engine ones). Every
    /// position carries a plain copy of what it needs of them (cloning them may cost more:
    /// Number Shogi's hold a file's table by reference count; the search never clones them).
    type Rules: Clone + Default + Debug + PartialEq + Send + Sync + 'static;

    /// The variant name used by `USI_Variant` (rules.md), e.g. `shogi66`.
    const NAME: &'static str;
    /// How the page of `koma serve` shows the game (title, board, pieces, words).
    const APPEARANCE: Appearance;
    /// Board size, for `info string variant ... files F ranks R`.
    const FILES: usize;
    const RANKS: usize;
    /// The same position for this many times ends the game (a draw unless
    /// [`Game::PERPETUAL_CHECK_LOSES`] says otherwise).
    const REPETITION_LIMIT: usize = 4;
    /// Shogi: a side that gave check with every move of the repetition cycle loses.
    const PERPETUAL_CHECK_LOSES: bool = false;
    /// `go mate` as a tsume problem: every attacking move must give check (shogi).
    /// Otherwise the attacker may play any move and a win by any rule counts.
    const MATE_NEEDS_CHECK: bool = false;

    /// The game's switches, each declared once, in the order `usi` lists them (rules
    /// switches first, then evaluation and engine ones).
    fn switches() -> &'static [Switch<Self::Rules>] {
        &[]
    }
    /// Sets one switch by its name (any case). Unknown names and bad values are errors;
    /// `rules` is left as it was.
    fn set_rule(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), RuleError> {
        let switch = switch::find(Self::switches(), name).ok_or_else(|| RuleError::unknown(name, value))?;
        switch.apply(rules, value)
    }

    /// `position startpos`.
    fn startpos(rules: &Self::Rules) -> Self;
    /// `position sfen ...`: validated; never panics on any input.
    fn from_sfen(sfen: &str, rules: &Self::Rules) -> Result<Self, SfenError>;
    /// The SFEN of this position; `from_sfen(to_sfen())` gives the same position.
    fn to_sfen(&self) -> String;
    /// The board for `d` (several lines, no trailing newline needed): the squares only.
    /// Side to move, hands, ply, phase and result are printed by the session in the one
    /// layout of every game (see [`Game::status`] for what else a game shows).
    fn diagram(&self) -> String;
    /// What the rules call the two players, sente (`b`) first, as `d` names them.
    const SIDE_NAMES: [&'static str; 2] = ["sente", "gote"];
    /// Whether each side's setup is hidden from the other until both are placed (the
    /// placement phase is played as if simultaneous): a board shown to a person playing
    /// the engine must not show the engine's placements before then.
    const HIDDEN_SETUP: bool = false;
    /// Whether the position is in a placement phase (`d`'s `phase` line).
    fn in_placement(&self) -> bool {
        false
    }
    /// Counters of this game that `d` shows on a `status` line (captures, shrimps, the
    /// move-count counter), or `None`.
    fn status(&self) -> Option<String> {
        None
    }
    /// The rule behind [`Game::result`] when it is `Some`, in a few words (`"sum of
    /// seven"`), for `d`'s `result` line; `None` when no rule has declared a result.
    fn result_reason(&self) -> Option<&'static str>;
    /// The rule behind [`Game::no_move_outcome`] in this position, in a few words
    /// (`"checkmate"`, `"stalemate"`, `"no legal move"`).
    fn no_move_reason(&self) -> &'static str;

    fn side_to_move(&self) -> Color;
    /// Appends every legal move to `out` (which the caller has cleared), each distinct
    /// token once. Empty when the game is over by a rule ([`Game::result`]).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move that [`Game::legal_moves`] produced.
    fn play(&mut self, mv: Self::Move);
    /// Reads a token and checks that it is legal here.
    fn parse_move(&self, token: &str) -> Result<Self::Move, MoveError>;
    /// The token of a move of this position.
    fn format_move(&self, mv: Self::Move) -> String {
        let mut s = String::with_capacity(8);
        self.write_move(mv, &mut s);
        s
    }
    /// Writes the token of a move of this position at the end of `out` (what
    /// `format_move` returns, without a string of its own: a list of every legal move's
    /// token is one allocation).
    fn write_move(&self, mv: Self::Move, out: &mut String);

    /// A hash of everything that makes positions the same for repetition: board, hands,
    /// side to move and placement state.
    fn key(&self) -> u64;
    /// A result already declared by a rule (sum of seven, three captures, ...), from the
    /// side to move's view. `None` while the game goes on. Not for "no legal move".
    fn result(&self) -> Option<Outcome> {
        None
    }
    /// The result when the side to move has no legal move (and `result` is `None`).
    fn no_move_outcome(&self) -> Outcome {
        Outcome::Loss
    }
    /// Whether the side to move is in check (games without check: always false).
    fn in_check(&self) -> bool {
        false
    }
    /// The squares (USI names) of the pieces of `by` that attack `square` (a USI square of
    /// this board), as the game's own attack tables see it: the pieces that could take a
    /// piece of the other side standing there, pins ignored, whatever stands there now.
    /// `None` where a capture is not a move onto the square (the crab games' sandwiches):
    /// [`Live::attackers`] then answers from the legal moves.
    fn attackers(&self, by: Color, square: &str) -> Option<Vec<String>> {
        let _ = (by, square);
        None
    }
    /// The squares of the pieces giving check to the side to move; empty when it is not
    /// in check (and in games without check).
    fn checkers(&self) -> Vec<String> {
        Vec::new()
    }
    /// A move-count draw (kokesu: 100 plies without capture or pawn move). Judged by the
    /// search on game history; it never cuts perft or `moves`.
    fn move_count_draw(&self) -> bool {
        false
    }
}
