//! Square sets as bitboards (bit `n` set: square `n` is in the set), for the games that
//! keep their pieces in them (Kokesu on `u64`, Number Shogi on `u16`).

/// Iterates over the squares of a set, lowest first.
pub(crate) struct Bits(pub u64);

impl From<u16> for Bits {
    fn from(set: u16) -> Bits {
        Bits(u64::from(set))
    }
}

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(s)
        }
    }
}
