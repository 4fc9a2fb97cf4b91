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
pub(super) type SharedTable<M> = Arc<Mutex<Option<Table<M>>>>;

/// The size of the stand-in table of a `go` that comes before the real one is ready.
const STAND_IN_MIB: usize = 1;

pub(super) struct TableSlot<M: Copy + Send + 'static> {
    table: SharedTable<M>,
    /// A table being allocated or cleared, and its size.
    pending: Option<(usize, JoinHandle<Table<M>>)>,
    /// A finished table not yet taken in (a search held the old one).
    fresh: Option<Table<M>>,
    mib: usize,
}

impl<M: Copy + Send + 'static> TableSlot<M> {
    /// Starts making a table of `mib` MiB (when the memory cannot be had, searches use a
    /// stand-in until a later `USI_Hash`, `isready` or search gets it).
    pub(super) fn new(mib: usize) -> Self {
        let mut slot = TableSlot { table: Arc::new(Mutex::new(None)), pending: None, fresh: None, mib };
        if let Err(e) = slot.prepare(mib, None) {
            log::warn!("hash: cannot allocate {mib} MiB ({e}); searches use a stand-in table");
        }
        slot
    }

    /// Makes a fresh table of `mib` MiB: the memory is asked for here, so that a size the
    /// system will not give is an error now; its pages are written once (`Table::touch`)
    /// on a thread of its own, so that they are mapped off the clock and not during the
    /// first search, which for a big table takes a while. `old` is dropped on that thread
    /// first; with `reuse`, `old` is cleared and kept instead (`usinewgame`: no second
    /// table is ever asked for).
    fn prepare(&mut self, mib: usize, old: Option<Table<M>>) -> Result<(), &'static str> {
        let memory = Table::allocate(mib)?;
        self.spawn(mib, move || {
            drop(old);
            memory.touch()
        });
        Ok(())
    }

    /// Runs `job`, which makes the table of `mib` MiB, on the hash thread.
    fn spawn(&mut self, mib: usize, job: impl FnOnce() -> Table<M> + Send + 'static) {
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

    /// `USI_Hash`: a table of the new size is made in the background. When the system
    /// will not give that much memory, the table stays at its old size (made again, as
    /// the old one was dropped first so that two are never held) and the error says so.
    pub(super) fn resize(&mut self, mib: usize) -> Result<(), String> {
        if mib == self.mib && (self.pending.is_some() || self.has_table()) {
            return Ok(());
        }
        // One big table at a time: wait for the one being made, then drop the old ones.
        self.settle(true);
        self.fresh = None;
        if let Ok(mut t) = self.table.lock() {
            *t = None;
        }
        let Err(e) = self.prepare(mib, None) else {
            self.mib = mib;
            return Ok(());
        };
        let old = self.mib;
        if old != mib && self.prepare(old, None).is_ok() {
            return Err(format!("cannot allocate {mib} MiB ({e}): the table stays at {old} MiB"));
        }
        Err(format!("cannot allocate {mib} MiB ({e}): searches use a 1 MiB stand-in table"))
    }

    /// `usinewgame`: the table is emptied in the background (made, if there is none).
    pub(super) fn clear(&mut self) {
        self.settle(true);
        match self.fresh.take().or_else(|| self.table.lock().ok().and_then(|mut t| t.take())) {
            Some(mut table) => self.spawn(self.mib, move || {
                table.clear();
                table
            }),
            None => {
                if let Err(e) = self.prepare(self.mib, None) {
                    log::warn!("hash: cannot allocate {} MiB ({e}); searches use a stand-in table", self.mib);
                }
            }
        }
    }

    /// Drops the table (waiting for one being made): its memory is given back now. A
    /// later search or `isready` makes a new one.
    pub(super) fn release(&mut self) {
        self.settle(true);
        self.fresh = None;
        if let Ok(mut t) = self.table.lock() {
            *t = None;
        }
    }

    /// `isready`: waits until the table is made.
    pub(super) fn wait_ready(&mut self) {
        self.settle(true);
    }

    #[cfg(test)]
    /// Whether a table of the set size is ready for the next search.
    pub(super) fn is_ready(&mut self) -> bool {
        self.settle(false);
        self.pending.is_none() && self.has_table()
    }

    /// The table for a search starting now: the real one if it is ready, else a small
    /// stand-in (and the real one goes on being made).
    pub(super) fn for_search(&mut self) -> SharedTable<M> {
        self.settle(false);
        let ready = self.table.lock().map(|t| t.is_some()).unwrap_or(false);
        if ready {
            return Arc::clone(&self.table);
        }
        if self.pending.is_none() {
            // Nothing under way (the hash thread could not start, or the memory was not
            // there): try again for the next search.
            if let Err(e) = self.prepare(self.mib, None) {
                log::warn!("hash: cannot allocate {} MiB ({e}); this search uses a stand-in table", self.mib);
            }
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
        slot.resize(64).unwrap();
        slot.wait_ready();
        assert!(slot.is_ready());
        let t = slot.for_search();
        assert!(Arc::ptr_eq(&t, &slot.table), "the search gets the real table");
        drop(t);
        // A table being made: the search gets a stand-in, the real one stays pending.
        slot.resize(256).unwrap();
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
