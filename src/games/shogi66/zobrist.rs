//! Zobrist keys, made at compile time from a fixed seed (splitmix64).

use crate::game::zobrist::{next, table};

use super::board::SQUARES;

/// Largest hand count a key exists for (12 pawns fit).
pub(super) const MAX_HAND: usize = 16;

pub(super) struct Keys {
    /// Per piece byte and square.
    pub(crate) piece: [[u64; SQUARES]; 32],
    /// Per colour, hand kind and count.
    pub(crate) hand: [[[u64; MAX_HAND]; 9]; 2],
    /// Gote to move.
    pub(crate) side: u64,
    /// In the placement phase.
    pub(crate) placing: u64,
}

const fn build() -> Keys {
    let mut k = Keys { piece: [[0; SQUARES]; 32], hand: [[[0; MAX_HAND]; 9]; 2], side: 0, placing: 0 };
    let mut st = 0x6606_5A0B_1C2D_3E4Fu64;
    k.piece = table(&mut st, 0, 0);
    let mut c = 0;
    while c < 2 {
        k.hand[c] = table(&mut st, 0, 1); // count 0 hashes as 0
        c += 1;
    }
    k.side = next(&mut st);
    k.placing = next(&mut st);
    k
}

pub(super) static KEYS: Keys = build();
