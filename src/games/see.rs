//! The swap-off at the heart of every game's static exchange evaluation; each game
//! finds its own attackers.

/// What the first capture on a square finally wins when both sides keep recapturing
/// there while it pays. `first`: what the first capture takes; `on_square`: the value of
/// the piece that made it; `next_capture`: makes the next recapture (sides alternating,
/// each with its least valuable attacker) and returns the value of the piece that made
/// it, or `None` when the side to recapture has none.
///
/// The exchange is cut off once its sign is settled: use the sign, not the size.
#[inline]
pub(crate) fn swap_off(first: i32, mut on_square: i32, mut next_capture: impl FnMut() -> Option<i32>) -> i32 {
    let mut gain = [0i32; 40];
    gain[0] = first;
    let mut d = 0;
    loop {
        d += 1;
        // What the side to recapture wins by taking the piece on the square.
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d == gain.len() - 1 {
            break;
        }
        match next_capture() {
            Some(value) => on_square = value,
            None => break,
        }
    }
    // gain[d] was never realised: the last capture did not happen.
    d -= 1;
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

#[cfg(test)]
mod tests {
    use super::swap_off;

    #[test]
    fn recaptures_only_while_they_pay() {
        // Nothing recaptures: the first capture keeps its gain.
        assert_eq!(swap_off(100, 900, || None), 100);
        // A queen takes a pawn guarded by a pawn: it is lost.
        let mut guards = vec![100].into_iter();
        assert!(swap_off(100, 900, || guards.next()) < 0);
        // A pawn takes a knight guarded once: still a gain (the size is not exact once
        // the sign is settled).
        let mut guards = vec![300].into_iter();
        assert!(swap_off(300, 100, || guards.next()) > 0);
        // A rook takes a pawn guarded by a rook, a second rook behind it: the guard's
        // recapture would lose its rook, so the pawn is simply won.
        let mut captures = vec![500, 500].into_iter();
        assert_eq!(swap_off(100, 500, || captures.next()), 100);
    }
}
