//! Time management: how long one `go` may think, and the clock that holds it to that.
//!
//! The plan is computed once from the `go` limits and the side to move's clock. The
//! search stops inside an iteration when `maximum` is reached, and between iterations
//! when the next one would probably overrun `optimum` times [`time_scale`] of what the
//! iterations so far showed ([`Progress`]: best-move changes, a falling score, the best
//! move's share of the nodes). With byoyomi or movetime, time left unused is lost, so
//! the plan spends all of it (`use_all`); a `movetime` is searched whole less
//! `MOVETIME_MARGIN_MS` (10 ms), and `MoveOverhead` is kept only from clocks.
//!
//! Whatever the search does, a [`Deadline`] watched by a thread of its own ([`watch`])
//! stops it at the hard limit by the wall clock (not by node counts), less a margin that
//! grows with how late that thread is woken: a starved machine also delays what koma
//! cannot see (its own start, the pipes, the GUI). The clock is a [`Clock`], so tests
//! drive it by hand.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::params::{
    BYOYOMI_MAXIMUM_CLOCK_DIVISOR, DEADLINE_LAG_FACTOR, DEADLINE_MARGIN_DIVISOR, EASY_EFFORT, EASY_FACTOR,
    EMPTY_CLOCK_MS, FALL_MAX, FALL_MIN, FALL_PER_CP, INSTABILITY_BASE, ITERATION_START_SHARE, KEEP_DIVISOR,
    MAXIMUM_CLOCK_DIVISOR, MAXIMUM_OPTIMUM_FACTOR, MAX_SCALE, MIN_SCALE, MOVETIME_MARGIN_MS, OPTIMUM_CLOCK_DIVISOR,
    OPTIMUM_INC_DENOMINATOR, OPTIMUM_INC_NUMERATOR, WATCH_INTERVAL,
};
use super::Signals;
use crate::game::Color;
use crate::search::limits::GoParams;

/// Engine options that shape time use.
#[derive(Clone, Copy, Debug)]
pub struct TimeOptions {
    /// Never answer a clocked `go` sooner than this (a GUI race with very fast replies).
    pub minimum_ms: u64,
    /// Kept in hand for process start-up, pipes and the GUI's own delays.
    pub overhead_ms: u64,
    /// Kept in hand under byoyomi, where a GUI that starts a process per move counts
    /// that start against the byoyomi (the larger of this and `overhead_ms` is used).
    pub byoyomi_overhead_ms: u64,
}

/// The options' defaults (in `params`, named here for the option table).
pub(crate) use super::params::{DEFAULT_BYOYOMI_OVERHEAD_MS, DEFAULT_MINIMUM_MS, DEFAULT_OVERHEAD_MS};

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            minimum_ms: DEFAULT_MINIMUM_MS,
            overhead_ms: DEFAULT_OVERHEAD_MS,
            byoyomi_overhead_ms: DEFAULT_BYOYOMI_OVERHEAD_MS,
        }
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

    fn fixed(limit_ms: u64, minimum_ms: u64) -> TimePlan {
        let t = Duration::from_millis(limit_ms);
        TimePlan {
            optimum: Some(t),
            maximum: Some(t),
            minimum: Duration::from_millis(minimum_ms.min(limit_ms)),
            use_all: true,
        }
    }
}

/// Times beyond this (about 35 years) are taken as this: no arithmetic on a number from
/// the GUI can overflow.
const MAX_MS: u64 = 1 << 40;

/// `total` less `margin`, but never less than a quarter of `total` (`KEEP_DIVISOR`: a
/// short byoyomi still gets some thought) and never zero.
fn keep(total: u64, margin: u64) -> u64 {
    total.saturating_sub(margin).max(total / KEEP_DIVISOR).max(1)
}

/// The plan for `params` with `side` to move.
pub(crate) fn plan(params: &GoParams, side: Color, opts: TimeOptions) -> TimePlan {
    let ms = Duration::from_millis;
    let cap = |v: Option<u64>| v.map(|v| v.min(MAX_MS));
    let min_ms = opts.minimum_ms.min(MAX_MS);
    let overhead = opts.overhead_ms.min(MAX_MS);
    if params.infinite {
        return TimePlan::unlimited(ms(0));
    }
    if let Some(mt) = cap(params.movetime) {
        // A fixed time is the GUI's to choose: searched whole, less a latency margin.
        return TimePlan::fixed(keep(mt, MOVETIME_MARGIN_MS), min_ms);
    }
    let (time, inc) = match side {
        Color::Sente => (cap(params.btime), cap(params.binc)),
        Color::Gote => (cap(params.wtime), cap(params.winc)),
    };
    let byo = cap(params.byoyomi).unwrap_or(0);
    let any_clock = [params.btime, params.wtime, params.binc, params.winc, params.byoyomi].iter().any(Option::is_some);
    if !any_clock {
        // No clock at all: only depth/nodes limits, if any (a bare `go` waits for
        // `stop` or the end of input).
        return TimePlan::unlimited(ms(0));
    }
    // A clock was given, maybe only the other side's: a missing one is empty.
    let (time, inc) = (time.unwrap_or(0), inc.unwrap_or(0));
    let total = time.saturating_add(byo);
    if total == 0 {
        // Nothing on the mover's clock (`btime 0 wtime 0`, the other side's clock only,
        // or an increment only): move promptly, after the minimum time.
        return TimePlan::fixed(min_ms.max(EMPTY_CLOCK_MS), min_ms);
    }
    let base = time / OPTIMUM_CLOCK_DIVISOR + inc.saturating_mul(OPTIMUM_INC_NUMERATOR) / OPTIMUM_INC_DENOMINATOR;
    let (optimum, maximum, use_all) = if byo > 0 {
        let margin = overhead.max(opts.byoyomi_overhead_ms.min(MAX_MS));
        let hard = keep(total, margin);
        let opt = keep(base.saturating_add(byo), margin).min(hard);
        (opt, keep((time / BYOYOMI_MAXIMUM_CLOCK_DIVISOR).saturating_add(byo), margin).clamp(opt, hard), true)
    } else {
        let hard = keep(time, overhead);
        let opt = base.min(hard).max(1);
        let max = opt.saturating_mul(MAXIMUM_OPTIMUM_FACTOR).min((time / MAXIMUM_CLOCK_DIVISOR).saturating_add(inc));
        (opt, max.clamp(opt, hard), false)
    };
    TimePlan { optimum: Some(ms(optimum)), maximum: Some(ms(maximum)), minimum: ms(min_ms.min(maximum)), use_all }
}

/// What the iterations of a clocked search have shown so far, for how much of the
/// optimum it spends. (A `use_all` plan, byoyomi or movetime, spends all of it.)
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Progress {
    /// Changes of the best root move: each iteration adds its own to half the sum so far.
    pub changes: f64,
    /// How far the score fell, in centipawns, since the iteration three before the last
    /// (negative when it rose).
    pub fall: i32,
    /// The share of the search's nodes spent below the best root move (0 to 1).
    pub effort: f64,
}

/// The factor on the optimum that `progress` asks for: more while the best move keeps
/// changing or the score falls, less when one move has taken nearly all the effort.
/// 1 for a search whose best move changes now and then and whose score holds.
pub(crate) fn time_scale(progress: &Progress) -> f64 {
    let instability = INSTABILITY_BASE + progress.changes;
    let falling = (1.0 + FALL_PER_CP * progress.fall as f64).clamp(FALL_MIN, FALL_MAX);
    let effort = if progress.effort >= EASY_EFFORT { EASY_FACTOR } else { 1.0 };
    (instability * falling * effort).clamp(MIN_SCALE, MAX_SCALE)
}

/// Whether a clocked search that has spent `elapsed` starts another iteration: not when
/// that one would probably end after the scaled optimum (an iteration takes about as long
/// as all before it, so one started past 60% of the budget would overrun it).
pub(crate) fn next_iteration(elapsed: Duration, optimum: Duration, scale: f64) -> bool {
    elapsed <= optimum.mul_f64(ITERATION_START_SHARE * scale)
}

/// Where the time comes from: the system's monotonic clock, or one a test moves by hand.
pub(crate) trait Clock: Send + Sync {
    fn now(&self) -> Instant;
}

/// The system's monotonic clock.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A clock that only moves when told to (tests).
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct ManualClock {
    base: Instant,
    micros: std::sync::atomic::AtomicU64,
}

#[cfg(test)]
impl Default for ManualClock {
    fn default() -> Self {
        ManualClock { base: Instant::now(), micros: std::sync::atomic::AtomicU64::new(0) }
    }
}

#[cfg(test)]
impl ManualClock {
    pub(crate) fn advance(&self, by: Duration) {
        self.micros.fetch_add(by.as_micros().min(u64::MAX as u128) as u64, Ordering::SeqCst);
    }
}

#[cfg(test)]
impl Clock for ManualClock {
    fn now(&self) -> Instant {
        self.base + Duration::from_micros(self.micros.load(Ordering::SeqCst))
    }
}

/// The hard time limit of one move, judged by the wall clock. While a `go ponder` is
/// pondering the clock does not run; it starts at `ponderhit`.
#[derive(Clone, Debug)]
pub(crate) struct Deadline {
    limit: Duration,
    /// The margin never brings the deadline before the minimum thinking time.
    minimum: Duration,
    start: Instant,
    pondering: bool,
    /// The latest the watcher has been woken after it asked to be.
    lag: Duration,
}

impl Deadline {
    /// The deadline of `plan` for a `go` that arrived at `start`; `None` without a limit.
    pub(crate) fn new(plan: &TimePlan, start: Instant, pondering: bool) -> Option<Deadline> {
        plan.maximum.map(|limit| Deadline {
            limit,
            minimum: plan.minimum.min(limit),
            start,
            pondering,
            lag: Duration::ZERO,
        })
    }

    /// Time kept in hand for a starved machine: four times the worst wake-up lag seen,
    /// never more than half the limit (`DEADLINE_*`), nor so much that the deadline comes
    /// before the minimum thinking time.
    pub(crate) fn margin(&self) -> Duration {
        self.lag
            .saturating_mul(DEADLINE_LAG_FACTOR)
            .min(self.limit / DEADLINE_MARGIN_DIVISOR)
            .min(self.limit - self.minimum)
    }

    /// One look at the clock at `now`, taken when the watcher meant to look at `due`.
    /// Returns when to look next, or `None` when the time is up.
    pub(crate) fn check(&mut self, now: Instant, due: Instant, pondering: bool) -> Option<Instant> {
        self.lag = self.lag.max(now.saturating_duration_since(due));
        if pondering {
            self.pondering = true;
            return Some(now + WATCH_INTERVAL);
        }
        if self.pondering {
            // `ponderhit`: the move's clock starts now.
            self.pondering = false;
            self.start = now;
        }
        let spent = now.saturating_duration_since(self.start);
        let usable = self.limit.saturating_sub(self.margin());
        if spent >= usable {
            return None;
        }
        Some(now + (usable - spent).min(WATCH_INTERVAL))
    }
}

/// Watches `deadline` on `clock` and sets `signals.stop` when it passes. Returns when it
/// did, or as soon as `done` or `signals.stop` is set. Run it on a thread of its own.
pub(crate) fn watch(mut deadline: Deadline, clock: &dyn Clock, signals: &Signals, done: &AtomicBool) {
    let mut due = clock.now();
    loop {
        if done.load(Ordering::Acquire) || signals.stop.load(Ordering::Acquire) {
            return;
        }
        let now = clock.now();
        match deadline.check(now, due, signals.pondering.load(Ordering::Acquire)) {
            None => {
                signals.stop.store(true, Ordering::SeqCst);
                return;
            }
            Some(next) => {
                due = next;
                std::thread::sleep(next.saturating_duration_since(now).min(WATCH_INTERVAL));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changing_best_move_or_a_falling_score_buys_time_and_a_settled_search_saves_it() {
        let settled = Progress { changes: 0.0, fall: 0, effort: 0.95 };
        let steady = Progress { changes: 0.25, fall: 0, effort: 0.6 };
        let unsure = Progress { changes: 1.5, fall: 0, effort: 0.6 };
        let falling = Progress { fall: 60, ..steady };
        let rising = Progress { fall: -60, ..steady };
        assert_eq!(time_scale(&steady), 1.0);
        assert!(time_scale(&settled) < 0.6, "{}", time_scale(&settled));
        assert!(time_scale(&unsure) > 2.0);
        assert!((time_scale(&falling) - 1.3).abs() < 1e-9);
        assert!((time_scale(&rising) - 0.8).abs() < 1e-9);
        // Bounded both ways, whatever the inputs.
        let wild = Progress { changes: 40.0, fall: 5_000, effort: 0.0 };
        assert_eq!(time_scale(&wild), MAX_SCALE);
        let calm = Progress { changes: 0.0, fall: -5_000, effort: 1.0 };
        assert_eq!(time_scale(&calm), MIN_SCALE);
    }

    #[test]
    fn the_next_iteration_starts_only_within_sixty_percent_of_the_scaled_optimum() {
        let opt = Duration::from_millis(1_000);
        assert!(next_iteration(Duration::from_millis(600), opt, 1.0));
        assert!(!next_iteration(Duration::from_millis(601), opt, 1.0));
        assert!(next_iteration(Duration::from_millis(1_200), opt, 2.0));
        assert!(!next_iteration(Duration::from_millis(301), opt, 0.5));
    }

    fn go(f: impl FnOnce(&mut GoParams)) -> GoParams {
        let mut p = GoParams::default();
        f(&mut p);
        p
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Both clocks at `btime` and `wtime`, no increment.
    fn clocks(btime: u64, wtime: u64) -> GoParams {
        go(|p| {
            p.btime = Some(btime);
            p.wtime = Some(wtime)
        })
    }

    /// Both clocks empty and `byoyomi` a move.
    fn byoyomi(byoyomi: u64) -> GoParams {
        go(|p| {
            p.btime = Some(0);
            p.wtime = Some(0);
            p.byoyomi = Some(byoyomi)
        })
    }

    /// The plan of `params` with the default options.
    fn plan_for(params: &GoParams, side: Color) -> TimePlan {
        plan(params, side, TimeOptions::default())
    }

    #[test]
    fn byoyomi_only_spends_the_byoyomi_less_the_byoyomi_overhead() {
        let p = plan_for(&byoyomi(1000), Color::Sente);
        assert_eq!(p.optimum, Some(ms(750)));
        assert_eq!(p.maximum, Some(ms(750)));
        assert!(p.use_all);
    }

    #[test]
    fn short_byoyomi_keeps_a_quarter_of_it_for_thinking() {
        let p = plan_for(&byoyomi(200), Color::Sente);
        assert_eq!((p.optimum, p.maximum), (Some(ms(50)), Some(ms(50))));
        let p = plan_for(&byoyomi(400), Color::Sente);
        assert_eq!(p.maximum, Some(ms(150)));
    }

    #[test]
    fn zero_clock_moves_promptly() {
        let p = plan_for(&clocks(0, 0), Color::Gote);
        assert_eq!(p.maximum, Some(ms(DEFAULT_MINIMUM_MS)));
    }

    #[test]
    fn sudden_death_never_exceeds_clock() {
        for t in [1u64, 30, 100, 1000, 60_000] {
            let p = plan_for(&clocks(t, t), Color::Sente);
            assert!(p.maximum.unwrap() <= ms(t.max(1)), "time {t}: {p:?}");
            assert!(p.optimum <= p.maximum);
        }
    }

    #[test]
    fn uses_the_right_clock() {
        let p = plan_for(&clocks(100_000, 1000), Color::Gote);
        assert!(p.maximum.unwrap() <= ms(1000));
        let q = plan_for(&clocks(100_000, 1000), Color::Sente);
        assert!(q.optimum.unwrap() > ms(1000));
    }

    #[test]
    fn infinite_has_no_limit() {
        let p = plan_for(&go(|p| p.infinite = true), Color::Sente);
        assert_eq!(p.maximum, None);
    }

    /// Class 1: a time field for the other side only (or an increment only) is an empty
    /// clock for the mover, never a search without end.
    #[test]
    fn clock_for_the_other_side_only_moves_promptly() {
        let prompt = Some(ms(DEFAULT_MINIMUM_MS));
        type Case = (Color, fn(&mut GoParams));
        let cases: [Case; 5] = [
            (Color::Gote, |p| {
                p.byoyomi = Some(0);
                p.btime = Some(0)
            }),
            (Color::Gote, |p| p.btime = Some(1000)),
            (Color::Sente, |p| p.wtime = Some(1000)),
            (Color::Sente, |p| {
                p.binc = Some(100);
                p.winc = Some(100)
            }),
            (Color::Gote, |p| p.winc = Some(100)),
        ];
        for (side, f) in cases {
            let params = go(f);
            let p = plan(&params, side, TimeOptions::default());
            assert_eq!(p.maximum, prompt, "{params:?} for {side:?}: {p:?}");
        }
    }

    /// Class 2: every combination of missing, 0, 1 and huge values plans without
    /// overflow, and never more than the mover's clock plus byoyomi (or movetime) holds.
    #[test]
    fn clock_arithmetic_saturates() {
        let values = [None, Some(0), Some(1), Some(1000), Some(u64::MAX / 2), Some(u64::MAX)];
        let opts = [
            TimeOptions::default(),
            TimeOptions { minimum_ms: u64::MAX, overhead_ms: u64::MAX, byoyomi_overhead_ms: u64::MAX },
        ];
        let mut n = 0;
        for &bt in &values {
            for &wt in &values {
                for &byo in &values {
                    for &inc in &values {
                        for &mt in &[None, Some(0), Some(1), Some(u64::MAX)] {
                            for o in opts {
                                let params = go(|p| {
                                    p.btime = bt;
                                    p.wtime = wt;
                                    p.byoyomi = byo;
                                    p.binc = inc;
                                    p.winc = inc;
                                    p.movetime = mt
                                });
                                for side in [Color::Sente, Color::Gote] {
                                    let p = plan(&params, side, o);
                                    n += 1;
                                    let Some(max) = p.maximum else { continue };
                                    assert!(p.optimum.unwrap() <= max && p.minimum <= max, "{params:?}: {p:?}");
                                    let own = if side == Color::Sente { bt } else { wt };
                                    let budget = match mt {
                                        Some(m) => m,
                                        None => own.unwrap_or(0).min(MAX_MS) + byo.unwrap_or(0).min(MAX_MS),
                                    };
                                    if budget > 0 {
                                        assert!(max <= ms(budget), "{params:?} {side:?}: {p:?}");
                                    }
                                    if own == Some(u64::MAX) && byo.is_some_and(|b| b > 0) && mt.is_none() {
                                        assert!(max > ms(1000), "a huge clock is not a tiny one: {params:?}: {p:?}");
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(n > 1000);
        // The example: sente has a huge clock and a byoyomi.
        let p = plan(
            &go(|p| {
                p.btime = Some(u64::MAX);
                p.wtime = Some(1);
                p.byoyomi = Some(100)
            }),
            Color::Sente,
            TimeOptions::default(),
        );
        assert!(p.optimum.unwrap() > ms(60_000), "{p:?}");
    }

    /// Class 4: a byoyomi keeps room for what the engine cannot see, and the hard
    /// deadline comes sooner when the machine is starved.
    #[test]
    fn rokurokugui_byoyomi_keeps_room_for_process_start_and_load() {
        let p = plan_for(&byoyomi(1000), Color::Sente);
        assert!(p.maximum.unwrap() <= ms(1000 - 200), "{p:?}");
        let clock = ManualClock::default();
        let start = clock.now();
        let mut d = Deadline::new(&p, start, false).unwrap();
        // A quiet machine: woken on time, the deadline is the plan's maximum.
        let mut quiet = d.clone();
        let mut due = start;
        let mut t = start;
        while let Some(next) = quiet.check(t, due, false) {
            due = next;
            t = next;
        }
        assert_eq!(t - start, p.maximum.unwrap());
        // A starved one: every wake-up 20 ms late; the margin grows to 80 ms.
        let mut due = start;
        let mut t = start;
        while let Some(next) = d.check(t, due, false) {
            due = next;
            t = next + ms(20);
        }
        assert_eq!(d.margin(), ms(80));
        // The margin never brings the answer before the minimum thinking time.
        let zero = plan_for(&clocks(0, 0), Color::Sente);
        let mut z = Deadline::new(&zero, start, false).unwrap();
        let _ = z.check(start + ms(5), start, false);
        assert_eq!(z.margin(), Duration::ZERO);
        assert!(t - start <= p.maximum.unwrap() - ms(80) + ms(22), "{:?}", t - start);
    }

    /// Class 9: tiny budgets are never overrun by the plan, and the minimum thinking time
    /// is what the protocol document says: every `go` with a clock or a movetime waits
    /// for it, but never past its own limit; `depth`, `nodes`, a bare `go` and `infinite`
    /// do not.
    #[test]
    fn small_budgets_and_minimum_thinking_time_follow_the_documented_rule() {
        let o = TimeOptions::default();
        let min = ms(o.minimum_ms);
        for (params, budget) in [
            (byoyomi(10), 10),
            (go(|p| p.movetime = Some(1)), 1),
            (go(|p| p.movetime = Some(10)), 10),
            (clocks(5, 5), 5),
        ] {
            let p = plan(&params, Color::Sente, o);
            assert!(p.maximum.unwrap() <= ms(budget), "{params:?}: {p:?}");
            assert_eq!(p.minimum, min.min(p.maximum.unwrap()), "{params:?}: {p:?}");
        }
        for params in [go(|p| p.movetime = Some(1000)), byoyomi(1000)] {
            assert_eq!(plan(&params, Color::Sente, o).minimum, min, "{params:?}");
        }
        for params in [go(|p| p.depth = Some(1)), go(|p| p.nodes = Some(1)), go(|_| {}), go(|p| p.infinite = true)] {
            assert_eq!(plan(&params, Color::Sente, o).minimum, Duration::ZERO, "{params:?}");
        }
    }

    /// Issue 44, "a fixed move time halved": `go movetime M` searches M less a latency
    /// margin of at most 10 ms, whatever `MoveOverhead` is (it guards clocks only), while
    /// a clock still keeps `MoveOverhead` in hand.
    #[test]
    fn a_fixed_move_time_is_searched_whole_less_a_small_margin() {
        for overhead_ms in [0, 100, 5000] {
            let o = TimeOptions { overhead_ms, ..TimeOptions::default() };
            for (mt, thinks) in [(200, 190), (1000, 990), (100, 90), (40, 30), (10, 2)] {
                let p = plan(&go(|p| p.movetime = Some(mt)), Color::Sente, o);
                assert_eq!(p.maximum, Some(ms(thinks)), "movetime {mt}, MoveOverhead {overhead_ms}");
                assert_eq!(p.optimum, Some(ms(thinks)));
                assert!(mt - thinks <= 10 || thinks == mt / KEEP_DIVISOR);
            }
        }
        let with = |overhead_ms| TimeOptions { overhead_ms, ..TimeOptions::default() };
        assert_eq!(plan(&byoyomi(1000), Color::Sente, with(0)).maximum, Some(ms(750)));
        assert_eq!(plan(&byoyomi(1000), Color::Sente, with(600)).maximum, Some(ms(400)));
    }

    /// Class 13: the deadline logic runs on a clock the test moves, so no machine load
    /// can change its outcome. Pondering stops the clock until `ponderhit`.
    #[test]
    fn timing_logic_runs_on_a_controlled_clock() {
        let p = plan_for(&go(|p| p.movetime = Some(300)), Color::Sente);
        let clock = ManualClock::default();
        let start = clock.now();
        let mut d = Deadline::new(&p, start, true).unwrap();
        let mut now = start;
        // Ten minutes of pondering: never out of time.
        for _ in 0..600 {
            now += ms(1000);
            assert!(d.check(now, now, true).is_some());
        }
        // ponderhit: 290 ms thinking from now (300 less the 10 ms margin), to the millisecond.
        assert!(d.check(now, now, false).is_some());
        assert!(d.check(now + ms(289), now + ms(289), false).is_some());
        assert!(d.check(now + ms(290), now + ms(290), false).is_none());
    }

    /// The watcher thread sets `stop` once the hand-moved clock passes the deadline, and
    /// not while the clock stands still, however long that is in real time.
    #[test]
    fn hard_deadline_is_kept_by_a_watcher_on_the_clock() {
        let p = plan_for(&go(|p| p.movetime = Some(1000)), Color::Sente);
        let clock = std::sync::Arc::new(ManualClock::default());
        let signals = std::sync::Arc::new(Signals::default());
        let done = std::sync::Arc::new(AtomicBool::new(false));
        let d = Deadline::new(&p, clock.now(), false).unwrap();
        let (c, s, f) = (clock.clone(), signals.clone(), done.clone());
        let watcher = std::thread::spawn(move || watch(d, &*c, &s, &f));
        std::thread::sleep(ms(50));
        assert!(!signals.stop.load(Ordering::SeqCst), "stopped before the deadline");
        clock.advance(ms(990));
        watcher.join().unwrap();
        assert!(signals.stop.load(Ordering::SeqCst));
    }
}
