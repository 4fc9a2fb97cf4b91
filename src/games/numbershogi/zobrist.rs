//! Zobrist keys, fixed at compile time (splitmix64).

use crate::game::zobrist::{next, table};

use super::board::SQUARES;

pub(super) struct Keys {
    /// `piece[cell][sq]`, cell as in `board::Cell` (0 = empty has key 0).
    pub(crate) piece: [[u64; SQUARES]; 32],
    /// `hand[color][value][count]`, count 0 has key 0.
    pub(crate) hand: [[[u64; 4]; 7]; 2],
    pub(crate) gote_to_move: u64,
    pub(crate) placing: u64,
}

const fn build() -> Keys {
    let mut k = Keys { piece: [[0; SQUARES]; 32], hand: [[[0; 4]; 7]; 2], gote_to_move: 0, placing: 0 };
    let mut state = 0x6E75_6D62_6572_7368u64; // "numbersh"
    k.piece = table(&mut state, 1, 0);
    let mut color = 0;
    while color < 2 {
        k.hand[color] = table(&mut state, 1, 1);
        color += 1;
    }
    k.gote_to_move = next(&mut state);
    k.placing = next(&mut state);
    k
}

pub(super) static KEYS: Keys = build();

/// Key of a hand count (counts above 3 cannot occur: each value exists twice).
#[inline]
pub(super) fn hand_key(color: usize, value: usize, count: u8) -> u64 {
    KEYS.hand[color][value][(count as usize).min(3)]
}
