//! The games. Each module holds one game's rules, notation and evaluation.
//!
//! To add a game: write its module implementing [`crate::game::Game`],
//! [`crate::game::Strategy`] and [`crate::game::Notation`], then add it to the `games!`
//! list below (CONTRIBUTING.md has the whole checklist). Everything else finds it from
//! there: the options and dialects through [`descriptors`], the engine through [`visit`].

pub mod crab;
pub mod kaninariebi;
pub mod kanishogi;
pub mod kokesu;
pub mod nnue;
pub mod numbershogi;
pub mod see;
pub mod sfen_fields;
pub mod shogi66;
pub mod zobrist;

use std::sync::OnceLock;

use crate::game::{ChessNotation, Game, Notation, RuleError, RuleOption, Strategy};

/// Checks a switch's value (name, value) after the switches set earlier.
type CheckSwitch = fn(&[(&str, &str)], &str, &str) -> Result<(), RuleError>;

/// What the protocol edge and the options need to know of a game, without a position,
/// a table or a thread: its name, board, players, rules switches and chess notation.
#[derive(Clone, Copy, Debug)]
pub struct Descriptor {
    /// The `USI_Variant` name.
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    /// What the rules call the two players, the first player first.
    pub players: [&'static str; 2],
    /// The rules switches, in the order `usi` lists them.
    pub rule_options: &'static [RuleOption],
    /// The evaluation's switches ([`Strategy::eval_options`]).
    pub eval_options: &'static [RuleOption],
    /// The game in UCI and CECP; `None`: USI only.
    pub chess: Option<ChessNotation>,
    /// [`Game::HIDDEN_SETUP`].
    pub hidden_setup: bool,
    check_rule: CheckSwitch,
}

impl Descriptor {
    fn of<G: Strategy + Notation>() -> Descriptor {
        Descriptor {
            name: G::NAME,
            files: G::FILES,
            ranks: G::RANKS,
            players: G::SIDE_NAMES,
            rule_options: G::rule_options(),
            eval_options: G::eval_options(),
            chess: G::CHESS_NOTATION,
            hidden_setup: G::HIDDEN_SETUP,
            check_rule: |earlier, name, value| {
                let mut rules = G::Rules::default();
                for (n, v) in earlier {
                    // Values that were accepted before; one that no longer is (a net file
                    // since removed) is left at its default here.
                    let _ = set_switch::<G>(&mut rules, n, v);
                }
                set_switch::<G>(&mut rules, name, value)
            },
        }
    }

    /// Checks a rules or evaluation switch's value against the game without changing
    /// anything, the switches set `earlier` applied first (`KokesuEval nnue` takes the net
    /// of an earlier `KokesuNetFile`).
    pub fn check_rule(&self, earlier: &[(&str, &str)], name: &str, value: &str) -> Result<(), RuleError> {
        (self.check_rule)(earlier, name, value)
    }
}

/// Something to do with a game whose type is known only by its name: the registry calls
/// `visit::<G>()` with the game's type. This is how the layers above (the engine's
/// sessions, the CECP tracker) make a typed value from a name, without the registry
/// knowing them.
pub trait Visitor {
    type Output;
    fn visit<G: Strategy + Notation>(self) -> Self::Output;
}

macro_rules! games {
    ($($module:ident :: $ty:ident),* $(,)?) => {
        /// Every game, in `USI_Variant` order.
        pub fn descriptors() -> &'static [Descriptor] {
            static ALL: OnceLock<Vec<Descriptor>> = OnceLock::new();
            ALL.get_or_init(|| vec![$(Descriptor::of::<$module::$ty>()),*])
        }

        /// Calls `visitor` with the type of the game named `name`; `None` if there is none.
        pub fn visit<V: Visitor>(name: &str, visitor: V) -> Option<V::Output> {
            $(if name == <$module::$ty as Game>::NAME {
                return Some(visitor.visit::<$module::$ty>());
            })*
            None
        }
    };
}

games!(shogi66::Shogi66, kokesu::Kokesu, numbershogi::NumberShogi, kanishogi::KaniShogi, kaninariebi::KaniNariEbi);

/// The variant names, in `USI_Variant` order.
pub fn names() -> Vec<&'static str> {
    descriptors().iter().map(|d| d.name).collect()
}

/// The game named `name` (exactly).
pub fn descriptor(name: &str) -> Option<&'static Descriptor> {
    descriptors().iter().find(|d| d.name == name)
}

/// Every rules switch of every game, with the variant it belongs to.
pub fn rule_options() -> Vec<(&'static str, RuleOption)> {
    descriptors().iter().flat_map(|d| d.rule_options.iter().map(move |o| (d.name, *o))).collect()
}

/// Every evaluation switch of every game, with the variant it belongs to.
pub fn eval_options() -> Vec<(&'static str, RuleOption)> {
    descriptors().iter().flat_map(|d| d.eval_options.iter().map(move |o| (d.name, *o))).collect()
}

/// Sets a rules switch ([`Game::set_rule`]) or an evaluation switch
/// ([`Strategy::set_eval_option`]) of game `G`, by its name.
pub fn set_switch<G: Strategy>(rules: &mut G::Rules, name: &str, value: &str) -> Result<(), RuleError> {
    if G::eval_options().iter().any(|o| o.name == name) {
        G::set_eval_option(rules, name, value)
    } else {
        G::set_rule(rules, name, value)
    }
}
