//! The rules of Kani Shogi that differ from Kani Nari Ebi: parent and children with
//! pips, grown children, the river (children carried to the far end, the parent drifting
//! at will), wall captures besides sandwiches, the bond with any friendly piece, and the
//! end conditions with the 2-2 pip race.

use crate::game::{Color, Outcome};
use crate::games::crab::capture::{group, remove, sandwich, squares};
use crate::games::crab::cell::{self, Cells, EMPTY};
use crate::games::crab::flow;
use crate::games::crab::square::{enemy_home_file, file_of, on_edge, rank_of, step, ORTHOGONAL};
use crate::games::crab::turn::{diagonal_steps, slides, Squares, Variant};

crate::combo_values! {
    /// How a grown child moves: switch `KaniShogiGrownMove`.
    pub enum GrownMove {
        /// Sideways like every crab, and one step diagonally (default).
        SidewaysDiagonal = "sideways+diagonal",
        /// One step diagonally only.
        Diagonal = "diagonal",
    }
}

/// The rules switches of Kani Shogi.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub grown: GrownMove,
}

pub(crate) const GROWN_OPTION: &str = "KaniShogiGrownMove";

/// The parent crab's kind; children are `PARENT + pip` (pips 1..=4).
pub(crate) const PARENT: u8 = 1;

/// The pip of a child (1..=4), 0 for the parent.
pub(crate) const fn pip(c: u8) -> u8 {
    cell::kind(c) - PARENT
}

pub(crate) fn is_parent(c: u8) -> bool {
    c != EMPTY && cell::kind(c) == PARENT
}

/// Whether `color`'s parent is on the board.
pub(crate) fn has_parent(cells: &Cells, color: Color) -> bool {
    cells.iter().any(|&c| cell::is(c, color) && is_parent(c))
}

/// Bit set (bit p for pip p) of `color`'s children on the board.
pub(crate) fn pips_on_board(cells: &Cells, color: Color) -> u8 {
    cells.iter().filter(|&&c| cell::is(c, color) && !is_parent(c)).fold(0, |m, &c| m | 1 << pip(c))
}

/// Bit set of the pips of `color`'s children that the enemy has captured.
pub(crate) fn pips_lost(cells: &Cells, color: Color) -> u8 {
    0b11110 & !pips_on_board(cells, color)
}

fn pip_sum(set: u8) -> u32 {
    (1..=4).filter(|p| set & (1 << p) != 0).sum()
}

/// The squares of the wall captures made by a piece of `mover` standing on `at`: every
/// maximal orthogonally connected enemy group beside it that touches the edge and whose
/// every on-board orthogonal neighbour is a piece of `mover`.
pub(crate) fn walls(cells: &Cells, at: usize, mover: Color) -> u32 {
    let enemy = mover.flip();
    let mut caught = 0u32;
    let mut seen = 0u32;
    for &(df, dr) in &ORTHOGONAL {
        let Some(n) = step(at, df, dr) else { continue };
        if seen & (1 << n) != 0 || !cell::is(cells[n], enemy) {
            continue;
        }
        let g = group(cells, n, |c| cell::is(c, enemy));
        seen |= g;
        if !squares(g).any(on_edge) {
            continue;
        }
        let enclosed = squares(g).all(|sq| {
            ORTHOGONAL.iter().all(|&(a, b)| match step(sq, a, b) {
                Some(m) => g & (1 << m) != 0 || cell::is(cells[m], mover),
                None => true,
            })
        });
        if enclosed {
            caught |= g;
        }
    }
    caught
}

impl Variant for Rules {
    fn normal_targets(&self, cells: &Cells, piece: u8, from: usize, out: &mut Squares) {
        if !cell::promoted(piece) {
            slides(cells, from, out);
            return;
        }
        if self.grown == GrownMove::SidewaysDiagonal {
            slides(cells, from, out);
        }
        diagonal_steps(cells, from, out);
    }

    fn flow(&self, cells: &Cells, piece: u8, entry: usize, out: &mut Squares) {
        if is_parent(piece) {
            out.add(entry);
            for up in [true, false] {
                for sq in flow::path(cells, entry, up) {
                    out.add(sq);
                }
            }
            return;
        }
        let r = rank_of(entry);
        let mut moved = false;
        for (up, allowed) in [(true, r > 0), (false, r < 4)] {
            let end = flow::end(cells, entry, up);
            if allowed && end != entry {
                out.add(end);
                moved = true;
            }
        }
        if !moved {
            out.add(entry);
        }
    }

    fn can_promote(&self, piece: u8, at: usize, side: Color) -> bool {
        !is_parent(piece) && !cell::promoted(piece) && file_of(at) == enemy_home_file(side)
    }

    fn capture(&self, cells: &mut Cells, at: usize, mover: Color) {
        let caught = sandwich(cells, at, mover) | walls(cells, at, mover);
        remove(cells, caught);
    }

    fn outcome_rule(&self, cells: &Cells, to_move: Color) -> Option<(Outcome, &'static str)> {
        let them = to_move.flip();
        // 1. a parent captured
        if !has_parent(cells, to_move) {
            return Some((Outcome::Loss, "capture of the parent crab"));
        }
        if !has_parent(cells, them) {
            return Some((Outcome::Win, "capture of the parent crab"));
        }
        // 2. three children captured
        let lost_mine = pips_lost(cells, to_move);
        let lost_theirs = pips_lost(cells, them);
        if lost_mine.count_ones() >= 3 {
            return Some((Outcome::Loss, "capture of three children"));
        }
        if lost_theirs.count_ones() >= 3 {
            return Some((Outcome::Win, "capture of three children"));
        }
        // 3. two each: the larger pip sum, then the larger single pip
        if lost_mine.count_ones() == 2 && lost_theirs.count_ones() == 2 {
            let (won, lost) = (pip_sum(lost_theirs), pip_sum(lost_mine));
            if won != lost {
                let o = if won > lost { Outcome::Win } else { Outcome::Loss };
                return Some((o, "two children captured each: the larger sum of captured pips"));
            }
            // Equal sums of two pips: the sets differ exactly when their larger pips do,
            // and then the set with the larger pip is the larger bit set.
            if lost_theirs != lost_mine {
                let o = if lost_theirs > lost_mine { Outcome::Win } else { Outcome::Loss };
                return Some((o, "two children captured each, equal sums: the larger captured pip"));
            }
        }
        None
    }

    /// Bit 0: the enemy parent; bits 1..=4: the pips of the enemy children captured.
    fn gain(&self, before: &Cells, after: &Cells, side: Color) -> u8 {
        let enemy = side.flip();
        let mut set = 0;
        for (&b, &a) in before.iter().zip(after.iter()) {
            if cell::is(b, enemy) && a != b {
                set |= 1 << pip(b);
            }
        }
        set
    }

    fn bond_group(&self, cells: &Cells, at: usize, side: Color) -> u32 {
        let g = group(cells, at, |c| cell::is(c, side));
        if g.count_ones() >= 2 {
            g
        } else {
            0
        }
    }
}
