//! CSA for 66 shogi.
//!
//! The board is always written out: six `P1`..`P6` rows of six cells (` * `, `+FU`,
//! `-KY`; rank a is `P1`, the files from 6 down to 1), then the hands as `P+00OU00HI...`
//! and `P-...` (the king and both of rook and bishop are in hand before placement), then
//! `+` or `-` to move; `PI` (the 9x9 start) is refused. Squares are two digits, file then
//! rank (`56` is 5f); a move is `+5655FU` with the piece after the move, a drop `+0016OU`.
//! A comment on a move is `'*` lines after it; other `'` lines and times (`T12`) are read
//! and skipped. The result is one `%` line (`%TORYO`, `%TSUMI`, `%SENNICHITE`, ...).

use crate::game::Color;

use super::walk::{grid, position, replay, Played, Walk};
use super::{Ending, Errors, LineError, Parsed, Record};

const VARIANT: &str = "shogi66";
const SIZE: usize = 6;

const PIECES: [(&str, &str); 14] = [
    ("K", "OU"),
    ("R", "HI"),
    ("B", "KA"),
    ("G", "KI"),
    ("S", "GI"),
    ("N", "KE"),
    ("L", "KY"),
    ("P", "FU"),
    ("+R", "RY"),
    ("+B", "UM"),
    ("+S", "NG"),
    ("+N", "NK"),
    ("+L", "NY"),
    ("+P", "TO"),
];

const HEADERS: [(&str, &str); 5] =
    [("N+", "sente"), ("N-", "gote"), ("$START_TIME:", "date"), ("$EVENT:", "event"), ("$SITE:", "site")];

/// The field of a rules switch that is not at its default, one a switch:
/// `$RULE:NAME=VALUE` (66 shogi, CSA's one game, has none: any is an error).
const RULE: &str = "$RULE:";

fn code(letter: &str) -> &'static str {
    PIECES.iter().find(|(l, _)| *l == letter).map_or("??", |p| p.1)
}

fn letter(code: &str) -> Option<&'static str> {
    PIECES.iter().find(|(_, c)| *c == code).map(|p| p.0)
}

fn sign(c: Color) -> char {
    match c {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

/// `56` for USI `5f`.
fn square(usi: &str) -> String {
    let b = usi.as_bytes();
    format!("{}{}", b[0] as char, b[1] - b'a' + 1)
}

/// The `%` word for a result, from the side to move's view.
fn result_word(e: &Ending, to_move: Color) -> Option<String> {
    let mover_wins = e.winner == Some(to_move);
    Some(match e.rule.as_deref()? {
        "checkmate" | "no legal move" => "%TSUMI".into(),
        "repetition" => "%SENNICHITE".into(),
        "impasse" => "%JISHOGI".into(),
        "resignation" => "%TORYO".into(),
        "time" => "%TIME_UP".into(),
        "perpetual check" if mover_wins => "%OUTE_SENNICHITE".into(),
        "perpetual check" => format!("%{}ILLEGAL_ACTION", sign(to_move)),
        _ => return None,
    })
}

fn ending_of(word: &str, to_move: Color) -> Result<Option<Ending>, String> {
    let (win, lose) = (Some(to_move), Some(to_move.flip()));
    let (winner, rule) = match word {
        "%TSUMI" => (lose, Some("checkmate")),
        "%SENNICHITE" => (None, Some("repetition")),
        "%JISHOGI" => (None, Some("impasse")),
        "%HIKIWAKE" => (None, None),
        "%TORYO" => (lose, Some("resignation")),
        "%TIME_UP" => (lose, Some("time")),
        "%OUTE_SENNICHITE" => (win, Some("perpetual check")),
        "%KACHI" => (win, Some("impasse")),
        "%ILLEGAL_MOVE" => (lose, None),
        "%+ILLEGAL_ACTION" => (Some(Color::Gote), Some("perpetual check")),
        "%-ILLEGAL_ACTION" => (Some(Color::Sente), Some("perpetual check")),
        "%CHUDAN" => return Ok(None),
        _ => return Err(format!("'{word}' is not a CSA result")),
    };
    Ok(Some(Ending { winner, rule: rule.map(String::from) }))
}

pub(crate) fn write(r: &Record) -> Result<String, String> {
    let mut out = String::from("V2.2\n");
    for (k, v) in &r.headers {
        if k == "comment" {
            continue;
        }
        match HEADERS.iter().find(|(_, o)| o == k) {
            Some((csa, _)) => out.push_str(&format!("{csa}{v}\n")),
            None => out.push_str(&format!("${}:{v}\n", k.to_ascii_uppercase())),
        }
    }
    for entry in r.rules.entries() {
        out.push_str(&format!("{RULE}{entry}\n"));
    }
    let start = r.position()?;
    let sfen = start.sfen();
    for (i, row) in grid(&sfen).iter().enumerate() {
        out.push_str(&format!("P{}", i + 1));
        for cell in row {
            match cell {
                None => out.push_str(" * "),
                Some(p) => {
                    let c = if p.chars().any(|c| c.is_ascii_lowercase()) { Color::Gote } else { Color::Sente };
                    out.push(sign(c));
                    out.push_str(code(&p.to_ascii_uppercase()));
                }
            }
        }
        out.push('\n');
    }
    let hands = crate::game::state::hands(sfen.split_whitespace().nth(2).unwrap_or("-"));
    for (c, h) in [(Color::Sente, &hands.b), (Color::Gote, &hands.w)] {
        let mut line = format!("P{}", sign(c));
        let mut count = 0;
        for ch in h.chars().filter(|&ch| ch != '-') {
            if let Some(d) = ch.to_digit(10) {
                count = count * 10 + d;
            } else {
                let n = std::mem::take(&mut count).max(1);
                for _ in 0..n {
                    line.push_str(&format!("00{}", code(&ch.to_ascii_uppercase().to_string())));
                }
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push(sign(start.side_to_move()));
    out.push('\n');
    if let Some(c) = r.header("comment") {
        comment_lines(&mut out, c);
    }
    replay(r, |_, pos, m| {
        out.push_str(&move_text(&pos.sfen(), pos.side_to_move(), &m.usi));
        out.push('\n');
        if let Some(c) = &m.comment {
            comment_lines(&mut out, c);
        }
    })?;
    if let Some(e) = &r.result {
        let mut end = start;
        for m in &r.moves {
            end.play(&m.usi)?;
        }
        if let Some(word) = result_word(e, end.side_to_move()) {
            out.push_str(&word);
            out.push('\n');
        }
    }
    Ok(out)
}

fn comment_lines(out: &mut String, text: &str) {
    for l in text.split('\n') {
        out.push_str(&format!("'*{l}\n"));
    }
}

fn move_text(sfen: &str, side: Color, usi: &str) -> String {
    if let Some((letter, to)) = usi.split_once('*') {
        return format!("{}00{}{}", sign(side), square(to), code(letter));
    }
    let (from, to) = (&usi[0..2], &usi[2..4]);
    let board = grid(sfen);
    let b = from.as_bytes();
    let piece = board[(b[1] - b'a') as usize][SIZE - (b[0] - b'0') as usize].clone().unwrap_or_default();
    let mut piece = piece.to_ascii_uppercase();
    if usi.ends_with('+') {
        piece.insert(0, '+');
    }
    format!("{}{}{}{}", sign(side), square(from), square(to), code(&piece))
}

/// The board, the hands and the side to move being read.
#[derive(Default)]
struct Setup {
    rows: Vec<Option<String>>,
    hands: String,
    side: Option<char>,
}

impl Setup {
    /// A `P` line: a board row `P1`..`P6` or a hand `P+`, `P-`. Read by characters, never
    /// by byte offsets: any text is an error, not a slice inside a character.
    fn line(&mut self, line: &str) -> Result<(), String> {
        if line.starts_with("PI") {
            return Err("'PI' is the 9x9 start position: a 66 shogi record writes its board as P1..P6".into());
        }
        if let Some(h) = line.strip_prefix("P+").or_else(|| line.strip_prefix("P-")) {
            let gote = line.starts_with("P-");
            let chars: Vec<char> = h.chars().collect();
            for chunk in chars.chunks(4) {
                let text: String = chunk.iter().collect();
                let l = text.strip_prefix("00").and_then(letter).filter(|l| !l.starts_with('+'));
                let l = l.ok_or_else(|| format!("'{text}' is not a piece in hand like 00FU"))?;
                self.hands.push_str(&if gote { l.to_ascii_lowercase() } else { l.to_string() });
            }
            return Ok(());
        }
        let not_row = || format!("'{line}': a 66 shogi row is P1..P6 with six cells");
        let mut chars = line.chars();
        chars.next(); // 'P'
        let rank = chars.next().and_then(|c| c.to_digit(10)).map(|d| d as usize);
        let rank = rank.filter(|r| (1..=SIZE).contains(r)).ok_or_else(not_row)?;
        let cells: Vec<char> = chars.collect();
        // Six cells of three characters; a last empty cell may have lost its trailing space.
        if cells.len().div_ceil(3) != SIZE {
            return Err(not_row());
        }
        let mut row = String::new();
        let mut empty = 0;
        for cell in cells.chunks(3) {
            let text: String = cell.iter().collect();
            if text.trim() == "*" {
                empty += 1;
                continue;
            }
            let l = match cell[0] {
                '+' | '-' if cell.len() == 3 => letter(&cell[1..].iter().collect::<String>()),
                _ => None,
            };
            let l = l.ok_or_else(|| format!("'{text}' is not a cell like ' * ', +FU or -KY"))?;
            if empty > 0 {
                row.push_str(&std::mem::take(&mut empty).to_string());
            }
            row.push_str(&if cell[0] == '-' { l.to_ascii_lowercase() } else { l.to_string() });
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        self.rows.resize(SIZE, None);
        self.rows[rank - 1] = Some(row);
        Ok(())
    }

    fn sfen(&self) -> Result<String, String> {
        let rows: Option<Vec<String>> = self.rows.iter().cloned().collect();
        let rows = rows.filter(|r| r.len() == SIZE).ok_or("the board needs all of P1..P6")?;
        let side = if self.side == Some('-') { "w" } else { "b" };
        let hands = if self.hands.is_empty() { "-" } else { &self.hands };
        Ok(format!("{} {side} {hands} 1", rows.join("/")))
    }
}

pub(crate) fn read(text: &str) -> Parsed {
    let mut record = Record::new(VARIANT);
    let mut errors = Errors::default();
    let mut setup = Setup::default();
    let mut moves: Vec<(usize, &str)> = Vec::new();
    let mut comments = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let raw = raw.trim_end_matches('\r');
        // Moves may share a line, separated by commas; a comment or a `$` field is one line.
        let whole = raw.starts_with('\'') || raw.starts_with('$');
        let parts: Vec<&str> = if whole { vec![raw] } else { raw.split(',').collect() };
        for part in parts {
            let line = part.trim_end();
            if !moves.is_empty() || (setup.side.is_some() && !line.starts_with('$')) {
                moves.push((n, line));
            } else if line.is_empty() || line.starts_with('V') || (line.starts_with('\'') && !line.starts_with("'*")) {
            } else if line == "+" || line == "-" {
                setup.side = line.chars().next();
            } else if let Some(c) = line.strip_prefix("'*") {
                comments.push(c);
            } else if line.starts_with('P') {
                if let Err(e) = setup.line(line) {
                    errors.push(LineError::new(n, e));
                }
            } else if let Some((ours, value)) = HEADERS.iter().find_map(|(c, o)| line.strip_prefix(c).map(|v| (o, v))) {
                record.headers.push((ours.to_string(), value.to_string()));
            } else if let Some(entry) = line.strip_prefix(RULE) {
                if let Err(e) = record.rules.set_entry(VARIANT, entry) {
                    errors.push(LineError::new(n, e));
                }
            } else if let Some((k, v)) = line.strip_prefix('$').and_then(|l| l.split_once(':')) {
                record.headers.push((k.to_ascii_lowercase(), v.to_string()));
            } else {
                errors.push(LineError::new(n, format!("'{line}' is not a CSA header, board or move line")));
            }
        }
    }
    if setup.side.is_none() {
        errors.push(LineError::new(0, "no '+' or '-' line saying who moves first"));
    }
    match setup.sfen() {
        Ok(s) if position(VARIANT, None).map(|p| p.sfen()).as_deref() != Ok(s.as_str()) => record.start = Some(s),
        Ok(_) => {}
        Err(e) => errors.push(LineError::new(0, e)),
    }
    let mut walk = match Walk::after_headers(record, 0, errors, &comments) {
        Ok(w) => w,
        Err(p) => return *p,
    };
    let mut stated = None;
    for (n, line) in moves {
        if let Some(c) = line.strip_prefix("'*") {
            walk.comment(c);
        } else if line.is_empty() || line.starts_with('\'') || line.starts_with('T') {
        } else if line.starts_with('%') {
            match ending_of(line, walk.pos.side_to_move()) {
                Ok(e) if walk.close(n) => stated = e.map(|e| (e, n)),
                Ok(_) => {}
                Err(e) => walk.error(n, e),
            }
        } else if walk.expects_move(line, n) {
            match read_move(&walk, line) {
                Ok(usi) => walk.push(&usi, n),
                Err(e) => walk.fail(n, e),
            }
        }
    }
    walk.finish(stated)
}

/// `+5655FU` as a USI token.
fn read_move(walk: &Walk, line: &str) -> Result<String, String> {
    let c: Vec<char> = line.chars().collect();
    let not_move = || format!("'{line}' is not a CSA move like +5655FU");
    if c.len() != 7 || !matches!(c[0], '+' | '-') || !c[1..5].iter().all(char::is_ascii_digit) {
        return Err(not_move());
    }
    let code: String = c[5..7].iter().collect();
    let piece = letter(&code).ok_or_else(not_move)?;
    if c[0] != sign(walk.pos.side_to_move()) {
        return Err(format!("'{line}': it is not {}'s turn", c[0]));
    }
    // The digits are ASCII: each is its value.
    let d: Vec<usize> = c[1..5].iter().map(|ch| ch.to_digit(10).unwrap_or(0) as usize).collect();
    let usi = |file: usize, rank: usize| -> Result<String, String> {
        if (1..=SIZE).contains(&file) && (1..=SIZE).contains(&rank) {
            Ok(format!("{file}{}", char::from(b'a' + rank as u8 - 1)))
        } else {
            Err(format!("'{line}': square {file}{rank} is off the 6x6 board"))
        }
    };
    let to = usi(d[2], d[3])?;
    if d[0] == 0 && d[1] == 0 {
        return Ok(format!("{piece}*{to}"));
    }
    let from = usi(d[0], d[1])?;
    let board = grid(&walk.pos.sfen());
    let there = board.get(d[1] - 1).and_then(|r| r.get(SIZE - d[0])).cloned().flatten().unwrap_or_default();
    let there = there.to_ascii_uppercase();
    let promote = piece.starts_with('+') && !there.starts_with('+');
    if there != piece.trim_start_matches('+') && there != piece {
        return Err(format!("'{line}': the piece on {from} is not {code}"));
    }
    Ok(format!("{from}{to}{}", if promote { "+" } else { "" }))
}
