//! Game records in the browser (issue 47): the game a page follows saved as a record
//! (`record`), and a record file's text opened (`load`), both with [`crate::records`].
//! Neither keeps anything: the answer goes to the page that asked. A record carries its
//! game's rules switches both ways: a game under any rules saves, and opens under them. No path ever comes from
//! the page: a `load` carries the file's text, and its name only to tell the format.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::messages::{self, Seat, Seats};
use crate::game::Color;
use crate::games;
use crate::records::{self, Ending, Format, Record, RuleSwitches, Walk};

/// The most characters of a file name shown back to the page.
const MAX_NAME: usize = 80;

/// The game a page follows, as the server keeps it.
pub struct FollowedGame<'a> {
    pub variant: &'static str,
    pub rules: &'a BTreeMap<String, String>,
    pub start: Option<&'a str>,
    pub moves: &'a [String],
    pub seats: Seats,
    /// The side that lost on time, if the game ended so.
    pub lost_on_time: Option<Color>,
}

/// The `record` answer: the game written in `format` (its natural one for `None`), with
/// its result and the rule that ended it, a file name and the time it was saved.
pub fn save(game: &FollowedGame, format: Option<Format>, now: jiff::Timestamp) -> Result<String, String> {
    let format = format.unwrap_or_else(|| Format::natural(game.variant));
    if !format.supports(game.variant) {
        return Err(format!(
            "a {} record cannot hold a game of {}: it saves as {}",
            format.name(),
            game.variant,
            formats(game.variant).join(", ")
        ));
    }
    let record = record_of(game, date(format, now))?;
    let text = records::write(format, &record)?;
    let stamp = now.strftime("%Y%m%d_%H%M%S");
    let filename = match format {
        Format::Rokuroku => format!("rokuroku_{stamp}.{}", format.extension()),
        _ => format!("koma_{}_{stamp}.{}", game.variant, format.extension()),
    };
    Ok(json!({ "type": "record", "format": format, "filename": filename, "text": text,
               "result": ending(record.result.as_ref()) })
    .to_string())
}

/// The game as a record dated `date`: its rules, start, players and moves, the result
/// the records' own referee finds (or a loss on time).
pub fn record_of(game: &FollowedGame, date: String) -> Result<Record, String> {
    let player = |s: Seat| match s {
        Seat::Human => "human",
        Seat::Koma => "koma",
    };
    let mut record = Record::new(game.variant);
    record.rules = rule_switches(game.variant, game.rules)?;
    record.start = game.start.map(str::to_string);
    record.headers = vec![
        ("date".into(), date),
        ("sente".into(), player(game.seats.b).into()),
        ("gote".into(), player(game.seats.w).into()),
    ];
    // Replayed by the records' own referee: the result and its rule are the final
    // position's.
    let mut walk = Walk::new(record, 0).map_err(|p| p.errors.first().map_or_else(String::new, |e| e.to_string()))?;
    for mv in game.moves {
        walk.push(mv, 0);
    }
    // A loss on time, which the board cannot show, is stated (KIF 切れ負け, CSA
    // %TIME_UP, PGN's Termination "time").
    let time = game.lost_on_time.map(|l| (Ending { winner: Some(l.flip()), rule: Some("time".into()) }, 0));
    walk.finish(time).whole().map_err(|e| format!("the game cannot be written: {e}"))
}

/// The formats that hold a game of `variant`, its natural one first.
pub fn formats(variant: &str) -> Vec<&'static str> {
    let natural = Format::natural(variant);
    let rest = Format::ALL.into_iter().filter(|f| *f != natural && f.supports(variant));
    std::iter::once(natural).chain(rest).map(Format::name).collect()
}

/// The game's rules switches as a record keeps them: the switches of scope `Rules` (the
/// evaluation's change koma's play, not the game), checked by the game.
fn rule_switches(variant: &str, rules: &BTreeMap<String, String>) -> Result<RuleSwitches, String> {
    let Some(d) = games::descriptor(variant) else { return Err(format!("no game '{variant}'")) };
    let mut out = RuleSwitches::default();
    for (name, value) in rules {
        if d.rules_switches().any(|o| o.name.eq_ignore_ascii_case(name)) {
            out.set(variant, name, value)?;
        }
    }
    Ok(out)
}

/// The date as each format writes it (UTC: the server does not know the player's zone).
fn date(format: Format, now: jiff::Timestamp) -> String {
    match format {
        Format::Pgn => now.strftime("%Y.%m.%d").to_string(),
        Format::Rokuroku => now.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        _ => now.strftime("%Y/%m/%d %H:%M:%S UTC").to_string(),
    }
}

fn ending(e: Option<&Ending>) -> Value {
    e.map_or(Value::Null, |e| {
        let winner = e.winner.map(|c| match c {
            Color::Sente => "b",
            Color::Gote => "w",
        });
        json!({ "winner": winner, "rule": e.rule })
    })
}

/// The `load` answer: a record's text read whole (its format told by its first lines, then
/// the file name's extension), as the page needs it to start the game from it (`rules`:
/// the rules switches not at their defaults); or one error naming the file and the line.
pub fn load(text: &str, name: Option<&str>) -> Result<String, String> {
    // Only the last part of a name, and not much of it: it is shown, never opened.
    let name = name.map(|n| n.rsplit(['/', '\\']).next().unwrap_or(n).chars().take(MAX_NAME).collect::<String>());
    let format = Format::detect(text, name.as_deref());
    let shown = name.clone().unwrap_or_else(|| "the record".into());
    let record =
        records::read(format, text, None).whole().map_err(|e| format!("{shown} ({} record): {e}", format.name()))?;
    let headers: Vec<Value> = record.headers.iter().map(|(k, v)| json!([k, v])).collect();
    let rules: serde_json::Map<String, Value> = record.rules.iter().map(|(n, v)| (n.to_string(), json!(v))).collect();
    Ok(json!({ "type": "load", "name": name, "format": format, "variant": record.variant, "rules": rules,
               "sfen": record.start, "moves": record.tokens(), "headers": headers,
               "result": ending(record.result.as_ref()) })
    .to_string())
}

/// The error for a message over [`messages::MAX_MESSAGE`] bytes: a `load` is told that the
/// record is too large, anything else that the message is too long.
pub fn too_long(text: &str) -> String {
    #[derive(serde::Deserialize)]
    struct Kind<'a> {
        #[serde(rename = "type", borrow)]
        kind: Option<std::borrow::Cow<'a, str>>,
    }
    let limit = messages::MAX_MESSAGE;
    match serde_json::from_str::<Kind>(text) {
        Ok(Kind { kind: Some(k) }) if k == "load" => format!(
            "record too large: its message has {} bytes and the server reads at most {limit} (a record of about {} KiB)",
            text.len(),
            limit / 1024
        ),
        _ => format!("message too long: {} bytes, at most {limit} are read", text.len()),
    }
}
