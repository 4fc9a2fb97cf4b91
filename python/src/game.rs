//! A game of any variant for `koma.Board`: the crate's live game ([`Live`]), made from a
//! rule set read from the keyword arguments. Every rule is the crate's; this file only
//! reads the arguments and dispatches the solver.

use koma::game::{Live, LiveGame, Notation, RuleError, RuleSet, Scope, SfenError, Strategy};
use koma::games::{self, Visitor};
use koma::search::prove::{solve_game, Exact, Sources};
use koma::search::solve::Budget;

/// Why a board could not be made.
pub enum NewError {
    Rule(RuleError),
    Sfen(SfenError),
}

/// The rules of `variant` with `switches` (rules switches only) set, checked once here.
fn rule_set(variant: &str, switches: &[(String, String)]) -> Option<Result<RuleSet, RuleError>> {
    let d = games::descriptor(variant)?;
    let mut set = (d.rule_set)();
    for (name, value) in switches {
        let switch = d.switch(name);
        if switch.map(|s| s.scope) != Some(Scope::Rules) {
            let rules: Vec<&str> = d.rules_switches().map(|s| s.name).collect();
            let why = match (switch, rules.is_empty()) {
                (Some(_), _) => "an evaluation or engine switch: give it to koma.Engine".to_string(),
                (None, true) => format!("{variant} has no rules switches"),
                (None, false) => format!("not a rules switch of {variant} (its rules switches: {})", rules.join(", ")),
            };
            return Some(Err(RuleError { name: name.clone(), why }));
        }
        if let Err(e) = set.set(name, value) {
            return Some(Err(e));
        }
    }
    Some(Ok(set))
}

/// A game of `variant` (`None`: no such variant) under these rules switches, from `sfen`
/// or the start.
pub fn new_game(
    variant: &str,
    sfen: Option<&str>,
    switches: &[(String, String)],
) -> Option<Result<Box<dyn Live>, NewError>> {
    Some(match rule_set(variant, switches)? {
        Err(e) => Err(NewError::Rule(e)),
        Ok(set) => games::start(&set, sfen).map_err(NewError::Sfen),
    })
}

/// The solver on the visited variant's game.
struct Solve<'a> {
    game: &'a dyn Live,
    budget: &'a Budget,
}

impl Visitor for Solve<'_> {
    type Output = Result<Exact, String>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        if !G::MATE_BY_SOLVER {
            return Err(format!("exact values are worked out only in {}, not {}", games::solved().join(", "), G::NAME));
        }
        let game = self.game.as_any().downcast_ref::<LiveGame<G>>().ok_or("the game is not of its variant")?;
        solve_game(game.referee(), self.budget, Sources::TableAndSolver)
    }
}

/// The exact value of the game's position (the crate's table or solver), in the games
/// the engine solves.
pub fn solve(game: &dyn Live, budget: &Budget) -> Result<Exact, String> {
    games::visit(game.variant(), Solve { game, budget }).unwrap_or_else(|| Err("no such variant".into()))
}
