//! A live game: one game of any variant under its rule set, from its root through the
//! moves played, with push and pop. Every front end holds one: the engine's session, the
//! CECP dialect, the record readers and writers, the game report, `koma serve`'s games and
//! the Python `Board`. It is built once from a [`RuleSet`] (`crate::games::start`); moves
//! are played and taken back one at a time, so nothing replays a game to follow it.

use std::any::Any;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use super::referee::{Referee, Verdict};
use super::rule_set::RuleSet;
use super::state::GameState;
use super::{perft, sfen_fields, Color, Game, MoveError, Scope, SfenError, Strategy};

/// A game in progress, without its type.
pub trait Live: Send + Sync {
    fn variant(&self) -> &'static str;
    /// The board's files and ranks.
    fn size(&self) -> (usize, usize);
    /// The switch values the game is played under.
    fn rule_set(&self) -> &RuleSet;
    /// The SFEN of the root (the start position or the position the game was set up from).
    fn root_sfen(&self) -> String;
    /// The move tokens played since the root, oldest first.
    fn moves(&self) -> Vec<String>;
    /// The number of moves played since the root.
    fn plies(&self) -> usize;
    fn sfen(&self) -> String;
    fn side_to_move(&self) -> Color;
    fn in_check(&self) -> bool;
    /// What `d` shows, the referee's result included.
    fn state(&self) -> GameState;
    /// The referee's verdict if the game is over (judged once per position).
    fn verdict(&self) -> Option<Verdict>;
    /// The legal move tokens of the current position (whether or not the game is over).
    fn legal_moves(&self) -> Vec<String>;
    /// Calls `f` with each legal move token of the current position, as `legal_moves`
    /// lists them, without building the list.
    fn each_legal_move(&self, f: &mut dyn FnMut(&str)) {
        self.legal_moves().iter().for_each(|t| f(t));
    }
    /// Whether `push(token)` would play it.
    fn is_legal(&self, token: &str) -> bool;
    /// Plays a legal move; a malformed or illegal token, or any move once the game is
    /// over, changes nothing.
    fn push(&mut self, token: &str) -> Result<(), MoveError>;
    /// Plays a legal move without asking whether the game is over: the engine's
    /// `position`, which follows whatever moves a GUI played.
    fn push_unjudged(&mut self, token: &str) -> Result<(), MoveError>;
    /// Takes back the last move and gives its token; `None` at the root.
    fn pop(&mut self) -> Option<String>;
    /// Perft of the current position, stopped early when `stop` is set.
    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64;
    /// Takes other switch values of the same game: a change of the rules sends the game
    /// back to the start (it is another game), an evaluation or engine switch keeps the
    /// position. Returns whether it went back; an error (nothing changed) if the values
    /// are another game's.
    fn take_rule_set(&mut self, rule_set: &RuleSet, scope: Scope) -> Result<bool, String>;
    fn boxed_clone(&self) -> Box<dyn Live>;
    /// The typed game ([`LiveGame`]), for code that knows the variant's type.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn Live> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// [`Live`] for game `G`.
#[derive(Clone)]
pub struct LiveGame<G: Game> {
    rule_set: RuleSet,
    rules: G::Rules,
    root: G,
    referee: Referee<G>,
    /// Each move played (its token as the game writes it) and the position it was played from.
    played: Vec<(String, G)>,
    /// The referee's verdict on the current position, once asked.
    verdict: OnceLock<Option<Verdict>>,
    /// The current position's legal moves and their tokens, once asked: a front end
    /// that lists the moves and then plays one of them (the Python binding, the match
    /// referee) generates them once.
    legal: OnceLock<Listed<G::Move>>,
}

/// A position's legal moves and their tokens, the tokens written one after the other in
/// one string (one allocation for the list, not one a move).
#[derive(Clone)]
struct Listed<M> {
    moves: Vec<(M, u32)>,
    /// The tokens; move `i`'s ends at `moves[i].1` and starts where the one before ends.
    text: String,
}

impl<M: Copy> Listed<M> {
    fn iter(&self) -> impl Iterator<Item = (M, &str)> + '_ {
        let mut start = 0;
        self.moves.iter().map(move |&(m, end)| {
            let token = &self.text[start..end as usize];
            start = end as usize;
            (m, token)
        })
    }
}

impl<G: Strategy> LiveGame<G> {
    /// The game under `rule_set` from `start` (an SFEN; `None`: the start position).
    /// `None` if `rule_set` is another game's.
    pub fn new(rule_set: &RuleSet, start: Option<&str>) -> Option<Result<Self, SfenError>> {
        let rules = rule_set.rules::<G>()?.clone();
        Some(Self::under(rule_set.clone(), rules, start))
    }

    /// The game under `rules` (`rule_set`'s typed values) from `start`.
    pub(super) fn under(rule_set: RuleSet, rules: G::Rules, start: Option<&str>) -> Result<Self, SfenError> {
        let root = match start {
            None => G::startpos(&rules),
            Some(s) => G::from_sfen(s, &rules)?,
        };
        Ok(Self::at(rule_set, rules, root))
    }

    fn at(rule_set: RuleSet, rules: G::Rules, root: G) -> Self {
        let referee = Referee::new(root.clone());
        LiveGame {
            rule_set,
            rules,
            root,
            referee,
            played: Vec::new(),
            verdict: OnceLock::new(),
            legal: OnceLock::new(),
        }
    }

    /// The game's typed rules.
    pub fn rules(&self) -> &G::Rules {
        &self.rules
    }

    /// The position and its history since the root (what a search starts from).
    pub fn referee(&self) -> &Referee<G> {
        &self.referee
    }

    /// The current position's legal moves with their tokens (made once a position).
    fn legal(&self) -> &Listed<G::Move> {
        self.legal.get_or_init(|| {
            let pos = self.referee.pos();
            let mut list = Vec::with_capacity(128);
            pos.legal_moves(&mut list);
            let mut text = String::with_capacity(6 * list.len());
            let moves = list
                .into_iter()
                .map(|m| {
                    pos.write_move(m, &mut text);
                    (m, text.len() as u32)
                })
                .collect();
            Listed { moves, text }
        })
    }

    /// The position changed: what was known of the last one is forgotten.
    fn moved(&mut self) {
        self.verdict = OnceLock::new();
        self.legal = OnceLock::new();
    }

    fn play(&mut self, token: &str, judged: bool) -> Result<(), MoveError> {
        // A token as the game writes it is found among the listed moves; any other
        // spelling (and every error) is the game's parser's.
        let known = self.legal.get().and_then(|l| l.iter().find(|&(_, t)| t == token));
        let (mv, token) = match known {
            Some((mv, t)) => (mv, t.to_string()),
            None => {
                let mv = self.referee.pos().parse_move(token)?;
                (mv, self.referee.pos().format_move(mv))
            }
        };
        if judged && self.verdict().is_some() {
            return Err(MoveError::GameOver(token));
        }
        let before = self.referee.pos().clone();
        self.referee.play(mv);
        self.moved();
        self.played.push((token, before));
        Ok(())
    }
}

/// The pieces on the board of an SFEN of a `files` x `ranks` board: (USI square, symbol).
fn sfen_pieces(sfen: &str, files: usize, ranks: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let field = sfen.split(' ').next().unwrap_or("");
    let _ = sfen_fields::board(field, ranks, files, |r, f, letter, promoted| {
        let square = format!("{}{}", files - f, sfen_fields::rank_letter(r));
        out.push((square, if promoted { format!("+{letter}") } else { letter.to_string() }));
        Ok(())
    });
    out
}

/// The square a move step starts from (`5d` of `5d3a+`); `None` for a drop.
fn step_from(step: &str) -> Option<&str> {
    let digits = step.bytes().take_while(u8::is_ascii_digit).count();
    step.as_bytes().get(digits).filter(|b| b.is_ascii_lowercase())?;
    (digits > 0).then(|| &step[..digits + 1])
}

/// The square a move step ends on (`3a` of `5d3a+`).
fn step_to(step: &str) -> Option<&str> {
    let from = step_from(step)?;
    step_from(&step[from.len()..])
}

impl<G: Strategy> LiveGame<G> {
    fn occupant(pos: &G, square: &str) -> Option<String> {
        sfen_pieces(&pos.to_sfen(), G::FILES, G::RANKS).into_iter().find(|(s, _)| s == square).map(|(_, p)| p)
    }

    /// [`Live::attackers`] from the legal moves, for games without attack tables.
    fn attackers_by_moves(&self, by: Color, square: &str) -> Vec<String> {
        let now = self.referee.pos();
        let pos = if now.side_to_move() == by {
            now.clone()
        } else {
            let sfen = now.to_sfen();
            let mut fields: Vec<&str> = sfen.split(' ').collect();
            if fields.len() < 2 {
                return Vec::new();
            }
            fields[1] = if by == Color::Sente { "b" } else { "w" };
            match G::from_sfen(&fields.join(" "), &self.rules) {
                Ok(p) => p,
                Err(_) => return Vec::new(),
            }
        };
        let before = Self::occupant(&pos, square);
        let own = |p: &String| {
            p.trim_start_matches('+').starts_with(|c: char| c.is_ascii_uppercase()) == (by == Color::Sente)
        };
        if before.as_ref().is_some_and(own) {
            return Vec::new();
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let takes: Vec<String> = moves
            .into_iter()
            .filter(|&mv| {
                let mut after = pos.clone();
                after.play(mv);
                Self::occupant(&after, square) != before
            })
            .map(|mv| pos.format_move(mv))
            .collect();
        let mut out: Vec<String> = Vec::new();
        for token in &takes {
            let from = match token.split_once(',') {
                // The normal move alone takes it: that move names the piece.
                Some((first, _)) if takes.iter().any(|t| t == first) => None,
                Some((first, bond)) => {
                    let bond_from = step_from(bond);
                    if bond_from.is_some() && bond_from == step_to(first) {
                        step_from(first)
                    } else {
                        bond_from
                    }
                }
                None => step_from(token),
            };
            if let Some(from) = from {
                if !out.iter().any(|s| s == from) {
                    out.push(from.to_string());
                }
            }
        }
        out
    }
}

/// What a live game answers about its position beyond [`Live`] (the Python binding's
/// queries): every [`LiveGame`] has it, and `crate::games::queries` reaches it from a
/// `dyn Live` through the variant's type.
pub trait Queries {
    /// How many times the current position has occurred since the root (1 the first
    /// time), as the referee counts repetitions.
    fn repetitions(&self) -> usize;
    /// The pieces on the board: (USI square, SFEN symbol such as `+P` or `k`), in SFEN order.
    fn board_pieces(&self) -> Vec<(String, String)>;
    /// The squares of the pieces of `by` that attack `square` (see [`Game::attackers`]);
    /// in the crab games, where captures are sandwiches, the pieces of `by` whose turn
    /// (with `by` to move) would take the piece on `square` or end on it when it is empty:
    /// the piece that makes the capturing step (a bond move's piece, from where it stood
    /// before the turn). Empty for a square off the board.
    fn attackers(&self, by: Color, square: &str) -> Vec<String>;
    /// The squares of the pieces giving check to the side to move (see [`Game::checkers`]).
    fn checkers(&self) -> Vec<String>;
}

impl<G: Strategy> Queries for LiveGame<G> {
    fn repetitions(&self) -> usize {
        self.referee.occurrences()
    }

    fn board_pieces(&self) -> Vec<(String, String)> {
        sfen_pieces(&self.sfen(), G::FILES, G::RANKS)
    }

    fn attackers(&self, by: Color, square: &str) -> Vec<String> {
        let on_board =
            (1..=G::FILES).any(|f| (0..G::RANKS).any(|r| format!("{f}{}", sfen_fields::rank_letter(r)) == square));
        if !on_board {
            return Vec::new();
        }
        match self.referee.pos().attackers(by, square) {
            Some(list) => list,
            None => self.attackers_by_moves(by, square),
        }
    }

    fn checkers(&self) -> Vec<String> {
        self.referee.pos().checkers()
    }
}

impl<G: Strategy> Live for LiveGame<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn size(&self) -> (usize, usize) {
        (G::FILES, G::RANKS)
    }

    fn rule_set(&self) -> &RuleSet {
        &self.rule_set
    }

    fn root_sfen(&self) -> String {
        self.root.to_sfen()
    }

    fn moves(&self) -> Vec<String> {
        self.played.iter().map(|(t, _)| t.clone()).collect()
    }

    fn plies(&self) -> usize {
        self.played.len()
    }

    fn sfen(&self) -> String {
        self.referee.pos().to_sfen()
    }

    fn side_to_move(&self) -> Color {
        self.referee.pos().side_to_move()
    }

    fn in_check(&self) -> bool {
        self.referee.pos().in_check()
    }

    fn state(&self) -> GameState {
        self.referee.state()
    }

    fn verdict(&self) -> Option<Verdict> {
        *self.verdict.get_or_init(|| self.referee.verdict_knowing(|| !self.legal().moves.is_empty()))
    }

    fn legal_moves(&self) -> Vec<String> {
        self.legal().iter().map(|(_, t)| t.to_string()).collect()
    }

    fn each_legal_move(&self, f: &mut dyn FnMut(&str)) {
        self.legal().iter().for_each(|(_, t)| f(t));
    }

    fn is_legal(&self, token: &str) -> bool {
        self.referee.pos().parse_move(token).is_ok() && self.verdict().is_none()
    }

    fn push(&mut self, token: &str) -> Result<(), MoveError> {
        self.play(token, true)
    }

    fn push_unjudged(&mut self, token: &str) -> Result<(), MoveError> {
        self.play(token, false)
    }

    fn pop(&mut self) -> Option<String> {
        let (token, before) = self.played.pop()?;
        self.referee.take_back(before);
        self.moved();
        Some(token)
    }

    fn perft(&self, depth: u32, stop: &AtomicBool) -> u64 {
        perft::perft_until(self.referee.pos(), depth, stop)
    }

    fn take_rule_set(&mut self, rule_set: &RuleSet, scope: Scope) -> Result<bool, String> {
        let Some(rules) = rule_set.rules::<G>() else {
            return Err(format!("the switches of {} are not those of {}", rule_set.variant(), G::NAME));
        };
        let rules = rules.clone();
        self.rule_set = rule_set.clone();
        if scope != Scope::Rules {
            self.rules = rules.clone();
            let change = |pos: &mut G| pos.take_switches(&rules);
            self.root = {
                let mut root = self.root.clone();
                change(&mut root);
                root
            };
            for (_, before) in &mut self.played {
                change(before);
            }
            self.referee.change_pos_keeping_key(change);
            self.moved();
            return Ok(false);
        }
        let root = G::startpos(&rules);
        *self = Self::at(rule_set.clone(), rules, root);
        Ok(true)
    }

    fn boxed_clone(&self) -> Box<dyn Live> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
