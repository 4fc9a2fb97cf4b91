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
    /// Where the current game came from, as the client wrote it. A next `position` with
    /// the same start takes back and plays only the moves where the two lists part, so a
    /// GUI (or `koma serve`, or the game report) that sends the whole game before each
    /// search costs the engine a few moves, not a replay.
    given: Option<Given>,
    /// The moves the last `position` played.
    played_last: usize,
}

/// A `position` as the client wrote it: the start (`None`: `startpos`) and the moves.
#[derive(Clone)]
struct Given {
    start: Option<String>,
    moves: Vec<String>,
}

impl Board {
    /// The start position under `rule_set`.
    pub fn new(rule_set: RuleSet) -> Board {
        let current = games::start(&rule_set, None).map_err(|e| format!("the start position: {e}"));
        let given = current.is_ok().then(|| Given { start: None, moves: Vec::new() });
        Board { rule_set, current, given, played_last: 0 }
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

    /// `position`: applied whole or not at all. On error the board has no position. When
    /// the start is written as the current game's was, the game is followed from where
    /// the two move lists part: the moves after that are taken back and the new ones
    /// played, each checked as in a replay.
    pub fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let previous = std::mem::replace(&mut self.current, Err(String::new()));
        let followed = match (previous, self.given.take()) {
            (Ok(mut cur), Some(given)) if given.start.as_deref() == sfen && given.moves.len() == cur.plies() => {
                let same = given.moves.iter().zip(moves).take_while(|(a, b)| a == b).count();
                for _ in same..given.moves.len() {
                    cur.pop();
                }
                Ok((cur, same))
            }
            _ => games::start(&self.rule_set, sfen).map(|cur| (cur, 0)),
        };
        let applied = followed.map_err(PositionError::from).and_then(|(mut cur, same)| {
            for (i, token) in moves.iter().enumerate().skip(same) {
                cur.push_unjudged(token).map_err(|source| PositionError::Move { index: i + 1, source })?;
            }
            Ok((cur, moves.len() - same))
        });
        match applied {
            Ok((cur, played)) => {
                self.current = Ok(cur);
                self.given = Some(Given { start: sfen.map(str::to_string), moves: moves.to_vec() });
                self.played_last = played;
                Ok(())
            }
            Err(e) => {
                self.current = Err(format!("the last position command was rejected ({e})"));
                Err(e)
            }
        }
    }

    /// The moves the last accepted `position` played (the others were kept from the game
    /// before it).
    pub fn played_last(&self) -> usize {
        self.played_last
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
        cur.push_unjudged(token).map_err(|e| e.to_string())?;
        if let Some(given) = &mut self.given {
            given.moves.push(token.to_string());
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Kokesu's knights out and back: a legal game of any length (a repetition ends it,
    /// which `position` does not ask).
    fn knights(plies: usize) -> Vec<String> {
        ["7h6f", "7a6c", "6f7h", "6c7a"].iter().cycle().take(plies).map(|m| m.to_string()).collect()
    }

    fn replayed(start: Option<&str>, moves: &[String]) -> Board {
        let mut b = new_board("kokesu").expect("kokesu");
        b.set_position(start, moves).expect("legal");
        b
    }

    #[test]
    fn a_position_that_extends_the_last_plays_only_the_new_moves() {
        let game = knights(401);
        let mut b = new_board("kokesu").expect("kokesu");
        b.set_position(None, &game[..400]).expect("legal");
        assert_eq!(b.played_last(), 400);
        b.set_position(None, &game).expect("legal");
        assert_eq!(b.played_last(), 1);
        let fresh = replayed(None, &game);
        assert_eq!((b.state(), b.outcome()), (fresh.state(), fresh.outcome()));
        assert_eq!(b.live().map(|g| g.moves()), fresh.live().map(|g| g.moves()));
    }

    #[test]
    fn a_position_that_takes_back_or_branches_plays_only_from_where_the_lists_part() {
        let game = knights(40);
        let mut b = replayed(None, &game);
        b.set_position(None, &game[..37]).expect("legal");
        assert_eq!((b.played_last(), b.live().map(|g| g.plies())), (0, Ok(37)));
        let mut branch = game[..36].to_vec();
        branch.push("2h3f".into());
        b.set_position(None, &branch).expect("legal");
        assert_eq!(b.played_last(), 1);
        assert_eq!(b.state(), replayed(None, &branch).state());
    }

    #[test]
    fn another_start_or_a_rejected_position_replays_the_next_whole() {
        let game = knights(12);
        let mut b = replayed(None, &game);
        let start = b.startpos_sfen();
        b.set_position(Some(&start), &game).expect("legal");
        assert_eq!(b.played_last(), 12, "the same position written another way is replayed");
        let mut bad = game[..6].to_vec();
        bad.push("1a1a".into());
        assert!(matches!(b.set_position(Some(&start), &bad), Err(PositionError::Move { index: 7, .. })));
        assert!(b.live().is_err(), "a rejected position leaves none");
        b.set_position(Some(&start), &game[..6]).expect("legal");
        assert_eq!(b.played_last(), 6);
    }

    #[test]
    fn a_move_played_on_the_board_is_part_of_the_game_a_next_position_extends() {
        let game = knights(9);
        let mut b = replayed(None, &game[..8]);
        b.play(&game[8]).expect("legal");
        b.set_position(None, &game).expect("legal");
        assert_eq!(b.played_last(), 0);
        assert_eq!(b.state(), replayed(None, &game).state());
    }
}
