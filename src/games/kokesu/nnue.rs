//! Kokesu's network evaluation (`KokesuEval nnue`): feature set `kokesu-768` of
//! `crate::games::nnue::format` (piece-square features from each side's view), the net
//! built into the binary (`nnue.bin` beside this file, how it was made in docs/NNUE.md)
//! or one read from a file (`KokesuNetFile`), and the accumulators of a position.
//!
//! A position carries nothing for the net but its rules' choice of it: the accumulators
//! are kept per thread and ply by `crate::games::nnue::stack`, which reads Kokesu's board
//! as its 64 cells ([`Squares`]).

use super::board::*;
use super::{Kokesu, KokesuRules};
use crate::game::Game;
use crate::games::nnue::stack::{self, Cells, Local};
use crate::games::nnue::trainable::Trainable;
use crate::games::nnue::{self as net, FeatureSet, NetSource};

pub use crate::games::nnue::stack::Stats;

/// Kokesu's features: for each perspective, own and enemy piece by kind and square.
pub const FEATURES: FeatureSet = FeatureSet { id: 1, inputs: 768, name: "kokesu-768" };

/// Kokesu's accumulator width (per perspective): its nets' (the built-in one's); a file of
/// another width is refused.
pub const WIDTH: usize = 256;

/// Kokesu's nets, their accumulators and a net in use: of [`WIDTH`].
pub type Network = net::Network<WIDTH>;
pub type Accumulator = net::Accumulator<WIDTH>;
pub type Net = net::Net<WIDTH>;

/// Kokesu's nets, for `KokesuEval` and `KokesuNetFile`: the one built into the binary
/// (`nnue.bin` beside this file) or a file's.
pub static NETS: NetSource<WIDTH> = NetSource::new(FEATURES, include_bytes!("nnue.bin"), "src/games/kokesu/nnue.bin");

thread_local! {
    /// This thread's accumulators of Kokesu positions, by ply (`crate::games::nnue::stack`).
    static STACK: Local<WIDTH> = const { Local::new(None) };
}

/// How this thread's accumulators of Kokesu positions were made so far.
pub fn stats() -> Stats {
    stack::stats(&STACK)
}

/// The index of the feature "piece `piece` (`color * 6 + kind`) on `sq`" from the view of
/// `perspective` (0 sente, 1 gote): format.rs's `kokesu-768`.
#[inline(always)]
pub fn feature(perspective: usize, piece: usize, sq: usize) -> usize {
    let (color, kind) = (piece / 6, piece % 6);
    let relative = if perspective == 0 { sq } else { sq ^ 56 };
    usize::from(color != perspective) * 384 + kind * 64 + relative
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
    stack::refreshed::<Squares, WIDTH>(net, board)
}

/// Calls `f` with the accumulators of the position at `ply` with these squares under `net`
/// (`crate::games::nnue::stack::with_accumulator`).
#[inline]
pub fn with_accumulator<T>(net: &Network, ply: u32, board: &[u8; 64], f: impl FnOnce(&Accumulator) -> T) -> T {
    stack::with_accumulator::<Squares, WIDTH, T>(&STACK, net, ply, board, f)
}

/// Kokesu's training (`koma nnue-data`, `koma nnue-train`): cells are the squares, data
/// records version 1 (32 bytes).
impl Trainable for Kokesu {
    const FEATURES: FeatureSet = FEATURES;
    const WIDTH: usize = WIDTH;
    const DATA_VERSION: u32 = 1;
    type Cells = Squares;

    fn cells(&self) -> [u8; 64] {
        *self.squares()
    }

    /// Files a and h swapped: the same value, as Kokesu has no castling.
    fn mirrored(cells: &[u8; 64]) -> [u8; 64] {
        std::array::from_fn(|sq| cells[sq ^ 7])
    }

    /// Pawn 100, knight and bishop 300, rook 500, queen 900, own plus, the other's minus.
    fn start_value(f: usize) -> f32 {
        let value = [100.0, 300.0, 300.0, 500.0, 900.0, 0.0][f % 384 / 64];
        if f < 384 {
            value
        } else {
            -value
        }
    }

    /// Under the default rules but with the classic evaluation (the default scores by the
    /// net): the trainer's baseline is the hand-written evaluation.
    fn from_cells(cells: &[u8; 64], side: usize) -> Option<Kokesu> {
        let mut rules = KokesuRules::default();
        rules.eval.net = None;
        Kokesu::from_sfen(&sfen(cells, side), &rules).ok()
    }
}

/// The SFEN of Kokesu's squares with `side` to move (ply 1).
fn sfen(cells: &[u8; 64], side: usize) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let p = cells[rank * 8 + file];
            if p >= EMPTY {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            let letter = char::from(b"pnbrqk"[p as usize % 6]);
            s.push(if p < 6 { letter.to_ascii_uppercase() } else { letter });
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push_str(if side == 0 { " b - 1" } else { " w - 1" });
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Strategy;

    /// A record's cells give back the position they were read from.
    #[test]
    fn cells_give_back_their_positions() {
        let rules = KokesuRules::default();
        for text in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - 1"] {
            let pos = Kokesu::from_sfen(text, &rules).unwrap();
            let side = usize::from(text.contains(" w "));
            assert_eq!(sfen(&pos.cells(), side), text);
            assert_eq!(Kokesu::from_cells(&pos.cells(), side).map(|p| p.to_sfen()), Some(pos.to_sfen()));
        }
    }

    /// The trainer's baseline is the classic evaluation, whatever `KokesuEval`'s default.
    #[test]
    fn cells_are_scored_by_the_classic_evaluation() {
        let text = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - 1";
        let mut classic = KokesuRules::default();
        Kokesu::set_rule(&mut classic, "KokesuEval", "classic").unwrap();
        let pos = Kokesu::from_sfen(text, &classic).unwrap();
        let from_cells = Kokesu::from_cells(&pos.cells(), 1).unwrap();
        assert_eq!(from_cells.evaluate(), pos.evaluate());
        let net = Kokesu::from_sfen(text, &KokesuRules::default()).unwrap();
        assert_ne!(net.evaluate(), pos.evaluate(), "the default scores by the net");
    }

    /// The mirror image of the mirror image is the position itself; a1 goes to h1.
    #[test]
    fn the_mirror_swaps_files_a_and_h() {
        let pos = Kokesu::from_sfen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - 1", &KokesuRules::default()).unwrap();
        let cells = pos.cells();
        let mirrored = Kokesu::mirrored(&cells);
        assert_eq!(Kokesu::mirrored(&mirrored), cells);
        assert_eq!(mirrored[7], cells[0]);
        assert_eq!(mirrored[4 * 8 + 7], cells[4 * 8]);
    }
}
