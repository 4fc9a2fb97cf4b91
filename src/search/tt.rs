//! The transposition table: one entry per slot, replaced by depth and age.

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    generation: u8,
}

/// A fixed-size table of [`Entry`], sized in MiB. Generic over the game's move type.
pub struct Table<M> {
    entries: Vec<Option<Entry<M>>>,
    generation: u8,
}

impl<M: Copy> Table<M> {
    pub fn new(mib: usize) -> Self {
        let per = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let n = (mib.max(1) * 1024 * 1024 / per).max(1024);
        Table { entries: vec![None; n], generation: 0 }
    }

    /// Empties the table (`usinewgame`).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
        self.generation = 0;
    }

    /// Marks the start of a new search, so old entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn slot(&self, key: u64) -> usize {
        ((key as u128 * self.entries.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation;
        let slot = self.slot(key);
        let old = self.entries[slot];
        let replace = match old {
            None => true,
            Some(e) => e.key != key || e.generation != generation || depth as i16 >= e.depth - 2 || bound == Bound::Exact,
        };
        if replace {
            // Keep the old move when the new search found none for the same position.
            let mv = mv.or_else(|| old.filter(|e| e.key == key).and_then(|e| e.mv));
            self.entries[slot] =
                Some(Entry { key, mv, score, depth: depth.clamp(-100, 1000) as i16, bound, generation });
        }
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample].iter().filter(|e| matches!(e, Some(x) if x.generation == self.generation)).count();
        (used * 1000 / sample.max(1)) as u32
    }
}
