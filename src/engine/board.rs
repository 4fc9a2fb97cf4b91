//! The engine's game: a [`Live`] game under the engine's switch values, which a rejected
//! `position` leaves without a position. It speaks in move tokens and SFEN text, owns no
//! table and starts no thread, so it is cheap.

use thiserror::Error;

use crate::game::state::GameState;
use crate::game::{Live, MoveError, Outcome, RuleError, RuleSet, Scope, SfenError};
use crate::games;

/// A `position` command that could not be applied. Nothing of it was applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("{0}")]
    Sfen(#[from] SfenError),
    #[error("move {index} of the moves list: {source}{}", hint_for(source))]
    Move { index: usize, source: MoveError },
}

/// A word of help after a malformed move that looks like chess notation (`e2e4`).
fn hint_for(e: &MoveError) -> &'static str {
    let MoveError::Syntax(token) = e else { return "" };
    let b = token.as_bytes();
    let chess_like = b.len() >= 4
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b.iter().skip(2).any(u8::is_ascii_lowercase);
    if chess_like {
        " (USI squares are a file number and a rank letter, as in 7g7f or P*5e; chess \
         notation such as e2e4 is read in UCI sessions, which start with the line 'uci')"
    } else {
        ""
    }
}

/// The engine's game: its switch values and the live game under them, or why there is
/// none (a rejected `position`). The CECP dialect follows its game with one, and the
/// engine's session (`super::session`) keeps one beside its job runner.
#[derive(Clone)]
pub struct Board {
    rule_set: RuleSet,
    current: Result<Box<dyn Live>, String>,
}

impl Board {
    /// The start position under `rule_set`.
    pub fn new(rule_set: RuleSet) -> Board {
        let current = games::start(&rule_set, None).map_err(|e| format!("the start position: {e}"));
        Board { rule_set, current }
    }

    pub fn variant(&self) -> &'static str {
        self.rule_set.variant()
    }

    /// The switch values the game is played under.
    pub fn rule_set(&self) -> &RuleSet {
        &self.rule_set
    }

    /// The start position under the current rules (SFEN).
    pub fn startpos_sfen(&self) -> String {
        games::start(&self.rule_set, None).map(|g| g.sfen()).unwrap_or_default()
    }

    /// Takes the game's switch values, of which one of `scope` changed: a rules switch
    /// sends the position back to the start position (the game is another one), an
    /// evaluation or engine switch keeps it. Returns whether the position went back to
    /// the start; an error if the values are another game's (nothing changed then).
    pub fn take_rule_set(&mut self, rule_set: &RuleSet, scope: Scope) -> Result<bool, String> {
        if rule_set.variant() != self.variant() {
            return Err(format!("the switches of {} are not those of {}", rule_set.variant(), self.variant()));
        }
        self.rule_set = rule_set.clone();
        if let (Ok(cur), true) = (&mut self.current, scope != Scope::Rules) {
            return cur.take_rule_set(rule_set, scope);
        }
        *self = Board::new(rule_set.clone());
        Ok(true)
    }

    /// Changes one switch by its name, as [`Board::take_rule_set`] does.
    pub fn set_switch(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        let mut next = self.rule_set.clone();
        let scope = next.set(name, value)?;
        self.take_rule_set(&next, scope).map_err(|why| RuleError { name: name.to_string(), why })
    }

    /// `position`: applied whole or not at all. On error the board has no position.
    pub fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let applied = (|| {
            let mut cur = games::start(&self.rule_set, sfen)?;
            for (i, token) in moves.iter().enumerate() {
                cur.push_unjudged(token).map_err(|source| PositionError::Move { index: i + 1, source })?;
            }
            Ok(cur)
        })();
        match applied {
            Ok(cur) => {
                self.current = Ok(cur);
                Ok(())
            }
            Err(e) => {
                self.current = Err(format!("the last position command was rejected ({e})"));
                Err(e)
            }
        }
    }

    /// The live game, or why there is no position to work on.
    pub fn live(&self) -> Result<&dyn Live, String> {
        self.current.as_deref().map_err(|e| e.clone())
    }

    /// Why there is no position to work on, if there is none.
    pub fn position_error(&self) -> Option<String> {
        self.current.as_ref().err().cloned()
    }

    /// Plays one more move on the current position (a game followed move by move, as
    /// CECP does); an illegal or malformed token changes nothing.
    pub fn play(&mut self, token: &str) -> Result<(), String> {
        let cur = self.current.as_mut().map_err(|e| e.clone())?;
        cur.push_unjudged(token).map_err(|e| e.to_string())
    }

    /// The position and where its game stands (`d`, `koma analyse`).
    pub fn state(&self) -> Result<GameState, String> {
        Ok(self.live()?.state())
    }

    /// `moves`: legal move tokens.
    pub fn legal_moves(&self) -> Result<Vec<String>, String> {
        Ok(self.live()?.legal_moves())
    }

    /// Whether the game is over in the current position, as the referee judges it (a
    /// rule, no legal move, repetition, the move-count rule), from the side to move's view.
    pub fn outcome(&self) -> Option<Outcome> {
        self.live().ok()?.verdict().map(|v| v.outcome)
    }
}

/// A board of the variant named `name` at its start position, default rules.
pub fn new_board(name: &str) -> Option<Board> {
    games::descriptor(name).map(|d| Board::new((d.rule_set)()))
}
