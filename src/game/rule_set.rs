//! A rule set: one game's switch values, read once at the edge (a `setoption`, a page's
//! message, Python's keyword arguments, a record's header) and from then on passed around
//! typed. It holds the game's [`Game::Rules`] behind a face without the game's type, and
//! the switches that differ from their defaults as they were checked, so that a record or
//! a page can write them back.

use std::any::Any;
use std::fmt::{self, Debug};

use super::switch::{self, Scope, SwitchInfo};
use super::{Game, RuleError};

/// A game's switch values without the game's type (implemented by [`Values`] alone).
trait AnyRules: Send + Sync {
    fn variant(&self) -> &'static str;
    fn switches(&self) -> Vec<SwitchInfo>;
    fn set(&mut self, name: &str, value: &str) -> Result<SwitchInfo, RuleError>;
    fn clone_box(&self) -> Box<dyn AnyRules>;
    fn as_any(&self) -> &dyn Any;
    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

/// The rules of game `G`.
struct Values<G: Game>(G::Rules);

impl<G: Game> AnyRules for Values<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn switches(&self) -> Vec<SwitchInfo> {
        G::switches().iter().map(|s| s.info).collect()
    }

    fn set(&mut self, name: &str, value: &str) -> Result<SwitchInfo, RuleError> {
        let switch = switch::find(G::switches(), name).ok_or_else(|| RuleError::unknown(name, value))?;
        switch.apply(&mut self.0, value)?;
        Ok(switch.info)
    }

    fn clone_box(&self) -> Box<dyn AnyRules> {
        Box::new(Values::<G>(self.0.clone()))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", G::NAME, self.0)
    }
}

/// One game's switch values (rules, evaluation and engine switches), checked.
pub struct RuleSet {
    values: Box<dyn AnyRules>,
    /// Each switch away from its default, by its declared name, with its value as checked
    /// (a combo's declared word, `true`, a number; text as given), in declaration order.
    changed: Vec<(&'static str, String)>,
}

impl Clone for RuleSet {
    fn clone(&self) -> Self {
        RuleSet { values: self.values.clone_box(), changed: self.changed.clone() }
    }
}

impl Debug for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.values.debug(f)
    }
}

impl PartialEq for RuleSet {
    /// The same game with the same switches away from their defaults.
    fn eq(&self, other: &Self) -> bool {
        self.variant() == other.variant() && self.changed == other.changed
    }
}

impl Eq for RuleSet {}

impl RuleSet {
    /// Game `G` at its defaults.
    pub fn of<G: Game>() -> RuleSet {
        RuleSet { values: Box::new(Values::<G>(G::Rules::default())), changed: Vec::new() }
    }

    /// Game `G`'s defaults with `switches` (`(name, value)`, any case) set in turn; the first
    /// that cannot be set is the error.
    pub fn with<'a, G: Game>(switches: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<RuleSet, RuleError> {
        let mut set = RuleSet::of::<G>();
        for (name, value) in switches {
            set.set(name, value)?;
        }
        Ok(set)
    }

    /// The game's `USI_Variant` name.
    pub fn variant(&self) -> &'static str {
        self.values.variant()
    }

    /// Sets switch `name` (any case) and says what it acts on; on error nothing changed.
    pub fn set(&mut self, name: &str, value: &str) -> Result<Scope, RuleError> {
        let info = self.values.set(name, value)?;
        let checked = info.checked(value).map_err(|why| RuleError { name: info.name.to_string(), why })?;
        let at_default = info.checked(info.default).is_ok_and(|d| d == checked);
        self.changed.retain(|(n, _)| *n != info.name);
        if !at_default {
            self.changed.push((info.name, checked));
            let order: Vec<&str> = self.values.switches().iter().map(|s| s.name).collect();
            self.changed.sort_by_key(|(n, _)| order.iter().position(|o| o == n));
        }
        Ok(info.scope)
    }

    /// The switches of `scope` away from their defaults, `(declared name, value)`, in the
    /// order the game declares them: what a record or a page writes to keep the game.
    pub fn changed(&self, scope: Scope) -> Vec<(&'static str, &str)> {
        let scope_of = |name: &str| self.values.switches().into_iter().find(|s| s.name == name).map(|s| s.scope);
        self.changed.iter().filter(|(n, _)| scope_of(n) == Some(scope)).map(|(n, v)| (*n, v.as_str())).collect()
    }

    /// Whether the rules (the switches of [`Scope::Rules`]) are all at their defaults.
    pub fn default_rules(&self) -> bool {
        self.changed(Scope::Rules).is_empty()
    }

    /// The same game with the rules switches of `other` (another set of the same game) and
    /// this set's evaluation and engine switches; `None` if `other` is another game's.
    pub fn with_rules_of(&self, other: &RuleSet) -> Option<RuleSet> {
        if other.variant() != self.variant() {
            return None;
        }
        let mut next = self.clone();
        for info in self.values.switches().iter().filter(|s| s.scope == Scope::Rules) {
            let value = other.changed.iter().find(|(n, _)| *n == info.name).map_or(info.default, |(_, v)| v.as_str());
            next.set(info.name, value).ok()?;
        }
        Some(next)
    }

    /// The typed values, if the set is game `G`'s.
    pub fn rules<G: Game>(&self) -> Option<&G::Rules> {
        self.values.as_any().downcast_ref::<Values<G>>().map(|v| &v.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kokesu::Kokesu;
    use crate::games::numbershogi::NumberShogi;
    use crate::games::shogi66::Shogi66;

    #[test]
    fn a_switch_set_back_to_its_default_is_no_longer_written() {
        let mut set = RuleSet::of::<Kokesu>();
        assert!(set.default_rules());
        assert_eq!(set.set("kokesupromotion", "FREE"), Ok(Scope::Rules));
        assert_eq!(set.changed(Scope::Rules), [("KokesuPromotion", "free")]);
        assert!(set.rules::<Kokesu>().is_some() && set.rules::<Shogi66>().is_none());
        let default = Kokesu::switches()[0].info.default;
        set.set("KokesuPromotion", default).unwrap();
        assert!(set.default_rules(), "{:?}", set.changed(Scope::Rules));
        assert_eq!(set, RuleSet::of::<Kokesu>());
    }

    #[test]
    fn a_bad_value_changes_nothing_and_names_the_switch() {
        let mut set = RuleSet::with::<Kokesu>([("KokesuPromotion", "free")]).unwrap();
        let before = set.clone();
        let e = set.set("KokesuPromotion", "sideways").unwrap_err();
        assert_eq!(e.name, "KokesuPromotion");
        assert_eq!(set, before);
        assert!(RuleSet::with::<Shogi66>([("KokesuPromotion", "free")]).is_err());
    }

    #[test]
    fn rules_of_another_set_keep_this_sets_engine_switches() {
        let mut engine = RuleSet::of::<NumberShogi>();
        engine.set("NumberShogiSolution", "none").unwrap();
        let page = RuleSet::with::<NumberShogi>([("NumberShogiPromotion", "off")]).unwrap();
        let both = engine.with_rules_of(&page).unwrap();
        assert_eq!(both.changed(Scope::Rules), page.changed(Scope::Rules));
        assert_eq!(both.changed(Scope::Engine), engine.changed(Scope::Engine));
        assert!(engine.with_rules_of(&RuleSet::of::<Kokesu>()).is_none());
    }
}
