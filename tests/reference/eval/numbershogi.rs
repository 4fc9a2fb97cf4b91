//! The hand-set Number Shogi evaluation as it stood before the weights became data
//! (`weights_initial.txt`): kept, for tests only, to prove that the linear form with the
//! initial weights gives exactly the same scores.
//!
//! It lives outside `src/` but is compiled into the library's unit tests
//! (`src/games/numbershogi/eval.rs` includes it by `#[path]`): it reads the game's private
//! position and board (and the tests use the crate's test-only `tune::testing`), which
//! an integration test cannot see.
#![allow(dead_code)]

use super::super::board::*;
use super::super::NumberShogi;

/// Board value of an unpromoted piece by face value, and of an "8".
const BOARD_VALUE: [i32; 7] = [0, 90, 130, 170, 190, 230, 260];
const PROMOTED_VALUE: i32 = 330;
/// Extra for a piece in hand.
const HAND_BONUS: i32 = 40;
/// Value of a side to move that can capture a winning piece right now.
const WIN_NOW: i32 = 10_000;

#[inline]
fn piece_value(cell: Cell) -> i32 {
    if is_promoted(cell) {
        PROMOTED_VALUE
    } else {
        BOARD_VALUE[face(cell) as usize]
    }
}

/// Static evaluation from the side to move's view.
pub fn evaluate_reference(pos: &NumberShogi) -> i32 {
    if pos.placing {
        return 0;
    }
    let us = pos.side.index();
    let them = 1 - us;
    let mut att = [0 as Bb; 2];
    let mut mob = [0i32; 2];
    let mut material = [0i32; 2];
    for c in 0..2 {
        for sq in Squares(pos.occ[c]) {
            let steps = pos.steps(sq);
            att[c] |= steps;
            mob[c] += (steps & !pos.occ[c]).count_ones() as i32;
            material[c] += piece_value(pos.board[sq]);
        }
        for (v, &n) in pos.hand[c].iter().enumerate().skip(1) {
            material[c] += n as i32 * (BOARD_VALUE[v] + HAND_BONUS);
        }
    }
    let wins = [winning_values(&pos.hand[0]), winning_values(&pos.hand[1])];
    // Enemy board pieces whose capture completes 7 for colour c.
    let mut targets = [0 as Bb; 2];
    for c in 0..2 {
        for sq in Squares(pos.occ[1 - c]) {
            if wins[c] & (1 << face(pos.board[sq])) != 0 {
                targets[c] |= 1 << sq;
            }
        }
    }
    if targets[us] & att[us] != 0 {
        return WIN_NOW;
    }
    let mut score = material[us] - material[them];
    score += 4 * (mob[us] - mob[them]);
    // How many values complete a sum, and how many enemy pieces carry them.
    score += 12 * (wins[us].count_ones() as i32 - wins[them].count_ones() as i32);
    score += 25 * (targets[us].count_ones() as i32 - targets[them].count_ones() as i32);
    // Our targets the opponent attacks: one must be answered, two at once usually lose.
    let threatened = (targets[them] & att[them]).count_ones();
    score -= match threatened {
        0 => 0,
        1 => 120,
        _ => 1500,
    };
    // Other hanging pieces.
    for sq in Squares(pos.occ[them] & att[us] & !targets[us]) {
        let v = piece_value(pos.board[sq]);
        score += if att[them] & (1 << sq) != 0 { v / 8 } else { v / 3 };
    }
    for sq in Squares(pos.occ[us] & att[them] & !targets[them]) {
        let v = piece_value(pos.board[sq]);
        score -= if att[us] & (1 << sq) != 0 { v / 10 } else { v / 5 };
    }
    score.clamp(-15_000, 15_000)
}

/// The literals above in the order of `PARAMS` (the terms that came later at zero).
pub fn initial_weights() -> Vec<i32> {
    let kinds: Vec<i32> = BOARD_VALUE[1..].iter().copied().chain([PROMOTED_VALUE]).collect();
    let mut w = Vec::new();
    w.extend(&kinds); // board
    w.extend(BOARD_VALUE[1..].iter().map(|v| v + HAND_BONUS)); // hand
    w.extend([4; 7]); // mobility
    w.push(12); // win_values
    w.push(25); // targets
    w.push(0); // targets_defended
    w.push(0); // need
    w.extend([-120, -1500]); // target_attacked: one, two or more
    w.extend(kinds.iter().map(|v| -(v / 8))); // attacked_waiting (defended)
    w.extend(kinds.iter().map(|v| -(v / 3))); // attacked_waiting_free
    w.extend(kinds.iter().map(|v| -(v / 10))); // attacked_moving (defended)
    w.extend(kinds.iter().map(|v| -(v / 5))); // attacked_moving_free
    w.push(0); // tempo
    w.push(WIN_NOW); // win_now
    w
}
