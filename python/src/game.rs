//! One game of any variant behind an object-safe face, for `koma.Board`: the crate's
//! [`Referee`] (position, history, verdict) with the positions moves were played from, so
//! that a move can be taken back. Every rule is the crate's; this file only dispatches.

use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use koma::game::perft;
use koma::game::referee::{Referee, Verdict};
use koma::game::state::GameState;
use koma::game::{Color, Game, MoveError, Notation, RuleError, Scope, SfenError, Strategy};
use koma::games::{self, Visitor};
use koma::search::solve::{self, Budget, Exact};

/// Why a board could not be made.
pub enum NewError {
    Rule(RuleError),
    Sfen(SfenError),
}

/// A game of one variant, from its root to the current position.
pub trait Tracked: Send + Sync {
    fn variant(&self) -> &'static str;
    /// The root's SFEN (what the game started from), for the engine's `position`.
    fn root_sfen(&self) -> String;
    /// The moves played since the root, oldest first.
    fn moves(&self) -> Vec<String>;
    /// The rules switches that differ from the defaults, as given.
    fn switches(&self) -> &[(String, String)];
    fn side_to_move(&self) -> Color;
    fn sfen(&self) -> String;
    /// What `d` shows, the referee's result included.
    fn state(&self) -> GameState;
    fn is_over(&self) -> bool;
    /// The game's legal moves; none once the referee says the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// Whether `push(token)` would play it.
    fn is_legal(&self, token: &str) -> bool;
    /// Plays `token`; an illegal or malformed move, or one after the end, changes nothing.
    fn push(&mut self, token: &str) -> Result<(), MoveError>;
    /// Takes back the last move and returns it; `None` at the root.
    fn pop(&mut self) -> Option<String>;
    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64;
    fn boxed_clone(&self) -> Box<dyn Tracked>;
    /// The exact value (the crate's solver, Number Shogi only).
    fn solve(&self, budget: &Budget) -> Result<Exact, String>;
}

#[derive(Clone)]
struct Followed<G: Game> {
    referee: Referee<G>,
    /// The referee's verdict on the current position, once asked (a push asks it, and
    /// `legal_moves` before it).
    verdict: OnceLock<Option<Verdict>>,
    root: G,
    switches: Vec<(String, String)>,
    /// Each move played (its token as the game writes it) and the position it was played from.
    played: Vec<(String, G)>,
}

impl<G: Strategy> Tracked for Followed<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn root_sfen(&self) -> String {
        self.root.to_sfen()
    }

    fn moves(&self) -> Vec<String> {
        self.played.iter().map(|(t, _)| t.clone()).collect()
    }

    fn switches(&self) -> &[(String, String)] {
        &self.switches
    }

    fn side_to_move(&self) -> Color {
        self.referee.pos().side_to_move()
    }

    fn sfen(&self) -> String {
        self.referee.pos().to_sfen()
    }

    fn state(&self) -> GameState {
        self.referee.state()
    }

    fn is_over(&self) -> bool {
        self.verdict.get_or_init(|| self.referee.verdict()).is_some()
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let pos = self.referee.pos();
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        list.into_iter().map(|m| pos.format_move(m)).collect()
    }

    fn is_legal(&self, token: &str) -> bool {
        self.referee.pos().parse_move(token).is_ok() && !self.is_over()
    }

    fn push(&mut self, token: &str) -> Result<(), MoveError> {
        let mv = self.referee.pos().parse_move(token)?;
        if self.is_over() {
            return Err(MoveError::GameOver(token.to_string()));
        }
        let before = self.referee.pos().clone();
        self.referee.play(mv);
        self.verdict = OnceLock::new();
        self.played.push((before.format_move(mv), before));
        Ok(())
    }

    fn pop(&mut self) -> Option<String> {
        let (token, before) = self.played.pop()?;
        self.referee.take_back(before);
        self.verdict = OnceLock::new();
        Some(token)
    }

    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64 {
        perft::perft_until(self.referee.pos(), depth, stop)
    }

    fn boxed_clone(&self) -> Box<dyn Tracked> {
        Box::new(self.clone())
    }

    fn solve(&self, budget: &Budget) -> Result<Exact, String> {
        if G::NAME != games::numbershogi::NumberShogi::NAME {
            return Err(format!("the solver solves only numbershogi, not {}", G::NAME));
        }
        solve::solve_game(&self.referee, budget)
    }
}

/// Makes a game of the visited variant with these switches, from `sfen` or the start.
struct NewGame<'a> {
    sfen: Option<&'a str>,
    switches: &'a [(String, String)],
}

impl Visitor for NewGame<'_> {
    type Output = Result<Box<dyn Tracked>, NewError>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        let mut rules = G::Rules::default();
        for (name, value) in self.switches {
            let switch = G::switches().iter().find(|s| s.info.name == name).map(|s| s.info.scope);
            if switch != Some(Scope::Rules) {
                let why = if switch.is_some() {
                    "an evaluation or engine switch: give it to koma.Engine".to_string()
                } else {
                    let rules = G::switches().iter().filter(|s| s.info.scope == Scope::Rules);
                    let names: Vec<&str> = rules.map(|s| s.info.name).collect();
                    format!("not a rules switch of {} (its switches: {})", G::NAME, names.join(", "))
                };
                return Err(NewError::Rule(RuleError { name: name.clone(), why }));
            }
            G::set_rule(&mut rules, name, value).map_err(NewError::Rule)?;
        }
        let root = match self.sfen {
            None => G::startpos(&rules),
            Some(s) => G::from_sfen(s, &rules).map_err(NewError::Sfen)?,
        };
        Ok(Box::new(Followed {
            referee: Referee::new(root.clone()),
            verdict: OnceLock::new(),
            root,
            switches: self.switches.to_vec(),
            played: Vec::new(),
        }))
    }
}

/// A game of `variant` (`None`: no such variant).
pub fn new_game(
    variant: &str,
    sfen: Option<&str>,
    switches: &[(String, String)],
) -> Option<Result<Box<dyn Tracked>, NewError>> {
    games::visit(variant, NewGame { sfen, switches })
}
