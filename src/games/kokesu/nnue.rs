//! Kokesu's network evaluation (`KokesuEval nnue`): feature set `kokesu-768` of
//! `crate::games::nnue::format` (piece-square features from each side's view), the net
//! built into the binary (`nnue.bin` beside this file, how it was made in tools/NNUE.md)
//! or one read from a file (`KokesuNetFile`), and the accumulator a position carries.
//!
//! A position scored by a net carries an [`NnueLink`] (the net, its parent's key and the
//! move from there), set when it is set up and when a move or a pass is played; the
//! accumulators of both perspectives are kept per thread and ply
//! ([`with_accumulator`]): made from the parent's by the rows of the moved, promoted and
//! captured pieces, or from scratch where the parent's are not at hand. Positions under
//! the linear evaluation carry nothing and pay nothing for it. The link is no part of a
//! position's equality or key.

use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use super::board::*;
use crate::games::nnue::{format, Accumulator, FeatureSet, NetError, Network, Row};

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

/// What a position carries for the net: how its board differs from the position it was
/// played from (its key and the move's pieces), 16 bytes. The accumulators themselves
/// live in a stack per thread ([`with_accumulator`]), not in the position: the search copies
/// a position for every move it tries (copy-make), and 512 bytes of accumulators in every
/// position, even empty ones, cost the linear evaluation's search 5% of its instructions.
#[derive(Clone, Copy, Debug)]
pub struct NnueLink {
    /// The parent's key; 0 at a position set up from SFEN (or a parent whose key is 0:
    /// the accumulators are then made from scratch, the same numbers).
    parent: u64,
    /// The move from the parent: `piece` from `from` to `to`, becoming `new_piece`, taking
    /// `captured` (`EMPTY`: nothing). `piece == EMPTY`: no piece moved (a null move).
    piece: u8,
    from: u8,
    to: u8,
    new_piece: u8,
    captured: u8,
}

impl NnueLink {
    /// A position set up from scratch.
    pub const ROOT: NnueLink = NnueLink { parent: 0, piece: EMPTY, from: 0, to: 0, new_piece: EMPTY, captured: EMPTY };

    /// The link of the position after a move from the position with key `parent`.
    #[inline]
    pub fn after_move(&mut self, parent: u64, piece: u8, from: usize, to: usize, new_piece: u8, captured: u8) {
        *self = NnueLink { parent, piece, from: from as u8, to: to as u8, new_piece, captured };
    }

    /// The link of the position after a pass from the position with key `parent`.
    #[inline]
    pub fn after_pass(&mut self, parent: u64) {
        *self = NnueLink { parent, piece: EMPTY, ..*self };
    }
}

/// How many plies the accumulator stack holds (a position's slot is its ply modulo this).
const STACK_PLIES: usize = 128;

/// One slot of the stack: the accumulators of the position with key `key` under the net at
/// address `net` (0: nothing yet).
struct Slot {
    key: u64,
    net: usize,
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
    /// Found ready in the stack.
    pub reused: u64,
    /// From the parent's, by the move's rows.
    pub updated: u64,
    /// From scratch (a root position, or a parent whose accumulators were not computed).
    pub refreshed: u64,
}

thread_local! {
    static STACK: RefCell<Option<Stack>> = const { RefCell::new(None) };
}

fn refresh(net: &Network, board: &[u8; 64], acc: &mut Accumulator) {
    for (perspective, row) in acc.0.iter_mut().enumerate() {
        let pieces = board.iter().enumerate().filter(|(_, &p)| p != EMPTY);
        net.refresh(row, pieces.map(|(sq, &p)| feature(perspective, p as usize, sq)));
    }
}

/// The accumulators of a position from scratch: the reference the incremental ones must
/// equal.
pub fn refreshed(net: &Network, board: &[u8; 64]) -> Accumulator {
    let mut acc = Accumulator([Row::ZERO, Row::ZERO]);
    refresh(net, board, &mut acc);
    acc
}

/// Calls `f` with the accumulators of the position with this key, ply, link and board: the
/// ones in this thread's stack if they are that position's, else computed from the
/// parent's (when the stack holds the parent's, as it does where the search evaluated the
/// parent), else from scratch; and keeps them in the stack for the position's children.
/// The stack is checked by key and net, so any order of calls gives the same numbers.
#[inline]
pub fn with_accumulator<T>(
    net: &Network,
    key: u64,
    ply: u32,
    link: &NnueLink,
    board: &[u8; 64],
    f: impl FnOnce(&Accumulator) -> T,
) -> T {
    STACK.with_borrow_mut(|stack| {
        let stack = stack.get_or_insert_with(|| Stack {
            slots: (0..STACK_PLIES)
                .map(|_| Slot { key: 0, net: 0, acc: Accumulator([Row::ZERO, Row::ZERO]) })
                .collect(),
            stats: Stats::default(),
        });
        let address = net as *const Network as usize;
        let at = ply as usize % STACK_PLIES;
        let slot = &stack.slots[at];
        if slot.key == key && slot.net == address {
            stack.stats.reused += 1;
            return f(&stack.slots[at].acc);
        }
        let parent_at = (at + STACK_PLIES - 1) % STACK_PLIES;
        let parent = &stack.slots[parent_at];
        if link.parent != 0 && link.parent == parent.key && parent.net == address {
            // Split borrows of the two slots.
            let (low, high) = stack.slots.split_at_mut(at.max(parent_at));
            let (child, parent) =
                if at > parent_at { (&mut high[0], &low[parent_at]) } else { (&mut low[at], &high[0]) };
            child.acc = parent.acc.clone();
            if link.piece != EMPTY {
                let (from, to) = (link.from as usize, link.to as usize);
                for (perspective, row) in child.acc.0.iter_mut().enumerate() {
                    let add = feature(perspective, link.new_piece as usize, to);
                    let sub = feature(perspective, link.piece as usize, from);
                    let taken = (link.captured != EMPTY).then(|| feature(perspective, link.captured as usize, to));
                    net.update(row, add, sub, taken);
                }
            }
            stack.stats.updated += 1;
        } else {
            refresh(net, board, &mut stack.slots[at].acc);
            stack.stats.refreshed += 1;
        }
        let slot = &mut stack.slots[at];
        (slot.key, slot.net) = (key, address);
        f(&slot.acc)
    })
}

/// How this thread's accumulators were made so far.
pub fn stats() -> Stats {
    STACK.with_borrow(|s| s.as_ref().map_or(Stats::default(), |s| s.stats))
}
