//! koma's own record: one keyword a line, for every game (the only record of the crab
//! games, whose compound turns no other format writes).
//!
//! ```text
//! # koma record
//! variant kanishogi
//! start startpos
//! rule KaniShogiGrownMove=diagonal
//! header sente Alice
//! move 5b4b
//! comment a line of comment on the move before
//! move 1b2b,2b3a
//! result b capture of the parent crab
//! ```
//!
//! `start` is `startpos` or `sfen <SFEN>`; `rule NAME=VALUE` sets a rules switch (one a
//! line; only those not at their defaults are written); `result` is `b`, `w` or `draw`,
//! then the rule if known. Blank lines and lines starting with `#` are skipped.

use crate::game::Color;
use crate::games;

use super::walk::Walk;
use super::{Ending, Errors, LineError, Parsed, Record};

/// The first line written (and recognised).
pub(crate) const FIRST_LINE: &str = "# koma record";

pub(crate) fn write(r: &Record) -> String {
    let mut out = format!("{FIRST_LINE}\nvariant {}\n", r.variant);
    match &r.start {
        None => out.push_str("start startpos\n"),
        Some(s) => out.push_str(&format!("start sfen {s}\n")),
    }
    for entry in r.rules.entries() {
        out.push_str(&format!("rule {entry}\n"));
    }
    for (k, v) in &r.headers {
        if k == "comment" {
            comment_lines(&mut out, v);
        } else {
            out.push_str(&format!("header {k} {v}\n"));
        }
    }
    for m in &r.moves {
        out.push_str(&format!("move {}\n", m.usi));
        if let Some(c) = &m.comment {
            comment_lines(&mut out, c);
        }
    }
    if let Some(e) = &r.result {
        let who = match e.winner {
            Some(Color::Sente) => "b",
            Some(Color::Gote) => "w",
            None => "draw",
        };
        match &e.rule {
            Some(rule) => out.push_str(&format!("result {who} {rule}\n")),
            None => out.push_str(&format!("result {who}\n")),
        }
    }
    out
}

fn comment_lines(out: &mut String, text: &str) {
    for l in text.split('\n') {
        out.push_str(&format!("comment {l}\n"));
    }
}

/// The word after a keyword and the rest of the line (`header sente A B` -> `sente`,
/// `A B`).
fn split_word(rest: &str) -> (&str, &str) {
    match rest.split_once(' ') {
        Some((w, r)) => (w, r),
        None => (rest, ""),
    }
}

pub(crate) fn read(text: &str) -> Parsed {
    let mut variant = None;
    let mut start = None;
    let mut header_errors = Errors::default();
    let mut body = Vec::new();
    let mut rules = Vec::new();
    // The variant, the rules and the start position come first: the moves need them.
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = split_word(line);
        match key {
            "variant" => match games::names().into_iter().find(|n| *n == rest.trim()) {
                Some(v) => variant = Some(v),
                None => header_errors.push(LineError::new(i + 1, format!("no such variant '{}'", rest.trim()))),
            },
            "start" => match split_word(rest.trim()) {
                ("startpos", "") => start = Some(None),
                ("sfen", s) if !s.is_empty() => start = Some(Some(s.trim().to_string())),
                _ => header_errors.push(LineError::new(i + 1, "expected 'start startpos' or 'start sfen <SFEN>'")),
            },
            "rule" => rules.push((i + 1, rest)),
            _ => body.push((i + 1, key, rest)),
        }
    }
    let Some(variant) = variant else {
        let mut errors = vec![LineError::new(0, "no 'variant' line: the record does not say which game it is")];
        errors.extend(header_errors.into_sorted());
        return Parsed { record: Record::new(games::names()[0]), errors };
    };
    let mut record = Record::new(variant);
    record.start = start.flatten();
    for (line, entry) in rules {
        if let Err(e) = record.rules.set_entry(variant, entry) {
            header_errors.push(LineError::new(line, e));
        }
    }
    let mut walk = match Walk::after_headers(record, 0, header_errors, &[]) {
        Ok(w) => w,
        Err(p) => return *p,
    };
    let mut stated = None;
    for (line, key, rest) in body {
        match key {
            "header" => {
                let (k, v) = split_word(rest);
                walk.record.headers.push((k.to_string(), v.to_string()));
            }
            "move" => walk.push(rest.trim(), line),
            "comment" => walk.comment(rest),
            "result" => {
                let (who, rule) = split_word(rest.trim());
                let winner = match who {
                    "b" => Some(Color::Sente),
                    "w" => Some(Color::Gote),
                    "draw" => None,
                    _ => {
                        walk.error(line, format!("result '{who}' is not b, w or draw"));
                        continue;
                    }
                };
                let rule = (!rule.trim().is_empty()).then(|| rule.trim().to_string());
                if walk.close(line) {
                    stated = Some((Ending { winner, rule }, line));
                }
            }
            _ => walk.error(
                line,
                format!(
                    "'{key}' is not a keyword of a koma record (variant, start, rule, header, move, comment, result)"
                ),
            ),
        }
    }
    walk.finish(stated)
}
