//! The switches: the direction table (`NumberShogiPieceMoves`) and promotion
//! (`NumberShogiPromotion`), the rules; the engine's camp arrangement
//! (`NumberShogiArrangement`) and solved table (`NumberShogiSolution`); and the values
//! they set as a game holds them ([`Rules`]), a file's table included.

use super::rules::{format_table, parse_arrangement, parse_table, Arrangement, Carried, TableId, DEFAULT_TABLE};
use super::solution::{self, Shared};
use crate::game::{Scope, Switch, SwitchKind};

/// The switch values as a game holds them (`Game::Rules`). A table read from a file is
/// held here, by reference count, and dropped when no game's values hold it; positions
/// carry the plain part, [`Rules::carried`].
#[derive(Clone, Debug, Eq)]
pub struct Rules {
    /// Direction mask of each face value (index 1..6; bit order of `board::DIR_NAMES`).
    pub moves: [u8; 7],
    /// Whether pieces may promote to "8".
    pub promotion: bool,
    /// The engine's placement: a fixed arrangement, or `None` for the optimal mix.
    pub arrangement: Option<Arrangement>,
    /// The solved table the engine uses.
    pub table: Table,
}

impl PartialEq for Rules {
    /// The same game: the same rules switches, as [`Carried`] compares them.
    fn eq(&self, other: &Rules) -> bool {
        self.carried() == other.carried()
    }
}

impl Default for Rules {
    fn default() -> Self {
        let Carried { moves, promotion, arrangement, .. } = Carried::default();
        Rules { moves, promotion, arrangement, table: Table::Builtin }
    }
}

impl Rules {
    /// The direction table in the switch's text form.
    pub fn table(&self) -> String {
        format_table(&self.moves)
    }

    /// What a position carries of these values.
    pub fn carried(&self) -> Carried {
        Carried { moves: self.moves, promotion: self.promotion, arrangement: self.arrangement, table: self.table.id() }
    }
}

/// The table the engine uses (`NumberShogiSolution`): the shipped one, none, or a file's,
/// shared with every game that read the same contents.
#[derive(Clone, Debug, Default)]
pub enum Table {
    #[default]
    Builtin,
    Off,
    File(Shared),
}

impl PartialEq for Table {
    /// The same table (a file's: the same contents, read while a game held them).
    fn eq(&self, other: &Table) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Table {}

impl Table {
    /// The switch's value: `builtin`, `none` or a path. A file is read and checked here,
    /// once; one that cannot be is refused whole.
    pub fn parse(value: &str) -> Result<Table, String> {
        Ok(match value.trim() {
            v if v.eq_ignore_ascii_case("builtin") => Table::Builtin,
            v if v.eq_ignore_ascii_case("none") => Table::Off,
            path => Table::File(solution::load(std::path::Path::new(path))?),
        })
    }

    /// The table's number, as positions carry it.
    pub fn id(&self) -> TableId {
        match self {
            Table::Builtin => TableId::Builtin,
            Table::Off => TableId::Off,
            Table::File(shared) => TableId::File(shared.id()),
        }
    }
}

pub(super) const OPT_MOVES: &str = "NumberShogiPieceMoves";
pub(super) const OPT_PROMOTION: &str = "NumberShogiPromotion";

/// Number Shogi's switches.
pub(super) static SWITCHES: [Switch<Rules>; 4] = [
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
