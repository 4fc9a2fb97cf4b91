//! Game records in and out (issue 47): RokuRokuGUI's record and KIF, CSA (66 shogi; KIF
//! also Number Shogi), PGN with SAN (Kokesu) and koma's own line-based form (every game,
//! the only one for the crab games). protocol/records.md describes each format.
//!
//! Every format reads into one [`Record`]: the variant, its rules switches
//! ([`RuleSwitches`]), the start position, the moves as USI tokens with their comments,
//! the headers and the result with the rule that ended the game. A reader replays the
//! moves with the game's own rules (under the record's switches) and referee as it reads,
//! so a record that is read is a legal game; anything it cannot read is a [`LineError`]
//! naming the line and the reason, and what came before the first unreadable move is still
//! returned ([`Parsed`]). A writer writes any record of its game back, and reading what it
//! wrote gives the same record.

pub(crate) mod csa;
pub mod kif;
pub(crate) mod koma;
pub mod notation;
pub mod pgn;
pub(crate) mod rokuroku;
mod rules;
mod walk;

use std::fmt;
use std::path::Path;

use crate::game::{Color, Live};
use crate::games;

pub use rules::RuleSwitches;
pub use walk::{grid, position, position_under, Played, Walk};

/// The most a record file may hold: a long game in the wordiest format is well under it.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The highest SFEN ply (the number of the next ply) a record may give a start position:
/// within every game's range, so that a record's number is the game's, never wrapped.
pub const MAX_SFEN_PLY: u32 = 999_999_999;

/// One move: its USI token and an optional comment (several lines allowed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub usi: String,
    pub comment: Option<String>,
}

/// How a game ended: the winner (`None`: a draw) and the rule, when the record says or
/// the final position shows it (`checkmate`, `repetition`, `resignation`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Color>,
    pub rule: Option<String>,
}

/// A game record, whatever its format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The `USI_Variant` name.
    pub variant: &'static str,
    /// The game's rules switches that are not at their defaults (none: the default rules).
    pub rules: RuleSwitches,
    /// The start position (SFEN); `None` for the variant's start position.
    pub start: Option<String>,
    /// Headers in the order read. The players, the date, the event and the site have the
    /// keys `sente`, `gote`, `date`, `event` and `site` in every format; other keys are the
    /// format's own.
    pub headers: Vec<(String, String)>,
    pub moves: Vec<RecordMove>,
    /// `None`: the game is not over (or the record does not say).
    pub result: Option<Ending>,
}

impl Record {
    /// An empty game of `variant` from its start position.
    pub fn new(variant: &'static str) -> Record {
        Record {
            variant,
            rules: RuleSwitches::default(),
            start: None,
            headers: Vec::new(),
            moves: Vec::new(),
            result: None,
        }
    }

    /// The game's start position under the record's rules.
    pub fn position(&self) -> Result<Box<dyn Live>, String> {
        position_under(self.variant, &self.rules, self.start.as_deref())
    }

    /// The value of header `key`, if any.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The moves' USI tokens.
    pub fn tokens(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.usi.clone()).collect()
    }
}

/// Something a reader could not read: the line (1-based; 0 for the file as a whole) and
/// why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

impl LineError {
    /// The reason is made one short line: control characters (a line's stray `\r`) are
    /// escaped, and a reason that quotes a long line keeps its start and its end.
    pub fn new(line: usize, reason: impl Into<String>) -> LineError {
        let reason: String = reason.into();
        let mut shown = String::with_capacity(reason.len().min(4 * MAX_REASON_CHARS));
        let count = reason.chars().count();
        let (head, tail) = (MAX_REASON_CHARS * 3 / 4, MAX_REASON_CHARS / 4);
        for (i, c) in reason.chars().enumerate() {
            if count > MAX_REASON_CHARS && i == head {
                shown.push_str(" … ");
            }
            if count > MAX_REASON_CHARS && (head..count - tail).contains(&i) {
                continue;
            }
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                shown.extend(c.escape_default());
            } else {
                shown.push(c);
            }
        }
        LineError { line, reason: shown }
    }
}

/// The longest reason a [`LineError`] gives, in characters (before escapes).
const MAX_REASON_CHARS: usize = 240;

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.reason)
        } else {
            write!(f, "line {}: {}", self.line, self.reason)
        }
    }
}

/// The errors a reader collects: the [`MAX_ERRORS`] of the lowest lines, and how many
/// more there were, so that a text of a million bad lines costs a hundred messages.
#[derive(Debug, Default)]
pub struct Errors {
    list: Vec<LineError>,
    more: usize,
}

/// The most errors a reading reports (then one line says how many more there were).
pub const MAX_ERRORS: usize = 100;

impl Errors {
    pub fn push(&mut self, e: LineError) {
        if self.list.len() < MAX_ERRORS {
            self.list.push(e);
            return;
        }
        self.more += 1;
        // Keep the lowest lines: the errors are mostly found in line order.
        if let Some(i) = (0..self.list.len()).max_by_key(|&i| self.list[i].line) {
            if e.line < self.list[i].line {
                self.list[i] = e;
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The errors in line order, the last saying how many more there were.
    pub fn into_sorted(mut self) -> Vec<LineError> {
        self.list.sort_by_key(|e| e.line);
        if self.more > 0 {
            let line = self.list.last().map_or(0, |e| e.line);
            self.list.push(LineError::new(line, format!("and {} more errors after this line", self.more)));
        }
        self.list
    }
}

impl Extend<LineError> for Errors {
    fn extend<I: IntoIterator<Item = LineError>>(&mut self, iter: I) {
        for e in iter {
            self.push(e);
        }
    }
}

/// What a reader made of a text: the record (up to the first move it could not read) and
/// every error, in line order. No errors: the whole text was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub record: Record,
    pub errors: Vec<LineError>,
}

impl Parsed {
    /// The record if the whole text was read, else the first error.
    pub fn whole(self) -> Result<Record, LineError> {
        match self.errors.into_iter().next() {
            None => Ok(self.record),
            Some(e) => Err(e),
        }
    }
}

/// The record formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// RokuRokuGUI's `.txt` record (66 shogi).
    Rokuroku,
    /// KIF (66 shogi, Number Shogi).
    Kif,
    /// CSA (66 shogi).
    Csa,
    /// PGN with SAN (Kokesu).
    Pgn,
    /// koma's own line-based record (every game).
    Koma,
}

impl Format {
    pub const ALL: [Format; 5] = [Format::Rokuroku, Format::Kif, Format::Csa, Format::Pgn, Format::Koma];

    pub fn name(self) -> &'static str {
        match self {
            Format::Rokuroku => "rokuroku",
            Format::Kif => "kif",
            Format::Csa => "csa",
            Format::Pgn => "pgn",
            Format::Koma => "koma",
        }
    }

    /// The format named `name` (any case).
    pub fn named(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The file name extension written.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Rokuroku => "txt",
            Format::Koma => "koma",
            f => f.name(),
        }
    }

    /// Whether the format can hold a game of `variant`.
    pub fn supports(self, variant: &str) -> bool {
        match self {
            Format::Rokuroku | Format::Csa => variant == "shogi66",
            Format::Kif => kif::supports(variant),
            Format::Pgn => variant == "kokesu",
            Format::Koma => games::descriptor(variant).is_some(),
        }
    }

    /// The game's natural format: the one its players exchange.
    pub fn natural(variant: &str) -> Format {
        [Format::Kif, Format::Pgn].into_iter().find(|f| f.supports(variant)).unwrap_or(Format::Koma)
    }

    /// The format of a text, from its first lines (and the file name's extension when the
    /// text does not say).
    pub fn detect(text: &str, file_name: Option<&str>) -> Format {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
        if first.starts_with(rokuroku::FIRST_LINE) {
            return Format::Rokuroku;
        }
        if first.starts_with(koma::FIRST_LINE) {
            return Format::Koma;
        }
        let ext = file_name.and_then(|n| Path::new(n).extension()).and_then(|e| e.to_str()).unwrap_or("");
        if ext.eq_ignore_ascii_case("csa") || ["V2", "N+", "N-", "PI", "P1", "$"].iter().any(|p| first.starts_with(p)) {
            return Format::Csa;
        }
        if ext.eq_ignore_ascii_case("pgn") || first.starts_with('[') {
            return Format::Pgn;
        }
        Format::Kif
    }
}

/// Reads `text` in `format`. `variant` names the game where the format does not (KIF
/// without a 手合割 line it knows, the default: 66 shogi).
pub fn read(format: Format, text: &str, variant: Option<&'static str>) -> Parsed {
    match format {
        Format::Rokuroku => rokuroku::read(text),
        Format::Kif => kif::read(text, variant),
        Format::Csa => csa::read(text),
        Format::Pgn => pgn::read(text),
        Format::Koma => koma::read(text),
    }
}

/// Writes `record` in `format`; an error when the format cannot hold the game or the
/// record's moves are not a legal game.
pub fn write(format: Format, record: &Record) -> Result<String, String> {
    if !format.supports(record.variant) {
        return Err(format!("a {} record cannot hold a game of {}", format.name(), record.variant));
    }
    match format {
        Format::Rokuroku => rokuroku::write(record),
        Format::Kif => kif::write(record),
        Format::Csa => csa::write(record),
        Format::Pgn => pgn::write(record),
        Format::Koma => Ok(koma::write(record)),
    }
}

/// Reads a record file: a regular file of at most [`MAX_FILE_BYTES`], UTF-8 (a byte-order
/// mark is skipped) or else Shift_JIS, as older KIF and CSA files are. The one place that
/// opens record files.
pub fn read_file(path: &Path) -> Result<String, String> {
    let shown = crate::input::path(path);
    // The engine's one file reader: kind and size first, then a bounded read.
    let bytes = crate::input::file::read(path, MAX_FILE_BYTES, "a record").map_err(|e| format!("{shown}: {e}"))?;
    decode(&bytes).ok_or_else(|| format!("{shown}: neither UTF-8 nor Shift_JIS text"))
}

/// Record bytes as text: UTF-8 (without a byte-order mark) or else Shift_JIS.
pub fn decode(bytes: &[u8]) -> Option<String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Some(s.to_string());
    }
    let (text, _, bad) = encoding_rs::SHIFT_JIS.decode(bytes);
    (!bad).then(|| text.into_owned())
}

/// Reads a record file of any format (detected from its text and name).
pub fn read_path(path: &Path, variant: Option<&'static str>) -> Result<Parsed, String> {
    let text = read_file(path)?;
    let name = path.file_name().and_then(|n| n.to_str());
    Ok(read(Format::detect(&text, name), &text, variant))
}
