//! Zobrist keys, made at compile time from a fixed seed (splitmix64).

use crate::games::zobrist::next;

use super::board::SQUARES;

/// Largest hand count a key exists for (12 pawns fit).
pub const MAX_HAND: usize = 16;

pub struct Keys {
    /// Per piece byte and square.
    pub piece: [[u64; SQUARES]; 32],
    /// Per colour, hand kind and count.
    pub hand: [[[u64; MAX_HAND]; 9]; 2],
    /// Gote to move.
    pub side: u64,
    /// In the placement phase.
    pub placing: u64,
}

const fn build() -> Keys {
    let mut k = Keys { piece: [[0; SQUARES]; 32], hand: [[[0; MAX_HAND]; 9]; 2], side: 0, placing: 0 };
    let mut st = 0x6606_5A0B_1C2D_3E4Fu64;
    let mut p = 0;
    while p < 32 {
        let mut s = 0;
        while s < SQUARES {
            let v = next(&mut st);
            k.piece[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let mut c = 0;
    while c < 2 {
        let mut h = 0;
        while h < 9 {
            let mut n = 1; // count 0 hashes as 0
            while n < MAX_HAND {
                let v = next(&mut st);
                k.hand[c][h][n] = v;
                n += 1;
            }
            h += 1;
        }
        c += 1;
    }
    k.side = next(&mut st);
    k.placing = next(&mut st);
    k
}

pub static KEYS: Keys = build();
