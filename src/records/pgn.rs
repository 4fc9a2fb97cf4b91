//! PGN for Kokesu, its moves in SAN ([`super::notation`]).
//!
//! Sente (red, uppercase) is PGN's White. `[Variant "Kokesu"]` names the game; a start
//! position other than the standard one is `[SetUp "1"]` and `[FEN "..."]`, the FEN's
//! board the SFEN's, `w` for sente to move, no castling or en passant, the ply from the
//! move number. `[Termination "..."]` carries the rule that ended the game. Comments are
//! `{...}` after a move; `;` comments, NAGs and variations are read and skipped.

use crate::game::{Color, Live};

use super::notation::{self, Style};
use super::walk::{replay, Played, Walk};
use super::{Ending, Errors, LineError, Parsed, Record};

const VARIANT: &str = "kokesu";

/// PGN tags and the record's header keys.
const KEYS: [(&str, &str); 5] =
    [("Event", "event"), ("Site", "site"), ("Date", "date"), ("White", "sente"), ("Black", "gote")];

/// Tags that the record holds elsewhere.
const STRUCTURAL: [&str; 6] = ["Variant", "SetUp", "FEN", "Result", "Termination", RULES];

/// The tag of the rules switches that are not at their defaults, `NAME=VALUE` each,
/// separated by `;`: `[Rules "KokesuPromotion=free; KokesuStalemate=loss"]`.
const RULES: &str = "Rules";

fn fen_of(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let ply: u32 = f.get(3).and_then(|p| p.parse().ok()).unwrap_or(1);
    let side = if f.get(1) == Some(&"w") { "b" } else { "w" };
    format!("{} {side} - - 0 {}", f.first().unwrap_or(&""), ply.div_ceil(2).max(1))
}

fn sfen_of(fen: &str) -> Result<String, String> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    let (board, side) = match f[..] {
        [b, s, ..] => (b, s),
        _ => return Err(format!("FEN '{fen}' has no side to move")),
    };
    let most = super::MAX_SFEN_PLY / 2;
    let full = match f.get(5) {
        None => 1,
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=most).contains(n))
            .ok_or_else(|| format!("FEN move number '{n}' is not a number from 1 to {most}"))?,
    };
    let (side, ply) = match side {
        "w" => ("b", 2 * full - 1),
        "b" => ("w", 2 * full),
        _ => return Err(format!("FEN side to move '{side}' is not w or b")),
    };
    Ok(format!("{board} {side} - {ply}"))
}

fn result_text(e: Option<&Ending>) -> &'static str {
    match e.map(|e| e.winner) {
        None => "*",
        Some(Some(Color::Sente)) => "1-0",
        Some(Some(Color::Gote)) => "0-1",
        Some(None) => "1/2-1/2",
    }
}

pub fn write(r: &Record) -> Result<String, String> {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('\\', "\\\\").replace('"', "\\\"")))
    };
    for (theirs, ours) in KEYS {
        tag(&mut out, theirs, r.header(ours).unwrap_or("?"));
    }
    let result = result_text(r.result.as_ref());
    tag(&mut out, "Result", result);
    tag(&mut out, "Variant", "Kokesu");
    if !r.rules.is_default() {
        if let Some((name, _)) = r.rules.iter().find(|(_, v)| v.contains(';')) {
            return Err(format!("rules switch {name}: a value with ';' cannot be written in the PGN tag {RULES}"));
        }
        tag(&mut out, RULES, &r.rules.entries().collect::<Vec<_>>().join("; "));
    }
    if let Some(s) = &r.start {
        tag(&mut out, "SetUp", "1");
        tag(&mut out, "FEN", &fen_of(s));
    }
    if let Some(rule) = r.result.as_ref().and_then(|e| e.rule.as_deref()) {
        tag(&mut out, "Termination", rule);
    }
    for (k, v) in &r.headers {
        if !KEYS.iter().any(|(_, o)| o == k) && k != "comment" {
            tag(&mut out, k, v);
        }
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    if let Some(c) = r.header("comment") {
        words.push(format!("{{{}}}", c.replace('}', ")")));
    }
    let mut need_number = true;
    replay(r, |_, pos, m| {
        let ply = pos.sfen().split_whitespace().nth(3).and_then(|p| p.parse::<u32>().ok()).unwrap_or(1);
        let number = ply.div_ceil(2);
        match pos.side_to_move() {
            Color::Sente => words.push(format!("{number}.")),
            Color::Gote if need_number => words.push(format!("{number}...")),
            Color::Gote => {}
        }
        words.push(notation::name(pos, &m.usi, Style::San, None));
        need_number = m.comment.is_some();
        if let Some(c) = &m.comment {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
    })?;
    words.push(result.to_string());
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push('\n');
    Ok(out)
}

/// The movetext's pieces: SAN words, comments and the result, with their lines.
enum Piece {
    Word(String),
    Comment(String),
}

fn movetext(text: &str, first_line: usize, errors: &mut Errors) -> Vec<(Piece, usize)> {
    let mut out = Vec::new();
    let mut line = first_line;
    let mut chars = text.chars().peekable();
    let mut depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\n' => line += 1,
            '{' => {
                let (mut body, start) = (String::new(), line);
                loop {
                    match chars.next() {
                        Some('}') => break,
                        Some(ch) => {
                            line += usize::from(ch == '\n');
                            body.push(ch);
                        }
                        None => {
                            errors.push(LineError::new(start, "a '{' comment is never closed"));
                            break;
                        }
                    }
                }
                if depth == 0 {
                    out.push((Piece::Comment(body), start));
                }
            }
            ';' => while chars.next_if(|&ch| ch != '\n').is_some() {},
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            c => {
                let mut word = c.to_string();
                while let Some(ch) = chars.next_if(|&ch| !ch.is_whitespace() && !"{}();".contains(ch)) {
                    word.push(ch);
                }
                if depth == 0 {
                    out.push((Piece::Word(word), line));
                }
            }
        }
    }
    out
}

/// One `[Key "Value"]` line.
fn tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(' ')?;
    let value = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((key.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

pub fn read(text: &str) -> Parsed {
    let mut record = Record::new(VARIANT);
    let mut errors = Errors::default();
    let (mut result_tag, mut termination, mut body_at) = (None, None, text.len());
    let mut offset = 0;
    let mut body_line = 1;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            match tag_line(line) {
                Some((k, v)) => match k.as_str() {
                    "Variant" if !v.eq_ignore_ascii_case("kokesu") && !v.eq_ignore_ascii_case("kokesu-captured") => {
                        errors.push(LineError::new(i + 1, format!("variant '{v}': this reader reads Kokesu games")))
                    }
                    "FEN" => match sfen_of(&v) {
                        Ok(s) => record.start = Some(s),
                        Err(e) => errors.push(LineError::new(i + 1, e)),
                    },
                    "Result" => result_tag = Some((v, i + 1)),
                    "Termination" => termination = Some((v, i + 1)),
                    RULES => {
                        for entry in v.split(';').filter(|e| !e.trim().is_empty()) {
                            if let Err(e) = record.rules.set_entry(VARIANT, entry) {
                                errors.push(LineError::new(i + 1, e));
                            }
                        }
                    }
                    k if STRUCTURAL.contains(&k) => {}
                    k => {
                        let ours = KEYS.iter().find(|(t, _)| *t == k).map_or(k, |(_, o)| o);
                        if !(v == "?" && ours != k) {
                            record.headers.push((ours.to_string(), v));
                        }
                    }
                },
                None => errors.push(LineError::new(i + 1, format!("'{line}' is not a tag [Key \"Value\"]"))),
            }
        } else if !line.is_empty() {
            body_at = offset;
            body_line = i + 1;
            break;
        }
        offset += raw.len();
    }
    let mut walk = match Walk::after_headers(record, 0, errors, &[]) {
        Ok(w) => w,
        Err(p) => return *p,
    };
    let pieces = movetext(&text[body_at.min(text.len())..], body_line, &mut walk.errors);
    let rule = termination.as_ref().map(|(t, _)| t.clone());
    let mut stated = None;
    let mut movetext_result: Option<(&str, usize)> = None;
    for (piece, line) in &pieces {
        let line = *line;
        match piece {
            Piece::Comment(c) => walk.comment(c),
            Piece::Word(w) => {
                let rest = w.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches('.');
                if let Some(r) = RESULTS.iter().find(|r| **r == w.as_str()) {
                    if walk.close(line) {
                        movetext_result = Some((r, line));
                        stated = ending(r, rule.clone()).map(|e| (e, line));
                    }
                } else if w.starts_with('$') || rest.is_empty() {
                    // A NAG or a move number.
                } else if walk.expects_move(rest, line) {
                    match notation::parse(walk.pos.as_ref(), rest, Style::San) {
                        Ok(m) => {
                            let marks = claimed_marks(rest);
                            walk.push(&m, line);
                            if let Some(e) = marks.and_then(|claim| false_mark(walk.pos.as_ref(), claim, rest)) {
                                let n = walk.record.moves.len();
                                walk.error(line, format!("move {n}: {e}"));
                            }
                        }
                        Err(e) => walk.fail(line, e.to_string()),
                    }
                }
            }
        }
    }
    match (&result_tag, movetext_result) {
        (Some((tag, tag_line)), Some((r, line))) if RESULTS.contains(&tag.as_str()) && tag != r => {
            walk.error(*tag_line, format!("the Result tag '{tag}' is not the movetext's result '{r}' (line {line})"));
        }
        (Some((tag, line)), None) if stated.is_none() => stated = ending(tag, rule).map(|e| (e, *line)),
        _ => {}
    }
    // A Termination that names what the board decides, in a game left unfinished ('*').
    if let (None, Some((t, line))) = (&stated, &termination) {
        if !walk.broken() && super::walk::BOARD_RULES.contains(&t.as_str()) && walk.pos.ending().is_none() {
            walk.error(*line, format!("Termination '{t}', but the game is not over"));
        }
    }
    walk.finish(stated)
}

/// The four results of PGN's movetext and Result tag.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The check mark a SAN ends with, if any: `#` (mate) or `+` (check).
fn claimed_marks(san: &str) -> Option<char> {
    san.trim_end_matches(['!', '?']).chars().next_back().filter(|c| *c == '#' || *c == '+')
}

/// Why a move's check mark is false in the position after it, if it is: `#` on a move
/// that does not mate, `+` on one that does not check.
fn false_mark(after: &dyn Live, claim: char, san: &str) -> Option<String> {
    let check = after.in_check();
    let mate = check && after.legal_moves().is_empty();
    match claim {
        '#' if !mate => Some(format!("'{san}' says mate, but the move does not mate")),
        '+' if !check => Some(format!("'{san}' says check, but the move does not give check")),
        _ => None,
    }
}

fn ending(result: &str, rule: Option<String>) -> Option<Ending> {
    let winner = match result {
        "1-0" => Some(Color::Sente),
        "0-1" => Some(Color::Gote),
        "1/2-1/2" => None,
        _ => return None,
    };
    Some(Ending { winner, rule })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_and_sfen_turn_into_each_other() {
        assert_eq!(
            fen_of("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - 4"),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 2"
        );
        assert_eq!(sfen_of("8/8/8/8/8/8/8/8 b - - 0 2").unwrap(), "8/8/8/8/8/8/8/8 w - 4");
    }
}
