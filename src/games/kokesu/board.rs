//! Squares, pieces and precomputed attack tables (bitboards on `u64`).
//!
//! Internally a square is `rank * 8 + file` with chess orientation: file 0 = chess a-file
//! (USI file 8), rank 0 = chess rank 1 (USI rank `h`, sente's back rank). Only the notation
//! code in `sfen.rs` knows the USI names.

/// Piece kinds, in value order.
pub(super) const PAWN: usize = 0;
pub(super) const KNIGHT: usize = 1;
pub(super) const BISHOP: usize = 2;
pub(super) const ROOK: usize = 3;
pub(super) const QUEEN: usize = 4;
pub(super) const KING: usize = 5;

/// Mailbox value of an empty square. Otherwise a square holds `color * 6 + kind`.
pub(super) const EMPTY: u8 = 12;

/// How many of each kind a side has in the starting array.
pub(super) const START_COUNT: [u32; 6] = [8, 2, 2, 2, 1, 1];

/// Piece letters (lowercase) by kind.
pub(super) const LETTERS: [u8; 6] = *b"pnbrqk";

pub(super) use crate::games::bitboard::Bits;

pub(super) const fn bit(sq: usize) -> u64 {
    1u64 << sq
}

/// Chess rank 2 / rank 7: the pawns' start ranks (double step).
pub(super) const RANK_2: u64 = 0xff00;
pub(super) const RANK_7: u64 = 0x00ff_0000_0000_0000;
pub(super) const RANK_1: u64 = 0xff;
pub(super) const RANK_8: u64 = 0xff00_0000_0000_0000;
pub(super) const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Direction steps as (file delta, rank delta). Indices 0..4 grow the square number
/// (scan with the lowest set bit), 4..8 shrink it (scan with the highest).
const DIRS: [(i32, i32); 8] = [(0, 1), (1, 1), (1, 0), (-1, 1), (0, -1), (-1, -1), (-1, 0), (1, -1)];
pub(super) const NORTH: usize = 0;
pub(super) const NORTH_EAST: usize = 1;
pub(super) const EAST: usize = 2;
pub(super) const NORTH_WEST: usize = 3;
pub(super) const SOUTH: usize = 4;
pub(super) const SOUTH_WEST: usize = 5;
pub(super) const WEST: usize = 6;
pub(super) const SOUTH_EAST: usize = 7;

const fn leaper_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut i = 0;
        while i < steps.len() {
            let nf = f + steps[i].0;
            let nr = r + steps[i].1;
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1u64 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

const fn ray_table() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let mut f = (sq % 8) as i32 + DIRS[d].0;
            let mut r = (sq / 8) as i32 + DIRS[d].1;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[d][sq] |= 1u64 << (r * 8 + f);
                f += DIRS[d].0;
                r += DIRS[d].1;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `BETWEEN` from the rays: for `b` on the ray from `a` in a direction, the ray's
/// squares before `b` (those from `a` less those from `b` on, `b` itself included).
const fn between_table(rays: &[[u64; 64]; 8]) -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let mut rest = rays[d][a];
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                t[a][b] = rays[d][a] & !(rays[d][b] | bit(b));
                rest &= rest - 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}

pub(super) static KNIGHT_ATTACKS: [u64; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
pub(super) static KING_ATTACKS: [u64; 64] =
    leaper_table(&[(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]);
/// `PAWN_ATTACKS[color][sq]`: the squares a pawn of `color` on `sq` attacks.
pub(super) static PAWN_ATTACKS: [[u64; 64]; 2] = [leaper_table(&[(1, 1), (-1, 1)]), leaper_table(&[(1, -1), (-1, -1)])];
pub(super) static RAYS: [[u64; 64]; 8] = ray_table();
/// `BETWEEN[a][b]`: the squares strictly between two aligned squares, else 0.
pub(super) static BETWEEN: [[u64; 64]; 64] = between_table(&ray_table());

#[inline(always)]
fn ray_up(d: usize, sq: usize, occ: u64) -> u64 {
    let a = RAYS[d][sq];
    let b = a & occ;
    if b != 0 {
        a ^ RAYS[d][b.trailing_zeros() as usize]
    } else {
        a
    }
}

#[inline(always)]
fn ray_down(d: usize, sq: usize, occ: u64) -> u64 {
    let a = RAYS[d][sq];
    let b = a & occ;
    if b != 0 {
        a ^ RAYS[d][63 - b.leading_zeros() as usize]
    } else {
        a
    }
}

#[inline(always)]
pub(super) fn rook_attacks(sq: usize, occ: u64) -> u64 {
    ray_up(NORTH, sq, occ) | ray_up(EAST, sq, occ) | ray_down(SOUTH, sq, occ) | ray_down(WEST, sq, occ)
}

#[inline(always)]
pub(super) fn bishop_attacks(sq: usize, occ: u64) -> u64 {
    ray_up(NORTH_EAST, sq, occ)
        | ray_up(NORTH_WEST, sq, occ)
        | ray_down(SOUTH_WEST, sq, occ)
        | ray_down(SOUTH_EAST, sq, occ)
}

/// Rook directions on an empty board.
#[inline(always)]
pub(super) fn rook_rays(sq: usize) -> u64 {
    RAYS[NORTH][sq] | RAYS[EAST][sq] | RAYS[SOUTH][sq] | RAYS[WEST][sq]
}

/// Bishop directions on an empty board.
#[inline(always)]
pub(super) fn bishop_rays(sq: usize) -> u64 {
    RAYS[NORTH_EAST][sq] | RAYS[NORTH_WEST][sq] | RAYS[SOUTH_WEST][sq] | RAYS[SOUTH_EAST][sq]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        assert_eq!(KNIGHT_ATTACKS[0].count_ones(), 2);
        assert_eq!(KING_ATTACKS[27].count_ones(), 8);
        assert_eq!(rook_attacks(0, 0).count_ones(), 14);
        assert_eq!(bishop_attacks(27, 0).count_ones(), 13);
        assert_eq!(BETWEEN[0][63].count_ones(), 6);
        assert_eq!(BETWEEN[0][10], 0);
        assert_eq!(PAWN_ATTACKS[0][8], bit(17));
        assert_eq!(PAWN_ATTACKS[1][15], bit(6));
    }
}
