//! RokuRokuGUI's record of a 66 shogi game, as the GUI saves it
//! (`rokuroku_YYYYMMDD_HHMMSS.txt`):
//!
//! ```text
//! # RokuRokuGUI Kif
//! date: 2026-08-07 15:45:59
//! black_player: AI
//! white_player: AI
//! result: black
//!
//! moves:
//! 1. black K*1f
//! 2. white K*1a
//! ```
//!
//! The moves are USI tokens, placement drops included. `result:` is `black`, `white`,
//! `draw` or another word (kept as it is, as header `result`: the game is not over). The
//! GUI writes no comments and no rule: the rule is the referee's on the final position.

use crate::game::Color;

use super::walk::Walk;
use super::{Ending, Parsed, Record};

/// The first line of the GUI's record.
pub(crate) const FIRST_LINE: &str = "# RokuRokuGUI Kif";

const VARIANT: &str = "shogi66";

/// The GUI's header keys and the record's.
const KEYS: [(&str, &str); 3] = [("date", "date"), ("black_player", "sente"), ("white_player", "gote")];

fn side_word(c: Color) -> &'static str {
    match c {
        Color::Sente => "black",
        Color::Gote => "white",
    }
}

pub(crate) fn write(r: &Record) -> Result<String, String> {
    if r.start.is_some() {
        return Err("a RokuRokuGUI record starts from the start position".into());
    }
    if !r.rules.is_default() {
        return Err("a RokuRokuGUI record holds a game under the default rules".into());
    }
    let mut out = format!("{FIRST_LINE}\n");
    for (ours, theirs) in KEYS.iter().map(|(g, o)| (*o, *g)) {
        if let Some(v) = r.header(ours) {
            out.push_str(&format!("{theirs}: {v}\n"));
        }
    }
    for (k, v) in &r.headers {
        if !KEYS.iter().any(|(_, o)| o == k) && k != "result" && k != "comment" {
            out.push_str(&format!("{k}: {v}\n"));
        }
    }
    let result = match &r.result {
        Some(Ending { winner: Some(c), .. }) => side_word(*c),
        Some(Ending { winner: None, .. }) => "draw",
        None => r.header("result").unwrap_or("none"),
    };
    out.push_str(&format!("result: {result}\n\nmoves:\n"));
    let mut side = Color::Sente;
    for (i, m) in r.moves.iter().enumerate() {
        out.push_str(&format!("{}. {} {}\n", i + 1, side_word(side), m.usi));
        side = side.flip();
    }
    Ok(out)
}

pub(crate) fn read(text: &str) -> Parsed {
    let mut walk = match Walk::new(Record::new(VARIANT), 0) {
        Ok(w) => w,
        Err(p) => return *p,
    };
    let mut in_moves = false;
    let mut stated = None;
    for (i, raw) in text.lines().enumerate() {
        let (line, n) = (raw.trim(), i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "moves:" {
            in_moves = true;
            continue;
        }
        if !in_moves {
            let Some((key, value)) = line.split_once(':') else {
                walk.error(n, format!("'{line}' is not a 'key: value' header line"));
                continue;
            };
            let (key, value) = (key.trim(), value.trim());
            if key == "result" {
                match value {
                    "black" => stated = Some((Ending { winner: Some(Color::Sente), rule: None }, n)),
                    "white" => stated = Some((Ending { winner: Some(Color::Gote), rule: None }, n)),
                    "draw" => stated = Some((Ending { winner: None, rule: None }, n)),
                    _ => walk.record.headers.push(("result".into(), value.into())),
                }
                continue;
            }
            let ours = KEYS.iter().find(|(g, _)| *g == key).map_or(key, |(_, o)| o);
            walk.record.headers.push((ours.to_string(), value.to_string()));
            continue;
        }
        read_move(&mut walk, line, n);
    }
    walk.finish(stated)
}

/// `N. black TOKEN`: the number and the side must be the next move's.
fn read_move(walk: &mut Walk, line: &str, n: usize) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [number, side, token] = words[..] else {
        walk.fail(n, format!("'{line}' is not a move line 'N. black|white TOKEN'"));
        return;
    };
    let next = walk.record.moves.len() + 1;
    if number.strip_suffix('.').and_then(|d| d.parse::<usize>().ok()) != Some(next) {
        walk.fail(n, format!("'{number}' is not the next move's number ({next}.)"));
        return;
    }
    let expected = side_word(walk.pos.side_to_move());
    if side != expected {
        walk.fail(n, format!("'{side}' is not the side to move ({expected})"));
        return;
    }
    walk.push(token, n);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::LineError;

    #[test]
    fn a_bad_move_names_its_line_and_the_headers_are_still_read() {
        let text = "# RokuRokuGUI Kif\ndate: x\nresult: none\n\nmoves:\n1. black K*1f\n2. white K*1f\n3. black N*2f\n";
        let p = read(text);
        assert_eq!(p.record.moves.len(), 1);
        assert_eq!(p.record.header("date"), Some("x"));
        assert_eq!(p.errors.len(), 1, "{:?}", p.errors);
        assert_eq!(p.errors[0].line, 7);
        assert!(p.errors[0].reason.contains("K*1f"), "{}", p.errors[0]);
        assert_eq!(write(&p.record).unwrap(), text.replace("3. black N*2f\n", "").replace("2. white K*1f\n", ""));
        assert!(LineError::new(7, "x").to_string().starts_with("line 7: "));
    }
}
