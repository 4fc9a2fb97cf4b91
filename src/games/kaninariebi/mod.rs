//! Kani Nari Ebi (`kaninariebi`, rules.md §5): the crab and shrimp game of Board Game
//! Arena on a 5x5 board.
//!
//! - Each side starts with five crabs `C` on its home column (black file 5, red file 1).
//! - A crab slides sideways (along its rank) over empty squares, crossing file 3 if it
//!   likes; a shrimp `+C` steps one square diagonally.
//! - File 3 is the current: a piece that stops there (normal or bond move) is carried up
//!   or down, the mover's choice, as far as it goes; either direction may be chosen even
//!   if the piece does not move. The token names the final square.
//! - A crab ending on the enemy home column may become a shrimp (`+`).
//! - The moved piece captures every run of enemy pieces in its rank and file closed by a
//!   friendly piece. No edge captures; moving between two enemies is safe.
//! - If the moved piece then touches a friendly piece of its own type (switch
//!   `KaniNariEbiBonds=any`: any friendly piece), one piece of its connected group may
//!   make a diagonal bond step with its own current, promotion and captures:
//!   `<normal>,<bond>`.
//! - A side wins on the spot with three shrimps on the board or three captures (checked
//!   after each part of the turn), or when the opponent has no normal move.

pub mod eval;
pub mod rules;
pub mod sfen;

use crate::game::{Color, Game, MoveError, Outcome, RuleError, RuleKind, RuleOption, SfenError};
use crate::games::crab::cell::{self, Cells};
use crate::games::crab::square::square;
use crate::games::crab::{sfen as crab_sfen, turn, zobrist, CrabMove};
pub use rules::{Bonds, Rules};

const SALT: u64 = 0x4b4e_4500_0000_0001;

/// A Kani Nari Ebi position.
#[derive(Clone, Debug)]
pub struct KaniNariEbi {
    cells: Cells,
    side: Color,
    ply: u32,
    key: u64,
    rules: Rules,
}

impl KaniNariEbi {
    fn new(cells: Cells, side: Color, ply: u32, rules: Rules) -> Self {
        KaniNariEbi { cells, side, ply, key: zobrist::key(&cells, side, SALT), rules }
    }

    /// The squares (read-only).
    pub fn cells(&self) -> &Cells {
        &self.cells
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Pieces `color` has captured (derived from the enemy pieces missing).
    pub fn captured_by(&self, color: Color) -> usize {
        rules::PIECES.saturating_sub(cell::count(&self.cells, color.flip()))
    }
}

const OPTIONS: &[RuleOption] =
    &[RuleOption { name: rules::BONDS_OPTION, kind: RuleKind::Combo(&["same-type", "any"]), default: "same-type" }];

impl Game for KaniNariEbi {
    type Move = CrabMove;
    type Rules = Rules;

    const NAME: &'static str = "kaninariebi";
    const FILES: usize = 5;
    const RANKS: usize = 5;
    const REPETITION_LIMIT: usize = 4;
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "2C2/2C+C+C/1c2c/5/1Cccc b - 15",
        "C1cC1/3Cc/2C2/+c1cc1/1C3 b - 17",
    ];
    const BENCH_DEPTH: u32 = 8;

    fn rule_options() -> &'static [RuleOption] {
        OPTIONS
    }

    fn set_rule(rules: &mut Rules, name: &str, value: &str) -> Result<(), RuleError> {
        rules.set(name, value)
    }

    fn startpos(rules: &Rules) -> Self {
        let mut cells = [cell::EMPTY; 25];
        for r in 0..5 {
            cells[square(5, r)] = cell::make(Color::Sente, rules::CRAB, false);
            cells[square(1, r)] = cell::make(Color::Gote, rules::CRAB, false);
        }
        KaniNariEbi::new(cells, Color::Sente, 1, *rules)
    }

    fn from_sfen(sfen: &str, rules: &Rules) -> Result<Self, SfenError> {
        let (cells, side, ply) = crab_sfen::parse(sfen, sfen::piece)?;
        Ok(KaniNariEbi::new(cells, side, ply, *rules))
    }

    fn to_sfen(&self) -> String {
        crab_sfen::write(&self.cells, self.side, self.ply, sfen::letter)
    }

    fn diagram(&self) -> String {
        let mut s = crab_sfen::diagram(&self.cells, sfen::letter);
        s.push_str(&format!(
            "side {}  ply {}  captured: black {} red {}  shrimps: black {} red {}",
            if self.side == Color::Sente { "black (b)" } else { "red (w)" },
            self.ply,
            self.captured_by(Color::Sente),
            self.captured_by(Color::Gote),
            rules::shrimps(&self.cells, Color::Sente),
            rules::shrimps(&self.cells, Color::Gote),
        ));
        s
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
        self.key = zobrist::key(&self.cells, self.side, SALT);
    }

    fn parse_move(&self, token: &str) -> Result<CrabMove, MoveError> {
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        turn::parse_turn(token, &legal, &self.cells, self.side)
    }

    fn format_move(&self, mv: CrabMove) -> String {
        mv.token()
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn result(&self) -> Option<Outcome> {
        turn::Variant::outcome(&self.rules, &self.cells, self.side)
    }

    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.cells, self.side, &self.rules)
    }

    fn is_tactical(&self, mv: CrabMove) -> bool {
        mv.promotes() || mv.gain() != 0
    }

    fn order_score(&self, mv: CrabMove) -> i32 {
        eval::order_score(mv)
    }

    fn move_id(mv: CrabMove) -> u32 {
        mv.token_bits()
    }
}
