//! Move names: each game's own notation, written and read back (issues 56 and 57).
//!
//! - [`Style::Usi`]: the engine's token (`7g7f`, `P*5e`, `5d2d,2d1e+`), every game;
//! - [`Style::San`]: Kokesu's SAN as Fairy-Stockfish writes it (`e4`, `Nbd2`, `exd5`,
//!   `e8=Q#`), the moves of its PGN;
//! - [`Style::Kif`]: the Japanese names of 66 shogi and Number Shogi (`☗２六歩`, `☖同　歩`,
//!   `☗５五角打`, `☗２二角成`, `☗３三金右`), the moves of KIF records without their
//!   `(from)` square, which is added only where the side, square and piece do not name one move;
//! - [`Style::Western`]: the same games in Hodges' Western notation (`P-2f`, `Sx3c+`,
//!   `P*5e`, `S-4b=`, `G3e-4d` when two golds reach 4d); Number Shogi's pieces are their
//!   numbers `1`..`6`, turned over `+1`..`+6`.
//!
//! The crab games have no notation of their own in the rules contract: their moves are
//! named by their USI tokens. protocol/records.md describes every style for players.

mod kif;
mod san;
mod shogi;
mod western;

use std::fmt;

use thiserror::Error;

use crate::game::Live;

pub(crate) use kif::{names, read_square, record_move_text, Names, FILES, GAMES, NUMERALS};

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// The engine's USI token.
    Usi,
    /// Standard algebraic notation (Kokesu).
    San,
    /// Japanese KIF-style names (66 shogi, Number Shogi).
    Kif,
    /// Western (Hodges) notation (66 shogi, Number Shogi).
    Western,
}

impl Style {
    pub const ALL: [Style; 4] = [Style::Usi, Style::San, Style::Kif, Style::Western];

    /// The style's name: `usi`, `san`, `kif`, `western`.
    pub fn name(self) -> &'static str {
        match self {
            Style::Usi => "usi",
            Style::San => "san",
            Style::Kif => "kif",
            Style::Western => "western",
        }
    }

    /// The style named `text` (any case; `japanese` is also `kif`, `hodges` `western`).
    pub fn parse(text: &str) -> Result<Style, NotationError> {
        let t = text.trim().to_ascii_lowercase();
        let alias = match t.as_str() {
            "japanese" | "ki2" => "kif",
            "hodges" => "western",
            other => other,
        };
        Style::ALL.into_iter().find(|s| s.name() == alias).ok_or_else(|| NotationError::UnknownStyle(text.to_string()))
    }
}

impl fmt::Display for Style {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The styles of `variant`, its usual one after USI first; just USI for a game without
/// a notation of its own (the crab games) or a name that is no game.
pub fn styles(variant: &str) -> &'static [Style] {
    match variant {
        "kokesu" => &[Style::Usi, Style::San],
        "shogi66" | "numbershogi" => &[Style::Usi, Style::Kif, Style::Western],
        _ => &[Style::Usi],
    }
}

/// Why a text names no move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("'{0}' is not a notation style (styles: usi, san, kif, western)")]
    UnknownStyle(String),
    #[error("{variant} has no {style} notation (its styles: {})", style_list(styles(variant)))]
    NotThisGame { style: Style, variant: &'static str },
    #[error("'{text}' is not a legal move here (not {style}: {why})")]
    Unreadable { text: String, style: Style, why: &'static str },
    #[error("'{text}' is not a legal move here")]
    NoMove { text: String },
    #[error("'{text}' fits more than one legal move: {}", moves.join(", "))]
    Ambiguous { text: String, moves: Vec<String> },
}

fn style_list(styles: &[Style]) -> String {
    styles.iter().map(|s| s.name()).collect::<Vec<_>>().join(", ")
}

/// The name of `usi`, a legal move of `pos`, in `style`; `previous` is the token of the
/// move before it (KIF writes `同` for a move to the square that move went to). A token
/// that is not a legal move, or a style the game has not, gives the token unchanged.
pub fn name(pos: &dyn Live, usi: &str, style: Style, previous: Option<&str>) -> String {
    if style == Style::San && pos.is_legal(usi) {
        // SAN's check mark asks the position after the move.
        return name_on(pos.boxed_clone().as_mut(), usi, style, previous);
    }
    name_at(pos, usi, style, previous)
}

/// [`name`] on a position it may push a move on and pop it again.
fn name_on(pos: &mut dyn Live, usi: &str, style: Style, previous: Option<&str>) -> String {
    if style != Style::San || !pos.is_legal(usi) || !styles(pos.variant()).contains(&style) {
        return name_at(pos, usi, style, previous);
    }
    let mut out = san::bare(pos, usi);
    if pos.push_unjudged(usi).is_ok() {
        if pos.in_check() {
            out.push(if pos.legal_moves().is_empty() { '#' } else { '+' });
        }
        pos.pop();
    }
    out
}

/// [`name`] without SAN's check mark.
fn name_at(pos: &dyn Live, usi: &str, style: Style, previous: Option<&str>) -> String {
    if !pos.is_legal(usi) || !styles(pos.variant()).contains(&style) {
        return usi.to_string();
    }
    match style {
        Style::Usi => usi.to_string(),
        Style::San => san::bare(pos, usi),
        Style::Kif => kif::name(pos, usi, previous),
        Style::Western => western::name(pos, usi),
    }
}

/// The names of the moves of `line` played one after another from `pos`, on one copy of
/// it (each move pushed after it is named). The first token that is not a legal move
/// ends the list: the names given are those of the line's legal start.
pub fn names_of_line<S: AsRef<str>>(pos: &dyn Live, line: &[S], style: Style) -> Vec<String> {
    let mut at = pos.boxed_clone();
    let mut previous = pos.moves().last().cloned();
    let mut out = Vec::with_capacity(line.len());
    for usi in line.iter().map(AsRef::as_ref) {
        if !at.is_legal(usi) {
            break;
        }
        out.push(name_on(at.as_mut(), usi, style, previous.as_deref()));
        if at.push_unjudged(usi).is_err() {
            out.pop();
            break;
        }
        previous = Some(usi.to_string());
    }
    out
}

/// The USI token of the legal move of `pos` that `text` names in `style` (see the module
/// page for what each style tolerates). KIF's `同` refers to the last move `pos` was
/// played to (its [`Live::moves`]).
pub fn parse(pos: &dyn Live, text: &str, style: Style) -> Result<String, NotationError> {
    if !styles(pos.variant()).contains(&style) {
        return Err(NotationError::NotThisGame { style, variant: pos.variant() });
    }
    let text = text.trim();
    match style {
        Style::Usi if pos.is_legal(text) => Ok(text.to_string()),
        Style::Usi => Err(NotationError::NoMove { text: text.to_string() }),
        Style::San => san::parse(pos, text),
        Style::Kif => kif::parse(pos, text),
        Style::Western => western::parse(pos, text),
    }
}

/// The one move among `found` (legal tokens, without repeats), or the error naming `text`.
fn one(text: &str, mut found: Vec<String>) -> Result<String, NotationError> {
    found.dedup();
    match found.len() {
        1 => Ok(found.remove(0)),
        0 => Err(NotationError::NoMove { text: text.to_string() }),
        _ => Err(NotationError::Ambiguous { text: text.to_string(), moves: found }),
    }
}

#[cfg(test)]
mod tests;
