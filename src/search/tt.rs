//! The transposition table, shared by every search thread (Lazy SMP).
//!
//! Buckets of [`SLOTS`] entries, each bucket behind a one-byte spin lock (the moves are
//! the game's own type, so an entry is copied whole under the lock rather than packed
//! into atomics). A new entry replaces, in its bucket, the same position, else an empty
//! slot, else the one whose depth counts least after aging: entries from earlier searches
//! lose [`AGE_WEIGHT`] plies of depth per search since they were written. Each entry also
//! keeps the position's static evaluation, so a node seen before needs no `evaluate`.
//!
//! The memory is zeroed (an all-zero slot is empty) and touched when the table is made,
//! so that no search pays for page faults of a fresh table.

use std::alloc::{self, Layout};
use std::cell::UnsafeCell;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Entries per bucket.
pub const SLOTS: usize = 3;
/// Plies of depth an entry loses, when choosing what to replace, per search since it was
/// written.
const AGE_WEIGHT: i32 = 8;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper = 1,
    /// The true score is at least this (a move reached beta).
    Lower = 2,
    Exact = 3,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry<M> {
    pub mv: Option<M>,
    pub score: i32,
    /// The static evaluation, where the node had one (not in check).
    pub eval: Option<i32>,
    pub depth: i32,
    pub bound: Bound,
}

const NO_EVAL: i16 = i16::MIN;
const HAS_MOVE: u8 = 4;

/// One stored entry. All zero is an empty slot (bound bits 0). Its key is the low half
/// of the position's key: the bucket is chosen by the high half.
#[derive(Clone, Copy)]
struct Slot<M: Copy> {
    key: u32,
    mv: MaybeUninit<M>,
    score: i16,
    eval: i16,
    depth: i16,
    /// Bits 0-1: bound (0 = empty); bit 2: `mv` is set.
    flags: u8,
    generation: u8,
}

impl<M: Copy> Slot<M> {
    fn is_empty(&self) -> bool {
        self.flags & 3 == 0
    }

    fn mv(&self) -> Option<M> {
        // SAFETY: `mv` is written whenever HAS_MOVE is set (see `store`).
        (self.flags & HAS_MOVE != 0).then(|| unsafe { self.mv.assume_init() })
    }

    fn entry(&self) -> Entry<M> {
        Entry {
            mv: self.mv(),
            score: self.score as i32,
            eval: (self.eval != NO_EVAL).then_some(self.eval as i32),
            depth: self.depth as i32,
            bound: match self.flags & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                _ => Bound::Exact,
            },
        }
    }
}

/// A bucket fills one cache line (for moves of up to four bytes).
#[repr(C, align(64))]
struct Bucket<M: Copy> {
    lock: AtomicBool,
    slots: UnsafeCell<[Slot<M>; SLOTS]>,
}

/// A fixed-size table sized in MiB, generic over the game's move type, shared by
/// reference between search threads.
pub struct Table<M: Copy> {
    buckets: *mut Bucket<M>,
    len: usize,
    generation: AtomicU8,
}

// SAFETY: a bucket's slots are only read or written while its lock is held; the rest of
// the table is immutable after construction or atomic.
unsafe impl<M: Copy + Send> Send for Table<M> {}
unsafe impl<M: Copy + Send> Sync for Table<M> {}

struct Locked<'a, M: Copy> {
    bucket: &'a Bucket<M>,
}

impl<M: Copy> Locked<'_, M> {
    fn slots(&mut self) -> &mut [Slot<M>; SLOTS] {
        // SAFETY: the lock is held for the lifetime of `self`.
        unsafe { &mut *self.bucket.slots.get() }
    }
}

impl<M: Copy> Drop for Locked<'_, M> {
    fn drop(&mut self) {
        self.bucket.lock.store(false, Ordering::Release);
    }
}

/// A table's memory, not yet written: [`Untouched::touch`] makes it a table.
pub struct Untouched<M: Copy>(Table<M>);

impl<M: Copy> Untouched<M> {
    /// Zeroes every bucket (mapping every page): the empty table.
    pub fn touch(self) -> Table<M> {
        self.0.touch();
        self.0
    }
}

/// Why a table was not made: the words the engine's error and the Python module's
/// `MemoryError` share.
pub const OUT_OF_MEMORY: &str = "out of memory";

impl<M: Copy> Table<M> {
    fn layout(len: usize) -> Layout {
        Layout::array::<Bucket<M>>(len).expect("table size fits in memory")
    }

    /// An empty table of about `mib` MiB, at least 1024 buckets, its pages mapped.
    /// Aborts when the memory cannot be had: for small tables only; a size a user chose
    /// goes through [`Table::allocate`].
    pub fn new(mib: usize) -> Self {
        match Self::allocate(mib) {
            Ok(memory) => memory.touch(),
            Err(_) => alloc::handle_alloc_error(Self::layout(Self::len_for(mib))),
        }
    }

    fn len_for(mib: usize) -> usize {
        let per = std::mem::size_of::<Bucket<M>>().max(1);
        (mib.max(1).saturating_mul(1024 * 1024) / per).max(1024)
    }

    /// The memory of a table of about `mib` MiB, or [`OUT_OF_MEMORY`] when the system
    /// will not give that much. Asking is quick (the pages are not written: a big table
    /// is only reserved); [`Untouched::touch`] then writes them, which takes a while and
    /// is done off the clock.
    pub fn allocate(mib: usize) -> Result<Untouched<M>, &'static str> {
        let len = Self::len_for(mib);
        let layout = Layout::array::<Bucket<M>>(len).map_err(|_| OUT_OF_MEMORY)?;
        // SAFETY: the layout is non-zero. The memory is not read before `touch` has
        // zeroed it (`Untouched` gives no access to it).
        let buckets = unsafe { alloc::alloc(layout) } as *mut Bucket<M>;
        if buckets.is_null() {
            return Err(OUT_OF_MEMORY);
        }
        Ok(Untouched(Table { buckets, len, generation: AtomicU8::new(0) }))
    }

    /// Writes every page once (zeroes: a zeroed bucket is empty), so the operating
    /// system maps them now and not during a search.
    fn touch(&self) {
        // SAFETY: the table owns `len` buckets; zero is a valid bucket; no other
        // reference exists while `&mut`-like exclusive access is held by the callers
        // (`new`, `clear`).
        unsafe { std::ptr::write_bytes(self.buckets as *mut u8, 0, self.len * std::mem::size_of::<Bucket<M>>()) }
    }

    /// Empties the table (`usinewgame`).
    pub fn clear(&mut self) {
        self.touch();
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn lock(&self, key: u64) -> Locked<'_, M> {
        self.lock_at(((key as u128 * self.len as u128) >> 64) as usize)
    }

    fn lock_at(&self, index: usize) -> Locked<'_, M> {
        debug_assert!(index < self.len);
        // SAFETY: index < len.
        let bucket = unsafe { &*self.buckets.add(index) };
        let mut spins = 0u32;
        while bucket.lock.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            spins += 1;
            if spins.is_multiple_of(64) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        Locked { bucket }
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let check = key as u32;
        let mut b = self.lock(key);
        b.slots().iter().find(|s| !s.is_empty() && s.key == check).map(|s| s.entry())
    }

    /// Asks the processor to bring `key`'s bucket into the cache, ahead of a probe.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let index = ((key as u128 * self.len as u128) >> 64) as usize;
            // SAFETY: index < len; a prefetch reads nothing into the program.
            unsafe {
                let p = self.buckets.add(index) as *const i8;
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a search result. `score` must fit an i16 (search scores do).
    pub fn store(&self, key: u64, mv: Option<M>, score: i32, eval: Option<i32>, depth: i32, bound: Bound) {
        let generation = self.generation.load(Ordering::Relaxed);
        let depth = depth.clamp(-100, 1000) as i16;
        let check = key as u32;
        let mut b = self.lock(key);
        let slots = b.slots();
        let i = match slots.iter().position(|s| !s.is_empty() && s.key == check) {
            Some(i) => {
                let old = slots[i];
                // A shallower bound of the same search does not replace a deeper one,
                // but still leaves its move where the old entry had none.
                if old.generation == generation && bound != Bound::Exact && depth + 2 < old.depth {
                    if old.mv().is_none() {
                        if let Some(m) = mv {
                            slots[i].mv = MaybeUninit::new(m);
                            slots[i].flags |= HAS_MOVE;
                        }
                    }
                    return;
                }
                i
            }
            None => {
                let worth = |s: &Slot<M>| {
                    if s.is_empty() {
                        i32::MIN
                    } else {
                        s.depth as i32 - AGE_WEIGHT * generation.wrapping_sub(s.generation) as i32
                    }
                };
                (0..SLOTS).min_by_key(|&j| worth(&slots[j])).unwrap_or(0)
            }
        };
        let old = slots[i];
        // Keep the old move when the new result has none for the same position.
        let mv = mv.or_else(|| if !old.is_empty() && old.key == check { old.mv() } else { None });
        slots[i] = Slot {
            key: check,
            mv: mv.map_or(MaybeUninit::zeroed(), MaybeUninit::new),
            score: score.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
            eval: eval.map_or(NO_EVAL, |e| e.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16),
            depth,
            flags: bound as u8 | if mv.is_some() { HAS_MOVE } else { 0 },
            generation,
        };
    }

    /// Permille of the entries in the first thousand buckets written by the current search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.len.min(1000);
        let mut used = 0;
        for i in 0..sample {
            let mut b = self.lock_at(i);
            used += b.slots().iter().filter(|s| !s.is_empty() && s.generation == generation).count();
        }
        (used * 1000 / (sample * SLOTS).max(1)) as u32
    }
}

impl<M: Copy> Drop for Table<M> {
    fn drop(&mut self) {
        let layout = Layout::array::<Bucket<M>>(self.len).expect("table size fits in memory");
        // SAFETY: allocated in `new` with this layout.
        unsafe { alloc::dealloc(self.buckets as *mut u8, layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_is_one_cache_line() {
        assert_eq!(std::mem::size_of::<Bucket<u16>>(), 64);
        assert_eq!(std::mem::size_of::<Bucket<u32>>(), 64);
    }

    #[test]
    fn stores_and_finds_an_entry_with_its_evaluation() {
        let t: Table<u16> = Table::new(1);
        assert_eq!(t.probe(42), None);
        t.store(42, Some(7), 123, Some(-5), 6, Bound::Lower);
        assert_eq!(t.probe(42), Some(Entry { mv: Some(7), score: 123, eval: Some(-5), depth: 6, bound: Bound::Lower }));
        t.store(43, None, 1, None, 1, Bound::Upper);
        assert_eq!(t.probe(43).unwrap().eval, None);
        assert_eq!(t.probe(43).unwrap().mv, None);
    }

    /// Keys that fall into one bucket (the bucket is the top bits of `key * len`).
    fn same_bucket_keys(t: &Table<u16>, n: usize) -> Vec<u64> {
        let step = u64::MAX / t.len as u64;
        (0..n as u64).map(|i| 5 * step + step / 2 + i).collect()
    }

    #[test]
    fn a_full_bucket_replaces_its_shallowest_entry() {
        let t: Table<u16> = Table::new(1);
        let keys = same_bucket_keys(&t, SLOTS + 1);
        for (i, &k) in keys.iter().take(SLOTS).enumerate() {
            t.store(k, Some(i as u16), 0, None, 10 - i as i32, Bound::Exact);
        }
        // The deepest entries stay, the shallowest one (depth 10 - (SLOTS-1)) goes.
        t.store(keys[SLOTS], Some(99), 0, None, 20, Bound::Exact);
        assert!(t.probe(keys[SLOTS]).is_some());
        assert!(t.probe(keys[SLOTS - 1]).is_none());
        for &k in &keys[..SLOTS - 1] {
            assert!(t.probe(k).is_some());
        }
    }

    #[test]
    fn entries_of_earlier_searches_are_replaced_first() {
        let t: Table<u16> = Table::new(1);
        let keys = same_bucket_keys(&t, SLOTS + 1);
        t.store(keys[0], None, 0, None, 12, Bound::Exact);
        for _ in 0..3 {
            t.new_search();
        }
        for &k in &keys[1..SLOTS] {
            t.store(k, None, 0, None, 2, Bound::Exact);
        }
        // Depth 12 three searches old counts as 12 - 24 < 2.
        t.store(keys[SLOTS], None, 0, None, 2, Bound::Exact);
        assert!(t.probe(keys[0]).is_none());
        assert!(t.probe(keys[SLOTS]).is_some());
    }

    #[test]
    fn a_shallow_bound_keeps_a_deeper_entry_of_the_same_search_but_adds_its_move() {
        let t: Table<u16> = Table::new(1);
        t.store(9, None, 50, None, 10, Bound::Lower);
        t.store(9, Some(3), -20, None, 2, Bound::Upper);
        let e = t.probe(9).unwrap();
        assert_eq!((e.depth, e.score, e.mv), (10, 50, Some(3)));
        // A new result without a move keeps the move it had.
        t.store(9, None, 7, None, 11, Bound::Exact);
        assert_eq!(t.probe(9).unwrap().mv, Some(3));
    }

    #[test]
    fn clear_empties_and_hashfull_counts_this_search() {
        let mut t: Table<u16> = Table::new(1);
        assert_eq!(t.hashfull(), 0);
        for k in 0..100_000u64 {
            t.store(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), None, 0, None, 1, Bound::Exact);
        }
        assert!(t.hashfull() > 500);
        t.new_search();
        assert_eq!(t.hashfull(), 0);
        t.clear();
        assert_eq!(t.probe(0x9E37_79B9_7F4A_7C15), None);
    }

    #[test]
    fn threads_share_one_table() {
        let t: Table<u16> = Table::new(1);
        std::thread::scope(|s| {
            for id in 0..4u64 {
                let t = &t;
                s.spawn(move || {
                    for k in 0..20_000u64 {
                        let key = (k * 4 + id).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                        t.store(key, Some((k % 1000) as u16), (k % 100) as i32, Some(1), 3, Bound::Exact);
                        if let Some(e) = t.probe(key) {
                            assert_eq!(e.mv, Some((k % 1000) as u16));
                            assert_eq!(e.score, (k % 100) as i32);
                        }
                    }
                });
            }
        });
    }
}
