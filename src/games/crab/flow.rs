//! The flowing column (file 3): how far a piece that stops there can be carried.

use super::cell::{Cells, EMPTY};
use super::square::step;

/// The squares a piece entering the flowing column at `entry` passes going up (`up`) or
/// down, in order, while they are empty. The piece itself is at `entry` (not in `cells`).
pub(crate) fn path(cells: &Cells, entry: usize, up: bool) -> impl Iterator<Item = usize> + '_ {
    let dr = if up { -1 } else { 1 };
    let mut at = entry;
    std::iter::from_fn(move || {
        let next = step(at, 0, dr)?;
        if cells[next] != EMPTY {
            return None;
        }
        at = next;
        Some(next)
    })
}

/// The farthest square reachable from `entry` going up or down (`entry` if blocked).
pub(crate) fn end(cells: &Cells, entry: usize, up: bool) -> usize {
    path(cells, entry, up).last().unwrap_or(entry)
}
