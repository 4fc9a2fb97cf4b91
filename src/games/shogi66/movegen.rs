//! Legal move generation and making moves.
//!
//! Generation calls a sink per legal move; the sink returns `true` to stop early (used
//! for "has any legal move" in the pawn-drop-mate test). Nothing here allocates.

use super::board::*;
use super::zobrist::KEYS;

/// Which legal moves [`Position::generate_some`] makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Gen {
    All,
    /// Captures and promotions (`eval::is_tactical`).
    Tactical,
    /// Board moves that neither capture nor promote, and drops (all of the placement
    /// phase's moves).
    Quiet,
}

impl Position {
    /// Calls `sink` with every legal move; returns `true` if the sink stopped the walk.
    /// `pawn_drop_mate_check` is false only for the reply test inside that check itself.
    pub fn generate<F: FnMut(Move) -> bool>(&self, pawn_drop_mate_check: bool, sink: &mut F) -> bool {
        self.generate_some(pawn_drop_mate_check, Gen::All, sink)
    }

    /// Like [`Position::generate`], but only the legal moves of `which`: the stages of the
    /// search's move picker (captures and promotions, then the quiet moves), which
    /// together are the legal moves, each once.
    pub fn generate_some<F: FnMut(Move) -> bool>(&self, pawn_drop_mate_check: bool, which: Gen, sink: &mut F) -> bool {
        let us = self.stm;
        if self.placing {
            // Placement drops are neither tactical nor board moves.
            return which != Gen::Tactical && self.generate_placement(sink);
        }
        let them = 1 - us;
        let ksq = self.king[us] as usize;
        if ksq >= SQUARES {
            return false; // not a playable position (from_sfen rejects it)
        }
        let in_check = Position::attacked_on(&self.board, ksq, them);
        let own = self.occ[us];
        let tactical_only = which == Gen::Tactical;
        let quiet_only = which == Gen::Quiet;

        // Board moves.
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let p = self.board[from];
            let k = kind(p);
            let mut tg = self.targets(from, p) & !own;
            let promotes = can_promote(k) && (in_zone(us, from) || tg & zone_mask(us) != 0);
            if tactical_only && !promotes {
                tg &= self.occ[them];
            }
            if quiet_only {
                tg &= !self.occ[them];
            }
            if k == KING {
                while tg != 0 {
                    let to = tg.trailing_zeros() as usize;
                    tg &= tg - 1;
                    let mut b = self.board;
                    b[from] = 0;
                    b[to] = p;
                    if !Position::attacked_on(&b, to, them) && sink(Move::board(from, to, false)) {
                        return true;
                    }
                }
                continue;
            }
            let needs_test = in_check || aligned(ksq, from);
            while tg != 0 {
                let to = tg.trailing_zeros() as usize;
                tg &= tg - 1;
                if needs_test {
                    let mut b = self.board;
                    b[from] = 0;
                    b[to] = p;
                    if Position::attacked_on(&b, ksq, them) {
                        continue;
                    }
                }
                // Under `tactical_only` a quiet move is only looked at for its promotion;
                // under `quiet_only` every move here is quiet, and only its plain form is.
                let quiet = tactical_only && self.board[to] == 0;
                if can_promote(k) && (in_zone(us, from) || in_zone(us, to)) {
                    if !quiet && !dead_square(k, us, to) && sink(Move::board(from, to, false)) {
                        return true;
                    }
                    if !quiet_only && sink(Move::board(from, to, true)) {
                        return true;
                    }
                } else if !quiet && sink(Move::board(from, to, false)) {
                    return true;
                }
            }
        }

        // Drops.
        let hand = &self.hand[us];
        if tactical_only || hand[1..8].iter().all(|&n| n == 0) {
            return false;
        }
        let empty = ALL & !(self.occ[0] | self.occ[1]);
        // Files (cols) holding an unpromoted pawn of ours.
        let mut pawn_cols = 0u8;
        let mut ps = own;
        while ps != 0 {
            let s = ps.trailing_zeros() as usize;
            ps &= ps - 1;
            if kind(self.board[s]) == PAWN {
                pawn_cols |= 1 << col(s);
            }
        }
        let eksq = self.king[them] as usize;
        let pawn_check_sq: i32 = if us == 0 { eksq as i32 + 6 } else { eksq as i32 - 6 };
        let mut e = empty;
        while e != 0 {
            let to = e.trailing_zeros() as usize;
            e &= e - 1;
            if in_check {
                let mut b = self.board;
                b[to] = piece(GOLD, us); // any piece blocks the same
                if Position::attacked_on(&b, ksq, them) {
                    continue;
                }
            }
            for k in [ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN] {
                if hand[k as usize] == 0 || dead_square(k, us, to) {
                    continue;
                }
                if k == PAWN {
                    if pawn_cols & (1 << col(to)) != 0 {
                        continue;
                    }
                    if to as i32 == pawn_check_sq && pawn_drop_mate_check && self.drop_mates(Move::drop(PAWN, to)) {
                        continue;
                    }
                }
                if sink(Move::drop(k, to)) {
                    return true;
                }
            }
        }
        false
    }

    fn generate_placement<F: FnMut(Move) -> bool>(&self, sink: &mut F) -> bool {
        let us = self.stm;
        let empty = CAMP[us] & !(self.occ[0] | self.occ[1]);
        for k in [KING, ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE] {
            if self.hand[us][k as usize] == 0 {
                continue;
            }
            let mut e = empty;
            while e != 0 {
                let to = e.trailing_zeros() as usize;
                e &= e - 1;
                if sink(Move::drop(k, to)) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `mv` is one of the legal moves here (any `Move` value, such as a killer
    /// from another position, may be asked about): the search's picker tries the table
    /// move and the killers before it generates the moves they are among.
    pub fn is_legal(&self, mv: Move) -> bool {
        let us = self.stm;
        let to = mv.to();
        if to >= SQUARES || mv.0 >> 13 != 0 {
            return false;
        }
        if self.placing {
            return mv.is_drop() && self.generate(true, &mut |m| m == mv);
        }
        let them = 1 - us;
        let ksq = self.king[us] as usize;
        if ksq >= SQUARES {
            return false;
        }
        let mut b = self.board;
        if mv.is_drop() {
            let k = mv.drop_kind();
            if b[to] != 0 || mv.is_promotion() || !(PAWN..=ROOK).contains(&k) || self.hand[us][k as usize] == 0 {
                return false;
            }
            if dead_square(k, us, to) {
                return false;
            }
            if k == PAWN {
                if (0..6).any(|r| self.board[r * 6 + col(to)] == piece(PAWN, us)) {
                    return false;
                }
                let eksq = self.king[them] as i32;
                let check_sq = if us == 0 { eksq + 6 } else { eksq - 6 };
                if to as i32 == check_sq && self.drop_mates(mv) {
                    return false;
                }
            }
            b[to] = piece(k, us);
            return !Position::attacked_on(&b, ksq, them);
        }
        let from = mv.from();
        let p = self.board[from];
        if p == 0 || color_index(p) != us || self.occ[us] & (1u64 << to) != 0 {
            return false;
        }
        if self.targets(from, p) & (1u64 << to) == 0 {
            return false;
        }
        let k = kind(p);
        if mv.is_promotion() {
            if !can_promote(k) || !(in_zone(us, from) || in_zone(us, to)) {
                return false;
            }
        } else if can_promote(k) && dead_square(k, us, to) {
            return false;
        }
        b[from] = 0;
        b[to] = p;
        !Position::attacked_on(&b, if k == KING { to } else { ksq }, them)
    }

    /// Whether the legal move `mv` checks the opponent's king, without making it: the
    /// moved piece attacks the king from its new square, or it uncovers a slider of ours.
    pub fn gives_check(&self, mv: Move) -> bool {
        let us = self.stm;
        let eksq = self.king[1 - us] as usize;
        if self.placing || eksq >= SQUARES {
            return false;
        }
        let to = mv.to();
        let (from, p) = if mv.is_drop() {
            (None, piece(mv.drop_kind(), us))
        } else {
            let p = self.board[mv.from()];
            (Some(mv.from()), if mv.is_promotion() { piece(promote(kind(p)), us) } else { p })
        };
        let mut occ = (self.occ[0] | self.occ[1]) | (1u64 << to);
        if let Some(f) = from {
            occ &= !(1u64 << f);
        }
        // Direct: a step (or knight's jump), or a slide along an empty line.
        if STEP_TARGETS[p as usize][to] & (1u64 << eksq) != 0 {
            return true;
        }
        if let Some(d) = direction(to, eksq) {
            if SLIDE[p as usize] & (1 << d) != 0 && first_on_ray(occ, eksq, opposite(d)) == Some(to) {
                return true;
            }
        }
        // Discovered: the first piece behind the vacated square, seen from the king,
        // is a slider of ours moving towards the king.
        if let Some(f) = from {
            if let Some(d) = direction(eksq, f) {
                if let Some(s) = first_on_ray(occ, eksq, d) {
                    if s != to {
                        let q = self.board[s];
                        return color_index(q) == us && SLIDE[q as usize] & (1 << opposite(d)) != 0;
                    }
                }
            }
        }
        false
    }

    /// Whether the (pseudo-legal, checking) drop leaves the opponent without a legal move.
    pub fn drop_mates(&self, mv: Move) -> bool {
        let mut child = *self;
        child.make(mv);
        !child.generate(false, &mut |_| true)
    }

    #[inline]
    fn set_hand(&mut self, c: usize, k: u8, n: u8) {
        let old = self.hand[c][k as usize] as usize;
        self.key ^= KEYS.hand[c][k as usize][old] ^ KEYS.hand[c][k as usize][n as usize];
        self.hand[c][k as usize] = n;
    }

    /// Plays a move produced by [`Position::generate`].
    pub fn make(&mut self, mv: Move) {
        let us = self.stm;
        let to = mv.to();
        if mv.is_drop() {
            let k = mv.drop_kind();
            let n = self.hand[us][k as usize];
            self.set_hand(us, k, n.saturating_sub(1));
            let p = piece(k, us);
            self.put(to, p);
            self.key ^= KEYS.piece[p as usize][to];
            if self.placing {
                if k == ROOK {
                    self.set_hand(us, BISHOP, 0);
                } else if k == BISHOP {
                    self.set_hand(us, ROOK, 0);
                }
                let empty = |h: &[u8; 9]| h.iter().all(|&n| n == 0);
                if empty(&self.hand[0]) && empty(&self.hand[1]) {
                    self.placing = false;
                    self.key ^= KEYS.placing;
                }
            }
        } else {
            let from = mv.from();
            let p = self.board[from];
            let cap = self.board[to];
            if cap != 0 {
                let ck = unpromote(kind(cap));
                let n = self.hand[us][ck as usize];
                self.set_hand(us, ck, n + 1);
                self.key ^= KEYS.piece[cap as usize][to];
                self.occ[1 - us] &= !(1u64 << to);
            }
            self.key ^= KEYS.piece[p as usize][from];
            self.board[from] = 0;
            self.occ[us] &= !(1u64 << from);
            let np = if mv.is_promotion() { piece(promote(kind(p)), us) } else { p };
            self.put(to, np);
            self.key ^= KEYS.piece[np as usize][to];
        }
        self.stm = 1 - us;
        self.key ^= KEYS.side;
        self.ply = self.ply.saturating_add(1);
    }

    /// The key computed from scratch (for set-up and tests).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0u64;
        for (sq, &p) in self.board.iter().enumerate() {
            if p != 0 {
                k ^= KEYS.piece[p as usize][sq];
            }
        }
        for c in 0..2 {
            for h in 1..9 {
                k ^= KEYS.hand[c][h][self.hand[c][h] as usize];
            }
        }
        if self.stm == 1 {
            k ^= KEYS.side;
        }
        if self.placing {
            k ^= KEYS.placing;
        }
        k
    }
}

/// The direction (an index of `DIRS`) from `a` towards `b` along a rank, file or
/// diagonal; `None` if they are not aligned or the same square.
fn direction(a: usize, b: usize) -> Option<usize> {
    let dc = (col(b) as i32 - col(a) as i32).signum();
    let dr = (rank(b) as i32 - rank(a) as i32).signum();
    if a == b || !aligned(a, b) {
        return None;
    }
    DIRS.iter().position(|&d| d == (dc, dr))
}

/// The first occupied square of `occ` from `sq` (not counted) in direction `d`.
fn first_on_ray(occ: u64, sq: usize, d: usize) -> Option<usize> {
    let mut a = NB[sq][d];
    while a >= 0 {
        if occ & (1u64 << a) != 0 {
            return Some(a as usize);
        }
        a = NB[a as usize][d];
    }
    None
}
