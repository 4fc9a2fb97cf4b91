//! The state of a game as `d` prints it and `koma analyse` reports it: one layout for
//! every game (board, side to move, hands, ply, phase, the game's own counters, the
//! result once the game is over, SFEN).

use serde::Serialize;

use crate::game::referee::{self, Referee};
use crate::game::{Color, Game};

/// A finished game: who won (`b`, `w`, or nobody for a draw) and by which rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// `b` or `w`; absent for a draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winner: Option<&'static str>,
    /// The rule, e.g. `checkmate`, `sum of seven`, `three shrimps`, `repetition`.
    pub reason: String,
    /// The line `d` prints after `result `, e.g. `black wins: three shrimps`.
    pub text: String,
}

/// What each side holds in hand, as SFEN letters (`-` for nothing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hands {
    pub b: String,
    pub w: String,
}

/// A position and where its game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameState {
    pub variant: &'static str,
    /// The board diagram, one string per line.
    pub board: Vec<String>,
    /// `b` (sente, first player) or `w`.
    pub side: &'static str,
    /// What the game's rules call the side to move (`sente`, `black`, ...).
    pub side_name: &'static str,
    /// What the game's rules call the two players, `b` first.
    pub players: [&'static str; 2],
    pub hands: Hands,
    /// The number of the next ply (the SFEN ply field).
    pub ply: u32,
    /// `placement`, `play` or `over`.
    pub phase: &'static str,
    /// The game's own counters (captures, shrimps, the move-count counter), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Present once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<GameResult>,
    pub sfen: String,
}

fn letter(c: Color) -> &'static str {
    match c {
        Color::Sente => "b",
        Color::Gote => "w",
    }
}

/// Splits an SFEN hand field into sente's (uppercase) and gote's (lowercase) pieces,
/// counts kept before their letter.
pub fn hands(field: &str) -> Hands {
    let (mut b, mut w, mut count) = (String::new(), String::new(), String::new());
    for ch in field.chars() {
        if ch.is_ascii_digit() {
            count.push(ch);
        } else if ch.is_ascii_alphabetic() {
            let to = if ch.is_ascii_uppercase() { &mut b } else { &mut w };
            to.push_str(&count);
            to.push(ch);
            count.clear();
        }
    }
    let dash = |s: String| if s.is_empty() { "-".to_string() } else { s };
    Hands { b: dash(b), w: dash(w) }
}

impl GameState {
    /// Where the game at `pos` stands, its history since the root being `history`
    /// (`(key, side to move in check)`, `pos` last); the result is the referee's
    /// ([`referee::judge`]).
    pub fn of<G: Game>(pos: &G, history: &[(u64, bool)]) -> GameState {
        let sfen = pos.to_sfen();
        let fields: Vec<&str> = sfen.split_whitespace().collect();
        let stm = pos.side_to_move();
        let name = |c: Color| G::SIDE_NAMES[c.index()];
        let result = referee::judge(pos, history).map(|v| {
            let reason = v.rule.text().to_string();
            let text = match v.winner {
                Some(c) => format!("{} wins: {reason}", name(c)),
                None => format!("draw: {reason}"),
            };
            GameResult { winner: v.winner.map(letter), reason, text }
        });
        GameState {
            variant: G::NAME,
            board: pos.diagram().lines().map(|l| l.trim_end().to_string()).collect(),
            side: letter(stm),
            side_name: name(stm),
            players: G::SIDE_NAMES,
            hands: hands(fields.get(2).copied().unwrap_or("-")),
            ply: fields.get(3).and_then(|p| p.parse().ok()).unwrap_or(1),
            phase: if result.is_some() {
                "over"
            } else if pos.in_placement() {
                "placement"
            } else {
                "play"
            },
            status: pos.status(),
            result,
            sfen,
        }
    }

    /// The lines `d` prints.
    pub fn lines(&self) -> Vec<String> {
        let mut out = self.board.clone();
        out.push(format!("side {} ({})", self.side_name, self.side));
        out.push(format!("hands {} {}  {} {}", self.players[0], self.hands.b, self.players[1], self.hands.w));
        out.push(format!("ply {}", self.ply));
        out.push(format!("phase {}", self.phase));
        if let Some(s) = &self.status {
            out.push(format!("status {s}"));
        }
        if let Some(r) = &self.result {
            out.push(format!("result {}", r.text));
        }
        out.push(format!("sfen {}", self.sfen));
        out
    }
}

impl<G: Game> Referee<G> {
    /// Where the game stands, as `d` prints it.
    pub fn state(&self) -> GameState {
        GameState::of(self.pos(), self.history())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_fields_split_by_case_with_counts() {
        assert_eq!(hands("KRBGSNLkrbgsnl"), Hands { b: "KRBGSNL".into(), w: "krbgsnl".into() });
        assert_eq!(hands("2Pb"), Hands { b: "2P".into(), w: "b".into() });
        assert_eq!(hands("-"), Hands { b: "-".into(), w: "-".into() });
    }
}
