//! Zobrist keys, fixed at compile time (splitmix64).

use super::board::SQUARES;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

pub struct Keys {
    /// `piece[cell][sq]`, cell as in `board::Cell` (0 = empty has key 0).
    pub piece: [[u64; SQUARES]; 32],
    /// `hand[color][value][count]`, count 0 has key 0.
    pub hand: [[[u64; 4]; 7]; 2],
    pub gote_to_move: u64,
    pub placing: u64,
}

const fn build() -> Keys {
    let mut k = Keys {
        piece: [[0; SQUARES]; 32],
        hand: [[[0; 4]; 7]; 2],
        gote_to_move: 0,
        placing: 0,
    };
    let mut state = 0x6E75_6D62_6572_7368u64; // "numbersh"
    let mut c = 1;
    while c < 32 {
        let mut sq = 0;
        while sq < SQUARES {
            let (s, z) = splitmix(state);
            state = s;
            k.piece[c][sq] = z;
            sq += 1;
        }
        c += 1;
    }
    let mut color = 0;
    while color < 2 {
        let mut v = 1;
        while v < 7 {
            let mut n = 1;
            while n < 4 {
                let (s, z) = splitmix(state);
                state = s;
                k.hand[color][v][n] = z;
                n += 1;
            }
            v += 1;
        }
        color += 1;
    }
    let (s, z) = splitmix(state);
    k.gote_to_move = z;
    let (_, z) = splitmix(s);
    k.placing = z;
    k
}

pub static KEYS: Keys = build();

/// Key of a hand count (counts above 3 cannot occur: each value exists twice).
#[inline]
pub fn hand_key(color: usize, value: usize, count: u8) -> u64 {
    KEYS.hand[color][value][(count as usize).min(3)]
}
