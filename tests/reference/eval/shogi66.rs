//! The hand-set evaluation as it stood before the weights became data
//! (`weights_initial.txt`): kept, for tests only, to prove that the linear form with the
//! initial weights gives exactly the same scores.
//!
//! It lives outside `src/` but is compiled into the library's unit tests
//! (`src/games/shogi66/eval.rs` includes it by `#[path]`): it reads the game's private
//! position and board (and the tests use the crate's test-only `tune::testing`), which
//! an integration test cannot see.
#![allow(dead_code)]

use super::super::board::*;

/// Board value per kind.
const VALUE: [i32; 15] = [0, 100, 280, 300, 480, 540, 620, 720, 0, 520, 500, 500, 520, 850, 980];
/// Hand value per kind.
const HAND_VALUE: [i32; 9] = [0, 115, 310, 330, 530, 590, 700, 800, 0];

/// How much a piece near the enemy king threatens it.
const ATTACK_WEIGHT: [i32; 15] = [0, 6, 10, 14, 22, 24, 22, 26, 0, 24, 24, 24, 24, 34, 38];

fn chebyshev(a: usize, b: usize) -> i32 {
    let dc = (col(a) as i32 - col(b) as i32).abs();
    let dr = (rank(a) as i32 - rank(b) as i32).abs();
    dc.max(dr)
}

/// Score for colour `c` (positive = good for `c`).
fn side_score(pos: &Position, c: usize) -> i32 {
    let mut s = 0;
    let them = 1 - c;
    if pos.placing {
        // The reserve: only one of R and B will be used (the rook while both remain).
        for k in 1..8 {
            s += VALUE[k] * pos.hand[c][k] as i32;
        }
        if pos.hand[c][ROOK as usize] > 0 && pos.hand[c][BISHOP as usize] > 0 {
            s -= VALUE[BISHOP as usize];
        }
    } else {
        for k in 1..8 {
            s += HAND_VALUE[k] * pos.hand[c][k] as i32;
        }
    }
    let ksq = pos.king[c] as usize;
    let eksq = pos.king[them] as usize;
    let mut own = pos.occ[c];
    while own != 0 {
        let sq = own.trailing_zeros() as usize;
        own &= own - 1;
        let k = kind(pos.board[sq]);
        s += VALUE[k as usize];
        let adv = 5 - rel_rank(c, sq) as i32; // 0 on own back rank .. 5 on the far rank
        match k {
            PAWN => s += 6 * adv,
            SILVER | GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => s += 5 * adv.min(4),
            KNIGHT if (col(sq) == 0 || col(sq) == 5) => {
                s -= 10;
            }
            KING => {
                if rel_rank(c, sq) >= 4 {
                    s += 20;
                }
                if col(sq) == 2 || col(sq) == 3 {
                    s -= 15;
                }
            }
            _ => {}
        }
        if pos.placing {
            continue;
        }
        // Defenders next to the own king.
        if ksq < SQUARES && k != KING && chebyshev(sq, ksq) == 1 {
            s += match k {
                GOLD | SILVER | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => 28,
                PAWN => 8,
                _ => 12,
            };
        }
        // Attackers near the enemy king.
        if eksq < SQUARES {
            let d = chebyshev(sq, eksq);
            if d <= 2 {
                s += ATTACK_WEIGHT[k as usize] * (3 - d);
            }
        }
    }
    if !pos.placing && ksq < SQUARES {
        // Open squares around the own king invite drops.
        let mut open = 0;
        for d in 0..8 {
            let n = NB[ksq][d];
            if n >= 0 && pos.board[n as usize] == 0 {
                open += 1;
            }
        }
        let threats: i32 = (1..8).filter(|&k| k != PAWN as usize).map(|k| pos.hand[them][k] as i32).sum();
        s -= open * threats * 6;
    }
    s
}

/// Evaluation from the side to move's view, within +-15000.
pub fn evaluate_reference(pos: &Position) -> i32 {
    let v = side_score(pos, 0) - side_score(pos, 1);
    let v = if pos.stm == 0 { v } else { -v };
    (v + 12).clamp(-15000, 15000)
}

/// The hand-set weights above in the schema of `super::PARAMS`.
pub fn initial_weights() -> Vec<i32> {
    let mut w = Vec::new();
    w.extend_from_slice(&VALUE);
    w.extend_from_slice(&HAND_VALUE);
    w.extend_from_slice(&[6, 5, -10, 20, -15]); // pawn advance, general advance, knight edge, king camp, king centre
    w.extend_from_slice(&[28, 8, 12]); // defenders: generals, pawn, other
    w.extend_from_slice(&ATTACK_WEIGHT);
    w.push(-6); // open square x enemy hand piece
    w.push(12); // tempo
    w.extend_from_slice(&[0; 15 + 7 + 1]); // attack-map terms, added after the hand-set evaluation
    w.extend_from_slice(&[0; 15 * 18]); // piece-square values, likewise
    w
}
