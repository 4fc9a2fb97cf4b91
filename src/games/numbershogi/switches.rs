//! The switches: the direction table (`NumberShogiPieceMoves`) and promotion
//! (`NumberShogiPromotion`), the rules; the engine's camp arrangement
//! (`NumberShogiArrangement`) and solved table (`NumberShogiSolution`).

use super::rules::{parse_arrangement, parse_table, Rules, Table, DEFAULT_TABLE};
use crate::game::{Scope, Switch, SwitchKind};

pub const OPT_MOVES: &str = "NumberShogiPieceMoves";
pub const OPT_PROMOTION: &str = "NumberShogiPromotion";

/// Number Shogi's switches.
pub static SWITCHES: [Switch<Rules>; 4] = [
    Switch::new(OPT_MOVES, SwitchKind::Text, DEFAULT_TABLE, Scope::Rules, |r, v| {
        r.moves = parse_table(v)?;
        Ok(())
    }),
    Switch::new(OPT_PROMOTION, SwitchKind::Combo(&["on", "off"]), "on", Scope::Rules, |r, v| {
        r.promotion = v == "on";
        Ok(())
    }),
    // The engine's own placement: a fixed arrangement, or `mix` (the solved game's
    // optimal mix).
    Switch::new("NumberShogiArrangement", SwitchKind::Text, "mix", Scope::Engine, |r, v| {
        let v = v.trim();
        r.arrangement = if v.eq_ignore_ascii_case("mix") {
            None
        } else {
            Some(parse_arrangement(v).map_err(|e| format!("{e}, or mix"))?)
        };
        Ok(())
    }),
    // The solved table the engine uses: `builtin`, `none` or a file.
    Switch::new("NumberShogiSolution", SwitchKind::File, "builtin", Scope::Engine, |r, v| {
        r.table = Table::parse(v)?;
        Ok(())
    }),
];
