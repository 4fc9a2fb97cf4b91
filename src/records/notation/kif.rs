//! KIF's move names: the pieces' kanji (one table for the KIF records and the move
//! names), the squares (`３五` for `3e`), a record's move text (`７六歩(77)`) and the
//! Japanese name of a move as players write it (`☗７六歩`, `☖同　歩`, `☗３三金右`).

use crate::game::Live;

use super::super::walk::grid;
use super::shogi::{destination, Board, Move};
use super::{one, NotationError, Style};

/// A game's pieces in KIF: SFEN text, the name in moves, the character in diagrams.
pub(crate) struct Names {
    pub(crate) variant: &'static str,
    pub(crate) handicap: &'static str,
    pub(crate) pieces: &'static [(&'static str, &'static str, &'static str)],
    /// Other spellings read: the name, the SFEN text.
    pub(crate) aliases: &'static [(&'static str, &'static str)],
}

pub(crate) const GAMES: [Names; 2] = [
    Names {
        variant: "shogi66",
        handicap: "66将棋",
        pieces: &[
            ("K", "玉", "玉"),
            ("R", "飛", "飛"),
            ("B", "角", "角"),
            ("G", "金", "金"),
            ("S", "銀", "銀"),
            ("N", "桂", "桂"),
            ("L", "香", "香"),
            ("P", "歩", "歩"),
            ("+R", "龍", "龍"),
            ("+B", "馬", "馬"),
            ("+S", "成銀", "全"),
            ("+N", "成桂", "圭"),
            ("+L", "成香", "杏"),
            ("+P", "と", "と"),
        ],
        aliases: &[("王", "K"), ("竜", "+R"), ("全", "+S"), ("圭", "+N"), ("杏", "+L")],
    },
    Names {
        variant: "numbershogi",
        handicap: "数字将棋",
        pieces: &[
            ("A", "一", "一"),
            ("B", "二", "二"),
            ("C", "三", "三"),
            ("D", "四", "四"),
            ("E", "五", "五"),
            ("F", "六", "六"),
            ("+A", "壱", "壱"),
            ("+B", "弐", "弐"),
            ("+C", "参", "参"),
            ("+D", "肆", "肆"),
            ("+E", "伍", "伍"),
            ("+F", "陸", "陸"),
        ],
        aliases: &[],
    },
];

pub(crate) const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
pub(crate) const NUMERALS: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];

pub(crate) fn names(variant: &str) -> Option<&'static Names> {
    GAMES.iter().find(|g| g.variant == variant)
}

impl Names {
    /// The SFEN text (uppercase) of a piece name at the start of `s`, the longest first.
    pub(crate) fn piece_at<'a>(&self, s: &'a str) -> Option<(&'static str, &'a str)> {
        let all = self.pieces.iter().map(|(l, n, _)| (*n, *l)).chain(self.aliases.iter().copied());
        all.filter_map(|(n, l)| s.strip_prefix(n).map(|rest| (l, rest))).min_by_key(|(_, rest)| rest.len())
    }
    pub(crate) fn name(&self, letter: &str) -> &'static str {
        self.pieces.iter().find(|(l, ..)| *l == letter).map_or("?", |p| p.1)
    }
    pub(crate) fn glyph(&self, letter: &str) -> &'static str {
        self.pieces.iter().find(|(l, ..)| *l == letter).map_or("?", |p| p.2)
    }
}

/// `３五` for USI `3e`.
pub(crate) fn square_name(usi: &str) -> String {
    let b = usi.as_bytes();
    format!("{}{}", FILES[(b[0] - b'1') as usize], NUMERALS[(b[1] - b'a' + 1) as usize])
}

/// The USI square of `３五` at the start of `s`, and the rest.
pub(crate) fn read_square(s: &str) -> Option<(String, &str)> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let file = FILES.iter().position(|&f| f == first)?;
    let rank_char = chars.next()?;
    let rank = NUMERALS.iter().position(|n| n.starts_with(rank_char) && !n.is_empty())?;
    Some((format!("{}{}", file + 1, (b'a' + rank as u8 - 1) as char), chars.as_str()))
}

/// `７六歩(77)`, `同　歩(56)`, `５五角打`, `２二角成(88)`.
pub(crate) fn record_move_text(g: &Names, sfen: &str, legal: &[String], usi: &str, last_to: Option<&str>) -> String {
    if let Some((letter, to)) = usi.split_once('*') {
        return format!("{}{}打", square_name(to), g.name(letter));
    }
    let promote = usi.ends_with('+');
    let (from, to) = usi.trim_end_matches('+').split_at(usi.trim_end_matches('+').len() - 2);
    let board = grid(sfen);
    let fb = from.as_bytes();
    let file: usize = from[..from.len() - 1].parse().unwrap_or(1);
    let (row, col) = ((fb[fb.len() - 1] - b'a') as usize, board.first().map_or(0, |r| r.len()).saturating_sub(file));
    let piece = board.get(row).and_then(|r| r.get(col)).cloned().flatten().unwrap_or_default().to_ascii_uppercase();
    let at = if last_to == Some(to) { "同　".to_string() } else { square_name(to) };
    let suffix = if promote {
        "成"
    } else if legal.iter().any(|m| *m == format!("{usi}+")) {
        "不成"
    } else {
        ""
    };
    format!("{at}{}{suffix}({file}{})", g.name(&piece), row + 1)
}

/// The marks of the side to move: ☗ sente, ☖ gote.
const MARKS: [char; 2] = ['☗', '☖'];

/// The words that tell apart pieces of one kind reaching one square, as the Japan Shogi
/// Association writes them: the way the piece goes (上 forward, 引 back, 寄 sideways), which
/// of them it is from the mover's view (右, 左, 直: straight forward), or both (`左上`).
const RELATIVE: &str = "右左直上引寄";

/// `☗７六歩`, `☖同　歩`, `☗５五角打`, `☗２二角成`, `☗３三金右`; `previous` is the token of
/// the move before (for `同`).
pub(super) fn name(pos: &dyn Live, usi: &str, previous: Option<&str>) -> String {
    let (Some(g), board) = (names(pos.variant()), Board::of(pos)) else { return usi.to_string() };
    let Some(m) = board.find(usi) else { return usi.to_string() };
    let mark = MARKS[board.side.index()];
    let piece = g.name(&m.piece);
    if m.from.is_none() {
        return format!("{mark}{}{piece}打", square_name(&m.to));
    }
    let at =
        if previous.and_then(destination) == Some(m.to.as_str()) { "同　".to_string() } else { square_name(&m.to) };
    let suffix = if m.promote {
        "成"
    } else if board.could_promote(m) {
        "不成"
    } else {
        ""
    };
    match relative(&board, m) {
        Ok(words) => format!("{mark}{at}{piece}{words}{suffix}"),
        Err(origin) => format!("{mark}{at}{piece}{suffix}{origin}"),
    }
}

/// The way a piece goes from `from` to `to`: 上, 引 or 寄.
fn way(board: &Board, from: &str, to: &str) -> char {
    match board.forward(from, to).signum() {
        1 => '上',
        -1 => '引',
        _ => '寄',
    }
}

/// Whether `m` goes straight forward, for a piece that writes it 直 (not R, B or their
/// promoted forms, which write 左 and 右).
fn straight(board: &Board, m: &Move) -> bool {
    let Some(from) = m.from.as_deref() else { return false };
    let same_file = from[..from.len() - 1] == m.to[..m.to.len() - 1];
    same_file && board.forward(from, &m.to) > 0 && !["R", "B", "+R", "+B"].contains(&m.piece.as_str())
}

/// 右, 左 or 直 for `m` among the pieces on `others`, if one of them tells it apart.
fn side_word(board: &Board, m: &Move, others: &[&str]) -> Option<char> {
    let from = m.from.as_deref()?;
    if straight(board, m) {
        return Some('直');
    }
    let me = board.rightness(from);
    if others.iter().all(|o| board.rightness(o) < me) {
        Some('右')
    } else if others.iter().all(|o| board.rightness(o) > me) {
        Some('左')
    } else {
        None
    }
}

/// The words that tell `m` apart from the other pieces of its kind reaching its square
/// (none when there are none), or, when no words do, its `(from)` square as in a record.
fn relative(board: &Board, m: &Move) -> Result<String, String> {
    let (Some(from), rivals) = (m.from.as_deref(), board.rivals(m)) else { return Ok(String::new()) };
    if rivals.is_empty() {
        return Ok(String::new());
    }
    let mine = way(board, from, &m.to);
    let same_way: Vec<&str> = rivals.iter().copied().filter(|r| way(board, r, &m.to) == mine).collect();
    if same_way.is_empty() {
        return Ok(mine.to_string());
    }
    if let Some(w) = side_word(board, m, &rivals) {
        return Ok(w.to_string());
    }
    if let Some(w) = side_word(board, m, &same_way) {
        return Ok(format!("{w}{mine}"));
    }
    Err(origin_text(from))
}

/// `(77)` for `7g`.
fn origin_text(from: &str) -> String {
    let rank = from.as_bytes()[from.len() - 1] - b'a' + 1;
    format!("({}{rank})", &from[..from.len() - 1])
}

/// A square at the start of `s`: `７六` as written, also with an ASCII digit for the file
/// or the rank (`7六`, `76`).
fn loose_square(s: &str) -> Option<(String, &str)> {
    if let Some(found) = read_square(s) {
        return Some(found);
    }
    let mut chars = s.chars();
    let first = chars.next()?;
    let file = FILES.iter().position(|&f| f == first).map(|f| f + 1).or(first.to_digit(10).map(|d| d as usize))?;
    let r = chars.next()?;
    let rank =
        NUMERALS.iter().position(|n| n.starts_with(r) && !n.is_empty()).or(r.to_digit(10).map(|d| d as usize))?;
    (file >= 1 && rank >= 1).then(|| (format!("{file}{}", (b'a' + rank as u8 - 1) as char), chars.as_str()))
}

/// The legal move a Japanese name names: with or without ☗☖ (▲△), `同` with or without
/// its space, the relative words and the `(from)` square optional where the rest is one
/// move, `打` optional where no board move fits, `生` for `不成`.
pub(super) fn parse(pos: &dyn Live, text: &str) -> Result<String, NotationError> {
    let unreadable = |why| NotationError::Unreadable { text: text.to_string(), style: Style::Kif, why };
    let g = names(pos.variant()).ok_or(unreadable("the game has no KIF names"))?;
    let board = Board::of(pos);
    let mut s = text.trim_start_matches(['☗', '☖', '▲', '△']).trim_start();
    let to = if let Some(rest) = s.strip_prefix('同') {
        s = rest.trim_start_matches(['　', ' ']);
        let last = pos.moves().last().cloned().ok_or(unreadable("'同' with no move before it"))?;
        destination(&last).ok_or(unreadable("'同' after a move with no square"))?.to_string()
    } else {
        let (sq, rest) = loose_square(s).ok_or(unreadable("it does not start with a square like ７六 or with 同"))?;
        s = rest;
        sq
    };
    let (letter, rest) = g.piece_at(s).ok_or(unreadable("no piece name after the square"))?;
    s = rest;
    let words: String = s.chars().take_while(|c| RELATIVE.contains(*c) || *c == '行' || *c == '入').collect();
    s = &s[words.len()..];
    let words = words.replace(['行', '入'], "上");
    let (promote, drop) = if let Some(r) = s.strip_prefix("不成").or_else(|| s.strip_prefix('生')) {
        s = r;
        (Some(false), false)
    } else if let Some(r) = s.strip_prefix('成') {
        s = r;
        (Some(true), false)
    } else if let Some(r) = s.strip_prefix('打') {
        s = r;
        (Some(false), true)
    } else {
        (None, false)
    };
    let origin = match s.strip_prefix('(') {
        Some(r) => {
            let (inner, after) = r.split_once(')').ok_or(unreadable("a '(' with no ')'"))?;
            s = after;
            let (sq, left) =
                loose_square(inner).ok_or(unreadable("the '(from)' square is not two digits like (77)"))?;
            if !left.is_empty() {
                return Err(unreadable("the '(from)' square is not two digits like (77)"));
            }
            Some(sq)
        }
        None => None,
    };
    if !s.trim().is_empty() {
        return Err(unreadable("more text after the move"));
    }
    let mut found: Vec<&Move> = board.legal.iter().filter(|m| m.to == to && m.piece == letter).collect();
    if drop {
        found.retain(|m| m.from.is_none());
    } else if origin.is_some() {
        found.retain(|m| m.from == origin);
    } else if found.iter().any(|m| m.from.is_some()) {
        found.retain(|m| m.from.is_some());
    }
    match promote {
        Some(p) => found.retain(|m| m.promote == p),
        None if found.iter().any(|m| !m.promote) => found.retain(|m| !m.promote),
        None => {}
    }
    // The way first (上, 引, 寄), then which of those that go that way (左上).
    let mut words: Vec<char> = words.chars().collect();
    words.sort_by_key(|w| "右左直".contains(*w));
    for w in words {
        match w {
            '直' => found.retain(|m| straight(&board, m)),
            '右' | '左' => {
                let sign = if w == '右' { 1 } else { -1 };
                let most = found.iter().filter_map(|m| m.from.as_deref()).map(|f| sign * board.rightness(f)).max();
                found.retain(|m| m.from.as_deref().map(|f| sign * board.rightness(f)) == most);
            }
            _ => found.retain(|m| m.from.as_deref().is_some_and(|f| way(&board, f, &m.to) == w)),
        }
    }
    one(text, found.into_iter().map(|m| m.usi.clone()).collect())
}
