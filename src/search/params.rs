//! The search's numbers in one place: window sizes, reductions and pruning margins.
//! Each was set by a match against the build before it (the commit that changed it says
//! by how much it won); none is a rule of a game.

use std::sync::OnceLock;

/// Aspiration window: half-width around the last iteration's score, the first depth
/// that uses one, and the half-width beyond which the window opens fully.
pub const ASPIRATION_DELTA: i32 = 25;
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_GIVE_UP: i32 = 1_000;

/// Null move: depth reduction `NULL_BASE + depth / NULL_DIVISOR`, plus one per
/// `NULL_EVAL_STEP` the evaluation beats beta by (at most 3).
pub const NULL_BASE: i32 = 3;
pub const NULL_DIVISOR: i32 = 3;
pub const NULL_EVAL_STEP: i32 = 200;

/// Reverse futility pruning works within this many plies of the horizon.
pub const RFP_DEPTH: i32 = 7;

/// Late-move pruning: at depth `d`, quiet moves after the first `(3 + d*d) / 2` are
/// skipped (twice as many when the position is improving), up to `LMP_DEPTH`.
pub const LMP_DEPTH: i32 = 8;
pub fn late_move_count(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// Futility pruning of quiet moves: skipped when the static evaluation plus
/// `margin * (1 + FUTILITY_SCALE * d)` (the game's margin, `d` the reduced depth) cannot
/// reach alpha, for `d` up to `FUTILITY_DEPTH`.
pub const FUTILITY_DEPTH: i32 = 7;

/// Captures that lose material by static exchange are skipped within this many plies of
/// the horizon.
pub const SEE_PRUNE_DEPTH: i32 = 4;

/// Quiet moves (drops too) that leave their piece to be taken for less are skipped when
/// the reduced depth is at most this.
pub const SEE_QUIET_DEPTH: i32 = 3;

/// Quiet moves whose history is below `-HISTORY_PRUNE * depth` are skipped near the
/// horizon (reduced depth below 3).
pub const HISTORY_PRUNE: i32 = 4_000;

/// Late-move reductions are lessened by one per this much history.
pub const LMR_HISTORY_DIVISOR: i32 = 8_000;

/// Late-move reductions are lessened by one ply where the correction history moved the
/// static evaluation by at least this much (centipawns): the evaluation is less sure there.
pub const LMR_UNCERTAIN: i32 = 60;
pub fn uncertain(raw_eval: i32, corrected_eval: i32) -> bool {
    (corrected_eval - raw_eval).abs() >= LMR_UNCERTAIN
}

/// Singular extension: from this depth, when the table's entry is at most
/// `SINGULAR_TT_SLACK` plies shallower; the other moves must stay
/// `SINGULAR_MARGIN * depth` below the table's score.
pub const SINGULAR_DEPTH: i32 = 7;
pub const SINGULAR_TT_SLACK: i32 = 3;
pub const SINGULAR_MARGIN: i32 = 2;

/// ProbCut: from this depth, a capture that holds `beta + PROBCUT_MARGIN` (less
/// `PROBCUT_IMPROVING` when improving) at `PROBCUT_REDUCTION` plies less cuts the node.
pub const PROBCUT_DEPTH: i32 = 5;
pub const PROBCUT_MARGIN: i32 = 190;
pub const PROBCUT_IMPROVING: i32 = 45;
pub const PROBCUT_REDUCTION: i32 = 4;

/// Delta pruning in the quiescence search: a capture is skipped when the standing
/// score plus what it wins (`Strategy::material_gain`) plus this margin stays at or below
/// alpha, unless it gives check.
pub const QS_FUTILITY_MARGIN: i32 = 150;

/// Internal iterative reduction: a node without a table move loses a ply from this depth.
pub const IIR_DEPTH: i32 = 4;

/// The late-move reduction, in plies, of the `n`-th move (from 1) at `depth`:
/// `0.75 + ln(depth) * ln(n) / LMR_DIVISOR`, the logarithmic formula most engines use.
/// (2.25 before; 1.75 won +13.9 +/- 39 Elo in 66 shogi at 20k nodes, 200 games, and
/// reaches depth 18 of the bench middlegame in 23% fewer nodes.)
pub const LMR_DIVISOR: f64 = 1.75;
pub fn reduction(depth: i32, n: usize) -> i32 {
    static TABLE: OnceLock<Vec<[u8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate() {
                    if d > 0 && m > 0 {
                        *r = (0.75 + (d as f64).ln() * (m as f64).ln() / LMR_DIVISOR) as u8;
                    }
                }
                row
            })
            .collect()
    });
    table[depth.clamp(0, 63) as usize][n.min(63)] as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_correction_either_way_makes_the_evaluation_uncertain() {
        assert!(!uncertain(0, 0));
        assert!(!uncertain(0, LMR_UNCERTAIN - 1));
        assert!(uncertain(0, LMR_UNCERTAIN));
        assert!(uncertain(100, 100 - LMR_UNCERTAIN));
        assert!(!uncertain(-30, 20));
        assert!(uncertain(-500, -380));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(1, 1), 0);
        assert_eq!(reduction(3, 1), 0);
        // ln 3 * ln 3 / 1.75 = 0.690 -> 1.44
        assert_eq!(reduction(3, 3), 1);
        // ln 10 * ln 20 / 1.75 = 3.94 -> 4.69
        assert_eq!(reduction(10, 20), 4);
        // ln 63 * ln 63 / 1.75 = 9.81 -> 10.56
        assert_eq!(reduction(100, 1000), 10);
        for d in 1..63 {
            for m in 1..63 {
                assert!(reduction(d + 1, m) >= reduction(d, m));
                assert!(reduction(d, m + 1) >= reduction(d, m));
            }
        }
    }

    #[test]
    fn late_move_counts() {
        assert_eq!(late_move_count(1, false), 2);
        assert_eq!(late_move_count(1, true), 4);
        assert_eq!(late_move_count(4, false), 9);
        assert_eq!(late_move_count(8, true), 67);
    }
}
