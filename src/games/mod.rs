//! The games. Each module holds one game's rules, notation and evaluation.
//!
//! To add a game: write its module implementing [`crate::game::Game`], then add it to the
//! `games!` list at the bottom of this file. Everything else finds it from there.

pub mod crab;
pub mod kaninariebi;
pub mod kanishogi;
pub mod kokesu;
pub mod numbershogi;
pub mod see;
pub mod sfen_fields;
pub mod shogi66;
pub mod zobrist;

use crate::game::{Game, RuleError, RuleOption};
use crate::session::{GameSession, Session};

macro_rules! games {
    ($($module:ident :: $ty:ident),* $(,)?) => {
        /// The variant names, in `USI_Variant` order.
        pub fn names() -> Vec<&'static str> {
            vec![$(<$module::$ty as Game>::NAME),*]
        }

        /// A fresh session (start position, default rules) for a variant name.
        pub fn new_session(name: &str) -> Option<Box<dyn Session>> {
            $(if name == <$module::$ty as Game>::NAME {
                return Some(Box::new(GameSession::<$module::$ty>::new()));
            })*
            None
        }

        /// Every rules switch of every game, with the variant it belongs to.
        pub fn rule_options() -> Vec<(&'static str, RuleOption)> {
            let mut all = Vec::new();
            $(all.extend(<$module::$ty as Game>::rule_options().iter().map(|o| (<$module::$ty as Game>::NAME, *o)));)*
            all
        }

        /// Checks a rules switch value against its game without changing anything.
        pub fn check_rule(variant: &str, name: &str, value: &str) -> Result<(), RuleError> {
            $(if variant == <$module::$ty as Game>::NAME {
                let mut rules = <<$module::$ty as Game>::Rules as Default>::default();
                return <$module::$ty as Game>::set_rule(&mut rules, name, value);
            })*
            Err(RuleError { name: name.to_string(), why: format!("no variant '{variant}'") })
        }
    };
}

games!(shogi66::Shogi66, kokesu::Kokesu, numbershogi::NumberShogi, kanishogi::KaniShogi, kaninariebi::KaniNariEbi);
