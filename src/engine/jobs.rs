//! The job runner: searches, perft counts and `bench` runs, each on a thread of its own,
//! with the transposition table and move-ordering statistics that a game's searches share.
//! Every job reports through the [`Sink`] as typed [`Event`]s and ends with its closing
//! event (`BestMove`, `Checkmate`, `PerftTotal`, `BenchTotal`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::event::{Event, Info, MateResult, Score, Sink};
use super::table_slot::{SharedTable, TableSlot};
use crate::game::perft;
use crate::game::referee::Referee;
use crate::game::{BookChoice, Strategy};
use crate::search::history::Histories;
use crate::search::limits::GoParams;
use crate::search::mate::{self, MateAnswer};
use crate::search::prove::{prove, Proof, Sources};
use crate::search::skill::Skill;
use crate::search::smp::SearchContext;
use crate::search::solve::{Budget, Solver, Value};
use crate::search::time::{self, Deadline, SystemClock, TimeOptions};
use crate::search::tt::Table;
use crate::search::{mate_plies, smp, Limits, Report, Searcher, Signals};

/// What every job carries: how it is stopped, where it reports, and when it was asked for.
#[derive(Clone)]
pub struct JobContext {
    pub signals: Arc<Signals>,
    pub sink: Sink,
    /// When the command arrived (a search's clock starts here).
    pub start: Instant,
}

impl JobContext {
    fn say(&self, e: Event) {
        (self.sink)(e)
    }

    fn stopped(&self) -> bool {
        self.signals.stop.load(Ordering::Relaxed)
    }
}

/// The engine's settings a search reads (from the options).
#[derive(Clone, Copy, Debug)]
pub struct SearchSettings {
    pub time: TimeOptions,
    pub multipv: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Play the game's book move where it has one (`USI_OwnBook`).
    pub own_book: bool,
    /// `BookSeed`: 0 draws the book's mixed choices afresh; another number repeats them.
    pub book_seed: u64,
    /// A playing level below full strength (`SkillLevel`, `USI_Elo`); `None` plays the
    /// full search.
    pub skill: Option<Skill>,
}

/// Everything a search needs besides the position.
pub struct SearchJob {
    pub params: GoParams,
    pub settings: SearchSettings,
    pub ctx: JobContext,
}

type SharedStats<M> = Arc<Mutex<Vec<Histories<M>>>>;

/// The exact solver of a game solved in play ([`Strategy::SOLVE_FIRST`]), with the rules
/// its table's facts hold for. Its facts hold wherever a position is met, so it lives
/// across searches and games; a change of rules starts it afresh.
type SharedSolver<G> = Arc<Mutex<Option<(<G as crate::game::Game>::Rules, Solver<G>)>>>;

/// The solver's table entries per MiB of `USI_Hash` (an entry holds a position, about
/// 100 bytes with the map's overhead).
const SOLVER_ENTRIES_PER_MIB: usize = 8 << 10;
/// The solver's share of a `go` on the clock (the rest is left for the search when the
/// position is not proven), and its budget when the `go` has no clock.
const SOLVER_SHARE: u32 = 2;
const SOLVER_UNTIMED_MS: u64 = 10_000;
/// The table and statistics of one game's searches, and the threads that use them.
pub(crate) struct Runner<G: Strategy> {
    tt: TableSlot<G::Move>,
    /// The move-ordering statistics (one per search thread) that the searches of a game
    /// hand on to the next; `usinewgame` starts afresh (a new set, so that a running
    /// search is never waited for).
    stats: SharedStats<G::Move>,
    solver: SharedSolver<G>,
    hash_mib: usize,
}

fn spawn(name: &str, stack: Option<usize>, body: impl FnOnce() + Send + 'static) -> Result<JoinHandle<()>, String> {
    let mut builder = std::thread::Builder::new().name(name.into());
    if let Some(bytes) = stack {
        builder = builder.stack_size(bytes);
    }
    builder.spawn(body).map_err(|e| format!("cannot start the {name} thread: {e}"))
}

impl<G: Strategy> Runner<G> {
    /// Starts making a table of `hash_mib` MiB in the background.
    pub(crate) fn new(hash_mib: usize) -> Self {
        Runner {
            tt: TableSlot::new(hash_mib),
            stats: SharedStats::default(),
            solver: SharedSolver::default(),
            hash_mib,
        }
    }

    /// `usinewgame`: forget what earlier games taught the table (cleared off the clock).
    pub(crate) fn new_game(&mut self) {
        self.tt.clear();
        self.stats = SharedStats::default();
    }

    /// `USI_Hash`: a table of this size is made in the background.
    pub(crate) fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.tt.resize(mib)?;
        self.hash_mib = mib;
        self.solver = SharedSolver::default();
        Ok(())
    }

    /// `isready`: waits until the table is ready.
    pub(crate) fn wait_ready(&mut self) {
        self.tt.wait_ready();
    }

    /// Drops the table now; a later search makes a new one.
    pub(crate) fn release_table(&mut self) {
        self.tt.release();
    }

    /// `go perft N`: one event per move (sorted by token), then the total; a stop ends it
    /// early with what it has, marked.
    pub(crate) fn start_perft(&self, cur: &Referee<G>, depth: u32, ctx: JobContext) -> Result<JoinHandle<()>, String> {
        let pos = cur.pos().clone();
        spawn("perft", None, move || {
            let (lines, of) = perft::divide_until(&pos, depth, &ctx.signals.stop);
            let total: u64 = lines.iter().map(|l| l.1).sum();
            let done = lines.len();
            ctx.say(Event::PerftMoves(lines));
            let (nodes, stopped) =
                if ctx.stopped() { (total, Some((done, of))) } else { (if depth == 0 { 1 } else { total }, None) };
            ctx.say(Event::PerftTotal { nodes, stopped });
        })
    }

    /// `go`: a search thread that ends with exactly one `BestMove` or `Checkmate`.
    pub(crate) fn start_search(
        &mut self,
        cur: &Referee<G>,
        rules: G::Rules,
        job: SearchJob,
    ) -> Result<JoinHandle<()>, String> {
        let cur = cur.clone();
        let mut searchmoves = Vec::new();
        for t in &job.params.searchmoves {
            match cur.pos().parse_move(t) {
                Ok(m) => searchmoves.push(m),
                Err(e) => {
                    // A bad list is ignored whole: all moves are searched, never a resignation.
                    job.ctx.say(Event::Error(format!("go: searchmoves ignored, all moves are searched: {e}")));
                    searchmoves.clear();
                    break;
                }
            }
        }
        // A search without a clock has no reason to hurry: it waits for the table being
        // made, so that a fixed-depth search gives the same answer whenever it is sent
        // (with the stand-in table it would not). A search on the clock never waits.
        let p = &job.params;
        if [p.btime, p.wtime, p.binc, p.winc, p.byoyomi, p.movetime].iter().all(Option::is_none) {
            self.tt.wait_ready();
        }
        let tt = self.tt.for_search();
        let stats = Arc::clone(&self.stats);
        let solver =
            SolverSlot { solver: Arc::clone(&self.solver), rules, entries: self.hash_mib * SOLVER_ENTRIES_PER_MIB };
        spawn("search", Some(smp::STACK_BYTES), move || run_search(cur, job, searchmoves, tt, stats, solver))
    }

    /// `bench`: `positions` to a fixed depth, each reported, then the totals; a stop
    /// ends it early with the totals so far, marked.
    pub(crate) fn start_bench(&self, positions: Vec<G>, depth: u32, ctx: JobContext) -> Result<JoinHandle<()>, String> {
        spawn("bench", Some(smp::STACK_BYTES), move || bench(&positions, depth, &ctx))
    }
}

/// The tokens of a line of moves from `pos`.
fn tokens<G: Strategy>(pos: &G, line: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    line.iter()
        .map(|&m| {
            let t = p.format_move(m);
            p.play(m);
            t
        })
        .collect()
}

fn info_of<G: Strategy>(root: &G, r: &Report<G::Move>, multipv: usize) -> Info {
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
        exact: false,
        pv: tokens(root, &r.pv),
    }
}

/// The body of the bench thread.
fn bench<G: Strategy>(positions: &[G], depth: u32, ctx: &JobContext) {
    let table = Table::new(crate::engine::options::DEFAULT_HASH_MIB);
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
        let mut s = Searcher::new(&table, &ctx.signals, &history);
        let r = s.run(pos, &limits, Instant::now(), &mut |_| {});
        total += r.nodes;
        if ctx.stopped() {
            ctx.say(Event::BenchStopped { index: i + 1, of: positions.len() });
            break;
        }
        let best = r.best.map(|m| pos.format_move(m));
        ctx.say(Event::BenchPosition { index: i + 1, nodes: r.nodes, best, sfen: pos.to_sfen() });
    }
    let ms = start.elapsed().as_millis() as u64;
    ctx.say(Event::BenchTotal { ms, nodes: total, nps: total * 1000 / ms.max(1), stopped: ctx.stopped() });
}

/// The body of the search thread.
fn run_search<G: Strategy>(
    cur: Referee<G>,
    job: SearchJob,
    searchmoves: Vec<G::Move>,
    tt: SharedTable<G::Move>,
    stats: SharedStats<G::Move>,
    solver: SolverSlot<G>,
) {
    let ctx = &job.ctx;
    let root = cur.pos();
    // The referee's verdict first: the full state (diagram, SFEN) only for a finished game.
    if let Some(result) = cur.verdict().and_then(|_| cur.state().result) {
        ctx.say(Event::GameOver { by: None, result });
    }
    let plan = time::plan(&job.params, root.side_to_move(), job.settings.time);

    if let Some(mate_limit) = job.params.mate {
        // A deadline too far to represent is no deadline.
        let deadline = mate_limit.and_then(|ms| ctx.start.checked_add(Duration::from_millis(ms)));
        let found = if G::MATE_BY_SOLVER {
            let max_ms = deadline.map(|d| d.saturating_duration_since(Instant::now()).as_millis() as u64);
            let budget = Budget { max_ms, stop: Some(Arc::clone(&ctx.signals)), ..Budget::default() };
            Solver::<G>::new().mate(root, &budget)
        } else {
            mate::solve(root, &ctx.signals, deadline)
        };
        let answer = match found {
            MateAnswer::Mate(pv) => MateResult::Mate(tokens(root, &pv)),
            MateAnswer::NoMate => MateResult::NoMate,
            MateAnswer::Timeout => MateResult::Timeout,
        };
        ctx.say(Event::Checkmate(answer));
        return;
    }

    // The hard deadline, by the wall clock, on a thread of its own.
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        if let Some(deadline) = Deadline::new(&plan, ctx.start, ctx.signals.pondering.load(Ordering::SeqCst)) {
            let (signals, done) = (&*ctx.signals, &done);
            let spawned = std::thread::Builder::new()
                .name("deadline".into())
                .spawn_scoped(scope, move || time::watch(deadline, &SystemClock, signals, done));
            if let Err(e) = spawned {
                log::warn!("cannot start the deadline thread: {e}");
            }
        }
        search_and_answer(&cur, &job, searchmoves, &tt, &stats, &solver, plan);
        done.store(true, Ordering::Release);
    });
}

/// The search proper and its `bestmove`, while the deadline is watched.
fn search_and_answer<G: Strategy>(
    cur: &Referee<G>,
    job: &SearchJob,
    searchmoves: Vec<G::Move>,
    tt: &SharedTable<G::Move>,
    stats: &SharedStats<G::Move>,
    solver: &SolverSlot<G>,
    plan: time::TimePlan,
) {
    let (ctx, root) = (&job.ctx, cur.pos());
    let signals = &ctx.signals;
    let mut guard = tt.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // The slot hands out a table that is ready; an empty one would be a bug, not a reason
    // to allocate a big table inside the move's time.
    let table = guard.get_or_insert_with(|| Table::new(1));
    let choice = BookChoice { random: book_random(job.settings.book_seed, root.key()) };
    let book = root.book_move(&choice).filter(|_| job.settings.own_book).filter(|m| {
        let mut legal = Vec::new();
        root.legal_moves(&mut legal);
        legal.contains(m) && (searchmoves.is_empty() || searchmoves.contains(m))
    });
    // A level below the top never plays a proven move (Number Shogi's table and solver
    // are perfect play): it searches, and chooses as its level does.
    let proven = if book.is_none() && searchmoves.is_empty() && job.settings.skill.is_none() {
        proven_move(cur, job, &plan, solver)
    } else {
        None
    };
    let (best, ponder) = if let Some(m) = book {
        ctx.say(Event::BookMove(root.format_move(m)));
        (Some(m), None)
    } else if let Some(m) = proven {
        (Some(m), None)
    } else {
        let skill = job.settings.skill;
        let multipv = skill.map_or(job.settings.multipv, |s| job.settings.multipv.max(s.candidates()));
        let depth = match (job.params.depth, skill) {
            (d, None) => d,
            (d, Some(s)) => Some(d.map_or(s.depth(), |d| d.min(s.depth()))),
        };
        let limits = Limits { time: plan, depth, nodes: job.params.nodes, multipv, searchmoves };
        // The latest line of each rank (a level chooses among them).
        let mut lines: Vec<(i32, Vec<G::Move>)> = Vec::new();
        let mut report = |rep: &Report<G::Move>| {
            ctx.say(Event::Info(info_of(root, rep, multipv)));
            if lines.len() < rep.multipv {
                lines.resize(rep.multipv, (i32::MIN, Vec::new()));
            }
            lines[rep.multipv - 1] = (rep.score, rep.pv.clone());
        };
        let mut stats = stats.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let threads = job.settings.threads;
        let r = smp::search_with(
            root,
            cur.history(),
            &limits,
            &SearchContext { tt: table, signals, threads, start: ctx.start },
            &mut stats,
            &mut report,
        );
        match skill {
            Some(s) if lines.len() > 1 => {
                // Best first (a line the stop cut off keeps its last finished score).
                lines.sort_by_key(|l| std::cmp::Reverse(l.0));
                let scores: Vec<i32> = lines.iter().map(|l| l.0).collect();
                let pv = &lines[s.pick(&scores, level_random(job.settings.book_seed, root.key()))].1;
                (pv.first().copied().or(r.best), pv.get(1).copied())
            }
            _ => (r.best, r.ponder),
        }
    };
    drop(guard);

    // Never answer sooner than the minimum time, and never before `stop`/`ponderhit`
    // in an infinite or ponder search.
    loop {
        if signals.stop.load(Ordering::Relaxed) {
            break;
        }
        let waiting_for_gui = job.params.infinite || signals.pondering.load(Ordering::Relaxed);
        // After `ponderhit` the move's clock, and so the minimum, starts then.
        let clock_start = signals.ponderhit.get().copied().unwrap_or(ctx.start);
        if !waiting_for_gui && clock_start.elapsed() >= plan.minimum {
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
    if let Some(b) = best {
        let mut after = cur.clone();
        after.play(b);
        if let Some(result) = after.verdict().and_then(|_| after.state().result) {
            ctx.say(Event::GameOver { by: Some(root.format_move(b)), result });
        }
    }
    ctx.say(Event::BestMove { mv: best.map(|m| root.format_move(m)), ponder });
}

/// The book's random number: fresh for `BookSeed` 0, else a function of the seed and the
/// position, so that a seed repeats a whole game's choices.
fn book_random(seed: u64, key: u64) -> u64 {
    use crate::game::zobrist::mix;
    use std::hash::BuildHasher;
    if seed == 0 {
        std::collections::hash_map::RandomState::new().hash_one((key, Instant::now()))
    } else {
        mix(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ mix(key))
    }
}

/// The random number of a level's choice: as [`book_random`]'s (fresh for `BookSeed` 0,
/// else repeated by the seed), but not the same number as the book's draw.
fn level_random(seed: u64, key: u64) -> u64 {
    book_random(seed, key ^ 0x5eed_1e7e_15ca_1e00)
}

/// What a search thread needs of the runner's solver.
pub(crate) struct SolverSlot<G: Strategy> {
    solver: SharedSolver<G>,
    rules: G::Rules,
    entries: usize,
}

/// In a game solved in play: the proven move ([`prove`]: the shipped table, else the
/// solver within its share of the time), reported as an exact `score mate` (or 0 for a
/// draw) and an `info string` saying the position is solved. `None`: not a `go` for the
/// solver (a depth or node limit, MultiPV, pondering, the game over) or not proven in
/// time: the search plays.
fn proven_move<G: Strategy>(
    cur: &Referee<G>,
    job: &SearchJob,
    plan: &time::TimePlan,
    slot: &SolverSlot<G>,
) -> Option<G::Move> {
    let (ctx, p, root) = (&job.ctx, &job.params, cur.pos());
    if !G::SOLVE_FIRST
        || p.depth.is_some()
        || p.nodes.is_some()
        || job.settings.multipv > 1
        || ctx.signals.pondering.load(Ordering::Relaxed)
        || root.result().is_some()
    {
        return None;
    }
    let mut guard = slot.solver.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // The solver keeps the rules its facts hold for: this search's copy, so that it holds
    // nothing the game has let go of (a Number Shogi table of another file); other rules
    // start it afresh.
    match guard.as_mut() {
        Some((rules, _)) if *rules == slot.rules => *rules = slot.rules.clone(),
        _ => *guard = None,
    }
    let max_ms = match plan.optimum {
        Some(o) => (o / SOLVER_SHARE).saturating_sub(ctx.start.elapsed()).as_millis() as u64,
        None => SOLVER_UNTIMED_MS,
    };
    let (_, solver) = guard.get_or_insert_with(|| (slot.rules.clone(), Solver::with_table_entries(slot.entries)));
    let budget = Budget { max_ms: Some(max_ms), stop: Some(Arc::clone(&ctx.signals)), ..Budget::default() };
    let proof = prove(cur, solver, &budget, Sources::TableAndSolver, &mut |e| ctx.say(Event::Error(e))).ok()?;
    let (value, &best) = (proof.value?, proof.pv.first()?);
    report_proven(root, ctx, &proof, value);
    Some(best)
}

/// The proven value as the engine says it: an exact `info` and an `info string`.
fn report_proven<G: Strategy>(root: &G, ctx: &JobContext, proof: &Proof<G::Move>, value: Value) {
    let n = proof.plies as i32;
    let score = match value {
        Value::Win => Score::Mate(n),
        Value::Loss => Score::Mate(-n),
        Value::Draw => Score::Cp(0),
    };
    let (nodes, ms) = (proof.nodes, proof.ms);
    let info = Info {
        depth: proof.plies.max(1),
        seldepth: proof.plies.max(1),
        multipv: None,
        score: Some(score),
        nodes,
        nps: nodes * 1000 / ms.max(1),
        time_ms: ms,
        hashfull: 0,
        pv: tokens(root, &proof.pv),
        exact: true,
    };
    ctx.say(Event::Info(info));
    let plies = proof.plies;
    let what = match value {
        Value::Win => format!("a win in {plies} plies"),
        Value::Loss => format!("a loss in {plies} plies"),
        Value::Draw => "a draw".to_string(),
    };
    ctx.say(Event::Message(format!("solved: {what} for the side to move, proven by {}", proof.by.name())));
}
