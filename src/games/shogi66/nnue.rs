//! 66 shogi's network evaluation (`Shogi66Eval nnue`): feature set `shogi66-1200` of
//! `crate::games::nnue::format`. The net reads a position as 52 cells: the 36 squares (a
//! piece byte, 0 empty) and the 16 hand counts (cell `36 + color * 8 + kind - 1`), and
//! each cell gives at most one feature per perspective:
//!
//! - a piece: `(own ? 0 : 504) + (kind - 1) * 36 + square`, kind 1..=14 (board.rs),
//!   square from the perspective's side (gote's view turns the board: `35 - square`);
//! - a hand count `n > 0`: `1008 + (own ? 0 : 96) + (kind - 1) * 12 + min(n, 12) - 1`
//!   (one feature per count, so that a changed count is one row out and one in).
//!
//! The accumulators are kept per thread and ply by `crate::games::nnue::stack`. Positions
//! in the placement phase are scored by the classic evaluation (the net is trained on
//! positions of play only).

use super::board::*;
use super::{sfen, Shogi66};
use crate::games::nnue::stack::{self, Cells, Local, Stats};
use crate::games::nnue::trainable::Trainable;
use crate::games::nnue::{self as net, FeatureSet, NetSource};

/// 66 shogi's features.
pub const FEATURES: FeatureSet = FeatureSet { id: 2, inputs: 1200, name: "shogi66-1200" };

/// 66 shogi's accumulator width (per perspective): its nets' (the built-in one's); a file
/// of another width is refused.
pub const WIDTH: usize = 128;

/// 66 shogi's nets, their accumulators and a net in use: of [`WIDTH`].
pub type Network = net::Network<WIDTH>;
pub type Accumulator = net::Accumulator<WIDTH>;
pub type Net = net::Net<WIDTH>;

/// 66 shogi's nets, for `Shogi66Eval` and `Shogi66NetFile`: the one built into the
/// binary (`nnue.bin` beside this file; how it was made in docs/NNUE.md) or a file's.
pub static NETS: NetSource<WIDTH> = NetSource::new(FEATURES, include_bytes!("nnue.bin"), "src/games/shogi66/nnue.bin");

thread_local! {
    /// This thread's accumulators of 66 shogi positions, by ply (`crate::games::nnue::stack`).
    static STACK: Local<WIDTH> = const { Local::new(None) };
}

/// How this thread's accumulators of 66 shogi positions were made so far.
pub fn stats() -> Stats {
    stack::stats(&STACK)
}

/// The first hand cell.
const HAND_CELL: usize = SQUARES;
/// Hand counts above this share its feature.
const MAX_COUNT: usize = 12;
const BOARD_FEATURES: usize = 2 * 14 * SQUARES;

/// 66 shogi's cells: squares, then hand counts.
pub struct Cells66;

impl Cells for Cells66 {
    #[inline(always)]
    fn feature(perspective: usize, cell: usize, value: u8) -> Option<usize> {
        if value == 0 {
            return None;
        }
        if cell < HAND_CELL {
            let own = color_index(value) == perspective;
            let sq = if perspective == 0 { cell } else { SQUARES - 1 - cell };
            Some(usize::from(!own) * (BOARD_FEATURES / 2) + (kind(value) as usize - 1) * SQUARES + sq)
        } else {
            let (color, kind) = ((cell - HAND_CELL) / 8, (cell - HAND_CELL) % 8);
            let count = (value as usize).min(MAX_COUNT);
            Some(BOARD_FEATURES + usize::from(color != perspective) * 8 * MAX_COUNT + kind * MAX_COUNT + count - 1)
        }
    }
}

/// The cells of a position.
pub fn cells_of(pos: &Position) -> [u8; 64] {
    let mut cells = [0u8; 64];
    cells[..SQUARES].copy_from_slice(&pos.board);
    for color in 0..2 {
        for kind in 1..=8 {
            cells[HAND_CELL + color * 8 + kind - 1] = pos.hand[color][kind];
        }
    }
    cells
}

/// The accumulators of a position's cells from scratch: the reference the incremental
/// ones must equal.
pub fn refreshed(net: &Network, cells: &[u8; 64]) -> Accumulator {
    stack::refreshed::<Cells66, WIDTH>(net, cells)
}

impl Shogi66 {
    /// The network's accumulators, when the position is scored by a net: as the
    /// evaluation gets them (from this thread's stack, the parent's, or from scratch).
    pub fn accumulator(&self) -> Option<Accumulator> {
        let net = self.net?.0;
        Some(stack::with_accumulator::<Cells66, WIDTH, _>(&STACK, net, self.pos.ply, &cells_of(&self.pos), |acc| {
            acc.clone()
        }))
    }
}

/// The net's evaluation of a position (of play), side to move's view.
#[inline]
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    stack::with_accumulator::<Cells66, WIDTH, i32>(&STACK, net, pos.ply, &cells_of(pos), |acc| {
        net.evaluate(acc, pos.stm)
    })
}

impl Trainable for Shogi66 {
    const FEATURES: FeatureSet = FEATURES;
    const WIDTH: usize = WIDTH;
    const DATA_VERSION: u32 = 2;
    type Cells = Cells66;

    fn cells(&self) -> [u8; 64] {
        cells_of(&self.pos)
    }

    /// Files 1 and 6 swapped (and so on): shogi's rules are the same seen in a mirror.
    fn mirrored(cells: &[u8; 64]) -> [u8; 64] {
        std::array::from_fn(|c| if c < SQUARES { cells[rank(c) * 6 + 5 - col(c)] } else { cells[c] })
    }

    /// The classic evaluation's material: a piece's value, a hand's count times the value
    /// of a piece in hand; own plus, the other's minus.
    fn start_value(f: usize) -> f32 {
        let (value, own) = if f < BOARD_FEATURES {
            let kind = f % (BOARD_FEATURES / 2) / SQUARES + 1;
            (super::eval::VALUE[kind], f < BOARD_FEATURES / 2)
        } else {
            let h = f - BOARD_FEATURES;
            let (kind, count) = (h % (8 * MAX_COUNT) / MAX_COUNT + 1, h % MAX_COUNT + 1);
            (super::eval::HAND_VALUE[kind] * count as i32, h < 8 * MAX_COUNT)
        };
        if own {
            value as f32
        } else {
            -(value as f32)
        }
    }

    fn from_cells(cells: &[u8; 64], side: usize) -> Option<Shogi66> {
        let mut pos = sfen::from_sfen(sfen::STARTPOS).ok()?;
        pos.board = [0; SQUARES];
        pos.occ = [0; 2];
        pos.king = [SQUARES as u8; 2];
        for (sq, &p) in cells[..SQUARES].iter().enumerate() {
            if p != 0 {
                pos.put(sq, p);
            }
        }
        for color in 0..2 {
            for kind in 1..=8 {
                pos.hand[color][kind] = cells[HAND_CELL + color * 8 + kind - 1];
            }
        }
        pos.stm = side;
        // Through the SFEN, so that the key and the phase are those of the text.
        sfen::from_sfen(&sfen::to_sfen(&pos)).ok().map(|pos| Shogi66 { pos, net: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    const MIDDLEGAME: &str = "1k1+S1+P/p3+BL/2pRg1/PP1P2/L1P2g/1K3+p w 2N3Psp 60";

    #[test]
    fn features_are_distinct_and_in_range() {
        let mut seen = std::collections::HashSet::new();
        for perspective in 0..2 {
            seen.clear();
            for cell in 0..HAND_CELL {
                for color in 0..2 {
                    for kind in 1..=14u8 {
                        let f = Cells66::feature(perspective, cell, piece(kind, color)).unwrap();
                        assert!(f < BOARD_FEATURES && seen.insert(f));
                    }
                }
            }
            for cell in HAND_CELL..HAND_CELL + 16 {
                assert_eq!(Cells66::feature(perspective, cell, 0), None);
                for count in 1..=MAX_COUNT as u8 {
                    let f = Cells66::feature(perspective, cell, count).unwrap();
                    assert!((BOARD_FEATURES..FEATURES.inputs).contains(&f) && seen.insert(f));
                }
            }
            assert_eq!(seen.len(), FEATURES.inputs);
        }
    }

    /// Sente's view of a position is gote's view of the position turned round with the
    /// colours swapped.
    #[test]
    fn each_side_sees_the_board_from_its_own_side() {
        let (sq, p) = (7, piece(SILVER, 0));
        let turned = piece(SILVER, 1);
        assert_eq!(Cells66::feature(0, sq, p), Cells66::feature(1, SQUARES - 1 - sq, turned));
        assert_eq!(Cells66::feature(0, HAND_CELL + 3, 2), Cells66::feature(1, HAND_CELL + 8 + 3, 2));
    }

    #[test]
    fn cells_give_back_their_positions_and_the_mirror_is_an_involution() {
        let pos = Shogi66::from_sfen(MIDDLEGAME, &Default::default()).unwrap();
        let cells = pos.cells();
        let back = Shogi66::from_cells(&cells, 1).unwrap();
        assert_eq!(
            back.to_sfen().split(' ').take(3).collect::<Vec<_>>(),
            MIDDLEGAME.split(' ').take(3).collect::<Vec<_>>()
        );
        let mirrored = Shogi66::mirrored(&cells);
        assert_eq!(Shogi66::mirrored(&mirrored), cells);
        assert_eq!(mirrored[0], cells[5]);
        assert_eq!(&mirrored[HAND_CELL..], &cells[HAND_CELL..]);
    }
}
