//! The engine's placement choice.
//!
//! The real setup is hidden, so the choice depends only on our own camp. The arrangement
//! is, in this order of preference: the player's fixed one (`NumberShogiArrangement`);
//! one drawn from the solved game's optimal mix for our colour ([`super::solution`], with
//! the engine's random number), among those that agree with what we have already placed;
//! else the fixed arrangement of the study below (the table is off, or a GUI placed our
//! pieces elsewhere). The pieces go down in a fixed order; if a square of the
//! arrangement is taken, the piece goes on the first free camp square instead.
//!
//! The study below came before the solve; the solve (protocol/numbershogi-solved.md)
//! proved its reading of the class right for gote: its `6 5 3 / 2 4 1` wins against every
//! sente arrangement.
//!
//! # The study (examples/numbershogi_setup_study.rs, default direction table)
//!
//! Every one of the 720 arrangements played a fixed-depth alpha-beta (this module's
//! evaluation, capture quiescence; win 1, draw 1/2 at 60 plies or a third repetition)
//! against random opponent arrangements, once with each colour.
//! - Screen, depth 3, 24 opponents: every one of the top 24 has **3, 5 and 6 on the front
//!   rank** and 1, 2, 4 behind (scores 0.85-0.96); the worst, `1 2 5 / 4 6 3`, scored 0.07.
//! - Final, depth 5, 40 opponents: those 24 score 0.92-0.99, while the best arrangements
//!   with another front rank drop to 0.76-0.89 and a median one scores 0.51.
//! - A second final, depth 5, 100 opponents: the same 24 score 0.95-0.99.
//! - Round robin, depth 5, the 24 plus six others: the 24 score 33-39 of 58, the others
//!   0-9 of 58.
//! - Round robin among the 24 at depth 4 and 6: exactly 50% each, because **gote won
//!   every game** (depth 5: 1 sente point in 12 games of a 4-way test). With 3, 5, 6 facing
//!   each other across the empty rank c, whoever steps into rank c first is taken, and
//!   sente must move first. Inside the class the arrangement does not decide the game.
//!
//! Why 3, 5, 6 in front: they are the pieces that step forward and cover the centre
//! (3 = N NW NE, 5 = silver, 6 = gold), and they are exactly the complements of the back
//! rank (7-3 = 4, 7-5 = 2, 7-6 = 1): the value the opponent needs after taking a front
//! piece stands sheltered behind it, and the back pieces (1 and 2 only step forward,
//! 4 only diagonally) are the ones that would be stuck or useless in front.
//!
//! The arrangement chosen, `6 5 3 / 2 4 1` (rank d files 3-2-1, then rank e): among the
//! best against random opponents (0.975 and 0.980 in the two finals) and in the depth-5
//! round robin (39/58). Any of the 24 would do; mirror images are equivalent.

use super::board::*;
use super::movegen::Move;
use super::solution::{slot_square, Arrangement};
use super::NumberShogi;
use crate::game::BookChoice;

/// The study's arrangement: `ARRANGEMENT[i]` is the value placed on camp slot i, where
/// squares are listed rank d from file 3 to 1, then rank e from file 3 to 1 (the owner's
/// view, turned half round for gote).
pub const ARRANGEMENT: Arrangement = [6, 5, 3, 2, 4, 1];
/// The order in which the values are placed.
const ORDER: [u8; 6] = [6, 5, 4, 3, 2, 1];

/// The arrangement to place now (see the module doc).
pub fn arrangement(pos: &NumberShogi, choice: &BookChoice) -> Arrangement {
    let color = pos.side;
    let mut placed = [0u8; 6];
    for (i, p) in placed.iter_mut().enumerate() {
        let cell = pos.board[slot_square(color, i)];
        if cell != EMPTY && owner(cell) == color {
            *p = face(cell);
        }
    }
    if let Some(fixed) = pos.rules.arrangement {
        return fixed;
    }
    let drawn = match super::solution::in_use(pos.rules.table) {
        Ok(Some(table)) if table.rules == pos.rules => table.draw(color, &placed, choice.random),
        _ => None,
    };
    drawn.unwrap_or(ARRANGEMENT)
}

pub fn book_move(pos: &NumberShogi, choice: &BookChoice) -> Option<Move> {
    if !pos.placing || pos.winner.is_some() {
        return None;
    }
    let us = pos.side.index();
    let empty = ALL & !(pos.occ[0] | pos.occ[1]) & CAMP[us];
    let arrangement = arrangement(pos, choice);
    for &v in &ORDER {
        if pos.hand[us][v as usize] == 0 {
            continue;
        }
        let slot = arrangement.iter().position(|&a| a == v)?;
        let sq = slot_square(pos.side, slot);
        if empty & (1 << sq) != 0 {
            return Some(Move::drop(v, sq));
        }
        let first = Bits::from(empty).next()?;
        return Some(Move::drop(v, first));
    }
    None
}
