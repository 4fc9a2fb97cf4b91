//! `go mate`: a depth-first proof search for a forced win of the side to move.
//!
//! The attacker plays any move (or, where [`Game::MATE_NEEDS_CHECK`], only checks); the
//! defender plays every move. A win is a position where the defender has lost by a rule
//! or has no legal move that loses. Depths grow 1, 3, 5, ... so the first mate found is
//! a shortest one. When a whole iteration ends without reaching its depth limit anywhere,
//! there is no mate at all.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{Signals, MAX_PLY};
use crate::game::{Game, Outcome};

/// The answer of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer<M> {
    Mate(Vec<M>),
    NoMate,
    Timeout,
}

struct Solver<'a, G: Game> {
    signals: &'a Signals,
    deadline: Option<Instant>,
    nodes: u64,
    stopped: bool,
    horizon: bool,
    /// Attacker positions that do not win within `depth` (`u32::MAX`: never).
    fails: HashMap<u64, u32>,
    _g: std::marker::PhantomData<G>,
}

impl<'a, G: Game> Solver<'a, G> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || self.signals.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
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
        if let Some(&d) = self.fails.get(&key) {
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
        true
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
                    if best.map_or(true, |b| d > b.0) {
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
pub fn solve<G: Game>(root: &G, signals: &Signals, deadline: Option<Instant>) -> MateAnswer<G::Move> {
    let mut s = Solver::<G> {
        signals,
        deadline,
        nodes: 0,
        stopped: false,
        horizon: false,
        fails: HashMap::new(),
        _g: std::marker::PhantomData,
    };
    let mut depth = 1;
    while depth < MAX_PLY as u32 {
        s.horizon = false;
        if let Some(m) = s.or_node(root, depth) {
            let pv = s.line(root, depth, m);
            return MateAnswer::Mate(pv);
        }
        if s.stopped {
            return MateAnswer::Timeout;
        }
        if !s.horizon {
            return MateAnswer::NoMate;
        }
        depth += 2;
    }
    MateAnswer::Timeout
}
