//! KIF (Kakinoki's Japanese record) for 66 shogi and Number Shogi.
//!
//! As lishogi writes minishogi: the board's size follows the game, a square is its file
//! as a full-width digit and its rank as a kanji numeral (`３五`, rank a = 一), the
//! `(from)` square two ASCII digits (`(35)`); `手合割` names the game (`66将棋`,
//! `数字将棋`, koma's choice, as lishogi's `5五将棋`), and a start position other than the
//! game's own is a 局面 diagram of the board's width. Number Shogi's pieces 1 to 6 are
//! the kanji numerals 一 to 六, turned over 壱 弐 参 肆 伍 陸 (one character each, also in
//! diagrams). Times are read and skipped; none are written. Variations (`変化：`) are not
//! read.

use crate::game::Color;

use super::notation::{names, read_square, record_move_text, Names, FILES, GAMES, NUMERALS};
use super::walk::{grid, position, position_under, replay, Played, Walk};
use super::{Ending, Errors, LineError, Parsed, Record};

const SIDES: [&str; 2] = ["先手", "後手"];

pub fn supports(variant: &str) -> bool {
    GAMES.iter().any(|g| g.variant == variant)
}

/// The two-character names printed on a shogi set, where they differ from the KIF move
/// name (the page's two-character pieces; a piece not listed prints its KIF name).
const PRINTED: [(&str, &str); 11] = [
    ("K", "玉将"),
    ("R", "飛車"),
    ("B", "角行"),
    ("G", "金将"),
    ("S", "銀将"),
    ("N", "桂馬"),
    ("L", "香車"),
    ("P", "歩兵"),
    ("+R", "龍王"),
    ("+B", "龍馬"),
    ("+P", "と金"),
];

/// A game's pieces in kanji, for the page (`koma serve`): per SFEN text (`K`, `+S`), the
/// one-character name (as in KIF diagrams) and the two-character name printed on a set;
/// gote's king (`k`) is 王 (`王将`), sente's 玉, as on a set. Empty for a game without
/// KIF names.
pub fn piece_kanji(variant: &str) -> Vec<(String, &'static str, String)> {
    let Some(g) = names(variant) else { return Vec::new() };
    let printed = |letter: &str, name: &'static str| {
        PRINTED.iter().find(|(l, _)| *l == letter).map_or(name.to_string(), |p| p.1.to_string())
    };
    let mut out: Vec<_> = g.pieces.iter().map(|(l, name, glyph)| (l.to_string(), *glyph, printed(l, name))).collect();
    if let Some((king, _)) = g.aliases.iter().find(|(_, l)| *l == "K") {
        let two = printed("K", king).replacen('玉', king, 1);
        out.push(("k".to_string(), king, two));
    }
    out
}

/// A kanji number 1..=99 (`十八`).
fn kanji(n: usize) -> String {
    match n {
        0..=9 => NUMERALS[n].to_string(),
        _ => format!("{}十{}", if n / 10 > 1 { NUMERALS[n / 10] } else { "" }, NUMERALS[n % 10]),
    }
}

/// A kanji number 1..=99 as [`kanji`] writes it (`八`, `十`, `十八`, `二十`, `九十九`),
/// read without recursion; anything else (`十十`, 70,000 `十`) is `None`.
fn from_kanji(s: &str) -> Option<usize> {
    let digit = |c: char| NUMERALS.iter().position(|n| n.starts_with(c) && !n.is_empty());
    let mut chars = s.chars();
    let (first, second, third) = (chars.next()?, chars.next(), chars.next());
    if chars.next().is_some() {
        return None;
    }
    match (first, second, third) {
        ('十', o, None) => Some(10 + o.map_or(Some(0), digit)?),
        (t, Some('十'), o) => Some(digit(t).filter(|&t| t > 1)? * 10 + o.map_or(Some(0), digit)?),
        (d, None, None) => digit(d),
        _ => None,
    }
}

/// How many pieces of `letter` (`P`, without promotion) a game has, both sides, board
/// and hands, from its start position's `sfen`: a hand never holds more.
fn pieces_in_game(sfen: &str, letter: &str) -> usize {
    let mut fields = sfen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let on_board = board.chars().filter(|c| c.eq_ignore_ascii_case(&letter.chars().next().unwrap_or(' '))).count();
    let hands = crate::game::state::hands(fields.nth(1).unwrap_or("-"));
    let in_hand = |h: &str| {
        let (mut total, mut count) = (0, 0usize);
        for ch in h.chars() {
            if let Some(d) = ch.to_digit(10) {
                count = (count * 10 + d as usize).min(1 << 16);
            } else {
                if ch.to_string().eq_ignore_ascii_case(letter) {
                    total += std::mem::take(&mut count).max(1);
                }
                count = 0;
            }
        }
        total
    };
    on_board + in_hand(&hands.b) + in_hand(&hands.w)
}

/// The result words written after the last move (the side to move's view) and read.
fn result_word(e: &Ending, to_move: Color) -> Option<&'static str> {
    let mover_wins = e.winner == Some(to_move);
    Some(match e.rule.as_deref()? {
        "checkmate" | "no legal move" => "詰み",
        "repetition" => "千日手",
        "impasse" => "持将棋",
        "resignation" => "投了",
        "time" => "切れ負け",
        "perpetual check" if mover_wins => "反則勝ち",
        "perpetual check" => "反則負け",
        _ => return None,
    })
}

fn ending_of(word: &str, to_move: Color) -> Option<Option<Ending>> {
    let (win, lose, draw) = (Some(to_move), Some(to_move.flip()), None);
    let (winner, rule) = match word {
        "詰み" => (lose, "checkmate"),
        "千日手" => (draw, "repetition"),
        "持将棋" => (draw, "impasse"),
        "投了" => (lose, "resignation"),
        "切れ負け" | "時間切れ" => (lose, "time"),
        "反則勝ち" => (win, "perpetual check"),
        "反則負け" => (lose, "perpetual check"),
        "中断" => return Some(None),
        _ => return None,
    };
    Some(Some(Ending { winner, rule: Some(rule.into()) }))
}

/// The header of a rules switch that is not at its default, one a switch: `ルール：NAME=VALUE`.
const RULE: &str = "ルール";

const HEADERS: [(&str, &str); 5] =
    [("開始日時", "date"), ("先手", "sente"), ("後手", "gote"), ("棋戦", "event"), ("場所", "site")];

/// A date as KIF writes it, `2026/11/28 12:34:56`: a date that starts `YYYY-MM-DD` (as
/// RokuRokuGUI's record has it) gets slashes; anything else is kept as it is.
fn kif_date(v: &str) -> String {
    let b = v.as_bytes();
    let dashed = b.len() >= 10
        && b[4] == b'-'
        && b[7] == b'-'
        && [0, 1, 2, 3, 5, 6, 8, 9].iter().all(|&i| b[i].is_ascii_digit());
    match dashed {
        true => format!("{}/{}/{}{}", &v[..4], &v[5..7], &v[8..10], &v[10..]),
        false => v.to_string(),
    }
}

pub fn write(r: &Record) -> Result<String, String> {
    let g = names(r.variant).ok_or_else(|| format!("a KIF record cannot hold a game of {}", r.variant))?;
    let mut out = String::new();
    for (k, v) in &r.headers {
        if k != "comment" {
            let key = HEADERS.iter().find(|(_, o)| o == k).map_or(k.as_str(), |(j, _)| j);
            let v = if k == "date" { kif_date(v) } else { v.clone() };
            out.push_str(&format!("{key}：{v}\n"));
        }
    }
    out.push_str(&format!("手合割：{}\n", g.handicap));
    for entry in r.rules.entries() {
        out.push_str(&format!("{RULE}：{entry}\n"));
    }
    if let Some(s) = &r.start {
        diagram(&mut out, g, &position_under(r.variant, &r.rules, Some(s))?.sfen());
    }
    if let Some(c) = r.header("comment") {
        comment_lines(&mut out, c);
    }
    out.push_str("手数----指手---------消費時間--\n");
    let mut last_to = None;
    let mut count = 0;
    replay(r, |i, pos, m| {
        let text = record_move_text(g, pos.sfen().as_str(), &pos.legal_moves(), &m.usi, last_to.as_deref());
        let plain = m.usi.trim_end_matches('+');
        last_to = Some(plain[plain.len() - 2..].to_string());
        out.push_str(&format!("{:>4} {text}\n", i + 1));
        if let Some(c) = &m.comment {
            comment_lines(&mut out, c);
        }
        count = i + 1;
    })?;
    if let Some(e) = &r.result {
        let mut end = r.position()?;
        for m in &r.moves {
            end.play(&m.usi)?;
        }
        if let Some(word) = result_word(e, end.side_to_move()) {
            out.push_str(&format!("{:>4} {word}\n", count + 1));
        }
        let summary = match e.winner {
            Some(c) => format!("{}の勝ち", SIDES[c.index()]),
            None if e.rule.as_deref() == Some("repetition") => "千日手".into(),
            None => "引き分け".into(),
        };
        out.push_str(&format!("まで{count}手で{summary}\n"));
    }
    Ok(out)
}

fn comment_lines(out: &mut String, text: &str) {
    for l in text.split('\n') {
        out.push_str(&format!("*{l}\n"));
    }
}

/// A 局面 diagram: gote's hand, the board, sente's hand, whose turn, the ply.
fn diagram(out: &mut String, g: &Names, sfen: &str) {
    let fields: Vec<&str> = sfen.split_whitespace().collect();
    let board = grid(sfen);
    let width = board.first().map_or(0, Vec::len);
    let hands = crate::game::state::hands(fields.get(2).copied().unwrap_or("-"));
    let hand_line = |h: &str| {
        let mut s = String::new();
        let mut count = String::new();
        for ch in h.chars() {
            if ch.is_ascii_digit() {
                count.push(ch);
            } else if ch != '-' {
                let n: usize = count.parse().unwrap_or(1);
                count.clear();
                s.push_str(g.name(&ch.to_ascii_uppercase().to_string()));
                if n > 1 {
                    s.push_str(&kanji(n));
                }
                s.push('　');
            }
        }
        if s.is_empty() {
            "なし".to_string()
        } else {
            s
        }
    };
    out.push_str(&format!("後手の持駒：{}\n", hand_line(&hands.w)));
    let files: Vec<String> = (1..=width).rev().map(|f| FILES[f - 1].to_string()).collect();
    out.push_str(&format!("  {}\n", files.join(" ")));
    let frame = format!("+{}+\n", "-".repeat(3 * width));
    out.push_str(&frame);
    for (r, row) in board.iter().enumerate() {
        out.push('|');
        for cell in row {
            match cell {
                None => out.push_str(" ・"),
                Some(p) => {
                    let gote = p.chars().any(|c| c.is_ascii_lowercase());
                    out.push(if gote { 'v' } else { ' ' });
                    out.push_str(g.glyph(&p.to_ascii_uppercase()));
                }
            }
        }
        out.push_str(&format!("|{}\n", NUMERALS[r + 1]));
    }
    out.push_str(&frame);
    out.push_str(&format!("先手の持駒：{}\n", hand_line(&hands.b)));
    if fields.get(1) == Some(&"w") {
        out.push_str("後手番\n");
    }
    let ply: usize = fields.get(3).and_then(|p| p.parse().ok()).unwrap_or(1);
    if ply != 1 {
        out.push_str(&format!("手数＝{}\n", ply - 1));
    }
}

/// The most plies a diagram's `手数＝` may say were played: the SFEN's ply field, one
/// more, is then within every game's range (rules.md).
const MAX_PLIES_PLAYED: usize = super::MAX_SFEN_PLY as usize - 1;

/// A diagram being read.
#[derive(Default)]
struct Diagram {
    rows: Vec<String>,
    hands: [String; 2],
    gote_to_move: bool,
    ply: usize,
    seen: bool,
    /// The game's start position (SFEN), once a hand is read: how many pieces it has.
    game: Option<String>,
}

impl Diagram {
    /// Reads a diagram line; false if it is not one.
    fn line(&mut self, g: &Names, line: &str) -> Result<bool, String> {
        if line.contains("の持駒：") && self.game.is_none() {
            self.game = Some(position(g.variant, None).map(|p| p.sfen()).unwrap_or_default());
        }
        let game = self.game.clone().unwrap_or_default();
        let hand = |s: &str, upper: bool| -> Result<String, String> {
            let mut out = String::new();
            // Each kind's pieces so far: a hand that names a kind twice counts both.
            let mut held: Vec<(&str, usize)> = Vec::new();
            for word in s.split(['　', ' ']).filter(|w| !w.is_empty() && *w != "なし") {
                let (letter, count) = g.piece_at(word).ok_or_else(|| format!("'{word}' is not a piece in hand"))?;
                if letter.starts_with('+') {
                    return Err(format!("'{word}': a piece in hand is never promoted"));
                }
                let n = if count.is_empty() { 1 } else { from_kanji(count).ok_or(format!("bad count in '{word}'"))? };
                let total = match held.iter_mut().find(|(l, _)| *l == letter) {
                    Some((_, c)) => {
                        *c += n;
                        *c
                    }
                    None => {
                        held.push((letter, n));
                        n
                    }
                };
                let most = pieces_in_game(&game, letter);
                if total > most {
                    return Err(format!("'{word}': the game has {most} {} in all", g.name(letter)));
                }
                let l = if upper { letter.to_string() } else { letter.to_ascii_lowercase() };
                out.push_str(&if n > 1 { format!("{n}{l}") } else { l });
            }
            Ok(out)
        };
        if let Some(h) = line.strip_prefix("後手の持駒：").or_else(|| line.strip_prefix("上手の持駒：")) {
            self.hands[1] = hand(h, false)?;
        } else if let Some(h) = line.strip_prefix("先手の持駒：").or_else(|| line.strip_prefix("下手の持駒："))
        {
            self.hands[0] = hand(h, true)?;
        } else if line == "後手番" || line == "上手番" {
            self.gote_to_move = true;
        } else if line == "先手番" || line == "下手番" {
        } else if let Some(n) = line.strip_prefix("手数＝") {
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            self.ply = digits
                .parse()
                .ok()
                .filter(|p| *p <= MAX_PLIES_PLAYED)
                .ok_or_else(|| format!("'{line}': the plies played are a number from 0 to {MAX_PLIES_PLAYED}"))?;
        } else if line.starts_with('+') || line.starts_with("  ") && line.trim().starts_with(FILES) {
        } else if let Some(body) = line.strip_prefix('|') {
            let cells = body.split('|').next().unwrap_or("");
            let (mut row, mut empty) = (String::new(), 0);
            let mut chars = cells.chars();
            while let Some(side) = chars.next() {
                let rest = chars.as_str();
                if rest.starts_with('・') {
                    empty += 1;
                    chars.next();
                    continue;
                }
                if empty > 0 {
                    row.push_str(&std::mem::take(&mut empty).to_string());
                }
                let (letter, after) = g.piece_at(rest).ok_or_else(|| format!("'{rest}' is not a piece"))?;
                row.push_str(&if side == 'v' { letter.to_ascii_lowercase() } else { letter.to_string() });
                chars = after.chars();
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            self.rows.push(row);
        } else {
            return Ok(false);
        }
        self.seen = true;
        Ok(true)
    }

    fn sfen(&self) -> String {
        let hand = format!("{}{}", self.hands[0], self.hands[1]);
        format!(
            "{} {} {} {}",
            self.rows.join("/"),
            if self.gote_to_move { "w" } else { "b" },
            if hand.is_empty() { "-" } else { &hand },
            self.ply + 1
        )
    }
}

pub fn read(text: &str, variant: Option<&'static str>) -> Parsed {
    let mut head: Vec<(usize, &str)> = Vec::new();
    let mut body: Vec<(usize, &str)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches(['\r', ' ']);
        if line.starts_with("変化：") {
            break;
        }
        let is_move = line.trim_start().starts_with(|c: char| c.is_ascii_digit());
        if is_move || !body.is_empty() || line.starts_with("手数----") || line.starts_with("まで") {
            body.push((i + 1, line));
        } else {
            head.push((i + 1, line));
        }
    }
    let mut errors = Errors::default();
    let handicap = head.iter().find_map(|(n, l)| l.strip_prefix("手合割：").map(|h| (*n, h.trim())));
    let g = match handicap.and_then(|(_, h)| GAMES.iter().find(|g| g.handicap == h)) {
        Some(g) => g,
        None => {
            if let Some((n, h)) = handicap {
                errors.push(LineError::new(n, format!("手合割 '{h}' is not 66将棋 or 数字将棋")));
            }
            variant.and_then(names).unwrap_or(&GAMES[0])
        }
    };
    let mut record = Record::new(g.variant);
    let mut diagram = Diagram::default();
    let mut comments = Vec::new();
    for &(n, line) in &head {
        if line.is_empty() || line.starts_with('#') || line.starts_with('&') || line.starts_with("手合割：") {
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            comments.push(c);
            continue;
        }
        match diagram.line(g, line) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => {
                errors.push(LineError::new(n, e));
                continue;
            }
        }
        match line.split_once('：').or_else(|| line.split_once(':')) {
            Some((k, v)) if k == RULE => {
                if let Err(e) = record.rules.set_entry(g.variant, v) {
                    errors.push(LineError::new(n, e));
                }
            }
            Some((k, v)) => {
                let key = HEADERS.iter().find(|(j, _)| *j == k).map_or(k, |(_, o)| o);
                record.headers.push((key.to_string(), v.to_string()));
            }
            None => errors.push(LineError::new(n, format!("'{line}' is not a header 'key：value'"))),
        }
    }
    if diagram.seen {
        record.start = Some(diagram.sfen());
    }
    let mut walk = match Walk::after_headers(record, head.last().map_or(1, |h| h.0), errors, &comments) {
        Ok(w) => w,
        Err(p) => return *p,
    };
    let stated = read_moves(&mut walk, g, &body, diagram.ply);
    walk.finish(stated)
}

/// The move lines, comments and the result; the result stated, with its line. Each
/// numbered line (a move or the result) has the next number: from 1, or from the
/// diagram's `手数＝` plus one.
fn read_moves(walk: &mut Walk, g: &Names, body: &[(usize, &str)], plies_before: usize) -> Option<(Ending, usize)> {
    let mut last_to: Option<String> = None;
    let mut stated = None;
    let mut summary: Option<(Ending, usize)> = None;
    let mut numbered = 0usize;
    let mut first_number = None;
    for &(n, line) in body {
        if let Some(c) = line.strip_prefix('*') {
            walk.comment(c);
            continue;
        }
        if let Some(s) = line.strip_prefix("まで") {
            if summary.is_none() {
                summary = summary_ending(s).map(|e| (e, n));
            }
            continue;
        }
        let trimmed = line.trim_start();
        if !trimmed.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let digits: String = trimmed.chars().take_while(char::is_ascii_digit).collect();
        let rest = trimmed.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
        let text = rest.split(' ').next().unwrap_or("");
        if walk.broken() {
            continue;
        }
        let number = digits.parse::<usize>().ok();
        let first = *first_number.get_or_insert(if number == Some(plies_before + 1) { plies_before + 1 } else { 1 });
        let expected = first + numbered;
        numbered += 1;
        if number != Some(expected) {
            walk.fail(n, format!("'{digits}' is not the next number ({expected})"));
            continue;
        }
        if let Some(e) = ending_of(text, walk.pos.side_to_move()) {
            if walk.close(n) {
                stated = e.map(|e| (e, n));
            }
            continue;
        }
        if !walk.expects_move(text, n) {
            continue;
        }
        match read_move(g, walk, text, last_to.as_deref()) {
            Ok((usi, to)) => {
                walk.push(&usi, n);
                last_to = Some(to);
            }
            Err(e) => walk.fail(n, e),
        }
    }
    match (stated, summary) {
        (Some((e, line)), Some((s, at))) => {
            if s.winner != e.winner && !walk.broken() {
                walk.error(at, format!("the summary names another winner than the result on line {line}"));
            }
            Some((e, line))
        }
        (None, s) => s,
        (e, None) => e,
    }
}

/// `まで64手で先手の勝ち` (after `まで`).
fn summary_ending(s: &str) -> Option<Ending> {
    let side = |w: &str| w.contains("先手") || w.contains("下手");
    if s.contains("千日手") {
        Some(Ending { winner: None, rule: Some("repetition".into()) })
    } else if s.contains("持将棋") || s.contains("引き分け") {
        Some(Ending { winner: None, rule: None })
    } else if s.contains("勝ち") || s.contains("負け") {
        let first = side(s) == s.contains("勝ち");
        Some(Ending { winner: Some(if first { Color::Sente } else { Color::Gote }), rule: None })
    } else {
        None
    }
}

/// A KIF move as a USI token, and its destination.
fn read_move(g: &Names, walk: &Walk, text: &str, last_to: Option<&str>) -> Result<(String, String), String> {
    let (to, rest) = match text.strip_prefix('同') {
        Some(r) => (last_to.ok_or("'同' with no move before it")?.to_string(), r.trim_start_matches(['　', ' '])),
        None => read_square(text).ok_or_else(|| format!("'{text}' does not start with a square like ３五"))?,
    };
    let (letter, rest) = g.piece_at(rest).ok_or_else(|| format!("'{text}': no piece name after the square"))?;
    let (promote, rest) = match rest.strip_prefix("不成") {
        Some(r) => (false, r),
        None => match rest.strip_prefix('成') {
            Some(r) => (true, r),
            None => (false, rest),
        },
    };
    let (dropped, rest) = match rest.strip_prefix('打') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    if rest.is_empty() || dropped {
        if !rest.is_empty() || promote {
            return Err(format!("'{text}': a drop has no '(from)' square and does not promote"));
        }
        return Ok((format!("{letter}*{to}"), to));
    }
    // Two ASCII digits, file then rank, read as characters.
    let from = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')')).and_then(|f| {
        let mut c = f.chars();
        let (file, rank) = (c.next()?.to_digit(10)?, c.next()?.to_digit(10)?);
        (c.next().is_none() && rank >= 1).then(|| format!("{file}{}", char::from(b'a' + rank as u8 - 1)))
    });
    let from = from.ok_or_else(|| format!("'{text}': expected the '(from)' square as two digits, like (77)"))?;
    let board = grid(&walk.pos.sfen());
    let fb = from.as_bytes();
    let col = board.first().map_or(0, Vec::len).checked_sub((fb[0] - b'0') as usize);
    let there = col.and_then(|c| board.get((fb[1] - b'a') as usize)?.get(c).cloned().flatten());
    if there.as_deref().map(str::to_ascii_uppercase).as_deref() != Some(letter) {
        return Err(format!("'{text}': there is no {} on {from}", g.name(letter)));
    }
    Ok((format!("{from}{to}{}", if promote { "+" } else { "" }), to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_numbers() {
        for n in 1..100 {
            assert_eq!(from_kanji(&kanji(n)), Some(n), "{n} {}", kanji(n));
        }
        for bad in ["", "十十", "一十", "十一一", "百", "二十十"] {
            assert_eq!(from_kanji(bad), None, "{bad}");
        }
    }

    #[test]
    fn kanji_pieces_for_the_page() {
        let shogi = piece_kanji("shogi66");
        let find = |l: &str| shogi.iter().find(|p| p.0 == l).cloned().unwrap();
        assert_eq!(find("+S"), ("+S".to_string(), "全", "成銀".to_string()));
        assert_eq!(find("P"), ("P".to_string(), "歩", "歩兵".to_string()));
        assert_eq!(find("k"), ("k".to_string(), "王", "王将".to_string()));
        assert_eq!(piece_kanji("numbershogi").len(), 12);
        assert!(piece_kanji("kokesu").is_empty());
    }
}
