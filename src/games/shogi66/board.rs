//! Squares, pieces, moves and the position struct, with the fixed tables they use.
//!
//! Squares are `0..36`, `index = rank * 6 + col`, where rank 0 is `a` (top) and col 0 is
//! file 6 (left): `6a` = 0, `1a` = 5, `6f` = 30, `1f` = 35. A piece is a byte
//! `kind | color << 4` (0 = empty). The position holds no heap data.

use crate::game::Color;

pub(super) const SQUARES: usize = 36;

/// Piece kinds. 1..=8 are the unpromoted pieces (and the hand kinds), 9..=14 promoted.
pub(super) const PAWN: u8 = 1;
pub(super) const LANCE: u8 = 2;
pub(super) const KNIGHT: u8 = 3;
pub(super) const SILVER: u8 = 4;
pub(super) const GOLD: u8 = 5;
pub(super) const BISHOP: u8 = 6;
pub(super) const ROOK: u8 = 7;
pub(super) const KING: u8 = 8;
pub(super) const PRO_PAWN: u8 = 9;
pub(super) const PRO_LANCE: u8 = 10;
pub(super) const PRO_KNIGHT: u8 = 11;
pub(super) const PRO_SILVER: u8 = 12;
pub(super) const HORSE: u8 = 13;
pub(super) const DRAGON: u8 = 14;

/// Hand kinds in SFEN output order: K R B G S N L P.
pub(super) const HAND_ORDER: [u8; 8] = [KING, ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN];

/// Uppercase letter of an unpromoted kind (index by kind).
pub(super) const LETTER: [u8; 9] = [b'?', b'P', b'L', b'N', b'S', b'G', b'B', b'R', b'K'];

pub(super) fn kind_of_letter(c: u8) -> Option<u8> {
    match c.to_ascii_uppercase() {
        b'P' => Some(PAWN),
        b'L' => Some(LANCE),
        b'N' => Some(KNIGHT),
        b'S' => Some(SILVER),
        b'G' => Some(GOLD),
        b'B' => Some(BISHOP),
        b'R' => Some(ROOK),
        b'K' => Some(KING),
        _ => None,
    }
}

#[inline]
pub(super) const fn piece(kind: u8, color: usize) -> u8 {
    kind | ((color as u8) << 4)
}
#[inline]
pub(super) const fn kind(p: u8) -> u8 {
    p & 15
}
#[inline]
pub(super) const fn color_index(p: u8) -> usize {
    (p >> 4) as usize
}
#[inline]
pub(super) fn color_of_index(i: usize) -> Color {
    if i == 0 {
        Color::Sente
    } else {
        Color::Gote
    }
}

/// Whether this kind can promote.
#[inline]
pub(super) const fn can_promote(k: u8) -> bool {
    matches!(k, PAWN | LANCE | KNIGHT | SILVER | BISHOP | ROOK)
}
#[inline]
pub(super) const fn promote(k: u8) -> u8 {
    match k {
        PAWN => PRO_PAWN,
        LANCE => PRO_LANCE,
        KNIGHT => PRO_KNIGHT,
        SILVER => PRO_SILVER,
        BISHOP => HORSE,
        ROOK => DRAGON,
        _ => k,
    }
}
/// The kind a piece has in hand once captured.
#[inline]
pub(super) const fn unpromote(k: u8) -> u8 {
    match k {
        PRO_PAWN => PAWN,
        PRO_LANCE => LANCE,
        PRO_KNIGHT => KNIGHT,
        PRO_SILVER => SILVER,
        HORSE => BISHOP,
        DRAGON => ROOK,
        _ => k,
    }
}

#[inline]
pub(super) const fn rank(sq: usize) -> usize {
    sq / 6
}
#[inline]
pub(super) const fn col(sq: usize) -> usize {
    sq % 6
}
/// Rank counted from the owner's far side: 0 = the last rank the piece can reach.
#[inline]
pub(super) const fn rel_rank(color: usize, sq: usize) -> usize {
    if color == 0 {
        rank(sq)
    } else {
        5 - rank(sq)
    }
}
/// In the promotion zone of `color` (the enemy camp).
#[inline]
pub(super) const fn in_zone(color: usize, sq: usize) -> bool {
    rel_rank(color, sq) <= 1
}
/// The promotion zone of `color` as a square set.
#[inline]
pub(super) const fn zone_mask(color: usize) -> u64 {
    if color == 0 {
        (1u64 << 12) - 1
    } else {
        ALL & !((1u64 << 24) - 1)
    }
}
/// In `color`'s own camp (where it places pieces during placement).
#[inline]
pub(super) const fn in_camp(color: usize, sq: usize) -> bool {
    rel_rank(color, sq) >= 4
}
/// An unpromoted piece of this kind standing here would never move again.
#[inline]
pub(super) const fn dead_square(k: u8, color: usize, sq: usize) -> bool {
    let r = rel_rank(color, sq);
    match k {
        PAWN | LANCE => r == 0,
        KNIGHT => r <= 1,
        _ => false,
    }
}

/// The square's token, e.g. `1f`.
pub(super) fn square_name(sq: usize) -> [u8; 2] {
    [b'0' + (6 - col(sq)) as u8, b'a' + rank(sq) as u8]
}
/// Reads `<file 1..6><rank a..f>`.
pub(super) fn parse_square(s: &[u8]) -> Option<usize> {
    if s.len() != 2 {
        return None;
    }
    let f = s[0].checked_sub(b'1')? as usize; // file - 1
    let r = s[1].checked_sub(b'a')? as usize;
    if f >= 6 || r >= 6 {
        return None;
    }
    Some(r * 6 + (5 - f))
}

// Directions: 0 up, 1 down, 2 left, 3 right, 4 up-left, 5 up-right, 6 down-left, 7 down-right.
// "Up" is towards rank a, "left" towards file 6.
pub(super) const DIRS: [(i32, i32); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1)];
const U: u8 = 1;
const D: u8 = 2;
const L: u8 = 4;
const R: u8 = 8;
const UL: u8 = 16;
const UR: u8 = 32;
const DL: u8 = 64;
const DR: u8 = 128;
const ORTHO: u8 = U | D | L | R;
const DIAG: u8 = UL | UR | DL | DR;
const GOLDS: u8 = U | D | L | R | UL | UR;

/// Index of the opposite direction.
pub(super) const fn opposite(d: usize) -> usize {
    [1, 0, 3, 2, 7, 6, 5, 4][d]
}

const fn flip_mask(m: u8) -> u8 {
    let mut out = 0u8;
    let mut d = 0;
    while d < 8 {
        if m & (1 << d) != 0 {
            out |= 1 << opposite(d);
        }
        d += 1;
    }
    out
}

const fn sente_steps(k: u8) -> u8 {
    match k {
        PAWN => U,
        SILVER => U | UL | UR | DL | DR,
        GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => GOLDS,
        KING => ORTHO | DIAG,
        HORSE => ORTHO,
        DRAGON => DIAG,
        _ => 0,
    }
}
const fn sente_slides(k: u8) -> u8 {
    match k {
        LANCE => U,
        BISHOP | HORSE => DIAG,
        ROOK | DRAGON => ORTHO,
        _ => 0,
    }
}

const fn build_masks(slides: bool) -> [u8; 32] {
    let mut t = [0u8; 32];
    let mut k = 1u8;
    while k <= 14 {
        let m = if slides { sente_slides(k) } else { sente_steps(k) };
        t[k as usize] = m;
        t[(k | 16) as usize] = flip_mask(m);
        k += 1;
    }
    t
}
/// One-square step directions of each piece byte.
pub(super) static STEP: [u8; 32] = build_masks(false);
/// Sliding directions of each piece byte.
pub(super) static SLIDE: [u8; 32] = build_masks(true);

const fn build_neighbours() -> [[i8; 8]; SQUARES] {
    let mut t = [[-1i8; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let c = (s % 6) as i32;
        let r = (s / 6) as i32;
        let mut d = 0;
        while d < 8 {
            let nc = c + DIRS[d].0;
            let nr = r + DIRS[d].1;
            if nc >= 0 && nc < 6 && nr >= 0 && nr < 6 {
                t[s][d] = (nr * 6 + nc) as i8;
            }
            d += 1;
        }
        s += 1;
    }
    t
}
/// The neighbour of a square in each direction, -1 off the board.
pub(super) static NB: [[i8; 8]; SQUARES] = build_neighbours();

const fn build_knights() -> [[u64; SQUARES]; 2] {
    let mut t = [[0u64; SQUARES]; 2];
    let mut color = 0;
    while color < 2 {
        let mut s = 0;
        while s < SQUARES {
            let c = (s % 6) as i32;
            let r = (s / 6) as i32;
            let nr = if color == 0 { r - 2 } else { r + 2 };
            let mut dc = -1;
            while dc <= 1 {
                let nc = c + dc;
                if nr >= 0 && nr < 6 && nc >= 0 && nc < 6 {
                    t[color][s] |= 1u64 << (nr * 6 + nc);
                }
                dc += 2;
            }
            s += 1;
        }
        color += 1;
    }
    t
}
/// Knight targets of each colour from each square.
pub(super) static KNIGHT_TARGETS: [[u64; SQUARES]; 2] = build_knights();

/// The squares each piece byte reaches by its single steps (a knight: its jumps), by
/// square: the part of `Position::targets` that does not depend on occupancy.
const fn build_step_targets() -> [[u64; SQUARES]; 32] {
    let nb = build_neighbours();
    let knights = build_knights();
    let steps = build_masks(false);
    let mut t = [[0u64; SQUARES]; 32];
    let mut p = 0;
    while p < 32 {
        let mut s = 0;
        while s < SQUARES {
            let mut m = 0u64;
            let mut d = 0;
            while d < 8 {
                if steps[p] & (1 << d) != 0 && nb[s][d] >= 0 {
                    m |= 1u64 << nb[s][d];
                }
                d += 1;
            }
            if p & 15 == KNIGHT as usize {
                m = knights[p >> 4][s];
            }
            t[p][s] = m;
            s += 1;
        }
        p += 1;
    }
    t
}
pub(super) static STEP_TARGETS: [[u64; SQUARES]; 32] = build_step_targets();

pub(super) const ALL: u64 = (1u64 << SQUARES) - 1;
const fn rank_mask(r: usize) -> u64 {
    0x3fu64 << (r * 6)
}
/// Each colour's camp (2 ranks).
pub(super) const CAMP: [u64; 2] = [rank_mask(4) | rank_mask(5), rank_mask(0) | rank_mask(1)];

/// Whether two squares share a rank, file or diagonal.
#[inline]
pub(super) fn aligned(a: usize, b: usize) -> bool {
    let dc = col(a) as i32 - col(b) as i32;
    let dr = rank(a) as i32 - rank(b) as i32;
    dc == 0 || dr == 0 || dc == dr || dc == -dr
}

/// A move: a board move `from -> to [+]`, or a drop of a hand kind onto `to`.
///
/// Bits 0..6 `to`, 6..12 `from` (0..36 a square, `36 + kind` a drop), bit 12 promotion.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(pub u16);

impl Move {
    #[inline]
    pub const fn board(from: usize, to: usize, promo: bool) -> Move {
        Move((to as u16) | ((from as u16) << 6) | ((promo as u16) << 12))
    }
    #[inline]
    pub const fn drop(kind: u8, to: usize) -> Move {
        Move((to as u16) | ((36 + kind as u16) << 6))
    }
    #[inline]
    pub const fn to(self) -> usize {
        (self.0 & 63) as usize
    }
    #[inline]
    pub const fn from(self) -> usize {
        ((self.0 >> 6) & 63) as usize
    }
    #[inline]
    pub const fn is_drop(self) -> bool {
        self.from() >= 36
    }
    /// The dropped kind (drops only).
    #[inline]
    pub const fn drop_kind(self) -> u8 {
        (self.from() - 36) as u8
    }
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & (1 << 12) != 0
    }
}

/// A 66-shogi position. Plain data, no heap: cheap to copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Piece byte per square.
    pub board: [u8; SQUARES],
    /// Occupancy per colour.
    pub occ: [u64; 2],
    /// Hand counts per colour, indexed by kind (1..=8).
    pub hand: [[u8; 9]; 2],
    /// King square per colour (36 while the king is not on the board).
    pub king: [u8; 2],
    /// 0 = sente to move, 1 = gote.
    pub stm: usize,
    /// Number of the next ply (1 at the start).
    pub ply: u32,
    /// In the placement phase (hands hold the reserve).
    pub placing: bool,
    /// Zobrist key.
    pub key: u64,
}

impl Position {
    #[inline]
    pub fn put(&mut self, sq: usize, p: u8) {
        self.board[sq] = p;
        let c = color_index(p);
        self.occ[c] |= 1u64 << sq;
        if kind(p) == KING {
            self.king[c] = sq as u8;
        }
    }

    /// Whether `sq` is attacked by a piece of colour `by` on `board`.
    #[inline]
    pub fn attacked_on(board: &[u8; SQUARES], sq: usize, by: usize) -> bool {
        Self::each_attacker(board, sq, by, |_, _| true)
    }

    /// Calls `visit(square, kind)` for the pieces of colour `by` attacking `sq` on
    /// `board` until it returns true; returns whether it did.
    #[inline(always)]
    pub fn each_attacker(
        board: &[u8; SQUARES],
        sq: usize,
        by: usize,
        mut visit: impl FnMut(usize, u8) -> bool,
    ) -> bool {
        // Knights: a knight of `by` lands here from two squares behind (from its view).
        let mut kn = KNIGHT_TARGETS[1 - by][sq];
        while kn != 0 {
            let a = kn.trailing_zeros() as usize;
            kn &= kn - 1;
            if board[a] == piece(KNIGHT, by) && visit(a, KNIGHT) {
                return true;
            }
        }
        let mut d = 0;
        while d < 8 {
            // The attacker stands in direction opposite(d) and moves in direction d: a
            // neighbour by a step or a slide, a piece further off by a slide.
            let back = opposite(d);
            let mut a = NB[sq][back];
            let mut first = true;
            while a >= 0 {
                let p = board[a as usize];
                if p != 0 {
                    let moves = if first { STEP[p as usize] | SLIDE[p as usize] } else { SLIDE[p as usize] };
                    if color_index(p) == by && moves & (1 << d) != 0 && visit(a as usize, kind(p)) {
                        return true;
                    }
                    break;
                }
                first = false;
                a = NB[a as usize][back];
            }
            d += 1;
        }
        false
    }

    /// Whether colour `c`'s king is attacked.
    #[inline]
    pub fn king_attacked(&self, c: usize) -> bool {
        let k = self.king[c] as usize;
        k < SQUARES && Self::attacked_on(&self.board, k, 1 - c)
    }

    /// Squares the piece `p` on `from` attacks (including own pieces).
    #[inline]
    pub fn targets(&self, from: usize, p: u8) -> u64 {
        let occ = self.occ[0] | self.occ[1];
        let mut t = STEP_TARGETS[p as usize][from];
        let mut slides = SLIDE[p as usize];
        while slides != 0 {
            let d = slides.trailing_zeros() as usize;
            slides &= slides - 1;
            let mut a = NB[from][d];
            while a >= 0 {
                t |= 1u64 << a;
                if occ & (1u64 << a) != 0 {
                    break;
                }
                a = NB[a as usize][d];
            }
        }
        t
    }
}
