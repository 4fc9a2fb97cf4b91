//! `koma.records`: game records in and out, in every format the engine reads and writes
//! (`koma::records`: koma's own, KIF, CSA, PGN, RokuRokuGUI's). Reading, the checks on a
//! file and writing are the crate's; this file turns a `Record` into a Python value and back.

use std::path::PathBuf;

use koma::game::{Color, Scope};
use koma::games;
use koma::records::{self, Ending, Format, Record, RecordMove, RuleSwitches};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::board::{GameResult, PyBoard};
use crate::py_repr;
use crate::values::PyMove;

/// A game record, whatever its format: ``variant``, ``rules`` (its rules switches that are
/// not at their defaults), ``start`` (an SFEN, ``None`` for the start position),
/// ``headers``, ``moves`` with their ``comments``, and ``result``; ``board()`` replays it.
#[pyclass(name = "Game", frozen, module = "koma.records")]
pub struct PyGame {
    record: Record,
}

/// The winner letter of a side.
fn letter(c: Color) -> &'static str {
    match c {
        Color::Sente => "b",
        Color::Gote => "w",
    }
}

/// The names of the formats, in the engine's order.
fn names() -> Vec<&'static str> {
    Format::ALL.iter().map(|f| f.name()).collect()
}

fn format_named(name: &str) -> PyResult<Format> {
    Format::named(name).ok_or_else(|| {
        PyValueError::new_err(format!("no record format '{name}' (the formats: {})", names().join(", ")))
    })
}

#[pymethods]
impl PyGame {
    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.record.variant
    }

    /// The rules switches that are not at their defaults, by name.
    #[getter]
    fn rules(&self) -> Vec<(String, String)> {
        self.record.rules.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    /// The start position as SFEN; ``None`` for the variant's start position.
    #[getter]
    fn start(&self) -> Option<String> {
        self.record.start.clone()
    }

    /// The headers in the order read, as (key, value) pairs: the players, the date, the
    /// event and the site are ``sente``, ``gote``, ``date``, ``event`` and ``site`` in every
    /// format; other keys are the format's own.
    #[getter]
    fn headers(&self) -> Vec<(String, String)> {
        self.record.headers.clone()
    }

    /// The moves, oldest first.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        self.record.moves.iter().map(|m| PyMove { token: m.usi.clone() }).collect()
    }

    /// Each move's comment, ``None`` where it has none.
    #[getter]
    fn comments(&self) -> Vec<Option<String>> {
        self.record.moves.iter().map(|m| m.comment.clone()).collect()
    }

    /// How the game ended, as the record says or its final position shows: the winner and
    /// the rule (``""`` when the record names none); ``None`` while it goes on.
    #[getter]
    fn result(&self) -> Option<GameResult> {
        let ending = self.record.result.as_ref()?;
        let reason = ending.rule.clone().unwrap_or_default();
        let players = games::descriptor(self.record.variant).map_or(["sente", "gote"], |d| d.players);
        let text = match (ending.winner, reason.is_empty()) {
            (Some(c), true) => format!("{} wins", players[c.index()]),
            (Some(c), false) => format!("{} wins: {reason}", players[c.index()]),
            (None, true) => "draw".to_string(),
            (None, false) => format!("draw: {reason}"),
        };
        Some(GameResult { winner: ending.winner.map(letter), reason, text })
    }

    /// The game replayed onto a ``Board`` under its rules, from its start.
    fn board(&self) -> PyResult<PyBoard> {
        let mut game = self.record.position().map_err(PyValueError::new_err)?;
        for m in &self.record.moves {
            game.push_unjudged(&m.usi).map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        Ok(PyBoard { game })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("<Game {} of {} moves>", py_repr(py, self.record.variant)?, self.record.moves.len()))
    }
}

/// A path given as an `os.PathLike`, or a `str` of one line; `None`: record text.
fn path_of(source: &Bound<'_, PyAny>) -> PyResult<Option<PathBuf>> {
    if let Ok(text) = source.extract::<String>() {
        return Ok((!text.contains('\n')).then(|| PathBuf::from(text)));
    }
    Ok(Some(source.extract::<PathBuf>()?))
}

/// Reads a game record: ``source`` is a path (an ``os.PathLike``, or a ``str`` of one
/// line: a regular file of at most 4 MiB, UTF-8 or Shift_JIS) or the record's text (a
/// ``str`` of several lines). The format is found from the text (and the file's
/// extension) unless ``format`` names it; ``variant`` names the game where the format
/// does not (KIF). ``OSError`` for a file that cannot be read, ``ValueError`` for a
/// record that cannot, naming its lines.
#[pyfunction]
#[pyo3(signature = (source, format = None, variant = None))]
pub fn read(source: &Bound<'_, PyAny>, format: Option<&str>, variant: Option<&str>) -> PyResult<PyGame> {
    let variant = match variant {
        None => None,
        Some(v) => Some(games::descriptor(v).map(|d| d.name).ok_or_else(|| {
            PyValueError::new_err(format!("no variant '{v}' (the variants: {})", games::names().join(", ")))
        })?),
    };
    let (text, name) = match path_of(source)? {
        Some(path) => {
            let text = records::read_file(&path).map_err(PyOSError::new_err)?;
            (text, path.file_name().and_then(|n| n.to_str()).map(String::from))
        }
        None => (source.extract::<String>()?, None),
    };
    let format = match format {
        Some(f) => format_named(f)?,
        None => Format::detect(&text, name.as_deref()),
    };
    let parsed = records::read(format, &text, variant);
    if !parsed.errors.is_empty() {
        let lines: Vec<String> = parsed.errors.iter().map(|e| format!("line {}: {}", e.line, e.reason)).collect();
        return Err(PyValueError::new_err(format!("{} record: {}", format.name(), lines.join("; "))));
    }
    Ok(PyGame { record: parsed.record })
}

/// The record of a board's game: its rules switches, root, moves and result.
fn record_of(board: &PyBoard) -> PyResult<Record> {
    let game = &board.game;
    let mut record = Record::new(game.variant());
    let mut rules = RuleSwitches::default();
    for (name, value) in game.rule_set().changed(Scope::Rules) {
        rules.set(game.variant(), name, value).map_err(PyValueError::new_err)?;
    }
    record.rules = rules;
    let start = records::position_under(game.variant(), &record.rules, None).map_err(PyValueError::new_err)?;
    if game.root_sfen() != start.sfen() {
        record.start = Some(game.root_sfen());
    }
    record.moves = game.moves().into_iter().map(|usi| RecordMove { usi, comment: None }).collect();
    record.result = game.verdict().map(|v| Ending { winner: v.winner, rule: Some(v.rule.text().to_string()) });
    Ok(record)
}

/// Writes a game (a ``Game`` read before, or a ``Board``'s game) as the text of a record
/// in ``format`` (``"koma"``, ``"kif"``, ``"csa"``, ``"pgn"``, ``"rokuroku"``; ``None``: the
/// game's natural one, KIF for the shogi games, PGN for Kokesu, koma's for the crab games).
/// ``ValueError`` when the format cannot hold the game.
#[pyfunction]
#[pyo3(signature = (game, format = None))]
pub fn write(game: &Bound<'_, PyAny>, format: Option<&str>) -> PyResult<String> {
    let record = if let Ok(g) = game.extract::<PyRef<'_, PyGame>>() {
        g.record.clone()
    } else {
        let board = game.extract::<PyRef<'_, PyBoard>>()?;
        record_of(&board)?
    };
    let format = match format {
        Some(f) => format_named(f)?,
        None => Format::natural(record.variant),
    };
    records::write(format, &record).map_err(PyValueError::new_err)
}

/// The names of the record formats that can hold a game of ``variant`` (every format
/// without one), in the engine's order.
#[pyfunction]
#[pyo3(signature = (variant = None))]
pub fn formats(variant: Option<&str>) -> Vec<&'static str> {
    Format::ALL.iter().filter(|f| variant.is_none_or(|v| f.supports(v))).map(|f| f.name()).collect()
}

/// `koma.records`, registered as a submodule of `koma` (and in `sys.modules`, so that
/// `import koma.records` finds it).
pub fn submodule(parent: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = parent.py();
    let m = PyModule::new(py, "records")?;
    m.setattr("__doc__", DOC)?;
    m.add_function(wrap_pyfunction!(read, &m)?)?;
    m.add_function(wrap_pyfunction!(write, &m)?)?;
    m.add_function(wrap_pyfunction!(formats, &m)?)?;
    m.add_class::<PyGame>()?;
    parent.add_submodule(&m)?;
    m.setattr("__name__", "koma.records")?;
    py.import("sys")?.getattr("modules")?.set_item("koma.records", &m)?;
    Ok(())
}

/// The submodule's docstring (the stub `python/koma/records.pyi` has the same).
const DOC: &str = "Game records in and out: ``read`` a record of any format the engine knows into a\n\
``Game`` (headers, rules, moves, result; ``board()`` replays it) and ``write`` a ``Game``\n\
or a ``Board`` in any of them (protocol/records.md describes each).";
