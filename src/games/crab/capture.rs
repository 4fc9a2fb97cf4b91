//! Sandwich captures and orthogonally connected groups (bit masks of squares).

use super::cell::{self, Cells, EMPTY};
use super::square::{step, ORTHOGONAL};
use crate::game::Color;

/// The enemy pieces sandwiched by a piece of `mover` that stands on `at`: in each of
/// the four orthogonal directions, a contiguous run of enemy pieces closed at its far end
/// by a piece of `mover`. Edges close nothing.
pub(crate) fn sandwich(cells: &Cells, at: usize, mover: Color) -> u32 {
    let enemy = mover.flip();
    let mut caught = 0u32;
    for &(df, dr) in &ORTHOGONAL {
        let mut run = 0u32;
        let mut sq = at;
        while let Some(next) = step(sq, df, dr) {
            sq = next;
            let c = cells[sq];
            if cell::is(c, enemy) {
                run |= 1 << sq;
            } else {
                if cell::is(c, mover) {
                    caught |= run;
                }
                break;
            }
        }
    }
    caught
}

/// The orthogonally connected group of squares satisfying `member` that contains `from`
/// (empty if `from` itself does not satisfy it).
pub(crate) fn group(cells: &Cells, from: usize, member: impl Fn(u8) -> bool) -> u32 {
    if !member(cells[from]) {
        return 0;
    }
    let mut seen = 1u32 << from;
    let mut stack = [0u8; 25];
    let mut top = 1;
    stack[0] = from as u8;
    while top > 0 {
        top -= 1;
        let sq = stack[top] as usize;
        for &(df, dr) in &ORTHOGONAL {
            if let Some(n) = step(sq, df, dr) {
                if seen & (1 << n) == 0 && member(cells[n]) {
                    seen |= 1 << n;
                    stack[top] = n as u8;
                    top += 1;
                }
            }
        }
    }
    seen
}

/// Empties every square of `mask`.
pub(crate) fn remove(cells: &mut Cells, mask: u32) {
    let mut m = mask;
    while m != 0 {
        let sq = m.trailing_zeros() as usize;
        cells[sq] = EMPTY;
        m &= m - 1;
    }
}

/// The squares of a mask, lowest first.
pub(crate) fn squares(mask: u32) -> impl Iterator<Item = usize> {
    let mut m = mask;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(sq)
        }
    })
}
