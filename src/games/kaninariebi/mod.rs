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
pub(crate) mod rules;
pub(crate) mod sfen;

use crate::game::{Appearance, Color, PieceStyle, Switch, Water};
use crate::games::crab::cell::Cells;
use crate::games::crab::game::{Crab, CrabGame, CRAB_BOARD};
pub use rules::{Bonds, Rules};

/// A Kani Nari Ebi position.
pub type KaniNariEbi = Crab<Rules>;

impl KaniNariEbi {
    /// Pieces `color` has captured (derived from the enemy pieces missing).
    pub fn captured_by(&self, color: Color) -> usize {
        captured_by(self.cells(), color)
    }
}

fn captured_by(cells: &Cells, color: Color) -> usize {
    rules::PIECES.saturating_sub(rules::Tally::of(cells).pieces(color.flip()))
}

impl CrabGame for Rules {
    const NAME: &'static str = "kaninariebi";
    const APPEARANCE: Appearance = Appearance {
        title: "Kani Nari Ebi",
        water: Some(Water { file: 3, name: "current" }),
        pieces: PieceStyle::CrabsAndShrimps,
        promote: "Become a shrimp",
        ..CRAB_BOARD
    };
    const SALT: u64 = 0x4b4e_4500_0000_0001;
    const SWITCHES: &'static [Switch<Rules>] = &[Bonds::switch(rules::BONDS_OPTION, |r, v| {
        r.bonds = Bonds::from_word(v);
        Ok(())
    })];
    const BENCH_POSITIONS: &'static [&'static str] =
        &["2C2/2C+C+C/1c2c/5/1Cccc b - 15", "C1cC1/3Cc/2C2/+c1cc1/1C3 b - 17"];
    const BENCH_DEPTH: u32 = 8;

    /// Five crabs each on the home columns (black file 5, red file 1).
    const HOME: [[u8; 5]; 2] = [[rules::CRAB; 5]; 2];

    fn status(cells: &Cells) -> String {
        format!(
            "captured: black {} red {}  shrimps: black {} red {}",
            captured_by(cells, Color::Sente),
            captured_by(cells, Color::Gote),
            rules::shrimps(cells, Color::Sente),
            rules::shrimps(cells, Color::Gote),
        )
    }
}
