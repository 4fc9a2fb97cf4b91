//! Kani Shogi (`kanishogi`, かに将棋, GameNOWA 2014; rules.md §4): a sandwich game of
//! crabs on a 5x5 board with a river.
//!
//! - Each side has a parent `K` and four children `A`..`D` carrying pips 1..4, starting
//!   on its home column (black file 5, red file 1): `A3b/D3c/K3k/C3d/B3a b - 1`.
//! - Every crab slides sideways (along its rank) over empty squares, crossing the river
//!   if it likes. A grown child `+A`..`+D` also steps one square diagonally (switch
//!   `KaniShogiGrownMove=diagonal`: only that).
//! - The river is file 3. A child stopping there (normal or bond move) is carried up or
//!   down to the farthest free river square; entering on the top or bottom rank it can
//!   only flow inward, and it must flow a way it actually moves if there is one. The
//!   parent may stay or drift any number of free river squares. Pieces in the river
//!   leave it sideways; moves always change file, so no "already carried" state exists.
//! - A child ending on the enemy home column may grow (`+`).
//! - The moved piece captures enemy runs sandwiched against a friendly piece and, on the
//!   same board, enemy groups touching the edge whose every neighbour is its side's
//!   (wall capture); all are removed together.
//! - If the moved piece then touches a friendly piece, one piece of its connected group
//!   may make a diagonal bond step, with river, growth and captures: `<normal>,<bond>`.
//! - End, after each capture step: a parent captured; three children captured; two each,
//!   decided by pip sum, then by the larger pip (the same pips play on). No normal move
//!   at the start of a turn loses.

pub mod eval;
pub mod rules;
pub mod sfen;

use crate::game::{Color, Game, MoveError, Outcome, RuleError, RuleKind, RuleOption, SfenError};
use crate::games::crab::cell::{self, Cells};
use crate::games::crab::square::square;
use crate::games::crab::{sfen as crab_sfen, turn, zobrist, CrabMove};
pub use rules::{GrownMove, Rules};

const SALT: u64 = 0x4b53_4800_0000_0002;

/// A Kani Shogi position.
#[derive(Clone, Debug)]
pub struct KaniShogi {
    cells: Cells,
    side: Color,
    ply: u32,
    key: u64,
    rules: Rules,
}

impl KaniShogi {
    fn new(cells: Cells, side: Color, ply: u32, rules: Rules) -> Self {
        KaniShogi { cells, side, ply, key: zobrist::key(&cells, side, SALT), rules }
    }

    /// The squares (read-only).
    pub fn cells(&self) -> &Cells {
        &self.cells
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The pips of the enemy children `color` has captured, in increasing order.
    pub fn captured_pips(&self, color: Color) -> Vec<u8> {
        let lost = rules::pips_lost(&self.cells, color.flip());
        (1..=4).filter(|p| lost & (1 << p) != 0).collect()
    }
}

const OPTIONS: &[RuleOption] = &[RuleOption {
    name: rules::GROWN_OPTION,
    kind: RuleKind::Combo(&["sideways+diagonal", "diagonal"]),
    default: "sideways+diagonal",
}];

impl Game for KaniShogi {
    type Move = CrabMove;
    type Rules = Rules;

    const NAME: &'static str = "kanishogi";
    const FILES: usize = 5;
    const RANKS: usize = 5;
    const REPETITION_LIMIT: usize = 4;
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "2C2/3c1/1D1kb/2AKd/3Ba w - 14",
        "A4/1D2c/2b2/KC1ak/2d2 w - 20",
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
        // black file 5, ranks a..e: A D K C B; red file 1: b c k d a
        let black = [2u8, 5, 1, 4, 3];
        let red = [3u8, 4, 1, 5, 2];
        for r in 0..5 {
            cells[square(5, r)] = cell::make(Color::Sente, black[r], false);
            cells[square(1, r)] = cell::make(Color::Gote, red[r], false);
        }
        KaniShogi::new(cells, Color::Sente, 1, *rules)
    }

    fn from_sfen(sfen: &str, rules: &Rules) -> Result<Self, SfenError> {
        let (cells, side, ply) = crab_sfen::parse(sfen, sfen::piece)?;
        sfen::validate(&cells)?;
        Ok(KaniShogi::new(cells, side, ply, *rules))
    }

    fn to_sfen(&self) -> String {
        crab_sfen::write(&self.cells, self.side, self.ply, sfen::letter)
    }

    fn diagram(&self) -> String {
        let mut s = crab_sfen::diagram(&self.cells, sfen::letter);
        s.push_str(&format!(
            "side {}  ply {}  captured pips: black {:?} red {:?}",
            if self.side == Color::Sente { "black (b)" } else { "red (w)" },
            self.ply,
            self.captured_pips(Color::Sente),
            self.captured_pips(Color::Gote),
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
