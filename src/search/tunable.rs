//! How the search reads a game's tunable numbers (`Strategy::SEARCH`,
//! src/game/search_params.rs, where they and their starting values are): the formulas
//! that use them, the late-move reduction table they make, and, in a build with the `spsa`
//! feature (`cargo build --release --features spsa`), the `Spsa_<Name>` options (spins
//! between [`TUNABLE`]'s bounds) that override every game's values for later searches, for
//! tools/spsa.py. The default build has no such options and reads the game's constants
//! only.

use std::sync::OnceLock;

use super::params;
pub(crate) use crate::game::search_params::SearchParams;
#[cfg(any(feature = "spsa", test))]
pub(crate) use crate::game::search_params::TUNABLE;

impl SearchParams {
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
}

/// The late-move reductions of one set of numbers, a table by depth and move number
/// (both capped at 63), made once a search.
pub(crate) struct Reductions(Box<[[u8; 64]; 64]>);

impl Reductions {
    pub(crate) fn new(p: &SearchParams) -> Reductions {
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
    pub(crate) fn get(&self, depth: i32, n: usize) -> i32 {
        self.0[depth.clamp(0, 63) as usize][n.min(63)] as i32
    }
}

/// The values set by `Spsa_*` options, which a search of any game takes over its own
/// (a build with the `spsa` feature; `None` until an option is set).
#[cfg(feature = "spsa")]
static OVERRIDES: std::sync::Mutex<[Option<i32>; TUNABLE.len()]> = std::sync::Mutex::new([None; TUNABLE.len()]);

/// Sets the `Spsa_<name>` option's value (a build with the `spsa` feature).
#[cfg(feature = "spsa")]
pub(crate) fn override_value(i: usize, value: i32) {
    let mut o = OVERRIDES.lock().unwrap_or_else(|e| e.into_inner());
    o[i] = Some(value);
}

/// The numbers a search of a game with `own` numbers uses: its own, or with the `spsa`
/// feature, its own with the options set so far over them.
pub(crate) fn in_use(own: SearchParams) -> SearchParams {
    #[cfg(feature = "spsa")]
    {
        let o = *OVERRIDES.lock().unwrap_or_else(|e| e.into_inner());
        return with_overrides(own, &o);
    }
    #[allow(unreachable_code)]
    own
}

/// `own` with the given values over it, each kept within its bounds.
#[cfg(any(feature = "spsa", test))]
pub(crate) fn with_overrides(mut own: SearchParams, values: &[Option<i32>]) -> SearchParams {
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
    fn values_set_from_outside_are_kept_within_bounds() {
        let p = with_overrides(SearchParams::DEFAULT, &[Some(1_000), None, Some(-5)]);
        assert_eq!(p.aspiration_delta, TUNABLE[0].max);
        assert_eq!(p.futility_margin, 0);
        assert_eq!(p.null_base, TUNABLE[2].min);
        assert_eq!(p.null_divisor, SearchParams::DEFAULT.null_divisor);
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
