//! The WebSocket messages of `koma serve`, one JSON object per text message, with a
//! `type` field (protocol/serve.md lists them). The browser sends [`ClientMsg`]; the server
//! answers with `hello`, `state`, `info` and `error` objects built here.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::engine::levels::levels;
use crate::game::{Appearance, SwitchKind};
use crate::games;
use crate::search::skill::MAX_LEVEL;

/// The longest message the server reads; a longer one is answered with an error.
pub(crate) const MAX_MESSAGE: usize = 16 * 1024;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    Human,
    Koma,
}

/// Who plays each side: `b` (sente, black) and `w` (gote, red).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seats {
    pub b: Seat,
    pub w: Seat,
}

/// How long koma thinks per move: a time, a fixed depth or node count, or a playing
/// level (`SkillLevel`, `hello` lists each game's levels with their Elo).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Limit {
    Movetime(u64),
    Depth(u32),
    Nodes(u64),
    Level(u32),
}

impl Default for Limit {
    fn default() -> Self {
        Limit::Movetime(1000)
    }
}

impl Limit {
    /// Refuses limits that would tie up a game for long or mean nothing.
    pub fn check(self) -> Result<Limit, String> {
        let ok = match self {
            Limit::Movetime(ms) => (10..=60_000).contains(&ms),
            Limit::Depth(d) => (1..=30).contains(&d),
            Limit::Nodes(n) => (1..=100_000_000).contains(&n),
            Limit::Level(l) => l <= MAX_LEVEL,
        };
        if ok {
            Ok(self)
        } else {
            Err(format!(
                "limit out of range: movetime 10..60000 ms, depth 1..30, nodes 1..100000000, level 0..{MAX_LEVEL}"
            ))
        }
    }
}

/// A new game: the variant, its rules switches, an optional start position and moves.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub variant: String,
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    #[serde(default)]
    pub sfen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
    pub seats: Seats,
    #[serde(default)]
    pub limit: Limit,
    /// A clock for both sides (`super::clock`); none: koma thinks as `limit` says and a
    /// person as long as they like.
    #[serde(default)]
    pub clock: Option<super::clock::TimeControl>,
}

/// What `explore` asks (`super::explore`):
/// `{"type":"explore","variant":...,"rules":{...},"sfen":...,"moves":[...]}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreRequest {
    pub variant: String,
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    #[serde(default)]
    pub sfen: Option<String>,
    #[serde(default)]
    pub moves: Vec<String>,
}

/// What the browser asks.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// Start a game (and follow it).
    New(NewGame),
    /// Follow a running game again (after a page reload).
    Join { game: String },
    /// Play a move: one legal token of the game (rules.md), a whole crab turn included.
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    /// Take back the last move, and koma's answer to it.
    Undo,
    /// Stop or resume koma's moves (koma against koma).
    Pause { paused: bool },
    /// Who plays each side, and koma's time, from now on.
    Seats { seats: Seats, limit: Limit },
    /// A position pasted in: `position ...` as in USI, `sfen ...`, or a bare SFEN.
    Paste { text: String },
    /// Ask koma for its move and evaluation here, without playing it.
    Analyse,
    /// Ask koma to move now (stops its search with the best move so far).
    Stop,
    /// Every legal move of a position with its exact value (`super::explore`).
    Explore(ExploreRequest),
    /// The game report of a game (`super::report`): its moves' evaluations and marks.
    Report(ExploreRequest),
    /// The game followed, written as a record (`super::records`): in this format, or the
    /// game's natural one.
    Record {
        #[serde(default)]
        format: Option<crate::records::Format>,
    },
    /// A record file's text, read and answered with its game (`super::records`); the
    /// file's name only tells its format.
    Load {
        text: String,
        #[serde(default)]
        name: Option<String>,
    },
}

/// The answer to a message that could not be carried out (nothing of it was applied).
pub(crate) fn error(message: &str) -> String {
    json!({ "type": "error", "message": crate::protocol::shown(message) }).to_string()
}

/// The side names the page shows: White and Black for a game shown as chess.
const CHESS_SIDES: [&str; 2] = ["White", "Black"];

/// How the page draws a game (protocol/serve.md, `hello`'s `look`); `kanji` holds its
/// pieces' kanji (one and two characters, per SFEN text) where the game has KIF names.
fn look(variant: &str, a: &Appearance) -> Value {
    let water = a.water.map(|w| json!({ "file": w.file, "name": w.name }));
    let kanji: serde_json::Map<String, Value> =
        crate::records::kif::piece_kanji(variant).into_iter().map(|(l, one, two)| (l, json!([one, two]))).collect();
    json!({ "light": a.light, "dark": a.dark, "line": a.line, "tinted": a.tinted, "water": water,
            "pieces": a.pieces.word(), "hands": a.hands, "pointed": a.pointed,
            "promote": a.promote, "stay": a.stay, "chess": a.chess,
            "kanji": if kanji.is_empty() { Value::Null } else { Value::Object(kanji) } })
}

/// A rules switch in a player's words (`label`, `help`, a word per value), from the
/// table beside the games (src/games/switch_words.json); `null` for a switch without.
fn switch_words(name: &str) -> Value {
    static TABLE: std::sync::OnceLock<Value> = std::sync::OnceLock::new();
    let table =
        TABLE.get_or_init(|| serde_json::from_str(include_str!("../games/switch_words.json")).unwrap_or(Value::Null));
    table.get(name).cloned().unwrap_or(Value::Null)
}

/// The first message on a connection: the games, their boards and rules switches.
pub(crate) fn hello() -> String {
    let games: Vec<Value> = games::descriptors()
        .iter()
        .map(|d| {
            let startpos = crate::engine::new_board(d.name).map(|b| b.startpos_sfen()).unwrap_or_default();
            // A switch that names a file is never offered to the page.
            let rules: Vec<Value> = d
                .rules_switches()
                .filter(|o| !o.reaches_a_file())
                .map(|o| {
                    let values = match o.kind {
                        SwitchKind::Combo(vs) => json!(vs),
                        _ => Value::Null,
                    };
                    json!({ "name": o.name, "default": o.default, "values": values, "words": switch_words(o.name) })
                })
                .collect();
            let levels: Vec<Value> =
                levels(d.name).iter().map(|l| json!({ "level": l.level, "name": l.name, "elo": l.elo })).collect();
            let players = if d.appearance.chess { CHESS_SIDES } else { d.players };
            json!({ "name": d.name, "title": d.appearance.title, "files": d.files, "ranks": d.ranks,
                    "players": players, "startpos": startpos, "rules": rules, "levels": levels,
                    "look": look(d.name, &d.appearance) })
        })
        .collect();
    json!({ "type": "hello", "engine": crate::engine::name(), "games": games, "max_message": MAX_MESSAGE }).to_string()
}
