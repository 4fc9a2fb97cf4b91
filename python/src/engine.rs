//! `koma.Engine`: the crate's protocol-free engine in this process. Typed commands go in;
//! its events (search progress, the best move, errors) come back through a channel and
//! become `koma.Analysis`. A search runs on the engine's own threads while the calling
//! Python thread waits without the GIL; `stop()` (from another thread) or Ctrl-C ends it.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use koma::engine::{self, Command, Event, Info, Score as EngineScore};
use koma::games;
use koma::search::GoParams;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::{text_pairs, PyBoard};
use crate::errors::SIGNAL_POLL;
use crate::py_repr;

/// A score from the side to move's view: ``cp`` (centipawns) or ``mate`` (plies to
/// mate; negative when being mated). The other is ``None``.
#[pyclass(frozen, get_all, eq, module = "koma")]
#[derive(Clone, PartialEq, Eq)]
pub struct Score {
    /// Centipawns; ``None`` for a mate score.
    pub cp: Option<i32>,
    /// Plies to mate (negative when being mated); ``None`` for a centipawn score.
    pub mate: Option<i32>,
}

#[pymethods]
impl Score {
    fn __repr__(&self) -> String {
        match (self.cp, self.mate) {
            (_, Some(m)) => format!("Score(mate={m})"),
            (cp, None) => format!("Score(cp={})", cp.unwrap_or(0)),
        }
    }
}

impl From<EngineScore> for Score {
    fn from(s: EngineScore) -> Score {
        match s {
            EngineScore::Cp(cp) => Score { cp: Some(cp), mate: None },
            EngineScore::Mate(m) => Score { cp: None, mate: Some(m) },
        }
    }
}

/// One principal variation as the search's last report left it.
#[pyclass(frozen, get_all, module = "koma")]
#[derive(Clone)]
pub struct Line {
    /// 1 for the best line.
    pub multipv: usize,
    /// The line's score; ``None`` before the search scored it.
    pub score: Option<Score>,
    /// The depth searched, in plies.
    pub depth: u32,
    /// The deepest ply the search reached.
    pub seldepth: u32,
    /// The nodes searched.
    pub nodes: u64,
    /// Nodes a second.
    pub nps: u64,
    /// The time searched, in milliseconds.
    pub time_ms: u64,
    /// The principal variation, its moves as USI tokens.
    pub pv: Vec<String>,
}

#[pymethods]
impl Line {
    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let score = self.score.as_ref().map_or("None".to_string(), |s| s.__repr__());
        Ok(format!(
            "Line(multipv={}, score={score}, depth={}, pv={})",
            self.multipv,
            self.depth,
            py_repr(py, &self.pv)?
        ))
    }
}

impl From<Info> for Line {
    fn from(i: Info) -> Line {
        Line {
            multipv: i.multipv.unwrap_or(1),
            score: i.score.map(Score::from),
            depth: i.depth,
            seldepth: i.seldepth,
            nodes: i.nodes,
            nps: i.nps,
            time_ms: i.time_ms,
            pv: i.pv,
        }
    }
}

/// What a search found: its move and its lines, best first.
#[pyclass(frozen, get_all, module = "koma")]
pub struct Analysis {
    /// The move; ``None`` only when there is no legal move.
    pub bestmove: Option<String>,
    /// The reply the engine expects, if its line has one.
    pub ponder: Option<String>,
    /// Whether the move came from the opening book (then there are no lines).
    pub book: bool,
    /// The lines, best first (``multipv`` of them).
    pub lines: Vec<Line>,
}

#[pymethods]
impl Analysis {
    /// The best line's score.
    #[getter]
    fn score(&self) -> Option<Score> {
        self.lines.first().and_then(|l| l.score.clone())
    }

    /// The best line's depth (0 for a book move).
    #[getter]
    fn depth(&self) -> u32 {
        self.lines.first().map_or(0, |l| l.depth)
    }

    /// The best line's nodes.
    #[getter]
    fn nodes(&self) -> u64 {
        self.lines.first().map_or(0, |l| l.nodes)
    }

    /// The best line's principal variation.
    #[getter]
    fn pv(&self) -> Vec<String> {
        self.lines.first().map_or_else(Vec::new, |l| l.pv.clone())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let score = self.score().map_or("None".to_string(), |s| s.__repr__());
        let (best, pv) = (py_repr(py, &self.bestmove)?, py_repr(py, self.pv())?);
        Ok(format!("Analysis(bestmove={best}, score={score}, depth={}, pv={pv})", self.depth()))
    }
}

/// The koma engine in this process, for one variant.
///
/// ``Engine(variant="shogi66", threads=1, hash_mb=16, **options)``: ``options`` are the
/// engine's USI options by name (``MultiPV`` excepted: ``analyse`` sets it), e.g.
/// ``KokesuEval="nnue"`` or ``USI_OwnBook=False``; a bad one raises ``ValueError``
/// (``USI_Variant`` too: the variant is the engine's for good), and a ``hash_mb`` the
/// system will not give raises ``MemoryError``.
/// ``MinimumThinkingTime`` is 0 unless given. A search runs on the engine's threads
/// while the calling thread waits without the GIL; searches of one engine from several
/// threads take turns, and ``stop()`` or Ctrl-C ends the running one.
#[pyclass(frozen, name = "Engine", module = "koma")]
pub struct PyEngine {
    variant: &'static str,
    core: Mutex<engine::Engine>,
    events: Mutex<Receiver<Event>>,
    /// Taken for a whole request, so that two Python threads' searches take turns.
    busy: Turns,
}

/// One request at a time. Not a held `MutexGuard`: the wait for a turn happens without
/// the GIL, and a guard cannot leave that closure.
#[derive(Default)]
struct Turns {
    taken: Mutex<bool>,
    freed: Condvar,
}

/// The current request's turn; the next one's begins when this is dropped.
struct Turn<'a>(&'a Turns);

impl Turns {
    fn take(&self, py: Python<'_>) -> Turn<'_> {
        py.detach(|| {
            let mut taken = lock(&self.taken);
            while *taken {
                taken = self.freed.wait(taken).unwrap_or_else(|e| e.into_inner());
            }
            *taken = true;
        });
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        *lock(&self.0.taken) = false;
        self.0.freed.notify_one();
    }
}

/// An error the engine reported as the Python exception for it: `MemoryError` when the
/// memory asked for (`USI_Hash`, `hash_mb`) could not be had, `ValueError` otherwise.
fn engine_error(e: String) -> PyErr {
    if e.contains(koma::search::tt::OUT_OF_MEMORY) {
        PyMemoryError::new_err(e)
    } else {
        PyValueError::new_err(e)
    }
}

/// The ranges of `koma analyse`'s flags, the same here: depth 1 to the search's deepest,
/// nodes and movetime at least 1, multipv 1 to the engine's most.
fn check_limits(depth: Option<u32>, nodes: Option<u64>, movetime: Option<u64>, multipv: usize) -> PyResult<()> {
    let deepest = koma::search::MAX_DEPTH;
    let most = koma::engine::MAX_MULTIPV;
    let why = if depth.is_some_and(|d| !(1..=deepest).contains(&d)) {
        format!("depth {}: from 1 to {deepest}, the search's deepest", depth.unwrap_or(0))
    } else if nodes == Some(0) {
        "nodes 0: at least 1".to_string()
    } else if movetime == Some(0) {
        "movetime 0: at least 1 ms".to_string()
    } else if !(1..=most).contains(&multipv) {
        format!("MultiPV {multipv}: from 1 to {most}")
    } else {
        return Ok(());
    };
    Err(PyValueError::new_err(why))
}

/// A lock whose holder panicked is still usable: the engine reports its own failures.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl PyEngine {
    /// Runs commands answered at once and returns the first error they reported.
    fn run(&self, commands: Vec<Command>) -> Result<(), String> {
        let mut core = lock(&self.core);
        let events = lock(&self.events);
        for cmd in commands {
            core.handle(cmd);
            while let Ok(ev) = events.try_recv() {
                if let Event::Error(e) = ev {
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// A `setoption` for the Python caller, or why not: the variant is the Engine's own
    /// (chosen when it is made), so the options that would switch it are refused.
    fn option(name: &str, value: String) -> PyResult<Command> {
        if ["USI_Variant", "UCI_Variant"].iter().any(|v| v.eq_ignore_ascii_case(name.trim())) {
            return Err(PyValueError::new_err(format!(
                "option {name}: the variant is chosen when the Engine is made: koma.Engine({value:?})"
            )));
        }
        Ok(Command::SetOption { name: name.to_string(), value: Some(value) })
    }

    fn set(name: &str, value: impl ToString) -> Command {
        Command::SetOption { name: name.to_string(), value: Some(value.to_string()) }
    }

    /// Waits for the search's `bestmove` without the GIL, gathering its reports; a signal
    /// (Ctrl-C) stops the search and is raised once it has ended.
    fn collect(&self, py: Python<'_>) -> PyResult<Analysis> {
        let mut lines: BTreeMap<usize, Line> = BTreeMap::new();
        let (mut book, mut error, mut interrupted) = (false, None, None);
        // The search thread had ended at the last quiet wait: its last events were sent.
        let mut ended = false;
        loop {
            let got = py.detach(|| lock(&self.events).recv_timeout(SIGNAL_POLL));
            match got {
                Ok(Event::Info(info)) if info.score.is_some() || !info.pv.is_empty() => {
                    let line = Line::from(info);
                    lines.insert(line.multipv, line);
                }
                Ok(Event::BookMove(_)) => book = true,
                Ok(Event::Error(e)) => error = Some(e),
                Ok(Event::BestMove { mv, ponder }) => {
                    if let Some(e) = interrupted {
                        return Err(e);
                    }
                    if let (None, Some(e)) = (&mv, error) {
                        return Err(PyValueError::new_err(e));
                    }
                    return Ok(Analysis { bestmove: mv, ponder, book, lines: lines.into_values().collect() });
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) if ended => {
                    return Err(PyRuntimeError::new_err(
                        error.unwrap_or("koma: the search ended without a move".into()),
                    ))
                }
                Err(RecvTimeoutError::Timeout) => ended = !py.detach(|| lock(&self.core).is_searching()),
                Err(RecvTimeoutError::Disconnected) => return Err(PyRuntimeError::new_err("koma: the engine is gone")),
            }
            if interrupted.is_none() {
                if let Err(e) = py.check_signals() {
                    interrupted = Some(e);
                    self.stop(py);
                }
            }
        }
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (variant = "shogi66", threads = 1, hash_mb = 16, **options))]
    fn new(variant: &str, threads: usize, hash_mb: usize, options: Option<&Bound<'_, PyDict>>) -> PyResult<PyEngine> {
        let Some(d) = games::descriptor(variant) else {
            return Err(PyValueError::new_err(format!(
                "no variant '{variant}' (the variants: {})",
                games::names().join(", ")
            )));
        };
        let (tx, rx) = mpsc::channel();
        let sink: engine::Sink = Arc::new(move |e| {
            let _ = tx.send(e);
        });
        let e = PyEngine {
            variant: d.name,
            core: Mutex::new(engine::Engine::new(sink)),
            events: Mutex::new(rx),
            busy: Turns::default(),
        };
        // A script's search answers as soon as it is done: no minimum thinking time
        // (the GUI race it guards against), unless asked for.
        let mut commands = vec![
            PyEngine::set("USI_Variant", variant),
            PyEngine::set("Threads", threads),
            PyEngine::set("USI_Hash", hash_mb),
            PyEngine::set("MinimumThinkingTime", 0),
        ];
        for (n, v) in text_pairs(options)? {
            commands.push(PyEngine::option(&n, v)?);
        }
        commands.push(Command::IsReady);
        e.run(commands).map_err(engine_error)?;
        Ok(e)
    }

    /// The variant the engine plays.
    #[getter]
    fn variant(&self) -> &'static str {
        self.variant
    }

    /// Sets an engine option; a bad name or value raises ``ValueError`` (``USI_Variant``
    /// too: make another Engine for another variant), a ``USI_Hash`` the system will not
    /// give ``MemoryError`` (the table keeps its old size).
    fn setoption(&self, py: Python<'_>, name: &str, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let value = match value.extract::<bool>() {
            Ok(b) => b.to_string(),
            Err(_) => value.str()?.to_string(),
        };
        let command = PyEngine::option(name, value)?;
        let _turn = self.busy.take(py);
        py.detach(|| self.run(vec![command])).map_err(engine_error)
    }

    /// Searches the board's position (its moves included, for repetitions) within the
    /// limits given (at least one; ``movetime`` in milliseconds; depth 1 to 127, nodes
    /// and movetime at least 1, multipv 1 to 64, as ``koma analyse``). ``ValueError`` for
    /// a limit out of range, a board of another variant or a finished game.
    #[pyo3(signature = (board, depth = None, nodes = None, movetime = None, multipv = 1))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
        multipv: usize,
    ) -> PyResult<Analysis> {
        if board.game.variant() != self.variant {
            return Err(PyValueError::new_err(format!(
                "the board is {} and this engine plays {}",
                board.game.variant(),
                self.variant
            )));
        }
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            return Err(PyValueError::new_err("a search needs a limit: depth, nodes or movetime"));
        }
        check_limits(depth, nodes, movetime, multipv)?;
        if let Some(r) = board.game.state().result {
            return Err(PyValueError::new_err(format!("the game is over: {}", r.text)));
        }
        let mut commands = vec![Command::Rules(board.game.rule_set().clone())];
        commands.push(Command::Position { sfen: Some(board.game.root_sfen()), moves: board.game.moves() });
        commands.push(PyEngine::set("MultiPV", multipv));
        let _turn = self.busy.take(py);
        py.detach(|| self.run(commands)).map_err(PyValueError::new_err)?;
        let go = GoParams { depth, nodes, movetime, ..GoParams::default() };
        py.detach(|| lock(&self.core).handle(Command::Go(go)));
        self.collect(py)
    }

    /// The move the engine plays in the board's position (``analyse(...).bestmove``).
    #[pyo3(signature = (board, depth = None, nodes = None, movetime = None))]
    fn play(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
    ) -> PyResult<Option<String>> {
        Ok(self.analyse(py, board, depth, nodes, movetime, 1)?.bestmove)
    }

    /// Ends the running search; it answers with what it has found.
    fn stop(&self, py: Python<'_>) {
        py.detach(|| lock(&self.core).handle(Command::Stop));
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Engine({})", py_repr(py, self.variant)?))
    }
}
