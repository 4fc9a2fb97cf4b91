//! The search's numbers a game may tune (issue 43 item 4): the margins, reductions and
//! windows whose best values depend on the game's branching and evaluation scale. A
//! game's set is `Strategy::SEARCH`, [`SearchParams::DEFAULT`] with the game's futility
//! margin unless its own tuning run and match found better values. The search reads them
//! through src/search/tunable.rs (where, in a build with the `spsa` feature, `Spsa_*`
//! options override them); the rest of its numbers are in src/search/params.rs.

/// Half-width of the first aspiration window around the last iteration's score
/// (src/search/params.rs has the window's other numbers).
pub const ASPIRATION_DELTA: i32 = 25;

/// Null move: depth reduction `NULL_BASE + depth / NULL_DIVISOR`, plus one per
/// `NULL_EVAL_STEP` the evaluation beats beta by (at most `params::NULL_EVAL_MAX`).
pub const NULL_BASE: i32 = 3;
pub const NULL_DIVISOR: i32 = 3;
pub const NULL_EVAL_STEP: i32 = 200;

/// ProbCut's raised beta: `beta + PROBCUT_MARGIN`, less `PROBCUT_IMPROVING` when
/// improving. (Added at 190: +10.4 +/- 41.9 Elo in 66 shogi at 20k nodes.)
pub const PROBCUT_MARGIN: i32 = 190;
pub const PROBCUT_IMPROVING: i32 = 45;

/// Quiet moves whose history is below `-HISTORY_PRUNE * depth` are skipped near the
/// horizon (reduced depth below `params::HISTORY_PRUNE_DEPTH`).
pub const HISTORY_PRUNE: i32 = 4_000;

/// The late-move reduction, in plies, of the `n`-th move (from 1) at `depth`:
/// `LMR_BASE + ln(depth) * ln(n) / LMR_DIVISOR`, the logarithmic formula most engines use,
/// both in hundredths (`search::tunable::Reductions`). (A divisor of 2.25 before; 1.75 won
/// +13.9 +/- 39 Elo in 66 shogi at 20k nodes, 200 games, and reaches depth 18 of the bench
/// middlegame in 23% fewer nodes.)
pub const LMR_BASE_PCT: i32 = 75;
pub const LMR_DIVISOR_PCT: i32 = 175;

/// Late-move reductions are lessened by one per this much history.
pub const LMR_HISTORY_DIVISOR: i32 = 8_000;

/// Late-move reductions are lessened by one ply where the correction history moved the
/// static evaluation by at least this much (centipawns): the evaluation is less sure there.
pub const LMR_UNCERTAIN: i32 = 60;

/// Delta pruning in the quiescence search: a capture is skipped when the standing
/// score plus what it wins (`Strategy::material_gain`) plus this margin stays at or below
/// alpha, unless it gives check. (Kokesu +20.0 +/- 25.6 Elo at 20k nodes, 400 games.)
pub const QS_FUTILITY_MARGIN: i32 = 150;

/// The numbers, each an `i32` as its formula computes in (the LMR base and divisor in
/// hundredths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window.
    pub aspiration_delta: i32,
    /// Reverse futility and futility pruning's margin a ply (0: no futility pruning);
    /// the game's `Strategy::FUTILITY_MARGIN` by default.
    pub futility_margin: i32,
    /// Null move: reduction `null_base + depth / null_divisor` plus one per
    /// `null_eval_step` the evaluation beats beta by.
    pub null_base: i32,
    pub null_divisor: i32,
    pub null_eval_step: i32,
    /// ProbCut's raised beta: `beta + probcut_margin - probcut_improving * improving`.
    pub probcut_margin: i32,
    pub probcut_improving: i32,
    /// Quiet moves whose history is below `-history_prune * depth` are pruned near the
    /// horizon.
    pub history_prune: i32,
    /// The late-move reduction `(lmr_base_pct + 100 ln d ln n / lmr_divisor_pct) / 100`.
    pub lmr_base_pct: i32,
    pub lmr_divisor_pct: i32,
    /// One ply less reduction per this much history.
    pub lmr_history_divisor: i32,
    /// A correction of at least this much makes the evaluation uncertain (one ply less
    /// reduction, in the games that opt in).
    pub lmr_uncertain: i32,
    /// Delta pruning's margin in the quiescence search.
    pub qs_futility_margin: i32,
}

impl SearchParams {
    /// The constants above: where every game starts, without futility pruning.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_delta: ASPIRATION_DELTA,
        futility_margin: 0,
        null_base: NULL_BASE,
        null_divisor: NULL_DIVISOR,
        null_eval_step: NULL_EVAL_STEP,
        probcut_margin: PROBCUT_MARGIN,
        probcut_improving: PROBCUT_IMPROVING,
        history_prune: HISTORY_PRUNE,
        lmr_base_pct: LMR_BASE_PCT,
        lmr_divisor_pct: LMR_DIVISOR_PCT,
        lmr_history_divisor: LMR_HISTORY_DIVISOR,
        lmr_uncertain: LMR_UNCERTAIN,
        qs_futility_margin: QS_FUTILITY_MARGIN,
    };

    /// The value of [`TUNABLE`]'s `i`-th number.
    pub fn get(&self, i: usize) -> i32 {
        let mut copy = *self;
        *copy.field_mut(i)
    }

    /// Sets [`TUNABLE`]'s `i`-th number, kept within its bounds.
    pub fn set(&mut self, i: usize, value: i32) {
        let t = &TUNABLE[i];
        *self.field_mut(i) = value.clamp(t.min, t.max);
    }

    /// The `i`-th number's field, in [`TUNABLE`]'s order (the last for any larger `i`).
    fn field_mut(&mut self, i: usize) -> &mut i32 {
        match i {
            0 => &mut self.aspiration_delta,
            1 => &mut self.futility_margin,
            2 => &mut self.null_base,
            3 => &mut self.null_divisor,
            4 => &mut self.null_eval_step,
            5 => &mut self.probcut_margin,
            6 => &mut self.probcut_improving,
            7 => &mut self.history_prune,
            8 => &mut self.lmr_base_pct,
            9 => &mut self.lmr_divisor_pct,
            10 => &mut self.lmr_history_divisor,
            11 => &mut self.lmr_uncertain,
            _ => &mut self.qs_futility_margin,
        }
    }
}

/// One tunable number: its option's name (`Spsa_<Name>`) and the bounds a tuner keeps it
/// in (a divisor's above zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
}

const fn t(name: &'static str, min: i32, max: i32) -> Tunable {
    Tunable { name, min, max }
}

/// The numbers in [`SearchParams::get`]'s order.
pub const TUNABLE: [Tunable; 13] = [
    t("Spsa_AspirationDelta", 5, 100),
    t("Spsa_FutilityMargin", 0, 400),
    t("Spsa_NullBase", 1, 6),
    t("Spsa_NullDivisor", 1, 8),
    t("Spsa_NullEvalStep", 50, 600),
    t("Spsa_ProbcutMargin", 50, 500),
    t("Spsa_ProbcutImproving", 0, 150),
    t("Spsa_HistoryPrune", 500, 16_000),
    t("Spsa_LmrBase", 0, 250),
    t("Spsa_LmrDivisor", 80, 400),
    t("Spsa_LmrHistoryDivisor", 1_000, 30_000),
    t("Spsa_LmrUncertain", 10, 300),
    t("Spsa_QsFutilityMargin", 0, 500),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_is_reached_by_its_own_index_and_the_defaults_are_in_bounds() {
        let d = SearchParams::DEFAULT;
        for (i, t) in TUNABLE.iter().enumerate() {
            assert!((t.min..=t.max).contains(&d.get(i)), "{} = {} out of bounds", t.name, d.get(i));
            let mut p = d;
            p.set(i, t.max);
            assert_eq!(p.get(i), t.max);
            // Only that number changed.
            for j in (0..TUNABLE.len()).filter(|&j| j != i) {
                assert_eq!(p.get(j), d.get(j), "{} moved {}", t.name, TUNABLE[j].name);
            }
        }
        assert!(TUNABLE.iter().all(|t| t.min > 0 || !t.name.contains("Divisor")));
    }
}
