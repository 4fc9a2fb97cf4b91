//! The search's numbers a game may tune (issue 43 item 4): the margins, reductions and
//! windows whose best values depend on the game's branching and evaluation scale. A
//! game's set is `Strategy::SEARCH`, [`SearchParams::DEFAULT`] with the game's futility
//! margin unless its own tuning run and match found better values. The search reads them
//! through src/search/tunable.rs (where, in a build with the `spsa` feature, `Spsa_*`
//! options override them); the rest of its numbers are in src/search/params.rs. The
//! matches that set them are in docs/STRENGTH.md.

/// One tunable number: its option's name (`Spsa_<Name>`), its starting value (as the
/// option lines write it) and the bounds a tuner keeps it in (a divisor's above zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tunable {
    pub(crate) name: &'static str,
    pub(crate) default: &'static str,
    pub(crate) min: i32,
    pub(crate) max: i32,
}

/// Declares the numbers once, each as `field: "Spsa_<Name>" = default, min..=max;`:
/// it yields the struct [`SearchParams`], its `DEFAULT`, `get` and `set` by index and
/// [`TUNABLE`], all in the order written.
macro_rules! search_params {
    ($($(#[$doc:meta])* $field:ident: $name:literal = $default:literal, $min:literal..=$max:literal;)+) => {
        /// The numbers, each an `i32` as its formula computes in (the LMR base and divisor
        /// in hundredths).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $($(#[$doc])* pub $field: i32,)+
        }

        impl SearchParams {
            /// The declared defaults: where every game starts, without futility pruning.
            pub const DEFAULT: SearchParams = SearchParams { $($field: $default,)+ };

            /// The numbers' fields, in [`TUNABLE`]'s order.
            fn fields_mut(&mut self) -> [&mut i32; TUNABLE.len()] {
                [$(&mut self.$field),+]
            }
        }

        /// The numbers in [`SearchParams::get`]'s order.
        pub(crate) const TUNABLE: [Tunable; [$($name),+].len()] =
            [$(Tunable { name: $name, default: stringify!($default), min: $min, max: $max }),+];
    };
}

search_params! {
    /// Half-width of the first aspiration window around the last iteration's score
    /// (src/search/params.rs has the window's other numbers).
    aspiration_delta: "Spsa_AspirationDelta" = 25, 5..=100;
    /// Reverse futility and futility pruning's margin a ply (0: no futility pruning);
    /// the game's `Strategy::FUTILITY_MARGIN` by default.
    futility_margin: "Spsa_FutilityMargin" = 0, 0..=400;
    /// Null move: depth reduction `null_base + depth / null_divisor`, plus one per
    /// `null_eval_step` the evaluation beats beta by (at most `params::NULL_EVAL_MAX`).
    null_base: "Spsa_NullBase" = 3, 1..=6;
    null_divisor: "Spsa_NullDivisor" = 3, 1..=8;
    null_eval_step: "Spsa_NullEvalStep" = 200, 50..=600;
    /// ProbCut's raised beta: `beta + probcut_margin`, less `probcut_improving` when
    /// improving.
    probcut_margin: "Spsa_ProbcutMargin" = 190, 50..=500;
    probcut_improving: "Spsa_ProbcutImproving" = 45, 0..=150;
    /// Quiet moves whose history is below `-history_prune * depth` are skipped near the
    /// horizon (reduced depth below `params::HISTORY_PRUNE_DEPTH`).
    history_prune: "Spsa_HistoryPrune" = 4000, 500..=16_000;
    /// The late-move reduction, in plies, of the `n`-th move (from 1) at `depth`:
    /// `(lmr_base_pct + 100 ln(depth) ln(n) / lmr_divisor_pct) / 100`, the logarithmic
    /// formula most engines use (`search::tunable::Reductions`).
    lmr_base_pct: "Spsa_LmrBase" = 75, 0..=250;
    lmr_divisor_pct: "Spsa_LmrDivisor" = 175, 80..=400;
    /// Late-move reductions are lessened by one per this much history.
    lmr_history_divisor: "Spsa_LmrHistoryDivisor" = 8000, 1_000..=30_000;
    /// Late-move reductions are lessened by one ply where the correction history moved
    /// the static evaluation by at least this much (centipawns): the evaluation is less
    /// sure there (in the games that opt in).
    lmr_uncertain: "Spsa_LmrUncertain" = 60, 10..=300;
    /// Delta pruning in the quiescence search: a capture is skipped when the standing
    /// score plus what it wins (`Strategy::material_gain`) plus this margin stays at or
    /// below alpha, unless it gives check.
    qs_futility_margin: "Spsa_QsFutilityMargin" = 150, 0..=500;
}

impl SearchParams {
    /// The value of [`TUNABLE`]'s `i`-th number.
    pub fn get(&self, i: usize) -> i32 {
        let mut copy = *self;
        *copy.fields_mut()[i]
    }

    /// Sets [`TUNABLE`]'s `i`-th number, kept within its bounds.
    pub fn set(&mut self, i: usize, value: i32) {
        let t = &TUNABLE[i];
        *self.fields_mut()[i] = value.clamp(t.min, t.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_is_reached_by_its_own_index_and_the_defaults_are_in_bounds() {
        let d = SearchParams::DEFAULT;
        for (i, t) in TUNABLE.iter().enumerate() {
            assert!((t.min..=t.max).contains(&d.get(i)), "{} = {} out of bounds", t.name, d.get(i));
            assert_eq!(t.default.parse(), Ok(d.get(i)), "{}: the option's default", t.name);
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
