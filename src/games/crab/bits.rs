//! Sets of crab-board squares as 25-bit masks (bit `sq`), for an evaluation that counts
//! landing squares and threats many times a node: a slide along a rank is one table
//! look-up, a diagonal step one mask, a sandwich threat a few shifts.

use super::cell::{self, Cells};
use super::square::DIAGONAL;
use crate::game::Color;

/// Every square.
pub(crate) const ALL: u32 = (1 << 25) - 1;
/// Column index 0 (file 1) and 4 (file 5).
const COL_0: u32 = 0b00001_00001_00001_00001_00001;
const COL_4: u32 = COL_0 << 4;
/// Rank a and rank e.
const ROW_A: u32 = 0b11111;
const ROW_E: u32 = ROW_A << 20;

/// The pieces of each side (by `Color::index`) and the promoted ones of both.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Occupancy {
    pub(crate) sides: [u32; 2],
    pub(crate) promoted: u32,
}

impl Occupancy {
    pub(crate) fn new(cells: &Cells) -> Occupancy {
        let mut b = Occupancy { sides: [0; 2], promoted: 0 };
        for (sq, &c) in cells.iter().enumerate() {
            if let Some(color) = cell::color(c) {
                b.sides[color.index()] |= 1 << sq;
                if cell::promoted(c) {
                    b.promoted |= 1 << sq;
                }
            }
        }
        b
    }

    pub(crate) fn occupied(&self) -> u32 {
        self.sides[0] | self.sides[1]
    }

    pub(crate) fn of(&self, c: Color) -> u32 {
        self.sides[c.index()]
    }
}

/// `SLIDES[row][col]`: the empty squares (bits 0-4 of a rank) a slide from column `col`
/// reaches, both ways without jumping, when the rank's occupied columns are `row`.
const SLIDES: [[u8; 5]; 32] = {
    let mut t = [[0u8; 5]; 32];
    let mut row = 0;
    while row < 32 {
        let mut col = 0;
        while col < 5 {
            let mut m = 0u8;
            let mut x = col + 1;
            while x < 5 && row & (1 << x) == 0 {
                m |= 1 << x;
                x += 1;
            }
            let mut x = col;
            while x > 0 && row & (1 << (x - 1)) == 0 {
                m |= 1 << (x - 1);
                x -= 1;
            }
            t[row][col] = m;
            col += 1;
        }
        row += 1;
    }
    t
};

/// `DIAGONALS[sq]`: the squares one diagonal step from `sq`.
const DIAGONALS: [u32; 25] = {
    let mut t = [0u32; 25];
    let mut sq = 0;
    while sq < 25 {
        let (c, r) = ((sq % 5) as i32, (sq / 5) as i32);
        let mut m = 0u32;
        let mut i = 0;
        while i < DIAGONAL.len() {
            let (nc, nr) = (c + DIAGONAL[i].0, r + DIAGONAL[i].1);
            if nc >= 0 && nc < 5 && nr >= 0 && nr < 5 {
                m |= 1 << (nr * 5 + nc);
            }
            i += 1;
        }
        t[sq] = m;
        sq += 1;
    }
    t
};

/// The empty squares a slide from `sq` along its rank reaches (as `turn::slides`).
#[inline(always)]
pub(crate) fn slides(occupied: u32, sq: usize) -> u32 {
    let shift = 5 * (sq / 5);
    (SLIDES[((occupied >> shift) & 31) as usize][sq % 5] as u32) << shift
}

/// The empty squares one diagonal step from `sq` (as `turn::diagonal_steps`).
#[inline(always)]
pub(crate) fn diagonal_steps(occupied: u32, sq: usize) -> u32 {
    DIAGONALS[sq] & !occupied
}

/// Whether the rank of `sq` is empty from `sq` to the edge towards higher files
/// (`towards_file_5`) or lower ones.
#[inline(always)]
pub(crate) fn clear_run(occupied: u32, sq: usize, towards_file_5: bool) -> bool {
    let shift = 5 * (sq / 5);
    let row = (occupied >> shift) & 31;
    let col = sq % 5;
    let beyond = if towards_file_5 { (31 << (col + 1)) & 31 } else { (1 << col) - 1 };
    row & beyond == 0
}

/// The pieces of `enemy` with a piece of `own` next to them on one side and an empty
/// square on the other, along a rank or a file: one more piece would sandwich them.
#[inline(always)]
pub(crate) fn sandwich_threats(own: u32, enemy: u32, empty: u32) -> u32 {
    let across = ((own >> 1) & (empty << 1)) | ((own << 1) & (empty >> 1));
    let along = ((own >> 5) & (empty << 5)) | ((own << 5) & (empty >> 5));
    enemy & ((across & !COL_0 & !COL_4) | (along & !ROW_A & !ROW_E)) & ALL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::crab::capture::squares;
    use crate::games::crab::cell::EMPTY;
    use crate::games::crab::square::step;
    use crate::games::crab::turn::{self, Squares};

    fn mask(s: &Squares) -> u32 {
        s.iter().fold(0, |m, sq| m | 1 << sq)
    }

    /// Every occupancy of every rank (and so of the board, one rank at a time) gives the
    /// same slides, diagonal steps and clear runs as the square-by-square code.
    #[test]
    fn masks_agree_with_the_square_walks() {
        let piece = cell::make(Color::Sente, 1, false);
        for pattern in 0u32..1 << 10 {
            // Two ranks at a time, placed at every pair of neighbouring ranks.
            for top in 0..4 {
                let occupied = pattern << (5 * top);
                let mut cells = [EMPTY; 25];
                for sq in squares(occupied) {
                    cells[sq] = piece;
                }
                for sq in 0..25 {
                    let mut s = Squares::default();
                    turn::slides(&cells, sq, &mut s);
                    assert_eq!(slides(occupied, sq), mask(&s), "slides {occupied:025b} {sq}");
                    let mut d = Squares::default();
                    turn::diagonal_steps(&cells, sq, &mut d);
                    assert_eq!(diagonal_steps(occupied, sq), mask(&d), "diagonal {occupied:025b} {sq}");
                    for (towards, df) in [(true, 1), (false, -1)] {
                        let mut at = sq;
                        let mut clear = true;
                        while let Some(n) = step(at, df, 0) {
                            clear &= cells[n] == EMPTY;
                            at = n;
                        }
                        assert_eq!(clear_run(occupied, sq, towards), clear, "run {occupied:025b} {sq} {towards}");
                    }
                }
            }
        }
    }

    /// The threats of a few hand-placed boards, edges included.
    #[test]
    fn sandwich_threats_need_an_own_piece_and_an_empty_square_in_line() {
        let bit = |f: usize, r: usize| 1u32 << crate::games::crab::square::square(f, r);
        // An enemy on 3c between an own piece on 4c and an empty 2c: threatened.
        let (own, enemy) = (bit(4, 2), bit(3, 2));
        assert_eq!(sandwich_threats(own, enemy, ALL & !(own | enemy)), enemy);
        // Between two own pieces: no empty square left, not a threat (it is caught).
        let own2 = own | bit(2, 2);
        assert_eq!(sandwich_threats(own2, enemy, ALL & !(own2 | enemy)), 0);
        // On the edge file 1 with an own piece on 2c: no square beyond, no threat.
        let (own, enemy) = (bit(2, 2), bit(1, 2));
        assert_eq!(sandwich_threats(own, enemy, ALL & !(own | enemy)), 0);
        // On rank a with an own piece below it: no threat along the file.
        let (own, enemy) = (bit(3, 1), bit(3, 0));
        assert_eq!(sandwich_threats(own, enemy, ALL & !(own | enemy)), 0);
        // On rank b with an own piece on rank c below it and rank a empty: threatened.
        let (own, enemy) = (bit(3, 2), bit(3, 1));
        assert_eq!(sandwich_threats(own, enemy, ALL & !(own | enemy)), enemy);
        // No wrap from one rank to the next: file 5 of rank b and file 1 of rank c are
        // neighbours as bits, not as squares.
        let (own, enemy) = (bit(1, 2), bit(5, 1));
        assert_eq!(sandwich_threats(own, enemy, ALL & !(own | enemy)), 0);
    }
}
