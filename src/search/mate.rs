//! `go mate`: a depth-first proof search for a forced win of the side to move.
//!
//! The attacker plays any move (or, where [`Game::MATE_NEEDS_CHECK`], only checks); the
//! defender plays every move. A win is a position where the defender has lost by a rule
//! or has no legal move that loses. Depths grow 1, 3, 5, ... so the first mate found is
//! a shortest one. When a whole iteration ends without reaching its depth limit anywhere,
//! there is no mate at all.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Signals, MAX_PLY};
use crate::game::{Outcome, Strategy};

/// The answer of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer<M> {
    Mate(Vec<M>),
    NoMate,
    Timeout,
}

struct Solver<'a, G: Strategy> {
    signals: &'a Signals,
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
    horizon: bool,
    fails: FailTable,
    _g: std::marker::PhantomData<G>,
}

/// Attacker positions that do not win within a depth (`u32::MAX`: never), in a table of
/// fixed size (the newest entry takes the slot): the solver's memory is bounded whatever
/// it searches. A lost entry only costs time.
pub(crate) struct FailTable {
    slots: Vec<(u64, u32)>,
}

/// Slots of the fail table (16 bytes each: 16 MiB).
pub(crate) const FAIL_SLOTS: usize = 1 << 20;

impl FailTable {
    pub(crate) fn new(slots: usize) -> FailTable {
        FailTable { slots: vec![(0, 0); slots.max(1)] }
    }

    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The depth stored for `key`, if any (depth 0 is never stored: it means empty).
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let (k, d) = self.slots[self.index(key)];
        (k == key && d > 0).then_some(d)
    }

    pub(crate) fn insert(&mut self, key: u64, depth: u32) {
        let i = self.index(key);
        self.slots[i] = (key, depth);
    }

    /// Bytes held, whatever was inserted.
    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(u64, u32)>()
    }
}

impl<'a, G: Strategy> Solver<'a, G> {
    /// Counts a node; looks at `stop` at every node and at the clock every 64, so a
    /// `stop` or the deadline is seen within microseconds even where nodes are slow.
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.signals.stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.nodes & 63 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        self.stopped
    }

    fn attacker_moves(&self, pos: &G, out: &mut Vec<G::Move>) {
        pos.legal_moves(out);
        if G::MATE_NEEDS_CHECK {
            out.retain(|&m| {
                let mut c = pos.clone();
                c.play(m);
                c.in_check()
            });
        }
    }

    /// A winning move for the side to move within `depth` plies, if any.
    fn or_node(&mut self, pos: &G, depth: u32) -> Option<G::Move> {
        if self.tick() {
            return None;
        }
        if pos.result().is_some() {
            return None;
        }
        if depth == 0 {
            self.horizon = true;
            return None;
        }
        let key = pos.key();
        if let Some(d) = self.fails.get(key) {
            if d >= depth {
                self.horizon |= d != u32::MAX;
                return None;
            }
        }
        let horizon_before = std::mem::replace(&mut self.horizon, false);
        let mut moves = Vec::new();
        self.attacker_moves(pos, &mut moves);
        let mut found = None;
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            if self.and_node(&child, depth - 1) {
                found = Some(m);
                break;
            }
            if self.stopped {
                break;
            }
        }
        if found.is_none() && !self.stopped {
            let d = if self.horizon { depth } else { u32::MAX };
            self.fails.insert(key, d);
        }
        self.horizon |= horizon_before;
        found
    }

    /// Whether every defence loses within `depth` plies.
    fn and_node(&mut self, pos: &G, depth: u32) -> bool {
        if self.tick() {
            return false;
        }
        if let Some(o) = pos.result() {
            return o == Outcome::Loss;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return pos.no_move_outcome() == Outcome::Loss;
        }
        if depth == 0 {
            self.horizon = true;
            return false;
        }
        for &m in &moves {
            let mut child = pos.clone();
            child.play(m);
            if self.or_node(&child, depth - 1).is_none() {
                return false;
            }
        }
        !self.stopped
    }

    /// The shortest mate depth from an attacker position, up to `max`.
    fn shortest(&mut self, pos: &G, max: u32) -> Option<(u32, G::Move)> {
        (1..=max).step_by(2).find_map(|d| self.or_node(pos, d).map(|m| (d, m)))
    }

    /// The main line of a mate of `depth` plies: the defender picks the longest resistance.
    fn line(&mut self, root: &G, depth: u32, first: G::Move) -> Vec<G::Move> {
        let mut pv = vec![first];
        let mut pos = root.clone();
        pos.play(first);
        let mut left = depth.saturating_sub(1);
        while left > 0 && !self.stopped {
            let mut replies = Vec::new();
            pos.legal_moves(&mut replies);
            let mut best: Option<(u32, G::Move, G::Move)> = None;
            for &r in &replies {
                let mut child = pos.clone();
                child.play(r);
                if let Some((d, m)) = self.shortest(&child, left - 1) {
                    if best.is_none_or(|b| d > b.0) {
                        best = Some((d, r, m));
                    }
                }
            }
            let Some((d, r, m)) = best else { break };
            pv.push(r);
            pv.push(m);
            pos.play(r);
            pos.play(m);
            left = d.saturating_sub(1);
        }
        pv
    }
}

/// Looks for a forced win of the side to move until found, disproved, `deadline` or stop.
pub(crate) fn solve<G: Strategy>(root: &G, signals: &Signals, deadline: Option<Instant>) -> MateAnswer<G::Move> {
    solve_counted(root, signals, deadline).0
}

/// [`solve`], with the number of nodes visited.
pub(crate) fn solve_counted<G: Strategy>(
    root: &G,
    signals: &Signals,
    deadline: Option<Instant>,
) -> (MateAnswer<G::Move>, u64) {
    let mut s = Solver::<G> {
        signals,
        deadline,
        nodes: 0,
        stopped: false,
        horizon: false,
        fails: FailTable::new(FAIL_SLOTS),
        _g: std::marker::PhantomData,
    };
    let answer = s.solve(root);
    (answer, s.nodes)
}

impl<G: Strategy> Solver<'_, G> {
    /// Depths 1, 3, 5, ... until a mate, a proof that there is none, or the end of time.
    fn solve(&mut self, root: &G) -> MateAnswer<G::Move> {
        let mut depth = 1;
        while depth < MAX_PLY as u32 {
            self.horizon = false;
            if let Some(m) = self.or_node(root, depth) {
                let pv = self.line(root, depth, m);
                return MateAnswer::Mate(pv);
            }
            if self.stopped {
                return MateAnswer::Timeout;
            }
            if !self.horizon {
                return MateAnswer::NoMate;
            }
            depth += 2;
        }
        MateAnswer::Timeout
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::kanishogi::KaniShogi;

    /// Class 11: `stop` is seen at the very next node, not a thousand nodes later, and
    /// the solver's tables have a fixed size however long it runs.
    #[test]
    fn stop_during_go_mate_is_prompt_and_mate_memory_is_bounded() {
        let root = KaniShogi::startpos(&Default::default());
        let signals = Signals::default();
        signals.stop.store(true, Ordering::SeqCst);
        let (answer, nodes) = solve_counted(&root, &signals, None);
        assert_eq!(answer, MateAnswer::Timeout);
        assert!(nodes <= 1, "{nodes} nodes after stop");
        // A deadline already past: seen within 64 nodes.
        let signals = Signals::default();
        let (answer, nodes) = solve_counted(&root, &signals, Some(Instant::now()));
        assert_eq!(answer, MateAnswer::Timeout);
        assert!(nodes <= 64, "{nodes} nodes after the deadline");
        // The fail table never grows.
        let mut t = FailTable::new(1024);
        let bytes = t.bytes();
        for k in 1..100_000u64 {
            t.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 3);
        }
        assert_eq!(t.bytes(), bytes);
        let k = 42u64.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        t.insert(k, 5);
        assert_eq!(t.get(k), Some(5));
        assert_eq!(t.get(k ^ 1), None);
    }
}
