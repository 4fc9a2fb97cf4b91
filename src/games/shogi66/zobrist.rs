//! Zobrist keys, made at compile time from a fixed seed (splitmix64).

use super::board::SQUARES;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

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
            let (n, v) = splitmix(st);
            st = n;
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
                let (ns, v) = splitmix(st);
                st = ns;
                k.hand[c][h][n] = v;
                n += 1;
            }
            h += 1;
        }
        c += 1;
    }
    let (ns, v) = splitmix(st);
    k.side = v;
    let (_, v) = splitmix(ns);
    k.placing = v;
    k
}

pub static KEYS: Keys = build();
