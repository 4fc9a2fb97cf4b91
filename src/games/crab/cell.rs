//! The contents of one square, as a byte: 0 is empty; otherwise bit 0 is the colour
//! (0 black/sente, 1 red/gote), bits 1..=3 a game-specific kind (never 0) and bit 4 the
//! promoted (shrimp / grown) flag.

use crate::game::Color;

/// The 25 squares of a crab board.
pub type Cells = [u8; super::square::SQUARES];

pub const EMPTY: u8 = 0;
const PROMOTED: u8 = 0x10;

/// A piece of `color` and `kind` (1..=7).
pub const fn make(color: Color, kind: u8, promoted: bool) -> u8 {
    (color as u8) | (kind << 1) | if promoted { PROMOTED } else { 0 }
}

/// The owner of a piece, `None` for an empty square.
#[inline]
pub fn color(cell: u8) -> Option<Color> {
    match cell {
        EMPTY => None,
        c if c & 1 == 0 => Some(Color::Sente),
        _ => Some(Color::Gote),
    }
}

/// Whether the square holds a piece of `color`.
#[inline]
pub fn is(cell: u8, color: Color) -> bool {
    cell != EMPTY && (cell & 1) == color as u8
}

#[inline]
pub const fn kind(cell: u8) -> u8 {
    (cell >> 1) & 7
}

#[inline]
pub const fn promoted(cell: u8) -> bool {
    cell & PROMOTED != 0
}

#[inline]
pub const fn promote(cell: u8) -> u8 {
    cell | PROMOTED
}

/// Number of pieces of `color` on the board.
pub fn count(cells: &Cells, color: Color) -> usize {
    cells.iter().filter(|&&c| is(c, color)).count()
}
