//! The rules switches: the direction table (`NumberShogiPieceMoves`) and promotion
//! (`NumberShogiPromotion`).

use super::board::DIR_NAMES;
use crate::game::{RuleError, RuleKind, RuleOption};

pub const OPT_MOVES: &str = "NumberShogiPieceMoves";
pub const OPT_PROMOTION: &str = "NumberShogiPromotion";
/// The decided table of rules.md §3.
pub const DEFAULT_TABLE: &str = "1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S";

pub static OPTIONS: [RuleOption; 2] = [
    RuleOption { name: OPT_MOVES, kind: RuleKind::Text, default: DEFAULT_TABLE },
    RuleOption { name: OPT_PROMOTION, kind: RuleKind::Combo(&["on", "off"]), default: "on" },
];

/// The switch values, kept compactly so every position can carry a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Direction mask of each face value (index 1..6; bit order of [`DIR_NAMES`]).
    pub moves: [u8; 7],
    /// Whether pieces may promote to "8".
    pub promotion: bool,
}

impl Default for Rules {
    fn default() -> Self {
        // The default table is a constant known to parse.
        let moves = parse_table(DEFAULT_TABLE).unwrap_or([0, 0x01, 0x82, 0x83, 0xAA, 0xAB, 0xD7]);
        Rules { moves, promotion: true }
    }
}

impl Rules {
    /// The direction table in the switch's text form.
    pub fn table(&self) -> String {
        format_table(&self.moves)
    }
}

/// Parses a direction name (`N`, `NE`, ... any case) into its bit.
fn parse_dir(s: &str) -> Option<u8> {
    DIR_NAMES.iter().position(|d| d.eq_ignore_ascii_case(s)).map(|i| 1u8 << i)
}

/// Parses a full direction table `1:N 2:NW,NE ... 6:...`. Every value 1..6 appears once
/// and, as on the printed pieces, has exactly as many directions as its face value.
pub fn parse_table(text: &str) -> Result<[u8; 7], String> {
    let mut moves = [0u8; 7];
    let mut seen = [false; 7];
    for entry in text.split_whitespace() {
        let (v, dirs) =
            entry.split_once(':').ok_or_else(|| format!("entry '{entry}' is not VALUE:DIRS (e.g. 3:N,NW,NE)"))?;
        let value: u8 = match v.trim() {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            "4" => 4,
            "5" => 5,
            "6" => 6,
            _ => return Err(format!("entry '{entry}': the value must be 1..6")),
        };
        if seen[value as usize] {
            return Err(format!("value {value} is given twice"));
        }
        seen[value as usize] = true;
        let mut mask = 0u8;
        for d in dirs.split(',') {
            let bit = parse_dir(d.trim())
                .ok_or_else(|| format!("entry '{entry}': unknown direction '{d}' (use N NE E SE S SW W NW)"))?;
            if mask & bit != 0 {
                return Err(format!("entry '{entry}': direction {d} is given twice"));
            }
            mask |= bit;
        }
        if mask.count_ones() != value as u32 {
            return Err(format!(
                "entry '{entry}': piece {value} must have exactly {value} direction(s), has {}",
                mask.count_ones()
            ));
        }
        moves[value as usize] = mask;
    }
    if let Some(v) = (1..=6).find(|&v| !seen[v]) {
        return Err(format!("value {v} is missing (the table needs all of 1..6)"));
    }
    Ok(moves)
}

/// Writes a table back in the switch's text form.
pub fn format_table(moves: &[u8; 7]) -> String {
    let mut parts = Vec::new();
    for (v, &m) in moves.iter().enumerate().skip(1) {
        // The documented order: N NW NE W E SW SE S (bit indices of DIR_NAMES).
        let order = [0usize, 7, 1, 6, 2, 5, 3, 4];
        let dirs: Vec<&str> = order.iter().filter(|&&i| m & (1 << i) != 0).map(|&i| DIR_NAMES[i]).collect();
        parts.push(format!("{v}:{}", dirs.join(",")));
    }
    parts.join(" ")
}

pub fn set_rule(rules: &mut Rules, name: &str, value: &str) -> Result<(), RuleError> {
    let err = |why: String| RuleError { name: name.to_string(), why };
    if name.eq_ignore_ascii_case(OPT_MOVES) {
        let moves = parse_table(value).map_err(err)?;
        rules.moves = moves;
        Ok(())
    } else if name.eq_ignore_ascii_case(OPT_PROMOTION) {
        rules.promotion = RuleError::choose(name, value, &[("on", true), ("off", false)])?;
        Ok(())
    } else {
        Err(RuleError::unknown(name, value))
    }
}
