//! SFEN for crab boards: `<5 ranks> <b|w> - [<ply>]`. The hand is always `-`.

use super::cell::{self, Cells, EMPTY};
use super::square::square;
use crate::game::{Color, SfenError};

/// A board, side and ply read from an SFEN. `piece` maps a letter (case gives the
/// colour) and the promoted flag to a cell byte, or says why it cannot.
pub fn parse(sfen: &str, piece: impl Fn(char, bool) -> Result<u8, String>) -> Result<(Cells, Color, u32), SfenError> {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    if !(3..=4).contains(&fields.len()) {
        return Err(SfenError::FieldCount(fields.len()));
    }
    let mut cells: Cells = [EMPTY; 25];
    let ranks: Vec<&str> = fields[0].split('/').collect();
    if ranks.len() != 5 {
        return Err(SfenError::Board(format!("{} ranks, expected 5", ranks.len())));
    }
    for (r, text) in ranks.iter().enumerate() {
        let mut file = 5usize; // next file to fill, counting down; 0 = rank full
        let mut promoted = false;
        for ch in text.chars() {
            if ch == '+' {
                if promoted {
                    return Err(SfenError::Board(format!("rank {}: '++'", r + 1)));
                }
                promoted = true;
                continue;
            }
            if let Some(d) = ch.to_digit(10) {
                if promoted || d == 0 || d as usize > file {
                    return Err(SfenError::Board(format!("rank {}: bad count '{ch}'", r + 1)));
                }
                file -= d as usize;
                continue;
            }
            if file == 0 {
                return Err(SfenError::Board(format!("rank {} has more than 5 squares", r + 1)));
            }
            let c = piece(ch, promoted).map_err(|e| SfenError::Board(format!("rank {}: {e}", r + 1)))?;
            cells[square(file, r)] = c;
            file -= 1;
            promoted = false;
        }
        if promoted {
            return Err(SfenError::Board(format!("rank {}: '+' without a piece", r + 1)));
        }
        if file != 0 {
            return Err(SfenError::Board(format!("rank {} has fewer than 5 squares", r + 1)));
        }
    }
    let side = match fields[1] {
        "b" => Color::Sente,
        "w" => Color::Gote,
        s => return Err(SfenError::Side(s.to_string())),
    };
    if fields[2] != "-" {
        return Err(SfenError::Hand(format!("'{}': crab games have no hands", fields[2])));
    }
    let ply = match fields.get(3) {
        None => 1,
        Some(p) => match p.parse::<u32>() {
            Ok(n) if n >= 1 => n,
            _ => return Err(SfenError::Ply(p.to_string())),
        },
    };
    for color in [Color::Sente, Color::Gote] {
        if cell::count(&cells, color) > 5 {
            return Err(SfenError::Invalid(format!("{color:?} has more than 5 pieces")));
        }
    }
    Ok((cells, side, ply))
}

/// The SFEN of a board; `letter` gives a piece's letter (with its case).
pub fn write(cells: &Cells, side: Color, ply: u32, letter: impl Fn(u8) -> char) -> String {
    let mut s = String::with_capacity(32);
    for r in 0..5 {
        if r > 0 {
            s.push('/');
        }
        let mut empty = 0;
        for file in (1..=5).rev() {
            let c = cells[square(file, r)];
            if c == EMPTY {
                empty += 1;
                continue;
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
                empty = 0;
            }
            if cell::promoted(c) {
                s.push('+');
            }
            s.push(letter(c));
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
    }
    s.push_str(if side == Color::Sente { " b - " } else { " w - " });
    s.push_str(&ply.to_string());
    s
}

/// A board diagram: files 5..1 across, ranks a..e down; `~` marks the empty flowing
/// column.
pub fn diagram(cells: &Cells, letter: impl Fn(u8) -> char) -> String {
    let mut s = String::from("    5   4   3   2   1\n");
    for r in 0..5 {
        s.push(char::from(b'a' + r as u8));
        s.push(' ');
        for file in (1..=5).rev() {
            let sq = square(file, r);
            let c = cells[sq];
            if c == EMPTY {
                s.push_str(if file == 3 { "  ~ " } else { "  . " });
            } else {
                s.push(' ');
                s.push(if cell::promoted(c) { '+' } else { ' ' });
                s.push(letter(c));
                s.push(' ');
            }
        }
        s.push('\n');
    }
    s
}
