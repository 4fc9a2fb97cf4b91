//! Zobrist keys for a crab board: one per (square, cell byte) and one for the side.

use super::cell::Cells;
use crate::game::Color;

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = x;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn table(seed: u64) -> [[u64; 32]; 25] {
    let mut t = [[0u64; 32]; 25];
    let mut s = 0;
    while s < 25 {
        let mut c = 0;
        while c < 32 {
            t[s][c] = splitmix(seed ^ ((s as u64) << 8 | c as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
            c += 1;
        }
        s += 1;
    }
    t
}

const KEYS: [[u64; 32]; 25] = table(0x6b61_6e69);
const SIDE: u64 = splitmix(0x7369_6465);

/// The key of a board with `side` to move, salted per game.
pub fn key(cells: &Cells, side: Color, salt: u64) -> u64 {
    let mut k = salt;
    for (sq, &c) in cells.iter().enumerate() {
        if c != 0 {
            k ^= KEYS[sq][(c & 31) as usize];
        }
    }
    if side == Color::Gote {
        k ^= SIDE;
    }
    k
}
