//! A record's rule set: the game's rules switches that are not at their defaults
//! (protocol/records.md says where each format keeps them). Values are checked once, where
//! a record names them, by the game's own switch ([`Game::set_rule`]); a record without
//! any is a game under the default rules.

use crate::game::{Notation, RuleSet, Scope, Strategy};
use crate::games::{self, Visitor};

/// The rules switches of a record's game that are not at their defaults, in the order the
/// game declares them: (the switch's name as declared, its value as the switch's checker
/// gives it back). Empty: the default rules. The one place a record keeps its rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleSwitches(Vec<Entry>);

/// One switch: where its game declares it, its name as declared and its value.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    index: usize,
    name: &'static str,
    value: String,
}

impl RuleSwitches {
    /// Whether these are the game's default rules (no switch set).
    pub fn is_default(&self) -> bool {
        self.0.is_empty()
    }

    /// (name, value) of each switch not at its default, in the game's order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.0.iter().map(|e| (e.name, e.value.as_str()))
    }

    /// The value of switch `name` (any case) when it is not at its default.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    /// Sets rules switch `name` of game `variant` to `value`, checked by the game's own
    /// switch; a value that leaves the rules at their default drops the switch. An error
    /// (one line) for a game without that rules switch or a value it refuses.
    pub fn set(&mut self, variant: &str, name: &str, value: &str) -> Result<(), String> {
        if let Some(c) = value.chars().find(|c| c.is_control()) {
            return Err(format!("rules switch {name}: the value has a control character {}", c.escape_default()));
        }
        let checked = games::visit(variant, Check { name, value: value.trim() })
            .unwrap_or_else(|| Err(format!("no such variant '{variant}'")))?;
        self.0.retain(|e| e.index != checked.entry.index);
        if !checked.is_default {
            let at = self.0.iter().position(|e| e.index > checked.entry.index).unwrap_or(self.0.len());
            self.0.insert(at, checked.entry);
        }
        Ok(())
    }

    /// Sets a switch written `NAME=VALUE` (as KIF, CSA, PGN and koma's record write one).
    pub fn set_entry(&mut self, variant: &str, entry: &str) -> Result<(), String> {
        match entry.split_once('=') {
            Some((name, value)) => self.set(variant, name.trim(), value),
            None => Err(format!("rules switch '{}' is not NAME=VALUE", entry.trim())),
        }
    }

    /// Each switch written `NAME=VALUE`, in the game's order.
    pub fn entries(&self) -> impl Iterator<Item = String> + '_ {
        self.iter().map(|(n, v)| format!("{n}={v}"))
    }

    /// The rule set of game `variant` under these switches.
    pub fn rule_set(&self, variant: &str) -> Result<RuleSet, String> {
        let d = games::descriptor(variant).ok_or_else(|| format!("no such variant '{variant}'"))?;
        let mut set = (d.rule_set)();
        for (name, value) in self.iter() {
            set.set(name, value).map_err(|e| format!("rules switch {}: {}", e.name, e.why))?;
        }
        Ok(set)
    }
}

/// One switch checked by its game, and whether its value is the default rules'.
struct Checked {
    entry: Entry,
    is_default: bool,
}

struct Check<'a> {
    name: &'a str,
    value: &'a str,
}

impl Visitor for Check<'_> {
    type Output = Result<Checked, String>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        let rules_switches: Vec<&str> =
            G::switches().iter().filter(|s| s.info.scope == Scope::Rules).map(|s| s.info.name).collect();
        let found = G::switches().iter().enumerate().find(|(_, s)| s.info.is_named(self.name));
        let (index, switch) = match found {
            Some((i, s)) if s.info.scope == Scope::Rules => (i, s),
            _ if rules_switches.is_empty() => {
                return Err(format!("{} has no rules switches: '{}' is not one", G::NAME, self.name))
            }
            _ => {
                return Err(format!(
                    "'{}' is not a rules switch of {} (they are {})",
                    self.name,
                    G::NAME,
                    rules_switches.join(", ")
                ))
            }
        };
        let mut rules = G::Rules::default();
        G::set_rule(&mut rules, switch.info.name, self.value)
            .map_err(|e| format!("rules switch {}: {}", e.name, e.why))?;
        // The value as the switch's checker gives it back (a combo's word as declared).
        let value = switch.info.checked(self.value)?.trim().to_string();
        Ok(Checked { entry: Entry { index, name: switch.info.name, value }, is_default: rules == G::Rules::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_keep_the_games_order_and_canonical_words_and_defaults_drop_out() {
        let mut r = RuleSwitches::default();
        r.set("kokesu", "kokesustalemate", " LOSS ").unwrap();
        r.set("kokesu", "KokesuPromotion", "free").unwrap();
        assert_eq!(r.entries().collect::<Vec<_>>(), ["KokesuPromotion=free", "KokesuStalemate=loss"]);
        r.set("kokesu", "KokesuPromotion", "captured").unwrap();
        assert_eq!(r.entries().collect::<Vec<_>>(), ["KokesuStalemate=loss"]);
        // The default table written another way is the default.
        let mut n = RuleSwitches::default();
        n.set_entry(
            "numbershogi",
            "NumberShogiPieceMoves=6:N,NW,NE,W,E,S 5:N,NW,NE,SW,SE 4:NW,NE,SW,SE 3:N,NW,NE 2:NW,NE 1:N",
        )
        .unwrap();
        assert!(n.is_default());
    }

    #[test]
    fn unknown_switches_bad_values_and_other_scopes_are_errors() {
        let mut r = RuleSwitches::default();
        let e = r.set("kokesu", "KokesuPromotion", "maybe").unwrap_err();
        assert_eq!(e, "rules switch KokesuPromotion: bad value 'maybe': expected one of captured, free");
        let e = r.set("kokesu", "KokesuEval", "nnue").unwrap_err();
        assert_eq!(e, "'KokesuEval' is not a rules switch of kokesu (they are KokesuPromotion, KokesuStalemate)");
        let e = r.set("shogi66", "Anything", "x").unwrap_err();
        assert_eq!(e, "shogi66 has no rules switches: 'Anything' is not one");
        assert!(r.set_entry("kokesu", "KokesuPromotion free").unwrap_err().contains("NAME=VALUE"));
        assert!(r.set("kokesu", "KokesuPromotion", "free\nx").unwrap_err().contains("control character"));
        assert!(r.is_default());
    }
}
