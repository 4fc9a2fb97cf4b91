//! The engine's options: the USI ones, koma's own, and every game's switches (declared by
//! the game, `Game::switches`), in one table built once ([`table`]). A row is an option
//! declared once, as a game's switch is: its [`SwitchInfo`] (name, kind, default, range,
//! other names) and its setter (a game's switch: its game's). The option lines of every
//! dialect read the rows; `setoption` checks a value with the switches' one checker
//! (`SwitchInfo::checked`) and hands it to the row's setter.

use std::sync::OnceLock;

use thiserror::Error;

use crate::game::RuleSet;
use crate::game::{Scope, SwitchInfo, SwitchKind};
use crate::games;
use crate::search::{skill, time};

pub const DEFAULT_VARIANT: &str = "shogi66";
/// The transposition table's size at start, MiB.
pub(crate) const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 4096;
pub const MAX_MULTIPV: usize = 64;
pub const MAX_THREADS: usize = 256;
/// The time options' range, milliseconds.
const MAX_TIME_OPTION_MS: u64 = 10_000;

/// A `setoption` the engine cannot take. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub(crate) enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option {name} needs a value")]
    MissingValue { name: String },
    #[error("option {name}: bad value '{value}': {why}")]
    BadValue { name: String, value: String, why: String },
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Another game: a new session.
    Variant,
    /// The table's size.
    Hash,
    /// A switch of the named variant, now in [`Options::settings`]: the session of that
    /// variant takes them (a rules switch sends its position back to the start).
    Switch { variant: &'static str, scope: Scope, name: &'static str, value: String },
    /// A value read at the next search; nothing to do now.
    Other,
}

/// What setting a row does.
#[derive(Clone, Copy, Debug)]
enum Set {
    /// One of the engine's own values: the setter takes the value as the kind's check
    /// gave it back (a number in range, `true` or `false`, a combo's word as declared) and
    /// says what the change does.
    Engine(fn(&mut Options, &str) -> Change),
    /// A game's switch, set in that game's [`RuleSet`].
    Switch { variant: &'static str },
    /// One of the search's tunable numbers (a build with the `spsa` feature).
    #[cfg(feature = "spsa")]
    Spsa(usize),
}

/// One row of the option table: an option declared once, as a game's switch is (its
/// [`SwitchInfo`]), with what setting it does.
#[derive(Clone, Debug)]
struct Spec {
    info: SwitchInfo,
    set: Set,
}

fn row(name: &'static str, kind: SwitchKind, default: &'static str, set: Set) -> Spec {
    Spec { info: SwitchInfo::new(name, kind, default, Scope::Engine), set }
}

/// An engine option that is a whole number from `min` to `max`.
fn spin(name: &'static str, default: &'static str, min: u64, max: u64, set: fn(&mut Options, &str) -> Change) -> Spec {
    row(name, SwitchKind::Spin { min, max }, default, Set::Engine(set))
}

/// An engine option that is `true` or `false`.
fn check(name: &'static str, default: &'static str, set: fn(&mut Options, &str) -> Change) -> Spec {
    row(name, SwitchKind::Check, default, Set::Engine(set))
}

impl Spec {
    /// The option under another name in the chess protocols.
    fn in_chess(mut self, chess_name: &'static str) -> Spec {
        self.info = self.info.in_chess(chess_name);
        self
    }

    /// The option answering to other names too.
    fn also(mut self, names: &'static [&'static str]) -> Spec {
        self.info = self.info.also(names);
        self
    }
}

/// A checked spin's value.
fn number(value: &str) -> u64 {
    value.parse().unwrap_or_default()
}

/// The variant names, `USI_Variant`'s choices.
fn variant_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(games::names)
}

/// Every option, in the order the handshake lists them, built once.
fn table() -> &'static [Spec] {
    static TABLE: OnceLock<Vec<Spec>> = OnceLock::new();
    TABLE.get_or_init(build_table)
}

fn build_table() -> Vec<Spec> {
    let ms = MAX_TIME_OPTION_MS;
    let mut t = vec![
        row(
            "USI_Variant",
            SwitchKind::Combo(variant_names()),
            DEFAULT_VARIANT,
            Set::Engine(|o, v| {
                o.variant = variant_names().iter().find(|n| **n == v).copied().unwrap_or(DEFAULT_VARIANT);
                Change::Variant
            }),
        )
        .in_chess("UCI_Variant"),
        spin("USI_Hash", crate::decimal!(DEFAULT_HASH_MIB), 1, MAX_HASH_MIB as u64, |o, v| {
            o.hash_mib = number(v) as usize;
            Change::Hash
        })
        .in_chess("Hash"),
        // Accepted and checked; pondering is the GUI's decision (`go ponder`), so the
        // value changes nothing in the engine.
        check("USI_Ponder", "false", |_, _| Change::Other).in_chess("Ponder"),
        check("USI_OwnBook", "true", |o, v| {
            o.own_book = v == "true";
            Change::Other
        })
        .in_chess("OwnBook"),
        spin("MultiPV", "1", 1, MAX_MULTIPV as u64, |o, v| {
            o.multipv = number(v) as usize;
            Change::Other
        }),
        spin("Threads", "1", 1, MAX_THREADS as u64, |o, v| {
            o.threads = number(v) as usize;
            Change::Other
        }),
        spin("MinimumThinkingTime", crate::decimal!(time::DEFAULT_MINIMUM_MS), 0, ms, |o, v| {
            o.minimum_thinking_ms = number(v);
            Change::Other
        }),
        spin("MoveOverhead", crate::decimal!(time::DEFAULT_OVERHEAD_MS), 0, ms, |o, v| {
            o.move_overhead_ms = number(v);
            Change::Other
        })
        .also(&["NetworkDelay"]),
        spin("ByoyomiOverhead", crate::decimal!(time::DEFAULT_BYOYOMI_OVERHEAD_MS), 0, ms, |o, v| {
            o.byoyomi_overhead_ms = number(v);
            Change::Other
        }),
        spin("BookSeed", "0", 0, u32::MAX as u64, |o, v| {
            o.book_seed = number(v);
            Change::Other
        }),
    ];
    // The games' switches, values every position of the game carries, checked and set by
    // the game: the engine's (beside the book's options), then after the level's the
    // rules switches, then the evaluation's.
    t.extend(switch_specs(Scope::Engine));
    t.extend(level_specs());
    t.extend(switch_specs(Scope::Rules));
    t.extend(switch_specs(Scope::Evaluation));
    #[cfg(feature = "spsa")]
    t.extend(spsa_specs());
    t
}

/// The search's tunable numbers, `Spsa_<Name>`, their defaults the ones every game
/// starts from (a game may have its own: `Strategy::SEARCH`); a value set overrides every
/// game's.
#[cfg(feature = "spsa")]
fn spsa_specs() -> impl Iterator<Item = Spec> {
    use crate::search::tunable::TUNABLE;
    TUNABLE.iter().enumerate().map(|(i, t)| {
        let kind = SwitchKind::Spin { min: t.min as u64, max: t.max as u64 };
        row(t.name, kind, t.default, Set::Spsa(i))
    })
}

/// Every game's switches of this scope, in registry order.
fn switch_specs(scope: Scope) -> impl Iterator<Item = Spec> {
    games::switches()
        .filter(move |(_, s)| s.scope == scope)
        .map(|(variant, info)| Spec { info, set: Set::Switch { variant } })
}

/// Every option as the handshake lists it (each dialect writes it in its own words).
pub(crate) fn lines() -> Vec<SwitchInfo> {
    table().iter().map(|s| s.info).collect()
}

/// Current option values. Each is declared once, by its row in the option table (name,
/// kind, default, range and setter); a new engine starts from the rows' defaults.
#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub variant: &'static str,
    pub hash_mib: usize,
    /// Play book moves where a game has them (`USI_OwnBook`): 66 shogi's placements,
    /// Number Shogi's arrangement, instead of searching them.
    pub own_book: bool,
    /// `BookSeed`: 0 draws the books' mixed choices afresh; another number repeats them.
    pub book_seed: u64,
    pub multipv: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    pub minimum_thinking_ms: u64,
    pub move_overhead_ms: u64,
    pub byoyomi_overhead_ms: u64,
    /// Every game's switch values, in registry order: each value is read once, when it
    /// is set; a session of the game takes them whole.
    settings: Vec<RuleSet>,
    /// `SkillLevel`, `USI_LimitStrength`, `USI_Elo`.
    pub level: LevelOptions,
}

impl Default for Options {
    /// The table's defaults (the games' switches: their games' defaults).
    fn default() -> Self {
        let mut o = Options {
            variant: DEFAULT_VARIANT,
            hash_mib: 0,
            own_book: false,
            book_seed: 0,
            multipv: 0,
            threads: 0,
            minimum_thinking_ms: 0,
            move_overhead_ms: 0,
            byoyomi_overhead_ms: 0,
            settings: games::descriptors().iter().map(|d| (d.rule_set)()).collect(),
            level: LevelOptions::default(),
        };
        for spec in table() {
            let own_default = match spec.set {
                Set::Engine(_) => true,
                // The games' switches keep their games' defaults, in `settings`.
                Set::Switch { .. } => false,
                // An `Spsa_*` number overrides every game's own only once it is set: its
                // default written in here would search every game with the shared values
                // (Kokesu's futility margin 0), not the game's own.
                #[cfg(feature = "spsa")]
                Set::Spsa(_) => false,
            };
            if own_default {
                o.apply(spec, spec.info.default).expect("every default is a valid value");
            }
        }
        o
    }
}

fn bad(name: &str, value: &str, why: impl Into<String>) -> OptionError {
    OptionError::BadValue { name: name.to_string(), value: value.to_string(), why: why.into() }
}

impl Options {
    /// The switch values of the game named `variant`.
    pub(crate) fn settings(&self, variant: &str) -> Option<&RuleSet> {
        self.settings.iter().find(|s| s.variant() == variant)
    }

    /// Takes the rules switches of `set` for its game (its evaluation and engine switches
    /// stay as they are here); the game's values after, or `None` when nothing changed.
    pub(crate) fn take_rules(&mut self, set: &RuleSet) -> Option<RuleSet> {
        let kept = self.settings.iter_mut().find(|s| s.variant() == set.variant())?;
        let next = kept.with_rules_of(set).filter(|n| n != kept)?;
        *kept = next.clone();
        Some(next)
    }

    /// Applies `setoption`. Names are matched without regard to case, aliases too
    /// (`UCI_Variant` is `USI_Variant`, `Hash` is `USI_Hash`).
    pub(crate) fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let Some(spec) = table().iter().find(|s| s.info.is_named(name)) else {
            return Err(OptionError::Unknown(name.to_string()));
        };
        // Errors name the option as it was written, except a game switch's (its own name).
        let shown = if matches!(spec.set, Set::Switch { .. }) { spec.info.name } else { name };
        let value = value.ok_or_else(|| OptionError::MissingValue { name: name.to_string() })?;
        self.apply(spec, value).map_err(|why| bad(shown, value, why))
    }

    /// Sets the value of one row: checked against its kind (the one checker, the games'
    /// switches'), then set.
    fn apply(&mut self, spec: &Spec, value: &str) -> Result<Change, String> {
        let checked = spec.info.checked(value)?;
        Ok(match spec.set {
            Set::Engine(set) => set(self, &checked),
            // The game reads the value as given (and may say more than its kind).
            Set::Switch { variant } => {
                let settings = (self.settings.iter_mut()).find(|s| s.variant() == variant).ok_or("no variant")?;
                let scope = settings.set(spec.info.name, value).map_err(|e| e.why)?;
                Change::Switch { variant, scope, name: spec.info.name, value: value.to_string() }
            }
            #[cfg(feature = "spsa")]
            Set::Spsa(i) => {
                crate::search::tunable::override_value(i, number(&checked) as i32);
                Change::Other
            }
        })
    }
}

/// The playing level's options: `SkillLevel` (0 to [`skill::MAX_LEVEL`], the top being
/// full strength), and `USI_LimitStrength` with `USI_Elo`, which when set choose the level
/// by its calibrated Elo instead (`crate::engine::levels`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LevelOptions {
    pub skill_level: u32,
    pub limit_strength: bool,
    pub elo: u32,
}

impl Default for LevelOptions {
    fn default() -> Self {
        LevelOptions { skill_level: skill::MAX_LEVEL, limit_strength: false, elo: DEFAULT_ELO }
    }
}

/// `USI_Elo`'s range and default (the Elo of the levels is each game's calibrated table;
/// a value outside it plays the nearest end).
pub(crate) const MIN_ELO: u32 = 100;
pub(crate) const MAX_ELO: u32 = 4000;
const DEFAULT_ELO: u32 = 1500;

/// The level's rows, in their own block: USI names first, the chess protocols' names as
/// Stockfish and Fairy-Stockfish spell them (`Skill Level`, `UCI_LimitStrength`,
/// `UCI_Elo`), and Fairy-Stockfish's USI spelling `Skill_Level` as an alias.
fn level_specs() -> Vec<Spec> {
    let max = skill::MAX_LEVEL as u64;
    vec![
        spin("SkillLevel", crate::decimal!(skill::MAX_LEVEL), 0, max, |o, v| {
            o.level.skill_level = number(v) as u32;
            Change::Other
        })
        .in_chess("Skill Level")
        .also(&["Skill_Level"]),
        check("USI_LimitStrength", "false", |o, v| {
            o.level.limit_strength = v == "true";
            Change::Other
        })
        .in_chess("UCI_LimitStrength"),
        spin("USI_Elo", crate::decimal!(DEFAULT_ELO), MIN_ELO as u64, MAX_ELO as u64, |o, v| {
            o.level.elo = number(v) as u32;
            Change::Other
        })
        .in_chess("UCI_Elo"),
    ]
}

/// The level's options as the handshake lists them (CECP offers only these).
pub(crate) fn level_lines() -> Vec<SwitchInfo> {
    level_specs().into_iter().map(|s| s.info).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_in_the_table_is_a_value_its_option_takes() {
        for spec in table() {
            let mut o = Options::default();
            assert!(o.set(spec.info.name, Some(spec.info.default)).is_ok(), "{}", spec.info.name);
        }
    }

    #[test]
    fn numbers_written_at_compile_time_are_their_decimal_digits() {
        assert_eq!([crate::decimal!(0), crate::decimal!(7), crate::decimal!(4096)], ["0", "7", "4096"]);
        assert_eq!(crate::decimal!(u64::MAX), u64::MAX.to_string());
    }

    #[test]
    fn aliases_and_case_reach_the_same_option_and_bad_values_change_nothing() {
        let mut o = Options::default();
        assert_eq!(o.set("hash", Some("64")), Ok(Change::Hash));
        assert_eq!(o.hash_mib, 64);
        assert_eq!(o.set("UCI_Variant", Some("Kokesu")), Ok(Change::Variant));
        assert_eq!(o.variant, "kokesu");
        let before = o.clone();
        assert!(o.set("Threads", Some("0")).is_err());
        assert!(o.set("USI_Ponder", Some("maybe")).is_err());
        assert!(o.set("Nonsense", Some("1")).is_err());
        assert_eq!((o.threads, o.variant, o.hash_mib), (before.threads, before.variant, before.hash_mib));
    }
}
