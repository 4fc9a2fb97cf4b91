//! Move-ordering statistics learned during a search: a butterfly history (by move), a
//! countermove per previous move, and continuation histories (by the move one and two
//! plies earlier and this move). The continuation tables and the countermoves know a move
//! by its `Strategy::continuation_id`: in kokesu and 66 shogi the moving piece (a drop's: the
//! piece dropped) and its destination, few enough for a dense table in which one
//! context's entries lie together; in the other games the move id, hashed into the
//! table. Every entry moves toward a bound with the "gravity"
//! update `h += bonus - h * |bonus| / HISTORY_MAX`, so good moves rise (the move that cut, and a
//! quiet move to which every reply failed low), moves that were tried before a cut fall
//! (maluses), and nothing saturates.
//!
//! [`Corrections`] is of another kind: it learns how far the static evaluation was from
//! the search's score in positions of the same structure (or reached by the same move),
//! and corrects the evaluation by it.

use super::params::{
    CORRECTION_MAX, CORRECTION_WEIGHT_MAX, CORRECTION_WEIGHT_SCALE, HISTORY_BONUS_LINEAR, HISTORY_BONUS_MAX,
    HISTORY_BONUS_QUADRATIC, HISTORY_MAX,
};
use crate::game::CORRECTION_KEYS;

const BUTTERFLY_SIZE: usize = 1 << 16;
const COUNTER_SIZE: usize = 1 << 14;
const CONTINUATION_SIZE: usize = 1 << 20;

/// The history bonus (or malus) for a move searched at `depth` (`params::HISTORY_BONUS_*`).
pub(crate) fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_QUADRATIC * depth * depth + HISTORY_BONUS_LINEAR * depth).min(HISTORY_BONUS_MAX)
}

fn gravity(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// The statistics of one search thread. Moves are known by their `Strategy::move_id`.
pub struct Histories<M> {
    butterfly: Vec<i16>,
    counter: Vec<Option<M>>,
    continuation: Vec<i16>,
    /// The number of continuation ids when the game names them (`Strategy::CONTINUATION_IDS`),
    /// else 0 (hashed).
    dense: u32,
    /// The static evaluation's corrections, kept from search to search like the rest.
    pub corrections: Corrections,
}

/// Where the two continuation tables are looked up for a move: the `continuation_id`s
/// of the moves one and two plies before it (if any).
#[derive(Clone, Copy, Debug, Default)]
pub struct Context {
    pub prev1: Option<u32>,
    pub prev2: Option<u32>,
}

fn continuation_index(dense: u32, prev: u32, lag: u32, mv: u32) -> usize {
    if dense > 0 {
        let n = dense as usize;
        return ((lag as usize - 1) * n + prev as usize % n) * n + mv as usize % n;
    }
    let h = (prev as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ ((mv as u64) << 1 | lag as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 44) as usize % CONTINUATION_SIZE
}

impl<M: Copy + PartialEq> Histories<M> {
    /// `dense`: the game's `CONTINUATION_IDS`.
    pub fn new(dense: u32) -> Self {
        let size = if dense > 0 { 2 * dense as usize * dense as usize } else { CONTINUATION_SIZE };
        Histories {
            butterfly: vec![0; BUTTERFLY_SIZE],
            counter: vec![None; COUNTER_SIZE],
            continuation: vec![0; size],
            dense,
            corrections: Corrections::new(),
        }
    }

    /// Statistics with no tables yet: [`Histories::allocate`] makes them. A search that
    /// is handed statistics to start from makes none of its own to throw away (a large
    /// table freed into the C allocator's pool is kept resident by it).
    pub fn unallocated(dense: u32) -> Self {
        Histories {
            butterfly: Vec::new(),
            counter: Vec::new(),
            continuation: Vec::new(),
            dense,
            corrections: Corrections { table: Vec::new() },
        }
    }

    /// Makes the tables, empty, if they are not made yet.
    pub fn allocate(&mut self) {
        if self.butterfly.is_empty() {
            *self = Histories::new(self.dense);
        }
    }

    /// The ordering score of a quiet move (`id` its `move_id`, `cont` its
    /// `continuation_id`): butterfly plus both continuations.
    pub fn quiet_score(&self, id: u32, cont: u32, cx: Context) -> i32 {
        let mut s = self.butterfly[id as usize % BUTTERFLY_SIZE] as i32;
        if let Some(p) = cx.prev1 {
            s += self.continuation[continuation_index(self.dense, p, 1, cont)] as i32;
        }
        if let Some(p) = cx.prev2 {
            s += self.continuation[continuation_index(self.dense, p, 2, cont)] as i32;
        }
        s
    }

    /// The move that refuted `prev` (a `continuation_id`) last time.
    pub fn counter(&self, prev: Option<u32>) -> Option<M> {
        prev.and_then(|p| self.counter[p as usize % COUNTER_SIZE])
    }

    /// Adds `bonus` (negative: a malus) to a quiet move's statistics.
    pub fn update_quiet(&mut self, id: u32, cont: u32, cx: Context, bonus: i32) {
        gravity(&mut self.butterfly[id as usize % BUTTERFLY_SIZE], bonus);
        if let Some(p) = cx.prev1 {
            gravity(&mut self.continuation[continuation_index(self.dense, p, 1, cont)], bonus);
        }
        if let Some(p) = cx.prev2 {
            gravity(&mut self.continuation[continuation_index(self.dense, p, 2, cont)], bonus);
        }
    }

    /// `mv` refuted the move `prev`.
    pub fn set_counter(&mut self, prev: Option<u32>, mv: M) {
        if let Some(p) = prev {
            self.counter[p as usize % COUNTER_SIZE] = Some(mv);
        }
    }
}

/// Hashed continuation tables: a placeholder that works for any game (`std::mem::take`).
impl<M: Copy + PartialEq> Default for Histories<M> {
    fn default() -> Self {
        Self::new(0)
    }
}

const CORRECTION_SIZE: usize = 1 << 14;
/// Correction entries are in 1/`CORRECTION_GRAIN` centipawn.
const CORRECTION_GRAIN: i32 = 16;
/// A table per game key, and one for the previous move.
const CHANNELS: usize = CORRECTION_KEYS + 1;

/// The keys a node's corrections are read and learned under: the game's structural keys
/// (`Strategy::correction_keys`) and the move that led to the node.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrectionKeys {
    pub game: [Option<u64>; CORRECTION_KEYS],
    pub prev: Option<u32>,
}

impl CorrectionKeys {
    /// Each key with its table: the game's in order, then the previous move's id spread
    /// over the high bits the index reads.
    fn channels(&self) -> impl Iterator<Item = (usize, u64)> {
        let prev = self.prev.map(|id| (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 8);
        self.game.into_iter().chain(std::iter::once(prev)).enumerate().filter_map(|(c, k)| Some((c, k?)))
    }
}

/// Correction history: per side to move and per key (a game's structural key, such as
/// kokesu's pawns or one side's other pieces, and the previous move), a running average
/// of the search's score minus the static evaluation. The search adds the sum over its
/// keys to the static evaluation, so an evaluation that misjudges a pawn structure, a
/// piece placement or the consequences of a move is put right after a few searches of it.
pub struct Corrections {
    table: Vec<i16>,
}

impl Corrections {
    pub fn new() -> Self {
        Corrections { table: vec![0; CHANNELS * 2 * CORRECTION_SIZE] }
    }

    fn index(channel: usize, side: usize, key: u64) -> usize {
        (channel * 2 + side) * CORRECTION_SIZE + (key >> 32) as usize % CORRECTION_SIZE
    }

    /// The correction in centipawns for `side` to move under `keys`.
    pub fn get(&self, side: usize, keys: &CorrectionKeys) -> i32 {
        keys.channels().map(|(c, k)| self.table[Self::index(c, side, k)] as i32 / CORRECTION_GRAIN).sum()
    }

    /// A search to `depth` scored `diff` centipawns above the (corrected) static
    /// evaluation: each key's entry moves toward its own value plus `diff`, the more the
    /// deeper the search.
    pub fn update(&mut self, side: usize, keys: &CorrectionKeys, depth: i32, diff: i32) {
        let weight = (depth + 1).clamp(1, CORRECTION_WEIGHT_MAX);
        for (c, k) in keys.channels() {
            let e = &mut self.table[Self::index(c, side, k)];
            let target = (*e as i32 + diff * CORRECTION_GRAIN)
                .clamp(-CORRECTION_MAX * CORRECTION_GRAIN, CORRECTION_MAX * CORRECTION_GRAIN);
            *e = ((*e as i32 * (CORRECTION_WEIGHT_SCALE - weight) + target * weight) / CORRECTION_WEIGHT_SCALE) as i16;
        }
    }
}

impl Default for Corrections {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let mut c = Corrections::new();
        let keys = CorrectionKeys { game: [Some(0xDEAD_BEEF_0000_0000), None, None], prev: None };
        assert_eq!(c.get(0, &keys), 0);
        // The search keeps finding 60 cp more than the evaluation said.
        for _ in 0..200 {
            let diff = 60 - c.get(0, &keys);
            c.update(0, &keys, 10, diff);
        }
        assert!((55..=60).contains(&c.get(0, &keys)), "{}", c.get(0, &keys));
        assert_eq!(c.get(1, &keys), 0, "the other side's entry is its own");
        for _ in 0..500 {
            c.update(1, &keys, 20, -10_000);
        }
        // At the bound, less what the integer average rounds away.
        assert!((-CORRECTION_MAX..=-CORRECTION_MAX + 1).contains(&c.get(1, &keys)), "{}", c.get(1, &keys));
    }

    #[test]
    fn each_key_learns_on_its_own_and_the_correction_is_their_sum() {
        let mut c = Corrections::new();
        let pawns = Some(0x1234_5678_0000_0000);
        let both = CorrectionKeys { game: [pawns, None, None], prev: Some(77) };
        for _ in 0..300 {
            c.update(0, &both, 10, 80 - c.get(0, &both));
        }
        let sum = c.get(0, &both);
        assert!((75..=80).contains(&sum), "{sum}");
        // Each key alone has learned part of it, and the parts add up.
        let by_pawns = c.get(0, &CorrectionKeys { game: [pawns, None, None], prev: None });
        let by_move = c.get(0, &CorrectionKeys { game: [None; CORRECTION_KEYS], prev: Some(77) });
        assert!(by_pawns > 0 && by_move > 0, "{by_pawns} {by_move}");
        assert_eq!(sum, by_pawns + by_move);
        // The same hash in another slot, or another previous move, is another entry.
        assert_eq!(c.get(0, &CorrectionKeys { game: [None, pawns, None], prev: None }), 0);
        assert_eq!(c.get(0, &CorrectionKeys { game: [None; CORRECTION_KEYS], prev: Some(78) }), 0);
    }

    #[test]
    fn gravity_keeps_every_entry_within_the_bound() {
        let mut h: Histories<u16> = Histories::new(0);
        let cx = Context { prev1: Some(7), prev2: Some(9) };
        for _ in 0..10_000 {
            h.update_quiet(42, 42, cx, bonus(20));
        }
        let s = h.quiet_score(42, 42, cx);
        assert!(s > 3 * HISTORY_MAX * 9 / 10 && s <= 3 * HISTORY_MAX, "{s}");
        for _ in 0..10_000 {
            h.update_quiet(42, 42, cx, -bonus(20));
        }
        assert!(h.quiet_score(42, 42, cx) >= -3 * HISTORY_MAX);
        assert!(h.quiet_score(42, 42, cx) < 0);
    }

    #[test]
    fn a_malus_undoes_a_bonus_and_continuations_depend_on_the_previous_move() {
        let mut h: Histories<u16> = Histories::new(0);
        let a = Context { prev1: Some(1), prev2: None };
        let b = Context { prev1: Some(2), prev2: None };
        h.update_quiet(5, 5, a, 400);
        assert!(h.quiet_score(5, 5, a) > h.quiet_score(5, 5, b));
        assert_eq!(h.quiet_score(5, 5, b), h.quiet_score(5, 5, Context::default()));
        h.update_quiet(5, 5, a, -400);
        assert!(h.quiet_score(5, 5, a).abs() < 20);
    }

    #[test]
    fn a_dense_table_gives_every_context_and_move_its_own_entry() {
        let n = 12 * 64;
        let mut seen = vec![false; 2 * n as usize * n as usize];
        for lag in 1..=2 {
            for prev in (0..n).step_by(7) {
                for mv in 0..n {
                    let i = continuation_index(n, prev, lag, mv);
                    assert!(!seen[i], "lag {lag} prev {prev} move {mv}");
                    seen[i] = true;
                }
            }
        }
        // One context's entries are one row: the moves scored at a node share cache lines.
        assert_eq!(continuation_index(n, 5, 1, 100) + 1, continuation_index(n, 5, 1, 101));
        let mut h: Histories<u16> = Histories::new(n);
        let cx = Context { prev1: Some(n - 1), prev2: Some(n - 1) };
        h.update_quiet(9, n - 1, cx, 400);
        assert!(h.quiet_score(9, n - 1, cx) > h.quiet_score(9, n - 1, Context::default()));
    }

    #[test]
    fn countermoves_are_remembered_per_previous_move() {
        let mut h: Histories<u16> = Histories::new(0);
        h.set_counter(Some(3), 77);
        assert_eq!(h.counter(Some(3)), Some(77));
        assert_eq!(h.counter(Some(4)), None);
        assert_eq!(h.counter(None), None);
    }
}
