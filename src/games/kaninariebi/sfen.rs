//! Kani Nari Ebi letters: `C` crab, `+C` shrimp (lowercase for red).

use super::rules::{Rules, Tally, CRAB, PIECES};
use crate::game::{Color, SfenError};
use crate::games::crab::cell::{self, Cells};
use crate::games::crab::game::CrabLetters;

impl CrabLetters for Rules {
    /// The cell byte of an SFEN letter.
    fn piece(ch: char, promoted: bool) -> Result<u8, String> {
        match ch {
            'C' => Ok(cell::make(Color::Sente, CRAB, promoted)),
            'c' => Ok(cell::make(Color::Gote, CRAB, promoted)),
            _ => Err(format!("'{ch}' is not a Kani Nari Ebi piece (C, +C)")),
        }
    }

    /// The letter of a cell byte.
    fn letter(c: u8) -> char {
        if cell::is(c, Color::Sente) {
            'C'
        } else {
            'c'
        }
    }

    /// Rejects a board no game reaches: a game ends on the turn a side makes its third
    /// shrimp or its third capture, and only the mover's counts change on a turn, so at most
    /// one side has won and no side has more than three shrimps.
    fn validate(cells: &Cells) -> Result<(), SfenError> {
        let tally = Tally::of(cells);
        let invalid = |why: String| Err(SfenError::Invalid(why));
        let won = |color: Color| {
            let captures = PIECES.saturating_sub(tally.pieces(color.flip()));
            if tally.shrimps(color) >= 3 {
                Some(format!("{} shrimps", tally.shrimps(color)))
            } else if captures >= 3 {
                Some(format!("{captures} captures"))
            } else {
                None
            }
        };
        for (color, name) in [(Color::Sente, "black"), (Color::Gote, "red")] {
            if tally.shrimps(color) > 3 {
                return invalid(format!("{name} has {} shrimps; the game ends at the third", tally.shrimps(color)));
            }
        }
        if let (Some(black), Some(red)) = (won(Color::Sente), won(Color::Gote)) {
            return invalid(format!(
                "both sides have already won (black: {black}, red: {red}); the game ends when the first does"
            ));
        }
        Ok(())
    }
}
