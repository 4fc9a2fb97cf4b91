//! How a game is written in the chess protocols (UCI, CECP), and USI ⇄ chess notation as
//! Fairy-Stockfish writes its variants (read by the UCI and CECP dialects and by PGN
//! records).
//!
//! USI counts files from the right and ranks from the top (`7g7f`, `P*5e`, SFEN with the
//! first player uppercase and `b` to move). The chess protocols put `a1` at the first
//! player's bottom left (`c2c3`, `P@e2`) and write FEN with the first player uppercase and
//! `w` to move, holdings in brackets (`[Nnpp]`). The board text of a SFEN and of a FEN are
//! the same (rows from the top, the first player's left first), so the translation needs
//! only the board size and whether the game has holdings: the game's
//! [`ChessNotation`]. Promotion suffixes (`+`, `q`) are the same in both.

use thiserror::Error;

/// How a game is written in the chess protocols (UCI, CECP): FEN and squares `a1`.. are
/// derived from the board size; these are the facts that are not. Only games whose every
/// move is one board move or one drop have one (see [`ChessGame`]).
#[derive(Clone, Copy, Debug)]
pub struct ChessNotation {
    /// The name in CECP's `variant` (xboard takes a name that starts with one of its own
    /// variants' names, such as `shogi66`, for that variant).
    pub xboard_name: &'static str,
    /// The FEN carries holdings in brackets (`[Nnpp]`, `[]` when empty).
    pub holdings: bool,
    /// xboard `setup`: the piece-to-character table (xboard's piece order, `.` unused).
    pub xboard_pieces: &'static str,
    /// xboard `setup`: the parent variant whose rules xboard applies (`fairy`, `shogi`).
    pub xboard_parent: &'static str,
    /// xboard `piece` lines: a piece letter (`+A` for a promoted one) and its Betza moves.
    pub xboard_moves: &'static [(&'static str, &'static str)],
}

/// A game's chess notation, read by the protocol's UCI and CECP dialects (through the
/// registry's descriptors); the rules never use it.
pub trait Notation {
    /// The game in UCI and CECP; `None`: USI only (compound turns have no UCI form).
    const CHESS_NOTATION: Option<ChessNotation> = None;
}

/// A game as the chess protocols see it.
#[derive(Clone, Copy, Debug)]
pub struct ChessGame {
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    pub notation: ChessNotation,
}

/// Text that is not a move or position of the game in the expected notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("'{0}' is not a move of this game in chess notation (like e2e4, e7e8q, c2c3+, P@c3)")]
    Move(String),
    #[error("bad FEN: {0}")]
    Fen(String),
    #[error("bad SFEN: {0}")]
    Sfen(String),
}

/// A square as (column from the first player's left, row from the top).
type Square = (usize, usize);

fn split_digits(s: &str) -> (&str, &str) {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    s.split_at(n)
}

impl ChessGame {
    /// USI `<file digits><rank letter>` at the start of `s`; the rest of `s`.
    fn usi_square<'a>(&self, s: &'a str) -> Option<(Square, &'a str)> {
        let (digits, rest) = split_digits(s);
        let file: usize = digits.parse().ok()?;
        let rank = rest.bytes().next().filter(u8::is_ascii_lowercase)? - b'a';
        let (rank, col) = (rank as usize, self.files.checked_sub(file)?);
        (file >= 1 && rank < self.ranks).then_some(((col, rank), &rest[1..]))
    }

    /// Chess `<file letter><rank digits>` at the start of `s`; the rest of `s`.
    fn chess_square<'a>(&self, s: &'a str) -> Option<(Square, &'a str)> {
        let col = (s.bytes().next().filter(u8::is_ascii_lowercase)? - b'a') as usize;
        let (digits, rest) = split_digits(&s[1..]);
        let rank: usize = digits.parse().ok()?;
        // Checked before `ranks - rank` is computed (it would overflow past the board).
        if col < self.files && (1..=self.ranks).contains(&rank) {
            Some(((col, self.ranks - rank), rest))
        } else {
            None
        }
    }

    fn usi_name(&self, (col, row): Square) -> String {
        format!("{}{}", self.files - col, (b'a' + row as u8) as char)
    }

    fn chess_name(&self, (col, row): Square) -> String {
        format!("{}{}", (b'a' + col as u8) as char, self.ranks - row)
    }

    /// Translates one move token; `from`/`to` read and write squares.
    fn translate(
        &self,
        token: &str,
        drop_in: char,
        drop_out: char,
        read: impl Fn(&str) -> Option<(Square, &str)>,
        write: impl Fn(Square) -> String,
    ) -> Option<String> {
        let mut chars = token.chars();
        if let (Some(piece), Some(d)) = (chars.next(), chars.next()) {
            if d == drop_in && piece.is_ascii_alphabetic() {
                let (to, rest) = read(&token[2..])?;
                return rest.is_empty().then(|| format!("{}{drop_out}{}", piece.to_ascii_uppercase(), write(to)));
            }
        }
        let (from, rest) = read(token)?;
        let (to, suffix) = read(rest)?;
        let suffix_ok =
            suffix.is_empty() || suffix == "+" || (suffix.len() == 1 && suffix.bytes().all(|b| b.is_ascii_lowercase()));
        suffix_ok.then(|| format!("{}{}{suffix}", write(from), write(to)))
    }

    /// A USI move token in chess notation (`7g7f+` → `c2c3+`, `P*5e` → `P@e2`).
    pub fn move_to_chess(&self, usi: &str) -> Result<String, NotationError> {
        self.translate(usi, '*', '@', |s| self.usi_square(s), |q| self.chess_name(q))
            .ok_or_else(|| NotationError::Move(usi.to_string()))
    }

    /// A chess-notation move as a USI token; the game then judges it.
    pub fn move_from_chess(&self, chess: &str) -> Result<String, NotationError> {
        self.translate(chess, '@', '*', |s| self.chess_square(s), |q| self.usi_name(q))
            .ok_or_else(|| NotationError::Move(chess.to_string()))
    }

    /// A message of the game (about USI tokens and squares) in chess notation: every
    /// quoted move token and every square word is translated.
    pub fn text_to_chess(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find(|c: char| c.is_ascii_alphanumeric()) {
            out.push_str(&rest[..i]);
            rest = &rest[i..];
            let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '*' || c == '+')).unwrap_or(rest.len());
            let word = &rest[..end];
            let square = self.usi_square(word).filter(|(_, tail)| tail.is_empty()).map(|(q, _)| self.chess_name(q));
            out.push_str(&square.or_else(|| self.move_to_chess(word).ok()).unwrap_or_else(|| word.to_string()));
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    }

    /// A SFEN (`board b|w hand [ply]`) as a FEN (`board[holdings] w|b - - 0 <move>`).
    pub fn sfen_to_fen(&self, sfen: &str) -> Result<String, NotationError> {
        let bad = |why: &str| NotationError::Sfen(format!("{why} in '{sfen}'"));
        let f: Vec<&str> = sfen.split_whitespace().collect();
        if !(3..=4).contains(&f.len()) {
            return Err(bad("expected 3 or 4 fields"));
        }
        let side = match f[1] {
            "b" => "w",
            "w" => "b",
            _ => return Err(bad("side to move is not b or w")),
        };
        let ply: u32 = match f.get(3) {
            None => 1,
            Some(p) => p.parse().ok().filter(|&p| p >= 1).ok_or_else(|| bad("bad ply"))?,
        };
        let mut holdings = String::new();
        if f[2] != "-" {
            let mut count = String::new();
            for c in f[2].chars() {
                if c.is_ascii_digit() {
                    count.push(c);
                } else if c.is_ascii_alphabetic() {
                    let n: usize =
                        if count.is_empty() { 1 } else { count.parse().map_err(|_| bad("bad hand count"))? };
                    holdings.extend(std::iter::repeat_n(c, n.min(64)));
                    count.clear();
                } else {
                    return Err(bad("bad hand"));
                }
            }
        }
        if !self.notation.holdings && !holdings.is_empty() {
            return Err(bad("this game has no pieces in hand"));
        }
        let hand = if self.notation.holdings { format!("[{holdings}]") } else { String::new() };
        Ok(format!("{}{hand} {side} - - 0 {}", f[0], ply.div_ceil(2)))
    }

    /// A FEN (Fairy-Stockfish's form; castling, en passant and counters optional) as a
    /// SFEN. The position itself is checked by the game afterwards.
    pub fn fen_to_sfen(&self, fen: &str) -> Result<String, NotationError> {
        let bad = |why: &str| NotationError::Fen(format!("{why} in '{fen}'"));
        let f: Vec<&str> = fen.split_whitespace().collect();
        let (Some(first), Some(side)) = (f.first(), f.get(1)) else {
            return Err(bad("expected at least the board and the side to move"));
        };
        let (board, holdings) = match first.split_once('[') {
            Some((b, rest)) => {
                let h = rest.strip_suffix(']').ok_or_else(|| bad("holdings without ']'"))?;
                (b, if h == "-" { "" } else { h })
            }
            None => (*first, ""),
        };
        if !self.notation.holdings && first.contains('[') && !holdings.is_empty() {
            return Err(bad("this game has no holdings"));
        }
        if !holdings.chars().all(|c| c.is_ascii_alphabetic()) {
            return Err(bad("holdings are letters only"));
        }
        let side = match *side {
            "w" => "b",
            "b" => "w",
            _ => return Err(bad("side to move is not w or b")),
        };
        // After the side: castling and en passant (ignored), then no counters or two.
        let rest = &f[2..];
        let numbers = rest.iter().rev().take_while(|t| t.parse::<u32>().is_ok()).count();
        let flags = &rest[..rest.len() - numbers];
        let flag_ok = |t: &&str| *t == "-" || t.chars().all(|c| c.is_ascii_alphanumeric());
        if !(numbers == 0 || numbers == 2) || flags.len() > 2 || !flags.iter().all(flag_ok) {
            return Err(bad("expected '- - <halfmoves> <move>' after the side to move"));
        }
        let fullmove: u32 =
            if numbers == 2 { rest[rest.len() - 1].parse::<u32>().unwrap_or(1).clamp(1, 1_000_000) } else { 1 };
        let ply = 2 * fullmove - 1 + u32::from(side == "w");
        // Holdings as SFEN counts, in the order the letters first appear.
        let mut hand = String::new();
        let mut seen = Vec::new();
        for c in holdings.chars() {
            if !seen.contains(&c) {
                seen.push(c);
                let n = holdings.chars().filter(|&d| d == c).count();
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push(c);
            }
        }
        Ok(format!("{board} {side} {} {ply}", if hand.is_empty() { "-" } else { &hand }))
    }
}

#[cfg(test)]
mod tests {

    /// Issue 36: `a9a1` on an 8-rank board computed `ranks - rank` before the bounds
    /// test, an overflow panic in a debug build.
    #[test]
    fn a_square_past_the_board_is_an_error_not_an_overflow() {
        assert!(CHESS.move_from_chess("a9a1").is_err());
        assert!(CHESS.move_from_chess("a0a1").is_err());
        assert!(CHESS.move_from_chess("b13").is_err());
    }
    use super::*;

    const SHOGI: ChessGame = ChessGame {
        name: "t",
        files: 6,
        ranks: 6,
        notation: ChessNotation {
            xboard_name: "t",
            holdings: true,
            xboard_pieces: "",
            xboard_parent: "",
            xboard_moves: &[],
        },
    };
    const CHESS: ChessGame = ChessGame {
        name: "t",
        files: 8,
        ranks: 8,
        notation: ChessNotation {
            xboard_name: "t",
            holdings: false,
            xboard_pieces: "",
            xboard_parent: "",
            xboard_moves: &[],
        },
    };

    #[test]
    fn moves_both_ways() {
        for (usi, chess) in [("5g5e", "d2d4"), ("2b2a+", "g7g8+"), ("7b7aq", "b7b8q"), ("1h1a", "h1h8")] {
            assert_eq!(CHESS.move_to_chess(usi).as_deref(), Ok(chess));
            assert_eq!(CHESS.move_from_chess(chess).as_deref(), Ok(usi));
        }
        for (usi, chess) in [("K*1f", "K@f1"), ("P*6a", "P@a6"), ("4e4d+", "c2c3+")] {
            assert_eq!(SHOGI.move_to_chess(usi).as_deref(), Ok(chess));
            assert_eq!(SHOGI.move_from_chess(chess).as_deref(), Ok(usi));
        }
        assert_eq!(SHOGI.move_from_chess("p@a6").as_deref(), Ok("P*6a"));
        assert_eq!(
            CHESS.text_to_chess("move 1: '4g4d' is not legal: the pawn on 4g cannot move to 4d (ply 12, 3 fields)"),
            "move 1: 'e2e5' is not legal: the pawn on e2 cannot move to e5 (ply 12, 3 fields)"
        );
        for bad in ["", "e2", "e2e9", "i2i3", "e2e4qq", "e2e4Q", "@e2", "P@", "P@e2+", "e0e1", "e2e4 "] {
            assert!(CHESS.move_from_chess(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_both_ways() {
        let sfen = "6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1";
        let fen = SHOGI.sfen_to_fen(sfen).unwrap();
        assert_eq!(fen, "6/pppppp/6/6/PPPPPP/6[KRBGSNLkrbgsnl] w - - 0 1");
        assert_eq!(SHOGI.fen_to_sfen(&fen).unwrap(), sfen);
        assert_eq!(SHOGI.sfen_to_fen("6/6/6/6/6/6 w 2Pp 4").unwrap(), "6/6/6/6/6/6[PPp] b - - 0 2");
        assert_eq!(SHOGI.fen_to_sfen("6/6/6/6/6/6[PPp] b - - 0 2").unwrap(), "6/6/6/6/6/6 w 2Pp 4");
        assert_eq!(SHOGI.fen_to_sfen("6/6/6/6/6/6[-] w 0 1").unwrap(), "6/6/6/6/6/6 b - 1");
        assert_eq!(CHESS.sfen_to_fen("8/8/8/8/8/8/8/8 w - 7").unwrap(), "8/8/8/8/8/8/8/8 b - - 0 4");
        assert_eq!(CHESS.fen_to_sfen("8/8/8/8/8/8/8/8 b - - 3 4").unwrap(), "8/8/8/8/8/8/8/8 w - 8");
        for bad in ["", "8/8 x", "8/8[P w", "8/8[P] w", "8/8 w - - x y"] {
            assert!(CHESS.fen_to_sfen(bad).is_err(), "{bad}");
        }
        assert!(CHESS.sfen_to_fen("8/8 b P 1").is_err());
        assert_eq!(CHESS.fen_to_sfen("8/8 w - - 0 4294967295").unwrap(), "8/8 b - 1999999");
    }
}
