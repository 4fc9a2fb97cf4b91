//! Kani Shogi letters: `K` parent, `A`..`D` children with pips 1..4, `+A`..`+D` grown
//! (lowercase for red). Each side has at most one parent and each pip at most once.

use super::rules::{is_parent, pip, Rules, PARENT};
use crate::game::{Color, SfenError};
use crate::games::crab::cell::{self, Cells};
use crate::games::crab::game::CrabLetters;

impl CrabLetters for Rules {
    /// The cell byte of an SFEN letter.
    fn piece(ch: char, promoted: bool) -> Result<u8, String> {
        let color = if ch.is_ascii_uppercase() { Color::Sente } else { Color::Gote };
        let kind = match ch.to_ascii_uppercase() {
            'K' if promoted => return Err("a parent crab never grows ('+K')".to_string()),
            'K' => PARENT,
            c @ 'A'..='D' => PARENT + (c as u8 - b'A' + 1),
            _ => return Err(format!("'{ch}' is not a Kani Shogi piece (K, A-D, +A-+D)")),
        };
        Ok(cell::make(color, kind, promoted))
    }

    /// The letter of a cell byte.
    fn letter(c: u8) -> char {
        let l = if is_parent(c) { 'K' } else { char::from(b'A' + pip(c) - 1) };
        if cell::is(c, Color::Sente) {
            l
        } else {
            l.to_ascii_lowercase()
        }
    }

    /// Rejects a pip or a parent twice for one side, and a board with no parent at all.
    fn validate(cells: &Cells) -> Result<(), SfenError> {
        let mut parents = 0;
        for color in [Color::Sente, Color::Gote] {
            let mut seen = [0u8; 5];
            for &c in cells.iter().filter(|&&c| cell::is(c, color)) {
                let k = pip(c) as usize;
                seen[k] += 1;
                if seen[k] > 1 {
                    let what = if k == 0 { "parent".to_string() } else { format!("pip {k}") };
                    return Err(SfenError::Invalid(format!("{color:?} has its {what} twice")));
                }
            }
            parents += seen[0];
        }
        if parents == 0 {
            return Err(SfenError::Invalid("neither parent crab is on the board".to_string()));
        }
        Ok(())
    }
}
