//! The node search: root loop, PVS negamax with the transposition table, and quiescence.

use super::tt::Bound;
use super::{outcome_score, RootMove, Searcher, HISTORY_SIZE, INF, MATE, MATE_BOUND, MAX_PLY};
use crate::game::Game;

/// How many same-side positions back a repetition is looked for.
const REPETITION_WINDOW: usize = 100;
/// Plies of quiescence below the horizon.
const MAX_QPLY: usize = 12;

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a, G: Game> Searcher<'a, G> {
    /// Searches the root moves from `pv_idx` on (the ones before are earlier MultiPV
    /// lines). Returns whether at least the first of them was searched to the end.
    pub(super) fn root_search(&mut self, pos: &G, depth: i32, pv_idx: usize, roots: &mut [RootMove<G::Move>]) -> bool {
        let mut alpha = -INF;
        let beta = INF;
        for i in pv_idx..roots.len() {
            let mv = roots[i].mv;
            let mut child = pos.clone();
            child.play(mv);
            let mut score;
            if i == pv_idx {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
                }
            }
            if self.stopped {
                return i > pv_idx;
            }
            if score > alpha {
                alpha = score;
                roots[i].score = score;
                roots[i].pv.clear();
                roots[i].pv.push(mv);
                roots[i].pv.extend_from_slice(&self.pv[1]);
            } else {
                roots[i].score = -INF;
            }
        }
        true
    }

    /// A repetition of the current position (the last key) within the window: the
    /// score from the side to move's view.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let cur = self.keys.len() - 1;
        let key = self.keys[cur];
        let lowest = cur.saturating_sub(REPETITION_WINDOW).max(self.null_floor);
        let mut i = cur.checked_sub(2)?;
        if i < lowest {
            return None;
        }
        loop {
            if self.keys[i] == key {
                if G::PERPETUAL_CHECK_LOSES {
                    // Our positions in the cycle all in check: the opponent checked every move.
                    if (i + 2..=cur).step_by(2).all(|j| self.checks[j]) {
                        return Some(MATE - ply as i32);
                    }
                    if (i + 1..cur).step_by(2).all(|j| self.checks[j]) {
                        return Some(-MATE + ply as i32);
                    }
                }
                return Some(0);
            }
            if i < 2 || i - 2 < lowest {
                return None;
            }
            i -= 2;
        }
    }

    fn push(&mut self, pos: &G, in_check: bool) {
        self.keys.push(pos.key());
        self.checks.push(in_check);
    }

    fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
    }

    pub(super) fn negamax(&mut self, pos: &G, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if let Some(o) = pos.result() {
            return outcome_score(o, ply);
        }
        let in_check = pos.in_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return pos.evaluate();
        }
        self.seldepth = self.seldepth.max(ply);
        self.push(pos, in_check);
        let score = self.node(pos, &mut depth, &mut alpha, &mut beta, ply, in_check);
        self.pop();
        score
    }

    fn node(&mut self, pos: &G, depth: &mut i32, alpha: &mut i32, beta: &mut i32, ply: usize, in_check: bool) -> i32 {
        if let Some(s) = self.repetition(ply) {
            return s;
        }
        if pos.move_count_draw() {
            return 0;
        }
        // Mate distance pruning.
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        if *alpha >= *beta {
            return *alpha;
        }
        if in_check {
            *depth = (*depth).max(0) + 1;
        }
        let depth = *depth;
        let pv_node = *beta - *alpha > 1;
        let key = pos.key();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry {
            if !pv_node && e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let cut = match e.bound {
                    super::tt::Bound::Exact => true,
                    super::tt::Bound::Lower => s >= *beta,
                    super::tt::Bound::Upper => s <= *alpha,
                };
                if cut {
                    return s;
                }
            }
        }

        if !pv_node && !in_check && (*beta).abs() < MATE_BOUND {
            if let Some(score) = self.prune(pos, depth, *beta, ply) {
                return score;
            }
        }

        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            self.moves[ply] = list;
            return outcome_score(pos.no_move_outcome(), ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.score_moves(pos, &list, &mut scores, tt_move, ply);

        let original_alpha = *alpha;
        let mut best = -INF;
        let mut best_move = None;
        for n in 0..list.len() {
            pick_next(&mut list, &mut scores, n);
            let mv = list[n];
            let tactical = pos.is_tactical(mv);
            let mut child = pos.clone();
            child.play(mv);
            let mut score;
            if n == 0 {
                score = -self.negamax(&child, depth - 1, -*beta, -*alpha, ply + 1);
            } else {
                let quiet_late = depth >= 3 && n >= 3 && !in_check && !tactical && scores[n] < 80_000;
                let reduction = if quiet_late { 1 + (n >= 8) as i32 + (depth >= 8 && n >= 16) as i32 } else { 0 };
                score = -self.negamax(&child, depth - 1 - reduction, -*alpha - 1, -*alpha, ply + 1);
                if score > *alpha && reduction > 0 && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -*alpha - 1, -*alpha, ply + 1);
                }
                if score > *alpha && score < *beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -*beta, -*alpha, ply + 1);
                }
            }
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > *alpha {
                    best_move = Some(mv);
                    *alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= *beta {
                        if !tactical {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(mv) {
                                k[1] = k[0];
                                k[0] = Some(mv);
                            }
                            let h = &mut self.history[G::move_id(mv) as usize % HISTORY_SIZE];
                            *h = (*h + depth * depth).min(60_000);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = list;
        self.scores[ply] = scores;
        if self.stopped {
            return best.max(-INF + 1);
        }
        let bound = if best >= *beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Cuts a non-PV node that is good enough without a search: reverse futility (the
    /// static evaluation beats beta by a margin near the horizon) and null move (passing
    /// still beats beta at reduced depth). `None`: search the node.
    fn prune(&mut self, pos: &G, depth: i32, beta: i32, ply: usize) -> Option<i32> {
        let futility = G::FUTILITY_MARGIN > 0 && depth <= 3;
        let null = depth >= 3 && self.null_floor + 1 < self.keys.len();
        if !futility && !null {
            return None;
        }
        // A game that neither passes here nor prunes by futility needs no evaluation.
        let child = if null { pos.null_move() } else { None };
        if !futility && child.is_none() {
            return None;
        }
        let eval = pos.evaluate();
        if futility && eval - G::FUTILITY_MARGIN * depth >= beta {
            return Some(eval);
        }
        if let Some(child) = child.filter(|_| eval >= beta) {
            let r = 3 + depth / 6;
            let floor = std::mem::replace(&mut self.null_floor, self.keys.len());
            let score = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.null_floor = floor;
            if score >= beta && !self.stopped {
                return Some(if score > MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    fn score_moves(&self, pos: &G, list: &[G::Move], scores: &mut Vec<i32>, tt_move: Option<G::Move>, ply: usize) {
        scores.clear();
        let k = self.killers[ply];
        scores.extend(list.iter().map(|&m| {
            if Some(m) == tt_move {
                1_000_000
            } else if pos.is_tactical(m) {
                // Captures that lose material by exchange go after the killers.
                if pos.losing_exchange(m) {
                    70_000 + pos.order_score(m).min(9_999)
                } else {
                    200_000 + pos.order_score(m)
                }
            } else if Some(m) == k[0] {
                90_000
            } else if Some(m) == k[1] {
                85_000
            } else {
                self.history[G::move_id(m) as usize % HISTORY_SIZE]
            }
        }));
    }

    fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.stopped {
            return 0;
        }
        if let Some(o) = pos.result() {
            return outcome_score(o, ply);
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 || (qply >= MAX_QPLY && !in_check) {
            return pos.evaluate();
        }
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            self.moves[ply] = list;
            return outcome_score(pos.no_move_outcome(), ply);
        }
        let mut best = -INF;
        if !in_check || qply >= MAX_QPLY {
            let stand = pos.evaluate();
            if stand >= beta || qply >= MAX_QPLY {
                self.moves[ply] = list;
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            list.retain(|&m| pos.is_tactical(m) && !pos.losing_exchange(m));
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        scores.extend(list.iter().map(|&m| pos.order_score(m)));
        for n in 0..list.len() {
            pick_next(&mut list, &mut scores, n);
            let mut child = pos.clone();
            child.play(list[n]);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = list;
        self.scores[ply] = scores;
        best
    }
}

/// Selection step: brings the best-scored remaining move to index `n`.
fn pick_next<M: Copy>(list: &mut [M], scores: &mut [i32], n: usize) {
    let mut best = n;
    for i in n + 1..list.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    list.swap(n, best);
    scores.swap(n, best);
}
