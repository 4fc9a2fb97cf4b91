//! Kani Nari Ebi letters: `C` crab, `+C` shrimp (lowercase for red).

use super::rules::CRAB;
use crate::game::Color;
use crate::games::crab::cell;

/// The cell byte of an SFEN letter.
pub fn piece(ch: char, promoted: bool) -> Result<u8, String> {
    match ch {
        'C' => Ok(cell::make(Color::Sente, CRAB, promoted)),
        'c' => Ok(cell::make(Color::Gote, CRAB, promoted)),
        _ => Err(format!("'{ch}' is not a Kani Nari Ebi piece (C, +C)")),
    }
}

/// The letter of a cell byte.
pub fn letter(c: u8) -> char {
    if cell::is(c, Color::Sente) {
        'C'
    } else {
        'c'
    }
}
