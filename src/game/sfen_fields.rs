//! The parts of SFEN every game reads and writes alike: the fields and their count, the
//! side to move, the ply, the board field's ranks (top rank `a` first, files left to
//! right, a digit for a run of empty squares, `+` before a promoted piece) and the hand
//! field (an optional count before each piece letter). What a letter means, and which
//! positions are possible, each game says for itself.

use crate::game::{Color, SfenError};

/// An SFEN cut into its fields: `<board> <side> <hand> [<ply>]`.
pub(crate) struct Fields<'a> {
    pub(crate) board: &'a str,
    side: &'a str,
    pub(crate) hand: &'a str,
    ply: Option<&'a str>,
}

/// Splits an SFEN into its three or four fields.
pub(crate) fn fields(sfen: &str) -> Result<Fields<'_>, SfenError> {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    if f.len() != 3 && f.len() != 4 {
        return Err(SfenError::FieldCount(f.len()));
    }
    Ok(Fields { board: f[0], side: f[1], hand: f[2], ply: f.get(3).copied() })
}

impl Fields<'_> {
    /// The side to move: `b` sente, `w` gote.
    pub(crate) fn side(&self) -> Result<Color, SfenError> {
        match self.side {
            "b" => Ok(Color::Sente),
            "w" => Ok(Color::Gote),
            s => Err(SfenError::Side(s.to_string())),
        }
    }

    /// The number of the next ply, from 1 to `max` (1 when the field is left out).
    pub(crate) fn ply(&self, max: u32) -> Result<u32, SfenError> {
        match self.ply {
            None => Ok(1),
            Some(p) => match p.parse::<u32>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(SfenError::Ply(p.to_string())),
            },
        }
    }

    /// For a game without hands: the hand field must be `-`.
    pub(crate) fn no_hand(&self) -> Result<(), SfenError> {
        if self.hand == "-" {
            Ok(())
        } else {
            Err(SfenError::Hand(format!("'{}': this game has no hands, the field must be '-'", self.hand)))
        }
    }
}

/// The letter of rank `r` (0 = `a`, the top rank of the SFEN and of the diagram).
pub(crate) fn rank_letter(r: usize) -> char {
    char::from(b'a' + r as u8)
}

/// Reads a board field of `ranks` ranks of `files` squares: `piece(rank, file, letter,
/// promoted)` is called for each piece (rank 0 is the SFEN's first, file 0 its leftmost
/// square) and says why the letter cannot stand there, if it cannot.
pub(crate) fn board(
    text: &str,
    ranks: usize,
    files: usize,
    mut piece: impl FnMut(usize, usize, char, bool) -> Result<(), String>,
) -> Result<(), SfenError> {
    let bad = |m: String| Err(SfenError::Board(m));
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return bad(format!("{} ranks, expected {ranks}", rows.len()));
    }
    for (r, row) in rows.iter().enumerate() {
        let rank = rank_letter(r);
        let mut file = 0usize;
        let mut promoted = false;
        for ch in row.chars() {
            if promoted && !ch.is_ascii_alphabetic() {
                return bad(format!("rank {rank}: '+' must be followed by a piece letter"));
            }
            if ch == '+' {
                promoted = true;
                continue;
            }
            if let Some(d) = ch.to_digit(10) {
                if d == 0 {
                    return bad(format!("rank {rank}: bad empty count '{ch}'"));
                }
                file += d as usize;
            } else {
                if file >= files {
                    return bad(format!("rank {rank} has more than {files} squares"));
                }
                if let Err(e) = piece(r, file, ch, promoted) {
                    return bad(format!("rank {rank}: {e}"));
                }
                promoted = false;
                file += 1;
            }
            if file > files {
                return bad(format!("rank {rank} has more than {files} squares"));
            }
        }
        if promoted {
            return bad(format!("rank {rank}: '+' must be followed by a piece letter"));
        }
        if file != files {
            return bad(format!("rank {rank} has {file} squares, expected {files}"));
        }
    }
    Ok(())
}

/// Reads a hand field (`-`, or piece letters each after an optional count of at most
/// `max_digits` digits and at most `max_count`): `piece(letter, count)` is called for
/// each and says why it cannot be, if it cannot.
pub(crate) fn hand(
    text: &str,
    max_digits: usize,
    max_count: u32,
    mut piece: impl FnMut(char, u32) -> Result<(), String>,
) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let bad = |m: String| Err(SfenError::Hand(m));
    let mut count = 0u32;
    let mut digits = 0;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            digits += 1;
            count = count.saturating_mul(10).saturating_add(d);
            if digits > max_digits || count > max_count {
                return bad("count too large".to_string());
            }
            continue;
        }
        if digits > 0 && count == 0 {
            return bad(format!("a count of 0 before '{ch}'"));
        }
        piece(ch, if digits == 0 { 1 } else { count }).map_err(SfenError::Hand)?;
        count = 0;
        digits = 0;
    }
    if digits > 0 {
        return bad("count without a piece letter".to_string());
    }
    Ok(())
}

/// Writes a board field of `ranks` ranks of `files` squares: `piece(rank, file)` gives
/// the letter (its case the colour) and whether it is promoted, `None` for an empty square.
pub(crate) fn write_board(
    out: &mut String,
    ranks: usize,
    files: usize,
    piece: impl Fn(usize, usize) -> Option<(char, bool)>,
) {
    for r in 0..ranks {
        if r > 0 {
            out.push('/');
        }
        let mut empty = 0u8;
        for f in 0..files {
            let Some((letter, promoted)) = piece(r, f) else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                out.push(char::from(b'0' + empty));
                empty = 0;
            }
            if promoted {
                out.push('+');
            }
            out.push(letter);
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
    }
}

/// The placement phases' end (rules.md §0; 66 shogi, Number Shogi): a placement must end,
/// both reserves empty, by ply 12, as it does from the start position. A placement SFEN
/// at `ply` with `placed` of its 12 drops made whose ply leaves too few plies for the drops
/// still to come would be ended by condition 1 with the reserves read as captured pieces
/// (66 shogi: kings in hand; Number Shogi: a sum of seven at once), a position no game
/// has: refused.
pub(crate) fn check_placement_end(ply: u32, placed: u32) -> Result<(), SfenError> {
    let left = 12u32.saturating_sub(placed);
    if ply.saturating_add(left) > 13 {
        return Err(SfenError::Invalid(format!(
            "a placement phase at ply {ply} with {left} drops still to come would run past ply 12 \
             (a placement position's ply is the pieces placed plus one)"
        )));
    }
    Ok(())
}

/// The side-to-move field.
pub(crate) fn side_letter(side: Color) -> char {
    if side == Color::Sente {
        'b'
    } else {
        'w'
    }
}

/// Writes a hand field from `(letter, count)` pairs in order, the letter's case the
/// colour; `-` when every count is 0.
pub(crate) fn write_hand(out: &mut String, pieces: impl IntoIterator<Item = (char, u8)>) {
    let start = out.len();
    for (letter, n) in pieces {
        if n == 0 {
            continue;
        }
        if n > 1 {
            out.push_str(&n.to_string());
        }
        out.push(letter);
    }
    if out.len() == start {
        out.push('-');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_board(text: &str) -> Result<Vec<(usize, usize, char, bool)>, SfenError> {
        let mut got = Vec::new();
        board(text, 2, 3, |r, f, ch, p| {
            if ch == 'x' {
                return Err("no x".to_string());
            }
            got.push((r, f, ch, p));
            Ok(())
        })?;
        Ok(got)
    }

    #[test]
    fn board_field_walks_ranks_files_and_runs() {
        assert_eq!(read_board("a+b1/3").unwrap(), vec![(0, 0, 'a', false), (0, 1, 'b', true)]);
        for bad in ["3", "3/3/3", "4/3", "2/3", "ab1c/3", "a+/3", "+1a/3", "0a2/3", "x2/3", "a+x1/3", "2+/3"] {
            assert!(matches!(read_board(bad), Err(SfenError::Board(_))), "{bad}");
        }
        let mut s = String::new();
        write_board(&mut s, 2, 3, |r, f| (r == 0 && f == 1).then_some(('B', true)));
        assert_eq!(s, "1+B1/3");
    }

    #[test]
    fn hand_field_counts() {
        let read = |text: &str| {
            let mut got = Vec::new();
            hand(text, 2, 12, |ch, n| {
                got.push((ch, n));
                Ok(())
            })
            .map(|_| got)
        };
        assert_eq!(read("-").unwrap(), vec![]);
        assert_eq!(read("2Pb12c").unwrap(), vec![('P', 2), ('b', 1), ('c', 12)]);
        for bad in ["13P", "012P", "0P", "P2"] {
            assert!(matches!(read(bad), Err(SfenError::Hand(_))), "{bad}");
        }
        let mut s = String::new();
        write_hand(&mut s, [('P', 2), ('b', 0), ('c', 1)]);
        assert_eq!(s, "2Pc");
        s.clear();
        write_hand(&mut s, [('P', 0)]);
        assert_eq!(s, "-");
    }

    #[test]
    fn fields_side_and_ply() {
        assert!(matches!(fields("a b"), Err(SfenError::FieldCount(2))));
        let f = fields("3/3 w - 7").unwrap();
        assert_eq!((f.board, f.side().unwrap(), f.hand, f.ply(10).unwrap()), ("3/3", Color::Gote, "-", 7));
        assert!(matches!(f.ply(6), Err(SfenError::Ply(_))));
        assert_eq!(fields("3/3 b -").unwrap().ply(1).unwrap(), 1);
        assert!(matches!(fields("3/3 x -").unwrap().side(), Err(SfenError::Side(_))));
        assert!(fields("3/3 b 0 0").unwrap().ply(u32::MAX).is_err());
    }
}
