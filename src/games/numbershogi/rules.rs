//! What a position carries of the switch values ([`Carried`]): the direction table and
//! promotion, the rules; the engine's camp arrangement and which solved table it uses;
//! and the readers of a direction table and an arrangement. The values as a game holds
//! them, the solved table itself included, and the switches: `super::switches`.

use super::board::DIR_NAMES;

/// The decided table of rules.md §3.
pub(super) const DEFAULT_TABLE: &str = "1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S";

/// The switch values as a position carries them: plain values, so that the search's
/// copy-make stays a plain copy (no reference count). The solved table is named by its
/// [`TableId`]; the table itself is held by the game's `super::Rules`.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Carried {
    /// Direction mask of each face value (index 1..6; bit order of [`DIR_NAMES`]).
    pub moves: [u8; 7],
    /// Whether pieces may promote to "8".
    pub promotion: bool,
    /// The engine's placement: a fixed arrangement, or `None` for the optimal mix.
    pub arrangement: Option<Arrangement>,
    /// The solved table the engine uses.
    pub table: TableId,
}

impl PartialEq for Carried {
    /// The same game: the same rules switches (the engine's switches make no other game,
    /// so a solved table or a solver's work stays valid across them).
    fn eq(&self, other: &Carried) -> bool {
        self.moves == other.moves && self.promotion == other.promotion
    }
}

impl Default for Carried {
    fn default() -> Self {
        // The default table is a constant known to parse.
        let moves = parse_table(DEFAULT_TABLE).unwrap_or([0, 0x01, 0x82, 0x83, 0xAA, 0xAB, 0xD7]);
        Carried { moves, promotion: true, arrangement: None, table: TableId::Builtin }
    }
}

/// Parses a direction name (`N`, `NE`, ... any case) into its bit.
fn parse_dir(s: &str) -> Option<u8> {
    DIR_NAMES.iter().position(|d| d.eq_ignore_ascii_case(s)).map(|i| 1u8 << i)
}

/// Parses a full direction table `1:N 2:NW,NE ... 6:...`. Every value 1..6 appears once
/// and, as on the printed pieces, has exactly as many directions as its face value.
pub(super) fn parse_table(text: &str) -> Result<[u8; 7], String> {
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
pub(super) fn format_table(moves: &[u8; 7]) -> String {
    let mut parts = Vec::new();
    for (v, &m) in moves.iter().enumerate().skip(1) {
        // The documented order: N NW NE W E SW SE S (bit indices of DIR_NAMES).
        let order = [0usize, 7, 1, 6, 2, 5, 3, 4];
        let dirs: Vec<&str> = order.iter().filter(|&&i| m & (1 << i) != 0).map(|&i| DIR_NAMES[i]).collect();
        parts.push(format!("{v}:{}", dirs.join(",")));
    }
    parts.join(" ")
}

/// Six values, the owner's camp as the owner sees it (front rank left to right, then the
/// back rank).
pub type Arrangement = [u8; 6];

/// Reads `653241`.
pub fn parse_arrangement(s: &str) -> Result<Arrangement, String> {
    let digits: Vec<u8> = s.bytes().map(|b| b.wrapping_sub(b'0')).collect();
    let mut seen = [false; 7];
    if digits.len() != 6
        || digits.iter().any(|&d| !(1..=6).contains(&d) || std::mem::replace(&mut seen[d as usize], true))
    {
        return Err(format!("'{s}' is not an arrangement: six digits, each of 1..6 once (e.g. 653241)"));
    }
    let mut a = [0; 6];
    a.copy_from_slice(&digits);
    Ok(a)
}

pub fn format_arrangement(a: &Arrangement) -> String {
    a.iter().map(|d| char::from(b'0' + d)).collect()
}

/// Which table the engine uses (`NumberShogiSolution`), as a position carries it: the
/// shipped one, none, or a file's, by the number `super::solution`'s cache gave it (never
/// given to another table). A file's table is found there while a game holds it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableId {
    #[default]
    Builtin,
    Off,
    File(u64),
}
