//! The engine's options: the USI ones, koma's own, and every game's rules switches.

use std::collections::BTreeMap;

use thiserror::Error;

use crate::game::RuleKind;
use crate::games;
use crate::search::time;

pub const DEFAULT_VARIANT: &str = "shogi66";
const MAX_HASH_MIB: usize = 4096;
const MAX_MULTIPV: usize = 64;
pub const MAX_THREADS: usize = 256;

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

/// What a successful `setoption` changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    Variant,
    Hash,
    /// A rules switch of the named variant.
    Rule {
        variant: &'static str,
        name: &'static str,
        value: String,
    },
    Other,
}

/// Current option values.
#[derive(Clone, Debug)]
pub struct Options {
    pub variant: &'static str,
    pub hash_mib: usize,
    pub ponder: bool,
    pub multipv: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    pub minimum_thinking_ms: u64,
    pub move_overhead_ms: u64,
    pub byoyomi_overhead_ms: u64,
    /// Rules switches that were set, by name, for every variant.
    pub rules: BTreeMap<&'static str, String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: DEFAULT_VARIANT,
            hash_mib: 16,
            ponder: false,
            multipv: 1,
            threads: 1,
            minimum_thinking_ms: time::DEFAULT_MINIMUM_MS,
            move_overhead_ms: time::DEFAULT_OVERHEAD_MS,
            byoyomi_overhead_ms: time::DEFAULT_BYOYOMI_OVERHEAD_MS,
            rules: BTreeMap::new(),
        }
    }
}

fn bad(name: &str, value: &str, why: impl Into<String>) -> OptionError {
    OptionError::BadValue { name: name.to_string(), value: value.to_string(), why: why.into() }
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, OptionError> {
    match value.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(bad(name, value, format!("expected a whole number from {min} to {max}"))),
    }
}

impl Options {
    /// The `option` lines of the `usi` reply (bodies after `option `).
    pub fn usi_lines(&self) -> Vec<String> {
        let vars: String = games::names().iter().map(|v| format!(" var {v}")).collect();
        let mut lines = vec![
            format!("name USI_Variant type combo default {DEFAULT_VARIANT}{vars}"),
            format!("name USI_Hash type spin default 16 min 1 max {MAX_HASH_MIB}"),
            "name USI_Ponder type check default false".to_string(),
            format!("name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            format!("name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("name MinimumThinkingTime type spin default {} min 0 max 10000", time::DEFAULT_MINIMUM_MS),
            format!("name MoveOverhead type spin default {} min 0 max 10000", time::DEFAULT_OVERHEAD_MS),
            format!("name ByoyomiOverhead type spin default {} min 0 max 10000", time::DEFAULT_BYOYOMI_OVERHEAD_MS),
        ];
        for (_, opt) in games::rule_options() {
            lines.push(match opt.kind {
                RuleKind::Combo(vals) => {
                    let vars: String = vals.iter().map(|v| format!(" var {v}")).collect();
                    format!("name {} type combo default {}{vars}", opt.name, opt.default)
                }
                RuleKind::Text => format!("name {} type string default {}", opt.name, opt.default),
            });
        }
        lines
    }

    /// Applies `setoption`. Names are matched without regard to case; `UCI_Variant` is
    /// `USI_Variant`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Change, OptionError> {
        let need = |v: Option<&str>| v.map(str::to_string).ok_or(OptionError::MissingValue { name: name.to_string() });
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        if is("USI_Variant") || is("UCI_Variant") {
            let v = need(value)?;
            let found = games::names().into_iter().find(|n| n.eq_ignore_ascii_case(&v));
            self.variant =
                found.ok_or_else(|| bad(name, &v, format!("expected one of {}", games::names().join(", "))))?;
            return Ok(Change::Variant);
        }
        if is("USI_Hash") || is("Hash") {
            self.hash_mib = spin(name, &need(value)?, 1, MAX_HASH_MIB as u64)? as usize;
            return Ok(Change::Hash);
        }
        if is("USI_Ponder") || is("Ponder") {
            let v = need(value)?;
            self.ponder = match v.to_ascii_lowercase().as_str() {
                "true" => true,
                "false" => false,
                _ => return Err(bad(name, &v, "expected true or false")),
            };
            return Ok(Change::Other);
        }
        if is("MultiPV") {
            self.multipv = spin(name, &need(value)?, 1, MAX_MULTIPV as u64)? as usize;
            return Ok(Change::Other);
        }
        if is("Threads") {
            self.threads = spin(name, &need(value)?, 1, MAX_THREADS as u64)? as usize;
            return Ok(Change::Other);
        }
        if is("MinimumThinkingTime") {
            self.minimum_thinking_ms = spin(name, &need(value)?, 0, 10_000)?;
            return Ok(Change::Other);
        }
        if is("MoveOverhead") || is("NetworkDelay") {
            self.move_overhead_ms = spin(name, &need(value)?, 0, 10_000)?;
            return Ok(Change::Other);
        }
        if is("ByoyomiOverhead") {
            self.byoyomi_overhead_ms = spin(name, &need(value)?, 0, 10_000)?;
            return Ok(Change::Other);
        }
        if let Some((variant, opt)) = games::rule_options().into_iter().find(|(_, o)| o.name.eq_ignore_ascii_case(name))
        {
            let v = need(value)?;
            games::check_rule(variant, opt.name, &v).map_err(|e| bad(opt.name, &v, e.why))?;
            self.rules.insert(opt.name, v.clone());
            return Ok(Change::Rule { variant, name: opt.name, value: v });
        }
        Err(OptionError::Unknown(name.to_string()))
    }
}
