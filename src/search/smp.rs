//! Lazy SMP: several threads search the same root over one shared transposition table.
//! The main thread keeps time, reports and answers; the helpers search the same tree
//! (every other one a ply deeper) so that their table entries speed the main thread up,
//! and stop when it has its answer.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::history::Histories;
use super::tt::Table;
use super::{Limits, Report, SearchResult, Searcher, Shared, Signals};
use crate::game::Strategy;

/// The stack each search thread gets: the search recurses up to `MAX_PLY` plies deep
/// with a position copy per ply.
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// What a search runs with, beside the position and its limits: the shared table, the
/// stop signals, how many threads, and when the clock started.
pub struct SearchContext<'a, M: Copy> {
    pub tt: &'a Table<M>,
    pub signals: &'a Signals,
    /// Search threads (at least one is used).
    pub threads: usize,
    /// When the command arrived: the time limits count from here.
    pub start: Instant,
}

/// Searches `root` with `ctx.threads` threads (at least one) and returns the main thread's
/// answer; its `nodes` counts every thread. `history` holds `(key, in_check)` of every
/// position since the `position` root, the current one last. Every thread starts with
/// empty move-ordering statistics.
pub fn search<G: Strategy>(
    root: &G,
    history: &[(u64, bool)],
    limits: &Limits<G::Move>,
    ctx: &SearchContext<G::Move>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    search_with(root, history, limits, ctx, &mut Vec::new(), report)
}

/// [`search`] where thread `i` starts from `stats[i]`, the move-ordering statistics an
/// earlier search of the same game left there (missing ones start empty), and leaves its
/// own there for the next search.
pub fn search_with<G: Strategy>(
    root: &G,
    history: &[(u64, bool)],
    limits: &Limits<G::Move>,
    ctx: &SearchContext<G::Move>,
    stats: &mut Vec<Histories<G::Move>>,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let SearchContext { tt, signals, threads, start } = *ctx;
    let threads = threads.max(1);
    stats.resize_with(threads, || Histories::unallocated(G::CONTINUATION_IDS));
    let shared = Shared::default();
    tt.new_search();
    let helper_limits = Limits { multipv: 1, ..limits.clone() };
    let mut answer = std::thread::scope(|scope| {
        let (main_stats, helper_stats) = stats.split_first_mut().expect("one per thread");
        for (id, slot) in (1..threads).zip(helper_stats.iter_mut()) {
            let (shared, helper_limits) = (&shared, &helper_limits);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let s = Searcher::with_shared(tt, signals, shared, Some(id), history);
                    let mut s = s.with_history(std::mem::take(slot));
                    s.run(root, helper_limits, start, &mut |_| {});
                    *slot = s.into_history();
                });
            if spawned.is_err() {
                log::warn!("could not start search thread {id}; searching with {id}");
                break;
            }
        }
        let main = Searcher::with_shared(tt, signals, &shared, None, history);
        let mut main = main.with_history(std::mem::take(main_stats));
        let answer = main.run(root, limits, start, report);
        shared.done.store(true, Ordering::SeqCst);
        *main_stats = main.into_history();
        answer
    });
    answer.nodes = shared.nodes.load(Ordering::SeqCst);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::kokesu::Kokesu;
    use crate::search::history::Context;
    use crate::search::time::TimePlan;
    use std::time::Duration;

    /// The root moves' butterfly statistics, summed over the threads' sets.
    fn learned(p: &Kokesu, stats: &[Histories<<Kokesu as Game>::Move>]) -> i64 {
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let cx = Context::default();
        stats
            .iter()
            .flat_map(|h| {
                moves.iter().map(move |&m| h.quiet_score(Kokesu::move_id(m), p.continuation_id(m), cx).abs() as i64)
            })
            .sum()
    }

    #[test]
    fn every_thread_hands_its_statistics_to_the_next_search() {
        let p = Kokesu::from_sfen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1", &Default::default())
            .unwrap();
        let history = [(p.key(), p.in_check())];
        let table = Table::new(2);
        let signals = Signals::default();
        let limits = |depth| Limits {
            time: TimePlan::unlimited(Duration::ZERO),
            depth: Some(depth),
            nodes: None,
            multipv: 1,
            searchmoves: Vec::new(),
        };
        let mut stats = Vec::new();
        let ctx = SearchContext { tt: &table, signals: &signals, threads: 2, start: Instant::now() };
        search_with(&p, &history, &limits(7), &ctx, &mut stats, &mut |_| {});
        assert_eq!(stats.len(), 2);
        let after_first = learned(&p, &stats);
        assert!(after_first > 0);
        // A shallow second search starts from them (it does not clear them).
        let ctx = SearchContext { start: Instant::now(), ..ctx };
        search_with(&p, &history, &limits(1), &ctx, &mut stats, &mut |_| {});
        assert!(learned(&p, &stats) >= after_first / 2, "{after_first} -> {}", learned(&p, &stats));
    }
}
