//! A game's clock in `koma serve` (issue 56): main time, then byoyomi periods (the shogi
//! games) or an increment a move (Kokesu), for both sides, kept by the server. The page
//! only shows it. Nothing here reads the time: every call is given `now` (from the game's
//! [`TimeSource`]), so that tests drive the clock with a time of their own.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::game::Color;
use crate::search::limits::GoParams;

/// Where a game's clock reads the time: the machine's clock in the server, a clock the
/// test moves by hand in the tests.
pub(crate) trait TimeSource: Send + Sync {
    fn now(&self) -> Instant;
}

/// The machine's monotonic clock.
pub(crate) struct SystemTime;

impl TimeSource for SystemTime {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// A time control as the page chooses it, in milliseconds: `main` time, then `periods`
/// byoyomi periods of `byoyomi` each (a period not used up whole is given back at each
/// move), and `increment` added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    pub main: u64,
    #[serde(default)]
    pub byoyomi: u64,
    #[serde(default = "one")]
    pub periods: u32,
    #[serde(default)]
    pub increment: u64,
}

fn one() -> u32 {
    1
}

const HOUR_MS: u64 = 3_600_000;

impl TimeControl {
    /// Refuses controls that would tie up a game for long or leave nothing on the clock.
    pub fn check(self) -> Result<TimeControl, String> {
        let ok = self.main <= 3 * HOUR_MS
            && self.byoyomi <= HOUR_MS / 6
            && (1..=10).contains(&self.periods)
            && self.increment <= HOUR_MS / 6
            && self.main + self.byoyomi >= 1000;
        if ok {
            Ok(self)
        } else {
            Err("clock out of range: main 0..3 h, byoyomi and increment 0..10 min, periods 1..10, \
                 at least 1 s of main time or byoyomi (all in ms)"
                .into())
        }
    }
}

/// One side's clock: main time left and byoyomi periods left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Side {
    pub(crate) main: u64,
    pub(crate) periods: u32,
}

/// Both sides' clocks, the running one and a loss on time.
#[derive(Clone, Debug)]
pub(crate) struct Clock {
    control: TimeControl,
    sides: [Side; 2],
    /// The side whose time runs, and since when.
    running: Option<(Color, Instant)>,
    /// The side that ran out of time.
    flagged: Option<Color>,
    /// The clocks before each move charged, for taking moves back.
    before: Vec<[Side; 2]>,
}

fn ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

impl Clock {
    pub(crate) fn new(control: TimeControl) -> Clock {
        let full = Side { main: control.main, periods: if control.byoyomi > 0 { control.periods } else { 0 } };
        Clock { control, sides: [full; 2], running: None, flagged: None, before: Vec::new() }
    }

    pub(crate) fn control(&self) -> TimeControl {
        self.control
    }

    pub(crate) fn side(&self, c: Color) -> Side {
        self.sides[c.index()]
    }

    pub(crate) fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    pub(crate) fn flagged(&self) -> Option<Color> {
        self.flagged
    }

    /// `side`'s time runs from `now` (nothing changes if a side's time runs already or a
    /// side has lost on time).
    pub(crate) fn start(&mut self, side: Color, now: Instant) {
        if self.running.is_none() && self.flagged.is_none() {
            self.running = Some((side, now));
        }
    }

    /// The moment the running side's time is gone: main time and every byoyomi period.
    pub(crate) fn deadline(&self) -> Option<Instant> {
        let (c, since) = self.running?;
        let s = self.sides[c.index()];
        let all = s.main + self.control.byoyomi * u64::from(s.periods);
        Some(since + Duration::from_millis(all))
    }

    /// `side`'s clock after `used` ms of thought: main time first, then byoyomi periods
    /// (each one exceeded is lost; the one in use is whole again at the next move).
    /// `None`: out of time.
    fn charged(&self, side: Side, used: u64) -> Option<Side> {
        if used <= side.main {
            return Some(Side { main: side.main - used, ..side });
        }
        let over = used - side.main;
        let byo = self.control.byoyomi;
        if byo == 0 {
            return None;
        }
        let lost = (over - 1) / byo;
        (lost < u64::from(side.periods)).then(|| Side { main: 0, periods: side.periods - lost as u32 })
    }

    /// Stops the running side's time at `now` and charges it; `Some(side)` if that side ran
    /// out of time (it has lost). `moved`: the side has moved, so its increment is added
    /// and the clocks before the move are kept for a take-back.
    fn stop(&mut self, now: Instant, moved: bool) -> Option<Color> {
        let (c, since) = self.running.take()?;
        let used = ms(now.saturating_duration_since(since));
        let Some(mut left) = self.charged(self.sides[c.index()], used) else {
            self.flagged = Some(c);
            return Some(c);
        };
        if moved {
            self.before.push(self.sides);
            left.main = left.main.saturating_add(self.control.increment);
        }
        self.sides[c.index()] = left;
        None
    }

    /// The side to move moved at `now`: its time stops and is charged, its increment added.
    /// `Some(side)`: it moved too late and has lost on time (the move does not count).
    pub(crate) fn moved(&mut self, now: Instant) -> Option<Color> {
        match self.running {
            Some(_) => self.stop(now, true),
            // A move while no time ran (before the position was sent): free, but kept.
            None => {
                self.before.push(self.sides);
                None
            }
        }
    }

    /// Stops the running side's time without a move (a pause, koma's search stopped),
    /// charging the time used; `Some(side)` if that side ran out of time.
    pub(crate) fn halt(&mut self, now: Instant) -> Option<Color> {
        self.stop(now, false)
    }

    /// Whether the running side's time is gone at `now`: then it is stopped and that side
    /// has lost.
    pub(crate) fn expired(&mut self, now: Instant) -> Option<Color> {
        match self.deadline() {
            Some(d) if now > d => self.halt(now),
            _ => None,
        }
    }

    /// A move taken back: the clocks as they were before it, and no loss on time.
    pub(crate) fn take_back(&mut self) {
        self.running = None;
        self.flagged = None;
        if let Some(sides) = self.before.pop() {
            self.sides = sides;
        }
    }

    /// The clocks in `go` as a GUI gives them: `btime`/`wtime` the main time left, then
    /// `binc`/`winc` or the `byoyomi` of one period (while a period is left).
    pub(crate) fn go(&self, go: &mut GoParams, side: Color) {
        go.btime = Some(self.sides[0].main);
        go.wtime = Some(self.sides[1].main);
        if self.control.increment > 0 {
            go.binc = Some(self.control.increment);
            go.winc = Some(self.control.increment);
        }
        if self.control.byoyomi > 0 && self.sides[side.index()].periods > 0 {
            go.byoyomi = Some(self.control.byoyomi);
        }
    }

    /// The clock as the page shows it at `now`: each side's main time and periods left,
    /// the running side's as of `now` (`used`: ms of the running side's thought so far).
    pub(crate) fn view(&self, now: Instant) -> Value {
        let letter = |c: Color| if c == Color::Sente { "b" } else { "w" };
        let side = |c: Color| {
            let s = self.side(c);
            json!({ "main": s.main, "periods": s.periods })
        };
        let used = self.running.map_or(0, |(_, since)| ms(now.saturating_duration_since(since)));
        json!({ "control": self.control, "b": side(Color::Sente), "w": side(Color::Gote),
                "running": self.running.map(|(c, _)| letter(c)), "used": used,
                "flagged": self.flagged.map(letter) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t0: Instant, ms: u64) -> Instant {
        t0 + Duration::from_millis(ms)
    }

    fn byoyomi(main: u64, byoyomi: u64, periods: u32) -> Clock {
        Clock::new(TimeControl { main, byoyomi, periods, increment: 0 })
    }

    #[test]
    fn the_time_used_is_charged_to_the_side_that_moved_and_its_increment_added() {
        let t0 = Instant::now();
        let mut c = Clock::new(TimeControl { main: 60_000, byoyomi: 0, periods: 1, increment: 2_000 });
        c.start(Color::Sente, t0);
        assert_eq!(c.moved(at(t0, 7_500)), None);
        assert_eq!(c.side(Color::Sente), Side { main: 60_000 - 7_500 + 2_000, periods: 0 });
        assert_eq!(c.side(Color::Gote).main, 60_000, "the other side's clock did not run");
        c.start(Color::Gote, at(t0, 7_500));
        assert_eq!(c.moved(at(t0, 8_000)), None);
        assert_eq!(c.side(Color::Gote).main, 60_000 - 500 + 2_000);
        assert_eq!(c.side(Color::Sente).main, 54_500);
    }

    #[test]
    fn byoyomi_is_whole_again_at_each_move_and_an_exceeded_period_is_lost() {
        let t0 = Instant::now();
        let mut c = byoyomi(5_000, 10_000, 3);
        c.start(Color::Sente, t0);
        // Main time and 9.9 s of the first period: the period is whole again.
        assert_eq!(c.moved(at(t0, 14_900)), None);
        assert_eq!(c.side(Color::Sente), Side { main: 0, periods: 3 });
        c.start(Color::Gote, at(t0, 14_900));
        assert_eq!(c.moved(at(t0, 15_000)), None);
        // 9.9 s twice over, one move each: no period lost.
        for k in 0..2 {
            let t = at(t0, 15_000 + k * 10_000);
            c.start(Color::Sente, t);
            assert_eq!(c.moved(t + Duration::from_millis(9_900)), None);
        }
        assert_eq!(c.side(Color::Sente).periods, 3);
        // 25 s in byoyomi: two periods exceeded, the third used.
        c.start(Color::Sente, at(t0, 40_000));
        assert_eq!(c.moved(at(t0, 65_000)), None);
        assert_eq!(c.side(Color::Sente), Side { main: 0, periods: 1 });
        // The last period exceeded: lost on time.
        c.start(Color::Sente, at(t0, 70_000));
        assert_eq!(c.deadline(), Some(at(t0, 80_000)));
        assert_eq!(c.expired(at(t0, 80_000)), None, "exactly at the end still counts");
        assert_eq!(c.expired(at(t0, 80_001)), Some(Color::Sente));
        assert_eq!(c.flagged(), Some(Color::Sente));
        assert_eq!(c.running(), None);
    }

    #[test]
    fn a_move_after_the_time_is_gone_loses_and_a_take_back_restores_the_clocks() {
        let t0 = Instant::now();
        let mut c = byoyomi(1_000, 0, 1);
        c.start(Color::Sente, t0);
        assert_eq!(c.moved(at(t0, 600)), None);
        c.start(Color::Gote, at(t0, 600));
        assert_eq!(c.moved(at(t0, 1_601)), Some(Color::Gote), "main time gone, no byoyomi");
        c.start(Color::Sente, at(t0, 2_000));
        assert_eq!(c.running(), None, "no clock runs after a loss on time");
        c.take_back();
        assert_eq!((c.flagged(), c.side(Color::Gote).main), (None, 1_000));
        c.take_back();
        assert_eq!(c.side(Color::Sente).main, 1_000);
    }

    #[test]
    fn koma_is_given_the_clocks_as_a_gui_gives_them() {
        let t0 = Instant::now();
        let mut c = byoyomi(300_000, 10_000, 1);
        c.start(Color::Sente, t0);
        c.moved(at(t0, 12_000));
        let mut go = GoParams::default();
        c.go(&mut go, Color::Gote);
        assert_eq!((go.btime, go.wtime, go.byoyomi, go.binc), (Some(288_000), Some(300_000), Some(10_000), None));
        let mut inc = Clock::new(TimeControl { main: 180_000, byoyomi: 0, periods: 1, increment: 2_000 });
        let mut go = GoParams::default();
        inc.go(&mut go, Color::Sente);
        assert_eq!(
            (go.btime, go.wtime, go.binc, go.winc, go.byoyomi),
            (Some(180_000), Some(180_000), Some(2_000), Some(2_000), None)
        );
        inc.start(Color::Sente, t0);
        let v = inc.view(at(t0, 1_500));
        assert_eq!(
            (v["running"].as_str(), v["used"].as_u64(), v["b"]["main"].as_u64()),
            (Some("b"), Some(1_500), Some(180_000))
        );
    }

    #[test]
    fn a_control_with_nothing_on_the_clock_or_too_long_is_refused() {
        let tc = |main, byoyomi, periods| TimeControl { main, byoyomi, periods, increment: 0 };
        assert!(tc(0, 0, 1).check().is_err());
        assert!(tc(0, 30_000, 1).check().is_ok());
        assert!(tc(4 * HOUR_MS, 0, 1).check().is_err());
        assert!(tc(60_000, 10_000, 0).check().is_err());
    }
}
