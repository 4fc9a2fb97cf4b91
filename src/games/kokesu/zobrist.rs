//! Zobrist keys, generated at compile time (splitmix64), so nothing is set up at run time.

use crate::game::zobrist::table;

/// `PIECE_SQUARE[color * 6 + kind][square]`.
pub(super) static PIECE_SQUARE: [[u64; 64]; 12] = table(&mut 0x6b6f_6b65_7375, 0, 0); // "kokesu"
/// XORed in when gote is to move.
pub(super) const GOTE_TO_MOVE: u64 = 0x3c6e_f372_fe94_f82b;
