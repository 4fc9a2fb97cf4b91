//! The transposition table of a session, made ready off the clock.
//!
//! Allocating (and clearing) a big table can take seconds, so it is never done inside a
//! move's time: it happens on a thread of its own when the session starts, when
//! `USI_Hash` changes and on `usinewgame`; `isready` waits for it (that is where a GUI
//! expects to wait); a `go` that comes before it is ready searches with a small table of
//! its own rather than wait.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::search::tt::Table;

/// The table searches use, shared with the search thread.
pub type SharedTable<M> = Arc<Mutex<Option<Table<M>>>>;

/// The size of the stand-in table of a `go` that comes before the real one is ready.
const STAND_IN_MIB: usize = 1;

pub struct TableSlot<M: Copy + Send + 'static> {
    table: SharedTable<M>,
    /// A table being allocated or cleared, and its size.
    pending: Option<(usize, JoinHandle<Table<M>>)>,
    /// A finished table not yet taken in (a search held the old one).
    fresh: Option<Table<M>>,
    mib: usize,
}

impl<M: Copy + Send + 'static> TableSlot<M> {
    /// Starts allocating a table of `mib` MiB.
    pub fn new(mib: usize) -> Self {
        let mut slot = TableSlot { table: Arc::new(Mutex::new(None)), pending: None, fresh: None, mib };
        slot.prepare(mib, None);
        slot
    }

    /// Starts making a fresh table of `mib` MiB on a thread of its own, after dropping
    /// `old` there. Making it writes every page once (`Table::new`), so that the pages are
    /// mapped here, off the clock, and not during the first search; for a big table that
    /// takes a while, which is why it happens on this thread.
    fn prepare(&mut self, mib: usize, old: Option<Table<M>>) {
        let job = move || {
            drop(old);
            Table::new(mib)
        };
        self.pending = match std::thread::Builder::new().name("hash".into()).spawn(job) {
            Ok(h) => Some((mib, h)),
            Err(e) => {
                log::warn!("cannot start the hash thread ({e}); the table is made at the next search");
                None
            }
        };
    }

    /// Takes in a pending table that is finished (or, with `wait`, waits for it). While
    /// a search holds the table, the new one waits in `fresh` for the next search.
    fn settle(&mut self, wait: bool) {
        let finished = self.pending.as_ref().is_some_and(|(_, h)| h.is_finished());
        if finished || wait && self.pending.is_some() {
            let (mib, handle) = self.pending.take().expect("checked above");
            if let Ok(t) = handle.join() {
                if mib == self.mib {
                    self.fresh = Some(t);
                }
            }
        }
        if self.fresh.is_some() {
            if let Ok(mut slot) = self.table.try_lock() {
                *slot = self.fresh.take();
            }
        }
    }

    fn has_table(&self) -> bool {
        self.fresh.is_some() || self.table.try_lock().map(|t| t.is_some()).unwrap_or(true)
    }

    /// `USI_Hash`: a table of the new size is made in the background.
    pub fn resize(&mut self, mib: usize) {
        if mib == self.mib && (self.pending.is_some() || self.has_table()) {
            return;
        }
        // One big table at a time: wait for the one being made, then drop the old ones.
        self.settle(true);
        self.mib = mib;
        self.fresh = None;
        if let Ok(mut t) = self.table.lock() {
            *t = None;
        }
        self.prepare(mib, None);
    }

    /// `usinewgame`: the old table is dropped and a fresh one made, in the background.
    pub fn clear(&mut self) {
        self.settle(true);
        let old = self.fresh.take().or_else(|| self.table.lock().ok().and_then(|mut t| t.take()));
        self.prepare(self.mib, old);
    }

    /// Drops the table (waiting for one being made): its memory is given back now. A
    /// later search or `isready` makes a new one.
    pub fn release(&mut self) {
        self.settle(true);
        self.fresh = None;
        if let Ok(mut t) = self.table.lock() {
            *t = None;
        }
    }

    /// `isready`: waits until the table is made.
    pub fn wait_ready(&mut self) {
        self.settle(true);
    }

    #[cfg(test)]
    /// Whether a table of the set size is ready for the next search.
    pub fn is_ready(&mut self) -> bool {
        self.settle(false);
        self.pending.is_none() && self.has_table()
    }

    /// The table for a search starting now: the real one if it is ready, else a small
    /// stand-in (and the real one goes on being made).
    pub fn for_search(&mut self) -> SharedTable<M> {
        self.settle(false);
        let ready = self.table.lock().map(|t| t.is_some()).unwrap_or(false);
        if ready {
            return Arc::clone(&self.table);
        }
        if self.pending.is_none() {
            // Nothing under way (the hash thread could not start): make it now.
            self.prepare(self.mib, None);
        }
        Arc::new(Mutex::new(Some(Table::new(STAND_IN_MIB))))
    }
}

impl<M: Copy + Send + 'static> Drop for TableSlot<M> {
    /// A slot dropped while its table is being made (a variant switch right after
    /// another) waits for that thread, so that tables of dropped slots never pile up in
    /// memory at once.
    fn drop(&mut self) {
        if let Some((_, handle)) = self.pending.take() {
            let _ = handle.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Class 3: after `USI_Hash` and `isready` the table is there before the first `go`,
    /// and a `go` before it is ready gets a stand-in at once instead of waiting.
    #[test]
    fn hash_is_allocated_off_the_clock_of_the_first_search() {
        let mut slot: TableSlot<u32> = TableSlot::new(1);
        slot.resize(64);
        slot.wait_ready();
        assert!(slot.is_ready());
        let t = slot.for_search();
        assert!(Arc::ptr_eq(&t, &slot.table), "the search gets the real table");
        drop(t);
        // A table being made: the search gets a stand-in, the real one stays pending.
        slot.resize(256);
        let t = slot.for_search();
        if !slot.is_ready() {
            assert!(!Arc::ptr_eq(&t, &slot.table));
        }
        slot.wait_ready();
        assert!(slot.is_ready());
        slot.clear();
        slot.wait_ready();
        assert!(slot.is_ready());
    }
}
