//! The engine's placement choice.
//!
//! The real setup is hidden, so the choice depends only on our own camp: a fixed
//! arrangement of the six pieces on the six camp squares (owner's view), placed in a
//! fixed order. If a square of the arrangement is already taken (a GUI placed for us),
//! the piece goes on the first free camp square instead.

use super::board::*;
use super::movegen::Move;
use super::NumberShogi;
use crate::game::Color;

/// Sente's arrangement: `ARRANGEMENT[i]` is the value placed on camp square i, where
/// squares are listed rank d from file 3 to 1, then rank e from file 3 to 1.
pub const ARRANGEMENT: [u8; 6] = [3, 6, 5, 1, 4, 2];
/// The order in which the values are placed.
const ORDER: [u8; 6] = [6, 5, 4, 3, 2, 1];

/// The sente square index of camp slot i, turned half round for gote.
fn slot_square(color: Color, i: usize) -> usize {
    let sq = 9 + i;
    if color == Color::Gote {
        SQUARES - 1 - sq
    } else {
        sq
    }
}

pub fn book_move(pos: &NumberShogi) -> Option<Move> {
    if !pos.placing || pos.winner.is_some() {
        return None;
    }
    let us = pos.side.index();
    let empty = ALL & !(pos.occ[0] | pos.occ[1]) & CAMP[us];
    for &v in &ORDER {
        if pos.hand[us][v as usize] == 0 {
            continue;
        }
        let slot = ARRANGEMENT.iter().position(|&a| a == v)?;
        let sq = slot_square(pos.side, slot);
        if empty & (1 << sq) != 0 {
            return Some(Move::drop(v, sq));
        }
        let first = Squares(empty).next()?;
        return Some(Move::drop(v, first));
    }
    None
}
