//! The node search: root loop, PVS negamax with the transposition table, selective
//! pruning, reductions and extensions, and quiescence. Every number it uses is in
//! [`params`].
//!
//! Where to find what:
//! - [`Searcher::root_search`]: the root moves of one iteration (MultiPV, best-move
//!   changes, nodes per root move for time management);
//! - [`Searcher::negamax`] and `node`: one node, in the steps of Stockfish's `search()`
//!   (listed on `node`): step 1 draws and aborts (`negamax`, `immediate_draw`,
//!   `repetition`), 2 `mate_distance`, 3 `tt_cutoff`, 4 `static_evaluation` (with
//!   `correction_keys`, `corrected`), 5-7 `prune_node` (reverse futility, `probcut`,
//!   `null_move`), 8 internal iterative reduction, 9 the move loop (the moves from
//!   `movepick`'s picker, `shallow_prune`, `extension` with `exclude` for the
//!   singular search, `late_move_reduction`, `search_move`, `update_pv`,
//!   `update_cut_statistics` with `reward_quiet`), 10 the final outcome, 11
//!   `store_and_learn`;
//! - `qsearch`: quiescence (stand pat, captures and promotions that do not lose material,
//!   delta pruning).
//! - `movepick`: the move picker of step 9. By default it generates every legal move
//!   at once, the table's move first and the rest scored after it. A game with
//!   `Strategy::STAGED_MOVES` (66 shogi) is asked for its moves in stages, as in
//!   Stockfish's `movepick.cpp`: the table move (`Strategy::is_legal`), captures and
//!   promotions by MVV/LVA with the losing ones set aside, the killers and the
//!   countermove (legal here), the losing captures, then the quiet moves by history in
//!   the game's stages (66 shogi: board moves and drops in one), each generated only
//!   when reached, so a
//!   node that cuts early never makes its drops. A move pruned unless it checks is
//!   tested by `Strategy::gives_check` without being made.
//!
//! Which selective techniques a game gets is its own choice (`Strategy` constants): reverse
//! futility and null move where the evaluation is stable and zugzwang rare, pruning of
//! quiet moves (late-move, futility, history) where a quiet move seldom wins at once.
//! Late-move reductions, aspiration windows, internal iterative reductions, check and
//! singular extensions and the history statistics serve every game. The static evaluation
//! is corrected by what earlier searches found after the same move, and under the
//! structures a game names (`Strategy::correction_keys`); where that moved it far, late moves
//! are reduced less in games that opt in (`Strategy::REDUCE_LESS_WHEN_UNCERTAIN`).

use super::history::{self, Context, CorrectionKeys};
use super::params;
use super::tt::{Bound, Entry};
use super::{outcome_score, RootMove, Searcher, INF, MATE, MATE_BOUND, MAX_PLY, NO_EVAL};
use crate::game::Strategy;

use super::movepick::pick_next;
use super::params::{
    MAX_QPLY, MAX_QUIETS, ORDER_COUNTER, ORDER_GOOD_TACTICAL, ORDER_KILLER_2, ORDER_TT, REPETITION_WINDOW,
};

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

/// The bound a node's result `best` is, searched in the window `(alpha, beta)`.
#[inline(always)]
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// Whether a table score `score` of `bound` settles a node searched in `(alpha, beta)`.
#[inline(always)]
fn cuts(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// Step 2: a mate found from here is no shorter than `ply` plies, so the window narrows
/// to what can still matter; `Some` when nothing can.
#[inline(always)]
fn mate_distance(alpha: &mut i32, beta: &mut i32, ply: usize) -> Option<i32> {
    *alpha = (*alpha).max(-MATE + ply as i32);
    *beta = (*beta).min(MATE - ply as i32 - 1);
    (*alpha >= *beta).then_some(*alpha)
}

/// What a node of the main search knows once steps 1 to 4 are done; the later steps
/// read it.
struct Node<M> {
    ply: usize,
    /// The remaining depth (at least 1; step 8 may take a ply off).
    depth: i32,
    /// The window after mate distance pruning (the node's alpha before any move raised it).
    alpha: i32,
    beta: i32,
    pv_node: bool,
    /// Expected to fail high.
    cut: bool,
    in_check: bool,
    /// The move a singular-extension search leaves out.
    excluded: Option<M>,
    key: u64,
    /// The table's entry (none in a singular search), its move and its score from this ply.
    entry: Option<Entry<M>>,
    tt_move: Option<M>,
    tt_score: Option<i32>,
    eval: Eval,
}

/// Step 4's result: the static evaluation and what it says.
struct Eval {
    /// As the game evaluates (`NO_EVAL` in check).
    raw: i32,
    /// Corrected by the correction history (`NO_EVAL` in check).
    static_eval: i32,
    /// The corrected evaluation, or the table's score where its bound says it is better.
    eval: i32,
    /// Better than two plies before (or nothing to compare with).
    improving: bool,
    /// The correction moved the evaluation far (`params::uncertain`) in a game that reduces
    /// less there.
    uncertain: bool,
    /// The keys the correction was read under, and is learned under at step 11.
    keys: CorrectionKeys,
}

/// What the move loop knows of one move before searching it.
#[derive(Clone, Copy)]
struct MoveFacts<M> {
    mv: M,
    /// Its ordering score (`params::ORDER_*` classes).
    order: i32,
    /// A capture or promotion.
    tactical: bool,
    /// Its history (0 for a tactical move).
    quiet_history: i32,
    /// Known once the move is played.
    gives_check: bool,
}

/// Step 9a's verdict on a move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prune {
    Search,
    Skip,
    /// Skipped unless it gives check.
    SkipUnlessCheck,
}

/// Why step 9b ends the move loop early.
enum Exit {
    /// The search was stopped during the singular search.
    Stopped,
    /// Multi-cut: another move beats beta as well; the node returns this score.
    MultiCut(i32),
}

impl<'a, G: Strategy> Searcher<'a, G> {
    /// Searches the root moves from `pv_idx` on (the ones before are earlier MultiPV
    /// lines) inside `(alpha, beta)`. Each move's `score` becomes its score if it beat
    /// alpha (the first move's also when it did not: an upper bound), else `-INF`.
    /// Returns whether at least the first of them was searched to the end.
    pub(super) fn root_search(
        &mut self,
        pos: &G,
        depth: i32,
        pv_idx: usize,
        roots: &mut [RootMove<G::Move>],
        mut alpha: i32,
        beta: i32,
    ) -> bool {
        self.stack[0].excluded = None;
        self.stack[0].eval = if pos.in_check() { NO_EVAL } else { pos.evaluate() };
        for i in pv_idx..roots.len() {
            let mv = roots[i].mv;
            let mut child = pos.clone();
            child.play(mv);
            self.stack[0].mv = Some(mv);
            self.stack[0].cont = Some(pos.continuation_id(mv));
            self.stack[0].quiet = !pos.is_tactical(mv);
            let nodes_before = self.nodes;
            let mut score;
            if i == pv_idx {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, false);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true);
                if score > alpha && score < beta && !self.stopped {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1, false);
                }
            }
            roots[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return i > pv_idx;
            }
            if i > pv_idx && pv_idx == 0 && score > alpha {
                self.best_move_changes += 1.0;
            }
            if i == pv_idx || score > alpha {
                roots[i].score = score;
                roots[i].pv.clear();
                roots[i].pv.push(mv);
                roots[i].pv.extend_from_slice(&self.pv[1]);
            } else {
                roots[i].score = -INF;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    // A fail high: the window is widened and the iteration searched again.
                    for r in roots[i + 1..].iter_mut() {
                        r.score = -INF;
                    }
                    return true;
                }
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

    fn count_node(&mut self) {
        self.nodes += 1;
        // A node limit is checked at every node once this thread alone has reached it, so
        // that `go nodes 1` stops after one node, not after the next poll.
        if self.nodes & (params::POLL_INTERVAL - 1) == 0 || self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.poll();
        }
    }

    /// The continuation context of a move made at `ply`: the moves made one and two
    /// plies before.
    fn context(&self, ply: usize) -> Context {
        let id = |p: usize| self.stack[p].cont;
        Context { prev1: ply.checked_sub(1).and_then(id), prev2: ply.checked_sub(2).and_then(id) }
    }

    /// The search of `pos` at `ply` to `depth` in `(alpha, beta)`: quiescence at the
    /// horizon, else [`Self::node`]. `cut`: the node is expected to fail high (a
    /// null-window child of a PV or all node).
    ///
    /// Step 1 of the node search: initialize the node (its principal variation, the node
    /// count, the selective depth, the path) and return at once where the game is over,
    /// the search was stopped or the path is at its longest.
    pub(super) fn negamax(&mut self, pos: &G, depth: i32, alpha: i32, beta: i32, ply: usize, cut: bool) -> i32 {
        self.pv[ply].clear();
        if let Some(o) = pos.result() {
            return outcome_score(o, ply);
        }
        let in_check = pos.in_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.count_node();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return pos.evaluate();
        }
        self.seldepth = self.seldepth.max(ply);
        self.push(pos, in_check);
        let score = self.node(pos, depth, alpha, beta, ply, in_check, cut);
        self.pop();
        score
    }

    /// The main search of one node, in the steps of Stockfish's `search()` (the order of
    /// every step that reads or writes the table, the statistics or the stack is part of
    /// the `bench` signature):
    ///
    /// 1. immediate draw (repetition, move-count rule); [`Self::negamax`] has counted the
    ///    node and checked for a finished game and an aborted search;
    /// 2. mate distance pruning;
    /// 3. transposition table lookup and cutoff;
    /// 4. static evaluation, its correction, and "improving";
    /// 5. reverse futility pruning, 6. ProbCut, 7. null move (non-PV nodes, not in check);
    /// 8. internal iterative reduction;
    /// 9. the move loop: (a) pruning at shallow depth, (b) extensions, (c) late-move
    ///    reduction, (d) the search with its re-searches, (e) a new best move, and at a
    ///    cut the statistics;
    /// 10. no legal move, or no move searched: the final outcome;
    /// 11. the result into the table, and what it teaches the statistics.
    ///
    /// `pos` is on the path (`keys`) already; `cut`: the node is expected to fail high.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        in_check: bool,
        cut: bool,
    ) -> i32 {
        let excluded = self.stack[ply].excluded;
        if excluded.is_none() {
            // Step 1: an immediate draw (a singular search's position was judged already).
            if let Some(s) = self.immediate_draw(pos, ply) {
                return s;
            }
            // Step 2: mate distance pruning.
            if let Some(s) = mate_distance(&mut alpha, &mut beta, ply) {
                return s;
            }
        }

        // Step 3: transposition table lookup (none in a singular search: the entry is the
        // node's own, with the excluded move).
        let depth = depth.max(1);
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let entry = if excluded.is_none() { self.tt.probe(key) } else { None };
        let tt_move = entry.and_then(|e| e.mv);
        let tt_score = entry.map(|e| from_tt(e.score, ply));
        if !pv_node {
            if let Some(s) = self.tt_cutoff(pos, entry, tt_score, depth, alpha, beta, ply) {
                return s;
            }
        }

        // Step 4: static evaluation, corrected, and a better guess from the table's bound.
        let eval = self.static_evaluation(pos, ply, in_check, entry, tt_score);
        let mut node =
            Node { ply, depth, alpha, beta, pv_node, cut, in_check, excluded, key, entry, tt_move, tt_score, eval };

        // Steps 5 to 7: cut a non-PV node that is good enough without a search.
        if !pv_node && !in_check && excluded.is_none() && beta.abs() < MATE_BOUND && !pos.stalemate_may_lose() {
            if let Some(s) = self.prune_node(pos, &node) {
                return s;
            }
        }

        // Step 8: internal iterative reduction: without a table move the ordering is poor.
        if node.depth >= params::IIR_DEPTH && tt_move.is_none() && (pv_node || cut) {
            node.depth -= 1;
        }

        // Step 9: the move loop, over the moves of the picker (`movepick`).
        let cx = self.context(ply);
        let counter = self.history.counter(cx.prev1);
        let mut picker = self.move_picker(pos, ply, tt_move, counter, cx);
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets = [None; MAX_QUIETS];
        let mut quiet_count = 0usize;
        let mut skip_quiets = false;
        let tt_tactical = tt_move.is_some_and(|m| pos.is_tactical(m));
        while let Some((mv, order)) = self.next_move(pos, &mut picker, skip_quiets) {
            if Some(mv) == excluded {
                continue;
            }
            let tactical = pos.is_tactical(mv);
            let cont = pos.continuation_id(mv);
            let quiet_history = if tactical { 0 } else { self.history.quiet_score(G::move_id(mv), cont, cx) };
            let m = MoveFacts { mv, order, tactical, quiet_history, gives_check: false };

            // Step 9a: pruning at shallow depth, once a move that does not lose has been found.
            let prune = if ply > 0 && best > -MATE_BOUND && !in_check {
                self.shallow_prune(pos, &node, &m, searched, alpha, &mut skip_quiets)
            } else {
                Prune::Search
            };
            if prune == Prune::Skip {
                continue;
            }
            // A move pruned unless it checks is tested without being made.
            if prune == Prune::SkipUnlessCheck && !pos.gives_check(mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play(mv);
            self.tt.prefetch(child.key());
            let m = MoveFacts { gives_check: child.in_check(), ..m };

            // Step 9b: extensions.
            let extension = match self.extension(pos, &node, &m) {
                Ok(e) => e,
                Err(Exit::Stopped) => break,
                Err(Exit::MultiCut(s)) => {
                    (self.moves[ply], self.scores[ply]) = picker.into_buffers();
                    return s;
                }
            };

            self.stack[ply].mv = Some(mv);
            self.stack[ply].cont = Some(cont);
            self.stack[ply].quiet = !tactical;
            searched += 1;
            if !tactical && quiet_count < MAX_QUIETS {
                quiets[quiet_count] = Some(mv);
                quiet_count += 1;
            }
            let new_depth = node.depth - 1 + extension;

            // Step 9c: late-move reduction (not of the first move).
            let reduction =
                if searched == 1 { 0 } else { self.late_move_reduction(&node, &m, searched, new_depth, tt_tactical) };

            // Step 9d: the search, and a full-depth and full-window re-search where needed.
            let score = self.search_move(&child, &node, new_depth, reduction, searched == 1, alpha);
            if self.stopped {
                break;
            }

            // Step 9e: a new best move; at a cut, the statistics learn of it.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        self.update_cut_statistics(pos, &node, &m, &quiets[..quiet_count], cx);
                        break;
                    }
                }
            }
        }
        self.stack[ply].mv = None;
        self.stack[ply].cont = None;
        let no_move = picker.yielded == 0;
        (self.moves[ply], self.scores[ply]) = picker.into_buffers();

        // Step 10: no legal move (mate or whatever the game makes of it), and the final
        // outcome of an aborted search or one that searched no move.
        if no_move {
            return outcome_score(pos.no_move_outcome(), ply);
        }
        if self.stopped {
            return best.max(-INF + 1);
        }
        if searched == 0 {
            // Only the excluded move (singular search), or every move pruned.
            return if excluded.is_some() { alpha } else { best.max(node.alpha) };
        }

        // Step 11: store into the table and update the statistics.
        if excluded.is_none() {
            self.store_and_learn(pos, &node, best, best_move);
        }
        best
    }

    /// Step 1: a repetition or the game's move-count rule ends the game here.
    #[inline(always)]
    fn immediate_draw(&self, pos: &G, ply: usize) -> Option<i32> {
        if let Some(s) = self.repetition(ply) {
            return Some(s);
        }
        pos.move_count_draw().then_some(0)
    }

    /// Step 3: the table's entry settles a non-PV node searched at least as deep; a quiet
    /// table move that holds beta is rewarded as if it had cut.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn tt_cutoff(
        &mut self,
        pos: &G,
        entry: Option<Entry<G::Move>>,
        tt_score: Option<i32>,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let (e, s) = (entry?, tt_score?);
        if e.depth < depth || !cuts(e.bound, s, alpha, beta) {
            return None;
        }
        if s >= beta {
            if let Some(m) = e.mv.filter(|&m| !pos.is_tactical(m)) {
                self.reward_quiet(pos, m, ply, depth, &[]);
            }
        }
        Some(s)
    }

    /// Step 4: the static evaluation (corrected by what searches under the same keys
    /// found: the game's structures and the previous move), a better guess from the
    /// table's bound, and whether the position improved on two plies before. Clears the
    /// killers of the grandchildren.
    #[inline(always)]
    fn static_evaluation(
        &mut self,
        pos: &G,
        ply: usize,
        in_check: bool,
        entry: Option<Entry<G::Move>>,
        tt_score: Option<i32>,
    ) -> Eval {
        let raw = if in_check { NO_EVAL } else { entry.and_then(|e| e.eval).unwrap_or_else(|| pos.evaluate()) };
        let keys = self.correction_keys(pos, ply);
        let static_eval = self.corrected(pos, &keys, raw);
        // Where the corrections moved the evaluation far, it is less sure: reduce less.
        let uncertain = G::REDUCE_LESS_WHEN_UNCERTAIN && raw != NO_EVAL && self.p.uncertain(raw, static_eval);
        let mut eval = static_eval;
        if let (Some(e), Some(s)) = (entry, tt_score) {
            if !in_check && s.abs() < MATE_BOUND {
                let better = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s > eval,
                    Bound::Upper => s < eval,
                };
                if better {
                    eval = s;
                }
            }
        }
        self.stack[ply].eval = static_eval;
        let improving = !in_check && {
            let earlier = if ply >= 2 && self.stack[ply - 2].eval != NO_EVAL {
                self.stack[ply - 2].eval
            } else if ply >= 4 {
                self.stack[ply - 4].eval
            } else {
                NO_EVAL
            };
            earlier == NO_EVAL || static_eval > earlier
        };
        self.stack[ply + 2].killers = [None; 2];
        Eval { raw, static_eval, eval, improving, uncertain, keys }
    }

    /// Steps 5 to 7 at a non-PV node not in check: reverse futility (the evaluation beats
    /// beta by a margin near the horizon), ProbCut (a good capture beats a raised beta in
    /// a shallow search) and null move (passing still beats beta at reduced depth). (Koma
    /// tries ProbCut before the null move, Stockfish after it.) `None`: search the node.
    #[inline(always)]
    fn prune_node(&mut self, pos: &G, node: &Node<G::Move>) -> Option<i32> {
        let (depth, beta, eval) = (node.depth, node.beta, node.eval.eval);
        if eval == NO_EVAL {
            return None;
        }
        // Step 5: reverse futility pruning.
        let margin = self.p.futility_margin;
        if margin > 0
            && depth <= params::RFP_DEPTH
            && eval < MATE_BOUND
            && eval - margin * (depth - node.eval.improving as i32) >= beta
        {
            return Some(eval);
        }
        // Step 6: ProbCut.
        if G::QUIET_PRUNING && depth >= params::PROBCUT_DEPTH {
            if let Some(score) = self.probcut(pos, node) {
                return Some(score);
            }
        }
        // Step 7: null move.
        self.null_move(pos, node)
    }

    /// Step 7: the side to move passes; if the opponent's reduced search still cannot
    /// reach beta, the node holds beta. Not twice in a row, nor before the path has a
    /// position since the last pass.
    #[inline(always)]
    fn null_move(&mut self, pos: &G, node: &Node<G::Move>) -> Option<i32> {
        let (depth, beta, eval, ply) = (node.depth, node.beta, node.eval.eval, node.ply);
        let null = depth >= params::NULL_MIN_DEPTH
            && eval >= beta
            && self.null_floor + 1 < self.keys.len()
            && self.stack[ply.saturating_sub(1)].mv.is_some();
        if !null {
            return None;
        }
        let child = pos.null_move()?;
        let r = self.p.null_reduction(depth, eval, beta);
        let floor = std::mem::replace(&mut self.null_floor, self.keys.len());
        self.stack[ply].mv = None;
        self.stack[ply].cont = None;
        let score = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !node.cut);
        self.null_floor = floor;
        if score >= beta && !self.stopped {
            return Some(if score > MATE_BOUND { beta } else { score });
        }
        None
    }

    /// Step 9a: whether the move is pruned before it is searched, in games that prune
    /// quiet moves (`Strategy::QUIET_PRUNING`: late-move, futility, history and exchange
    /// pruning) and in all games for captures that lose material near the horizon. A
    /// quiet move that gives check is never pruned (it may mate). Sets `skip_quiets` once
    /// late-move pruning starts.
    #[inline(always)]
    fn shallow_prune(
        &self,
        pos: &G,
        node: &Node<G::Move>,
        m: &MoveFacts<G::Move>,
        searched: usize,
        alpha: i32,
        skip_quiets: &mut bool,
    ) -> Prune {
        let depth = node.depth;
        if !m.tactical && G::QUIET_PRUNING {
            if depth <= params::LMP_DEPTH && searched >= params::late_move_count(depth, node.eval.improving) {
                *skip_quiets = true;
            }
            let lmr_depth = (depth - 1 - self.reductions.get(depth, searched + 1)).max(0);
            let eval = node.eval.eval;
            let margin = self.p.futility_margin;
            let futile = margin > 0
                && lmr_depth <= params::FUTILITY_DEPTH
                && eval != NO_EVAL
                && eval + margin * (1 + lmr_depth) <= alpha;
            let bad_history =
                lmr_depth < params::HISTORY_PRUNE_DEPTH && m.quiet_history < -self.p.history_prune * depth;
            let prune_quiet = *skip_quiets
                || (m.order < ORDER_COUNTER
                    && (futile || bad_history || (lmr_depth <= params::SEE_QUIET_DEPTH && pos.losing_exchange(m.mv))));
            if prune_quiet {
                return Prune::SkipUnlessCheck;
            }
        } else if m.tactical
            && depth <= params::SEE_PRUNE_DEPTH
            && !node.pv_node
            && m.order < ORDER_KILLER_2
            && pos.losing_exchange(m.mv)
        {
            return Prune::Skip;
        }
        Prune::Search
    }

    /// Step 9b: the move's extension in plies. Singular extension: the table's move is
    /// much better than every other (+1), or another move beats beta too (multi-cut: the
    /// node returns), or the table's score alone beats beta (-1). Check extension: a check
    /// that does not lose material by exchange, bounded so that perpetual checks cannot
    /// run away.
    #[inline(always)]
    fn extension(&mut self, pos: &G, node: &Node<G::Move>, m: &MoveFacts<G::Move>) -> Result<i32, Exit> {
        let (depth, ply) = (node.depth, node.ply);
        let mut extension = 0;
        if Some(m.mv) == node.tt_move && node.excluded.is_none() && ply > 0 && depth >= params::SINGULAR_DEPTH {
            if let (Some(e), Some(s)) = (node.entry, node.tt_score) {
                if e.bound != Bound::Upper && e.depth >= depth - params::SINGULAR_TT_SLACK && s.abs() < MATE_BOUND {
                    let singular_beta = s - params::SINGULAR_MARGIN * depth;
                    let singular_depth = params::singular_search_depth(depth);
                    let value = self.exclude(pos, m.mv, singular_depth, singular_beta, ply, node.in_check, node.cut);
                    if self.stopped {
                        return Err(Exit::Stopped);
                    }
                    if value < singular_beta {
                        extension = 1;
                    } else if singular_beta >= node.beta {
                        return Err(Exit::MultiCut(singular_beta));
                    } else if s >= node.beta {
                        extension = -1;
                    }
                }
            }
        }
        if extension == 0
            && m.gives_check
            && (ply as i32) < params::CHECK_EXTENSION_REACH * self.root_depth
            && !pos.losing_exchange(m.mv)
        {
            extension = 1;
        }
        Ok(extension)
    }

    /// Step 9c: the late-move reduction of the `searched`-th move (from 2): the table's
    /// by depth and move number, more at non-PV, not improving and expected cut nodes and
    /// after a tactical table move, less for killers and the countermove, by history,
    /// where the evaluation is uncertain and for checks. Captures that win material and
    /// promotions are not reduced.
    #[inline(always)]
    fn late_move_reduction(
        &self,
        node: &Node<G::Move>,
        m: &MoveFacts<G::Move>,
        searched: usize,
        new_depth: i32,
        tt_tactical: bool,
    ) -> i32 {
        let reducible = node.depth >= params::LMR_MIN_DEPTH && (!m.tactical || m.order < ORDER_GOOD_TACTICAL);
        if !reducible {
            return 0;
        }
        let mut reduction = self.reductions.get(node.depth, searched);
        reduction += (!node.pv_node) as i32 + (!node.eval.improving) as i32 + (node.cut as i32) + tt_tactical as i32;
        if m.order >= ORDER_COUNTER && !m.tactical {
            reduction -= 1;
        }
        reduction -= m.quiet_history / self.p.lmr_history_divisor;
        if node.eval.uncertain {
            reduction -= 1;
        }
        if reduction > 0 && m.gives_check {
            reduction -= 1;
        }
        reduction.clamp(0, new_depth - 1)
    }

    /// Step 9d: the child's score. The first move gets the full window; a later one a
    /// null window at `reduction` plies less, again at full depth if it beat alpha, and
    /// in a PV node with the full window if it landed inside it.
    #[inline(always)]
    fn search_move(
        &mut self,
        child: &G,
        node: &Node<G::Move>,
        new_depth: i32,
        reduction: i32,
        first: bool,
        alpha: i32,
    ) -> i32 {
        let (beta, ply, cut) = (node.beta, node.ply, node.cut);
        if first {
            return -self.negamax(child, new_depth, -beta, -alpha, ply + 1, !node.pv_node && !cut);
        }
        let mut score = -self.negamax(child, new_depth - reduction, -alpha - 1, -alpha, ply + 1, true);
        if score > alpha && reduction > 0 && !self.stopped {
            score = -self.negamax(child, new_depth, -alpha - 1, -alpha, ply + 1, !cut);
        }
        if node.pv_node && score > alpha && score < beta && !self.stopped {
            score = -self.negamax(child, new_depth, -beta, -alpha, ply + 1, false);
        }
        score
    }

    /// Step 9e: the principal variation at `ply` becomes `mv` and the child's.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Step 9e, at a cut: a quiet move is rewarded and the quiet moves before it fall; a
    /// capture or promotion leaves its own statistics alone, but the quiet moves tried
    /// before it fall all the same.
    #[inline(always)]
    fn update_cut_statistics(
        &mut self,
        pos: &G,
        node: &Node<G::Move>,
        m: &MoveFacts<G::Move>,
        quiets: &[Option<G::Move>],
        cx: Context,
    ) {
        if !m.tactical {
            let earlier = &quiets[..quiets.len().saturating_sub(1)];
            self.reward_quiet(pos, m.mv, node.ply, node.depth, earlier);
        } else {
            for q in quiets.iter().flatten() {
                self.history.update_quiet(G::move_id(*q), pos.continuation_id(*q), cx, -history::bonus(node.depth));
            }
        }
    }

    /// Step 11: the node's result goes into the table; where every reply failed low the
    /// quiet move that led here gains history; and the correction history learns how far
    /// the static evaluation was off.
    #[inline(always)]
    fn store_and_learn(&mut self, pos: &G, node: &Node<G::Move>, best: i32, best_move: Option<G::Move>) {
        let (ply, depth, static_eval) = (node.ply, node.depth, node.eval.static_eval);
        let bound = bound_of(best, node.alpha, node.beta);
        let raw = (node.eval.raw != NO_EVAL).then_some(node.eval.raw);
        self.tt.store(node.key, best_move, to_tt(best, ply), raw, depth, bound);
        // Every reply failed low: the quiet move that led here was a good one.
        if bound == Bound::Upper && ply > 0 && self.stack[ply - 1].quiet {
            if let (Some(prev), Some(cont)) = (self.stack[ply - 1].mv, self.stack[ply - 1].cont) {
                let cx = self.context(ply - 1);
                self.history.update_quiet(G::move_id(prev), cont, cx, history::bonus(depth));
            }
        }
        // The search's score says how far off the evaluation was, where the bound
        // allows it to say so and a capture did not decide the node.
        let off = match bound {
            Bound::Lower => best > static_eval,
            Bound::Upper => best < static_eval,
            Bound::Exact => true,
        };
        if static_eval != NO_EVAL && off && best.abs() < MATE_BOUND && !best_move.is_some_and(|m| pos.is_tactical(m)) {
            self.history.corrections.update(pos.side_to_move().index(), &node.eval.keys, depth, best - static_eval);
        }
    }

    /// The keys `pos`, reached at `ply`, is corrected under: the game's and the move
    /// that led to it.
    fn correction_keys(&self, pos: &G, ply: usize) -> CorrectionKeys {
        CorrectionKeys {
            game: pos.correction_keys(),
            prev: ply.checked_sub(1).and_then(|p| self.stack[p].mv).map(G::move_id),
        }
    }

    /// `raw` (a static evaluation, or `NO_EVAL`) with the correction history of `keys` added.
    fn corrected(&self, pos: &G, keys: &CorrectionKeys, raw: i32) -> i32 {
        if raw == NO_EVAL {
            return raw;
        }
        (raw + self.history.corrections.get(pos.side_to_move().index(), keys)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The singular-extension search: `pos` (already on the path at `ply`) searched to
    /// `depth` with a null window at `singular_beta`, leaving out `mv`.
    #[allow(clippy::too_many_arguments)]
    fn exclude(
        &mut self,
        pos: &G,
        mv: G::Move,
        depth: i32,
        singular_beta: i32,
        ply: usize,
        in_check: bool,
        cut: bool,
    ) -> i32 {
        let saved = self.stack[ply];
        self.stack[ply].excluded = Some(mv);
        let value = self.node(pos, depth, singular_beta - 1, singular_beta, ply, in_check, cut);
        self.stack[ply] = saved;
        self.pv[ply].clear();
        value
    }

    /// A quiet move caused a cut at `ply`: it becomes a killer and the countermove, its
    /// statistics rise, and the quiet moves tried before it fall.
    fn reward_quiet(&mut self, pos: &G, mv: G::Move, ply: usize, depth: i32, earlier: &[Option<G::Move>]) {
        let k = &mut self.stack[ply].killers;
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let cx = self.context(ply);
        self.history.set_counter(cx.prev1, mv);
        let b = history::bonus(depth);
        self.history.update_quiet(G::move_id(mv), pos.continuation_id(mv), cx, b);
        for q in earlier.iter().flatten() {
            self.history.update_quiet(G::move_id(*q), pos.continuation_id(*q), cx, -b);
        }
    }

    /// ProbCut: a capture that beats beta by a margin in a shallow search almost surely
    /// beats beta in the full one. The few best captures that do not lose material are
    /// tried, each first by quiescence and, if that holds, at four plies less.
    fn probcut(&mut self, pos: &G, node: &Node<G::Move>) -> Option<i32> {
        let (depth, beta, ply, improving, cut) = (node.depth, node.beta, node.ply, node.eval.improving, node.cut);
        let raised = beta + self.p.probcut_margin - self.p.probcut_improving * improving as i32;
        if raised >= MATE_BOUND {
            return None;
        }
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        if !pos.tactical_moves(&mut list) {
            pos.legal_moves(&mut list);
            list.retain(|&m| pos.is_tactical(m));
        }
        // The best captures first; those that lose by exchange are left out.
        list.sort_by_key(|&m| -pos.order_score(m));
        let mut tried = 0;
        let mut found = None;
        for &mv in list.iter() {
            if tried >= params::probcut_tries(cut) {
                break;
            }
            if pos.losing_exchange(mv) {
                continue;
            }
            tried += 1;
            let mut child = pos.clone();
            child.play(mv);
            self.stack[ply].mv = Some(mv);
            self.stack[ply].cont = Some(pos.continuation_id(mv));
            self.stack[ply].quiet = false;
            let mut value = -self.qsearch(&child, -raised, -raised + 1, ply + 1, 0);
            if value >= raised && !self.stopped {
                value = -self.negamax(&child, depth - params::PROBCUT_REDUCTION, -raised, -raised + 1, ply + 1, !cut);
            }
            if self.stopped {
                break;
            }
            if value >= raised {
                found = Some(value);
                break;
            }
        }
        self.stack[ply].mv = None;
        self.stack[ply].cont = None;
        self.moves[ply] = list;
        found
    }

    fn qsearch(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, qply: usize) -> i32 {
        self.count_node();
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
        let pv_node = beta - alpha > 1;
        let key = pos.key();
        let entry = self.tt.probe(key);
        if let Some(e) = entry {
            let s = from_tt(e.score, ply);
            if !pv_node && cuts(e.bound, s, alpha, beta) {
                return s;
            }
        }
        let stand_pat = !in_check || qply >= MAX_QPLY;
        let mut list = std::mem::take(&mut self.moves[ply]);
        list.clear();
        // Where the game makes its tactical moves alone, a position without them is not
        // looked at for having no move at all (as in every engine's quiescence).
        let tactical_only = stand_pat && pos.tactical_moves(&mut list);
        if !tactical_only {
            pos.legal_moves(&mut list);
            if list.is_empty() {
                self.moves[ply] = list;
                return outcome_score(pos.no_move_outcome(), ply);
            }
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut raw_eval = None;
        if stand_pat {
            let raw = entry.and_then(|e| e.eval).unwrap_or_else(|| pos.evaluate());
            raw_eval = Some(raw);
            let stand = self.corrected(pos, &self.correction_keys(pos, ply), raw);
            if stand >= beta || qply >= MAX_QPLY {
                self.moves[ply] = list;
                if entry.is_none() {
                    self.tt.store(key, None, to_tt(stand, ply), Some(raw), 0, Bound::Lower);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            // Captures and promotions that do not lose material. (Quiet checks on the
            // first ply, drops in 66 shogi, lost 96 +/- 76 Elo at equal nodes.)
            list.retain(|&m| (tactical_only || pos.is_tactical(m)) && !pos.losing_exchange(m));
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let tt_move = entry.and_then(|e| e.mv);
        scores.extend(list.iter().map(|&m| if Some(m) == tt_move { ORDER_TT } else { pos.order_score(m) }));
        let mut best_move = None;
        // Delta pruning applies where a standing score exists (not in check).
        let futility_base = if stand_pat && !in_check { Some(best + self.p.qs_futility_margin) } else { None };
        for n in 0..list.len() {
            pick_next(&mut list, &mut scores, n);
            let futile =
                futility_base.and_then(|base| Some(base + pos.material_gain(list[n])?)).filter(|&v| v <= alpha);
            let mut child = pos.clone();
            child.play(list[n]);
            if let Some(value) = futile {
                if !child.in_check() {
                    best = best.max(value);
                    continue;
                }
            }
            self.tt.prefetch(child.key());
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(list[n]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = list;
        self.scores[ply] = scores;
        if !self.stopped && entry.is_none_or(|e| e.depth <= 0) {
            let bound = bound_of(best, original_alpha, beta);
            self.tt.store(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::kokesu::Kokesu;
    use crate::search::tt::Table;
    use crate::search::{time, Limits, Signals};
    use std::time::{Duration, Instant};

    /// No limit but `depth`.
    fn depth_limits(depth: u32) -> Limits<<Kokesu as Game>::Move> {
        Limits {
            time: time::TimePlan::unlimited(Duration::ZERO),
            depth: Some(depth),
            nodes: None,
            multipv: 1,
            searchmoves: Vec::new(),
        }
    }

    /// The score of `sfen` at `depth`, and what the singular-extension search finds
    /// without the best move (one of `tokens`) at half that depth.
    fn singular_probe(sfen: &str, tokens: &[&str], depth: u32) -> (i32, i32) {
        let p = Kokesu::from_sfen(sfen, &Default::default()).unwrap();
        let table = Table::new(2);
        let signals = Signals::default();
        let history = [(p.key(), p.in_check())];
        let mut s = Searcher::new(&table, &signals, &history);
        let limits = depth_limits(depth);
        let r = s.run(&p, &limits, Instant::now(), &mut |_| {});
        let mv = r.best.unwrap();
        assert!(tokens.contains(&p.format_move(mv).as_str()), "{sfen}");
        // The root on the path, as `node` expects it.
        s.push(&p, p.in_check());
        s.root_depth = depth as i32;
        let value = s.exclude(&p, mv, depth as i32 / 2, r.score - 1, 0, p.in_check(), false);
        (r.score, value)
    }

    /// A depth-limited search of `sfen`: what its iterations showed time management,
    /// and the best move of each iteration.
    fn search_to(table: &Table<<Kokesu as Game>::Move>, sfen: &str, depth: u32) -> (time::Progress, Vec<String>) {
        let p = Kokesu::from_sfen(sfen, &Default::default()).unwrap();
        let signals = Signals::default();
        let history = [(p.key(), p.in_check())];
        let mut s = Searcher::new(table, &signals, &history);
        let limits = depth_limits(depth);
        let mut best = Vec::new();
        s.run(&p, &limits, Instant::now(), &mut |r| best.push(p.format_move(r.pv[0])));
        (s.progress, best)
    }

    #[test]
    fn time_progress_sees_a_settled_search() {
        // The rook takes a free queen (5h5d): it stays best from the first iteration and
        // takes nearly all the nodes, so a clocked search would spend less than its optimum.
        let table = Table::new(2);
        let (progress, best) = search_to(&table, "k7/8/8/3q4/8/8/8/3R2K1 b - 1", 10);
        assert!(best.iter().all(|m| m == "5h5d"), "{best:?}");
        // (An early iteration may try another move before the capture; halved at each
        // iteration since, that change has all but faded.)
        assert!(progress.changes < 0.05, "{progress:?}");
        assert!(progress.effort >= 0.9 && progress.effort <= 1.0, "{progress:?}");
        assert!(time::time_scale(&progress) < 1.0);
    }

    #[test]
    fn time_progress_counts_best_move_changes() {
        // From the start the best move changes between iterations; once it has, the
        // decayed count stays above zero, and the effort is a share of the nodes.
        let table = Table::new(2);
        let (progress, best) = search_to(&table, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", 10);
        assert!(best.windows(2).any(|w| w[0] != w[1]), "the position must show a change: {best:?}");
        assert!(progress.changes > 0.0, "{progress:?}");
        assert!(progress.effort > 0.0 && progress.effort <= 1.0, "{progress:?}");
    }

    /// The history of `mv` (played from the start position, the search's ply 0) after a
    /// null-window search of the reply position at `alpha` where every reply fails low.
    fn history_after_fail_low(quiet: bool) -> (i32, i32) {
        let p = Kokesu::from_sfen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", &Default::default()).unwrap();
        let mv = p.parse_move("5g5e").unwrap();
        assert!(!p.is_tactical(mv));
        let mut child = p.clone();
        child.play(mv);
        let table = Table::new(2);
        let signals = Signals::default();
        let history = [(p.key(), p.in_check())];
        let mut s = Searcher::new(&table, &signals, &history);
        s.root_depth = 3;
        s.stack[0].mv = Some(mv);
        s.stack[0].cont = Some(p.continuation_id(mv));
        s.stack[0].quiet = quiet;
        let cx = s.context(0);
        let before = s.history.quiet_score(Kokesu::move_id(mv), p.continuation_id(mv), cx);
        // No reply of the opponent reaches a queen's worth: the node fails low.
        let score = s.negamax(&child, 3, 900, 901, 1, false);
        assert!(score <= 900, "{score}");
        (before, s.history.quiet_score(Kokesu::move_id(mv), p.continuation_id(mv), cx))
    }

    #[test]
    fn a_quiet_move_every_reply_to_which_fails_low_gains_history() {
        let (before, after) = history_after_fail_low(true);
        assert_eq!(before, 0);
        assert!(after > 0, "{after}");
        // A capture or promotion is ordered by what it takes, not by this history.
        let (_, after) = history_after_fail_low(false);
        assert_eq!(after, 0);
    }

    #[test]
    fn singular_search_finds_the_only_move_that_wins_the_queen() {
        // Only the rook takes the queen on d5 (5h5d), leaving a rook against a bare king.
        // Without it white is far worse (-428 at depth 6). The probe's null-window value
        // is only an upper bound (a pass lets the rook take the queen after all), but it
        // stays below the singular margin the search uses at this depth.
        let (score, without) = singular_probe("k7/8/8/3q4/8/8/8/3R2K1 b - 1", &["5h5d"], 6);
        assert!(score > 300, "{score}");
        assert!(without < score - params::SINGULAR_MARGIN * 6, "{score} {without}");
    }

    #[test]
    fn singular_search_sees_a_second_move_that_wins_the_queen() {
        // The rook (5h5d) and the knight on c3 (6f5d) both take it: neither is singular.
        let (score, without) = singular_probe("k7/8/8/3q4/8/2N5/8/3R2K1 b - 1", &["5h5d", "6f5d"], 6);
        assert!(score > 500, "{score}");
        assert!(without > score - 200, "{score} {without}");
    }
}
