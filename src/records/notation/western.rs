//! Western (Hodges) notation for 66 shogi and Number Shogi: the piece's letter, the
//! origin square only when another piece of the kind reaches the same square, `-` for a
//! move, `x` for a capture, `*` for a drop, the USI square, then `+` for a promotion and
//! `=` for a promotion declined: `P-2f`, `Sx3c+`, `P*5e`, `S-4b=`, `G3e-4d`. Promoted
//! pieces are `+` and the letter (`+R`, `+P`). Number Shogi's pieces are their numbers:
//! `1`..`6` for the SFEN letters `A`..`F`, turned over `+1`..`+6` (`3-2d`, `5x1a+`).

use crate::game::Live;

use super::shogi::{square, Board, Move};
use super::{one, NotationError, Style};

/// The Western letter of a piece (the SFEN text uppercased: `P`, `+P`, `A`).
fn letter(variant: &str, piece: &str) -> String {
    if variant != "numbershogi" {
        return piece.to_string();
    }
    let (plus, base) = piece.strip_prefix('+').map_or(("", piece), |b| ("+", b));
    match base.as_bytes() {
        [c @ b'A'..=b'F'] => format!("{plus}{}", c - b'A' + 1),
        _ => piece.to_string(),
    }
}

/// The SFEN text (uppercased) of a Western letter; Number Shogi also takes its SFEN letters.
fn piece_of(variant: &str, text: &str) -> String {
    let (plus, base) = text.strip_prefix('+').map_or(("", text), |b| ("+", b));
    let base = match base.as_bytes() {
        [d @ b'1'..=b'6'] if variant == "numbershogi" => ((d - b'1' + b'A') as char).to_string(),
        _ => base.to_ascii_uppercase(),
    };
    format!("{plus}{base}")
}

pub(super) fn name(pos: &dyn Live, usi: &str) -> String {
    let board = Board::of(pos);
    let Some(m) = board.find(usi) else { return usi.to_string() };
    let piece = letter(pos.variant(), &m.piece);
    let Some(from) = m.from.as_deref() else { return format!("{piece}*{}", m.to) };
    let origin = if board.rivals(m).is_empty() { "" } else { from };
    let how = if board.at(&m.to).is_some() { 'x' } else { '-' };
    let suffix = if m.promote {
        "+"
    } else if board.could_promote(m) {
        "="
    } else {
        ""
    };
    format!("{piece}{origin}{how}{}{suffix}", m.to)
}

/// A USI square at the start of `s` (`2f`), and the rest.
fn take_square(s: &str) -> Option<(&str, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let end = digits + 1;
    (digits > 0 && s.len() >= end && s.is_char_boundary(end) && square(&s[..end]).is_some()).then(|| s.split_at(end))
}

/// The legal move a Western name names: the `-` or `x` optional where the rest is one
/// move, the origin optional likewise, `*` optional where no board move fits.
pub(super) fn parse(pos: &dyn Live, text: &str) -> Result<String, NotationError> {
    let unreadable = |why| NotationError::Unreadable { text: text.to_string(), style: Style::Western, why };
    let board = Board::of(pos);
    let plus = usize::from(text.starts_with('+'));
    let head = text[plus..].chars().next().ok_or(unreadable("no piece letter"))?;
    if !head.is_ascii_alphanumeric() {
        return Err(unreadable("no piece letter"));
    }
    let piece = piece_of(pos.variant(), &text[..plus + 1]);
    let mut s = &text[plus + 1..];
    let first = take_square(s).map(|(sq, rest)| {
        s = rest;
        sq
    });
    let how = s.chars().next().filter(|c| "-x*".contains(*c));
    if let Some(c) = how {
        s = &s[c.len_utf8()..];
    }
    let (origin, to) = match take_square(s) {
        Some((sq, rest)) => {
            s = rest;
            (first, sq)
        }
        None => (None, first.ok_or(unreadable("no square like 2f"))?),
    };
    let promote = match s {
        "+" => Some(true),
        "=" => Some(false),
        "" => None,
        _ => return Err(unreadable("more text after the square (only + or =)")),
    };
    let mut found: Vec<&Move> = board.legal.iter().filter(|m| m.to == to && m.piece == piece).collect();
    match how {
        Some('*') => found.retain(|m| m.from.is_none()),
        Some(_) => found.retain(|m| m.from.is_some()),
        None if found.iter().any(|m| m.from.is_some()) => found.retain(|m| m.from.is_some()),
        None => {}
    }
    if origin.is_some() {
        found.retain(|m| m.from.as_deref() == origin);
    }
    match promote {
        Some(p) => found.retain(|m| m.promote == p),
        None if found.iter().any(|m| !m.promote) => found.retain(|m| !m.promote),
        None => {}
    }
    one(text, found.into_iter().map(|m| m.usi.clone()).collect())
}
