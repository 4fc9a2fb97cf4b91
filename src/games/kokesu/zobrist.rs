//! Zobrist keys, generated at compile time (splitmix64), so nothing is set up at run time.

use crate::games::zobrist::next;

const fn piece_keys() -> [[u64; 64]; 12] {
    let mut t = [[0u64; 64]; 12];
    let mut state = 0x6b6f_6b65_7375_u64; // "kokesu"
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            let v = next(&mut state);
            t[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    t
}

/// `PIECE_SQUARE[color * 6 + kind][square]`.
pub static PIECE_SQUARE: [[u64; 64]; 12] = piece_keys();
/// XORed in when gote is to move.
pub const GOTE_TO_MOVE: u64 = 0x3c6e_f372_fe94_f82b;
