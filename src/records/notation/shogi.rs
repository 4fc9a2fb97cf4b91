//! What the shogi games' notations (KIF and Western) share: a move token taken apart,
//! the piece on a square, and the other pieces of a kind that can reach a square.

use crate::game::{Color, Live};

use super::super::walk::grid;

/// A shogi move token taken apart: `7g7f+` or `P*5e`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Move {
    pub(super) usi: String,
    /// `None` for a drop.
    pub(super) from: Option<String>,
    pub(super) to: String,
    /// The piece: the SFEN text uppercased (`P`, `+P`), for a drop the dropped letter.
    pub(super) piece: String,
    pub(super) promote: bool,
}

/// The destination square of a shogi token (`7f` of `7g7f+`, `5e` of `P*5e`).
pub(super) fn destination(usi: &str) -> Option<&str> {
    let plain = usi.trim_end_matches('+');
    plain.get(plain.len().checked_sub(2)?..)
}

/// A position's board and legal moves, taken apart once for all the names asked of it.
pub(super) struct Board {
    rows: Vec<Vec<Option<String>>>,
    pub(super) side: Color,
    pub(super) legal: Vec<Move>,
}

impl Board {
    pub(super) fn of(pos: &dyn Live) -> Board {
        let rows = grid(&pos.sfen());
        let mut board = Board { rows, side: pos.side_to_move(), legal: Vec::new() };
        board.legal = pos.legal_moves().iter().filter_map(|m| board.split(m)).collect();
        board
    }

    /// The piece text (`P`, `+p`) on a USI square (`7g`).
    pub(super) fn at(&self, sq: &str) -> Option<&str> {
        let (file, rank) = square(sq)?;
        let col = self.rows.first().map_or(0, Vec::len).checked_sub(file)?;
        self.rows.get(rank)?.get(col)?.as_deref()
    }

    pub(super) fn split(&self, usi: &str) -> Option<Move> {
        if let Some((letter, to)) = usi.split_once('*') {
            square(to)?;
            return Some(Move {
                usi: usi.to_string(),
                from: None,
                to: to.to_string(),
                piece: letter.to_string(),
                promote: false,
            });
        }
        let promote = usi.ends_with('+');
        let to = destination(usi)?;
        let from = &usi[..usi.trim_end_matches('+').len() - 2];
        let piece = self.at(from)?.to_ascii_uppercase();
        square(to)?;
        Some(Move { usi: usi.to_string(), from: Some(from.to_string()), to: to.to_string(), piece, promote })
    }

    /// The legal move of token `usi`.
    pub(super) fn find(&self, usi: &str) -> Option<&Move> {
        self.legal.iter().find(|m| m.usi == usi)
    }

    /// Whether `m`, a board move that does not promote, could promote.
    pub(super) fn could_promote(&self, m: &Move) -> bool {
        !m.promote && m.from.is_some() && self.legal.iter().any(|o| o.usi == format!("{}+", m.usi))
    }

    /// The squares other pieces of `m`'s kind move to `m.to` from (board moves only).
    pub(super) fn rivals(&self, m: &Move) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .legal
            .iter()
            .filter(|o| o.to == m.to && o.piece == m.piece && o.from.is_some() && o.from != m.from && m.from.is_some())
            .filter_map(|o| o.from.as_deref())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// How many ranks a move from `from` to `to` goes forward from the mover's view
    /// (negative: back).
    pub(super) fn forward(&self, from: &str, to: &str) -> i64 {
        let (Some((_, fr)), Some((_, tr))) = (square(from), square(to)) else { return 0 };
        let ahead = fr as i64 - tr as i64;
        if self.side == Color::Sente {
            ahead
        } else {
            -ahead
        }
    }

    /// Where `sq` lies to the mover's right: larger is further right (sente's right is
    /// file 1, gote's the highest file).
    pub(super) fn rightness(&self, sq: &str) -> i64 {
        let file = square(sq).map_or(0, |(f, _)| f as i64);
        if self.side == Color::Sente {
            -file
        } else {
            file
        }
    }
}

/// A USI square's file (from 1) and rank index (0 for `a`).
pub(super) fn square(sq: &str) -> Option<(usize, usize)> {
    let rank = sq.chars().last().filter(char::is_ascii_lowercase)?;
    let file: usize = sq[..sq.len() - 1].parse().ok().filter(|f| *f >= 1)?;
    Some((file, (rank as u8 - b'a') as usize))
}
