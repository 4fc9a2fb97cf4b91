//! The search numbers a tuner moves, one set per game (issue 43 item 4): the margins,
//! reductions and windows whose best values depend on the game's branching factor and
//! evaluation scale. A game's set is `Strategy::SEARCH`, [`SearchParams::DEFAULT`] (the
//! values in src/search/params.rs, where each is explained) with the game's futility
//! margin, unless the game's own tuning run and match found better values.
//!
//! tools/spsa.py tunes them at fixed nodes on Ray. It needs a build with the `spsa`
//! feature (`cargo build --release --features spsa`), where each number is an option,
//! `Spsa_<Name>` (a spin between [`TUNABLE`]'s bounds) that overrides the game's value
//! for every later search. The default build has no such options and reads the game's
//! constants only.

use std::sync::OnceLock;

use super::params;

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
    /// The values of src/search/params.rs, without futility pruning.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_delta: params::ASPIRATION_DELTA,
        futility_margin: 0,
        null_base: params::NULL_BASE,
        null_divisor: params::NULL_DIVISOR,
        null_eval_step: params::NULL_EVAL_STEP,
        probcut_margin: params::PROBCUT_MARGIN,
        probcut_improving: params::PROBCUT_IMPROVING,
        history_prune: params::HISTORY_PRUNE,
        lmr_base_pct: params::LMR_BASE_PCT,
        lmr_divisor_pct: params::LMR_DIVISOR_PCT,
        lmr_history_divisor: params::LMR_HISTORY_DIVISOR,
        lmr_uncertain: params::LMR_UNCERTAIN,
        qs_futility_margin: params::QS_FUTILITY_MARGIN,
    };

    /// The null move's reduction at `depth` where the evaluation `eval` beats `beta`.
    #[inline(always)]
    pub fn null_reduction(&self, depth: i32, eval: i32, beta: i32) -> i32 {
        self.null_base + depth / self.null_divisor + ((eval - beta) / self.null_eval_step).min(params::NULL_EVAL_MAX)
    }

    /// Whether the correction history moved the static evaluation far enough to make it
    /// uncertain.
    #[inline(always)]
    pub fn uncertain(&self, raw_eval: i32, corrected_eval: i32) -> bool {
        (corrected_eval - raw_eval).abs() >= self.lmr_uncertain
    }

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

/// The late-move reductions of one set of numbers, a table by depth and move number
/// (both capped at 63), made once a search.
pub struct Reductions(Box<[[u8; 64]; 64]>);

impl Reductions {
    pub fn new(p: &SearchParams) -> Reductions {
        // The logarithms once a process: a search of a position at depth 1 (a script's
        // batch evaluation) should not pay for thousands of them.
        static LN: OnceLock<[f64; 64]> = OnceLock::new();
        let ln = LN.get_or_init(|| std::array::from_fn(|i| (i as f64).ln()));
        let (base, divisor) = (p.lmr_base_pct as f64 / 100.0, p.lmr_divisor_pct as f64 / 100.0);
        let mut table = Box::new([[0u8; 64]; 64]);
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + ln[d] * ln[m] / divisor) as u8;
            }
        }
        Reductions(table)
    }

    /// The reduction, in plies, of the `n`-th move (from 1) at `depth`.
    #[inline(always)]
    pub fn get(&self, depth: i32, n: usize) -> i32 {
        self.0[depth.clamp(0, 63) as usize][n.min(63)] as i32
    }
}

/// The values set by `Spsa_*` options, which a search of any game takes over its own
/// (a build with the `spsa` feature; `None` until an option is set).
#[cfg(feature = "spsa")]
static OVERRIDES: std::sync::Mutex<[Option<i32>; TUNABLE.len()]> = std::sync::Mutex::new([None; TUNABLE.len()]);

/// Sets the `Spsa_<name>` option's value (a build with the `spsa` feature).
#[cfg(feature = "spsa")]
pub fn override_value(i: usize, value: i32) {
    let mut o = OVERRIDES.lock().unwrap_or_else(|e| e.into_inner());
    o[i] = Some(value);
}

/// The numbers a search of a game with `own` numbers uses: its own, or with the `spsa`
/// feature, its own with the options set so far over them.
pub fn in_use(own: SearchParams) -> SearchParams {
    #[cfg(feature = "spsa")]
    {
        let o = *OVERRIDES.lock().unwrap_or_else(|e| e.into_inner());
        return with_overrides(own, &o);
    }
    #[allow(unreachable_code)]
    own
}

/// `own` with the given values over it, each kept within its bounds.
pub fn with_overrides(mut own: SearchParams, values: &[Option<i32>]) -> SearchParams {
    for (i, v) in values.iter().enumerate().take(TUNABLE.len()) {
        if let Some(v) = v {
            own.set(i, *v);
        }
    }
    own
}

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

    #[test]
    fn values_set_from_outside_are_kept_within_bounds() {
        let p = with_overrides(SearchParams::DEFAULT, &[Some(1_000), None, Some(-5)]);
        assert_eq!(p.aspiration_delta, TUNABLE[0].max);
        assert_eq!(p.futility_margin, 0);
        assert_eq!(p.null_base, TUNABLE[2].min);
        assert_eq!(p.null_divisor, params::NULL_DIVISOR);
    }

    #[test]
    fn a_large_correction_either_way_makes_the_evaluation_uncertain() {
        let p = SearchParams::DEFAULT;
        let u = p.lmr_uncertain;
        assert!(!p.uncertain(0, 0));
        assert!(!p.uncertain(0, u - 1));
        assert!(p.uncertain(0, u));
        assert!(p.uncertain(100, 100 - u));
        assert!(!p.uncertain(-30, 20));
        assert!(p.uncertain(-500, -380));
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(&SearchParams::DEFAULT);
        assert_eq!(r.get(1, 1), 0);
        assert_eq!(r.get(3, 1), 0);
        // ln 3 * ln 3 / 1.75 = 0.690 -> 1.44
        assert_eq!(r.get(3, 3), 1);
        // ln 10 * ln 20 / 1.75 = 3.94 -> 4.69
        assert_eq!(r.get(10, 20), 4);
        // ln 63 * ln 63 / 1.75 = 9.81 -> 10.56
        assert_eq!(r.get(100, 1000), 10);
        for d in 1..63 {
            for m in 1..63 {
                assert!(r.get(d + 1, m) >= r.get(d, m));
                assert!(r.get(d, m + 1) >= r.get(d, m));
            }
        }
        // A larger divisor reduces less.
        let gentle = Reductions::new(&SearchParams { lmr_divisor_pct: 300, ..SearchParams::DEFAULT });
        assert!(gentle.get(10, 20) < r.get(10, 20));
    }

    #[test]
    fn null_move_reductions() {
        let p = SearchParams::DEFAULT;
        assert_eq!(p.null_reduction(3, 0, 0), 4);
        assert_eq!(p.null_reduction(9, 450, 50), 8);
        assert_eq!(p.null_reduction(9, 5_000, 0), 9);
    }
}
