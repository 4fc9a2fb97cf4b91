//! Squares, pieces, directions and the step tables of the 3x5 board.
//!
//! Square index `sq = row * 3 + col`: row 0 is rank `a` (top), col 0 is file 3 (left).
//! A set of squares is a 15-bit [`Bb`].

use crate::game::Color;

pub(super) const FILES: usize = 3;
pub(super) const RANKS: usize = 5;
pub(super) const SQUARES: usize = FILES * RANKS;

/// A set of squares, bit `sq`.
pub(super) type Bb = u16;
pub(super) const ALL: Bb = (1 << SQUARES) - 1;

/// Each side's camp (placement area): sente ranks d-e, gote ranks a-b.
pub(super) const CAMP: [Bb; 2] = [0b111111 << 9, 0b111111];
/// The far rank of each side, where promotion happens: sente rank a, gote rank e.
pub(super) const FAR_RANK: [Bb; 2] = [0b111, 0b111 << 12];

/// A board cell: 0 = empty, else bits 0-2 the face value 1..6, bit 3 promoted ("8"),
/// bit 4 gote.
pub(super) type Cell = u8;
pub(super) const EMPTY: Cell = 0;
pub(super) const PROMOTED: Cell = 8;
pub(super) const GOTE: Cell = 16;

pub(super) fn make_cell(color: Color, value: u8, promoted: bool) -> Cell {
    value | if promoted { PROMOTED } else { 0 } | if color == Color::Gote { GOTE } else { 0 }
}
pub(super) fn face(c: Cell) -> u8 {
    c & 7
}
pub(super) fn is_promoted(c: Cell) -> bool {
    c & PROMOTED != 0
}
pub(super) fn owner(c: Cell) -> Color {
    if c & GOTE != 0 {
        Color::Gote
    } else {
        Color::Sente
    }
}

/// The letter of a value 1..6, uppercase (`A`..`F`).
pub(super) fn letter(value: u8) -> char {
    (b'A' + value - 1) as char
}
/// The value of a piece letter, either case.
pub(super) fn value_of_letter(ch: char) -> Option<u8> {
    match ch.to_ascii_uppercase() {
        c @ 'A'..='F' => Some(c as u8 - b'A' + 1),
        _ => None,
    }
}

/// The token of a square, e.g. `3e`.
pub(super) fn square_name(sq: usize) -> String {
    let mut s = String::with_capacity(2);
    push_square(&mut s, sq);
    s
}
/// Writes a square's name (file digit, rank letter) at the end of `s`.
pub(super) fn push_square(s: &mut String, sq: usize) {
    s.push((b'0' + (FILES - sq % FILES) as u8) as char);
    s.push((b'a' + (sq / FILES) as u8) as char);
}
/// Reads a square from its file digit and rank letter.
pub(super) fn parse_square(file: u8, rank: u8) -> Option<usize> {
    if !(b'1'..=b'3').contains(&file) || !(b'a'..=b'e').contains(&rank) {
        return None;
    }
    let col = FILES - (file - b'0') as usize;
    let row = (rank - b'a') as usize;
    Some(row * FILES + col)
}

/// Direction names in mask-bit order (owner's view; N forward, W towards higher files).
pub(super) const DIR_NAMES: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
/// Row/column step of each direction for sente; gote's are negated.
const DIR_STEP: [(i32, i32); 8] = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)];

const fn step_target(color: usize, sq: usize, dir: usize) -> Bb {
    let (mut dr, mut dc) = DIR_STEP[dir];
    if color == 1 {
        dr = -dr;
        dc = -dc;
    }
    let r = (sq / FILES) as i32 + dr;
    let c = (sq % FILES) as i32 + dc;
    if r < 0 || r >= RANKS as i32 || c < 0 || c >= FILES as i32 {
        0
    } else {
        1 << (r as usize * FILES + c as usize)
    }
}

const fn build_targets() -> [[[Bb; 256]; SQUARES]; 2] {
    let mut t = [[[0; 256]; SQUARES]; 2];
    let mut color = 0;
    while color < 2 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut mask = 0;
            while mask < 256 {
                let mut bits: Bb = 0;
                let mut d = 0;
                while d < 8 {
                    if mask & (1 << d) != 0 {
                        bits |= step_target(color, sq, d);
                    }
                    d += 1;
                }
                t[color][sq][mask] = bits;
                mask += 1;
            }
            sq += 1;
        }
        color += 1;
    }
    t
}

/// `TARGETS[color][sq][mask]`: the squares a piece of `color` on `sq` with direction mask
/// `mask` steps to.
pub(super) static TARGETS: [[[Bb; 256]; SQUARES]; 2] = build_targets();

pub(super) use crate::games::bitboard::Bits;

/// Sums reachable by a subset of a hand (`counts[v]` pieces of value v), as a bit set
/// of 0..=7 (sums above 7 are dropped; they never matter).
pub(super) fn subset_sums(counts: &[u8; 7]) -> u8 {
    let mut s: u8 = 1;
    for v in 1..=6u8 {
        for _ in 0..counts[v as usize].min(7 / v) {
            s |= s << v;
        }
    }
    s
}
/// Whether a hand holds a subset summing to exactly 7.
pub(super) fn sums_to_seven(counts: &[u8; 7]) -> bool {
    subset_sums(counts) & 0x80 != 0
}
/// The values 1..6 (bit v) whose capture would give this hand a subset summing to 7.
pub(super) fn winning_values(counts: &[u8; 7]) -> u8 {
    let s = subset_sums(counts);
    let mut m = 0;
    for v in 1..=6u8 {
        if s & (1 << (7 - v)) != 0 {
            m |= 1 << v;
        }
    }
    m
}
