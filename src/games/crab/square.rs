//! The 5x5 crab board: squares, their names and the steps between them.
//!
//! A square is `rank * 5 + (file - 1)`: file 1 is the rightmost column, rank `a` the
//! top row (rules.md §0). File 3 (column index 2) is the flowing column: the river of
//! Kani Shogi, the current of Kani Nari Ebi.

use crate::game::Color;

/// Number of squares.
pub(crate) const SQUARES: usize = 25;
/// Column index (file - 1) of the flowing column, file 3.
pub(crate) const FLOW_COL: usize = 2;

/// The square of `file` (1..=5) and `rank` (0 = a .. 4 = e).
pub(crate) const fn square(file: usize, rank: usize) -> usize {
    rank * 5 + (file - 1)
}

/// File number 1..=5.
pub(crate) const fn file_of(sq: usize) -> usize {
    sq % 5 + 1
}

/// Rank index 0 (a) ..= 4 (e).
pub(crate) const fn rank_of(sq: usize) -> usize {
    sq / 5
}

/// Whether the square lies in the flowing column (file 3).
pub(crate) const fn in_flow(sq: usize) -> bool {
    sq % 5 == FLOW_COL
}

/// Whether the square lies on the board's edge.
pub(crate) const fn on_edge(sq: usize) -> bool {
    let (c, r) = (sq % 5, sq / 5);
    c == 0 || c == 4 || r == 0 || r == 4
}

/// File of a side's home column: black (sente) file 5, red (gote) file 1.
pub(crate) const fn home_file(color: Color) -> usize {
    match color {
        Color::Sente => 5,
        Color::Gote => 1,
    }
}

/// File of the enemy home column, where a side's pieces promote (grow).
pub(crate) const fn enemy_home_file(color: Color) -> usize {
    match color {
        Color::Sente => 1,
        Color::Gote => 5,
    }
}

/// The square one step away by (`dfile`, `drank`), if it is on the board.
#[inline]
pub(crate) fn step(sq: usize, dfile: i32, drank: i32) -> Option<usize> {
    let f = file_of(sq) as i32 + dfile;
    let r = rank_of(sq) as i32 + drank;
    if (1..=5).contains(&f) && (0..5).contains(&r) {
        Some(square(f as usize, r as usize))
    } else {
        None
    }
}

/// The four orthogonal directions as (dfile, drank).
pub(crate) const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, -1), (0, 1)];
/// The four diagonal directions as (dfile, drank).
pub(crate) const DIAGONAL: [(i32, i32); 4] = [(1, -1), (-1, -1), (1, 1), (-1, 1)];

/// The name of a square, e.g. `5d`.
pub(crate) fn name(sq: usize) -> [char; 2] {
    let f = char::from(b'0' + file_of(sq) as u8);
    let r = char::from(b'a' + rank_of(sq) as u8);
    [f, r]
}

/// Appends the name of a square to `out`.
pub(crate) fn push_name(out: &mut String, sq: usize) {
    let [f, r] = name(sq);
    out.push(f);
    out.push(r);
}

/// Reads a square name (`5d`) from two bytes.
pub(crate) fn parse(b: &[u8]) -> Option<usize> {
    if b.len() != 2 {
        return None;
    }
    let f = b[0].checked_sub(b'0')? as usize;
    let r = b[1].checked_sub(b'a')? as usize;
    if (1..=5).contains(&f) && r < 5 {
        Some(square(f, r))
    } else {
        None
    }
}
