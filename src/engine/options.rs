//! The engine's options: the USI ones, koma's own, and every game's switches (declared by
//! the game, `Game::switches`), in one table ([`table`]): name, kind, default, range and
//! what a change does. The option lines of every dialect and the setter both read it, so
//! an option is declared once.

use thiserror::Error;

use crate::game::{Scope, SwitchKind};
use crate::games::{self, Settings};
use crate::search::{skill, time};

pub const DEFAULT_VARIANT: &str = "shogi66";
/// The transposition table's size at start, MiB.
pub const DEFAULT_HASH_MIB: usize = 16;
const MAX_HASH_MIB: usize = 4096;
pub const MAX_MULTIPV: usize = 64;
pub const MAX_THREADS: usize = 256;
/// The time options' range, milliseconds.
const MAX_TIME_OPTION_MS: u64 = 10_000;

/// A `setoption` the engine cannot take. Nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option {name} needs a value")]
    MissingValue { name: String },
    #[error("option {name}: bad value '{value}': {why}")]
    BadValue { name: String, value: String, why: String },
}

/// What a successful `setoption` changed, for the engine to act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
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

/// The kind of an option, with its range or choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Spin { min: u64, max: u64 },
    Check,
    Combo(Vec<&'static str>),
    Text,
}

/// An option as the handshake lists it (each dialect writes it in its own words).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionLine {
    pub name: &'static str,
    /// Its name in the chess protocols (UCI), where that differs (`Hash`, `Ponder`).
    pub chess_name: &'static str,
    pub kind: OptionKind,
    pub default: String,
}

/// Which value an option sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Target {
    Variant,
    Hash,
    /// Accepted and checked; pondering is the GUI's decision (`go ponder`), so the value
    /// changes nothing in the engine.
    Ponder,
    /// Whether the search plays a game's book moves (66 shogi's placements, Number
    /// Shogi's arrangement) instead of searching them.
    OwnBook,
    /// The random numbers of the books' mixed choices (0: fresh each time).
    BookSeed,
    MultiPv,
    Threads,
    MinimumThinking,
    MoveOverhead,
    ByoyomiOverhead,
    /// The playing level's three options ([`level_specs`]).
    Level(LevelTarget),
    /// A game's switch, set in that game's [`Settings`].
    Switch {
        variant: &'static str,
    },
    /// One of the search's tunable numbers (a build with the `spsa` feature).
    #[cfg(feature = "spsa")]
    Spsa(usize),
}

/// One row of the option table.
#[derive(Clone, Debug)]
struct Spec {
    line: OptionLine,
    /// Other names the option answers to (the chess protocols' names).
    aliases: &'static [&'static str],
    target: Target,
}

fn spin(name: &'static str, default: u64, min: u64, max: u64, target: Target) -> Spec {
    let line = OptionLine { name, chess_name: name, kind: OptionKind::Spin { min, max }, default: default.to_string() };
    Spec { line, aliases: &[], target }
}

impl Spec {
    /// The option under another name in the chess protocols.
    fn in_chess(mut self, chess_name: &'static str) -> Spec {
        self.line.chess_name = chess_name;
        self
    }
}

/// Every option, in the order the handshake lists them.
fn table() -> Vec<Spec> {
    let mut t = vec![
        Spec {
            line: OptionLine {
                name: "USI_Variant",
                chess_name: "UCI_Variant",
                kind: OptionKind::Combo(games::names()),
                default: DEFAULT_VARIANT.to_string(),
            },
            aliases: &[],
            target: Target::Variant,
        },
        spin("USI_Hash", DEFAULT_HASH_MIB as u64, 1, MAX_HASH_MIB as u64, Target::Hash).in_chess("Hash"),
        Spec {
            line: OptionLine {
                name: "USI_Ponder",
                chess_name: "Ponder",
                kind: OptionKind::Check,
                default: "false".into(),
            },
            aliases: &[],
            target: Target::Ponder,
        },
        Spec {
            line: OptionLine {
                name: "USI_OwnBook",
                chess_name: "OwnBook",
                kind: OptionKind::Check,
                default: "true".into(),
            },
            aliases: &[],
            target: Target::OwnBook,
        },
        spin("MultiPV", 1, 1, MAX_MULTIPV as u64, Target::MultiPv),
        spin("Threads", 1, 1, MAX_THREADS as u64, Target::Threads),
        spin("MinimumThinkingTime", time::DEFAULT_MINIMUM_MS, 0, MAX_TIME_OPTION_MS, Target::MinimumThinking),
        Spec {
            aliases: &["NetworkDelay"],
            ..spin("MoveOverhead", time::DEFAULT_OVERHEAD_MS, 0, MAX_TIME_OPTION_MS, Target::MoveOverhead)
        },
        spin("ByoyomiOverhead", time::DEFAULT_BYOYOMI_OVERHEAD_MS, 0, MAX_TIME_OPTION_MS, Target::ByoyomiOverhead),
        spin("BookSeed", 0, 0, u32::MAX as u64, Target::BookSeed),
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
    use crate::search::tunable::{SearchParams, TUNABLE};
    TUNABLE.iter().enumerate().map(|(i, t)| {
        let default = SearchParams::DEFAULT.get(i) as u64;
        spin(t.name, default, t.min as u64, t.max as u64, Target::Spsa(i))
    })
}

/// Every game's switches of this scope, in registry order.
fn switch_specs(scope: Scope) -> impl Iterator<Item = Spec> {
    games::switches().filter(move |(_, s)| s.scope == scope).map(|(variant, s)| {
        let kind = match s.kind {
            SwitchKind::Check => OptionKind::Check,
            SwitchKind::Spin { min, max } => OptionKind::Spin { min, max },
            SwitchKind::Combo(values) => OptionKind::Combo(values.to_vec()),
            SwitchKind::Text | SwitchKind::File => OptionKind::Text,
        };
        let line = OptionLine { name: s.name, chess_name: s.name, kind, default: s.default.to_string() };
        Spec { line, aliases: &[], target: Target::Switch { variant } }
    })
}

/// Every option as the handshake lists it.
pub fn lines() -> Vec<OptionLine> {
    table().into_iter().map(|s| s.line).collect()
}

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: &'static str,
    pub hash_mib: usize,
    /// Play book moves where a game has them (`USI_OwnBook`).
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
    settings: Vec<Box<dyn Settings>>,
    /// `SkillLevel`, `USI_LimitStrength`, `USI_Elo`.
    pub level: LevelOptions,
}

impl Default for Options {
    /// The table's defaults.
    fn default() -> Self {
        let mut o = Options {
            variant: DEFAULT_VARIANT,
            hash_mib: DEFAULT_HASH_MIB,
            own_book: true,
            book_seed: 0,
            multipv: 1,
            threads: 1,
            minimum_thinking_ms: time::DEFAULT_MINIMUM_MS,
            move_overhead_ms: time::DEFAULT_OVERHEAD_MS,
            byoyomi_overhead_ms: time::DEFAULT_BYOYOMI_OVERHEAD_MS,
            settings: games::descriptors().iter().map(|d| (d.settings)()).collect(),
            level: LevelOptions::default(),
        };
        for spec in table() {
            if !matches!(spec.target, Target::Switch { .. }) {
                o.apply(&spec, &spec.line.default).expect("every default is a valid value");
            }
        }
        o
    }
}

fn bad(name: &str, value: &str, why: impl Into<String>) -> OptionError {
    OptionError::BadValue { name: name.to_string(), value: value.to_string(), why: why.into() }
}

/// `value` checked against the option's kind: a number in range, a boolean, one of the
/// choices (matched without regard to case, answered as declared), or any text.
fn checked(name: &str, kind: &OptionKind, value: &str) -> Result<String, OptionError> {
    match kind {
        OptionKind::Spin { min, max } => match value.parse::<u64>() {
            Ok(v) if (min..=max).contains(&&v) => Ok(v.to_string()),
            _ => Err(bad(name, value, format!("expected a whole number from {min} to {max}"))),
        },
        OptionKind::Check => match value.to_ascii_lowercase().as_str() {
            b @ ("true" | "false") => Ok(b.to_string()),
            _ => Err(bad(name, value, "expected true or false")),
        },
        OptionKind::Combo(choices) => match choices.iter().find(|c| c.eq_ignore_ascii_case(value)) {
            Some(c) => Ok(c.to_string()),
            None => Err(bad(name, value, format!("expected one of {}", choices.join(", ")))),
        },
        OptionKind::Text => Ok(value.to_string()),
    }
}

impl Options {
    /// The switch values of the game named `variant`.
    pub fn settings(&self, variant: &str) -> Option<&dyn Settings> {
        self.settings.iter().find(|s| s.variant() == variant).map(|s| &**s)
    }

    /// Applies `setoption`. Names are matched without regard to case, aliases too
    /// (`UCI_Variant` is `USI_Variant`, `Hash` is `USI_Hash`).
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        let table = table();
        let names = |s: &&Spec| is(s.line.name) || is(s.line.chess_name) || s.aliases.iter().any(|a| is(a));
        let Some(spec) = table.iter().find(names) else {
            return Err(OptionError::Unknown(name.to_string()));
        };
        // Errors name the option as it was written, except a game switch's (its own name).
        let shown = if matches!(spec.target, Target::Switch { .. }) { spec.line.name } else { name };
        let value = value.ok_or_else(|| OptionError::MissingValue { name: name.to_string() })?;
        // A game's switch is checked by its game (which may say more than the list).
        if !matches!(spec.target, Target::Switch { .. }) {
            checked(shown, &spec.line.kind, value)?;
        }
        self.apply(spec, value).map_err(|why| bad(shown, value, why))
    }

    /// Sets the value of one row; `value` has been checked against its kind.
    fn apply(&mut self, spec: &Spec, value: &str) -> Result<Change, String> {
        let number = || value.parse::<u64>().map_err(|e| e.to_string());
        Ok(match spec.target {
            Target::Variant => {
                self.variant =
                    games::names().into_iter().find(|n| n.eq_ignore_ascii_case(value)).ok_or("no variant")?;
                Change::Variant
            }
            Target::Hash => {
                self.hash_mib = number()? as usize;
                Change::Hash
            }
            Target::Ponder => Change::Other,
            Target::OwnBook => {
                self.own_book = value.eq_ignore_ascii_case("true");
                Change::Other
            }
            Target::BookSeed => {
                self.book_seed = number()?;
                Change::Other
            }
            Target::MultiPv => {
                self.multipv = number()? as usize;
                Change::Other
            }
            Target::Threads => {
                self.threads = number()? as usize;
                Change::Other
            }
            Target::MinimumThinking => {
                self.minimum_thinking_ms = number()?;
                Change::Other
            }
            Target::MoveOverhead => {
                self.move_overhead_ms = number()?;
                Change::Other
            }
            Target::ByoyomiOverhead => {
                self.byoyomi_overhead_ms = number()?;
                Change::Other
            }
            Target::Level(which) => {
                self.level.set(which, value);
                Change::Other
            }
            Target::Switch { variant } => {
                let settings = (self.settings.iter_mut()).find(|s| s.variant() == variant).ok_or("no variant")?;
                let scope = settings.set(spec.line.name, value).map_err(|e| e.why)?;
                Change::Switch { variant, scope, name: spec.line.name, value: value.to_string() }
            }
            #[cfg(feature = "spsa")]
            Target::Spsa(i) => {
                crate::search::tunable::override_value(i, number()? as i32);
                Change::Other
            }
        })
    }
}

/// The playing level's options: `SkillLevel` (0 to [`skill::MAX_LEVEL`], the top being
/// full strength), and `USI_LimitStrength` with `USI_Elo`, which when set choose the level
/// by its calibrated Elo instead (`crate::engine::levels`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelOptions {
    pub skill_level: u32,
    pub limit_strength: bool,
    pub elo: u32,
}

impl Default for LevelOptions {
    fn default() -> Self {
        LevelOptions { skill_level: skill::MAX_LEVEL, limit_strength: false, elo: DEFAULT_ELO }
    }
}

/// Which of the level's options a row sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LevelTarget {
    SkillLevel,
    LimitStrength,
    Elo,
}

/// `USI_Elo`'s range and default (the Elo of the levels is each game's calibrated table;
/// a value outside it plays the nearest end).
pub const MIN_ELO: u32 = 100;
pub const MAX_ELO: u32 = 4000;
const DEFAULT_ELO: u32 = 1500;

/// The level's rows, in their own block: USI names first, the chess protocols' names as
/// Stockfish and Fairy-Stockfish spell them (`Skill Level`, `UCI_LimitStrength`,
/// `UCI_Elo`), and Fairy-Stockfish's USI spelling `Skill_Level` as an alias.
fn level_specs() -> Vec<Spec> {
    let check = |name, chess_name, target| Spec {
        line: OptionLine { name, chess_name, kind: OptionKind::Check, default: "false".into() },
        aliases: &[],
        target: Target::Level(target),
    };
    let max = skill::MAX_LEVEL as u64;
    vec![
        Spec {
            aliases: &["Skill_Level"],
            ..spin("SkillLevel", max, 0, max, Target::Level(LevelTarget::SkillLevel)).in_chess("Skill Level")
        },
        check("USI_LimitStrength", "UCI_LimitStrength", LevelTarget::LimitStrength),
        spin("USI_Elo", DEFAULT_ELO as u64, MIN_ELO as u64, MAX_ELO as u64, Target::Level(LevelTarget::Elo))
            .in_chess("UCI_Elo"),
    ]
}

/// The level's options as the handshake lists them (CECP offers only these).
pub fn level_lines() -> Vec<OptionLine> {
    level_specs().into_iter().map(|s| s.line).collect()
}

impl LevelOptions {
    /// Sets one of them; `value` has been checked against its kind.
    fn set(&mut self, which: LevelTarget, value: &str) {
        let number = || value.parse::<u32>().unwrap_or_default();
        match which {
            LevelTarget::SkillLevel => self.skill_level = number(),
            LevelTarget::LimitStrength => self.limit_strength = value.eq_ignore_ascii_case("true"),
            LevelTarget::Elo => self.elo = number(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_in_the_table_is_a_value_its_option_takes() {
        for spec in table() {
            let mut o = Options::default();
            assert!(o.set(spec.line.name, Some(&spec.line.default)).is_ok(), "{}", spec.line.name);
        }
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
