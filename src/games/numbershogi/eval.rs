//! Static evaluation and move ordering.
//!
//! Terms, from the side to move's view:
//! - material: board pieces by kind (value 1 steps one way, 6 six ways, an "8" all
//!   eight), hand pieces by value (they drop anywhere and count towards 7);
//! - sum threats: the values whose capture would complete a sum of 7 for each hand
//!   (`board::winning_values`), and how much the hand still lacks; enemy board pieces of
//!   such a value are targets;
//! - attacks: an enemy target the side to move attacks is a win next move; our own targets
//!   the opponent attacks are a threat (two or more at once are usually lost); other
//!   attacked pieces count a share of their value, by kind;
//! - mobility: board steps, by kind.
//!
//! The evaluation is linear in the weights of `PARAMS`, read from `weights.txt`
//! (docs/TUNING.md); `weights_initial.txt` holds the hand-set values the tuning
//! started from.

use super::board::*;
use super::movegen::Move;
use super::NumberShogi;
use crate::tune::{NoTrace, Trace};

crate::weights_schema! {
    // No taper in this game. A piece "kind" is its face value 1..6, then the promoted "8"
    // (7 entries).
    // A piece on the board, by kind.
    board: flat(7),
    // A piece in hand, by value 1..6.
    hand: flat(6),
    // Per empty or enemy square a board piece steps to, by kind.
    mobility: flat(7),
    // Per value 1..6 whose capture would complete 7 for the side's hand.
    win_values: flat(1),
    // Per enemy board piece of such a value (a target).
    targets: flat(1),
    // Per own piece that is a target of the enemy and defended.
    targets_defended: flat(1),
    // Per point the hand's best subset falls short of 7.
    need: flat(1),
    // The side to move's targets the opponent attacks: exactly one; two or more.
    target_attacked: flat(2),
    // Other attacked pieces, by kind, counted for their owner: the side not to move's
    // (attacked by the side to move) defended, undefended; the side to move's defended,
    // undefended.
    attacked_waiting: flat(7),
    attacked_waiting_free: flat(7),
    attacked_moving: flat(7),
    attacked_moving_free: flat(7),
    // The side to move's bonus.
    tempo: flat(1),
    // The side to move attacks a target: a win next move (the whole score; not tuned,
    // the tuner drops such positions).
    win_now: flat(1),
}

crate::weights_files!("numbershogi", include_str!("weights.txt"), include_str!("weights_initial.txt"));

/// Move-ordering value of an unpromoted piece by face value, and of an "8" (the
/// hand-set board values; ordering is not tuned).
const ORDER_VALUE: [i32; 7] = [0, 90, 130, 170, 190, 230, 260];
const ORDER_PROMOTED: i32 = 330;

#[inline]
fn piece_value(cell: Cell) -> i32 {
    if is_promoted(cell) {
        ORDER_PROMOTED
    } else {
        ORDER_VALUE[face(cell) as usize]
    }
}

/// The kind index 0..7 of a board cell: face value - 1, or 6 for an "8".
#[inline(always)]
fn kind(cell: Cell) -> usize {
    if is_promoted(cell) {
        6
    } else {
        face(cell) as usize - 1
    }
}

/// Static evaluation from the side to move's view.
pub fn evaluate(pos: &NumberShogi) -> i32 {
    evaluate_with(pos, weights(), &mut NoTrace)
}

/// No taper in this game: every weight is used in full.
pub fn mg_share(_: &NumberShogi) -> f32 {
    1.0
}

/// The values 1..6 (bit v) whose capture would complete 7, from a hand's subset sums.
#[inline(always)]
fn wins_of_sums(s: u8) -> u8 {
    let mut m = 0;
    for v in 1..=6u8 {
        if s & (1 << (7 - v)) != 0 {
            m |= 1 << v;
        }
    }
    m
}

/// The evaluation with weights `w` (side to move's view), reporting each weight's
/// coefficient to `t` (sente's view; the tuner turns it to the side to move's).
/// Placement positions score 0 with no terms.
#[inline(always)]
pub fn evaluate_with<T: Trace>(pos: &NumberShogi, w: &Weights, t: &mut T) -> i32 {
    if pos.placing {
        return 0;
    }
    let us = pos.side.index();
    let them = 1 - us;
    // +1 for sente, -1 for gote; `sgu` is the side to move's.
    let sgu = if us == 0 { 1 } else { -1 };
    let mut steps = [0 as Bb; SQUARES];
    let mut att = [0 as Bb; 2];
    for (c, a) in att.iter_mut().enumerate() {
        for sq in Bits::from(pos.occ[c]) {
            steps[sq] = pos.steps(sq);
            *a |= steps[sq];
        }
    }
    let sums = [subset_sums(&pos.hand[0]), subset_sums(&pos.hand[1])];
    let wins = [wins_of_sums(sums[0]), wins_of_sums(sums[1])];
    // Enemy board pieces whose capture completes 7 for colour c.
    let mut targets = [0 as Bb; 2];
    for c in 0..2 {
        for sq in Bits::from(pos.occ[1 - c]) {
            if wins[c] & (1 << face(pos.board[sq])) != 0 {
                targets[c] |= 1 << sq;
            }
        }
    }
    if targets[us] & att[us] != 0 {
        t.add(at::win_now, sgu as f32);
        return w[at::win_now];
    }
    // The score in sente's view.
    let mut s = 0i32;
    let mut add = |i: usize, n: i32| {
        s += w[i] * n;
        t.add(i, n as f32);
    };
    for c in 0..2 {
        let sg = if c == 0 { 1 } else { -1 };
        for sq in Bits::from(pos.occ[c]) {
            let k = kind(pos.board[sq]);
            add(at::board + k, sg);
            add(at::mobility + k, sg * (steps[sq] & !pos.occ[c]).count_ones() as i32);
        }
        for v in 1..=6 {
            let n = pos.hand[c][v] as i32;
            if n != 0 {
                add(at::hand + v - 1, sg * n);
            }
        }
        add(at::win_values, sg * wins[c].count_ones() as i32);
        add(at::targets, sg * targets[c].count_ones() as i32);
        add(at::targets_defended, sg * (targets[1 - c] & att[c]).count_ones() as i32);
        add(at::need, sg * sums[c].leading_zeros() as i32);
    }
    // Our targets the opponent attacks: one must be answered, two at once usually lose.
    match (targets[them] & att[them]).count_ones() {
        0 => {}
        1 => add(at::target_attacked, sgu),
        _ => add(at::target_attacked + 1, sgu),
    }
    // Other hanging pieces, counted for their owner.
    for sq in Bits::from(pos.occ[them] & att[us] & !targets[us]) {
        let k = kind(pos.board[sq]);
        add(if att[them] & (1 << sq) != 0 { at::attacked_waiting } else { at::attacked_waiting_free } + k, -sgu);
    }
    for sq in Bits::from(pos.occ[us] & att[them] & !targets[them]) {
        let k = kind(pos.board[sq]);
        add(if att[us] & (1 << sq) != 0 { at::attacked_moving } else { at::attacked_moving_free } + k, sgu);
    }
    add(at::tempo, sgu);
    (sgu * s).clamp(-15_000, 15_000)
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
            let reach = TARGETS[us][mv.to()][pos.rules.moves[v as usize] as usize] & pos.occ[1 - us];
            let hits = Bits::from(reach).filter(|&sq| wins & (1 << face(pos.board[sq])) != 0).count() as i32;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::tune::testing;

    testing::weights_tests! {
        game: NumberShogi,
        dir: "numbershogi",
        // Turned round, and past the placement phase's plies (the SFEN's move number tells
        // a position in placement from a start position; the evaluation does not read it).
        mirror: |sfen| {
            let mirrored = testing::mirrored_sfen(sfen, true);
            format!("{} 99", mirrored.rsplit_once(' ').map_or("", |x| x.0))
        },
        min_positions: 10_000,
        coverage: |positions, initial| {
            let (mut promoted, mut win_now, mut two_threats) = (0, 0, 0);
            for g in positions {
                promoted += usize::from(g.board.iter().any(|&c| c != EMPTY && is_promoted(c)));
                let e = evaluate_with(g, initial, &mut NoTrace);
                win_now += usize::from(e == 10_000);
                two_threats += usize::from(e.abs() > 1000 && e != 10_000);
            }
            assert!(promoted > 100 && win_now > 100 && two_threats > 100, "{promoted} {win_now} {two_threats}");
        },
    }

    /// Positions reached by random play (captures preferred half the time) from the
    /// perft suite's positions and the start (random placement first), play phase only.
    fn sample_positions() -> Vec<(<NumberShogi as Game>::Rules, NumberShogi)> {
        let suite = include_str!("../../../fixtures/perft/numbershogi.perft");
        testing::sample(suite, &[(Default::default(), 200)], 80, |g: &NumberShogi| !g.is_placement())
    }

    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let initial = parse(INITIAL_WEIGHTS_TEXT).unwrap();
        let positions: Vec<NumberShogi> = sample_positions().into_iter().map(|x| x.1).step_by(5).collect();
        for w in [weights(), &*initial] {
            testing::check_linear_form(&positions, PARAMS, w, |g, f| evaluate_with(g, w, f), mg_share, 0.01);
        }
    }
}
