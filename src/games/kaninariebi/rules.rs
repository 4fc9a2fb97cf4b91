//! The rules of Kani Nari Ebi that differ from Kani Shogi: crabs and shrimps, the
//! current (both directions always allowed), sandwich-only captures, the win checks and
//! the same-type bond.

use crate::game::{Color, Outcome};
use crate::games::crab::capture::{group, remove, sandwich};
use crate::games::crab::cell::{self, Cells};
use crate::games::crab::flow;
use crate::games::crab::square::{enemy_home_file, file_of};
use crate::games::crab::turn::{diagonal_steps, slides, Squares, Variant};

crate::combo_values! {
    /// Who may make the bond move: switch `KaniNariEbiBonds`.
    pub enum Bonds {
        /// The moved piece's orthogonally connected group of its own type (default).
        SameType = "same-type",
        /// The moved piece's orthogonally connected group of any friendly pieces.
        Any = "any",
    }
}

/// The rules switches of Kani Nari Ebi.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub bonds: Bonds,
}

pub(crate) const BONDS_OPTION: &str = "KaniNariEbiBonds";

/// The crab kind (a shrimp is a promoted crab).
pub(crate) const CRAB: u8 = 1;
/// Pieces per side at the start.
pub(crate) const PIECES: usize = 5;

/// Shrimps of `color` on the board.
pub(crate) fn shrimps(cells: &Cells, color: Color) -> usize {
    Tally::of(cells).shrimps(color)
}

/// Pieces and shrimps of both sides, counted a word of eight squares at a time: every
/// search node and every generated move asks for them (the win checks, the captures
/// made). A cell byte here is 0 (empty) or a piece with bit 0 its colour, bit 1 set
/// (the one kind, [`CRAB`]) and bit 4 the shrimp flag (`cell::make`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tally {
    pieces: [u8; 2],
    shrimps: [u8; 2],
}

// The counting below reads the kind bit as "a piece is here".
const _: () = assert!(cell::make(Color::Sente, CRAB, false) & 2 != 0 && cell::make(Color::Gote, CRAB, true) & 2 != 0);

impl Tally {
    #[inline(always)]
    pub(crate) fn of(cells: &Cells) -> Tally {
        const LOW: u64 = 0x0101_0101_0101_0101;
        let mut bytes = [0u8; 32];
        bytes[..cells.len()].copy_from_slice(cells);
        let (mut pieces, mut red, mut shrimps, mut red_shrimps) = (0, 0, 0, 0);
        for chunk in bytes.chunks_exact(8) {
            let x = chunk.try_into().map(u64::from_le_bytes).unwrap_or(0);
            pieces += ((x >> 1) & LOW).count_ones();
            red += (x & LOW).count_ones();
            shrimps += ((x >> 4) & LOW).count_ones();
            red_shrimps += ((x >> 4) & x & LOW).count_ones();
        }
        Tally { pieces: [(pieces - red) as u8, red as u8], shrimps: [(shrimps - red_shrimps) as u8, red_shrimps as u8] }
    }

    #[inline(always)]
    pub(crate) fn pieces(self, color: Color) -> usize {
        usize::from(self.pieces[color.index()])
    }

    #[inline(always)]
    pub(crate) fn shrimps(self, color: Color) -> usize {
        usize::from(self.shrimps[color.index()])
    }
}

impl Variant for Rules {
    fn normal_targets(&self, cells: &Cells, piece: u8, from: usize, out: &mut Squares) {
        if cell::promoted(piece) {
            diagonal_steps(cells, from, out);
        } else {
            slides(cells, from, out);
        }
    }

    fn flow(&self, cells: &Cells, _piece: u8, entry: usize, out: &mut Squares) {
        out.add(flow::end(cells, entry, true));
        out.add(flow::end(cells, entry, false));
    }

    fn can_promote(&self, piece: u8, at: usize, side: Color) -> bool {
        !cell::promoted(piece) && file_of(at) == enemy_home_file(side)
    }

    fn capture(&self, cells: &mut Cells, at: usize, mover: Color) {
        let caught = sandwich(cells, at, mover);
        remove(cells, caught);
    }

    fn outcome_rule(&self, cells: &Cells, to_move: Color) -> Option<(Outcome, &'static str)> {
        let tally = Tally::of(cells);
        let won = |c: Color| {
            if tally.shrimps(c) >= 3 {
                Some("three shrimps")
            } else if tally.pieces(c.flip()) + 3 <= PIECES {
                Some("three captures")
            } else {
                None
            }
        };
        if let Some(rule) = won(to_move.flip()) {
            Some((Outcome::Loss, rule))
        } else {
            won(to_move).map(|rule| (Outcome::Win, rule))
        }
    }

    /// The enemy pieces captured: a turn never moves or promotes an enemy piece, so every
    /// one that is gone was captured.
    fn gain(&self, before: &Cells, after: &Cells, side: Color) -> u8 {
        let enemy = side.flip();
        (Tally::of(before).pieces(enemy) - Tally::of(after).pieces(enemy)) as u8
    }

    fn bond_group(&self, cells: &Cells, at: usize, side: Color) -> u32 {
        let shrimp = cell::promoted(cells[at]);
        let g = match self.bonds {
            Bonds::SameType => group(cells, at, |c| cell::is(c, side) && cell::promoted(c) == shrimp),
            Bonds::Any => group(cells, at, |c| cell::is(c, side)),
        };
        if g.count_ones() >= 2 {
            g
        } else {
            0
        }
    }
}
