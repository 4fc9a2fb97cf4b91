//! The accumulators a search uses, kept per thread and ply, for any game whose position
//! the network reads as 64 bytes ("cells": a square's piece, a hand's count) of which
//! each gives at most one feature per perspective ([`Cells`]).
//!
//! A position carries nothing for the net: copy-make copies a position for every move the
//! search tries, and 512 bytes of accumulators in each (even an empty `Option` of them)
//! cost Kokesu's linear evaluation 5% of its instructions (cachegrind, bench 12). Instead
//! the accumulators of both perspectives are kept in this thread's stack by ply, with the
//! cells they belong to, and made from the closest cells there (the parent's, or the last
//! position searched at the same ply) by the rows of the cells that differ, or from
//! scratch. The result depends only on the net and the cells.
//!
//! The stack has the accumulators' width `H`, so each game keeps its own: a thread-local
//! [`Local`] beside its features, passed to [`with_accumulator`].

use std::cell::RefCell;
use std::thread::LocalKey;

use super::{Accumulator, Network};

/// How a game's position reads as the network's 64 cells.
pub trait Cells {
    /// The feature (an index below the feature set's `inputs`) of `value` in cell `cell`
    /// from the view of `perspective` (0 sente, 1 gote); `None`: the cell gives none (an
    /// empty square, an empty hand).
    fn feature(perspective: usize, cell: usize, value: u8) -> Option<usize>;
}

/// How many plies the stack holds (a position's slot is its ply modulo this).
const STACK_PLIES: usize = 128;
/// A position whose cells differ from every candidate slot's in more than this many is
/// computed from scratch (each changed cell costs up to two rows, a refresh one row a
/// feature).
const MAX_CHANGED: u32 = 12;

/// One slot of the stack: the accumulators of `cells` under the net at address `net` (0:
/// nothing yet).
struct Slot<const H: usize> {
    net: usize,
    cells: [u8; 64],
    acc: Accumulator<H>,
}

/// A thread's accumulators, by ply, and how they were made.
pub struct Stack<const H: usize> {
    slots: Vec<Slot<H>>,
    stats: Stats,
}

/// A game's stack of accumulators `H` wide in one thread (made on first use): a game
/// declares it `thread_local!` beside its features, `const { Local::new(None) }`.
pub type Local<const H: usize> = RefCell<Option<Stack<H>>>;

/// How the accumulators a thread used were made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Found ready in the stack (the same cells).
    pub reused: u64,
    /// From other cells' in the stack (the parent's, or the last position searched at
    /// this ply) by the rows of the cells that differ.
    pub updated: u64,
    /// From scratch.
    pub refreshed: u64,
}

fn refresh<C: Cells, const H: usize>(net: &Network<H>, cells: &[u8; 64], acc: &mut Accumulator<H>) {
    for (perspective, (row, psqt)) in acc.0.iter_mut().zip(&mut acc.1).enumerate() {
        let features = || cells.iter().enumerate().filter_map(move |(c, &v)| C::feature(perspective, c, v));
        net.refresh(row, features());
        *psqt = net.psqt_sum(features());
    }
}

/// The accumulators of a position from scratch: the reference the incremental ones must
/// equal.
pub fn refreshed<C: Cells, const H: usize>(net: &Network<H>, cells: &[u8; 64]) -> Accumulator<H> {
    let mut acc = Accumulator::ZERO;
    refresh::<C, H>(net, cells, &mut acc);
    acc
}

/// The cells in which two sets differ.
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

/// The accumulators of `to` made from `src`, those of `from`, where the cells differ in
/// `mask` (at most [`MAX_CHANGED`] cells): into `dst`, or in place when `src` is `None`.
fn apply_changes<C: Cells, const H: usize>(
    net: &Network<H>,
    dst: &mut Accumulator<H>,
    src: Option<&Accumulator<H>>,
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
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(f) = C::feature(perspective, cell, from[cell]) {
                sub[ns] = &net.weights[f];
                sum -= net.psqt[f];
                ns += 1;
            }
            if let Some(f) = C::feature(perspective, cell, to[cell]) {
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

/// Calls `f` with the accumulators of the position at `ply` with these cells under `net`:
/// the ones in this thread's `stack` if its slot for the ply holds these cells; else made
/// from the closest cells of the slots for this ply and the one before (in a search: the
/// last position searched at this ply, and the parent) by the rows of the cells that
/// differ; else from scratch. They stay in the slot for the position's children and
/// siblings.
#[inline]
pub fn with_accumulator<C: Cells, const H: usize, T>(
    stack: &'static LocalKey<Local<H>>,
    net: &Network<H>,
    ply: u32,
    cells: &[u8; 64],
    f: impl FnOnce(&Accumulator<H>) -> T,
) -> T {
    stack.with_borrow_mut(|stack| {
        let stack = stack.get_or_insert_with(|| Stack {
            slots: (0..STACK_PLIES).map(|_| Slot { net: 0, cells: [0; 64], acc: Accumulator::ZERO }).collect(),
            stats: Stats::default(),
        });
        let address = net as *const Network<H> as usize;
        let at = ply as usize % STACK_PLIES;
        let before = (at + STACK_PLIES - 1) % STACK_PLIES;
        let diff = |s: &Slot<H>| if s.net == address { changed(&s.cells, cells) } else { !0 };
        let here = diff(&stack.slots[at]);
        if here == 0 {
            stack.stats.reused += 1;
            return f(&stack.slots[at].acc);
        }
        // A move changes at least two cells (a capture in a game with hands, three): a slot
        // this close is taken without looking at the parent.
        let parent = if here.count_ones() <= 2 { !0 } else { diff(&stack.slots[before]) };
        if here.count_ones().min(parent.count_ones()) > MAX_CHANGED {
            refresh::<C, H>(net, cells, &mut stack.slots[at].acc);
            stack.stats.refreshed += 1;
        } else if here.count_ones() <= parent.count_ones() {
            let slot = &mut stack.slots[at];
            let old = slot.cells;
            apply_changes::<C, H>(net, &mut slot.acc, None, &old, cells, here);
            stack.stats.updated += 1;
        } else {
            // Split borrows of the two slots.
            let (low, high) = stack.slots.split_at_mut(at.max(before));
            let (slot, from) = if at > before { (&mut high[0], &low[before]) } else { (&mut low[at], &high[0]) };
            apply_changes::<C, H>(net, &mut slot.acc, Some(&from.acc), &from.cells, cells, parent);
            stack.stats.updated += 1;
        }
        let slot = &mut stack.slots[at];
        (slot.net, slot.cells) = (address, *cells);
        f(&slot.acc)
    })
}

/// How this thread's accumulators in `stack` were made so far.
pub fn stats<const H: usize>(stack: &'static LocalKey<Local<H>>) -> Stats {
    stack.with_borrow(|s| s.as_ref().map_or(Stats::default(), |s| s.stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_cells_are_found() {
        let mut seed = 5u64;
        for _ in 0..2000 {
            let mut a = [0; 64];
            let mut b = [0; 64];
            for c in 0..64 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                a[c] = ((seed >> 33) % 13) as u8;
                b[c] = if (seed >> 50).is_multiple_of(4) { ((seed >> 20) % 13) as u8 } else { a[c] };
            }
            let naive = (0..64).filter(|&c| a[c] != b[c]).fold(0u64, |m, c| m | 1 << c);
            assert_eq!(changed(&a, &b), naive);
        }
    }
}
