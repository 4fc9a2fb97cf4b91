//! The move picker of the main search's move loop: the moves of a node one at a time,
//! best first, each with its ordering score (`params::ORDER_*` classes).
//!
//! Two ways, by the game's [`Strategy::STAGED_MOVES`]:
//! - one stage (the default): every legal move is generated at once; the table's move goes
//!   first, and the others are scored only if it does not cut;
//! - staged (Stockfish's `movepick.cpp`): the table move (checked by
//!   [`Strategy::is_legal`]); the tactical moves ([`Strategy::tactical_moves`]), best by
//!   [`Strategy::order_score`] first, those that lose material by exchange set aside as
//!   they come up; the killers and the countermove (quiet and legal here); the tactical
//!   moves set aside; then the quiet moves in the game's [`Strategy::QUIET_STAGES`]
//!   stages ([`Strategy::quiet_moves`]; 66 shogi: one, board moves and drops), each
//!   by history. A stage is generated only when the one before is used up, so a node that
//!   cuts early never makes its drops; once the search prunes late quiet moves
//!   (`skip_quiets`) they come in generation order, unscored, for the check test alone.
//!
//! Both keep the moves in the searcher's per-ply buffers: nothing is allocated.

use super::history::Context;
use super::params::{
    ORDER_BAD_TACTICAL, ORDER_BAD_TACTICAL_SPAN, ORDER_COUNTER, ORDER_GOOD_TACTICAL, ORDER_KILLER_1, ORDER_KILLER_2,
    ORDER_TT,
};
use super::Searcher;
use crate::game::Strategy;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    /// One stage: all legal moves, generated when the picker was made.
    All,
    Tt,
    TacticalInit,
    GoodTactical,
    Refutations,
    BadTactical,
    QuietInit(usize),
    Quiet(usize),
    Done,
}

/// The state of one node's move loop. `list` and `scores` are the ply's buffers, handed
/// back with [`MovePicker::into_buffers`].
pub(super) struct MovePicker<M> {
    list: Vec<M>,
    scores: Vec<i32>,
    stage: Stage,
    /// The next index of `list` to pick from.
    cur: usize,
    /// Staged: `list[..bad_end]` holds the tactical moves set aside.
    bad_end: usize,
    /// One stage: whether the moves after the first have their scores.
    scored: bool,
    tt_move: Option<M>,
    /// The table move was returned (the later stages skip it).
    tt_done: bool,
    counter: Option<M>,
    /// The killers and countermove returned (the quiet stages skip them).
    refutations: [Option<M>; 3],
    refutation_idx: usize,
    ply: usize,
    cx: Context,
    /// How many moves were returned: none in all means no legal move.
    pub(crate) yielded: usize,
}

impl<M> MovePicker<M> {
    /// The ply's buffers, for the next node at this ply.
    pub(super) fn into_buffers(self) -> (Vec<M>, Vec<i32>) {
        (self.list, self.scores)
    }
}

impl<'a, G: Strategy> Searcher<'a, G> {
    /// A picker for the node `pos` at `ply` with the table's move `tt_move`, taking the
    /// ply's buffers; the one-stage picker generates the moves now.
    pub(super) fn move_picker(
        &mut self,
        pos: &G,
        ply: usize,
        tt_move: Option<G::Move>,
        counter: Option<G::Move>,
        cx: Context,
    ) -> MovePicker<G::Move> {
        let mut list = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        list.clear();
        let mut stage = Stage::Tt;
        let mut scored = false;
        if !G::STAGED_MOVES {
            stage = Stage::All;
            pos.legal_moves(&mut list);
            // The table's move goes first, and the others are scored only if it does not cut.
            match tt_move.and_then(|m| list.iter().position(|&x| x == m)) {
                Some(i) => {
                    list.swap(0, i);
                    scores.clear();
                    scores.resize(list.len(), 0);
                    scores[0] = ORDER_TT;
                }
                None => {
                    self.score_moves(pos, &list, &mut scores, counter, ply, cx);
                    scored = true;
                }
            }
        }
        MovePicker {
            list,
            scores,
            stage,
            cur: 0,
            bad_end: 0,
            scored,
            tt_move,
            tt_done: false,
            counter,
            refutations: [None; 3],
            refutation_idx: 0,
            ply,
            cx,
            yielded: 0,
        }
    }

    /// The next move and its ordering score, `None` when there is none left.
    /// `skip_quiets`: the search prunes the remaining quiet moves unless they check, so
    /// they need no order.
    pub(super) fn next_move(&self, pos: &G, mp: &mut MovePicker<G::Move>, skip_quiets: bool) -> Option<(G::Move, i32)> {
        let next = self.pick(pos, mp, skip_quiets);
        mp.yielded += next.is_some() as usize;
        next
    }

    fn pick(&self, pos: &G, mp: &mut MovePicker<G::Move>, skip_quiets: bool) -> Option<(G::Move, i32)> {
        loop {
            match mp.stage {
                Stage::All => {
                    let n = mp.cur;
                    if n >= mp.list.len() {
                        return None;
                    }
                    if n > 0 && !mp.scored {
                        self.score_moves(pos, &mp.list[1..], &mut mp.scores, mp.counter, mp.ply, mp.cx);
                        mp.scores.insert(0, ORDER_TT);
                        mp.scored = true;
                    }
                    pick_next(&mut mp.list, &mut mp.scores, n);
                    mp.cur += 1;
                    return Some((mp.list[n], mp.scores[n]));
                }
                Stage::Tt => {
                    mp.stage = Stage::TacticalInit;
                    if let Some(m) = mp.tt_move.filter(|&m| pos.is_legal(m)) {
                        mp.tt_done = true;
                        return Some((m, ORDER_TT));
                    }
                }
                Stage::TacticalInit => {
                    mp.list.clear();
                    mp.scores.clear();
                    pos.tactical_moves(&mut mp.list);
                    mp.scores.extend(mp.list.iter().map(|&m| pos.order_score(m)));
                    mp.cur = 0;
                    mp.bad_end = 0;
                    mp.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => {
                    while mp.cur < mp.list.len() {
                        let n = mp.cur;
                        pick_next(&mut mp.list, &mut mp.scores, n);
                        mp.cur += 1;
                        let m = mp.list[n];
                        if mp.tt_done && Some(m) == mp.tt_move {
                            continue;
                        }
                        let order = mp.scores[n];
                        if pos.losing_exchange(m) {
                            // After the killers (the slots before `cur` are used up).
                            mp.list.swap(mp.bad_end, n);
                            mp.scores[mp.bad_end] = ORDER_BAD_TACTICAL + order.clamp(0, ORDER_BAD_TACTICAL_SPAN);
                            mp.bad_end += 1;
                            continue;
                        }
                        return Some((m, ORDER_GOOD_TACTICAL + order));
                    }
                    let k = self.stack[mp.ply].killers;
                    mp.refutations = [k[0], k[1], mp.counter];
                    mp.refutation_idx = 0;
                    mp.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    while mp.refutation_idx < 3 {
                        let i = mp.refutation_idx;
                        mp.refutation_idx += 1;
                        let Some(m) = mp.refutations[i] else { continue };
                        let repeated = mp.refutations[..i].contains(&Some(m));
                        if repeated || (mp.tt_done && Some(m) == mp.tt_move) || pos.is_tactical(m) || !pos.is_legal(m) {
                            mp.refutations[i] = None;
                            continue;
                        }
                        return Some((m, [ORDER_KILLER_1, ORDER_KILLER_2, ORDER_COUNTER][i]));
                    }
                    mp.cur = 0;
                    mp.stage = Stage::BadTactical;
                }
                Stage::BadTactical => {
                    if mp.cur < mp.bad_end {
                        let n = mp.cur;
                        pick_next(&mut mp.list[..mp.bad_end], &mut mp.scores[..mp.bad_end], n);
                        mp.cur += 1;
                        return Some((mp.list[n], mp.scores[n]));
                    }
                    mp.stage = Stage::QuietInit(0);
                }
                Stage::QuietInit(s) => {
                    mp.list.clear();
                    mp.scores.clear();
                    pos.quiet_moves(s, &mut mp.list);
                    if !skip_quiets {
                        let cx = mp.cx;
                        mp.scores.extend(
                            mp.list
                                .iter()
                                .map(|&m| self.history.quiet_score(G::move_id(m), pos.continuation_id(m), cx)),
                        );
                    }
                    mp.cur = 0;
                    mp.stage = Stage::Quiet(s);
                }
                Stage::Quiet(s) => {
                    while mp.cur < mp.list.len() {
                        let n = mp.cur;
                        // Once pruned unless they check, the rest go unordered.
                        let ordered = !skip_quiets && mp.scores.len() == mp.list.len();
                        if ordered {
                            pick_next(&mut mp.list, &mut mp.scores, n);
                        }
                        mp.cur += 1;
                        let m = mp.list[n];
                        if (mp.tt_done && Some(m) == mp.tt_move) || mp.refutations.contains(&Some(m)) {
                            continue;
                        }
                        return Some((m, if ordered { mp.scores[n] } else { 0 }));
                    }
                    mp.stage = if s + 1 < G::QUIET_STAGES { Stage::QuietInit(s + 1) } else { Stage::Done };
                }
                Stage::Done => return None,
            }
        }
    }

    /// Ordering scores of the moves other than the table's (which goes first unscored),
    /// for the one-stage picker.
    pub(super) fn score_moves(
        &self,
        pos: &G,
        list: &[G::Move],
        scores: &mut Vec<i32>,
        counter: Option<G::Move>,
        ply: usize,
        cx: Context,
    ) {
        scores.clear();
        let k = self.stack[ply].killers;
        scores.extend(list.iter().map(|&m| {
            if pos.is_tactical(m) {
                // Captures that lose material by exchange go after the killers.
                if pos.losing_exchange(m) {
                    ORDER_BAD_TACTICAL + pos.order_score(m).clamp(0, ORDER_BAD_TACTICAL_SPAN)
                } else {
                    ORDER_GOOD_TACTICAL + pos.order_score(m)
                }
            } else if Some(m) == k[0] {
                ORDER_KILLER_1
            } else if Some(m) == k[1] {
                ORDER_KILLER_2
            } else if Some(m) == counter {
                ORDER_COUNTER
            } else {
                self.history.quiet_score(G::move_id(m), pos.continuation_id(m), cx)
            }
        }));
    }
}

/// Selection step: brings the best-scored remaining move to index `n`.
pub(super) fn pick_next<M: Copy>(list: &mut [M], scores: &mut [i32], n: usize) {
    let mut best = n;
    for i in n + 1..list.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    list.swap(n, best);
    scores.swap(n, best);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::kokesu::Kokesu;
    use crate::games::shogi66::Shogi66;
    use crate::search::tt::Table;
    use crate::search::Signals;

    /// Positions along random games from the start (random placements), where a capture
    /// is chosen whenever there is one half of the time, so that hands fill and drops
    /// become most of the moves; the moves seen on the way, for stale killers.
    fn random_positions<G: Strategy>(n: usize, seed: u64) -> (Vec<G>, Vec<G::Move>) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let (mut positions, mut seen) = (Vec::new(), Vec::new());
        let mut pos = G::startpos(&Default::default());
        let mut list = Vec::new();
        let mut plies = 0;
        while positions.len() < n {
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() || pos.result().is_some() || plies > 160 {
                pos = G::startpos(&Default::default());
                plies = 0;
                continue;
            }
            positions.push(pos.clone());
            let captures: Vec<_> = list.iter().copied().filter(|&m| pos.is_tactical(m)).collect();
            let mv = if !captures.is_empty() && rng.bool() {
                captures[rng.usize(..captures.len())]
            } else {
                list[rng.usize(..list.len())]
            };
            seen.push(mv);
            pos.play(mv);
            plies += 1;
        }
        (positions, seen)
    }

    /// Every move the picker gives in `pos`, with a table move, killers and a countermove
    /// that may be legal here or stale, the pruning of late quiet moves turned on at some
    /// point.
    fn picked<G: Strategy>(pos: &G, s: &mut Searcher<G>, refs: [Option<G::Move>; 4], skip_from: usize) -> Vec<G::Move> {
        let ply = 3;
        s.stack[ply].killers = [refs[1], refs[2]];
        let mut mp = s.move_picker(pos, ply, refs[0], refs[3], Context::default());
        let mut out = Vec::new();
        while let Some((m, _)) = s.next_move(pos, &mut mp, out.len() >= skip_from) {
            out.push(m);
        }
        assert_eq!(mp.yielded, out.len());
        (s.moves[ply], s.scores[ply]) = mp.into_buffers();
        out
    }

    fn check_picker<G: Strategy>(n: usize, seed: u64) -> (usize, usize) {
        let (positions, seen) = random_positions::<G>(n, seed);
        let table = Table::new(1);
        let signals = Signals::default();
        let mut s = Searcher::<G>::new(&table, &signals, &[]);
        let mut rng = fastrand::Rng::with_seed(seed + 1);
        let (mut in_check, mut drop_heavy) = (0, 0);
        for pos in &positions {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            in_check += pos.in_check() as usize;
            drop_heavy += (legal.len() > 60) as usize;
            // Each slot: a legal move of this position, a move from elsewhere, or none.
            let mut any = || match rng.u8(..3) {
                0 if !legal.is_empty() => Some(legal[rng.usize(..legal.len())]),
                1 => Some(seen[rng.usize(..seen.len())]),
                _ => None,
            };
            let refs = [any(), any(), any(), any()];
            let skip_from = rng.usize(..legal.len() + 2);
            let mut got = picked(pos, &mut s, refs, skip_from);
            if let Some(tt) = refs[0].filter(|m| legal.contains(m)) {
                assert_eq!(got.first(), Some(&tt), "the table move first: {}", pos.to_sfen());
            }
            let key = |m: &G::Move| format!("{m:?}");
            got.sort_by_key(key);
            let len = got.len();
            got.dedup();
            assert_eq!(got.len(), len, "a move given twice: {}", pos.to_sfen());
            legal.sort_by_key(key);
            assert_eq!(got, legal, "{}", pos.to_sfen());
        }
        (in_check, drop_heavy)
    }

    #[test]
    fn staged_picker_yields_exactly_the_legal_moves() {
        // 66 shogi is staged: tactical moves, killers, board moves, drops.
        const { assert!(Shogi66::STAGED_MOVES) };
        let (in_check, drop_heavy) = check_picker::<Shogi66>(6000, 66);
        assert!(in_check > 300, "too few positions in check: {in_check}");
        assert!(drop_heavy > 1000, "too few positions with many drops: {drop_heavy}");
    }

    #[test]
    fn one_stage_picker_yields_exactly_the_legal_moves() {
        check_picker::<Kokesu>(1000, 8);
    }

    #[test]
    fn shogi66_legality_and_check_tests_agree_with_the_generator() {
        let (positions, seen) = random_positions::<Shogi66>(6000, 67);
        let mut checks = 0;
        for pos in &positions {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            for &m in legal.iter().chain(&seen[..seen.len().min(400)]) {
                assert_eq!(pos.is_legal(m), legal.contains(&m), "{:?} in {}", m, pos.to_sfen());
            }
            for &m in &legal {
                let mut child = *pos;
                child.play(m);
                assert_eq!(pos.gives_check(m), child.in_check(), "{} in {}", pos.format_move(m), pos.to_sfen());
                checks += child.in_check() as usize;
            }
        }
        assert!(checks > 1000, "{checks}");
    }
}
