//! A game session: the bridge between the variant-blind engine and one [`Game`].
//!
//! [`Session`] is object-safe and speaks in move tokens and SFEN text; [`GameSession`]
//! implements it once for every game. The engine picks the session when the variant is
//! chosen (`src/games/mod.rs`) and from then on never matches on the variant again.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::game::{MoveError, Notation, Outcome, RuleError, RuleOption, SfenError, Strategy};
use crate::perft;
use crate::protocol::notation::ChessGame;
use crate::protocol::{GoParams, Info, MateResult, Reply, Score};
use crate::search::history::Histories;
use crate::search::mate::{self, MateAnswer};
use crate::search::time::{self, Deadline, SystemClock, TimeOptions};
use crate::search::tt::Table;
use crate::search::{mate_plies, smp, Limits, Report, Searcher, Signals};
use crate::state::GameState;
use crate::table_slot::{SharedTable, TableSlot};

/// Where replies go (stdout in the binary, a buffer in tests).
pub type Sink = Arc<dyn Fn(Reply) + Send + Sync>;

/// A `position` command that could not be applied. Nothing of it was applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("{0}")]
    Sfen(#[from] SfenError),
    #[error("move {index} of the moves list: {source}")]
    Move { index: usize, source: MoveError },
}

/// Everything a search needs besides the position.
pub struct SearchJob {
    pub params: GoParams,
    pub time: TimeOptions,
    pub multipv: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    pub signals: Arc<Signals>,
    pub sink: Sink,
    /// When `go` arrived.
    pub start: Instant,
}

/// The variant-independent face of a game, used by the engine.
pub trait Session: Send {
    fn variant(&self) -> &'static str;
    /// `variant <name> files F ranks R startpos <sfen>`
    fn describe(&self) -> String;
    fn rule_options(&self) -> &'static [RuleOption];
    /// Changes a rules switch; the position goes back to the start position.
    fn set_rule(&mut self, name: &str, value: &str) -> Result<(), RuleError>;
    /// `position`: applied whole or not at all. On error the session has no position.
    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError>;
    /// Why there is no position to work on, if there is none.
    fn position_error(&self) -> Option<String>;
    /// `d`: the lines of [`Session::state`] (board, side, hands, ply, phase, status,
    /// result, then `sfen <sfen>`).
    fn display(&self) -> Result<Vec<String>, String>;
    /// The position and where its game stands (`d`, `koma analyse`).
    fn state(&self) -> Result<GameState, String>;
    /// `moves`: legal move tokens.
    fn legal_moves(&self) -> Result<Vec<String>, String>;
    /// `go perft N` on a thread of its own: one line per move (sorted by token), then
    /// `Nodes searched: N`; `signals.stop` ends it early with what it has, marked.
    fn start_perft(&self, depth: u32, signals: Arc<Signals>, sink: Sink) -> Result<JoinHandle<()>, String>;
    /// `go`: starts a search thread that ends with exactly one `bestmove` or `checkmate`.
    fn start_search(&mut self, job: SearchJob) -> Result<JoinHandle<()>, String>;
    /// `bench` on a thread of its own: fixed positions to a fixed depth; lines go to
    /// `sink`; `signals.stop` ends it early with the totals so far, marked.
    fn start_bench(&self, depth: Option<u32>, signals: Arc<Signals>, sink: Sink) -> Result<JoinHandle<()>, String>;
    /// `usinewgame`: forget what earlier games taught the table (cleared off the clock).
    fn new_game(&mut self);
    /// `USI_Hash`: a table of this size is made in the background.
    fn set_hash(&mut self, mib: usize);
    /// The game in the chess protocols (UCI, CECP), if it has a chess notation.
    fn chess_game(&self) -> Option<ChessGame>;
    /// Whether the game is over in the current position: by a rule, or because the side
    /// to move has no legal move. From the side to move's view. Repetitions are not judged.
    fn outcome(&self) -> Option<Outcome>;
    /// `isready`: waits until the table is ready.
    fn wait_ready(&mut self);
}

#[derive(Clone)]
struct Current<G: Strategy + Notation> {
    pos: G,
    /// `(key, in_check)` of every position since the `position` root, current last.
    history: Vec<(u64, bool)>,
}

/// [`Session`] for game `G`.
pub struct GameSession<G: Strategy + Notation> {
    rules: G::Rules,
    current: Result<Current<G>, String>,
    tt: TableSlot<G::Move>,
    /// The move-ordering statistics (one per search thread) that the searches of a game
    /// hand on to the next; `usinewgame` starts afresh (a new set, so that a running
    /// search is never waited for).
    stats: SharedStats<G::Move>,
}

type SharedStats<M> = Arc<Mutex<Vec<Histories<M>>>>;

impl<G: Strategy + Notation> GameSession<G> {
    pub fn new() -> Self {
        let rules = G::Rules::default();
        GameSession {
            rules,
            current: Ok(Self::root(G::startpos(&rules))),
            tt: TableSlot::new(16),
            stats: SharedStats::default(),
        }
    }

    fn root(pos: G) -> Current<G> {
        let history = vec![(pos.key(), pos.in_check())];
        Current { pos, history }
    }

    fn current(&self) -> Result<&Current<G>, String> {
        self.current.as_ref().map_err(|e| e.clone())
    }
}

impl<G: Strategy + Notation> Default for GameSession<G> {
    fn default() -> Self {
        Self::new()
    }
}

/// The tokens of a line of moves from `pos`.
fn tokens<G: Strategy + Notation>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let t = p.format_move(m);
            p.play(m);
            t
        })
        .collect()
}

fn info_of<G: Strategy + Notation>(root: &G, r: &Report<G::Move>, multipv: usize) -> Info {
    let ms = r.elapsed.as_millis() as u64;
    Info {
        depth: r.depth,
        seldepth: r.seldepth,
        multipv: (multipv > 1).then_some(r.multipv),
        score: Some(match mate_plies(r.score) {
            Some(n) => Score::Mate(n),
            None => Score::Cp(r.score),
        }),
        nodes: r.nodes,
        nps: r.nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull: r.hashfull,
        pv: tokens(root, &r.pv),
    }
}

impl<G: Strategy + Notation> Session for GameSession<G> {
    fn variant(&self) -> &'static str {
        G::NAME
    }

    fn describe(&self) -> String {
        format!(
            "variant {} files {} ranks {} startpos {}",
            G::NAME,
            G::FILES,
            G::RANKS,
            G::startpos(&self.rules).to_sfen()
        )
    }

    fn rule_options(&self) -> &'static [RuleOption] {
        G::rule_options()
    }

    fn set_rule(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let mut rules = self.rules;
        G::set_rule(&mut rules, name, value)?;
        self.rules = rules;
        self.current = Ok(Self::root(G::startpos(&self.rules)));
        Ok(())
    }

    fn set_position(&mut self, sfen: Option<&str>, moves: &[String]) -> Result<(), PositionError> {
        let applied = (|| {
            let pos = match sfen {
                None => G::startpos(&self.rules),
                Some(s) => G::from_sfen(s, &self.rules)?,
            };
            let mut cur = Self::root(pos);
            for (i, token) in moves.iter().enumerate() {
                let mv = cur.pos.parse_move(token).map_err(|source| PositionError::Move { index: i + 1, source })?;
                cur.pos.play(mv);
                cur.history.push((cur.pos.key(), cur.pos.in_check()));
            }
            Ok(cur)
        })();
        match applied {
            Ok(cur) => {
                self.current = Ok(cur);
                Ok(())
            }
            Err(e) => {
                self.current = Err(format!("the last position command was rejected ({e})"));
                Err(e)
            }
        }
    }

    fn position_error(&self) -> Option<String> {
        self.current.as_ref().err().cloned()
    }

    fn display(&self) -> Result<Vec<String>, String> {
        self.state().map(|s| s.lines())
    }

    fn state(&self) -> Result<GameState, String> {
        let cur = self.current()?;
        Ok(GameState::of(&cur.pos, &cur.history))
    }

    fn legal_moves(&self) -> Result<Vec<String>, String> {
        let cur = self.current()?;
        let mut list = Vec::new();
        cur.pos.legal_moves(&mut list);
        Ok(list.iter().map(|&m| cur.pos.format_move(m)).collect())
    }

    fn start_perft(&self, depth: u32, signals: Arc<Signals>, sink: Sink) -> Result<JoinHandle<()>, String> {
        let pos = self.current()?.pos.clone();
        std::thread::Builder::new()
            .name("perft".into())
            .spawn(move || {
                let (lines, of) = perft::divide_until(&pos, depth, &signals.stop);
                let total: u64 = lines.iter().map(|l| l.1).sum();
                let done = lines.len();
                for (m, n) in lines {
                    sink(Reply::PerftMove { mv: m, nodes: n });
                }
                if signals.stop.load(Ordering::Relaxed) {
                    sink(Reply::Text(format!("Nodes searched: {total} (stopped: {done} of {of} moves counted)")));
                } else {
                    sink(Reply::Text(format!("Nodes searched: {}", if depth == 0 { 1 } else { total })));
                }
            })
            .map_err(|e| format!("cannot start the perft thread: {e}"))
    }

    fn start_search(&mut self, job: SearchJob) -> Result<JoinHandle<()>, String> {
        let cur = self.current()?.clone();
        let mut searchmoves = Vec::new();
        for t in &job.params.searchmoves {
            match cur.pos.parse_move(t) {
                Ok(m) => searchmoves.push(m),
                Err(e) => {
                    // A bad list is ignored whole: all moves are searched, never a resignation.
                    (job.sink)(Reply::Error(format!("go: searchmoves ignored, all moves are searched: {e}")));
                    searchmoves.clear();
                    break;
                }
            }
        }
        let tt = self.tt.for_search();
        let stats = Arc::clone(&self.stats);
        std::thread::Builder::new()
            .name("search".into())
            .stack_size(smp::STACK_BYTES)
            .spawn(move || run_search(cur, job, searchmoves, tt, stats))
            .map_err(|e| format!("cannot start the search thread: {e}"))
    }

    fn start_bench(&self, depth: Option<u32>, signals: Arc<Signals>, sink: Sink) -> Result<JoinHandle<()>, String> {
        let depth = depth.unwrap_or(G::BENCH_DEPTH).clamp(1, 64);
        let mut positions = vec![G::startpos(&self.rules)];
        for s in G::BENCH_POSITIONS {
            match G::from_sfen(s, &self.rules) {
                Ok(p) => positions.push(p),
                Err(e) => sink(Reply::Error(format!("bench position '{s}': {e}"))),
            }
        }
        std::thread::Builder::new()
            .name("bench".into())
            .stack_size(smp::STACK_BYTES)
            .spawn(move || bench(&positions, depth, &signals, &sink))
            .map_err(|e| format!("cannot start the bench thread: {e}"))
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.stats = SharedStats::default();
    }

    fn set_hash(&mut self, mib: usize) {
        self.tt.resize(mib);
    }

    fn chess_game(&self) -> Option<ChessGame> {
        G::CHESS_NOTATION.map(|notation| ChessGame { name: G::NAME, files: G::FILES, ranks: G::RANKS, notation })
    }

    fn outcome(&self) -> Option<Outcome> {
        let pos = &self.current().ok()?.pos;
        if let Some(o) = pos.result() {
            return Some(o);
        }
        let mut list = Vec::new();
        pos.legal_moves(&mut list);
        list.is_empty().then(|| pos.no_move_outcome())
    }

    fn wait_ready(&mut self) {
        self.tt.wait_ready();
    }
}

/// The body of the bench thread.
fn bench<G: Strategy + Notation>(positions: &[G], depth: u32, signals: &Signals, sink: &Sink) {
    let table = Table::new(16);
    let limits = Limits {
        time: time::TimePlan::unlimited(Duration::ZERO),
        depth: Some(depth),
        nodes: None,
        multipv: 1,
        searchmoves: Vec::new(),
    };
    let start = Instant::now();
    let mut total = 0;
    for (i, pos) in positions.iter().enumerate() {
        let history = [(pos.key(), pos.in_check())];
        let mut s = Searcher::new(&table, signals, &history);
        let r = s.run(pos, &limits, Instant::now(), &mut |_| {});
        total += r.nodes;
        if signals.stop.load(Ordering::Relaxed) {
            sink(Reply::InfoString(format!("bench stopped in position {} of {}", i + 1, positions.len())));
            break;
        }
        let best = r.best.map(|m| pos.format_move(m)).unwrap_or_else(|| "resign".into());
        sink(Reply::InfoString(format!(
            "bench position {} nodes {} bestmove {best} sfen {}",
            i + 1,
            r.nodes,
            pos.to_sfen()
        )));
    }
    let ms = start.elapsed().as_millis() as u64;
    let stopped = if signals.stop.load(Ordering::Relaxed) { " (stopped)" } else { "" };
    sink(Reply::Text(format!("Total time (ms) : {ms}")));
    sink(Reply::Text(format!("Nodes searched  : {total}{stopped}")));
    sink(Reply::Text(format!("Nodes/second    : {}", total * 1000 / ms.max(1))));
}

/// The body of the search thread.
fn run_search<G: Strategy + Notation>(
    cur: Current<G>,
    job: SearchJob,
    searchmoves: Vec<G::Move>,
    tt: SharedTable<G::Move>,
    stats: SharedStats<G::Move>,
) {
    let signals = &job.signals;
    let sink = &job.sink;
    let root = &cur.pos;
    let plan = time::plan(&job.params, root.side_to_move(), job.time);

    if let Some(mate_limit) = job.params.mate {
        // A deadline too far to represent is no deadline.
        let deadline = mate_limit.and_then(|ms| job.start.checked_add(Duration::from_millis(ms)));
        let answer = match mate::solve(root, signals, deadline) {
            MateAnswer::Mate(pv) => MateResult::Mate(tokens(root, &pv)),
            MateAnswer::NoMate => MateResult::NoMate,
            MateAnswer::Timeout => MateResult::Timeout,
        };
        sink(Reply::Checkmate(answer));
        return;
    }

    // The hard deadline, by the wall clock, on a thread of its own.
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(deadline) = Deadline::new(&plan, job.start, signals.pondering.load(Ordering::SeqCst)) {
            let (signals, done) = (&**signals, &done);
            let spawned = std::thread::Builder::new()
                .name("deadline".into())
                .spawn_scoped(scope, move || time::watch(deadline, &SystemClock, signals, done));
            if let Err(e) = spawned {
                log::warn!("cannot start the deadline thread: {e}");
            }
        }
        search_and_answer(&cur, &job, searchmoves, &tt, &stats, plan);
        done.store(true, Ordering::Release);
    });
}

/// The search proper and its `bestmove`, while the deadline is watched.
fn search_and_answer<G: Strategy + Notation>(
    cur: &Current<G>,
    job: &SearchJob,
    searchmoves: Vec<G::Move>,
    tt: &SharedTable<G::Move>,
    stats: &SharedStats<G::Move>,
    plan: time::TimePlan,
) {
    let (signals, sink, root) = (&job.signals, &job.sink, &cur.pos);
    let mut guard = tt.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // The slot hands out a table that is ready; an empty one would be a bug, not a reason
    // to allocate a big table inside the move's time.
    let table = guard.get_or_insert_with(|| Table::new(1));
    let book = root.book_move().filter(|m| {
        let mut legal = Vec::new();
        root.legal_moves(&mut legal);
        legal.contains(m) && (searchmoves.is_empty() || searchmoves.contains(m))
    });
    let (best, ponder) = if let Some(m) = book {
        sink(Reply::InfoString(format!("book move {}", root.format_move(m))));
        (Some(m), None)
    } else {
        let limits =
            Limits { time: plan, depth: job.params.depth, nodes: job.params.nodes, multipv: job.multipv, searchmoves };
        let multipv = job.multipv;
        let mut report = |rep: &Report<G::Move>| sink(Reply::Info(info_of(root, rep, multipv)));
        let mut stats = stats.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let r = smp::search_with(
            root,
            &cur.history,
            &limits,
            table,
            signals,
            &mut stats,
            job.threads,
            job.start,
            &mut report,
        );
        (r.best, r.ponder)
    };
    drop(guard);

    // Never answer sooner than the minimum time, and never before `stop`/`ponderhit`
    // in an infinite or ponder search.
    loop {
        if signals.stop.load(Ordering::Relaxed) {
            break;
        }
        let waiting_for_gui = job.params.infinite || signals.pondering.load(Ordering::Relaxed);
        if !waiting_for_gui && job.start.elapsed() >= plan.minimum {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let ponder = ponder.map(|p| {
        let mut after = root.clone();
        if let Some(b) = best {
            after.play(b);
        }
        after.format_move(p)
    });
    sink(Reply::BestMove { mv: best.map(|m| root.format_move(m)), ponder });
}
