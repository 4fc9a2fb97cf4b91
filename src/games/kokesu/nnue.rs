//! Kokesu's network evaluation (`KokesuEval nnue`): feature set `kokesu-768` of
//! `crate::games::nnue::format` (piece-square features from each side's view), the net
//! built into the binary (`nnue.bin` beside this file, how it was made in tools/NNUE.md)
//! or one read from a file (`KokesuNetFile`), and the accumulator a position carries.
//!
//! A position carries nothing for the net but its rules' choice of it: the accumulators of
//! both perspectives are kept per thread and ply, with the board they belong to
//! ([`with_accumulator`]), and made from the closest board there (the parent's, or the
//! last position searched at the same ply) by the rows of the squares that differ, or from
//! scratch. Copy-make copies a position for every move the search tries: 512 bytes of
//! accumulators in each (even an empty `Option` of them) cost the linear evaluation's
//! search 5% of its instructions (cachegrind, bench 12).

use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use super::board::*;
use crate::games::nnue::{format, Accumulator, FeatureSet, NetError, Network};

/// Kokesu's features: for each perspective, own and enemy piece by kind and square.
pub const FEATURES: FeatureSet = FeatureSet { id: 1, inputs: 768, name: "kokesu-768" };

/// The net built into the binary.
pub const BUILTIN_BYTES: &[u8] = include_bytes!("nnue.bin");

/// The index of the feature "piece `piece` (`color * 6 + kind`) on `sq`" from the view of
/// `perspective` (0 sente, 1 gote): format.rs's `kokesu-768`.
#[inline(always)]
pub fn feature(perspective: usize, piece: usize, sq: usize) -> usize {
    let (color, kind) = (piece / 6, piece % 6);
    let relative = if perspective == 0 { sq } else { sq ^ 56 };
    usize::from(color != perspective) * 384 + kind * 64 + relative
}

/// A network in use, compared and hashed by identity (positions carry it in their rules).
#[derive(Clone, Copy)]
pub struct Net(pub &'static Network);

impl PartialEq for Net {
    fn eq(&self, other: &Net) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Net {}

impl std::hash::Hash for Net {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        std::ptr::hash(self.0, state)
    }
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({:p})", self.0)
    }
}

/// The net built into the binary, checked on first use.
pub fn builtin() -> Result<Net, NetError> {
    static BUILTIN: OnceLock<Result<Network, NetError>> = OnceLock::new();
    match BUILTIN.get_or_init(|| format::parse(BUILTIN_BYTES, FEATURES)) {
        Ok(net) => Ok(Net(net)),
        Err(e) => Err(e.clone()),
    }
}

/// The net in the file at `path`, checked. A file's net stays in memory until the
/// process ends; the same contents loaded again are the same net (no second copy).
pub fn load(path: &str) -> Result<Net, NetError> {
    let bytes = std::fs::read(path).map_err(|e| NetError::Read(e.to_string()))?;
    let net = format::parse(&bytes, FEATURES)?;
    static LOADED: Mutex<Vec<&'static Network>> = Mutex::new(Vec::new());
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&same) = loaded.iter().find(|&&n| *n == net) {
        return Ok(Net(same));
    }
    let leaked: &'static Network = Box::leak(Box::new(net));
    loaded.push(leaked);
    Ok(Net(leaked))
}

/// How many plies the accumulator stack holds (a position's slot is its ply modulo this).
const STACK_PLIES: usize = 128;
/// A position whose board differs from every candidate slot's in more squares than this
/// is computed from scratch (each changed square costs up to two rows, a refresh one row a
/// piece).
const MAX_CHANGED: u32 = 12;

/// One slot of the stack: the accumulators of `board` under the net at address `net` (0:
/// nothing yet).
struct Slot {
    net: usize,
    board: [u8; 64],
    acc: Accumulator,
}

/// A thread's accumulators, by ply, and how they were made.
struct Stack {
    slots: Vec<Slot>,
    stats: Stats,
}

/// How the accumulators a thread used were made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Found ready in the stack (the same board).
    pub reused: u64,
    /// From another board's in the stack (the parent's, or the last position searched at
    /// this ply) by the rows of the squares that differ.
    pub updated: u64,
    /// From scratch.
    pub refreshed: u64,
}

thread_local! {
    static STACK: RefCell<Option<Stack>> = const { RefCell::new(None) };
}

fn refresh(net: &Network, board: &[u8; 64], acc: &mut Accumulator) {
    for (perspective, (row, psqt)) in acc.0.iter_mut().zip(&mut acc.1).enumerate() {
        let features = || {
            let pieces = board.iter().enumerate().filter(|(_, &p)| p != EMPTY);
            pieces.map(move |(sq, &p)| feature(perspective, p as usize, sq))
        };
        net.refresh(row, features());
        *psqt = net.psqt_sum(features());
    }
}

/// The accumulators of a position from scratch: the reference the incremental ones must
/// equal.
pub fn refreshed(net: &Network, board: &[u8; 64]) -> Accumulator {
    let mut acc = Accumulator::ZERO;
    refresh(net, board, &mut acc);
    acc
}

/// The squares on which two boards differ.
#[inline]
fn changed(a: &[u8; 64], b: &[u8; 64]) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut mask = 0u64;
    for (i, (x, y)) in a.chunks_exact(8).zip(b.chunks_exact(8)).enumerate() {
        let word = |c: &[u8]| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        let d = word(x) ^ word(y);
        if d != 0 {
            // The top bit of each byte that is not zero, then those 8 bits gathered into
            // one byte (bit k from byte k).
            let top = (((d & LOW7) + LOW7) | d) & !LOW7;
            mask |= (top.wrapping_mul(0x0002_0408_1020_4081) >> 56) << (8 * i);
        }
    }
    mask
}

/// The accumulators of `to` made from `src`, those of `from`, where the boards differ on the
/// squares of `mask` (at most [`MAX_CHANGED`]): into `dst`, or in place when `src` is `None`.
fn apply_changes(
    net: &Network,
    dst: &mut Accumulator,
    src: Option<&Accumulator>,
    from: &[u8; 64],
    to: &[u8; 64],
    mask: u64,
) {
    const N: usize = MAX_CHANGED as usize;
    for (perspective, (row, psqt)) in dst.0.iter_mut().zip(&mut dst.1).enumerate() {
        let (mut add, mut sub) = ([&net.bias; N], [&net.bias; N]);
        let (mut na, mut ns) = (0, 0);
        let mut sum = src.map_or(*psqt, |src| src.1[perspective]);
        let mut m = mask;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            if from[sq] != EMPTY {
                let f = feature(perspective, from[sq] as usize, sq);
                sub[ns] = &net.weights[f];
                sum -= net.psqt[f];
                ns += 1;
            }
            if to[sq] != EMPTY {
                let f = feature(perspective, to[sq] as usize, sq);
                add[na] = &net.weights[f];
                sum += net.psqt[f];
                na += 1;
            }
        }
        *psqt = sum;
        match src {
            Some(src) => net.kernels.update_into(row, &src.0[perspective], &add[..na], &sub[..ns]),
            None => net.kernels.update(row, &add[..na], &sub[..ns]),
        }
    }
}

/// Calls `f` with the accumulators of the position at `ply` with these squares under `net`:
/// the ones in this thread's stack if its slot for the ply holds this board; else made
/// from the closest board of the slots for this ply and the one before (in a search: the
/// last position searched at this ply, and the parent) by the rows of the squares that
/// differ; else from scratch. They stay in the slot for the position's children and
/// siblings. The result depends only on the net and the board.
#[inline]
pub fn with_accumulator<T>(net: &Network, ply: u32, board: &[u8; 64], f: impl FnOnce(&Accumulator) -> T) -> T {
    STACK.with_borrow_mut(|stack| {
        let stack = stack.get_or_insert_with(|| Stack {
            slots: (0..STACK_PLIES).map(|_| Slot { net: 0, board: [EMPTY; 64], acc: Accumulator::ZERO }).collect(),
            stats: Stats::default(),
        });
        let address = net as *const Network as usize;
        let at = ply as usize % STACK_PLIES;
        let before = (at + STACK_PLIES - 1) % STACK_PLIES;
        let diff = |s: &Slot| if s.net == address { changed(&s.board, board) } else { !0 };
        let here = diff(&stack.slots[at]);
        if here == 0 {
            stack.stats.reused += 1;
            return f(&stack.slots[at].acc);
        }
        // A move changes two squares: no board can be closer than that.
        let parent = if here.count_ones() <= 2 { !0 } else { diff(&stack.slots[before]) };
        if here.count_ones().min(parent.count_ones()) > MAX_CHANGED {
            refresh(net, board, &mut stack.slots[at].acc);
            stack.stats.refreshed += 1;
        } else if here.count_ones() <= parent.count_ones() {
            let slot = &mut stack.slots[at];
            let old = slot.board;
            apply_changes(net, &mut slot.acc, None, &old, board, here);
            stack.stats.updated += 1;
        } else {
            // Split borrows of the two slots.
            let (low, high) = stack.slots.split_at_mut(at.max(before));
            let (slot, from) = if at > before { (&mut high[0], &low[before]) } else { (&mut low[at], &high[0]) };
            apply_changes(net, &mut slot.acc, Some(&from.acc), &from.board, board, parent);
            stack.stats.updated += 1;
        }
        let slot = &mut stack.slots[at];
        (slot.net, slot.board) = (address, *board);
        f(&slot.acc)
    })
}

/// How this thread's accumulators were made so far.
pub fn stats() -> Stats {
    STACK.with_borrow(|s| s.as_ref().map_or(Stats::default(), |s| s.stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_squares_are_found() {
        let mut seed = 5u64;
        for _ in 0..2000 {
            let mut a = [EMPTY; 64];
            let mut b = [EMPTY; 64];
            for sq in 0..64 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                a[sq] = ((seed >> 33) % 13) as u8;
                b[sq] = if (seed >> 50).is_multiple_of(4) { ((seed >> 20) % 13) as u8 } else { a[sq] };
            }
            let naive = (0..64).filter(|&sq| a[sq] != b[sq]).fold(0u64, |m, sq| m | 1 << sq);
            assert_eq!(changed(&a, &b), naive);
        }
    }
}
