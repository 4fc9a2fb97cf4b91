//! The search's numbers in one place: move ordering, window sizes, pruning margins,
//! reductions and extensions, the history statistics and time management. Most were set
//! by a match against the build before (the commit that changed one says by how much it
//! won; docs/STRENGTH.md lists the matches); none is a rule of a game. A game's own
//! margins (`Strategy::FUTILITY_MARGIN` and its switches) live with the game.
//!
//! The sections follow the node search's steps (src/search/alphabeta.rs): the tree's
//! limits, move ordering, aspiration windows (src/search/mod.rs), reverse futility, null
//! move, ProbCut, internal iterative reduction, pruning in the move loop, extensions,
//! late-move reductions, quiescence; then the statistics (src/search/history.rs) and time
//! management (src/search/time.rs, src/search/mod.rs).
//!
//! Every value keeps the type its formula computes in, so moving a number here changes
//! no result: the `bench` node counts are the check.
//!
//! The margins, reductions and windows a tuner moves are read through each game's
//! `Strategy::SEARCH` (src/game/search_params.rs, where their starting values are): a
//! game keeps values of its own where its tuning run and match found better.

use std::time::Duration;

// ---------------------------------------------------------------------------------------
// The tree's limits

/// Plies of quiescence below the horizon; at this many the standing score is the answer.
pub(crate) const MAX_QPLY: usize = 12;

/// How many positions back (on the game's path and the search's) a repetition is
/// looked for.
pub(crate) const REPETITION_WINDOW: usize = 100;

/// The search looks at the stop flag, the clock and the node limit once per this many
/// nodes (a power of two).
pub(crate) const POLL_INTERVAL: u64 = 1024;

// ---------------------------------------------------------------------------------------
// Move ordering (a move's ordering score is its class plus a value within it)

/// The transposition table's move: first, and the other moves are scored only if it
/// does not cut.
pub(crate) const ORDER_TT: i32 = 1_000_000;
/// Captures and promotions that do not lose material by exchange, plus the game's
/// `order_score` (MVV-LVA).
pub(crate) const ORDER_GOOD_TACTICAL: i32 = 200_000;
/// The two killers of the ply (the last quiet moves that cut here), newest first.
pub(crate) const ORDER_KILLER_1: i32 = 90_000;
pub(crate) const ORDER_KILLER_2: i32 = 85_000;
/// The countermove: the quiet move that refuted the previous move last time.
pub(crate) const ORDER_COUNTER: i32 = 80_000;
/// Captures that lose material by exchange go after the killers and the countermove,
/// with their `order_score` clamped to
/// `0..=ORDER_BAD_TACTICAL_SPAN` so that they stay in their class. Quiet moves follow,
/// by history (at most `3 * HISTORY_MAX`, below this class).
pub(crate) const ORDER_BAD_TACTICAL: i32 = 60_000;
pub(crate) const ORDER_BAD_TACTICAL_SPAN: i32 = 9_999;

// ---------------------------------------------------------------------------------------
// Aspiration windows (src/search/mod.rs)

// The first window's half-width, `aspiration_delta`: src/game/search_params.rs (tuned per game).
/// The first depth that uses a window, and the half-width beyond which the window opens
/// fully. After a fail the half-width grows by `1 / ASPIRATION_WIDEN_DIVISOR` of itself
/// (times 1.5).
pub(crate) const ASPIRATION_MIN_DEPTH: i32 = 4;
pub(crate) const ASPIRATION_GIVE_UP: i32 = 1_000;
pub(crate) const ASPIRATION_WIDEN_DIVISOR: i32 = 2;

// ---------------------------------------------------------------------------------------
// Reverse futility pruning (step 5)

/// Reverse futility pruning works within this many plies of the horizon: a node whose
/// evaluation beats beta by the game's margin times the depth (one less when improving)
/// returns the evaluation.
pub(crate) const RFP_DEPTH: i32 = 7;

// ---------------------------------------------------------------------------------------
// Null move (step 6)

/// The shallowest depth at which the side to move passes to see whether beta still holds.
pub(crate) const NULL_MIN_DEPTH: i32 = 3;
// `null_base`, `null_divisor`, `null_eval_step`: src/game/search_params.rs (tuned per game).
/// The null move's reduction grows by at most this many plies for how far the evaluation
/// beats beta.
pub(crate) const NULL_EVAL_MAX: i32 = 3;

// ---------------------------------------------------------------------------------------
// ProbCut (step 7)

/// ProbCut: from this depth, a capture that holds `beta + probcut_margin` (less
/// `probcut_improving` when improving) at `PROBCUT_REDUCTION` plies less cuts the node.
pub(crate) const PROBCUT_DEPTH: i32 = 5;
// `probcut_margin`, `probcut_improving`: src/game/search_params.rs (tuned per game).
pub(crate) const PROBCUT_REDUCTION: i32 = 4;
/// How many captures ProbCut tries, and how many more at an expected cut node.
pub(crate) const PROBCUT_TRIES: usize = 2;
pub(crate) const PROBCUT_CUT_NODE_TRIES: usize = 2;
#[inline(always)]
pub(crate) fn probcut_tries(cut: bool) -> usize {
    PROBCUT_TRIES + PROBCUT_CUT_NODE_TRIES * cut as usize
}

// ---------------------------------------------------------------------------------------
// Internal iterative reduction (step 8)

/// Internal iterative reduction: a PV or expected cut node without a table move loses a
/// ply from this depth (its move ordering is poor).
pub(crate) const IIR_DEPTH: i32 = 4;

// ---------------------------------------------------------------------------------------
// Pruning in the move loop (step 9a), in the games that opt in (`Strategy::QUIET_PRUNING`)

/// Late-move pruning: at depth `d`, quiet moves after the first `(3 + d*d) / 2` are
/// skipped (twice as many when the position is improving), up to `LMP_DEPTH`.
pub(crate) const LMP_DEPTH: i32 = 8;
#[inline(always)]
pub(crate) fn late_move_count(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// Futility pruning of quiet moves: skipped when the static evaluation plus
/// `margin * (1 + d)` (the game's margin, `d` the reduced depth) cannot reach alpha,
/// for `d` up to `FUTILITY_DEPTH`.
pub(crate) const FUTILITY_DEPTH: i32 = 7;

/// Captures that lose material by static exchange are skipped within this many plies of
/// the horizon.
pub(crate) const SEE_PRUNE_DEPTH: i32 = 4;

/// Quiet moves (drops too) that leave their piece to be taken for less are skipped when
/// the reduced depth is at most this.
pub(crate) const SEE_QUIET_DEPTH: i32 = 3;

// `history_prune`: src/game/search_params.rs (tuned per game).
/// Pruning by bad history works where the reduced depth is below this.
pub(crate) const HISTORY_PRUNE_DEPTH: i32 = 3;

// ---------------------------------------------------------------------------------------
// Extensions (step 9b)

/// Singular extension: from this depth, when the table's entry is at most
/// `SINGULAR_TT_SLACK` plies shallower; the other moves must stay
/// `SINGULAR_MARGIN * depth` below the table's score.
pub(crate) const SINGULAR_DEPTH: i32 = 7;
pub(crate) const SINGULAR_TT_SLACK: i32 = 3;
pub(crate) const SINGULAR_MARGIN: i32 = 2;
/// The depth of the search without the table's move: half the node's remaining depth.
#[inline(always)]
pub(crate) fn singular_search_depth(depth: i32) -> i32 {
    (depth - 1) / 2
}

/// A check that does not lose material by exchange is extended by a ply while the path
/// is shorter than this many times the root depth, so perpetual checks cannot run away.
pub(crate) const CHECK_EXTENSION_REACH: i32 = 2;

// ---------------------------------------------------------------------------------------
// Late-move reductions (step 9c)

/// Moves after the first are reduced from this depth (captures that win material and
/// promotions are not).
pub(crate) const LMR_MIN_DEPTH: i32 = 2;

// The late-move reduction's formula and its corrections (`lmr_base_pct`, `lmr_divisor_pct`,
// `lmr_history_divisor`, `lmr_uncertain`): src/game/search_params.rs (tuned per game).

// ---------------------------------------------------------------------------------------
// Quiescence

// `qs_futility_margin`, delta pruning's margin: src/game/search_params.rs (tuned per game).

// ---------------------------------------------------------------------------------------
// Move-ordering statistics (src/search/history.rs, step 11)

/// The bound every history entry stays within (the "gravity" update keeps it there;
/// entries are `i16`).
pub(crate) const HISTORY_MAX: i32 = 16_384;
/// The history bonus (or malus) of a move searched at depth `d`:
/// `HISTORY_BONUS_QUADRATIC * d * d + HISTORY_BONUS_LINEAR * d`, at most `HISTORY_BONUS_MAX`.
pub(crate) const HISTORY_BONUS_QUADRATIC: i32 = 16;
pub(crate) const HISTORY_BONUS_LINEAR: i32 = 32;
pub(crate) const HISTORY_BONUS_MAX: i32 = 1_600;
/// Quiet moves remembered per node for the maluses after a cut (later ones get none).
pub(crate) const MAX_QUIETS: usize = 64;

/// The largest correction of the static evaluation under one key, in centipawns.
pub(crate) const CORRECTION_MAX: i32 = 100;
/// A search to depth `d` moves a correction entry `(d + 1)` (at most
/// `CORRECTION_WEIGHT_MAX`) `CORRECTION_WEIGHT_SCALE`ths of the way to its target.
pub(crate) const CORRECTION_WEIGHT_MAX: i32 = 16;
pub(crate) const CORRECTION_WEIGHT_SCALE: i32 = 256;

// ---------------------------------------------------------------------------------------
// Time management: the plan (src/search/time.rs, `plan`)

/// Defaults of the options MinimumThinkingTime, MoveOverhead and ByoyomiOverhead
/// (milliseconds). A byoyomi keeps 250 ms in hand because a GUI that starts a process
/// per move counts that start against the byoyomi.
pub(crate) const DEFAULT_MINIMUM_MS: u64 = 100;
pub(crate) const DEFAULT_OVERHEAD_MS: u64 = 100;
pub(crate) const DEFAULT_BYOYOMI_OVERHEAD_MS: u64 = 250;

/// A fixed move time (`go movetime M`) is searched whole less this latency margin (the
/// answer's way out through the pipes), as Stockfish and Fairy-Stockfish search the whole
/// `movetime`: `MoveOverhead` guards clocks, not a fixed time.
pub(crate) const MOVETIME_MARGIN_MS: u64 = 10;

/// Whatever margin is kept in hand, a move may use at least `1 / KEEP_DIVISOR` of its
/// time (a short byoyomi still gets some thought).
pub(crate) const KEEP_DIVISOR: u64 = 4;

/// With nothing on the mover's clock, the move takes the minimum thinking time, but at
/// least this many milliseconds.
pub(crate) const EMPTY_CLOCK_MS: u64 = 10;

/// The target (optimum) of a clocked move: `1 / OPTIMUM_CLOCK_DIVISOR` of the clock plus
/// `OPTIMUM_INC_NUMERATOR / OPTIMUM_INC_DENOMINATOR` of the increment (plus the byoyomi).
pub(crate) const OPTIMUM_CLOCK_DIVISOR: u64 = 25;
pub(crate) const OPTIMUM_INC_NUMERATOR: u64 = 3;
pub(crate) const OPTIMUM_INC_DENOMINATOR: u64 = 4;

/// The hard limit (maximum) under byoyomi: `1 / BYOYOMI_MAXIMUM_CLOCK_DIVISOR` of the
/// clock plus the byoyomi.
pub(crate) const BYOYOMI_MAXIMUM_CLOCK_DIVISOR: u64 = 5;

/// The hard limit in sudden death and increment: `MAXIMUM_OPTIMUM_FACTOR` times the
/// optimum, but at most `1 / MAXIMUM_CLOCK_DIVISOR` of the clock plus the increment.
pub(crate) const MAXIMUM_OPTIMUM_FACTOR: u64 = 4;
pub(crate) const MAXIMUM_CLOCK_DIVISOR: u64 = 4;

// ---------------------------------------------------------------------------------------
// Time management: between iterations (src/search/time.rs `time_scale`, src/search/mod.rs)
//
// A clocked search (not byoyomi, not movetime) scales its optimum by what the iterations
// showed.

/// A new iteration starts only within this share of the scaled optimum (an iteration
/// takes about as long as all before it).
pub(crate) const ITERATION_START_SHARE: f64 = 0.6;

/// The best-move changes at the root are divided by this at every new iteration, so
/// old changes fade.
pub(crate) const CHANGES_DECAY_DIVISOR: f64 = 2.0;
/// The instability factor is `INSTABILITY_BASE` plus the decayed best-move changes.
pub(crate) const INSTABILITY_BASE: f64 = 0.75;

/// The score's fall is measured against the iteration this many before the last.
pub(crate) const FALL_LOOKBACK: usize = 3;
/// A falling score asks for `1 + FALL_PER_CP` more per centipawn it fell, within
/// `FALL_MIN..=FALL_MAX` (a rising one for less).
pub(crate) const FALL_PER_CP: f64 = 0.005;
pub(crate) const FALL_MIN: f64 = 0.8;
pub(crate) const FALL_MAX: f64 = 1.5;

/// An easy move: when the best move has taken at least `EASY_EFFORT` of the nodes, the
/// search spends `EASY_FACTOR` of its target.
pub(crate) const EASY_EFFORT: f64 = 0.9;
pub(crate) const EASY_FACTOR: f64 = 0.7;

/// Bounds of `time::time_scale`.
pub(crate) const MIN_SCALE: f64 = 0.5;
pub(crate) const MAX_SCALE: f64 = 2.5;

/// A search with a time limit that has found a mate in `n` plies stops once it has
/// searched `n + MATE_STOP_DEPTH` plies deep.
pub(crate) const MATE_STOP_DEPTH: i32 = 2;

// ---------------------------------------------------------------------------------------
// Time management: the hard deadline (src/search/time.rs, `Deadline`)

/// How often the deadline watcher looks at the clock.
pub(crate) const WATCH_INTERVAL: Duration = Duration::from_millis(2);
/// The deadline keeps `DEADLINE_LAG_FACTOR` times the watcher's worst wake-up lag in
/// hand, never more than `1 / DEADLINE_MARGIN_DIVISOR` of the limit.
pub(crate) const DEADLINE_LAG_FACTOR: u32 = 4;
pub(crate) const DEADLINE_MARGIN_DIVISOR: u32 = 2;

// The ordering classes do not overlap, and polling takes a mask.
const _: () = {
    assert!(ORDER_BAD_TACTICAL + ORDER_BAD_TACTICAL_SPAN < ORDER_COUNTER);
    assert!(3 * HISTORY_MAX < ORDER_BAD_TACTICAL);
    assert!(ORDER_COUNTER < ORDER_KILLER_2 && ORDER_KILLER_2 < ORDER_KILLER_1);
    assert!(ORDER_KILLER_1 < ORDER_GOOD_TACTICAL && ORDER_GOOD_TACTICAL < ORDER_TT);
    assert!(POLL_INTERVAL.is_power_of_two());
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_move_counts() {
        assert_eq!(late_move_count(1, false), 2);
        assert_eq!(late_move_count(1, true), 4);
        assert_eq!(late_move_count(4, false), 9);
        assert_eq!(late_move_count(8, true), 67);
    }

    #[test]
    fn probcut_tries_at_cut_nodes() {
        assert_eq!((probcut_tries(false), probcut_tries(true)), (2, 4));
    }
}
