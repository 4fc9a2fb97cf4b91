//! Time management: how long one `go` may think.
//!
//! The plan is computed once from the `go` limits and the side to move's clock. The
//! search stops inside an iteration when `maximum` is reached, and between iterations
//! when the next one would probably overrun `optimum`. With byoyomi or movetime, time
//! left unused is lost, so the plan spends all of it (`use_all`).

use std::time::Duration;

use crate::game::Color;
use crate::protocol::GoParams;

/// Engine options that shape time use.
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    /// Never answer sooner than this (a GUI race with very fast replies; clients.md).
    pub minimum_ms: u64,
    /// Kept in hand for process start-up, pipes and the GUI's own delays.
    pub overhead_ms: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions { minimum_ms: 50, overhead_ms: 100 }
    }
}

/// How long a search may run. `None` limits mean no time limit (infinite, depth, nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub optimum: Option<Duration>,
    pub maximum: Option<Duration>,
    /// The answer is not sent before this much time (unless the GUI says `stop`).
    pub minimum: Duration,
    /// Spend the optimum in full rather than stopping early between iterations.
    pub use_all: bool,
}

impl TimePlan {
    pub fn unlimited(minimum: Duration) -> TimePlan {
        TimePlan { optimum: None, maximum: None, minimum, use_all: false }
    }
}

/// The plan for `params` with `side` to move.
pub fn plan(params: &GoParams, side: Color, opts: TimeOptions) -> TimePlan {
    let ms = Duration::from_millis;
    let min_ms = opts.minimum_ms;
    if params.infinite {
        return TimePlan::unlimited(ms(0));
    }
    if let Some(mt) = params.movetime {
        let limit = mt.saturating_sub(opts.overhead_ms).max(mt / 2).max(1);
        return TimePlan { optimum: Some(ms(limit)), maximum: Some(ms(limit)), minimum: ms(min_ms.min(limit)), use_all: true };
    }
    let (time, inc) = match side {
        Color::Sente => (params.btime, params.binc),
        Color::Gote => (params.wtime, params.winc),
    };
    let byo = params.byoyomi.unwrap_or(0);
    let inc = inc.unwrap_or(0);
    let Some(time) = time.or(if byo > 0 { Some(0) } else { None }) else {
        // No clock at all: only depth/nodes limits, if any.
        let minimum = if params.depth.is_some() || params.nodes.is_some() { 0 } else { min_ms };
        return TimePlan::unlimited(ms(minimum));
    };
    if time == 0 && inc == 0 && byo == 0 {
        // A clock of zero with nothing added: move promptly (clients.md).
        let t = ms(min_ms.max(10));
        return TimePlan { optimum: Some(t), maximum: Some(t), minimum: ms(min_ms), use_all: true };
    }
    // What may be spent on this move without losing on time.
    let hard = (time + byo).saturating_sub(opts.overhead_ms).max((time + byo) / 2).max(1);
    let base = time / 25 + inc * 3 / 4;
    let (optimum, maximum, use_all) = if byo > 0 {
        // The overhead never takes more than half of what this move has: with a short
        // byoyomi (100 ms) thinking 1 ms would throw the move away.
        let less_overhead = |t: u64| t.saturating_sub(opts.overhead_ms).max(t / 2);
        let opt = less_overhead(base + byo).min(hard).max(1);
        (opt, less_overhead(time / 5 + byo).clamp(opt, hard), true)
    } else {
        let opt = base.min(hard).max(1);
        (opt, (opt * 4).min(time / 4 + inc).clamp(opt, hard), false)
    };
    TimePlan { optimum: Some(ms(optimum)), maximum: Some(ms(maximum)), minimum: ms(min_ms.min(maximum)), use_all }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(f: impl FnOnce(&mut GoParams)) -> GoParams {
        let mut p = GoParams::default();
        f(&mut p);
        p
    }

    #[test]
    fn byoyomi_only_spends_the_byoyomi_less_overhead() {
        let p = plan(&go(|p| { p.btime = Some(0); p.wtime = Some(0); p.byoyomi = Some(1000) }), Color::Sente, TimeOptions::default());
        assert_eq!(p.optimum, Some(Duration::from_millis(900)));
        assert!(p.maximum.unwrap() <= Duration::from_millis(900));
        assert!(p.use_all);
    }

    #[test]
    fn short_byoyomi_keeps_half_of_it_for_thinking() {
        let p = plan(&go(|p| { p.btime = Some(0); p.wtime = Some(0); p.byoyomi = Some(100) }), Color::Sente, TimeOptions::default());
        assert_eq!(p.optimum, Some(Duration::from_millis(50)));
        assert_eq!(p.maximum, Some(Duration::from_millis(50)));
        let p = plan(&go(|p| { p.btime = Some(0); p.wtime = Some(0); p.byoyomi = Some(150) }), Color::Sente, TimeOptions::default());
        assert_eq!(p.optimum, Some(Duration::from_millis(75)));
    }

    #[test]
    fn zero_clock_moves_promptly() {
        let p = plan(&go(|p| { p.btime = Some(0); p.wtime = Some(0) }), Color::Gote, TimeOptions::default());
        assert_eq!(p.maximum, Some(Duration::from_millis(50)));
    }

    #[test]
    fn sudden_death_never_exceeds_clock() {
        for t in [1u64, 30, 100, 1000, 60_000] {
            let p = plan(&go(|p| { p.btime = Some(t); p.wtime = Some(t) }), Color::Sente, TimeOptions::default());
            assert!(p.maximum.unwrap() <= Duration::from_millis(t.max(1)), "time {t}: {p:?}");
            assert!(p.optimum <= p.maximum);
        }
    }

    #[test]
    fn uses_the_right_clock() {
        let p = plan(&go(|p| { p.btime = Some(100_000); p.wtime = Some(1000) }), Color::Gote, TimeOptions::default());
        assert!(p.maximum.unwrap() <= Duration::from_millis(1000));
        let q = plan(&go(|p| { p.btime = Some(100_000); p.wtime = Some(1000) }), Color::Sente, TimeOptions::default());
        assert!(q.optimum.unwrap() > Duration::from_millis(1000));
    }

    #[test]
    fn infinite_has_no_limit() {
        let p = plan(&go(|p| p.infinite = true), Color::Sente, TimeOptions::default());
        assert_eq!(p.maximum, None);
    }
}
