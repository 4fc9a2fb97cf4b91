//! `koma.Board`: one game of any variant, its position and the moves since its root, with
//! the crate's rules and referee. `koma.variants()`.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use koma::game::{Color, Live, MoveError, Scope};
use koma::games;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{interruptible, IllegalMove, InvalidSfen};
use crate::game::{new_game, NewError};
use crate::py_repr;

/// The deepest perft (the engine's own limit).
const MAX_PERFT_DEPTH: u32 = koma::engine::MAX_PERFT_DEPTH;

/// The variant names, in `USI_Variant` order.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    games::names()
}

/// A finished game: the winner (`"b"`, `"w"`, `None` for a draw) and the rule.
#[pyclass(frozen, get_all, module = "koma")]
pub struct GameResult {
    pub winner: Option<&'static str>,
    pub reason: String,
    pub text: String,
}

#[pymethods]
impl GameResult {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("GameResult({})", py_repr(py, &self.text)?))
    }
}

/// `"b"` (sente, the first player) or `"w"`.
fn side_letter(c: Color) -> &'static str {
    match c {
        Color::Sente => "b",
        Color::Gote => "w",
    }
}

pub fn illegal(e: MoveError) -> PyErr {
    IllegalMove::new_err(e.to_string())
}

#[pyclass(name = "Board", module = "koma")]
pub struct PyBoard {
    pub game: Box<dyn Live>,
}

/// The keyword arguments as (name, value) pairs of text; a value must be a `str`.
pub fn text_pairs(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (k, v) in kwargs.into_iter().flat_map(|d| d.iter()) {
        let name: String = k.extract()?;
        let value = match v.extract::<bool>() {
            Ok(b) => b.to_string(),
            Err(_) => v.str()?.to_string(),
        };
        out.push((name, value));
    }
    Ok(out)
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (variant = "shogi66", sfen = None, **switches))]
    fn new(variant: &str, sfen: Option<&str>, switches: Option<&Bound<'_, PyDict>>) -> PyResult<PyBoard> {
        let switches = text_pairs(switches)?;
        match new_game(variant, sfen, &switches) {
            None => Err(PyValueError::new_err(format!(
                "no variant '{variant}' (the variants: {})",
                games::names().join(", ")
            ))),
            Some(Err(NewError::Rule(e))) => Err(PyValueError::new_err(e.to_string())),
            Some(Err(NewError::Sfen(e))) => Err(InvalidSfen::new_err(e.to_string())),
            Some(Ok(game)) => Ok(PyBoard { game }),
        }
    }

    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant()
    }

    /// The side to move: `"b"` (sente, the first player) or `"w"`.
    #[getter]
    fn turn(&self) -> &'static str {
        side_letter(self.game.side_to_move())
    }

    #[getter]
    fn hands(&self) -> BTreeMap<&'static str, String> {
        let h = self.game.state().hands;
        BTreeMap::from([("b", h.b), ("w", h.w)])
    }

    #[getter]
    fn ply(&self) -> u32 {
        self.game.state().ply
    }

    #[getter]
    fn phase(&self) -> &'static str {
        self.game.state().phase
    }

    #[getter]
    fn status(&self) -> Option<String> {
        self.game.state().status
    }

    #[getter]
    fn root_sfen(&self) -> String {
        self.game.root_sfen()
    }

    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.game.moves()
    }

    #[getter]
    fn switches(&self) -> BTreeMap<String, String> {
        self.game.rule_set().changed(Scope::Rules).into_iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    fn sfen(&self) -> String {
        self.game.sfen()
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.game.verdict().is_some() {
            return Vec::new();
        }
        self.game.legal_moves()
    }

    fn is_legal(&self, r#move: &str) -> bool {
        self.game.is_legal(r#move)
    }

    fn push(&mut self, r#move: &str) -> PyResult<()> {
        self.game.push(r#move).map_err(illegal)
    }

    fn pop(&mut self) -> PyResult<String> {
        self.game.pop().ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))
    }

    fn is_game_over(&self) -> bool {
        self.game.verdict().is_some()
    }

    fn result(&self) -> Option<GameResult> {
        self.game.state().result.map(|r| GameResult { winner: r.winner, reason: r.reason, text: r.text })
    }

    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!("perft: depth {depth} is more than {MAX_PERFT_DEPTH}")));
        }
        let stop = AtomicBool::new(false);
        let game = &*self.game;
        interruptible(py, &stop, || game.perft(depth, &stop))
    }

    fn copy(&self) -> PyBoard {
        PyBoard { game: self.game.boxed_clone() }
    }

    fn __copy__(&self) -> PyBoard {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.copy()
    }

    /// The lines `d` prints: the diagram, side, hands, ply, phase, status, result, SFEN.
    fn state(&self) -> Vec<String> {
        self.game.state().lines()
    }

    fn __str__(&self) -> String {
        self.game.state().board.join("\n")
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Board({}, sfen={})", py_repr(py, self.game.variant())?, py_repr(py, self.game.sfen())?))
    }
}
