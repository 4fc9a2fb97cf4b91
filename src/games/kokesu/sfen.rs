//! Notation: squares, move tokens, SFEN reading and writing, the board diagram.
//!
//! USI squares: file `1..=8` (file 1 = chess h-file), rank `a..=h` (rank a = chess rank 8).
//! Internally (board.rs) square = chess_rank_index * 8 + chess_file_index.

use super::board::*;
use super::movegen::KMove;
use super::{zobrist, Kokesu, KokesuRules, PromotionRule};
use crate::game::sfen_fields;
use crate::game::SfenError;

/// The USI name of an internal square, e.g. chess e2 -> `4g`.
pub(super) fn square_name(sq: usize) -> [u8; 2] {
    let file = 8 - (sq % 8) as u8; // chess a-file = 8
    let rank = b'a' + (7 - (sq / 8) as u8); // chess rank 8 = a
    [b'0' + file, rank]
}

/// Reads a USI square from two bytes.
pub(super) fn parse_square(f: u8, r: u8) -> Option<usize> {
    if !(b'1'..=b'8').contains(&f) || !(b'a'..=b'h').contains(&r) {
        return None;
    }
    let file_idx = 8 - (f - b'0') as usize;
    let rank_idx = 7 - (r - b'a') as usize;
    Some(rank_idx * 8 + file_idx)
}

/// Splits a token into (from, to, promotion kind); `None` when it is not of the form
/// `<file><rank><file><rank>[q|r|b|n]`.
pub(super) fn parse_token(token: &str) -> Option<(usize, usize, usize)> {
    let b = token.as_bytes();
    if b.len() != 4 && b.len() != 5 {
        return None;
    }
    let from = parse_square(b[0], b[1])?;
    let to = parse_square(b[2], b[3])?;
    let promo = if b.len() == 5 {
        match b[4] {
            b'n' => KNIGHT,
            b'b' => BISHOP,
            b'r' => ROOK,
            b'q' => QUEEN,
            _ => return None,
        }
    } else {
        0
    };
    Some((from, to, promo))
}

/// Writes `mv`'s token at the end of `s`.
pub(super) fn write_token(mv: KMove, s: &mut String) {
    let f = square_name(mv.from());
    let t = square_name(mv.to());
    for c in f.iter().chain(t.iter()) {
        s.push(*c as char);
    }
    if mv.promo() != 0 {
        s.push(LETTERS[mv.promo()] as char);
    }
}

fn piece_char(p: u8) -> char {
    let c = LETTERS[p as usize % 6] as char;
    if p < 6 {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

pub(super) fn to_sfen(pos: &Kokesu) -> String {
    let mut s = String::with_capacity(80);
    sfen_fields::write_board(&mut s, 8, 8, |r, f| match pos.board[(7 - r) * 8 + f] {
        EMPTY => None,
        p => Some((piece_char(p), false)),
    });
    s.push_str(if pos.side == 0 { " b - " } else { " w - " });
    s.push_str(&pos.ply.to_string());
    s
}

pub(super) fn from_sfen(sfen: &str, rules: &KokesuRules) -> Result<Kokesu, SfenError> {
    let fields = sfen_fields::fields(sfen)?;
    let mut board = [EMPTY; 64];
    sfen_fields::board(fields.board, 8, 8, |r, file, c, promoted| {
        if promoted {
            return Err("kokesu has no promoted pieces ('+')".to_string());
        }
        let kind = match LETTERS.iter().position(|&l| l as char == c.to_ascii_lowercase()) {
            Some(k) if c.is_ascii_alphabetic() => k,
            _ => return Err(format!("unknown piece '{c}'")),
        };
        let color = if c.is_ascii_uppercase() { 0 } else { 1 };
        board[(7 - r) * 8 + file] = (color * 6 + kind) as u8;
        Ok(())
    })?;
    let side = fields.side()?.index();
    fields.no_hand()?;
    let ply = fields.ply(u32::MAX)?;

    let mut pos = Kokesu { pieces: [0; 6], colors: [0; 2], board, side, ply, halfmove: 0, key: 0, rules: *rules };
    for (sq, &p) in board.iter().enumerate() {
        if p != EMPTY {
            pos.pieces[p as usize % 6] |= bit(sq);
            pos.colors[p as usize / 6] |= bit(sq);
        }
    }
    validate(&pos)?;
    pos.key = compute_key(&pos);
    Ok(pos)
}

/// The checks a position must pass (documented in mod.rs).
fn validate(pos: &Kokesu) -> Result<(), SfenError> {
    const SIDE: [&str; 2] = ["sente", "gote"];
    for (color, &own) in pos.colors.iter().enumerate() {
        let kings = (pos.pieces[KING] & own).count_ones();
        if kings != 1 {
            return Err(SfenError::Invalid(format!("{} has {kings} kings, expected 1", SIDE[color])));
        }
        let back = if color == 0 { RANK_1 } else { RANK_8 };
        if pos.pieces[PAWN] & own & back != 0 {
            return Err(SfenError::Invalid(format!("{} has a pawn on its own first rank", SIDE[color])));
        }
        let pawns = (pos.pieces[PAWN] & own).count_ones();
        if pawns > 8 {
            return Err(SfenError::Invalid(format!("{} has {pawns} pawns, at most 8", SIDE[color])));
        }
        let mut extra = 0;
        for kind in KNIGHT..=QUEEN {
            let n = (pos.pieces[kind] & own).count_ones();
            if n > START_COUNT[kind] {
                if pos.rules.promotion == PromotionRule::Captured {
                    return Err(SfenError::Invalid(format!(
                        "{} has {n} {}, more than the {} it starts with (KokesuPromotion=captured)",
                        SIDE[color],
                        ["", "knights", "bishops", "rooks", "queens"][kind],
                        START_COUNT[kind]
                    )));
                }
                extra += n - START_COUNT[kind];
            }
        }
        if extra + pawns > 8 {
            return Err(SfenError::Invalid(format!("{} has more promoted pieces than missing pawns", SIDE[color])));
        }
    }
    // The side that just moved may not have left its king attacked.
    let them = pos.side ^ 1;
    let occ = pos.colors[0] | pos.colors[1];
    if pos.attackers(pos.king_square(them), pos.side, occ) != 0 {
        return Err(SfenError::Invalid(format!("the side not to move ({}) is in check", SIDE[them])));
    }
    Ok(())
}

pub(super) fn compute_key(pos: &Kokesu) -> u64 {
    let mut k = 0;
    for (sq, &p) in pos.board.iter().enumerate() {
        if p != EMPTY {
            k ^= zobrist::PIECE_SQUARE[p as usize][sq];
        }
    }
    if pos.side == 1 {
        k ^= zobrist::GOTE_TO_MOVE;
    }
    k
}

pub(super) fn diagram(pos: &Kokesu) -> String {
    let mut s = String::new();
    s.push_str("  8 7 6 5 4 3 2 1\n +-----------------+\n");
    for rank in (0..8).rev() {
        s.push_str(" |");
        for file in 0..8 {
            let p = pos.board[rank * 8 + file];
            s.push(' ');
            s.push(if p == EMPTY { '.' } else { piece_char(p) });
        }
        s.push_str(" | ");
        s.push((b'a' + (7 - rank) as u8) as char);
        s.push('\n');
    }
    s.push_str(" +-----------------+");
    s
}
