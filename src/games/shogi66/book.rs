//! The placement book: a standard setup, adapted to what remains.
//!
//! Sente's model setup on its back rank (files 6..1): `G K S N R L`: the king castled
//! on the left between gold and silver, the rook on file 2 behind the pawn it will push,
//! knight and lance beside it on the attacking wing. Gote uses the same setup turned half
//! round. If the opponent has already placed its rook or bishop on our king's wing, the
//! setup is mirrored so the king stands away from it. Pieces go in the order K G S R N L;
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

pub fn placement(pos: &Position) -> Option<Move> {
    if !pos.placing {
        return None;
    }
    let us = pos.stm;
    let them = 1 - us;
    // Mirror when the enemy rook or bishop sits on files 4..6 (our king's wing),
    // unless our king is already placed (then keep building around it).
    // Files as seen by the mover (gote's turned half round).
    let rel_file = |s: usize| if us == 0 { 6 - col(s) } else { 1 + col(s) };
    let own_king_file = (0..SQUARES).find(|&s| pos.board[s] == piece(KING, us)).map(rel_file);
    let mut mirror = false;
    if let Some(f) = own_king_file {
        mirror = f <= 3;
    } else {
        for s in 0..SQUARES {
            let p = pos.board[s];
            if p != 0 && color_index(p) == them && matches!(kind(p), ROOK | BISHOP) {
                mirror = rel_file(s) >= 4;
            }
        }
    }
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
        if best.map_or(true, |(b, _)| score > b) {
            best = Some((score, mv));
        }
        false
    });
    best.map(|(_, m)| m)
}
