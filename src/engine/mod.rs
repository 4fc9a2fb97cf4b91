//! The engine: owns the options, the current game session and the running job. It knows
//! no protocol: it takes typed [`Command`]s and tells what happens as typed [`Event`]s
//! through its [`Sink`]; the dialects in `crate::protocol` turn lines into commands and
//! events into lines, as Stockfish's `Engine` sits under its `UCIEngine`.
//!
//! `isready`, `stop`, `ponderhit`, `gameover`, `d` and `moves` are answered while a job
//! runs (`stop`, `gameover` and `quit` end it). Any other command waits for a job with
//! limits of its own (a timed or fixed-depth search, perft, bench) to end, and stops an
//! open-ended one (infinite, ponder) first; the job's closing event always comes out
//! before the command's own answer. `quit` waits for a perft or bench.
//!
//! - [`board`]: one game's rules and position behind an object-safe face (no threads);
//! - [`session`]: the engine's game, a board joined to its job [`jobs::Runner`];
//! - [`jobs`]: search, perft and bench threads, the table and the statistics;
//! - [`levels`]: the playing levels of each game and their calibrated Elo;
//! - [`command`], [`event`]: the typed requests and answers.

pub(crate) mod board;
pub(crate) mod command;
pub(crate) mod event;
pub(crate) mod jobs;
pub(crate) mod levels;
pub(crate) mod options;
pub(crate) mod session;
mod table_slot;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

pub use board::{new_board, Board, PositionError};
pub use command::Command;
pub use event::{Event, Info, MateResult, Score, Sink};
pub use options::{DEFAULT_VARIANT, MAX_MULTIPV, MAX_THREADS};
pub use session::{new_session, Session};

use crate::game::{RuleSet, Scope};
use crate::games;
use crate::search::limits::GoParams;
use crate::search::skill::Skill;
use crate::search::time::TimeOptions;
use crate::search::Signals;
use jobs::{JobContext, SearchJob, SearchSettings};
use options::{Change, Options};

/// The deepest `go perft` (deeper counts would never end, and their move lists would not fit
/// in memory).
pub const MAX_PERFT_DEPTH: u32 = 64;

/// The most search threads a search runs: twice the machine's cores. Far more threads than
/// cores only take turns on them (on 2 cores, `Threads 64` overran `movetime 100` in 5 of
/// 8 searches and held 1.3 GB), so the rest of a larger `Threads` is not started.
pub fn thread_cap() -> usize {
    std::thread::available_parallelism().map_or(8, |n| n.get() * 2)
}

/// The engine's name in the handshake.
pub fn name() -> String {
    format!("koma {}", env!("CARGO_PKG_VERSION"))
}

/// What kind of job runs, which decides what a new command does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum JobKind {
    /// A search with limits of its own (time, depth, nodes, mate N): the next command that
    /// needs the engine waits for it; `stop` and `quit` end it at once.
    Search,
    /// A search that only `stop` (or `ponderhit`, or the end of input) ends: infinite,
    /// ponder, mate infinite, a bare `go`. A new command stops it.
    OpenEnded,
    /// `go perft` or `bench`: runs to its end before any other command but `stop`.
    Script,
}

/// Whether the caller goes on reading commands after one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    options: Options,
    session: Box<dyn Session>,
    signals: Arc<Signals>,
    job: Option<JoinHandle<()>>,
    /// What the running (or last) job is.
    job_kind: JobKind,
    sink: Sink,
}

impl Engine {
    pub fn new(sink: Sink) -> Engine {
        let options = Options::default();
        let session = new_session(options.variant, options.hash_mib)
            .or_else(|| games::names().first().and_then(|n| new_session(n, options.hash_mib)))
            .expect("at least one game is registered");
        let job_kind = JobKind::Script;
        Engine { options, session, signals: Arc::new(Signals::default()), job: None, job_kind, sink }
    }

    fn say(&self, e: Event) {
        (self.sink)(e)
    }

    fn error(&self, msg: impl Into<String>) {
        self.say(Event::Error(msg.into()));
    }

    /// Stops a running job and waits for its closing event.
    fn finish_job(&mut self) {
        if let Some(handle) = self.job.take() {
            self.signals.stop.store(true, Ordering::SeqCst);
            self.signals.pondering.store(false, Ordering::SeqCst);
            if handle.join().is_err() {
                self.error("the search thread failed; the position is unchanged");
            }
        }
    }

    /// End of input: like `quit`, but a job with limits of its own (time, depth, nodes)
    /// is allowed to finish, so `echo "go depth 8" | koma` prints the whole search.
    pub fn end_of_input(&mut self) {
        self.wait_for_limited_job();
        self.finish_job();
    }

    /// Waits for a running search, perft or bench that ends by limits of its own (not
    /// for an open-ended one: infinite, ponder, mate infinite, a bare `go`).
    pub fn wait_for_limited_job(&mut self) {
        if self.job_kind != JobKind::OpenEnded {
            if let Some(handle) = self.job.take() {
                if handle.join().is_err() {
                    self.error("the search thread failed; the position is unchanged");
                }
            }
        }
    }

    /// Before a command that needs the engine (another `go`, `position`, `setoption`,
    /// ...): a job with limits of its own runs to its end, as a script expects and as
    /// Stockfish does; an open-ended one (infinite, ponder) is stopped.
    fn settle_job(&mut self) {
        self.wait_for_limited_job();
        self.finish_job();
    }

    /// The current variant's name.
    pub fn variant(&self) -> &'static str {
        self.session.board().variant()
    }

    /// The current position and where its game stands (what `d` shows).
    pub fn state(&self) -> Result<crate::game::state::GameState, String> {
        self.session.board().state()
    }

    pub fn is_searching(&self) -> bool {
        self.job.as_ref().is_some_and(|h| !h.is_finished())
    }

    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Hello => {
                self.say(Event::Hello { name: name(), author: "the koma developers".into(), options: options::lines() })
            }
            Command::IsReady => {
                // A table being made for `USI_Hash` or `usinewgame` is waited for here.
                self.session.wait_ready();
                self.say(Event::Ready);
            }
            Command::SetOption { name, value } => {
                self.settle_job();
                self.set_option(&name, value.as_deref());
            }
            Command::Rules(set) => {
                self.settle_job();
                self.take_rules(&set);
            }
            Command::NewGame => {
                self.settle_job();
                self.session.new_game();
            }
            Command::Position { sfen, moves } => {
                self.settle_job();
                if let Err(e) = self.session.board_mut().set_position(sfen.as_deref(), &moves) {
                    self.error(format!("position rejected: {e}"));
                }
            }
            Command::Go(params) => {
                self.settle_job();
                self.go(params);
            }
            Command::CannotGo { why } => {
                self.settle_job();
                self.cannot_search(why, false);
            }
            Command::Perft(depth) if depth > MAX_PERFT_DEPTH => {
                self.error(format!("perft: depth {depth} is more than {MAX_PERFT_DEPTH}; nothing was counted"))
            }
            Command::Perft(depth) => {
                self.settle_job();
                let ctx = self.new_job(JobKind::Script);
                let started = self.session.start_perft(depth, ctx);
                self.started(started, "perft");
            }
            Command::Bench(depth) => {
                self.settle_job();
                let ctx = self.new_job(JobKind::Script);
                let started = self.session.start_bench(depth, ctx);
                self.started(started, "bench");
            }
            Command::Stop | Command::GameOver(_) => self.finish_job(),
            Command::PonderHit => {
                if self.signals.pondering.swap(false, Ordering::SeqCst) {
                    let _ = self.signals.ponderhit.set(Instant::now());
                }
            }
            Command::Quit => {
                // `quit` stops a search at once, as the protocols ask; a perft or bench
                // (a script's verb, which no GUI sends) is counted to its end first.
                if self.job_kind == JobKind::Script {
                    self.wait_for_limited_job();
                }
                self.finish_job();
                return Flow::Quit;
            }
            Command::Display => match self.session.board().state() {
                Ok(state) => self.say(Event::State(Box::new(state))),
                Err(e) => self.error(format!("d: {e}")),
            },
            Command::Moves => match self.session.board().legal_moves() {
                Ok(moves) => self.say(Event::Moves(moves)),
                Err(e) => self.error(format!("moves: {e}")),
            },
        }
        Flow::Continue
    }

    /// Keeps a started job's thread, or says why it did not start.
    fn started(&mut self, started: Result<JoinHandle<()>, String>, what: &str) {
        match started {
            Ok(handle) => self.job = Some(handle),
            Err(e) => self.error(format!("{what}: {e}")),
        }
    }

    /// Fresh signals for a job (search, perft, bench) of this kind.
    fn new_job(&mut self, kind: JobKind) -> JobContext {
        self.signals = Arc::new(Signals::default());
        self.job_kind = kind;
        JobContext { signals: Arc::clone(&self.signals), sink: Arc::clone(&self.sink), start: Instant::now() }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut next = self.options.clone();
        let change = match next.set(name, value) {
            Ok(change) => change,
            Err(e) => return self.error(e.to_string()),
        };
        match change {
            Change::Variant => {
                // The old session's table goes first, so that two tables are never held at
                // once (the option was checked: the new session cannot fail to start).
                self.session.release_table();
                let Some(mut session) = new_session(next.variant, next.hash_mib) else {
                    return self.error(format!("no variant '{}'", next.variant));
                };
                // The game's switch values, each read when it was set: taken whole.
                if let Some(settings) = next.settings(next.variant) {
                    if let Err(e) = session.board_mut().take_rule_set(settings, Scope::Rules) {
                        return self.error(e);
                    }
                }
                self.session = session;
                self.announce_variant();
            }
            Change::Hash => {
                if let Err(e) = self.session.set_hash(next.hash_mib) {
                    // The option keeps its old value, as the table keeps its old size.
                    return self.error(format!("option USI_Hash: {e}"));
                }
            }
            Change::Switch { variant, scope, name, value } => {
                if let (true, Some(settings)) = (variant == self.variant(), next.settings(variant)) {
                    let board = self.session.board_mut();
                    let at_start = board.state().is_ok_and(|st| st.sfen == board.startpos_sfen());
                    let reset = match board.take_rule_set(settings, scope) {
                        Ok(reset) => reset,
                        Err(e) => return self.error(e),
                    };
                    // Said when it throws away a position a GUI or script had set.
                    if reset && !at_start {
                        self.say(Event::Message(format!(
                            "{name} {value}: the position is the start position of {variant} again"
                        )));
                    }
                }
            }
            Change::Other => {
                if next.threads > thread_cap() && next.threads != self.options.threads {
                    self.say(Event::Message(format!(
                        "Threads {}: at most {} search threads run on this machine (twice its cores); more \
                         would only overrun the clock",
                        next.threads,
                        thread_cap()
                    )));
                }
            }
        }
        self.options = next;
    }

    /// [`Command::Rules`].
    fn take_rules(&mut self, set: &RuleSet) {
        if set.variant() != self.variant() {
            self.set_option("USI_Variant", Some(set.variant()));
            if set.variant() != self.variant() {
                return;
            }
        }
        let mut next = self.options.clone();
        let Some(values) = next.take_rules(set) else { return };
        match self.session.board_mut().take_rule_set(&values, Scope::Rules) {
            Ok(_) => self.options = next,
            Err(e) => self.error(e),
        }
    }

    fn announce_variant(&self) {
        if let Some(d) = games::descriptor(self.variant()) {
            let startpos = self.session.board().startpos_sfen();
            self.say(Event::VariantChanged { name: d.name, files: d.files, ranks: d.ranks, startpos });
        }
    }

    /// The answer to a `go` that cannot search: its closing event, after the error.
    fn cannot_search(&self, why: String, is_mate: bool) {
        self.error(why);
        if is_mate {
            // Not `nomate`: that would claim a proof about a position there is none of.
            self.say(Event::Checkmate(MateResult::Timeout));
        } else {
            self.say(Event::BestMove { mv: None, ponder: None });
        }
    }

    fn go(&mut self, params: GoParams) {
        let is_mate = params.mate.is_some();
        if let Some(why) = self.session.board().position_error() {
            return self.cannot_search(format!("go: no position to search: {why}"), is_mate);
        }
        // Open-ended: nothing but `stop` (or the end of input) ends it.
        let p = &params;
        let own_limit = [p.btime, p.wtime, p.binc, p.winc, p.byoyomi, p.movetime, p.nodes].iter().any(Option::is_some)
            || p.depth.is_some()
            || matches!(p.mate, Some(Some(_)));
        let open_ended = p.infinite || p.ponder || !own_limit;
        let ctx = self.new_job(if open_ended { JobKind::OpenEnded } else { JobKind::Search });
        self.signals.pondering.store(params.ponder, Ordering::SeqCst);
        let o = &self.options;
        let settings = SearchSettings {
            time: TimeOptions {
                minimum_ms: o.minimum_thinking_ms,
                overhead_ms: o.move_overhead_ms,
                byoyomi_overhead_ms: o.byoyomi_overhead_ms,
            },
            multipv: o.multipv,
            threads: o.threads.min(thread_cap()),
            own_book: o.own_book,
            book_seed: o.book_seed,
            skill: Skill::new(if o.level.limit_strength {
                levels::level_for_elo(self.variant(), o.level.elo)
            } else {
                o.level.skill_level
            }),
        };
        match self.session.start_search(SearchJob { params, settings, ctx }) {
            Ok(handle) => self.job = Some(handle),
            Err(e) => self.cannot_search(format!("go: {e}"), is_mate),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_job();
    }
}
