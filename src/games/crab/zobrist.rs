//! Zobrist keys for a crab board: one per (square, cell byte) and one for the side.

use super::cell::Cells;
use crate::game::zobrist::next;
use crate::game::Color;

const fn table(seed: u64) -> [[u64; 32]; 25] {
    let mut t = [[0u64; 32]; 25];
    let mut s = 0;
    while s < 25 {
        let mut c = 0;
        while c < 32 {
            t[s][c] = next(&mut (seed ^ ((s as u64) << 8 | c as u64).wrapping_mul(0x2545_f491_4f6c_dd1d)));
            c += 1;
        }
        s += 1;
    }
    t
}

const KEYS: [[u64; 32]; 25] = table(0x6b61_6e69);
const SIDE: u64 = next(&mut 0x7369_6465);

/// The key of a board with `side` to move, salted per game.
pub(crate) fn key(cells: &Cells, side: Color, salt: u64) -> u64 {
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
