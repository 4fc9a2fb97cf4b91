//! The playing levels each game offers, with their calibrated Elo: the table
//! `levels.txt` beside this file, read at build time and derived from the matches in
//! docs/STRENGTH.md ("Levels"). `koma serve` offers these by name and Elo; `USI_Elo`
//! plays the strongest level whose Elo is at most the one asked for.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::search::skill::MAX_LEVEL;

/// One row of a game's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Level {
    /// The `SkillLevel` value (0 to [`MAX_LEVEL`], the top being full strength).
    pub(crate) level: u32,
    /// What the page calls it.
    pub(crate) name: &'static str,
    /// Measured Elo on the game's scale (docs/STRENGTH.md says what anchors it).
    pub(crate) elo: u32,
}

const TABLE: &str = include_str!("levels.txt");

/// The rows of `text` by game, weakest first, or the first line that is not a row.
fn parse(text: &'static str) -> Result<BTreeMap<&'static str, Vec<Level>>, String> {
    let mut games: BTreeMap<&str, Vec<Level>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("levels.txt line {}: expected 'variant level elo name', got '{line}'", i + 1);
        let mut words = line.splitn(4, char::is_whitespace);
        let (Some(variant), Some(level), Some(elo), Some(name)) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(bad());
        };
        let (level, elo) = (level.parse::<u32>().map_err(|_| bad())?, elo.parse::<u32>().map_err(|_| bad())?);
        if level > MAX_LEVEL {
            return Err(bad());
        }
        games.entry(variant).or_default().push(Level { level, name: name.trim(), elo });
    }
    for rows in games.values_mut() {
        rows.sort_by_key(|r| r.level);
    }
    Ok(games)
}

fn table() -> &'static BTreeMap<&'static str, Vec<Level>> {
    static T: OnceLock<BTreeMap<&'static str, Vec<Level>>> = OnceLock::new();
    // The file is part of the build and a test reads it: a bad row is a bug of the build.
    T.get_or_init(|| parse(TABLE).expect("src/engine/levels.txt"))
}

/// The levels of `variant`, weakest first (empty for a name that is no game).
pub(crate) fn levels(variant: &str) -> &'static [Level] {
    table().get(variant).map_or(&[], Vec::as_slice)
}

/// The level `USI_Elo` plays in `variant`: the strongest whose Elo is at most `elo`,
/// else the weakest; full strength for a game without a table.
pub(crate) fn level_for_elo(variant: &str, elo: u32) -> u32 {
    let rows = levels(variant);
    rows.iter().rev().find(|r| r.elo <= elo).or(rows.first()).map_or(MAX_LEVEL, |r| r.level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    #[test]
    fn every_game_has_levels_from_weakest_to_full_strength_in_elo_order() {
        for variant in games::names() {
            let rows = levels(variant);
            assert!(rows.len() >= 3, "{variant}");
            assert_eq!(rows.last().map(|r| r.level), Some(MAX_LEVEL), "{variant}");
            assert!(rows.windows(2).all(|w| w[0].level < w[1].level && w[0].elo <= w[1].elo), "{variant}: {rows:?}");
        }
        assert_eq!(table().len(), games::names().len(), "a row for a game koma does not play");
    }

    #[test]
    fn elo_picks_the_strongest_level_at_or_below_it() {
        let rows = levels("kokesu");
        assert_eq!(level_for_elo("kokesu", 0), rows[0].level);
        assert_eq!(level_for_elo("kokesu", rows[1].elo), rows[1].level);
        assert_eq!(level_for_elo("kokesu", rows[2].elo - 1), rows[1].level);
        assert_eq!(level_for_elo("kokesu", u32::MAX), MAX_LEVEL);
    }

    #[test]
    fn a_bad_row_is_refused_with_its_line() {
        assert!(parse("kokesu 0 700\n").unwrap_err().contains("line 1"));
        assert!(parse("# c\nkokesu 21 700 Too high\n").unwrap_err().contains("line 2"));
    }
}
