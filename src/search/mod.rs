//! The search, generic over a [`Game`](crate::game::Game) and its
//! [`Strategy`]: iterative deepening with aspiration windows and PVS alpha-beta over a
//! shared transposition table, selective pruning and extensions, move-ordering
//! statistics, quiescence, mate scores, repetition, MultiPV and Lazy SMP threads. It
//! never prints: progress goes to a callback as [`Report`]s.
//!
//! Where to find what:
//! - this file: [`Searcher`] and its iterative deepening ([`Searcher::run`]: depth by
//!   depth, MultiPV lines, when to stop between iterations) and the aspiration windows
//!   (`aspiration`);
//! - [`params`]: every number of the search and of time management, by feature;
//! - `alphabeta`: the root moves, the node search in numbered steps (table cutoff, static
//!   evaluation and its correction, reverse futility, ProbCut, null move, internal
//!   iterative reduction, shallow pruning, singular and check extensions, late-move
//!   reductions, table store) and quiescence;
//! - [`history`]: butterfly, continuation and countermove statistics, and the correction
//!   history of the static evaluation;
//! - [`tt`]: the shared transposition table; [`smp`]: Lazy SMP threads;
//! - [`time`]: the time plan of a `go`, the scale of the optimum between iterations and
//!   the hard deadline's watcher; [`mate`]: the `go mate` search; [`skill`]: the playing
//!   levels' weaker choice among the root moves.

mod alphabeta;
pub(crate) mod history;
pub(crate) mod limits;
pub(crate) mod mate;
mod movepick;
pub(crate) mod params;
pub mod prove;
pub(crate) mod skill;
pub mod smp;
pub mod solve;
pub(crate) mod time;
pub mod tt;
pub(crate) mod tunable;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Outcome, Strategy};
pub use history::CorrectionKeys;
use history::Histories;
pub use limits::{GoParams, MAX_DEPTH};
pub use time::TimePlan;
use tt::Table;
use tunable::{Reductions, SearchParams};

pub const INF: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const MAX_PLY: usize = 128;
/// No static evaluation at this ply (in check).
const NO_EVAL: i32 = i32::MIN;

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Signals {
    pub stop: AtomicBool,
    /// True while a `go ponder` search waits for `ponderhit`; time limits start when it
    /// turns false.
    pub pondering: AtomicBool,
    /// When `ponderhit` came, for a `go ponder` search: the minimum thinking time counts
    /// from here, as the move's clock does.
    pub ponderhit: std::sync::OnceLock<std::time::Instant>,
}

/// What bounds one search.
#[derive(Clone, Debug)]
pub struct Limits<M> {
    pub time: TimePlan,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub multipv: usize,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<M>,
}

/// Progress after an iteration (one per MultiPV line).
#[derive(Clone, Debug)]
pub struct Report<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub ponder: Option<M>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
}

#[derive(Clone, Debug)]
struct RootMove<M> {
    mv: M,
    score: i32,
    /// The score of the last completed iteration (the aspiration window's centre).
    previous: i32,
    pv: Vec<M>,
    /// Nodes this thread has spent below the move in this search (time management).
    nodes: u64,
}

/// A score for a finished game, `ply` plies from the root, from the side to move's view.
pub fn outcome_score(o: Outcome, ply: usize) -> i32 {
    match o {
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -MATE + ply as i32,
        Outcome::Draw => 0,
    }
}

/// Mate distance in plies for a mate score (negative when being mated).
pub fn mate_plies(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some(MATE - score)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score))
    } else {
        None
    }
}

/// What the threads of one search share besides the table: the helpers' stop flag and
/// the node count of all threads.
#[derive(Debug, Default)]
pub struct Shared {
    /// Set when the main thread has its answer: the helper threads end.
    pub done: AtomicBool,
    pub nodes: AtomicU64,
}

/// What the search knows about one ply of the current path.
#[derive(Clone, Copy, Debug)]
struct Frame<M> {
    /// The static evaluation of the node at this ply (`NO_EVAL` in check).
    eval: i32,
    /// The move played from this ply (`None` for a pass or not yet).
    mv: Option<M>,
    /// `mv`'s `Strategy::continuation_id` (`None` with `mv`).
    cont: Option<u32>,
    /// The move a singular-extension search leaves out here.
    excluded: Option<M>,
    killers: [Option<M>; 2],
    /// Whether `mv` was a quiet move (not a capture or promotion).
    quiet: bool,
}

/// One search thread's working state. The table, the signals and the history of the
/// game are borrowed.
pub struct Searcher<'a, G: Strategy> {
    tt: &'a Table<G::Move>,
    signals: &'a Signals,
    /// The other threads of this search, if any.
    shared: Option<&'a Shared>,
    /// `None` for the main thread, the helper's number for a Lazy SMP helper.
    helper: Option<usize>,
    /// Keys and in-check flags of the game since the `position` root, then the search path.
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// Index in `keys` of the first position after the last null move on the path: no
    /// repetition is looked for across a pass.
    null_floor: usize,
    stack: Vec<Frame<G::Move>>,
    history: Histories<G::Move>,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    /// Nodes already added to `shared.nodes`.
    flushed: u64,
    seldepth: usize,
    root_depth: i32,
    start: Instant,
    was_pondering: bool,
    deadline: Option<Duration>,
    node_limit: Option<u64>,
    stopped: bool,
    /// Best-move changes at the root, halved at each new iteration (time management).
    best_move_changes: f64,
    /// What the completed iterations showed, for time management.
    progress: time::Progress,
    /// The game's search numbers (`Strategy::SEARCH`, or a tuner's) and their late-move
    /// reductions.
    p: SearchParams,
    reductions: Reductions,
}

impl<'a, G: Strategy> Searcher<'a, G> {
    /// `history` holds `(key, in_check)` for every position since the `position` root,
    /// the current one last.
    pub fn new(tt: &'a Table<G::Move>, signals: &'a Signals, history: &[(u64, bool)]) -> Self {
        let mut s = Self::build(tt, signals, None, None, history);
        s.history.allocate();
        s
    }

    /// A searcher that is one of several threads of one search: the main thread
    /// (`helper` is `None`) or a helper.
    pub fn with_shared(
        tt: &'a Table<G::Move>,
        signals: &'a Signals,
        shared: &'a Shared,
        helper: Option<usize>,
        history: &[(u64, bool)],
    ) -> Self {
        Self::build(tt, signals, Some(shared), helper, history)
    }

    fn build(
        tt: &'a Table<G::Move>,
        signals: &'a Signals,
        shared: Option<&'a Shared>,
        helper: Option<usize>,
        history: &[(u64, bool)],
    ) -> Self {
        let frame = Frame { eval: NO_EVAL, mv: None, cont: None, excluded: None, killers: [None; 2], quiet: false };
        let p = tunable::in_use(G::SEARCH);
        Searcher {
            tt,
            signals,
            shared,
            helper,
            keys: history.iter().map(|h| h.0).collect(),
            checks: history.iter().map(|h| h.1).collect(),
            null_floor: 0,
            stack: vec![frame; MAX_PLY + 2],
            // Made when the search starts, unless statistics of an earlier search are
            // handed over first (`with_history`): no table is made only to be dropped.
            history: Histories::unallocated(G::CONTINUATION_IDS),
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            root_depth: 0,
            start: Instant::now(),
            was_pondering: false,
            deadline: None,
            node_limit: None,
            stopped: false,
            best_move_changes: 0.0,
            progress: time::Progress::default(),
            reductions: Reductions::new(&p),
            p,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Starts from move-ordering statistics learned by earlier searches of the game.
    pub fn with_history(mut self, history: Histories<G::Move>) -> Self {
        self.history = history;
        self
    }

    /// The move-ordering statistics, for the next search of the game.
    pub fn into_history(self) -> Histories<G::Move> {
        self.history
    }

    /// The nodes of all threads of this search.
    fn total_nodes(&self) -> u64 {
        match self.shared {
            None => self.nodes,
            Some(s) => s.nodes.load(Ordering::Relaxed) + (self.nodes - self.flushed),
        }
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn poll(&mut self) {
        if let Some(s) = self.shared {
            s.nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
        if self.signals.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.helper.is_some() {
            // A helper stops on its own once all threads together reach a node limit (as
            // the main thread does, not while pondering): if it waited for `done` it would
            // go on counting while the main thread unwinds, for as long as the scheduler
            // lets it.
            let over = || self.node_limit.is_some_and(|n| self.total_nodes() >= n);
            if self.shared.is_some_and(|s| s.done.load(Ordering::Relaxed))
                || (!self.signals.pondering.load(Ordering::Relaxed) && over())
            {
                self.stopped = true;
            }
            return;
        }
        if self.was_pondering {
            if self.signals.pondering.load(Ordering::Relaxed) {
                return;
            }
            self.was_pondering = false;
            self.start = Instant::now();
        }
        if let Some(d) = self.deadline {
            if self.start.elapsed() >= d {
                self.stopped = true;
            }
        }
        if let Some(n) = self.node_limit {
            if self.total_nodes() >= n {
                self.stopped = true;
            }
        }
    }

    /// Iterative deepening from `root`. `report` is called after every iteration with
    /// one report per MultiPV line. `start` is when `go` arrived.
    pub fn run(
        &mut self,
        root: &G,
        limits: &Limits<G::Move>,
        start: Instant,
        report: &mut dyn FnMut(&Report<G::Move>),
    ) -> SearchResult<G::Move> {
        self.start = start;
        self.history.allocate();
        self.was_pondering = self.signals.pondering.load(Ordering::Relaxed);
        self.deadline = if limits.time.use_all { limits.time.optimum } else { limits.time.maximum };
        self.node_limit = limits.nodes;
        if self.shared.is_none() {
            // A search of several threads ages the table once, before they start.
            self.tt.new_search();
        }

        let mut legal = Vec::new();
        if root.result().is_none() {
            root.legal_moves(&mut legal);
        }
        if !limits.searchmoves.is_empty() {
            legal.retain(|m| limits.searchmoves.contains(m));
        }
        let mut roots: Vec<RootMove<G::Move>> =
            legal.iter().map(|&mv| RootMove { mv, score: -INF, previous: -INF, pv: vec![mv], nodes: 0 }).collect();
        let mut answer = SearchResult { best: roots.first().map(|r| r.mv), ponder: None, score: 0, depth: 0, nodes: 0 };
        if roots.is_empty() {
            return answer;
        }
        let max_depth = limits.depth.map(|d| d.clamp(1, MAX_PLY as u32 - 1)).unwrap_or(MAX_PLY as u32 - 1);
        let multipv = limits.multipv.clamp(1, roots.len());
        // The best line's score after each completed iteration.
        let mut iteration_scores = Vec::new();
        self.best_move_changes = 0.0;
        self.progress = time::Progress::default();
        for depth in 1..=max_depth {
            // Lazy SMP: every other helper skips every other depth, so the threads spread
            // over two depths and fill the table for each other.
            if let Some(id) = self.helper {
                if depth > 1 && id % 2 == 1 && depth % 2 == 0 {
                    continue;
                }
            }
            self.seldepth = 0;
            self.root_depth = depth as i32;
            self.best_move_changes /= params::CHANGES_DECAY_DIVISOR;
            let mut completed = 0;
            for pv_idx in 0..multipv {
                if self.aspiration(root, depth as i32, pv_idx, &mut roots) {
                    completed += 1;
                }
                if self.stopped {
                    break;
                }
            }
            if completed == 0 {
                break;
            }
            // The finished lines in score order, as Stockfish sorts them: a later line can
            // score above an earlier one (each line is searched with the earlier moves left
            // out, in windows of its own). The set of moves among them is unchanged, so is
            // the one line of a MultiPV 1 search.
            roots[..completed].sort_by_key(|r| std::cmp::Reverse(r.score));
            // (A line the stop cut off keeps its last finished score.)
            for (i, r) in roots.iter_mut().enumerate() {
                if i < completed || i >= multipv {
                    r.previous = r.score;
                }
            }
            answer.best = Some(roots[0].mv);
            answer.ponder = roots[0].pv.get(1).copied();
            answer.score = roots[0].score;
            answer.depth = depth;
            iteration_scores.push(answer.score);
            self.progress = self.progress_of(&roots, &iteration_scores);
            if self.helper.is_none() {
                let nodes = self.total_nodes();
                // Lines the stop cut off are given again as the last iteration left them
                // (its depth, its score), as Stockfish does: so a reader that keeps the
                // latest line of each rank never holds one move on two ranks.
                for (i, r) in roots.iter().take(multipv).enumerate() {
                    let (depth, score) = if i < completed { (depth, r.score) } else { (depth - 1, r.previous) };
                    if depth == 0 || score == -INF {
                        break;
                    }
                    report(&Report {
                        depth,
                        seldepth: self.seldepth as u32,
                        multipv: i + 1,
                        score,
                        nodes,
                        elapsed: self.start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        pv: r.pv.clone(),
                    });
                }
            }
            if self.stopped || self.helper.is_some() {
                if self.stopped {
                    break;
                }
                continue;
            }
            if roots.len() == 1 && !self.was_pondering && limits.time.maximum.is_some() {
                break;
            }
            if let Some(plies) = mate_plies(answer.score) {
                if plies > 0 && depth as i32 >= plies + params::MATE_STOP_DEPTH && limits.time.maximum.is_some() {
                    break;
                }
            }
            if !self.was_pondering && !limits.time.use_all {
                if let Some(opt) = limits.time.optimum {
                    if !time::next_iteration(self.start.elapsed(), opt, time::time_scale(&self.progress)) {
                        break;
                    }
                }
            }
        }
        self.poll();
        answer.nodes = self.total_nodes();
        answer
    }

    /// What the iterations so far say for time management (`roots` sorted, best first;
    /// `scores` the best score of each completed iteration).
    fn progress_of(&self, roots: &[RootMove<G::Move>], scores: &[i32]) -> time::Progress {
        let last = scores.last().copied().unwrap_or(0);
        let earlier = scores.len().checked_sub(params::FALL_LOOKBACK + 1).map_or(last, |i| scores[i]);
        let fall = if last.abs() < MATE_BOUND && earlier.abs() < MATE_BOUND { earlier - last } else { 0 };
        let effort = roots.first().map_or(0.0, |r| r.nodes as f64 / self.nodes.max(1) as f64);
        time::Progress { changes: self.best_move_changes, fall, effort }
    }

    /// One MultiPV line of one iteration inside an aspiration window around the last
    /// iteration's score, widened on a fail low or high until the score is inside it.
    /// Returns whether the line was searched to the end.
    fn aspiration(&mut self, root: &G, depth: i32, pv_idx: usize, roots: &mut [RootMove<G::Move>]) -> bool {
        let centre = roots[pv_idx].previous;
        let mut delta = self.p.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= params::ASPIRATION_MIN_DEPTH && centre.abs() < MATE_BOUND {
            ((centre - delta).max(-INF), (centre + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let done = self.root_search(root, depth, pv_idx, roots, alpha, beta);
            // Stable: the moves that were not searched to the end keep their order.
            roots[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return done;
            }
            let score = roots[pv_idx].score;
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return true;
            }
            delta += delta / params::ASPIRATION_WIDEN_DIVISOR;
            if delta > params::ASPIRATION_GIVE_UP {
                alpha = -INF;
                beta = INF;
            }
        }
    }
}
