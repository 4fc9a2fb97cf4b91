//! One game behind an object-safe face: its rules switches, the current position and the
//! moves that led there. [`Board`] speaks in move tokens and SFEN text; [`Tracked`]
//! implements it once for every game. It owns no table and starts no thread, so it is
//! cheap: the CECP dialect follows its game with one, and the engine's session
//! (`super::session`) keeps one beside its job runner.

use thiserror::Error;

use crate::game::referee::Referee;
use crate::game::state::GameState;
use crate::game::{Game, MoveError, Notation, Outcome, RuleError, Scope, SfenError, Strategy};
use crate::games::{self, Settings, Values, Visitor};

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

/// The variant-independent face of a game and its position.
pub trait Board: Send {
    fn variant(&self) -> &'static str;
    /// The start position under the current rules (SFEN).
    fn startpos_sfen(&self) -> String;
    /// Takes the game's switch values, of which one of `scope` changed: a rules switch
    /// sends the position back to the start position (the game is another one), an
    /// evaluation or engine switch keeps it. Returns whether the position went back to
    /// the start; an error if the values are another game's (nothing changed then).
    fn take_settings(&mut self, settings: &dyn Settings, scope: Scope) -> Result<bool, String>;
    /// Changes one switch by its name, as [`Board::take_settings`] does.
    fn set_switch(&mut self, name: &str, value: &str) -> Result<bool, RuleError>;
    /// `position`: applied whole or not at all. On error the board has no position.
    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError>;
    /// Why there is no position to work on, if there is none.
    fn position_error(&self) -> Option<String>;
    /// Plays one more move on the current position (a game followed move by move, as
    /// CECP does); an illegal or malformed token changes nothing.
    fn play(&mut self, token: &str) -> Result<(), String>;
    /// The position and where its game stands (`d`, `koma analyse`).
    fn state(&self) -> Result<GameState, String>;
    /// `moves`: legal move tokens.
    fn legal_moves(&self) -> Result<Vec<String>, String>;
    /// Whether the game is over in the current position, as the referee judges it (a
    /// rule, no legal move, repetition, the move-count rule), from the side to move's view.
    fn outcome(&self) -> Option<Outcome>;
}

/// [`Board`] for game `G`.
pub struct Tracked<G: Game> {
    rules: G::Rules,
    current: Result<Referee<G>, String>,
}

impl<G: Game> Tracked<G> {
    pub fn new() -> Self {
        let rules = G::Rules::default();
        let current = Ok(Referee::new(G::startpos(&rules)));
        Tracked { rules, current }
    }

    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The current position, or why there is none.
    pub fn current(&self) -> Result<&Referee<G>, String> {
        self.current.as_ref().map_err(|e| e.clone())
    }
}

impl<G: Game> Default for Tracked<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Strategy> Board for Tracked<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn startpos_sfen(&self) -> String {
        G::startpos(&self.rules).to_sfen()
    }

    fn take_settings(&mut self, settings: &dyn Settings, scope: Scope) -> Result<bool, String> {
        let Some(values) = settings.as_any().downcast_ref::<Values<G>>() else {
            return Err(format!("the switches of {} are not those of {}", settings.variant(), G::NAME));
        };
        self.rules = values.0.clone();
        if scope != Scope::Rules {
            if let Ok(cur) = &mut self.current {
                cur.change_pos_keeping_key(|pos| pos.take_switches(&values.0));
                return Ok(false);
            }
        }
        self.current = Ok(Referee::new(G::startpos(&self.rules)));
        Ok(true)
    }

    fn set_switch(&mut self, name: &str, value: &str) -> Result<bool, RuleError> {
        let mut values = Values::<G>(self.rules.clone());
        let scope = values.set(name, value)?;
        self.take_settings(&values, scope).map_err(|why| RuleError { name: name.to_string(), why })
    }

    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let applied = (|| {
            let pos = match sfen {
                None => G::startpos(&self.rules),
                Some(s) => G::from_sfen(s, &self.rules)?,
            };
            let mut cur = Referee::new(pos);
            for (i, token) in moves.iter().enumerate() {
                let mv = cur.pos().parse_move(token).map_err(|source| PositionError::Move { index: i + 1, source })?;
                cur.play(mv);
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

    fn position_error(&self) -> Option<String> {
        self.current.as_ref().err().cloned()
    }

    fn play(&mut self, token: &str) -> Result<(), String> {
        let cur = self.current.as_mut().map_err(|e| e.clone())?;
        let mv = cur.pos().parse_move(token).map_err(|e| e.to_string())?;
        cur.play(mv);
        Ok(())
    }

    fn state(&self) -> Result<GameState, String> {
        let cur = self.current()?;
        Ok(cur.state())
    }

    fn legal_moves(&self) -> Result<Vec<String>, String> {
        let cur = self.current()?;
        let mut list = Vec::new();
        cur.pos().legal_moves(&mut list);
        Ok(list.iter().map(|&m| cur.pos().format_move(m)).collect())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.current().ok()?.verdict().map(|v| v.outcome)
    }
}

struct NewBoard;

impl Visitor for NewBoard {
    type Output = Box<dyn Board>;
    fn visit<G: Strategy + Notation>(self) -> Box<dyn Board> {
        Box::new(Tracked::<G>::new())
    }
}

/// A board of the variant named `name` at its start position, default rules.
pub fn new_board(name: &str) -> Option<Box<dyn Board>> {
    games::visit(name, NewBoard)
}
