//! Kani Shogi evaluation and move ordering.
//!
//! Terms, from the side to move's view: children on the board (by pip, and much more
//! once a side has lost two, since the 2-2 race and the third child decide the game),
//! parent safety (enemy pieces beside it, sandwich and wall threats on it), threats
//! against children (a sandwich one move from closing), river control (own pieces in
//! file 3), child advancement and mobility.
//!
//! The evaluation is linear in the weights of `PARAMS`, read from `weights.txt`
//! (docs/TUNING.md); `weights_initial.txt` holds the hand-set values the tuning
//! started from.

use super::rules::{is_parent, pip, pips_lost, Rules};
use super::KaniShogi;
use crate::game::{Color, Game};
use crate::games::crab::capture::{group, squares};
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::game::CrabEval;
use crate::games::crab::square::{file_of, home_file, in_flow, on_edge, step, ORTHOGONAL};
use crate::games::crab::turn::{Squares, Variant};
use crate::games::crab::CrabMove;
use crate::tune::{NoTrace, Trace};

crate::weights_schema! {
    // No taper in this game. Every term is counted for each side and enters as own minus
    // enemy's.
    // A child on the board, by pip 1..4.
    child: flat(4),
    // A grown child (on top of its value as a child).
    grown: flat(1),
    // Two children lost: the third decides the game.
    two_lost: flat(1),
    // A child the enemy could sandwich with one more piece (an enemy piece on one side,
    // an empty square on the other), by pip; extra once two children are lost; extra
    // when its side is not to move.
    child_threat: flat(4),
    child_threat_last: flat(1),
    child_threat_waiting: flat(1),
    // Parent: per enemy piece beside it; a sandwich threat on it; unable to slide
    // either way; its group on the edge with at most one free neighbour left (a wall
    // closing); per sandwich or wall threat when its side is not to move.
    parent_neighbour: flat(1),
    parent_sandwich: flat(1),
    parent_stuck: flat(1),
    parent_wall: flat(1),
    parent_threat_waiting: flat(1),
    // A piece in the river (file 3): parent, child.
    river: flat(2),
    // Per file a child stands away from its home column.
    child_advance: flat(1),
    // Per landing square of a normal move (before the flow): parent, child, grown child.
    mobility: flat(3),
    // Few landing squares in all (no normal move loses): 3 or 4; 2 or fewer.
    mobility_few: flat(1),
    mobility_very_few: flat(1),
    // The side to move's bonus (threats belong to it: it may carry them out first).
    tempo: flat(1),
}

crate::weights_files!("kanishogi", include_str!("weights.txt"), include_str!("weights_initial.txt"));

impl CrabEval for Rules {
    /// Static evaluation from `side`'s view.
    fn evaluate(&self, cells: &Cells, side: Color) -> i32 {
        eval_cells(cells, side, self, weights(), &mut NoTrace)
    }

    /// Move ordering: capturing the parent, then children by pip, then growth, then bonds.
    fn order_score(mv: CrabMove) -> i32 {
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
    t.add(at::tempo, if side == Color::Sente { 1.0 } else { -1.0 });
    v + w[at::tempo]
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
            add(at::mobility, m);
            if in_flow(sq) {
                add(at::river, 1);
            }
            let (sandwich, wall) = parent_danger(cells, sq, c, &mut add);
            add(at::parent_threat_waiting, waiting * (sandwich + wall));
        } else {
            let k = pip(p) as usize - 1;
            add(at::child + k, 1);
            add(at::child_advance, (file_of(sq) as i32 - home).abs());
            if in_flow(sq) {
                add(at::river + 1, 1);
            }
            if cell::promoted(p) {
                add(at::grown, 1);
                add(at::mobility + 2, m);
            } else {
                add(at::mobility + 1, m);
            }
            if threatened(cells, sq, enemy) {
                add(at::child_threat + k, 1);
                add(at::child_threat_last, last);
                add(at::child_threat_waiting, waiting);
            }
        }
    }
    add(at::two_lost, last);
    match moves {
        0..=2 => add(at::mobility_very_few, 1),
        3..=4 => add(at::mobility_few, 1),
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
    add(at::parent_neighbour, near);
    let sandwich = i32::from(threatened(cells, sq, enemy));
    add(at::parent_sandwich, sandwich);
    // a parent that cannot slide either way cannot run from a closing sandwich
    let free = |df: i32| step(sq, df, 0).is_some_and(|n| cells[n] == EMPTY);
    if !free(1) && !free(-1) {
        add(at::parent_stuck, 1);
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
    add(at::parent_wall, wall);
    (sandwich, wall)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::testing;

    testing::weights_tests! {
        game: KaniShogi,
        dir: "kanishogi",
        mirror: |sfen| testing::mirrored_sfen(sfen, true),
        min_positions: 10_000,
        coverage: |positions, _| {
            let grown = positions.iter().filter(|g| g.cells().iter().any(|&c| c != EMPTY && cell::promoted(c))).count();
            assert!(grown > 100, "{grown}");
        },
    }

    /// Positions reached by random play (captures preferred half the time) from the
    /// perft suite's positions and the start, under both grown-move switches.
    fn sample_positions() -> Vec<(Rules, KaniShogi)> {
        let suite = include_str!("../../../fixtures/perft/kanishogi.perft");
        let diagonal = Rules { grown: super::super::GrownMove::Diagonal };
        testing::sample(suite, &[(Rules::default(), 180), (diagonal, 60)], 100, |_| true)
    }

    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let initial = parse(INITIAL_WEIGHTS_TEXT).unwrap();
        let positions: Vec<KaniShogi> = sample_positions().into_iter().map(|x| x.1).step_by(5).collect();
        for w in [weights(), &*initial] {
            testing::check_linear_form(&positions, PARAMS, w, |g, f| evaluate_with(g, w, f), mg_share, 0.01);
        }
    }
}
