//! The games. Each module holds one game's rules, notation and evaluation.
//!
//! To add a game: write its module implementing [`crate::game::Game`],
//! [`crate::game::Strategy`] and [`crate::game::Notation`], then add it to the `games!`
//! list below (CONTRIBUTING.md has the whole checklist). Everything else finds it from
//! there: the options, the dialects and the page of `koma serve` through [`descriptors`],
//! the engine through [`visit`], network training through [`trainable`] and [`visit_net`].

pub(crate) mod bitboard;
pub mod crab;
pub mod kaninariebi;
pub mod kanishogi;
pub mod kokesu;
pub mod nnue;
pub mod numbershogi;
pub(crate) mod see;
pub mod shogi66;

use std::sync::OnceLock;

use crate::game::{
    Appearance, ChessGame, ChessNotation, Game, Live, LiveGame, Notation, Queries, RuleSet, Scope, SfenError, Strategy,
    SwitchInfo,
};
use nnue::trainable::Trainable;

/// What the protocol edge and the options need to know of a game, without a position,
/// a table or a thread: its name, board, players, switches and chess notation.
#[derive(Clone, Debug)]
pub struct Descriptor {
    /// The `USI_Variant` name.
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    /// What the rules call the two players, the first player first.
    pub players: [&'static str; 2],
    /// The switches ([`Game::switches`]), in the order `usi` lists them.
    pub switches: Vec<SwitchInfo>,
    /// The game in UCI and CECP; `None`: USI only.
    pub chess: Option<ChessNotation>,
    /// [`Game::HIDDEN_SETUP`].
    pub hidden_setup: bool,
    /// The game's switch values at their defaults.
    pub rule_set: fn() -> RuleSet,
    /// [`Game::APPEARANCE`]: how the page of `koma serve` shows it.
    pub appearance: Appearance,
}

impl Descriptor {
    fn of<G: Strategy + Notation>() -> Descriptor {
        Descriptor {
            name: G::NAME,
            files: G::FILES,
            ranks: G::RANKS,
            players: G::SIDE_NAMES,
            switches: G::switches().iter().map(|s| s.info).collect(),
            chess: G::CHESS_NOTATION,
            hidden_setup: G::HIDDEN_SETUP,
            rule_set: RuleSet::of::<G>,
            appearance: G::APPEARANCE,
        }
    }

    /// The game's chess notation, if it has one.
    pub fn chess_game(&self) -> Option<ChessGame> {
        self.chess.map(|notation| ChessGame { name: self.name, files: self.files, ranks: self.ranks, notation })
    }

    /// The switch named `name` (without regard to case).
    pub fn switch(&self, name: &str) -> Option<&SwitchInfo> {
        self.switches.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// The rules switches (a change makes another game).
    pub fn rules_switches(&self) -> impl Iterator<Item = &SwitchInfo> {
        self.switches.iter().filter(|s| s.scope == Scope::Rules)
    }
}

/// A live game under `rule_set` from `sfen` (`None`: the start position): the one way a
/// game is made from a rule set of any variant.
pub fn start(rule_set: &RuleSet, sfen: Option<&str>) -> Result<Box<dyn Live>, SfenError> {
    struct Start<'a>(&'a RuleSet, Option<&'a str>);
    impl Visitor for Start<'_> {
        type Output = Option<Result<Box<dyn Live>, SfenError>>;
        fn visit<G: Strategy + Notation>(self) -> Self::Output {
            let game = LiveGame::<G>::new(self.0, self.1)?;
            Some(game.map(|g| Box::new(g) as Box<dyn Live>))
        }
    }
    let made = visit(rule_set.variant(), Start(rule_set, sfen)).flatten();
    made.unwrap_or_else(|| Err(SfenError::Board(format!("no game '{}' among the games", rule_set.variant()))))
}

/// The queries of a live game of any variant (its [`LiveGame`] behind the `dyn Live`);
/// `None` for a `Live` that is no registry game's.
pub fn queries(game: &dyn Live) -> Option<&dyn Queries> {
    struct Typed<'a>(&'a dyn Live);
    impl<'a> Visitor for Typed<'a> {
        type Output = Option<&'a dyn Queries>;
        fn visit<G: Strategy + Notation>(self) -> Self::Output {
            let typed = self.0.as_any().downcast_ref::<LiveGame<G>>()?;
            Some(typed as &dyn Queries)
        }
    }
    visit(game.variant(), Typed(game)).flatten()
}

/// Something to do with a game whose type is known only by its name: the registry calls
/// `visit::<G>()` with the game's type. This is how the layers above (the engine's
/// sessions, the CECP tracker) make a typed value from a name, without the registry
/// knowing them.
pub trait Visitor {
    type Output;
    fn visit<G: Strategy + Notation>(self) -> Self::Output;
}

/// Something to do with a game that has a network ([`Trainable`]), known by its feature
/// set: how `koma nnue-data` and `koma nnue-train` reach the game's type.
pub trait NetVisitor {
    type Output;
    fn visit<G: Trainable>(self) -> Self::Output;
}

/// A game with a network: its `USI_Variant` name and its feature set's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NetGame {
    pub name: &'static str,
    pub features: u32,
}

/// The registry: `module::Type` for each game, `+ Trainable` after a game with a network.
macro_rules! games {
    ($($module:ident :: $ty:ident $(+ $net:ident)?),* $(,)?) => {
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

        /// The games with a network, in `USI_Variant` order.
        pub fn trainable() -> &'static [NetGame] {
            const NETS: &[NetGame] = &[$($(NetGame {
                name: <$module::$ty as Game>::NAME,
                features: <$module::$ty as $net>::FEATURES.id,
            },)?)*];
            NETS
        }

        /// Calls `visitor` with the type of the game whose network has feature set
        /// `features`; `None` if no game has it.
        pub fn visit_net<V: NetVisitor>(features: u32, visitor: V) -> Option<V::Output> {
            $($(if features == <$module::$ty as $net>::FEATURES.id {
                return Some(visitor.visit::<$module::$ty>());
            })?)*
            None
        }
    };
}

games!(
    shogi66::Shogi66 + Trainable,
    kokesu::Kokesu + Trainable,
    numbershogi::NumberShogi,
    kanishogi::KaniShogi,
    kaninariebi::KaniNariEbi,
);

/// The variant names, in `USI_Variant` order.
pub fn names() -> Vec<&'static str> {
    descriptors().iter().map(|d| d.name).collect()
}

/// The games whose exact values the engine works out (`Strategy::MATE_BY_SOLVER`: `go
/// mate`, the page's explorer, `koma.solve`), in `USI_Variant` order.
pub fn solved() -> Vec<&'static str> {
    struct Solvable;
    impl Visitor for Solvable {
        type Output = bool;
        fn visit<G: Strategy + Notation>(self) -> bool {
            G::MATE_BY_SOLVER
        }
    }
    names().into_iter().filter(|&n| visit(n, Solvable) == Some(true)).collect()
}

/// The game named `name` (exactly).
pub fn descriptor(name: &str) -> Option<&'static Descriptor> {
    descriptors().iter().find(|d| d.name == name)
}

/// Every switch of every game, with the variant it belongs to.
pub fn switches() -> impl Iterator<Item = (&'static str, SwitchInfo)> {
    descriptors().iter().flat_map(|d| d.switches.iter().map(move |s| (d.name, *s)))
}
