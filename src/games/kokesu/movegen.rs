//! Legal move generation (pins and check masks, no make/unmake test) and making moves.

use super::board::*;
use super::zobrist;
use super::{Kokesu, PromotionRule};

/// A move: from square, to square and the promotion kind (0 = none; kinds 1..=4 are
/// N B R Q). Squares use the internal numbering of `board.rs`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct KMove(pub(super) u16);

impl KMove {
    #[inline(always)]
    pub const fn new(from: usize, to: usize, promo: usize) -> KMove {
        KMove((from | (to << 6) | (promo << 12)) as u16)
    }
    #[inline(always)]
    pub const fn from(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline(always)]
    pub const fn to(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }
    /// The promotion kind, 0 when the move does not promote.
    #[inline(always)]
    pub const fn promo(self) -> usize {
        (self.0 >> 12) as usize
    }
}

/// The promotion kinds a side may choose, as a bit set over kinds (bit k = kind k).
#[inline]
pub(super) fn promotion_choices(pos: &Kokesu, color: usize) -> u32 {
    match pos.rules.promotion {
        PromotionRule::Free => (1 << KNIGHT) | (1 << BISHOP) | (1 << ROOK) | (1 << QUEEN),
        PromotionRule::Captured => {
            let own = pos.colors[color];
            let mut set = 0;
            for (kind, &start) in START_COUNT.iter().enumerate().take(QUEEN + 1).skip(KNIGHT) {
                if (pos.pieces[kind] & own).count_ones() < start {
                    set |= 1 << kind;
                }
            }
            set
        }
    }
}

impl Kokesu {
    /// The pieces of `by` that attack `sq`, given occupancy `occ`.
    #[inline(always)]
    pub(super) fn attackers(&self, sq: usize, by: usize, occ: u64) -> u64 {
        let p = &self.pieces;
        let them = self.colors[by];
        ((KNIGHT_ATTACKS[sq] & p[KNIGHT])
            | (KING_ATTACKS[sq] & p[KING])
            | (PAWN_ATTACKS[by ^ 1][sq] & p[PAWN])
            | (bishop_attacks(sq, occ) & (p[BISHOP] | p[QUEEN]))
            | (rook_attacks(sq, occ) & (p[ROOK] | p[QUEEN])))
            & them
    }

    #[inline(always)]
    pub(super) fn king_square(&self, color: usize) -> usize {
        (self.pieces[KING] & self.colors[color]).trailing_zeros() as usize & 63
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub(super) fn checkers(&self) -> u64 {
        let us = self.side;
        self.attackers(self.king_square(us), us ^ 1, self.colors[0] | self.colors[1])
    }

    /// Where the piece on `sq` (of the side to move) could go if its king were not
    /// considered: its attacks onto non-own squares plus pawn pushes.
    pub(super) fn pseudo_targets(&self, sq: usize) -> u64 {
        let piece = self.board[sq];
        if piece == EMPTY {
            return 0;
        }
        let color = piece as usize / 6;
        let kind = piece as usize % 6;
        let own = self.colors[color];
        let opp = self.colors[color ^ 1];
        let occ = own | opp;
        let t = match kind {
            PAWN => {
                let (single, double) = pawn_pushes(sq, color, occ);
                single | double | (PAWN_ATTACKS[color][sq] & opp)
            }
            KNIGHT => KNIGHT_ATTACKS[sq],
            BISHOP => bishop_attacks(sq, occ),
            ROOK => rook_attacks(sq, occ),
            QUEEN => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
            _ => KING_ATTACKS[sq],
        };
        t & !own
    }

    /// Appends every legal move. Never allocates beyond `out`'s growth.
    pub(super) fn generate(&self, out: &mut Vec<KMove>) {
        self.generate_some(out, false)
    }

    /// Like [`Kokesu::generate`], but with `tactical_only` only captures and promotions
    /// (the moves the quiescence search looks at).
    pub(super) fn generate_some(&self, out: &mut Vec<KMove>, tactical_only: bool) {
        let us = self.side;
        let them = us ^ 1;
        let own = self.colors[us];
        let opp = self.colors[them];
        let occ = own | opp;
        let ksq = self.king_square(us);
        if self.pieces[KING] & own == 0 {
            return;
        }

        // King moves: the king itself is removed so it cannot hide behind itself.
        let occ_no_king = occ ^ bit(ksq);
        let king_targets = if tactical_only { opp } else { !own };
        for to in Bits(KING_ATTACKS[ksq] & king_targets) {
            if self.attackers(to, them, occ_no_king) == 0 {
                out.push(KMove::new(ksq, to, 0));
            }
        }

        let checkers = self.attackers(ksq, them, occ);
        if checkers.count_ones() > 1 {
            return;
        }
        let mut target = if checkers != 0 { BETWEEN[ksq][checkers.trailing_zeros() as usize] | checkers } else { !own };
        let choices = promotion_choices(self, us);
        let last_rank = if us == 0 { RANK_8 } else { RANK_1 };
        // Tactical: captures, and pawn pushes onto the last rank with a type to become.
        let mut push_mask = !0u64;
        if tactical_only {
            target &= opp;
            push_mask = if choices != 0 { last_rank } else { 0 };
        }

        // Pins: enemy sliders on a line with the king and exactly one piece between.
        let p = &self.pieces;
        let snipers = ((rook_rays(ksq) & (p[ROOK] | p[QUEEN])) | (bishop_rays(ksq) & (p[BISHOP] | p[QUEEN]))) & opp;
        let mut pinned = 0u64;
        let mut pin_rays = [(0usize, 0u64); 8];
        let mut npins = 0;
        for s in Bits(snipers) {
            let between = BETWEEN[ksq][s];
            let blockers = between & occ;
            if blockers.count_ones() == 1 && blockers & own != 0 {
                pinned |= blockers;
                if npins < 8 {
                    pin_rays[npins] = (blockers.trailing_zeros() as usize, between | bit(s));
                    npins += 1;
                }
            }
        }
        let pin_mask = |sq: usize| -> u64 {
            let mut m = !0u64;
            for &(psq, ray) in &pin_rays[..npins] {
                if psq == sq {
                    m = ray;
                }
            }
            m
        };

        // Pawns.
        let check_block = if checkers != 0 { BETWEEN[ksq][checkers.trailing_zeros() as usize] } else { !0 };
        for from in Bits(p[PAWN] & own) {
            let mut mask = target;
            let mut pin = !0u64;
            if pinned & bit(from) != 0 {
                if checkers != 0 {
                    continue;
                }
                pin = pin_mask(from);
                mask &= pin;
            }
            let (single, double) = pawn_pushes(from, us, occ);
            let pushes = if tactical_only { single & push_mask & pin & check_block } else { (single | double) & mask };
            let dests = pushes | (PAWN_ATTACKS[us][from] & opp & mask);
            for to in Bits(dests) {
                if bit(to) & last_rank != 0 && choices != 0 {
                    for kind in KNIGHT..=QUEEN {
                        if choices & (1 << kind) != 0 {
                            out.push(KMove::new(from, to, kind));
                        }
                    }
                } else {
                    out.push(KMove::new(from, to, 0));
                }
            }
        }

        // Knights (a pinned knight never moves).
        for from in Bits(p[KNIGHT] & own & !pinned) {
            for to in Bits(KNIGHT_ATTACKS[from] & target) {
                out.push(KMove::new(from, to, 0));
            }
        }

        // Sliders: the diagonal ones (bishops, queens), then the orthogonal ones.
        let sliders =
            [(p[BISHOP] | p[QUEEN], bishop_attacks as fn(usize, u64) -> u64), (p[ROOK] | p[QUEEN], rook_attacks)];
        for (kinds, attacks) in sliders {
            for from in Bits(kinds & own) {
                let mut mask = target;
                if pinned & bit(from) != 0 {
                    if checkers != 0 {
                        continue;
                    }
                    mask &= pin_mask(from);
                }
                for to in Bits(attacks(from, occ) & mask) {
                    out.push(KMove::new(from, to, 0));
                }
            }
        }
    }

    /// Makes a legal move, updating the key incrementally.
    pub(super) fn make(&mut self, mv: KMove) {
        let from = mv.from();
        let to = mv.to();
        let us = self.side;
        let piece = self.board[from];
        if piece == EMPTY {
            return;
        }
        let kind = piece as usize % 6;
        let captured = self.board[to];
        let mut key = self.key;
        if captured != EMPTY {
            let ck = captured as usize % 6;
            let cc = captured as usize / 6;
            self.pieces[ck] ^= bit(to);
            self.colors[cc] ^= bit(to);
            key ^= zobrist::PIECE_SQUARE[captured as usize][to];
        }
        let new_kind = if mv.promo() != 0 { mv.promo() } else { kind };
        let new_piece = (us * 6 + new_kind) as u8;
        self.pieces[kind] ^= bit(from);
        self.pieces[new_kind] ^= bit(to);
        self.colors[us] ^= bit(from) | bit(to);
        self.board[from] = EMPTY;
        self.board[to] = new_piece;
        key ^= zobrist::PIECE_SQUARE[piece as usize][from] ^ zobrist::PIECE_SQUARE[new_piece as usize][to];
        key ^= zobrist::GOTE_TO_MOVE;
        self.key = key;
        self.halfmove = if captured != EMPTY || kind == PAWN { 0 } else { self.halfmove.saturating_add(1) };
        self.ply = self.ply.saturating_add(1);
        self.side = us ^ 1;
    }
}

/// Single and double pushes of a pawn of `color` on `sq` onto empty squares.
#[inline(always)]
pub(super) fn pawn_pushes(sq: usize, color: usize, occ: u64) -> (u64, u64) {
    let b = bit(sq);
    if color == 0 {
        let single = (b << 8) & !occ;
        let double = ((single & (RANK_2 << 8)) << 8) & !occ;
        (single, double)
    } else {
        let single = (b >> 8) & !occ;
        let double = ((single & (RANK_7 >> 8)) >> 8) & !occ;
        (single, double)
    }
}
