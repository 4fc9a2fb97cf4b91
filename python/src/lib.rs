//! `import koma`: the rules, the engine and the solver of koma's five games as a Python
//! module (PyO3). Every rule, the referee, perft, the search and the solver are the koma
//! crate's; this crate turns them into Python classes and exceptions. The stub that
//! documents the module for editors and type checkers is `python/koma/__init__.pyi`
//! (and `records.pyi` beside it); `python/koma/__init__.py` re-exports this module.
//!
//! - [`game`]: one game of any variant behind an object-safe face (a referee and the
//!   positions to take moves back to);
//! - [`board`]: `koma.Board`, `koma.GameResult`, `koma.variants`;
//! - [`engine`]: `koma.Engine` (the crate's protocol-free engine) and its typed results;
//! - [`solve`]: `koma.solve`, Number Shogi's exact value;
//! - [`errors`]: the exceptions, and running long work with the GIL released.

mod board;
mod engine;
mod errors;
mod game;
mod records;
mod solve;
mod values;

use pyo3::prelude::*;
use pyo3::BoundObject;

/// Python's `repr` of a value, for the classes' own `__repr__`.
pub(crate) fn py_repr<'py, T: IntoPyObject<'py>>(py: Python<'py>, value: T) -> PyResult<String> {
    let obj = value.into_pyobject(py).map_err(Into::into)?;
    Ok(obj.into_bound().into_any().repr()?.to_string())
}

/// koma: the rules, the engine and the solver of five small games.
///
/// 66 shogi (``shogi66``), Kokesu (``kokesu``), Number Shogi (``numbershogi``), Kani Shogi
/// (``kanishogi``) and Kani Nari Ebi (``kaninariebi``). Every rule, the referee, perft, the
/// search and the solver are the koma engine's own (a Rust crate; this module is its
/// binding). A move is a ``Move``, the USI token the engine writes (protocol/rules.md) with
/// its parts; a crab turn of the two crab games is one token, and wherever a move is taken
/// its token will do. Squares are ``Square`` values (``"2f"``), pieces ``Piece`` values
/// (``"+p"``). Sides are ``"b"`` (sente, the first player) and ``"w"``.
#[pymodule(name = "koma")]
fn koma_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("IllegalMove", py.get_type::<errors::IllegalMove>())?;
    m.add("InvalidSfen", py.get_type::<errors::InvalidSfen>())?;
    m.add_function(wrap_pyfunction!(board::variants, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::GameResult>()?;
    m.add_class::<values::PyMove>()?;
    m.add_class::<values::PySquare>()?;
    m.add_class::<values::PyPiece>()?;
    m.add_class::<values::LegalMoves>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::Analysis>()?;
    m.add_class::<engine::Line>()?;
    m.add_class::<engine::Score>()?;
    m.add_class::<solve::PySolution>()?;
    records::submodule(m)?;
    Ok(())
}
