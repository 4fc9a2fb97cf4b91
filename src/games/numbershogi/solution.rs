//! Number Shogi solved (issue 33, protocol/numbershogi-solved.md): the shipped table
//! `solution.txt`, read and checked once, then used by the engine for its placement (the
//! optimal mix) and for the first move after a setup (the proven value and move).
//!
//! # The file (format 1)
//!
//! Text, one record a line, made by `tools/numbershogi_equilibrium.py`:
//!
//! ```text
//! koma-numbershogi-solution 1
//! pieces 1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S
//! promotion on
//! value loss
//! mix sente 653241:1/2 356142:1/2
//! mix gote 653241:1/4 ...
//! 123456 653241 L12 1d1c
//! ...
//! end 1234 9f0c2b6a81d3e475
//! ```
//!
//! - `pieces` and `promotion`: the rules the table holds for (rules.md §3's switches);
//!   under any other rules the table is not used.
//! - `value`: the hidden-setup game's value for sente (`win`, `loss` or `draw`).
//! - `mix sente|gote`: an optimal mixed strategy, arrangement:weight with weights as
//!   fractions summing to 1.
//! - An **arrangement** is six digits, the values on the owner's camp as the owner sees
//!   it: front rank left to right, then back rank left to right (sente: 3d 2d 1d 3e 2e 1e;
//!   gote: 1b 2b 3b 1a 2a 3a).
//! - An **entry** line: sente's arrangement, gote's, the value for sente (the side to move
//!   after the setup) as `W`/`L`/`D` with the plies to the end under best play (the
//!   fastest win, the slowest loss; `D0`), and a move that keeps that value. Only one of
//!   each left-right mirror pair is written (the smaller pair of strings); the reader adds
//!   the mirror image, which every piece's moves respect.
//! - `end`: the number of entry lines and the FNV-1a 64-bit hash (hex) of every byte
//!   before the `end` line. A file that is truncated, edited or of another format is
//!   refused whole.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use super::board::{face, is_promoted, owner, CAMP, EMPTY, SQUARES};
use super::movegen::Move;
pub use super::rules::{format_arrangement, parse_arrangement, Arrangement};
use super::rules::{parse_table, Carried, TableId};
use super::NumberShogi;
use crate::game::{Color, Game, Known, Outcome};

/// The first line of a file of this format.
pub const HEADER: &str = "koma-numbershogi-solution 1";
/// The shipped table.
pub const BUILTIN: &str = include_str!("solution.txt");

/// The square of camp slot `i` for `color`: sente's slots are 3d 2d 1d 3e 2e 1e, gote's
/// the same turned half round.
pub fn slot_square(color: Color, i: usize) -> usize {
    let sq = 9 + i;
    if color == Color::Gote {
        SQUARES - 1 - sq
    } else {
        sq
    }
}

/// The left-right mirror image.
pub fn mirror(a: &Arrangement) -> Arrangement {
    [a[2], a[1], a[0], a[5], a[4], a[3]]
}

fn mirror_square(sq: usize) -> usize {
    sq - sq % 3 + (2 - sq % 3)
}

fn mirror_move(m: Move) -> Move {
    match m.from() {
        Some(f) => Move::board(mirror_square(f), mirror_square(m.to()), m.promotes()),
        None => Move::drop(m.drop_value(), mirror_square(m.to())),
    }
}

/// Both arrangements of a position that is exactly a finished setup (both camps full,
/// nothing promoted, rank c empty, hands empty, sente to move), else `None`.
pub fn setup_of(pos: &NumberShogi) -> Option<(Arrangement, Arrangement)> {
    if pos.placing || pos.winner.is_some() || pos.side != Color::Sente {
        return None;
    }
    if pos.hand.iter().flatten().any(|&n| n != 0) {
        return None;
    }
    let mut arr = [[0u8; 6]; 2];
    for color in [Color::Sente, Color::Gote] {
        for (i, slot) in arr[color.index()].iter_mut().enumerate() {
            let cell = pos.board[slot_square(color, i)];
            if cell == EMPTY || owner(cell) != color || is_promoted(cell) {
                return None;
            }
            *slot = face(cell);
        }
    }
    let on_camps = (pos.occ[0] | pos.occ[1]) == CAMP[0] | CAMP[1];
    on_camps.then_some((arr[0], arr[1]))
}

/// One entry: the value for sente after the setup, and the move that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub outcome: Outcome,
    pub plies: u32,
    pub best: Move,
}

/// A checked table.
#[derive(Debug)]
pub struct SolutionTable {
    /// The rules it holds for (only the rules switches count: `Carried`'s `==`).
    pub rules: Carried,
    /// The hidden-setup game's value for sente.
    pub value: Outcome,
    /// Optimal mixed strategies, sente's and gote's: arrangement and weight.
    pub mix: [Vec<(Arrangement, f64)>; 2],
    entries: HashMap<(Arrangement, Arrangement), Entry>,
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

fn outcome_of(word: &str) -> Result<Outcome, String> {
    match word {
        "win" => Ok(Outcome::Win),
        "loss" => Ok(Outcome::Loss),
        "draw" => Ok(Outcome::Draw),
        _ => Err(format!("value '{word}' is not win, loss or draw")),
    }
}

fn parse_weight(w: &str) -> Result<f64, String> {
    let bad = || format!("weight '{w}' is not a fraction p/q");
    let (p, q) = w.split_once('/').ok_or_else(bad)?;
    let (p, q): (u64, u64) = (p.parse().map_err(|_| bad())?, q.parse().map_err(|_| bad())?);
    if q == 0 || p > q {
        return Err(bad());
    }
    Ok(p as f64 / q as f64)
}

impl SolutionTable {
    /// Reads and checks a whole file.
    pub fn parse(text: &str) -> Result<SolutionTable, String> {
        let end_at = text.rfind("\nend ").ok_or("no end line: the file is truncated")? + 1;
        let (body, end) = text.split_at(end_at);
        let mut fields = end.split_whitespace();
        let (Some("end"), Some(count), Some(hash), None) = (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(format!("bad end line '{}'", end.trim_end()));
        };
        if format!("{:016x}", fnv1a(body.as_bytes())) != hash {
            return Err("the checksum does not match: the file was changed or damaged".into());
        }
        let lines: Vec<&str> = body.lines().collect();
        let field = |n: usize, key: &str| -> Result<&str, String> {
            let line = lines.get(n).copied().unwrap_or("");
            line.strip_prefix(key)
                .and_then(|r| r.strip_prefix(' '))
                .ok_or_else(|| format!("line {}: expected '{key} ...', found '{line}'", n + 1))
        };
        if lines.first() != Some(&HEADER) {
            return Err(format!("the first line is not '{HEADER}' (another format, or not a solution file)"));
        }
        let moves = parse_table(field(1, "pieces")?).map_err(|e| format!("line 2: {e}"))?;
        let promotion = match field(2, "promotion")? {
            "on" => true,
            "off" => false,
            other => return Err(format!("line 3: promotion '{other}' is not on or off")),
        };
        let rules = Carried { moves, promotion, ..Carried::default() };
        let value = outcome_of(field(3, "value")?).map_err(|e| format!("line 4: {e}"))?;
        let mut mix = [Vec::new(), Vec::new()];
        for (k, side) in ["sente", "gote"].into_iter().enumerate() {
            let n = 4 + k;
            let items = field(n, &format!("mix {side}"))?;
            for item in items.split_whitespace() {
                let at = |e: String| format!("line {}: {e}", n + 1);
                let (a, w) = item.split_once(':').ok_or_else(|| at(format!("'{item}' is not ARRANGEMENT:WEIGHT")))?;
                mix[k].push((parse_arrangement(a).map_err(at)?, parse_weight(w).map_err(at)?));
            }
            let total: f64 = mix[k].iter().map(|x| x.1).sum();
            if (total - 1.0).abs() > 1e-9 {
                return Err(format!("line {}: the weights add up to {total}, not 1", n + 1));
            }
        }
        let mut entries = HashMap::new();
        for (n, line) in lines.iter().enumerate().skip(6) {
            let at = |e: String| format!("line {}: {e}", n + 1);
            let parts: Vec<&str> = line.split_whitespace().collect();
            let [s, g, v, m] = parts[..] else {
                return Err(at(format!("'{line}' is not SENTE GOTE VALUE MOVE")));
            };
            let (s, g) = (parse_arrangement(s).map_err(at)?, parse_arrangement(g).map_err(at)?);
            let outcome = match v.as_bytes().first() {
                Some(b'W') => Outcome::Win,
                Some(b'L') => Outcome::Loss,
                Some(b'D') => Outcome::Draw,
                _ => return Err(at(format!("value '{v}' is not W<plies>, L<plies> or D0"))),
            };
            let plies: u32 = v[1..].parse().map_err(|_| at(format!("value '{v}': bad plies")))?;
            let pos = NumberShogi::parse_sfen(&setup_sfen(&s, &g), &rules).map_err(|e| at(e.to_string()))?;
            let best = pos.parse_move(m).map_err(|e| at(format!("move '{m}': {e}")))?;
            let entry = Entry { outcome, plies, best };
            let mirrored = Entry { best: mirror_move(best), ..entry };
            for (key, e) in [((s, g), entry), ((mirror(&s), mirror(&g)), mirrored)] {
                if entries.insert(key, e).is_some_and(|old| old != e) {
                    return Err(at("this setup is given twice".into()));
                }
            }
        }
        let written = lines.len().saturating_sub(6);
        if count.parse::<usize>().ok() != Some(written) {
            return Err(format!("the end line counts {count} entries, the file has {written}"));
        }
        Ok(SolutionTable { rules, value, mix, entries })
    }

    /// The entry of a finished setup under this table's rules.
    pub fn entry(&self, pos: &NumberShogi) -> Option<Entry> {
        if pos.rules != self.rules {
            // Another rule set (equal settings are the same rules switches).
            return None;
        }
        let (s, g) = setup_of(pos)?;
        self.entries.get(&(s, g)).copied()
    }

    /// Number of setups the table answers (mirror images included).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Every setup the table answers, sorted.
    pub fn setups(&self) -> Vec<(Arrangement, Arrangement)> {
        let mut v: Vec<_> = self.entries.keys().copied().collect();
        v.sort();
        v
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An arrangement for `color` drawn from its optimal mix with the random number `r`,
    /// among those that agree with the pieces `color` has already placed (`placed[i]` is
    /// the value on slot i, 0 if empty). Drawing each next piece so is the same as drawing
    /// the whole arrangement from the mix at once.
    pub fn draw(&self, color: Color, placed: &[u8; 6], r: u64) -> Option<Arrangement> {
        let fits = |a: &Arrangement| placed.iter().zip(a).all(|(&p, &v)| p == 0 || p == v);
        let choices: Vec<&(Arrangement, f64)> = self.mix[color.index()].iter().filter(|(a, _)| fits(a)).collect();
        let total: f64 = choices.iter().map(|c| c.1).sum();
        let mut x = (r >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (a, w) in &choices {
            if x < *w {
                return Some(*a);
            }
            x -= w;
        }
        choices.last().map(|c| c.0)
    }
}

/// The position after a setup: sente to move.
pub fn setup_position(s: &Arrangement, g: &Arrangement, rules: Carried) -> NumberShogi {
    NumberShogi::parse_sfen(&setup_sfen(s, g), &rules).expect("a full setup is a valid position")
}

/// The SFEN of the position after a setup.
fn setup_sfen(s: &Arrangement, g: &Arrangement) -> String {
    let letter = |v: u8, c: Color| {
        let l = char::from(b'A' + v - 1);
        if c == Color::Gote {
            l.to_ascii_lowercase()
        } else {
            l
        }
    };
    let row =
        |a: &Arrangement, c: Color, slots: [usize; 3]| -> String { slots.iter().map(|&i| letter(a[i], c)).collect() };
    // SFEN ranks a..e, files 3..1: gote's slots read turned round.
    format!(
        "{}/{}/3/{}/{} b - 13",
        row(g, Color::Gote, [5, 4, 3]),
        row(g, Color::Gote, [2, 1, 0]),
        row(s, Color::Sente, [0, 1, 2]),
        row(s, Color::Sente, [3, 4, 5])
    )
}

/// The most bytes a table file may have (the shipped one is about 270 KB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// A file's table as the engine holds it: shared by every game that read the same
/// contents while another held them, and dropped with the last of them (`Clone` counts
/// one more holder). Positions carry only its number ([`TableId::File`]).
#[derive(Clone, Debug)]
pub struct Shared {
    id: u64,
    /// The strong reference, what keeps the table in memory (found by `id`).
    _held: Arc<SolutionTable>,
}

impl Shared {
    /// Its number, never given to another table.
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// The files' tables that games hold, each known by its end line (count and checksum),
/// without keeping one alive: a table goes when its last [`Shared`] does.
struct Cache {
    /// The number the next new table gets.
    next: u64,
    /// Each table's number, end line and weak reference.
    slots: Vec<(u64, String, Weak<SolutionTable>)>,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache { next: 1, slots: Vec::new() });

fn cache() -> std::sync::MutexGuard<'static, Cache> {
    CACHE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads and checks a table file (one that cannot be is refused whole). The same
/// contents as a table a game holds give that table (no second copy).
pub(crate) fn load(path: &Path) -> Result<Shared, String> {
    // The option's error names the value (the path) once; these say only why.
    let text = crate::input::file::read_text(path, MAX_FILE_BYTES, "a solution table").map_err(|e| e.to_string())?;
    let table = SolutionTable::parse(&text)?;
    let end = text.rfind("\nend ").map_or("", |i| &text[i..]).to_string();
    let mut cache = cache();
    cache.slots.retain(|(_, _, t)| t.strong_count() > 0);
    let held = cache.slots.iter().find(|(_, e, _)| *e == end);
    if let Some((id, table)) = held.and_then(|(id, _, t)| Some((*id, t.upgrade()?))) {
        return Ok(Shared { id, _held: table });
    }
    let (id, table) = (cache.next, Arc::new(table));
    cache.next += 1;
    cache.slots.push((id, end, Arc::downgrade(&table)));
    Ok(Shared { id, _held: table })
}

/// How many files' tables are in memory: those some game holds.
pub fn live_tables() -> usize {
    cache().slots.iter().filter(|(_, _, t)| t.strong_count() > 0).count()
}

static BUILTIN_TABLE: OnceLock<Result<Arc<SolutionTable>, String>> = OnceLock::new();

fn builtin_shared() -> Result<&'static Arc<SolutionTable>, String> {
    BUILTIN_TABLE.get_or_init(|| SolutionTable::parse(BUILTIN).map(Arc::new)).as_ref().map_err(Clone::clone)
}

/// The shipped table, read and checked on first use.
pub fn builtin() -> Result<&'static SolutionTable, String> {
    builtin_shared().map(|t| &**t)
}

/// The table a position names: `Ok(None)` when switched off (or when no game holds the
/// file's table any more), `Err` when the shipped one is damaged. Looked up at the root
/// only (the first move after a setup, a placement), never in the search.
pub(crate) fn in_use(id: TableId) -> Result<Option<Arc<SolutionTable>>, String> {
    match id {
        TableId::Builtin => {
            builtin_shared().map(|t| Some(Arc::clone(t))).map_err(|e| format!("the shipped Number Shogi solution: {e}"))
        }
        TableId::Off => Ok(None),
        TableId::File(n) => Ok(cache().slots.iter().find(|(id, _, _)| *id == n).and_then(|(_, _, t)| t.upgrade())),
    }
}

/// The proven answer at a finished setup, from the table in use.
pub fn known(pos: &NumberShogi) -> Option<Result<Known<Move>, String>> {
    setup_of(pos)?;
    match in_use(pos.rules.table) {
        Err(e) => Some(Err(e)),
        Ok(None) => None,
        Ok(Some(t)) => t.entry(pos).map(|e| Ok(Known { outcome: e.outcome, plies: e.plies, best: e.best })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> &'static SolutionTable {
        builtin().expect("the shipped table reads")
    }

    #[test]
    fn the_shipped_table_reads_and_answers_mirror_images_alike() {
        let t = table();
        assert!(!t.is_empty());
        let rules = Carried::default();
        assert_eq!(t.rules, rules);
        let (s, g) = ([6, 5, 3, 2, 4, 1], [6, 5, 3, 2, 4, 1]);
        let a = t.entry(&setup_position(&s, &g, rules)).expect("the study's setup is in the table");
        let b = t.entry(&setup_position(&mirror(&s), &mirror(&g), rules)).expect("and its mirror image");
        assert_eq!((a.outcome, a.plies), (b.outcome, b.plies));
        assert_eq!(b.best, mirror_move(a.best));
        // Another rule set: the table says nothing.
        let other = Carried { promotion: false, ..rules };
        assert_eq!(t.entry(&setup_position(&s, &g, other)), None);
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused_whole() {
        let good = BUILTIN;
        let flipped = good.replacen(" L", " W", 1);
        assert!(SolutionTable::parse(&flipped).unwrap_err().contains("checksum"));
        let truncated = &good[..good.len() / 2];
        assert!(SolutionTable::parse(truncated).unwrap_err().contains("truncated"));
        assert!(SolutionTable::parse("koma-numbershogi-solution 2\nend 0 0\n").is_err());
        assert!(SolutionTable::parse("").is_err());
        // A well-formed file with a wrong count is refused too.
        let body = good.rsplit_once("\nend ").unwrap().0.to_string() + "\n";
        let hash = format!("{:016x}", fnv1a(body.as_bytes()));
        assert!(SolutionTable::parse(&format!("{body}end 1 {hash}\n")).unwrap_err().contains("counts"));
    }

    #[test]
    fn setups_are_recognised_only_when_complete_and_untouched() {
        let rules = Carried::default();
        let p = setup_position(&[1, 2, 3, 4, 5, 6], &[6, 5, 4, 3, 2, 1], rules);
        assert_eq!(setup_of(&p), Some(([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])));
        let mut moves = Vec::new();
        p.legal_moves(&mut moves);
        let mut after = p.clone();
        after.play(moves[0]);
        assert_eq!(setup_of(&after), None, "gote to move is not a setup");
        assert_eq!(setup_of(&NumberShogi::startpos(&Default::default())), None);
    }

    #[test]
    fn draws_follow_the_mix_and_what_is_already_placed() {
        let t = table();
        for color in [Color::Sente, Color::Gote] {
            let support: Vec<Arrangement> = t.mix[color.index()].iter().map(|m| m.0).collect();
            for r in [0u64, 1 << 40, u64::MAX / 3, u64::MAX] {
                let a = t.draw(color, &[0; 6], r).unwrap();
                assert!(support.contains(&a));
                // Given a placed piece of that arrangement, the draw keeps to it.
                let mut placed = [0; 6];
                placed[2] = a[2];
                let b = t.draw(color, &placed, r.rotate_left(17)).unwrap();
                assert_eq!(b[2], a[2]);
            }
        }
        assert_eq!(t.draw(Color::Sente, &[1, 1, 1, 1, 1, 1], 0), None);
    }

    /// Issue 55, item 6: a position carries only the number of a file's table; the table
    /// is found while a game's rules hold it, the same contents read again are the same
    /// table, and once no rules hold it the number names nothing.
    #[test]
    fn row6_a_files_table_is_shared_while_held_and_gone_after() {
        let lines: Vec<&str> = BUILTIN.lines().collect();
        let body = format!("{}\n{}\n", lines[..6].join("\n"), lines[6]);
        let text = format!("{body}end 1 {:016x}\n", fnv1a(body.as_bytes()));
        let dir = std::env::temp_dir().join(format!("koma-row6-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
        std::fs::write(&a, &text).unwrap();
        std::fs::write(&b, &text).unwrap();
        let mut rules = super::super::Rules::default();
        NumberShogi::set_rule(&mut rules, "NumberShogiSolution", &a.display().to_string()).unwrap();
        let again = super::super::Table::parse(&b.display().to_string()).unwrap();
        assert_eq!(again, rules.table, "the same contents: the same table");
        let id = rules.table.id();
        assert!(matches!(id, TableId::File(_)));
        let parts: Vec<&str> = lines[6].split_whitespace().collect();
        let (s, g) = (parse_arrangement(parts[0]).unwrap(), parse_arrangement(parts[1]).unwrap());
        let pos = setup_position(&s, &g, rules.carried());
        let entry = known(&pos).expect("the file's setup").unwrap();
        assert_eq!(pos.format_move(entry.best), parts[3]);
        // A setup the shipped table holds and the file does not: the file's table answers.
        let parts: Vec<&str> = lines[7].split_whitespace().collect();
        let (s2, g2) = (parse_arrangement(parts[0]).unwrap(), parse_arrangement(parts[1]).unwrap());
        assert!(known(&setup_position(&s2, &g2, Carried::default())).is_some());
        assert!(known(&setup_position(&s2, &g2, rules.carried())).is_none());
        drop((rules, again));
        assert!(in_use(id).unwrap().is_none(), "no rules hold the table: it is gone");
        assert_eq!(known(&pos), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn arrangements_parse_strictly() {
        assert_eq!(parse_arrangement("653241"), Ok([6, 5, 3, 2, 4, 1]));
        for bad in ["", "65324", "6532411", "653244", "653247", "65324a", "053241"] {
            assert!(parse_arrangement(bad).is_err(), "{bad}");
        }
        assert_eq!(format_arrangement(&mirror(&[6, 5, 3, 2, 4, 1])), "356142");
    }
}
