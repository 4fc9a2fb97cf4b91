//! Static evaluation and move ordering.
//!
//! Terms, from the side to move's view:
//! - material: board pieces by mobility (value 1 steps one way, 6 six ways, an "8" all
//!   eight), hand pieces a little more (they drop anywhere and count towards 7);
//! - sum threats: the values whose capture would complete a sum of 7 for each hand
//!   (`board::winning_values`); enemy board pieces of such a value are targets;
//! - attacks: an enemy target the side to move attacks is a win next move; our own targets
//!   the opponent attacks are a threat (two or more at once are usually lost); other
//!   attacked pieces count a share of their value;
//! - mobility: board steps.

use super::board::*;
use super::movegen::Move;
use super::NumberShogi;

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

pub fn evaluate(pos: &NumberShogi) -> i32 {
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
        score += if att[them] & (1 << sq) != 0 {
            v / 8
        } else {
            v / 3
        };
    }
    for sq in Squares(pos.occ[us] & att[them] & !targets[them]) {
        let v = piece_value(pos.board[sq]);
        score -= if att[us] & (1 << sq) != 0 {
            v / 10
        } else {
            v / 5
        };
    }
    score.clamp(-15_000, 15_000)
}

pub fn order_score(pos: &NumberShogi, mv: Move) -> i32 {
    let us = pos.side.index();
    match mv.from() {
        None => {
            // A drop that attacks a piece whose capture would then complete 7.
            let v = mv.drop_value();
            let mut hand = pos.hand[us];
            hand[v as usize] = hand[v as usize].saturating_sub(1);
            let wins = winning_values(&hand);
            let reach =
                TARGETS[us][mv.to()][pos.rules.moves[v as usize] as usize] & pos.occ[1 - us];
            let hits = Squares(reach)
                .filter(|&sq| wins & (1 << face(pos.board[sq])) != 0)
                .count() as i32;
            hits * 300
        }
        Some(from) => {
            let victim = pos.board[mv.to()];
            let mut s = 0;
            if victim != EMPTY {
                let v = face(victim);
                if winning_values(&pos.hand[us]) & (1 << v) != 0 {
                    s += 100_000;
                }
                s += piece_value(victim) * 16 - piece_value(pos.board[from]) / 16;
            }
            if mv.promotes() {
                s += 500;
            }
            s
        }
    }
}
