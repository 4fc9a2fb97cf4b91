//! SFEN reading and writing, the placement-phase test of rules.md §0 and the diagram.

use super::board::*;
use super::rules::Carried;
use super::switches::Rules;
use super::zobrist::{hand_key, KEYS};
use super::NumberShogi;
use crate::game::sfen_fields;
use crate::game::{Color, SfenError};

fn parse_board(text: &str) -> Result<[Cell; SQUARES], SfenError> {
    let mut board = [EMPTY; SQUARES];
    sfen_fields::board(text, RANKS, FILES, |r, col, ch, promoted| {
        let value = value_of_letter(ch).ok_or_else(|| format!("'{ch}' is not a piece (A-F or a-f)"))?;
        let color = if ch.is_ascii_uppercase() { Color::Sente } else { Color::Gote };
        board[r * FILES + col] = make_cell(color, value, promoted);
        Ok(())
    })?;
    Ok(board)
}

fn parse_hand(text: &str) -> Result<[[u8; 7]; 2], SfenError> {
    let mut hand = [[0u8; 7]; 2];
    sfen_fields::hand(text, usize::MAX, 12, |ch, n| {
        let value = value_of_letter(ch).ok_or_else(|| format!("'{ch}' is not a piece letter (A-F or a-f)"))?;
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let slot = &mut hand[color][value as usize];
        *slot = slot.saturating_add(n as u8);
        Ok(())
    })?;
    Ok(hand)
}

/// The placement-phase test of rules.md §0 (all five conditions).
fn is_placement(board: &[Cell; SQUARES], hand: &[[u8; 7]; 2], side: Color, ply: u32) -> bool {
    if ply > 12 {
        return false;
    }
    if hand.iter().all(|h| h.iter().all(|&n| n == 0)) {
        return false;
    }
    let mut placed = [0u32; 2];
    let mut counts = [[0u8; 7]; 2];
    for (sq, &cell) in board.iter().enumerate() {
        if cell == EMPTY {
            continue;
        }
        let c = owner(cell).index();
        if is_promoted(cell) || CAMP[c] & (1 << sq) == 0 {
            return false;
        }
        placed[c] += 1;
        counts[c][face(cell) as usize] += 1;
    }
    for c in 0..2 {
        for v in 1..=6 {
            if counts[c][v] + hand[c][v] != 1 {
                return false;
            }
        }
    }
    match side {
        Color::Sente => placed[0] == placed[1],
        Color::Gote => placed[0] == placed[1] + 1,
    }
}

impl NumberShogi {
    /// Builds a position from its parts, computing occupancy, phase, key and result.
    pub(crate) fn assemble(
        board: [Cell; SQUARES],
        hand: [[u8; 7]; 2],
        side: Color,
        ply: u32,
        rules: Carried,
    ) -> NumberShogi {
        let placing = is_placement(&board, &hand, side, ply);
        let mut occ = [0; 2];
        let mut key = 0;
        for (sq, &cell) in board.iter().enumerate() {
            if cell != EMPTY {
                occ[owner(cell).index()] |= 1 << sq;
                key ^= KEYS.piece[cell as usize][sq];
            }
        }
        for (c, h) in hand.iter().enumerate() {
            for (v, &n) in h.iter().enumerate().skip(1) {
                key ^= hand_key(c, v, n);
            }
        }
        if side == Color::Gote {
            key ^= KEYS.gote_to_move;
        }
        if placing {
            key ^= KEYS.placing;
        }
        // A finished play-phase position: the side that just moved made the sum first;
        // otherwise the side to move holds it.
        let winner = if placing {
            None
        } else if sums_to_seven(&hand[side.flip().index()]) {
            Some(side.flip())
        } else if sums_to_seven(&hand[side.index()]) {
            Some(side)
        } else {
            None
        };
        NumberShogi { board, occ, hand, side, ply, placing, winner, key, rules }
    }

    pub(crate) fn parse_sfen(sfen: &str, rules: &Carried) -> Result<NumberShogi, SfenError> {
        Self::parse_sfen_counted(sfen, rules, true)
    }

    /// A study position, as rule tests and problems write them: pieces that are not
    /// shown are out of play, so a value may appear fewer than two times (never more).
    /// `position sfen` does not take these: a game always has all twelve pieces.
    pub fn from_study_sfen(sfen: &str, rules: &Rules) -> Result<NumberShogi, SfenError> {
        Self::parse_sfen_counted(sfen, &rules.carried(), false)
    }

    fn parse_sfen_counted(sfen: &str, rules: &Carried, complete: bool) -> Result<NumberShogi, SfenError> {
        let fields = sfen_fields::fields(sfen)?;
        let board = parse_board(fields.board)?;
        let side = fields.side()?;
        let hand = parse_hand(fields.hand)?;
        let ply = fields.ply(999_999_999)?;
        let mut total = [0u32; 7];
        for &cell in &board {
            if cell != EMPTY {
                total[face(cell) as usize] += 1;
            }
        }
        for v in 1..=6 {
            total[v] += hand[0][v] as u32 + hand[1][v] as u32;
            // No piece ever leaves the game (a captured piece goes to the captor's hand),
            // so every position of a game has each value exactly twice.
            if total[v] > 2 || complete && total[v] != 2 {
                let (n, pieces) = (total[v], if total[v] == 1 { "piece" } else { "pieces" });
                return Err(SfenError::Invalid(format!(
                    "{n} {pieces} of value {v} ({}) on the board and in hand; a game always has exactly two",
                    letter(v as u8)
                )));
            }
        }
        let pos = NumberShogi::assemble(board, hand, side, ply, *rules);
        if pos.placing {
            // Every piece on the board is a drop of the placement.
            sfen_fields::check_placement_end(ply, board.iter().filter(|&&c| c != EMPTY).count() as u32)?;
        } else if sums_to_seven(&hand[0]) && sums_to_seven(&hand[1]) {
            // The first sum of seven ends the game, so no game reaches the second.
            return Err(SfenError::Invalid(
                "both hands already sum to seven: the first capture that made a sum of seven ended the game"
                    .to_string(),
            ));
        }
        Ok(pos)
    }

    /// The letter of a piece (its case the colour) and whether it is promoted.
    fn cell_letter(cell: Cell) -> (char, bool) {
        let l = letter(face(cell));
        (if owner(cell) == Color::Gote { l.to_ascii_lowercase() } else { l }, is_promoted(cell))
    }

    pub(crate) fn hand_field(&self) -> String {
        let mut s = String::new();
        let letter = |c: usize, v: u8| if c == 1 { letter(v).to_ascii_lowercase() } else { letter(v) };
        sfen_fields::write_hand(
            &mut s,
            (0..2).flat_map(|c| (1..=6u8).map(move |v| (letter(c, v), self.hand[c][v as usize]))),
        );
        s
    }

    pub(crate) fn write_sfen(&self) -> String {
        let mut s = String::new();
        sfen_fields::write_board(&mut s, RANKS, FILES, |r, c| match self.board[r * FILES + c] {
            EMPTY => None,
            cell => Some(Self::cell_letter(cell)),
        });
        let side = sfen_fields::side_letter(self.side);
        format!("{s} {side} {} {}", self.hand_field(), self.ply)
    }

    pub(crate) fn draw_diagram(&self) -> String {
        let mut s = String::from("    3   2   1\n");
        for r in 0..RANKS {
            s.push_str("  +---+---+---+\n  |");
            for c in 0..FILES {
                let cell = self.board[r * FILES + c];
                let text = if cell == EMPTY {
                    "   ".to_string()
                } else {
                    let l = letter(face(cell));
                    let l = if owner(cell) == Color::Gote { l.to_ascii_lowercase() } else { l };
                    if is_promoted(cell) {
                        format!("+{l} ")
                    } else {
                        format!(" {l} ")
                    }
                };
                s.push_str(&text);
                s.push('|');
            }
            s.push(' ');
            s.push((b'a' + r as u8) as char);
            s.push('\n');
        }
        s.push_str("  +---+---+---+");
        s
    }
}
