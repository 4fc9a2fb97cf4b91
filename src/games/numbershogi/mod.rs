//! Number Shogi (`numbershogi`, 数字将棋), rules.md §3.
//!
//! - Board 3 files x 5 ranks (`3a`..`1e`); sente's camp is ranks d-e, gote's a-b.
//! - Each side has six pieces `A`..`F` of value 1..6. Each steps one square in the
//!   directions of the table (switch `NumberShogiPieceMoves`, default
//!   `1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S`); a promoted
//!   piece ("8", `+A`..`+F`, keeping its face value) steps in all 8 directions.
//! - Captured pieces go face up to the captor's hand and may be dropped on any empty square
//!   (play phase). A drop never promotes; promotion is optional on a board move that starts
//!   or ends on the far rank (switch `NumberShogiPromotion` = `on` | `off`).
//! - Win: the moment a capture gives the captor's hand a subset whose face values sum to
//!   exactly 7. The beaten side is then to move, [`Game::result`] is `Loss` and there are no
//!   legal moves. No legal move also loses; the 4th repetition is a draw.
//! - Placement: `startpos` = `3/3/3/3/3 b ABCDEFabcdef 1`, 12 drops alternating from sente,
//!   each onto an empty square of the mover's camp; the phase is decided by rules.md §0's
//!   five conditions. Only play-phase hands count for the sum of 7. The engine's own
//!   placement is [`setup`]'s: drawn from the solved game's optimal mix.
//! - Solved (protocol/numbershogi-solved.md): gote wins the hidden-setup game. [`solution`]
//!   reads the shipped table of proven setups and both sides' optimal mixes.
//!
//! Files: `board` (squares, cells, step tables, subset sums), `rules` (the switch values
//! a position carries), `switches` (the switches, and their values as a game holds them),
//! `movegen` (moves, generation, make), `sfen` (notation), `zobrist`, `eval`, `setup`,
//! `solution` (the solved table, and the cache of files' tables).

mod board;
pub mod eval;
mod movegen;
mod rules;
pub mod setup;
mod sfen;
pub mod solution;
mod switches;
mod zobrist;

pub use movegen::Move;
pub use rules::{Carried, TableId};
pub use switches::{Rules, Table};

use crate::game::{
    Appearance, BookChoice, ChessNotation, Color, Game, Known, MoveError, Notation, Outcome, PieceStyle, SfenError,
    Strategy, Switch,
};
use board::{parse_square, value_of_letter, Bb, Cell, EMPTY, SQUARES};

/// A Number Shogi position (copy-make; no heap).
#[derive(Clone, Debug)]
pub struct NumberShogi {
    board: [Cell; SQUARES],
    /// Occupied squares per colour.
    occ: [Bb; 2],
    /// `hand[color][value]`: pieces in hand (in the placement phase: the reserve).
    hand: [[u8; 7]; 2],
    side: Color,
    /// Number of the next ply.
    ply: u32,
    placing: bool,
    /// The side whose hand sums to 7 (game over).
    winner: Option<Color>,
    key: u64,
    rules: Carried,
}

impl PartialEq for NumberShogi {
    fn eq(&self, o: &Self) -> bool {
        self.board == o.board && self.hand == o.hand && self.side == o.side && self.placing == o.placing
    }
}

impl NumberShogi {
    /// Whether the position is in the placement phase.
    pub fn is_placement(&self) -> bool {
        self.placing
    }
    /// The pieces in a side's hand, by value (index 1..6).
    pub fn hand(&self, color: Color) -> [u8; 7] {
        self.hand[color.index()]
    }
    /// The rules this position is played under.
    pub fn rules(&self) -> &Carried {
        &self.rules
    }
    /// Whether a move captures.
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && self.board[mv.to()] != EMPTY
    }
    /// Reads a token without a position: `Ok(None)` is never returned; errors are syntax.
    fn parse_token(token: &str) -> Option<Move> {
        let b = token.as_bytes();
        match b.len() {
            4 if b[1] == b'*' => {
                if !b[0].is_ascii_uppercase() {
                    return None;
                }
                let v = value_of_letter(b[0] as char)?;
                Some(Move::drop(v, parse_square(b[2], b[3])?))
            }
            4 | 5 => {
                if b.len() == 5 && b[4] != b'+' {
                    return None;
                }
                let from = parse_square(b[0], b[1])?;
                let to = parse_square(b[2], b[3])?;
                if from == to {
                    return None;
                }
                Some(Move::board(from, to, b.len() == 5))
            }
            _ => None,
        }
    }
}

impl Game for NumberShogi {
    type Move = Move;
    type Rules = Rules;

    const NAME: &'static str = "numbershogi";
    const APPEARANCE: Appearance = Appearance {
        title: "Number Shogi",
        light: "#edca85",
        dark: "#edca85",
        pieces: PieceStyle::Numbers,
        ..Appearance::SHOGI
    };
    const FILES: usize = board::FILES;
    const RANKS: usize = board::RANKS;
    const REPETITION_LIMIT: usize = 4;
    /// rules.md: the seed's setup is hidden and simultaneous.
    const HIDDEN_SETUP: bool = true;

    fn switches() -> &'static [Switch<Rules>] {
        &switches::SWITCHES
    }

    fn startpos(rules: &Rules) -> Self {
        let mut hand = [[0u8; 7]; 2];
        for h in hand.iter_mut() {
            for n in h.iter_mut().skip(1) {
                *n = 1;
            }
        }
        NumberShogi::assemble([EMPTY; SQUARES], hand, Color::Sente, 1, rules.carried())
    }
    fn from_sfen(sfen: &str, rules: &Rules) -> Result<Self, SfenError> {
        NumberShogi::parse_sfen(sfen, &rules.carried())
    }
    fn to_sfen(&self) -> String {
        self.write_sfen()
    }
    fn diagram(&self) -> String {
        self.draw_diagram()
    }
    fn in_placement(&self) -> bool {
        self.placing
    }
    fn result_reason(&self) -> Option<&'static str> {
        self.winner.map(|_| "sum of seven")
    }
    fn no_move_reason(&self) -> &'static str {
        "no legal move"
    }

    fn side_to_move(&self) -> Color {
        self.side
    }
    fn attackers(&self, by: Color, square: &str) -> Option<Vec<String>> {
        let b = square.as_bytes();
        let Some(sq) = (if b.len() == 2 { parse_square(b[0], b[1]) } else { None }) else {
            return Some(Vec::new());
        };
        let from = (0..SQUARES).filter(|&a| {
            let cell = self.board[a];
            cell != EMPTY && board::owner(cell) == by && self.steps(a) & (1 << sq) != 0
        });
        Some(from.map(board::square_name).collect())
    }
    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.generate(out);
    }
    fn play(&mut self, mv: Move) {
        self.make(mv);
    }
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let mv = NumberShogi::parse_token(token).ok_or_else(|| MoveError::Syntax(token.to_string()))?;
        if self.winner.is_some() {
            return Err(MoveError::GameOver(token.to_string()));
        }
        let mut list = Vec::with_capacity(128);
        self.generate(&mut list);
        if list.is_empty() {
            return Err(MoveError::GameOver(token.to_string()));
        }
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(token.to_string(), self.illegal_reason(mv)))
        }
    }
    fn write_move(&self, mv: Move, out: &mut String) {
        mv.write_token(out)
    }

    fn key(&self) -> u64 {
        self.key
    }
    fn result(&self) -> Option<Outcome> {
        self.winner.map(|w| if w == self.side { Outcome::Win } else { Outcome::Loss })
    }
}

impl Strategy for NumberShogi {
    const MATE_BY_SOLVER: bool = true;
    const SOLVE_FIRST: bool = true;
    const BENCH_POSITIONS: &'static [&'static str] =
        &["cfb/ead/3/DAE/BFC b - 1", "df1/ECB/cf1/3/D+eA b Ba 33", "e1a/bCd/1A1/3/B+fC b Edf 27"];
    const BENCH_DEPTH: u32 = 14;

    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }
    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotes() || self.is_capture(mv)
    }
    fn order_score(&self, mv: Move) -> i32 {
        eval::order_score(self, mv)
    }
    fn move_id(mv: Move) -> u32 {
        mv.0 as u32
    }
    fn book_move(&self, choice: &BookChoice) -> Option<Move> {
        setup::book_move(self, choice)
    }
    fn prepare() {
        // The table is read and checked once; an error is reported at the first move.
        let _ = std::thread::Builder::new().name("solution".into()).spawn(|| {
            let _ = solution::builtin();
        });
    }
    fn take_switches(&mut self, rules: &Rules) {
        (self.rules.arrangement, self.rules.table) = (rules.arrangement, rules.table.id());
    }
    fn known(&self) -> Option<Result<Known<Move>, String>> {
        solution::known(self)
    }
}

impl Notation for NumberShogi {
    /// Pieces A..F (values 1..6) with holdings; xboard gets a 3x5 `fairy` board with the
    /// six pieces and their promoted sides (all king steps) defined by `piece`, moves as
    /// the default direction table of rules.md section 3.
    const CHESS_NOTATION: Option<ChessNotation> = Some(ChessNotation {
        xboard_name: "numbershogi",
        holdings: true,
        xboard_pieces: "ABCDEF.....++++++Kabcdef.....++++++k",
        xboard_parent: "fairy",
        xboard_moves: &[
            ("A", "fW@5"),
            ("B", "fF@5"),
            ("C", "fWfF@5"),
            ("D", "F@5"),
            ("E", "fWF@5"),
            ("F", "WfF@5"),
            ("+A", "K"),
            ("+B", "K"),
            ("+C", "K"),
            ("+D", "K"),
            ("+E", "K"),
            ("+F", "K"),
        ],
    });
}
