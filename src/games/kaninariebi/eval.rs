//! Kani Nari Ebi evaluation and move ordering.
//!
//! Terms, from the side to move's view: pieces (each capture is a third of a win),
//! shrimps (likewise), crabs with a clear run to the enemy home column (a promotion
//! threat), enemy pieces that one more friendly piece would sandwich, crabs in the
//! current and their advance, and mobility.
//!
//! The evaluation is linear in the weights of `PARAMS`, read from `weights.txt`
//! (docs/TUNING.md); `weights_initial.txt` holds the hand-set values the tuning
//! started from.

use super::rules::{Rules, PIECES};
use super::KaniNariEbi;
use crate::game::{Color, Game};
use crate::games::crab::bits::{self, Occupancy};
use crate::games::crab::capture::squares;
use crate::games::crab::cell::Cells;
use crate::games::crab::game::CrabEval;
use crate::games::crab::square::{enemy_home_file, file_of, home_file};
use crate::games::crab::CrabMove;
use crate::tune::{NoTrace, Trace};

crate::weights_schema! {
    // No taper in this game. Every term is counted for each side and enters as own minus
    // enemy's.
    // A piece on the board (crab or shrimp).
    piece: flat(1),
    // Two enemy pieces captured: the third wins.
    second_capture: flat(1),
    // A shrimp (on top of its value as a piece).
    shrimp: flat(1),
    // Two shrimps: the third wins.
    second_shrimp: flat(1),
    // A crab whose rank is clear all the way to the enemy home column: plain, with two
    // shrimps already on the board; extra when its side is not to move.
    promotion_threat: flat(2),
    promotion_threat_waiting: flat(1),
    // An enemy piece that one more friendly piece would sandwich (a friendly piece on one
    // side, an empty square on the other): plain, with two captures made; extra when
    // the threatening side is not to move.
    sandwich_threat: flat(2),
    sandwich_threat_waiting: flat(1),
    // A piece in the current (file 3): crab, shrimp.
    river: flat(2),
    // Per file a crab stands away from its home column.
    crab_advance: flat(1),
    // Per landing square of a normal move (before the flow): crab, shrimp.
    mobility: flat(2),
    // Few landing squares in all (no normal move loses): 3 or 4; 2 or fewer.
    mobility_few: flat(1),
    mobility_very_few: flat(1),
    // The side to move's bonus (it gets to carry out its threats first).
    tempo: flat(1),
}

crate::weights_files!("kaninariebi", include_str!("weights.txt"), include_str!("weights_initial.txt"));

impl CrabEval for Rules {
    /// Static evaluation from `side`'s view.
    ///
    /// Both bond switches move pieces alike (a crab slides, a shrimp steps diagonally) and
    /// only normal moves are counted, so the rules do not change the evaluation.
    fn evaluate(&self, cells: &Cells, side: Color) -> i32 {
        eval_cells(cells, side, weights(), &mut NoTrace)
    }

    /// Move ordering: captures first, then promotions, then bond turns.
    fn order_score(mv: CrabMove) -> i32 {
        mv.gain() as i32 * 1000 + if mv.promotes() { 400 } else { 0 } + if mv.has_bond() { 30 } else { 0 }
    }
}

/// The evaluation of a game position with weights `w`, reporting each weight's
/// coefficient to `t` (sente's view; the tuner turns it to the side to move's).
pub fn evaluate_with<T: Trace>(g: &KaniNariEbi, w: &Weights, t: &mut T) -> i32 {
    eval_cells(g.cells(), g.side_to_move(), w, t)
}

/// No taper in this game: every weight is used in full.
pub fn mg_share(_: &KaniNariEbi) -> f32 {
    1.0
}

#[inline(always)]
fn eval_cells<T: Trace>(cells: &Cells, side: Color, w: &Weights, t: &mut T) -> i32 {
    let board = Occupancy::new(cells);
    let v = side_score(&board, Color::Sente, side, w, t) - side_score(&board, Color::Gote, side, w, t);
    let v = if side == Color::Sente { v } else { -v };
    t.add(at::tempo, if side == Color::Sente { 1.0 } else { -1.0 });
    v + w[at::tempo]
}

/// Score for `c` (positive = good for `c`); `t` gets sente's view.
#[inline(always)]
fn side_score<T: Trace>(board: &Occupancy, c: Color, to_move: Color, w: &Weights, t: &mut T) -> i32 {
    let sg = if c == Color::Sente { 1.0f32 } else { -1.0 };
    let mut s = 0;
    let mut add = |i: usize, n: i32| {
        s += w[i] * n;
        t.add(i, sg * n as f32);
    };
    let waiting = i32::from(c != to_move);
    let (own, enemy, occupied) = (board.of(c), board.of(c.flip()), board.occupied());
    let captured = PIECES as i32 - enemy.count_ones() as i32;
    let home = home_file(c) as i32;
    let target = enemy_home_file(c) as i32;
    let (shrimps, crabs) = (own & board.promoted, own & !board.promoted);
    let (mut crab_moves, mut shrimp_moves, mut advance, mut promotion) = (0, 0, 0, 0);
    for sq in squares(shrimps) {
        shrimp_moves += bits::diagonal_steps(occupied, sq).count_ones() as i32;
    }
    for sq in squares(crabs) {
        crab_moves += bits::slides(occupied, sq).count_ones() as i32;
        let file = file_of(sq) as i32;
        advance += (file - home).abs();
        if file != target && bits::clear_run(occupied, sq, target > file) {
            promotion += 1;
        }
    }
    let shrimp_count = shrimps.count_ones() as i32;
    add(at::mobility, crab_moves);
    add(at::mobility + 1, shrimp_moves);
    add(at::crab_advance, advance);
    add(at::river, (crabs & FLOW).count_ones() as i32);
    add(at::river + 1, (shrimps & FLOW).count_ones() as i32);
    add(at::piece, own.count_ones() as i32);
    add(at::shrimp, shrimp_count);
    add(at::second_capture, i32::from(captured >= 2));
    add(at::second_shrimp, i32::from(shrimp_count >= 2));
    add(at::promotion_threat + usize::from(shrimp_count >= 2), promotion);
    add(at::promotion_threat_waiting, waiting * promotion);
    let sandwich = bits::sandwich_threats(own, enemy, bits::ALL & !occupied).count_ones() as i32;
    add(at::sandwich_threat + usize::from(captured >= 2), sandwich);
    add(at::sandwich_threat_waiting, waiting * sandwich);
    match crab_moves + shrimp_moves {
        0..=2 => add(at::mobility_very_few, 1),
        3..=4 => add(at::mobility_few, 1),
        _ => {}
    }
    s
}

/// The squares of the current (file 3).
const FLOW: u32 = 0b00100_00100_00100_00100_00100;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crab::cell::{self, EMPTY};
    use crate::tune::testing;

    testing::weights_tests! {
        game: KaniNariEbi,
        dir: "kaninariebi",
        mirror: |sfen| testing::mirrored_sfen(sfen, true),
        min_positions: 10_000,
        coverage: |positions, _| {
            let shrimp = positions.iter().filter(|g| g.cells().iter().any(|&c| c != EMPTY && cell::promoted(c))).count();
            assert!(shrimp > 100, "{shrimp}");
        },
    }

    /// Positions reached by random play (captures preferred half the time) from the
    /// perft suite's positions and the start, under both bond switches.
    fn sample_positions() -> Vec<(Rules, KaniNariEbi)> {
        let suite = include_str!("../../../fixtures/perft/kaninariebi.perft");
        let any = Rules { bonds: super::super::Bonds::Any };
        testing::sample(suite, &[(Rules::default(), 180), (any, 60)], 100, |_| true)
    }

    /// The word-at-a-time counts of the win checks and captures against the squares.
    #[test]
    fn tally_counts_pieces_and_shrimps_as_the_squares_do() {
        let mut shrimps = 0;
        for (_, g) in sample_positions() {
            let tally = super::super::rules::Tally::of(g.cells());
            for c in [Color::Sente, Color::Gote] {
                let on = |p: &u8| cell::is(*p, c);
                assert_eq!(tally.pieces(c), g.cells().iter().filter(|p| on(p)).count(), "{}", g.to_sfen());
                let n = g.cells().iter().filter(|p| on(p) && cell::promoted(**p)).count();
                assert_eq!(tally.shrimps(c), n, "{}", g.to_sfen());
                shrimps += n;
            }
        }
        assert!(shrimps > 100, "{shrimps}");
    }

    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let initial = parse(INITIAL_WEIGHTS_TEXT).unwrap();
        let positions: Vec<KaniNariEbi> = sample_positions().into_iter().map(|x| x.1).step_by(5).collect();
        for w in [weights(), &*initial] {
            testing::check_linear_form(&positions, PARAMS, w, |g, f| evaluate_with(g, w, f), mg_share, 0.01);
        }
    }
}
