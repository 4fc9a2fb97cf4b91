//! The hand-set Kani Shogi evaluation as it stood before the weights became data
//! (`weights_initial.txt`): kept, for tests only, to prove that the linear form with the
//! initial weights gives exactly the same scores.
//!
//! It lives outside `src/` but is compiled into the library's unit tests
//! (`src/games/kanishogi/eval.rs` includes it by `#[path]`), beside the tests that use it:
//! they need the crate's test-only `tune::testing`, which an integration test cannot see.
#![allow(dead_code)]

use super::super::rules::{is_parent, pip, pips_lost, Rules};
use crate::game::Color;
use crate::games::crab::capture::{group, squares};
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::square::{in_flow, on_edge, step, ORTHOGONAL};
use crate::games::crab::turn;

const CHILD: i32 = 250;
const PIP: i32 = 25;
const LAST_CHILD: i32 = 300;
const PARENT_NEIGHBOUR: i32 = 40;
const PARENT_THREAT: i32 = 400;
const PARENT_STUCK: i32 = 70;
const CHILD_THREAT: i32 = 60;
const RIVER: i32 = 12;
const LOW_MOBILITY: i32 = 90;
const MOBILITY: i32 = 3;

/// Static evaluation from `side`'s view.
pub fn evaluate_reference(cells: &Cells, side: Color, rules: &Rules) -> i32 {
    let mut s = [0i32; 2];
    for c in [Color::Sente, Color::Gote] {
        let enemy = c.flip();
        let lost = pips_lost(cells, c).count_ones() as i32;
        let mut v = 0;
        for sq in 0..25 {
            let p = cells[sq];
            if !cell::is(p, c) {
                continue;
            }
            if in_flow(sq) {
                v += RIVER;
            }
            if is_parent(p) {
                v -= parent_danger(cells, sq, c);
            } else {
                v += CHILD + PIP * pip(p) as i32;
                if cell::promoted(p) {
                    v += 20;
                }
                if threatened(cells, sq, enemy) {
                    v -= CHILD_THREAT + PIP * pip(p) as i32 + if lost >= 2 { LAST_CHILD / 2 } else { 0 };
                }
            }
        }
        if lost >= 2 {
            v -= LAST_CHILD;
        }
        v += mobility(cells, c, rules);
        s[c.index()] = v;
    }
    // Threats belong to the side to move: it may carry them out first.
    let tempo = 25;
    s[side.index()] - s[side.flip().index()] + tempo
}

/// Whether the piece of `owner`'s enemy `by` could sandwich the piece on `sq` with one
/// more piece: a `by` piece on one side and an empty square on the other.
fn threatened(cells: &Cells, sq: usize, by: Color) -> bool {
    [(1, 0), (0, 1)].iter().any(|&(df, dr)| match (step(sq, df, dr), step(sq, -df, -dr)) {
        (Some(a), Some(b)) => {
            (cell::is(cells[a], by) && cells[b] == EMPTY) || (cell::is(cells[b], by) && cells[a] == EMPTY)
        }
        _ => false,
    })
}

/// How exposed `c`'s parent on `sq` is.
fn parent_danger(cells: &Cells, sq: usize, c: Color) -> i32 {
    let enemy = c.flip();
    let mut d = 0;
    for &(df, dr) in &ORTHOGONAL {
        if let Some(n) = step(sq, df, dr) {
            if cell::is(cells[n], enemy) {
                d += PARENT_NEIGHBOUR;
            }
        }
    }
    if threatened(cells, sq, enemy) {
        d += PARENT_THREAT;
    }
    // a parent that cannot slide either way cannot run from a closing sandwich
    let free = |df: i32| step(sq, df, 0).is_some_and(|n| cells[n] == EMPTY);
    if !free(1) && !free(-1) {
        d += PARENT_STUCK;
    }
    // a wall closing on the parent's group: on the edge with one free neighbour left
    let g = group(cells, sq, |x| cell::is(x, c));
    if squares(g).any(on_edge) {
        let (mut free, mut other) = (0, 0);
        for s in squares(g) {
            for &(df, dr) in &ORTHOGONAL {
                if let Some(n) = step(s, df, dr) {
                    if g & (1 << n) != 0 {
                        continue;
                    }
                    if cells[n] == EMPTY {
                        free += 1;
                    } else {
                        other += 1;
                    }
                }
            }
        }
        if free <= 1 && other > 0 {
            d += PARENT_THREAT;
        }
    }
    d
}

fn mobility(cells: &Cells, c: Color, rules: &Rules) -> i32 {
    turn::mobility_score(rules, cells, c, MOBILITY, LOW_MOBILITY)
}

/// The literals above in the order of `PARAMS` (the terms added later at zero).
pub fn initial_weights() -> Vec<i32> {
    let mut w = Vec::new();
    w.extend((1..=4).map(|p| CHILD + PIP * p)); // child
    w.push(20); // grown
    w.push(-LAST_CHILD); // two_lost
    w.extend((1..=4).map(|p| -(CHILD_THREAT + PIP * p))); // child_threat
    w.push(-LAST_CHILD / 2); // child_threat_last
    w.push(0); // child_threat_waiting
    w.push(-PARENT_NEIGHBOUR); // parent_neighbour
    w.push(-PARENT_THREAT); // parent_sandwich
    w.push(-PARENT_STUCK); // parent_stuck
    w.push(-PARENT_THREAT); // parent_wall
    w.push(0); // parent_threat_waiting
    w.extend([RIVER, RIVER]); // river: parent, child
    w.push(0); // child_advance
    w.extend([MOBILITY; 3]); // mobility: parent, child, grown child
    w.push(-LOW_MOBILITY); // mobility_few
    w.push(-2 * LOW_MOBILITY); // mobility_very_few
    w.push(25); // tempo
    w
}
