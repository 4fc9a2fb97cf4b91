//! One position type and one [`Game`] implementation for both crab games. A crab game
//! supplies what is its own (name, switches, pieces, start, end conditions, evaluation)
//! by implementing [`CrabGame`] on its rules type, and names its position
//! `Crab<its Rules>`.

use std::fmt::Debug;

use super::cell::{self, Cells, EMPTY};
use super::square::square;
use super::{sfen, turn, zobrist, CrabMove};
use crate::game::{Appearance, Color, Game, MoveError, Notation, Outcome, PieceStyle, SfenError, Strategy, Switch};

/// The look of a crab board: sand, the home files tinted (black's file 5, red's file 1);
/// crabs that grow. Each game names its water (file 3).
pub const CRAB_BOARD: Appearance = Appearance {
    title: "",
    light: "#efe0b9",
    dark: "#efe0b9",
    line: "#9a8357",
    tinted: &[(5, "#e3dccb"), (1, "#f4d9d4")],
    water: None,
    pieces: PieceStyle::Crabs,
    hands: false,
    pointed: false,
    promote: "Grow",
    stay: "Stay as it is",
    chess: false,
};

/// What one crab game adds to the shared core, implemented by its rules type (the
/// values of its switches), which also gives the turn rules through [`turn::Variant`],
/// its letters through [`CrabLetters`] (in its `sfen.rs`) and its evaluation through
/// [`CrabEval`] (in its `eval.rs`).
pub trait CrabGame:
    turn::Variant + CrabLetters + CrabEval + Copy + Default + Debug + PartialEq + Send + Sync + 'static
{
    const NAME: &'static str;
    /// [`Game::APPEARANCE`]: [`CRAB_BOARD`] with the game's title, water and pieces.
    const APPEARANCE: Appearance;
    /// Mixed into the Zobrist keys, so the two games never share hash entries.
    const SALT: u64;
    /// Its switches (rules.md: every switch is a setoption).
    const SWITCHES: &'static [Switch<Self>];
    const BENCH_POSITIONS: &'static [&'static str];
    const BENCH_DEPTH: u32;

    /// The start position (black to move): the kinds on black's home column (file 5) and
    /// on red's (file 1), ranks a to e; every other square empty.
    const HOME: [[u8; 5]; 2];
    /// The diagram's status after side and ply (captures, promotions, ...).
    fn status(cells: &Cells) -> String;
}

/// A crab game's SFEN letters.
pub trait CrabLetters {
    /// The cell byte of an SFEN letter (with `+` before it: `promoted`).
    fn piece(ch: char, promoted: bool) -> Result<u8, String>;
    /// The SFEN letter of a cell byte.
    fn letter(cell: u8) -> char;
    /// Checks a board read from SFEN beyond its letters (piece counts, ...).
    fn validate(_cells: &Cells) -> Result<(), SfenError> {
        Ok(())
    }
}

/// A crab game's evaluation and move ordering.
pub trait CrabEval {
    /// Static evaluation from `side`'s view.
    fn evaluate(&self, cells: &Cells, side: Color) -> i32;
    /// Move ordering hint, larger first.
    fn order_score(mv: CrabMove) -> i32;
}

/// A crab-game position: the board, side to move, ply and the game's rules.
#[derive(Clone, Debug)]
pub struct Crab<R> {
    cells: Cells,
    side: Color,
    ply: u32,
    key: u64,
    rules: R,
}

/// The same position: board, side to move and rules (not the ply).
impl<R: CrabGame> PartialEq for Crab<R> {
    fn eq(&self, o: &Self) -> bool {
        self.cells == o.cells && self.side == o.side && self.rules == o.rules
    }
}

impl<R: CrabGame> Crab<R> {
    fn new(cells: Cells, side: Color, ply: u32, rules: R) -> Self {
        Crab { cells, side, ply, key: zobrist::key(&cells, side, R::SALT), rules }
    }

    /// The squares (read-only).
    pub fn cells(&self) -> &Cells {
        &self.cells
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }
}

impl<R: CrabGame> Game for Crab<R> {
    type Move = CrabMove;
    type Rules = R;

    const NAME: &'static str = R::NAME;
    const APPEARANCE: Appearance = R::APPEARANCE;
    const FILES: usize = 5;
    const RANKS: usize = 5;
    const REPETITION_LIMIT: usize = 4;

    fn switches() -> &'static [Switch<R>] {
        R::SWITCHES
    }

    fn startpos(rules: &R) -> Self {
        let mut cells = [EMPTY; 25];
        for r in 0..5 {
            cells[square(5, r)] = cell::make(Color::Sente, R::HOME[0][r], false);
            cells[square(1, r)] = cell::make(Color::Gote, R::HOME[1][r], false);
        }
        Crab::new(cells, Color::Sente, 1, *rules)
    }

    fn from_sfen(text: &str, rules: &R) -> Result<Self, SfenError> {
        let (cells, side, ply) = sfen::parse(text, R::piece)?;
        R::validate(&cells)?;
        Ok(Crab::new(cells, side, ply, *rules))
    }

    fn to_sfen(&self) -> String {
        sfen::write(&self.cells, self.side, self.ply, R::letter)
    }

    fn diagram(&self) -> String {
        sfen::diagram(&self.cells, R::letter)
    }

    const SIDE_NAMES: [&'static str; 2] = ["black", "red"];

    fn status(&self) -> Option<String> {
        Some(R::status(&self.cells))
    }

    fn result_reason(&self) -> Option<&'static str> {
        self.rules.outcome_rule(&self.cells, self.side).map(|(_, rule)| rule)
    }

    fn no_move_reason(&self) -> &'static str {
        "no legal move"
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn legal_moves(&self, out: &mut Vec<CrabMove>) {
        if self.result().is_none() {
            turn::generate(&self.rules, &self.cells, self.side, out);
        }
    }

    fn play(&mut self, mv: CrabMove) {
        turn::apply_turn(&self.rules, &mut self.cells, self.side, mv);
        self.side = self.side.flip();
        self.ply = self.ply.saturating_add(1);
        self.key = zobrist::key(&self.cells, self.side, R::SALT);
    }

    fn parse_move(&self, token: &str) -> Result<CrabMove, MoveError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        turn::parse_turn(token, &legal, &self.cells, self.side)
    }

    fn write_move(&self, mv: CrabMove, out: &mut String) {
        mv.write_token(out)
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn result(&self) -> Option<Outcome> {
        self.rules.outcome(&self.cells, self.side)
    }
}

impl<R: CrabGame> Strategy for Crab<R> {
    const MATE_BY_SOLVER: bool = true;
    const BENCH_POSITIONS: &'static [&'static str] = R::BENCH_POSITIONS;
    const BENCH_DEPTH: u32 = R::BENCH_DEPTH;

    fn evaluate(&self) -> i32 {
        self.rules.evaluate(&self.cells, self.side)
    }

    fn is_tactical(&self, mv: CrabMove) -> bool {
        mv.promotes() || mv.gain() != 0
    }

    fn order_score(&self, mv: CrabMove) -> i32 {
        R::order_score(mv)
    }

    fn move_id(mv: CrabMove) -> u32 {
        mv.token_bits()
    }
}

impl<R: CrabGame> Notation for Crab<R> {}
