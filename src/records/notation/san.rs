//! Kokesu's SAN, as Fairy-Stockfish writes it (tests/records.rs checks every move of
//! 1,000 random games against pyffish): the piece letter (none for a pawn), the origin's
//! file, rank or square only where another piece of the kind reaches the same square, `x`
//! for a capture (a pawn's capture names its file), the chess square, `=Q` for a
//! promotion; [`super::name`] adds `+` or `#`.

use crate::game::{ChessGame, Live};
use crate::games;

use super::super::walk::grid;
use super::{one, NotationError, Style};

fn chess() -> Option<ChessGame> {
    games::descriptor("kokesu").and_then(games::Descriptor::chess_game)
}

/// A position's board and legal moves in chess coordinates, made once for all the SANs
/// asked of it.
struct Moves {
    board: Vec<Vec<Option<String>>>,
    ranks: usize,
    /// (USI token, chess move) of each legal move.
    legal: Vec<(String, String)>,
}

impl Moves {
    fn of(pos: &dyn Live, game: &ChessGame) -> Moves {
        let legal = pos.legal_moves().into_iter().filter_map(|m| game.move_to_chess(&m).ok().map(|c| (m, c))).collect();
        Moves { board: grid(&pos.sfen()), ranks: game.ranks, legal }
    }

    /// The piece letter (either case) on a chess square.
    fn at(&self, sq: &str) -> Option<&str> {
        let b = sq.as_bytes();
        let row = self.ranks.checked_sub((b.get(1)? - b'0') as usize)?;
        let col = (b.first()?.checked_sub(b'a')?) as usize;
        self.board.get(row).and_then(|r| r.get(col)).and_then(|p| p.as_deref())
    }

    /// The uppercase letter of the piece on a chess square (`""` when empty).
    fn piece(&self, sq: &str) -> String {
        self.at(sq).map(|p| p.to_ascii_uppercase()).unwrap_or_default()
    }

    fn bare_chess(&self, uci: &str) -> String {
        let (from, to, promo) = (&uci[0..2], &uci[2..4], &uci[4..]);
        let piece = self.piece(from);
        let capture = if self.at(to).is_some() { "x" } else { "" };
        let promo = if promo.is_empty() { String::new() } else { format!("={}", promo.to_ascii_uppercase()) };
        if piece == "P" {
            let file = if capture.is_empty() { "" } else { &from[..1] };
            return format!("{file}{capture}{to}{promo}");
        }
        // Other moves of a piece of the same kind to the same square.
        let rivals: Vec<&str> = self
            .legal
            .iter()
            .map(|(_, m)| m.as_str())
            .filter(|m| &m[2..4] == to && &m[0..2] != from)
            .filter(|m| self.piece(&m[0..2]) == piece)
            .map(|m| &m[0..2])
            .collect();
        let which = if rivals.is_empty() {
            ""
        } else if rivals.iter().all(|r| r[..1] != from[..1]) {
            &from[..1]
        } else if rivals.iter().all(|r| r[1..] != from[1..]) {
            &from[1..]
        } else {
            from
        };
        format!("{piece}{which}{capture}{to}{promo}")
    }
}

/// The SAN of `usi`, a legal move of `pos`, without a check mark.
pub(super) fn bare(pos: &dyn Live, usi: &str) -> String {
    let Some(game) = chess() else { return usi.to_string() };
    let Ok(uci) = game.move_to_chess(usi) else { return usi.to_string() };
    Moves::of(pos, &game).bare_chess(&uci)
}

/// A SAN taken apart: the piece letter (`P` for none), what it says of the origin, the
/// destination and the promotion letter.
struct Written<'a> {
    piece: char,
    file: Option<u8>,
    rank: Option<u8>,
    to: &'a str,
    promo: Option<char>,
}

fn read(text: &str) -> Option<Written<'_>> {
    let mut s = text.trim_end_matches(['+', '#', '!', '?']);
    let mut promo = None;
    if let Some(last) = s.chars().last().filter(|c| "QRBNqrbn".contains(*c)) {
        if s.len() > 2 {
            promo = Some(last.to_ascii_lowercase());
            s = s[..s.len() - 1].trim_end_matches(['=', '/']);
        }
    }
    let b = s.as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c)) && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    if b.len() < 2 || !square(b.len() - 2) {
        return None;
    }
    let to = &s[s.len() - 2..];
    let mut head = &b[..b.len() - 2];
    let piece = match head.first() {
        Some(c @ (b'K' | b'Q' | b'R' | b'B' | b'N' | b'P')) => {
            head = &head[1..];
            *c as char
        }
        _ => 'P',
    };
    if let Some(rest) = head.strip_suffix(b"x").or_else(|| head.strip_suffix(b":")) {
        head = rest;
    }
    let (mut file, mut rank) = (None, None);
    for &c in head {
        match c {
            b'a'..=b'h' if file.is_none() && rank.is_none() => file = Some(c),
            b'1'..=b'8' if rank.is_none() => rank = Some(c),
            _ => return None,
        }
    }
    Some(Written { piece, file, rank, to, promo })
}

/// The legal move `text` names: the check marks, `!` and `?`, `x` and `=` optional, the
/// origin optional where the rest is one move (and allowed where it is not needed), the
/// promotion letter in either case.
pub(super) fn parse(pos: &dyn Live, text: &str) -> Result<String, NotationError> {
    let unreadable = |why| NotationError::Unreadable { text: text.to_string(), style: Style::San, why };
    let game = chess().ok_or(unreadable("no chess board"))?;
    let w = read(text).ok_or(unreadable("expected a move like e4, Nbd2, exd5 or e8=Q"))?;
    let moves = Moves::of(pos, &game);
    let found = moves.legal.iter().filter(|(_, c)| {
        let (from, to, promo) = (&c.as_bytes()[0..2], &c[2..4], c[4..].chars().next());
        to == w.to
            && moves.piece(&c[0..2]).starts_with(w.piece)
            && w.file.is_none_or(|f| from[0] == f)
            && w.rank.is_none_or(|r| from[1] == r)
            // A pawn's move that names no file goes straight.
            && (w.piece != 'P' || w.file.is_some() || from[0] == to.as_bytes()[0])
            && promo == w.promo
    });
    one(text, found.map(|(m, _)| m.clone()).collect())
}
