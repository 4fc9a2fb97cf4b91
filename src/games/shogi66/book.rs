//! The placement book: a standard setup, adapted to what remains.
//!
//! Sente's model setup on its back rank (files 6..1): `G K S N R L`: the king castled
//! on the left between gold and silver, the rook on file 2 behind the pawn it will push,
//! knight and lance beside it on the attacking wing. Gote uses the same setup turned half
//! round. The setup is mirrored (king on the right) when our own rook or bishop already
//! stands on the left, or, before that, when the enemy rook stands on our king's wing;
//! once the king is placed the rest is built around it. Pieces go in the order K G S R N L;
//! R is preferred over B. Every answer is one of the position's legal moves.

use super::board::*;

/// Model setup for sente: (kind, file).
const SETUP: [(u8, usize); 7] = [(KING, 5), (GOLD, 6), (SILVER, 4), (ROOK, 2), (BISHOP, 2), (KNIGHT, 3), (LANCE, 1)];
/// Placement priority per kind (higher first).
fn priority(k: u8) -> i32 {
    match k {
        KING => 70,
        GOLD => 60,
        SILVER => 50,
        ROOK => 40,
        BISHOP => 35,
        KNIGHT => 30,
        LANCE => 20,
        _ => 0,
    }
}

pub(super) fn placement(pos: &Position) -> Option<Move> {
    if !pos.placing {
        return None;
    }
    let us = pos.stm;
    let them = 1 - us;
    // Files as seen by the mover (gote's turned half round).
    let rel_file = |s: usize| if us == 0 { 6 - col(s) } else { 1 + col(s) };
    let own_king_file = (0..SQUARES).find(|&s| pos.board[s] == piece(KING, us)).map(rel_file);
    let own_major_file =
        (0..SQUARES).find(|&s| pos.board[s] == piece(ROOK, us) || pos.board[s] == piece(BISHOP, us)).map(rel_file);
    let mirror = if let Some(f) = own_king_file {
        // Keep building around the king where it stands.
        f <= 3
    } else if let Some(f) = own_major_file {
        // The king goes to the wing away from our own rook or bishop.
        f >= 4
    } else {
        // Keep the king off the file of an enemy rook already placed.
        (0..SQUARES).any(|s| pos.board[s] == piece(ROOK, them) && rel_file(s) >= 4)
    };
    let back_rank = if us == 0 { 5 } else { 0 };
    let target = |k: u8| -> Option<usize> {
        let (_, f) = SETUP.iter().copied().find(|&(kk, _)| kk == k)?;
        let f = if mirror { 7 - f } else { f };
        // Gote: turned half round.
        let f = if us == 1 { 7 - f } else { f };
        Some(back_rank * 6 + (6 - f))
    };
    let mut best: Option<(i32, Move)> = None;
    pos.generate(true, &mut |mv: Move| {
        let k = mv.drop_kind();
        let mut score = priority(k) * 100;
        if let Some(t) = target(k) {
            let d = (col(t) as i32 - col(mv.to()) as i32).abs() + (rank(t) as i32 - rank(mv.to()) as i32).abs();
            score -= d * 10;
        }
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, mv));
        }
        false
    });
    best.map(|(_, m)| m)
}
