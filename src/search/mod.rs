//! The search, generic over a [`Game`]: iterative deepening with PVS alpha-beta,
//! transposition table, quiescence, killers and history, mate scores, repetition and
//! MultiPV. It never prints: progress goes to a callback as [`Report`]s.

mod alphabeta;
pub mod mate;
pub mod time;
pub mod tt;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome};
use time::TimePlan;
use tt::Table;

pub const INF: i32 = 32_000;
pub const MATE: i32 = 31_000;
/// Scores beyond this are mate scores.
pub const MATE_BOUND: i32 = MATE - 1_000;
pub const MAX_PLY: usize = 128;
const HISTORY_SIZE: usize = 1 << 16;

/// Flags the protocol thread sets while a search runs.
#[derive(Debug, Default)]
pub struct Signals {
    pub stop: AtomicBool,
    /// True while a `go ponder` search waits for `ponderhit`; time limits start when it
    /// turns false.
    pub pondering: AtomicBool,
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
    pv: Vec<M>,
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

/// One search's working state. The table and the history of the game are borrowed.
pub struct Searcher<'a, G: Game> {
    tt: &'a mut Table<G::Move>,
    signals: &'a Signals,
    /// Keys and in-check flags of the game since the `position` root, then the search path.
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// Index in `keys` of the first position after the last null move on the path: no
    /// repetition is looked for across a pass.
    null_floor: usize,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<G::Move>>,
    nodes: u64,
    seldepth: usize,
    start: Instant,
    was_pondering: bool,
    deadline: Option<Duration>,
    node_limit: Option<u64>,
    stopped: bool,
}

impl<'a, G: Game> Searcher<'a, G> {
    /// `history` holds `(key, in_check)` for every position since the `position` root,
    /// the current one last.
    pub fn new(tt: &'a mut Table<G::Move>, signals: &'a Signals, history: &[(u64, bool)]) -> Self {
        Searcher {
            tt,
            signals,
            keys: history.iter().map(|h| h.0).collect(),
            checks: history.iter().map(|h| h.1).collect(),
            null_floor: 0,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(128)).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            nodes: 0,
            seldepth: 0,
            start: Instant::now(),
            was_pondering: false,
            deadline: None,
            node_limit: None,
            stopped: false,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Time since the search started (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn poll(&mut self) {
        if self.signals.stop.load(Ordering::Relaxed) {
            self.stopped = true;
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
            if self.nodes >= n {
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
        self.was_pondering = self.signals.pondering.load(Ordering::Relaxed);
        self.deadline = if limits.time.use_all { limits.time.optimum } else { limits.time.maximum };
        self.node_limit = limits.nodes;
        self.tt.new_search();

        let mut legal = Vec::new();
        if root.result().is_none() {
            root.legal_moves(&mut legal);
        }
        if !limits.searchmoves.is_empty() {
            legal.retain(|m| limits.searchmoves.contains(m));
        }
        let mut roots: Vec<RootMove<G::Move>> =
            legal.iter().map(|&mv| RootMove { mv, score: -INF, pv: vec![mv] }).collect();
        let mut answer = SearchResult { best: roots.first().map(|r| r.mv), ponder: None, score: 0, depth: 0, nodes: 0 };
        if roots.is_empty() {
            return answer;
        }
        let max_depth = limits.depth.map(|d| d.clamp(1, MAX_PLY as u32 - 1)).unwrap_or(MAX_PLY as u32 - 1);
        let multipv = limits.multipv.clamp(1, roots.len());
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut completed = 0;
            for pv_idx in 0..multipv {
                let done = self.root_search(root, depth as i32, pv_idx, &mut roots);
                if done {
                    roots[pv_idx..].sort_by(|a, b| b.score.cmp(&a.score));
                    completed += 1;
                }
                if self.stopped {
                    break;
                }
            }
            if completed == 0 {
                break;
            }
            answer.best = Some(roots[0].mv);
            answer.ponder = roots[0].pv.get(1).copied();
            answer.score = roots[0].score;
            answer.depth = depth;
            for (i, r) in roots.iter().take(completed).enumerate() {
                report(&Report {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: i + 1,
                    score: r.score,
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    pv: r.pv.clone(),
                });
            }
            if self.stopped || roots.len() == 1 && !self.was_pondering && limits.time.maximum.is_some() {
                break;
            }
            if let Some(plies) = mate_plies(answer.score) {
                if plies > 0 && depth as i32 >= plies + 2 && limits.time.maximum.is_some() {
                    break;
                }
            }
            if !self.was_pondering && !limits.time.use_all {
                if let Some(opt) = limits.time.optimum {
                    if self.start.elapsed() > opt.mul_f32(0.6) {
                        break;
                    }
                }
            }
        }
        answer.nodes = self.nodes;
        answer
    }
}
