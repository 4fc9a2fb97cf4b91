//! Kani Shogi evaluation and move ordering.
//!
//! Terms, from the side to move's view: children on the board (worth more with their
//! pips, and much more once a side has lost two, since the 2-2 race and the third child
//! decide the game), parent safety (enemy pieces beside it, sandwich and wall threats on
//! it), threats against enemy children (a sandwich or a wall one move from closing),
//! river control (own pieces in file 3) and mobility.

use super::rules::{is_parent, pip, pips_lost, Rules};
use crate::game::Color;
use crate::games::crab::capture::{group, squares};
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::square::{in_flow, on_edge, step, ORTHOGONAL};
use crate::games::crab::turn;
use crate::games::crab::CrabMove;

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
pub fn evaluate(cells: &Cells, side: Color, rules: &Rules) -> i32 {
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

/// Move ordering: capturing the parent, then children by pip, then growth, then bonds.
pub fn order_score(mv: CrabMove) -> i32 {
    let set = mv.gain();
    let mut score = 0;
    if set & 1 != 0 {
        score += 100_000;
    }
    for p in 1..=4 {
        if set & (1 << p) != 0 {
            score += 1000 + 100 * p;
        }
    }
    score + if mv.promotes() { 400 } else { 0 } + if mv.has_bond() { 30 } else { 0 }
}
