//! The hand-set Kani Nari Ebi evaluation as it stood before the weights became data
//! (`weights_initial.txt`): kept, for tests only, to prove that the linear form with the
//! initial weights gives exactly the same scores.
//!
//! It lives outside `src/` but is compiled into the library's unit tests
//! (`src/games/kaninariebi/eval.rs` includes it by `#[path]`), beside the tests that use it:
//! they need the crate's test-only `tune::testing`, which an integration test cannot see.
#![allow(dead_code)]

use super::super::rules::{shrimps, Rules, PIECES};
use crate::game::Color;
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::square::{enemy_home_file, file_of, step};
use crate::games::crab::turn;

const PIECE: i32 = 300;
const SECOND_CAPTURE: i32 = 250;
const SHRIMP: i32 = 220;
const SECOND_SHRIMP: i32 = 250;
const PROMOTION_THREAT: i32 = 60;
const SANDWICH_THREAT: i32 = 45;
const LOW_MOBILITY: i32 = 90;
const MOBILITY: i32 = 4;

/// Static evaluation from `side`'s view.
pub fn evaluate_reference(cells: &Cells, side: Color, rules: &Rules) -> i32 {
    let mut s = [0i32; 2];
    for c in [Color::Sente, Color::Gote] {
        let mine = cell::count(cells, c) as i32;
        let theirs = cell::count(cells, c.flip()) as i32;
        let captured = PIECES as i32 - theirs;
        let sh = shrimps(cells, c) as i32;
        let mut v = mine * PIECE + sh * SHRIMP;
        if captured >= 2 {
            v += SECOND_CAPTURE;
        }
        if sh >= 2 {
            v += SECOND_SHRIMP;
        }
        v += promotion_threats(cells, c) * PROMOTION_THREAT * if sh >= 2 { 3 } else { 1 };
        v += sandwich_threats(cells, c) * SANDWICH_THREAT * if captured >= 2 { 2 } else { 1 };
        v += mobility(cells, c, rules);
        s[c.index()] = v;
    }
    // The side to move gets to carry out its threats first.
    let tempo = 20;
    s[side.index()] - s[side.flip().index()] + tempo
}

/// Crabs of `c` whose rank is clear all the way to the enemy home column.
fn promotion_threats(cells: &Cells, c: Color) -> i32 {
    let target = enemy_home_file(c) as i32;
    let mut n = 0;
    for sq in 0..25 {
        let p = cells[sq];
        if !cell::is(p, c) || cell::promoted(p) || file_of(sq) as i32 == target {
            continue;
        }
        let df = if target > file_of(sq) as i32 { 1 } else { -1 };
        let mut at = sq;
        let mut clear = true;
        while let Some(n2) = step(at, df, 0) {
            if cells[n2] != EMPTY {
                clear = false;
                break;
            }
            at = n2;
        }
        if clear {
            n += 1;
        }
    }
    n
}

/// Enemy pieces with a piece of `c` on one side and an empty square on the other
/// (along a rank or file): one more piece there would capture them.
fn sandwich_threats(cells: &Cells, c: Color) -> i32 {
    let enemy = c.flip();
    let mut n = 0;
    for sq in 0..25 {
        if !cell::is(cells[sq], enemy) {
            continue;
        }
        let mut threatened = false;
        for (df, dr) in [(1, 0), (0, 1)] {
            let a = step(sq, df, dr);
            let b = step(sq, -df, -dr);
            if let (Some(a), Some(b)) = (a, b) {
                let (ca, cb) = (cells[a], cells[b]);
                if (cell::is(ca, c) && cb == EMPTY) || (cell::is(cb, c) && ca == EMPTY) {
                    threatened = true;
                }
            }
        }
        if threatened {
            n += 1;
        }
    }
    n
}

fn mobility(cells: &Cells, c: Color, rules: &Rules) -> i32 {
    turn::mobility_score(rules, cells, c, MOBILITY, LOW_MOBILITY)
}

/// The reference literals in the order of `PARAMS` (the terms that came later at zero).
pub fn initial_weights() -> Vec<i32> {
    // piece, second_capture, shrimp, second_shrimp
    let mut w = vec![PIECE, SECOND_CAPTURE, SHRIMP, SECOND_SHRIMP];
    w.extend([PROMOTION_THREAT, 3 * PROMOTION_THREAT]); // promotion_threat: plain, two shrimps
    w.push(0); // promotion_threat_waiting
    w.extend([SANDWICH_THREAT, 2 * SANDWICH_THREAT]); // sandwich_threat: plain, two captures
    w.push(0); // sandwich_threat_waiting
    w.extend([0, 0]); // river: crab, shrimp
    w.push(0); // crab_advance
    w.extend([MOBILITY, MOBILITY]); // mobility: crab, shrimp
    w.push(-LOW_MOBILITY); // mobility_few
    w.push(-2 * LOW_MOBILITY); // mobility_very_few
    w.push(20); // tempo
    w
}
