//! `koma.solve`: the exact value of a Number Shogi game after setup (the crate's solver,
//! as `koma solve` runs it).

use std::sync::Arc;

use koma::search::solve::Budget;
use koma::search::Signals;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::board::PyBoard;
use crate::errors::interruptible;
use crate::py_repr;

/// The exact value of a game for the side to move.
#[pyclass(frozen, get_all, name = "Solution", module = "koma")]
pub struct PySolution {
    /// ``"win"``, ``"loss"``, ``"draw"``, or ``None`` when the budget ran out first.
    pub value: Option<&'static str>,
    /// Plies to the end with best play (the fastest win, the slowest loss); 0 for a draw.
    pub plies: Option<u32>,
    /// A move that keeps the value; ``None`` when the game is over or the value unknown.
    pub bestmove: Option<String>,
    /// The nodes the solver searched.
    pub nodes: u64,
    /// The milliseconds it took.
    pub ms: u64,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let (value, best) = (py_repr(py, self.value)?, py_repr(py, &self.bestmove)?);
        Ok(format!("Solution(value={value}, plies={}, bestmove={best})", py_repr(py, self.plies)?))
    }
}

/// The exact value of the position (the shipped table, else the solver) in the games the
/// engine solves (Number Shogi after setup, Kani Shogi, Kani Nari Ebi), within the budget
/// given; ``ValueError`` for another game or a position in the placement phase. Give a budget:
/// a drawn position with a big reachable space runs until memory runs out.
#[pyfunction]
#[pyo3(signature = (board, max_ms = None, max_nodes = None))]
pub fn solve(py: Python<'_>, board: &PyBoard, max_ms: Option<u64>, max_nodes: Option<u64>) -> PyResult<PySolution> {
    let signals = Arc::new(Signals::default());
    let budget = Budget { max_nodes, max_ms, stop: Some(Arc::clone(&signals)) };
    let game = &*board.game;
    let exact =
        interruptible(py, &signals.stop, || crate::game::solve(game, &budget))?.map_err(PyValueError::new_err)?;
    Ok(PySolution {
        value: exact.value.map(|v| v.name()),
        plies: exact.plies,
        bestmove: exact.bestmove,
        nodes: exact.nodes,
        ms: exact.ms,
    })
}
