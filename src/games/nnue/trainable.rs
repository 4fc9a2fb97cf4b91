//! What `koma nnue-data` and `koma nnue-train` need of a game to make its network: the
//! game's cells (what a training record stores), its feature set and width, the mirror image, the
//! values the piece-square path starts from, and a position back from a record for the
//! classic evaluation's baseline. The trainer and the data generator are generic over it;
//! a game with a net implements it beside its features (`games::<game>::nnue`).

use super::stack::Cells;
use super::FeatureSet;
use crate::game::Strategy;

/// A game whose network koma can train.
pub trait Trainable: Strategy {
    /// The feature set its nets use (a data file names it too).
    const FEATURES: FeatureSet;
    /// Its nets' accumulator width (per perspective, a multiple of 16): the engine refuses
    /// a file of another; `koma nnue-train` writes a net this wide unless `--width` says.
    const WIDTH: usize;
    /// The data format its records are written in (`koma::train::records`): 1 packs
    /// Kokesu's squares into 32 bytes, 2 keeps the 64 cells whole.
    const DATA_VERSION: u32;
    /// How its cells give features.
    type Cells: Cells;
    /// The position's 64 cells, as the network reads them.
    fn cells(&self) -> [u8; 64];
    /// The cells of the position's mirror image (files reversed), which has the same value.
    fn mirrored(cells: &[u8; 64]) -> [u8; 64];
    /// What feature `f` is worth to its perspective at the start of training (material),
    /// centipawns.
    fn start_value(f: usize) -> f32;
    /// The position of a record's cells with `side` to move (0 sente, 1 gote) under the
    /// default rules, scored by the classic evaluation, for its loss; `None` if it cannot
    /// be set up.
    fn from_cells(cells: &[u8; 64], side: usize) -> Option<Self>;
}
