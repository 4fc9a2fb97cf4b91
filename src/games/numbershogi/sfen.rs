//! SFEN reading and writing, the placement-phase test of rules.md §0 and the diagram.

use super::board::*;
use super::rules::Rules;
use super::zobrist::{hand_key, KEYS};
use super::NumberShogi;
use crate::game::{Color, SfenError};

fn parse_board(text: &str) -> Result<[Cell; SQUARES], SfenError> {
    let bad = |m: String| SfenError::Board(m);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != RANKS {
        return Err(bad(format!("'{text}' has {} ranks, expected {RANKS}", rows.len())));
    }
    let mut board = [EMPTY; SQUARES];
    for (r, row) in rows.iter().enumerate() {
        let rank = (b'a' + r as u8) as char;
        let mut col = 0usize;
        let mut promoted = false;
        for ch in row.chars() {
            if promoted && !ch.is_ascii_alphabetic() {
                return Err(bad(format!("rank {rank}: '+' must be followed by a piece letter")));
            }
            match ch {
                '1'..='3' => {
                    col += ch as usize - '0' as usize;
                    if col > FILES {
                        return Err(bad(format!("rank {rank} '{row}' is longer than {FILES} squares")));
                    }
                }
                '+' => promoted = true,
                _ => {
                    let value = value_of_letter(ch)
                        .ok_or_else(|| bad(format!("rank {rank}: '{ch}' is not a piece (A-F or a-f)")))?;
                    if col >= FILES {
                        return Err(bad(format!("rank {rank} '{row}' is longer than {FILES} squares")));
                    }
                    let color = if ch.is_ascii_uppercase() { Color::Sente } else { Color::Gote };
                    board[r * FILES + col] = make_cell(color, value, promoted);
                    promoted = false;
                    col += 1;
                }
            }
        }
        if promoted {
            return Err(bad(format!("rank {rank}: '+' at the end")));
        }
        if col != FILES {
            return Err(bad(format!("rank {rank} '{row}' has {col} squares, expected {FILES}")));
        }
    }
    Ok(board)
}

fn parse_hand(text: &str) -> Result<[[u8; 7]; 2], SfenError> {
    let mut hand = [[0u8; 7]; 2];
    if text == "-" {
        return Ok(hand);
    }
    let mut count: Option<u32> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 12 {
                return Err(SfenError::Hand(format!("count in '{text}' is too large")));
            }
            count = Some(n);
            continue;
        }
        let value =
            value_of_letter(ch).ok_or_else(|| SfenError::Hand(format!("'{ch}' is not a piece letter (A-F or a-f)")))?;
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::Hand(format!("count 0 before '{ch}'")));
        }
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let slot = &mut hand[color][value as usize];
        *slot = slot.saturating_add(n as u8);
    }
    if count.is_some() {
        return Err(SfenError::Hand(format!("'{text}' ends with a count and no piece")));
    }
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
        rules: Rules,
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

    pub(crate) fn parse_sfen(sfen: &str, rules: &Rules) -> Result<NumberShogi, SfenError> {
        Self::parse_sfen_counted(sfen, rules, true)
    }

    /// A study position, as rule tests and problems write them: pieces that are not
    /// shown are out of play, so a value may appear fewer than two times (never more).
    /// `position sfen` does not take these: a game always has all twelve pieces.
    pub fn from_study_sfen(sfen: &str, rules: &Rules) -> Result<NumberShogi, SfenError> {
        Self::parse_sfen_counted(sfen, rules, false)
    }

    fn parse_sfen_counted(sfen: &str, rules: &Rules, complete: bool) -> Result<NumberShogi, SfenError> {
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        if fields.len() != 3 && fields.len() != 4 {
            return Err(SfenError::FieldCount(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let side = match fields[1] {
            "b" => Color::Sente,
            "w" => Color::Gote,
            s => return Err(SfenError::Side(s.to_string())),
        };
        let hand = parse_hand(fields[2])?;
        let ply = match fields.get(3) {
            None => 1,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if (1..1_000_000_000).contains(&n) => n,
                _ => return Err(SfenError::Ply(s.to_string())),
            },
        };
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
                return Err(SfenError::Invalid(format!(
                    "{} pieces of value {v} ({}) on the board and in hand; a game always has exactly two",
                    total[v],
                    letter(v as u8)
                )));
            }
        }
        Ok(NumberShogi::assemble(board, hand, side, ply, *rules))
    }

    fn board_field(&self) -> String {
        let mut s = String::new();
        for r in 0..RANKS {
            if r > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for c in 0..FILES {
                let cell = self.board[r * FILES + c];
                if cell == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                if is_promoted(cell) {
                    s.push('+');
                }
                let l = letter(face(cell));
                s.push(if owner(cell) == Color::Gote { l.to_ascii_lowercase() } else { l });
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
        }
        s
    }

    pub(crate) fn hand_field(&self) -> String {
        let mut s = String::new();
        for c in 0..2 {
            for v in 1..=6u8 {
                let n = self.hand[c][v as usize];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                let l = letter(v);
                s.push(if c == 1 { l.to_ascii_lowercase() } else { l });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    pub(crate) fn write_sfen(&self) -> String {
        let side = if self.side == Color::Sente { "b" } else { "w" };
        format!("{} {side} {} {}", self.board_field(), self.hand_field(), self.ply)
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
