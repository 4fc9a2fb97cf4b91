//! The one trait every game implements.
//!
//! A game is its position type. Search, time control, perft and the protocol are
//! generic over [`Game`] and never know a rule; a game module never prints and never
//! knows the protocol. Adding a game means adding one module under `src/games/` and one
//! line in `src/games/mod.rs`.

use std::fmt::Debug;
use std::hash::Hash;

use thiserror::Error;

/// How many structural keys a game may name for the evaluation's correction
/// (`Game::correction_keys`).
pub const CORRECTION_KEYS: usize = 3;

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

/// How a rules switch is offered in the `usi` option list.
#[derive(Clone, Copy, Debug)]
pub enum RuleKind {
    /// `type combo default D var A var B ...`
    Combo(&'static [&'static str]),
    /// `type string default D`
    Text,
}

/// One rules switch of a game (rules.md: "every switch is a setoption").
#[derive(Clone, Copy, Debug)]
pub struct RuleOption {
    pub name: &'static str,
    pub kind: RuleKind,
    pub default: &'static str,
}

/// How a game is written in the chess protocols (UCI, CECP): FEN and squares `a1`.. are
/// derived from the board size; these are the facts that are not. Only games whose every
/// move is one board move or one drop have one (see `src/protocol/notation.rs`).
#[derive(Clone, Copy, Debug)]
pub struct ChessNotation {
    /// The name in CECP's `variant` (xboard takes a name that starts with one of its own
    /// variants' names, such as `shogi66`, for that variant).
    pub xboard_name: &'static str,
    /// The FEN carries holdings in brackets (`[Nnpp]`, `[]` when empty).
    pub holdings: bool,
    /// xboard `setup`: the piece-to-character table (xboard's piece order, `.` unused).
    pub xboard_pieces: &'static str,
    /// xboard `setup`: the parent variant whose rules xboard applies (`fairy`, `shogi`).
    pub xboard_parent: &'static str,
    /// xboard `piece` lines: a piece letter (`+A` for a promoted one) and its Betza moves.
    pub xboard_moves: &'static [(&'static str, &'static str)],
}

/// A game: its position type, its move type and its rules.
///
/// Positions are small plain values (no heap): the search copies a position and plays a
/// move on the copy (copy-make), so `Clone` must be cheap.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move as the game knows it. One value per distinct token.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// The values of this game's rules switches. Every position carries a copy.
    type Rules: Copy + Default + Debug + Send + Sync + 'static;

    /// The variant name used by `USI_Variant` (rules.md), e.g. `shogi66`.
    const NAME: &'static str;
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
    /// Extra positions (SFEN) for `bench`, beside the start position.
    const BENCH_POSITIONS: &'static [&'static str] = &[];
    /// The `bench` search depth.
    const BENCH_DEPTH: u32 = 6;
    /// The game in UCI and CECP; `None`: USI only (compound turns have no UCI form).
    const CHESS_NOTATION: Option<ChessNotation> = None;

    /// The game's rules switches, in the order `usi` lists them.
    fn rule_options() -> &'static [RuleOption] {
        &[]
    }
    /// Set one switch. Unknown names and bad values are errors; `rules` is left as it was.
    fn set_rule(rules: &mut Self::Rules, name: &str, value: &str) -> Result<(), RuleError> {
        let _ = rules;
        Err(RuleError { name: name.to_string(), why: format!("no such option (value '{value}')") })
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
    fn format_move(&self, mv: Self::Move) -> String;

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
    /// Whether the side to move, not in check, may have no legal move here and would lose
    /// by it (kokesu under `KokesuStalemate=loss` with only king and pawns). The search
    /// then does not cut the node on its static evaluation before it has looked at the
    /// moves. A cheap guess: false positives only cost pruning.
    fn stalemate_may_lose(&self) -> bool {
        false
    }
    /// A move-count draw (kokesu: 100 plies without capture or pawn move). Judged by the
    /// search on game history; it never cuts perft or `moves`.
    fn move_count_draw(&self) -> bool {
        false
    }

    /// Static evaluation in centipawns from the side to move's view.
    fn evaluate(&self) -> i32;
    /// Hashes of the slow-changing parts of the position the evaluation may misjudge
    /// (kokesu: the pawns, and each side's other pieces), under each of which the search
    /// learns a correction of the static evaluation (`search::history::Corrections`). A
    /// `None` slot learns nothing; the default names no key. (The search also corrects by
    /// the move that led to the position, in every game.)
    fn correction_keys(&self) -> [Option<u64>; CORRECTION_KEYS] {
        [None; CORRECTION_KEYS]
    }
    /// The position after the side to move passes, for null-move pruning; `None` where a
    /// pass would mislead the search (the default: zugzwang-prone games and phases, such
    /// as placements or pawn endings).
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Reverse futility pruning margin per ply of remaining depth (0 = off): a non-PV
    /// node within 3 plies of the horizon whose static evaluation beats beta by this much
    /// per ply is cut. Only for games whose evaluation is stable from move to move.
    const FUTILITY_MARGIN: i32 = 0;
    /// Whether the search may skip quiet moves near the horizon: late-move pruning,
    /// futility pruning (with [`Game::FUTILITY_MARGIN`]) and pruning by bad history. Off
    /// where a quiet move often decides at once (sudden wins by capture counts, compound
    /// turns).
    const QUIET_PRUNING: bool = false;
    /// Whether late moves are reduced one ply less where the correction history moved the
    /// static evaluation far (`params::LMR_UNCERTAIN`). On where a match showed it pays
    /// (kokesu); in 66 shogi it was even in play and cost a ply of depth.
    const REDUCE_LESS_WHEN_UNCERTAIN: bool = false;
    /// Moves the quiescence search looks at (captures, promotions).
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// The most a tactical move can win in material, in centipawns of the evaluation
    /// (what it takes, and what a promotion adds), for the quiescence search's delta
    /// pruning: a capture that cannot lift the standing score near alpha is skipped.
    /// `None` (the default): not known, no move is skipped so.
    fn material_gain(&self, _mv: Self::Move) -> Option<i32> {
        None
    }
    /// Appends only the legal moves that [`Game::is_tactical`] accepts, for a side not in
    /// check, where the game can make them faster than all legal moves (no drops to
    /// generate, say), and returns `true`; an empty list then does not mean the game is
    /// over. The default makes none and returns `false`: the quiescence search filters
    /// [`Game::legal_moves`] instead.
    fn tactical_moves(&self, _out: &mut Vec<Self::Move>) -> bool {
        false
    }
    /// A move that loses material by static exchange (a capture that loses more than it
    /// takes, a quiet move that leaves its piece en prise); the quiescence search leaves
    /// such captures out and the main search prunes them near the horizon. The default
    /// knows of none.
    fn losing_exchange(&self, _mv: Self::Move) -> bool {
        false
    }
    /// Ordering hint for non-hash moves: larger first (e.g. victim value * 16 - attacker).
    fn order_score(&self, mv: Self::Move) -> i32;
    /// A number that identifies the move in history tables (any value; it is reduced
    /// modulo the table size).
    fn move_id(mv: Self::Move) -> u32;
    /// The move's key in the continuation histories and the countermove table, from the
    /// position it is played in: by default its `move_id`. A game may key them by the
    /// moving piece and its destination instead (Stockfish's `[piece][to]`), which
    /// generalises over origins; it then says how many such keys there are
    /// (`CONTINUATION_IDS`), and the continuation tables are laid out densely by them
    /// (a context's entries in one row: fewer cache misses where moves are scored).
    fn continuation_id(&self, mv: Self::Move) -> u32 {
        Self::move_id(mv)
    }
    /// `continuation_id` is below this; 0: it may be any number (the tables hash it).
    const CONTINUATION_IDS: u32 = 0;
    /// A move chosen without search, e.g. a placement from a setup study. The engine plays
    /// it if it is `Some` (it must be legal).
    fn book_move(&self) -> Option<Self::Move> {
        None
    }
}
