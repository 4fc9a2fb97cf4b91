//! SFEN for crab boards: `<5 ranks> <b|w> - [<ply>]`. The hand is always `-`.

use super::cell::{self, Cells, EMPTY};
use super::square::square;
use crate::game::sfen_fields;
use crate::game::{Color, SfenError};

/// A board, side and ply read from an SFEN. `piece` maps a letter (case gives the
/// colour) and the promoted flag to a cell byte, or says why it cannot.
pub(crate) fn parse(
    sfen: &str,
    piece: impl Fn(char, bool) -> Result<u8, String>,
) -> Result<(Cells, Color, u32), SfenError> {
    let fields = sfen_fields::fields(sfen)?;
    let mut cells: Cells = [EMPTY; 25];
    sfen_fields::board(fields.board, 5, 5, |r, f, ch, promoted| {
        cells[square(5 - f, r)] = piece(ch, promoted)?;
        Ok(())
    })?;
    let side = fields.side()?;
    fields.no_hand()?;
    let ply = fields.ply(u32::MAX)?;
    for color in [Color::Sente, Color::Gote] {
        if cell::count(&cells, color) > 5 {
            return Err(SfenError::Invalid(format!("{color:?} has more than 5 pieces")));
        }
    }
    Ok((cells, side, ply))
}

/// The SFEN of a board; `letter` gives a piece's letter (with its case).
pub(crate) fn write(cells: &Cells, side: Color, ply: u32, letter: impl Fn(u8) -> char) -> String {
    let mut s = String::with_capacity(32);
    sfen_fields::write_board(&mut s, 5, 5, |r, f| match cells[square(5 - f, r)] {
        EMPTY => None,
        c => Some((letter(c), cell::promoted(c))),
    });
    s.push_str(if side == Color::Sente { " b - " } else { " w - " });
    s.push_str(&ply.to_string());
    s
}

/// A board diagram: files 5..1 across, ranks a..e down; `~` marks the empty flowing
/// column.
pub(crate) fn diagram(cells: &Cells, letter: impl Fn(u8) -> char) -> String {
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
