//! The small typed values of `koma`: `Square`, `Piece` and `Move`, read from the names
//! and tokens the engine writes (protocol/rules.md: a square is file digits then a rank
//! letter, a piece an SFEN letter, a move a USI token). They hold no rule: whether a square
//! is on a board or a move legal is the board's question (`Move.from_usi` asks it).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{LazyLock, Mutex};

use crate::board::PyBoard;
use crate::errors::IllegalMove;
use crate::py_repr;
use koma::game::Live;

/// `"b"` for an uppercase (sente) letter, `"w"` for a lowercase one.
fn side_of(letter: char) -> &'static str {
    if letter.is_ascii_uppercase() {
        "b"
    } else {
        "w"
    }
}

/// A square by its name, file digits then rank letter (``Square("2f")``): ``file`` 1 is
/// the rightmost column of the diagram, ``rank`` 1 (``a``) its top row.
#[pyclass(name = "Square", frozen, eq, hash, module = "koma")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PySquare {
    /// The file, 1 for the rightmost column of the diagram.
    #[pyo3(get)]
    pub file: u32,
    /// The rank, 1 for the top row (``a``).
    #[pyo3(get)]
    pub rank: u32,
}

impl PySquare {
    /// The square named at the start of `text` and the rest of the text, if it starts with one.
    pub fn parse_prefix(text: &str) -> Option<(PySquare, &str)> {
        let digits = text.bytes().take_while(u8::is_ascii_digit).count();
        let file: u32 = text[..digits].parse().ok().filter(|&f| (1..=99).contains(&f))?;
        let letter = text.as_bytes().get(digits).filter(|b| b.is_ascii_lowercase())?;
        Some((PySquare { file, rank: u32::from(letter - b'a') + 1 }, &text[digits + 1..]))
    }

    pub fn parse(text: &str) -> PyResult<PySquare> {
        match PySquare::parse_prefix(text) {
            Some((sq, "")) => Ok(sq),
            _ => Err(PyValueError::new_err(format!(
                "'{text}' is not a square name (file digits then a rank letter, like 2f)"
            ))),
        }
    }

    pub fn text(&self) -> String {
        format!("{}{}", self.file, char::from(b'a' + (self.rank - 1) as u8))
    }
}

#[pymethods]
impl PySquare {
    #[new]
    fn new(name: &str) -> PyResult<PySquare> {
        PySquare::parse(name)
    }

    /// The square's name, e.g. ``2f``.
    #[getter]
    fn name(&self) -> String {
        self.text()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Square({})", py_repr(py, self.text())?))
    }
}

/// A square given as a ``Square`` or its name.
pub fn square_arg(obj: &Bound<'_, PyAny>) -> PyResult<PySquare> {
    if let Ok(sq) = obj.extract::<PyRef<'_, PySquare>>() {
        return Ok(sq.clone());
    }
    PySquare::parse(&obj.extract::<String>()?)
}

/// A piece by its SFEN symbol (``Piece("+p")``): its ``kind`` (the unpromoted letter,
/// uppercase), its ``side`` (``"b"`` or ``"w"``) and whether it is ``promoted``.
#[pyclass(name = "Piece", frozen, eq, hash, module = "koma")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPiece {
    /// The piece's letter, uppercase, without ``+``: ``P``, ``K``, ``C``...
    #[pyo3(get)]
    pub kind: String,
    /// The owner: ``"b"`` (sente, uppercase in SFEN) or ``"w"``.
    #[pyo3(get)]
    pub side: &'static str,
    /// Whether the piece is promoted (``+`` in SFEN: a shogi promotion, a grown crab, a shrimp).
    #[pyo3(get)]
    pub promoted: bool,
}

impl PyPiece {
    pub fn parse(symbol: &str) -> PyResult<PyPiece> {
        let (promoted, rest) = match symbol.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, symbol),
        };
        let mut chars = rest.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => {
                Ok(PyPiece { kind: c.to_ascii_uppercase().to_string(), side: side_of(c), promoted })
            }
            _ => Err(PyValueError::new_err(format!(
                "'{symbol}' is not a piece symbol (an SFEN letter, uppercase for sente, after '+' if promoted)"
            ))),
        }
    }

    fn text(&self) -> String {
        let letter = if self.side == "b" { self.kind.to_ascii_uppercase() } else { self.kind.to_ascii_lowercase() };
        if self.promoted {
            format!("+{letter}")
        } else {
            letter
        }
    }
}

#[pymethods]
impl PyPiece {
    #[new]
    fn new(symbol: &str) -> PyResult<PyPiece> {
        PyPiece::parse(symbol)
    }

    /// The SFEN symbol: ``+`` if promoted, the letter uppercase for sente (``"+p"``, ``"K"``).
    fn symbol(&self) -> String {
        self.text()
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Piece({})", py_repr(py, self.text())?))
    }
}

/// One step of a move token: `<from><to>[suffix]` or `<LETTER>*<to>`.
struct Step {
    from: Option<PySquare>,
    to: PySquare,
    drop: Option<String>,
    promotion: Option<String>,
}

fn step(text: &str) -> Option<Step> {
    if let Some((letter, to)) = text.split_once('*') {
        return Some(Step {
            from: None,
            to: PySquare::parse(to).ok()?,
            drop: Some(letter.to_string()),
            promotion: None,
        });
    }
    let (from, rest) = PySquare::parse_prefix(text)?;
    let (to, suffix) = PySquare::parse_prefix(rest)?;
    Some(Step { from: Some(from), to, drop: None, promotion: (!suffix.is_empty()).then(|| suffix.to_string()) })
}

/// A move of a board, as its USI token: ``Move.from_usi(board, "7g7f")`` (checked legal
/// there), or from ``board.legal_moves``. Its parts: ``from_square`` (``None`` for a drop),
/// ``to_square``, ``drop`` (the dropped piece's letter), ``promotion`` (``"+"``, or Kokesu's
/// ``q``/``r``/``b``/``n``) and, for a crab turn with a bond move, ``bond``: that second
/// step as a ``Move``. Moves are equal when their tokens are.
#[pyclass(name = "Move", frozen, eq, hash, module = "koma")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyMove {
    pub token: String,
}

impl PyMove {
    fn first(&self) -> Step {
        let first = self.token.split(',').next().unwrap_or("");
        step(first).unwrap_or(Step { from: None, to: PySquare { file: 0, rank: 1 }, drop: None, promotion: None })
    }
}

/// The token of a move given as a ``Move`` or a USI token.
pub fn token_arg(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(m) = obj.extract::<PyRef<'_, PyMove>>() {
        return Ok(m.token.clone());
    }
    obj.extract::<String>()
}

#[pymethods]
impl PyMove {
    /// The move ``text`` (a USI token) of ``board``'s position, as the engine writes it;
    /// ``IllegalMove`` if it is malformed or not legal there.
    #[staticmethod]
    fn from_usi(board: &PyBoard, text: &str) -> PyResult<PyMove> {
        let mut game = board.game.boxed_clone();
        game.push(text).map_err(|e| IllegalMove::new_err(e.to_string()))?;
        Ok(PyMove { token: game.moves().pop().unwrap_or_default() })
    }

    /// The USI token, e.g. ``7g7f``, ``P*3d``, ``5d2d,2d1e+``.
    fn usi(&self) -> String {
        self.token.clone()
    }

    /// Where the moved piece stood; ``None`` for a drop.
    #[getter(from_square)]
    fn origin(&self) -> Option<PySquare> {
        self.first().from
    }

    /// Where the move (its first step, for a crab turn) ends.
    #[getter]
    fn to_square(&self) -> PySquare {
        self.first().to
    }

    /// The dropped piece's letter (uppercase for either side); ``None`` for a board move.
    #[getter(drop)]
    fn dropped(&self) -> Option<String> {
        self.first().drop
    }

    /// ``"+"`` (promotes, grows), Kokesu's piece letter ``q``/``r``/``b``/``n``, or ``None``.
    #[getter]
    fn promotion(&self) -> Option<String> {
        self.first().promotion
    }

    /// A crab turn's bond move (its from square is where the piece stands after the
    /// first step), or ``None``.
    #[getter]
    fn bond(&self) -> Option<PyMove> {
        self.token.split_once(',').map(|(_, b)| PyMove { token: b.to_string() })
    }

    fn __str__(&self) -> String {
        self.token.clone()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Move.from_usi({})", py_repr(py, &self.token)?))
    }
}

/// The legal moves of a board's position when asked (none once the game is over):
/// iterable (``Move`` values), ``len()``, ``move in board.legal_moves`` for a ``Move``
/// or a USI token, ``list()``.
#[pyclass(name = "LegalMoves", frozen, module = "koma")]
pub struct LegalMoves {
    /// The tokens as Python strings, made once: `usi()` and iteration hand out these.
    tokens: Vec<Py<PyString>>,
}

/// The Python strings of the move tokens seen so far, made once each: a game has a few
/// thousand tokens, met again in every position, and looking one up costs a fraction of
/// making it. Keyed by the token's bytes packed in a `u64` (tokens of up to 8 bytes: all
/// but the crab games' bond moves, which are made each time). Bounded: emptied when it
/// holds `MAX_TOKENS`.
static TOKENS: LazyLock<Mutex<Interned>> = LazyLock::new(Default::default);
type Interned = HashMap<u64, Py<PyString>, BuildHasherDefault<Packed>>;
const MAX_TOKENS: usize = 1 << 16;

/// The hash of a packed token: one multiplication (the key is already its bytes).
#[derive(Default)]
struct Packed(u64);

impl Hasher for Packed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

fn packed(token: &str) -> Option<u64> {
    let b = token.as_bytes();
    (b.len() <= 8).then(|| b.iter().rev().fold(0u64, |k, &c| (k << 8) | u64::from(c)))
}

impl LegalMoves {
    /// The legal moves of `game`'s position; none once the game is over.
    pub fn of(py: Python<'_>, game: &dyn Live) -> LegalMoves {
        let mut tokens = Vec::with_capacity(64);
        if game.verdict().is_none() {
            let mut known = TOKENS.lock().unwrap_or_else(|e| e.into_inner());
            game.each_legal_move(&mut |t| {
                let Some(key) = packed(t) else {
                    tokens.push(PyString::new(py, t).unbind());
                    return;
                };
                if let Some(s) = known.get(&key) {
                    tokens.push(s.clone_ref(py));
                    return;
                }
                if known.len() >= MAX_TOKENS {
                    known.clear();
                }
                let s = PyString::new(py, t).unbind();
                known.insert(key, s.clone_ref(py));
                tokens.push(s);
            });
        }
        LegalMoves { tokens }
    }

    fn token(&self, py: Python<'_>, i: usize) -> PyResult<String> {
        Ok(self.tokens[i].bind(py).to_str()?.to_owned())
    }
}

#[pymethods]
impl LegalMoves {
    fn __len__(&self) -> usize {
        self.tokens.len()
    }

    fn __bool__(&self) -> bool {
        !self.tokens.is_empty()
    }

    fn __contains__(&self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        let Ok(wanted) = token_arg(item) else { return Ok(false) };
        for t in &self.tokens {
            if t.bind(item.py()).to_str()? == wanted {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let moves =
            (0..self.tokens.len()).map(|i| Ok(PyMove { token: self.token(py, i)? })).collect::<PyResult<Vec<_>>>()?;
        Ok(moves.into_pyobject(py)?.into_any().try_iter()?.into_any())
    }

    /// The number of legal moves.
    fn count(&self) -> usize {
        self.tokens.len()
    }

    /// The moves' USI tokens, in the engine's order.
    fn usi<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.tokens.iter().map(|t| t.bind(py)))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let tokens = (0..self.tokens.len()).map(|i| self.token(py, i)).collect::<PyResult<Vec<_>>>()?;
        Ok(format!("<LegalMoves ({})>", tokens.join(", ")))
    }
}
