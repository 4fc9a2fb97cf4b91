//! Kokesu's network evaluation (`KokesuEval nnue`): feature set `kokesu-768` of
//! `crate::games::nnue::format` (piece-square features from each side's view), the net
//! built into the binary (`nnue.bin` beside this file, how it was made in tools/NNUE.md)
//! or one read from a file (`KokesuNetFile`), and the accumulators of a position.
//!
//! A position carries nothing for the net but its rules' choice of it: the accumulators
//! are kept per thread and ply by `crate::games::nnue::stack`, which reads Kokesu's board
//! as its 64 cells ([`Squares`]).

use std::sync::OnceLock;

use super::board::*;
use crate::games::nnue::stack::{self, Cells};
use crate::games::nnue::{self, Accumulator, FeatureSet, NetError, Network};

pub use crate::games::nnue::stack::{stats, Stats};
pub use crate::games::nnue::Net;

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

/// The net built into the binary, checked on first use.
pub fn builtin() -> Result<Net, NetError> {
    static BUILTIN: OnceLock<Result<Network, NetError>> = OnceLock::new();
    nnue::builtin(&BUILTIN, BUILTIN_BYTES, FEATURES)
}

/// The net in the file at `path`, checked (`crate::games::nnue::load`).
pub fn load(path: &str) -> Result<Net, NetError> {
    nnue::load(path, FEATURES)
}

/// Kokesu's cells: the squares, `color * 6 + kind` or [`EMPTY`].
pub struct Squares;

impl Cells for Squares {
    #[inline(always)]
    fn feature(perspective: usize, sq: usize, piece: u8) -> Option<usize> {
        (piece != EMPTY).then(|| feature(perspective, piece as usize, sq))
    }
}

/// The accumulators of a position from scratch: the reference the incremental ones must
/// equal.
pub fn refreshed(net: &Network, board: &[u8; 64]) -> Accumulator {
    stack::refreshed::<Squares>(net, board)
}

/// Calls `f` with the accumulators of the position at `ply` with these squares under `net`
/// (`crate::games::nnue::stack::with_accumulator`).
#[inline]
pub fn with_accumulator<T>(net: &Network, ply: u32, board: &[u8; 64], f: impl FnOnce(&Accumulator) -> T) -> T {
    stack::with_accumulator::<Squares, T>(net, ply, board, f)
}
