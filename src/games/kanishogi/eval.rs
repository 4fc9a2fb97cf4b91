//! Kani Shogi evaluation and move ordering.
//!
//! Terms, from the side to move's view: children on the board (by pip, and much more
//! once a side has lost two, since the 2-2 race and the third child decide the game),
//! parent safety (enemy pieces beside it, sandwich and wall threats on it), threats
//! against children (a sandwich one move from closing), river control (own pieces in
//! file 3), child advancement and mobility.
//!
//! The evaluation is linear in the weights of `PARAMS`, read from `weights.txt`
//! (docs/TUNING.md); `weights_initial.txt` holds the hand-set values, with which the
//! scores are exactly those of the evaluation before the weights became data
//! (tests/reference/eval/, kept for the tests).

use super::rules::{is_parent, pip, pips_lost, Rules};
use super::KaniShogi;
use crate::game::{Color, Game};
use crate::games::crab::capture::{group, squares};
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::square::{file_of, home_file, in_flow, on_edge, step, ORTHOGONAL};
use crate::games::crab::turn::{Squares, Variant};
use crate::games::crab::CrabMove;
use crate::tune::{offset, NoTrace, Param, Trace};

/// The weights' schema, in the order of `weights.txt` (no taper in this game). Every
/// term is counted for each side and enters as own minus enemy's.
pub const PARAMS: &[Param] = &[
    // A child on the board, by pip 1..4.
    Param::flat("child", 4),
    // A grown child (on top of its value as a child).
    Param::flat("grown", 1),
    // Two children lost: the third decides the game.
    Param::flat("two_lost", 1),
    // A child the enemy could sandwich with one more piece (an enemy piece on one side,
    // an empty square on the other), by pip; extra once two children are lost; extra
    // when its side is not to move.
    Param::flat("child_threat", 4),
    Param::flat("child_threat_last", 1),
    Param::flat("child_threat_waiting", 1),
    // Parent: per enemy piece beside it; a sandwich threat on it; unable to slide
    // either way; its group on the edge with at most one free neighbour left (a wall
    // closing); per sandwich or wall threat when its side is not to move.
    Param::flat("parent_neighbour", 1),
    Param::flat("parent_sandwich", 1),
    Param::flat("parent_stuck", 1),
    Param::flat("parent_wall", 1),
    Param::flat("parent_threat_waiting", 1),
    // A piece in the river (file 3): parent, child.
    Param::flat("river", 2),
    // Per file a child stands away from its home column.
    Param::flat("child_advance", 1),
    // Per landing square of a normal move (before the flow): parent, child, grown child.
    Param::flat("mobility", 3),
    // Few landing squares in all (no normal move loses): 3 or 4; 2 or fewer.
    Param::flat("mobility_few", 1),
    Param::flat("mobility_very_few", 1),
    // The side to move's bonus (threats belong to it: it may carry them out first).
    Param::flat("tempo", 1),
];

const CHILD: usize = offset(PARAMS, "child");
const GROWN: usize = offset(PARAMS, "grown");
const TWO_LOST: usize = offset(PARAMS, "two_lost");
const CHILD_THREAT: usize = offset(PARAMS, "child_threat");
const CHILD_THREAT_LAST: usize = offset(PARAMS, "child_threat_last");
const CHILD_THREAT_WAITING: usize = offset(PARAMS, "child_threat_waiting");
const PARENT_NEIGHBOUR: usize = offset(PARAMS, "parent_neighbour");
const PARENT_SANDWICH: usize = offset(PARAMS, "parent_sandwich");
const PARENT_STUCK: usize = offset(PARAMS, "parent_stuck");
const PARENT_WALL: usize = offset(PARAMS, "parent_wall");
const PARENT_THREAT_WAITING: usize = offset(PARAMS, "parent_threat_waiting");
const RIVER: usize = offset(PARAMS, "river");
const CHILD_ADVANCE: usize = offset(PARAMS, "child_advance");
const MOBILITY: usize = offset(PARAMS, "mobility");
const MOBILITY_FEW: usize = offset(PARAMS, "mobility_few");
const MOBILITY_VERY_FEW: usize = offset(PARAMS, "mobility_very_few");
const TEMPO: usize = offset(PARAMS, "tempo");

crate::weights_files!("kanishogi", include_str!("weights.txt"), include_str!("weights_initial.txt"));

/// Static evaluation from `side`'s view.
pub fn evaluate(cells: &Cells, side: Color, rules: &Rules) -> i32 {
    eval_cells(cells, side, rules, weights(), &mut NoTrace)
}

/// The evaluation of a game position with weights `w`, reporting each weight's
/// coefficient to `t` (sente's view; the tuner turns it to the side to move's).
pub fn evaluate_with<T: Trace>(g: &KaniShogi, w: &Weights, t: &mut T) -> i32 {
    eval_cells(g.cells(), g.side_to_move(), g.rules(), w, t)
}

/// No taper in this game: every weight is used in full.
pub fn mg_share(_: &KaniShogi) -> f32 {
    1.0
}

#[inline(always)]
fn eval_cells<T: Trace>(cells: &Cells, side: Color, rules: &Rules, w: &Weights, t: &mut T) -> i32 {
    let v = side_score(cells, Color::Sente, side, rules, w, t) - side_score(cells, Color::Gote, side, rules, w, t);
    let v = if side == Color::Sente { v } else { -v };
    t.add(TEMPO, if side == Color::Sente { 1.0 } else { -1.0 });
    v + w[TEMPO]
}

/// Score for `c` (positive = good for `c`); `t` gets sente's view.
#[inline(always)]
fn side_score<T: Trace>(cells: &Cells, c: Color, to_move: Color, rules: &Rules, w: &Weights, t: &mut T) -> i32 {
    let sg = if c == Color::Sente { 1.0f32 } else { -1.0 };
    let mut s = 0;
    let mut add = |i: usize, n: i32| {
        s += w[i] * n;
        t.add(i, sg * n as f32);
    };
    let enemy = c.flip();
    let waiting = i32::from(c != to_move);
    let lost = pips_lost(cells, c).count_ones() as i32;
    let last = i32::from(lost >= 2);
    let home = home_file(c) as i32;
    let mut moves = 0;
    for sq in 0..25 {
        let p = cells[sq];
        if !cell::is(p, c) {
            continue;
        }
        let mut targets = Squares::default();
        rules.normal_targets(cells, p, sq, &mut targets);
        let m = targets.len() as i32;
        moves += m;
        if is_parent(p) {
            add(MOBILITY, m);
            if in_flow(sq) {
                add(RIVER, 1);
            }
            let (sandwich, wall) = parent_danger(cells, sq, c, &mut add);
            add(PARENT_THREAT_WAITING, waiting * (sandwich + wall));
        } else {
            let k = pip(p) as usize - 1;
            add(CHILD + k, 1);
            add(CHILD_ADVANCE, (file_of(sq) as i32 - home).abs());
            if in_flow(sq) {
                add(RIVER + 1, 1);
            }
            if cell::promoted(p) {
                add(GROWN, 1);
                add(MOBILITY + 2, m);
            } else {
                add(MOBILITY + 1, m);
            }
            if threatened(cells, sq, enemy) {
                add(CHILD_THREAT + k, 1);
                add(CHILD_THREAT_LAST, last);
                add(CHILD_THREAT_WAITING, waiting);
            }
        }
    }
    add(TWO_LOST, last);
    match moves {
        0..=2 => add(MOBILITY_VERY_FEW, 1),
        3..=4 => add(MOBILITY_FEW, 1),
        _ => {}
    }
    s
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

/// The exposure terms of `c`'s parent on `sq`; returns whether it is under a sandwich
/// threat and whether a wall is closing on it (0 or 1 each).
#[inline(always)]
fn parent_danger(cells: &Cells, sq: usize, c: Color, add: &mut impl FnMut(usize, i32)) -> (i32, i32) {
    let enemy = c.flip();
    let mut near = 0;
    for &(df, dr) in &ORTHOGONAL {
        if let Some(n) = step(sq, df, dr) {
            if cell::is(cells[n], enemy) {
                near += 1;
            }
        }
    }
    add(PARENT_NEIGHBOUR, near);
    let sandwich = i32::from(threatened(cells, sq, enemy));
    add(PARENT_SANDWICH, sandwich);
    // a parent that cannot slide either way cannot run from a closing sandwich
    let free = |df: i32| step(sq, df, 0).is_some_and(|n| cells[n] == EMPTY);
    if !free(1) && !free(-1) {
        add(PARENT_STUCK, 1);
    }
    // a wall closing on the parent's group: on the edge with one free neighbour left
    let mut wall = 0;
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
            wall = 1;
        }
    }
    add(PARENT_WALL, wall);
    (sandwich, wall)
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

#[cfg(test)]
#[path = "../../../tests/reference/eval/kanishogi.rs"]
mod eval_reference;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::testing;

    testing::weights_tests! {
        game: KaniShogi,
        title: "Kani Shogi",
        dir: "kanishogi",
        min_positions: 10_000,
        reference: |g| eval_reference::evaluate_reference(g.cells(), g.side_to_move(), g.rules()),
        coverage: |positions, _| {
            let grown = positions.iter().filter(|g| g.cells().iter().any(|&c| c != EMPTY && cell::promoted(c))).count();
            assert!(grown > 100, "{grown}");
        },
    }

    /// Positions reached by random play (captures preferred half the time) from the
    /// perft suite's positions and the start, under both grown-move switches.
    fn sample_positions() -> Vec<KaniShogi> {
        let suite = include_str!("../../../fixtures/perft/kanishogi.perft");
        let diagonal = Rules { grown: super::super::GrownMove::Diagonal };
        testing::sample(suite, &[(Rules::default(), 180), (diagonal, 60)], 100, |_| true)
    }

    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let initial = parse(INITIAL_WEIGHTS_TEXT).unwrap();
        let positions: Vec<KaniShogi> = sample_positions().into_iter().step_by(5).collect();
        for w in [weights(), &*initial] {
            testing::check_linear_form(&positions, PARAMS, w, |g, f| evaluate_with(g, w, f), mg_share, 0.01);
        }
    }
}
