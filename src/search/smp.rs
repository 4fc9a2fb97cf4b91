//! Lazy SMP: several threads search the same root over one shared transposition table.
//! The main thread keeps time, reports and answers; the helpers search the same tree
//! (every other one a ply deeper) so that their table entries speed the main thread up,
//! and stop when it has its answer.

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::tt::Table;
use super::{Limits, Report, SearchResult, Searcher, Shared, Signals};
use crate::game::Game;

/// The stack each search thread gets: the search recurses up to `MAX_PLY` plies deep
/// with a position copy per ply.
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Searches `root` with `threads` threads (at least one) and returns the main thread's
/// answer; its `nodes` counts every thread. `history` holds `(key, in_check)` of every
/// position since the `position` root, the current one last.
#[allow(clippy::too_many_arguments)]
pub fn search<G: Game>(
    root: &G,
    history: &[(u64, bool)],
    limits: &Limits<G::Move>,
    tt: &Table<G::Move>,
    signals: &Signals,
    threads: usize,
    start: Instant,
    report: &mut dyn FnMut(&Report<G::Move>),
) -> SearchResult<G::Move> {
    let shared = Shared::default();
    tt.new_search();
    let helper_limits = Limits { multipv: 1, ..limits.clone() };
    let mut answer = std::thread::scope(|scope| {
        for id in 1..threads.max(1) {
            let (shared, helper_limits) = (&shared, &helper_limits);
            let spawned = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut s = Searcher::with_shared(tt, signals, shared, Some(id), history);
                    s.run(root, helper_limits, start, &mut |_| {});
                });
            if spawned.is_err() {
                log::warn!("could not start search thread {id}; searching with {id}");
                break;
            }
        }
        let mut main = Searcher::with_shared(tt, signals, &shared, None, history);
        let answer = main.run(root, limits, start, report);
        shared.done.store(true, Ordering::SeqCst);
        answer
    });
    answer.nodes = shared.nodes.load(Ordering::SeqCst);
    answer
}
