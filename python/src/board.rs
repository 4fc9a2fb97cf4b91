//! `koma.Board`: one game of any variant, its position and the moves since its root, with
//! the crate's rules and referee. `koma.variants()`.

use std::collections::hash_map::DefaultHasher;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::atomic::AtomicBool;

use koma::game::{ChessGame, Color, Live, MoveError, Queries, Scope};
use koma::games;
use koma::records::notation::{self, NotationError, Style};
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{interruptible, IllegalMove, InvalidSfen};
use crate::game::{new_game, NewError};
use crate::py_repr;
use crate::values::{square_arg, token_arg, LegalMoves, PyMove, PyPiece, PySquare};

/// The deepest perft (the engine's own limit).
const MAX_PERFT_DEPTH: u32 = koma::engine::MAX_PERFT_DEPTH;

/// The variant names, in the engine's ``USI_Variant`` order.
#[pyfunction]
pub fn variants() -> Vec<&'static str> {
    games::names()
}

/// A finished game, as the engine's referee judged it.
#[pyclass(frozen, eq, hash, get_all, module = "koma")]
#[derive(PartialEq, Eq, Hash)]
pub struct GameResult {
    /// ``"b"`` or ``"w"``; ``None`` for a draw.
    pub winner: Option<&'static str>,
    /// The rule that ended the game: ``checkmate``, ``sum of seven``, ``repetition``...
    pub reason: String,
    /// What the engine's ``d`` prints, e.g. ``black wins: three shrimps``.
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

/// A side by its letter, `"b"` or `"w"`.
fn color(side: &str) -> PyResult<Color> {
    match side {
        "b" => Ok(Color::Sente),
        "w" => Ok(Color::Gote),
        _ => Err(PyValueError::new_err(format!("'{side}' is not a side (\"b\" or \"w\")"))),
    }
}

/// The chess-protocol face of `variant` (its FEN), or why it has none.
fn chess_game(variant: &str) -> PyResult<ChessGame> {
    let d = games::descriptor(variant).ok_or_else(|| PyValueError::new_err(format!("no variant '{variant}'")))?;
    d.chess_game()
        .ok_or_else(|| PyValueError::new_err(format!("{variant} has no FEN (its moves have no chess notation)")))
}

pub fn illegal(e: MoveError) -> PyErr {
    IllegalMove::new_err(e.to_string())
}

/// One game: its rules switches, the position and the moves played since its root.
///
/// ``Board(variant="shogi66", sfen=None, fen=None, **switches)``: the start position, or
/// ``sfen``, or ``fen`` (as ``fen()`` writes it);
/// ``switches`` are the game's rules switches by their option names, e.g.
/// ``Board("kokesu", KokesuPromotion="free")``. An unknown variant or switch raises
/// ``ValueError``, a bad SFEN ``InvalidSfen``. Boards are equal when their variant, rules
/// switches and SFEN (the position and its ply) are, whatever moves led there (as in
/// python-chess); a board hashes by the same, so do not change one kept in a set.
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

impl PyBoard {
    /// What a board's equality compares: the variant, its rules switches and the position
    /// with its ply (the SFEN); not the moves that led there.
    fn position(&self) -> (&'static str, Vec<(String, String)>, String) {
        let switches = self.game.rule_set().changed(Scope::Rules);
        let switches = switches.into_iter().map(|(n, v)| (n.to_string(), v.to_string())).collect();
        (self.game.variant(), switches, self.game.sfen())
    }

    /// The typed game's queries.
    fn queries(&self) -> PyResult<&dyn Queries> {
        games::queries(&*self.game)
            .ok_or_else(|| PyRuntimeError::new_err("koma: the board's game is of no known variant"))
    }

    /// The name of a legal move (a `Move` or a token) in `style`; `IllegalMove` for a move
    /// that is not legal here, `ValueError` for a style the game has not.
    fn name(&self, r#move: &Bound<'_, PyAny>, style: Style) -> PyResult<String> {
        let token = token_arg(r#move)?;
        if !notation::styles(self.game.variant()).contains(&style) {
            let e = NotationError::NotThisGame { style, variant: self.game.variant() };
            return Err(PyValueError::new_err(e.to_string()));
        }
        if !self.game.is_legal(&token) {
            return Err(IllegalMove::new_err(format!("'{token}' is not a legal move here")));
        }
        let previous = self.game.moves().pop();
        Ok(notation::name(&*self.game, &token, style, previous.as_deref()))
    }

    /// A square of this board, given as a `Square` or its name; `ValueError` off the board.
    fn on_board(&self, square: &Bound<'_, PyAny>) -> PyResult<PySquare> {
        let sq = square_arg(square)?;
        let (files, ranks) = self.game.size();
        if sq.file as usize > files || sq.rank as usize > ranks {
            return Err(PyValueError::new_err(format!("{} is not a square of {}", sq.text(), self.game.variant())));
        }
        Ok(sq)
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (variant = "shogi66", sfen = None, fen = None, **switches))]
    fn new(
        variant: &str,
        sfen: Option<&str>,
        fen: Option<&str>,
        switches: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyBoard> {
        let switches = text_pairs(switches)?;
        let from_fen = match (sfen, fen) {
            (Some(_), Some(_)) => return Err(PyValueError::new_err("give a position as sfen or as fen, not both")),
            (_, Some(fen)) => {
                Some(chess_game(variant)?.fen_to_sfen(fen).map_err(|e| InvalidSfen::new_err(e.to_string()))?)
            }
            _ => None,
        };
        match new_game(variant, from_fen.as_deref().or(sfen), &switches) {
            None => Err(PyValueError::new_err(format!(
                "no variant '{variant}' (the variants: {})",
                games::names().join(", ")
            ))),
            Some(Err(NewError::Rule(e))) => Err(PyValueError::new_err(e.to_string())),
            Some(Err(NewError::Sfen(e))) => Err(InvalidSfen::new_err(e.to_string())),
            Some(Ok(game)) => Ok(PyBoard { game }),
        }
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.variant()
    }

    /// The side to move: ``"b"`` (sente, the first player) or ``"w"``.
    #[getter]
    fn turn(&self) -> &'static str {
        side_letter(self.game.side_to_move())
    }

    /// The pieces in hand of each side (``"b"``, ``"w"``) as SFEN letters, ``"-"`` for none.
    #[getter]
    fn hands(&self) -> BTreeMap<&'static str, String> {
        let h = self.game.state().hands;
        BTreeMap::from([("b", h.b), ("w", h.w)])
    }

    /// The number of the next ply (the SFEN's ply field).
    #[getter]
    fn ply(&self) -> u32 {
        self.game.state().ply
    }

    /// ``"placement"``, ``"play"`` or ``"over"``.
    #[getter]
    fn phase(&self) -> &'static str {
        self.game.state().phase
    }

    /// The game's own counters (captures, shrimps, the move counter), if it has any.
    #[getter]
    fn status(&self) -> Option<String> {
        self.game.state().status
    }

    /// The position the game started from.
    #[getter]
    fn root_sfen(&self) -> String {
        self.game.root_sfen()
    }

    /// The moves played since the root, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.game.moves().into_iter().map(|token| PyMove { token }).collect()
    }

    /// The rules switches given when the board was made.
    #[getter]
    fn switches(&self) -> BTreeMap<String, String> {
        self.game.rule_set().changed(Scope::Rules).into_iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()
    }

    /// The current position as SFEN.
    fn sfen(&self) -> String {
        self.game.sfen()
    }

    /// The current position as FEN, as Fairy-Stockfish writes the game (Kokesu, 66 shogi,
    /// Number Shogi; ``ValueError`` for the crab games, which have none).
    fn fen(&self) -> PyResult<String> {
        let chess = chess_game(self.game.variant())?;
        chess.sfen_to_fen(&self.game.sfen()).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The legal moves; none once the game is over.
    #[getter]
    fn legal_moves(&self, py: Python<'_>) -> LegalMoves {
        LegalMoves::of(py, self.game.as_ref())
    }

    /// Whether ``push(move)`` would play it (a ``Move`` or a USI token).
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.game.is_legal(&token_arg(r#move)?))
    }

    /// Plays a move (a ``Move`` or a USI token); raises ``IllegalMove`` (and changes
    /// nothing) if it cannot be played.
    fn push(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let token = token_arg(r#move)?;
        self.game.push(&token).map_err(illegal)
    }

    /// Plays the move of USI token ``text`` and returns it, as ``push``.
    fn push_usi(&mut self, text: &str) -> PyResult<PyMove> {
        self.game.push(text).map_err(illegal)?;
        Ok(PyMove { token: self.game.moves().pop().unwrap_or_default() })
    }

    /// Takes back the last move and returns it; ``IndexError`` at the root.
    fn pop(&mut self) -> PyResult<PyMove> {
        let token = self.game.pop().ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))?;
        Ok(PyMove { token })
    }

    /// The last move played; ``IndexError`` at the root.
    fn peek(&self) -> PyResult<PyMove> {
        let token =
            self.game.moves().pop().ok_or_else(|| PyIndexError::new_err("peek at a board with no moves played"))?;
        Ok(PyMove { token })
    }

    /// The move's SAN, as Kokesu's PGN writes it (``e4``, ``Nbd2``, ``Qxf7#``, ``e8=Q``);
    /// ``IllegalMove`` for a move not legal here, ``ValueError`` in another game.
    fn san(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        self.name(r#move, Style::San)
    }

    /// The move's Japanese name as KIF writes it without its from square (``☗２六歩``,
    /// ``☖同　歩``, ``☗５五角打``), in 66 shogi and Number Shogi; errors as ``san``.
    fn kif(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        self.name(r#move, Style::Kif)
    }

    /// The move in Western (Hodges) notation (``P-2f``, ``Sx3c+``, ``P*5e``), in 66 shogi
    /// and Number Shogi (pieces ``1``..``6``); errors as ``san``.
    fn western(&self, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        self.name(r#move, Style::Western)
    }

    /// The legal move that SAN ``text`` names; ``IllegalMove`` if none or several do.
    fn parse_san(&self, text: &str) -> PyResult<PyMove> {
        self.parse_move(text, "san")
    }

    /// Plays the move that SAN ``text`` names and returns it, as ``parse_san``.
    fn push_san(&mut self, text: &str) -> PyResult<PyMove> {
        let m = self.parse_move(text, "san")?;
        self.game.push(&m.token).map_err(illegal)?;
        Ok(m)
    }

    /// The legal move ``text`` names in ``style``: ``"usi"``, ``"san"`` (Kokesu),
    /// ``"kif"`` or ``"western"`` (66 shogi, Number Shogi); ``IllegalMove`` if none or
    /// several do, ``ValueError`` for a style the game has not.
    #[pyo3(signature = (text, style = "usi"))]
    fn parse_move(&self, text: &str, style: &str) -> PyResult<PyMove> {
        let style = Style::parse(style).map_err(|e| PyValueError::new_err(e.to_string()))?;
        match notation::parse(&*self.game, text, style) {
            Ok(token) => Ok(PyMove { token }),
            Err(e @ NotationError::NotThisGame { .. }) => Err(PyValueError::new_err(e.to_string())),
            Err(e) => Err(IllegalMove::new_err(e.to_string())),
        }
    }

    /// The piece on ``square`` (a ``Square`` or its name), ``None`` if it is empty;
    /// ``ValueError`` for a square off the board.
    fn piece_at(&self, square: &Bound<'_, PyAny>) -> PyResult<Option<PyPiece>> {
        let name = self.on_board(square)?.text();
        let found = self.queries()?.board_pieces().into_iter().find(|(s, _)| *s == name);
        found.map(|(_, symbol)| PyPiece::parse(&symbol)).transpose()
    }

    /// Every piece on the board with its square, rank by rank from the top.
    fn piece_map(&self) -> PyResult<Vec<(PySquare, PyPiece)>> {
        let pieces = self.queries()?.board_pieces().into_iter();
        pieces.map(|(s, p)| Ok((PySquare::parse(&s)?, PyPiece::parse(&p)?))).collect()
    }

    /// The squares of ``side``'s pieces of ``kind`` (a letter, any case), promoted or
    /// not unless ``promoted`` says which.
    #[pyo3(signature = (kind, side, promoted = None))]
    fn pieces(&self, kind: &str, side: &str, promoted: Option<bool>) -> PyResult<Vec<PySquare>> {
        let side = side_letter(color(side)?);
        let kind = kind.to_ascii_uppercase();
        let mut out = Vec::new();
        for (square, piece) in self.piece_map()? {
            if piece.kind == kind && piece.side == side && promoted.is_none_or(|p| p == piece.promoted) {
                out.push(square);
            }
        }
        Ok(out)
    }

    /// The pieces ``side`` holds in hand: their letters (uppercase) and counts.
    fn hand(&self, side: &str) -> PyResult<BTreeMap<String, u32>> {
        let hands = self.game.state().hands;
        let text = if color(side)? == Color::Sente { hands.b } else { hands.w };
        let mut counts = BTreeMap::new();
        let mut digits = String::new();
        for ch in text.chars().filter(|&c| c != '-') {
            if ch.is_ascii_digit() {
                digits.push(ch);
            } else {
                *counts.entry(ch.to_ascii_uppercase().to_string()).or_insert(0) += digits.parse().unwrap_or(1);
                digits.clear();
            }
        }
        Ok(counts)
    }

    /// Whether the side to move is in check (never in the games without check).
    fn is_check(&self) -> bool {
        self.game.in_check()
    }

    /// The squares of the pieces giving check to the side to move.
    fn checkers(&self) -> PyResult<Vec<PySquare>> {
        self.queries()?.checkers().iter().map(|s| PySquare::parse(s)).collect()
    }

    /// The squares of ``side``'s pieces that attack ``square``, as the engine's attack
    /// tables see them (pins ignored, whatever stands there). In the crab games, where a
    /// capture is a sandwich, the pieces whose turn (``side`` to move) would take the piece
    /// on ``square``, or end on it when empty: the piece that makes the capturing step.
    fn attackers(&self, side: &str, square: &Bound<'_, PyAny>) -> PyResult<Vec<PySquare>> {
        let name = self.on_board(square)?.text();
        self.queries()?.attackers(color(side)?, &name).iter().map(|s| PySquare::parse(s)).collect()
    }

    /// Whether the side to move is in check and has no legal move.
    fn is_checkmate(&self) -> bool {
        self.game.in_check() && self.game.legal_moves().is_empty()
    }

    /// How many times the current position has occurred since the root (1 the first time).
    fn repetitions(&self) -> PyResult<usize> {
        Ok(self.queries()?.repetitions())
    }

    /// Whether the current position has occurred at least ``count`` times since the root.
    #[pyo3(signature = (count = 3))]
    fn is_repetition(&self, count: usize) -> PyResult<bool> {
        Ok(self.queries()?.repetitions() >= count)
    }

    /// python-chess's name for ``result()``: the winner and the rule, ``None`` while the game goes on.
    fn outcome(&self) -> Option<GameResult> {
        self.result()
    }

    /// Whether the referee says the game is over (a rule, no legal move, repetition, the move-count rule).
    fn is_game_over(&self) -> bool {
        self.game.verdict().is_some()
    }

    /// Who won and by which rule; ``None`` while the game goes on.
    fn result(&self) -> Option<GameResult> {
        self.game.state().result.map(|r| GameResult { winner: r.winner, reason: r.reason, text: r.text })
    }

    /// The number of move paths ``depth`` plies deep (the engine's ``go perft``).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > MAX_PERFT_DEPTH {
            return Err(PyValueError::new_err(format!("perft: depth {depth} is more than {MAX_PERFT_DEPTH}")));
        }
        let stop = AtomicBool::new(false);
        let game = &*self.game;
        interruptible(py, &stop, || game.perft(depth, &stop))
    }

    /// An independent copy, its moves included; with ``stack=False`` a board set up
    /// from the current position (no moves to take back, no repetition history).
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> PyResult<PyBoard> {
        if stack {
            return Ok(PyBoard { game: self.game.boxed_clone() });
        }
        let game = games::start(self.game.rule_set(), Some(&self.game.sfen()));
        Ok(PyBoard { game: game.map_err(|e| InvalidSfen::new_err(e.to_string()))? })
    }

    fn __copy__(&self) -> PyResult<PyBoard> {
        self.copy(true)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        self.copy(true)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.extract::<PyRef<'_, PyBoard>>().is_ok_and(|o| self.position() == o.position())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.position().hash(&mut h);
        h.finish()
    }

    /// The lines the engine's ``d`` prints: the diagram, side, hands, ply, phase, result, SFEN.
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
