//! The engine: owns the options, the current game session and the search thread.
//!
//! It takes typed [`Command`]s and answers through the [`Sink`]. `isready`, `stop`,
//! `ponderhit`, `gameover`, `d` and `moves` are answered while a search runs; anything that
//! would change what the search works on stops it first (its `bestmove` comes out before
//! the command's own reply).

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use crate::games;
use crate::options::{Change, Options};
use crate::protocol::notation::ChessGame;
use crate::protocol::{Command, GoParams, MateResult, Reply};
use crate::search::time::TimeOptions;
use crate::search::Signals;
use crate::session::{SearchJob, Session, Sink};

/// Whether the protocol loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

pub struct Engine {
    options: Options,
    session: Box<dyn Session>,
    signals: Arc<Signals>,
    search: Option<JoinHandle<()>>,
    /// The running search only ends on `stop`/`ponderhit` (infinite, ponder, mate infinite).
    search_is_open_ended: bool,
    sink: Sink,
}

impl Engine {
    pub fn new(sink: Sink) -> Engine {
        let options = Options::default();
        let session = games::new_session(options.variant)
            .or_else(|| games::names().first().and_then(|n| games::new_session(n)))
            .expect("at least one game is registered");
        Engine {
            options,
            session,
            signals: Arc::new(Signals::default()),
            search: None,
            search_is_open_ended: false,
            sink,
        }
    }

    fn say(&self, r: Reply) {
        (self.sink)(r)
    }

    fn error(&self, msg: impl Into<String>) {
        self.say(Reply::Error(msg.into()));
    }

    /// Stops a running search and waits for its last reply.
    fn finish_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.signals.stop.store(true, Ordering::SeqCst);
            self.signals.pondering.store(false, Ordering::SeqCst);
            if handle.join().is_err() {
                self.error("the search thread failed; the position is unchanged");
            }
        }
    }

    /// End of input: like `quit`, but a search with limits of its own (time, depth,
    /// nodes) is allowed to finish, so `echo "go depth 8" | koma` prints the whole search.
    pub fn end_of_input(&mut self) {
        self.wait_for_limited_job();
        self.finish_search();
    }

    /// Waits for a running search, perft or bench that ends by limits of its own (not
    /// for an open-ended one: infinite, ponder, mate infinite, a bare `go`).
    pub fn wait_for_limited_job(&mut self) {
        if !self.search_is_open_ended {
            if let Some(handle) = self.search.take() {
                if handle.join().is_err() {
                    self.error("the search thread failed; the position is unchanged");
                }
            }
        }
    }

    /// The current game in the chess protocols (UCI, CECP), if it has a chess notation.
    pub fn chess_game(&self) -> Option<ChessGame> {
        self.session.chess_game()
    }

    /// The current variant's name.
    pub fn variant(&self) -> &'static str {
        self.session.variant()
    }

    /// The current position and where its game stands (what `d` prints).
    pub fn state(&self) -> Result<crate::state::GameState, String> {
        self.session.state()
    }

    pub fn is_searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    pub fn handle(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Usi => {
                self.say(Reply::Id {
                    name: format!("koma {}", env!("CARGO_PKG_VERSION")),
                    author: "the koma developers".into(),
                });
                for line in self.options.usi_lines() {
                    self.say(Reply::Option(line));
                }
                self.say(Reply::UsiOk);
            }
            Command::IsReady => {
                // A table being made for `USI_Hash` or `usinewgame` is waited for here.
                self.session.wait_ready();
                self.say(Reply::ReadyOk);
            }
            Command::SetOption { name, value } => {
                self.finish_search();
                self.set_option(&name, value.as_deref());
            }
            Command::NewGame => {
                self.finish_search();
                self.session.new_game();
            }
            Command::Position { sfen, moves } => {
                self.finish_search();
                if let Err(e) = self.session.set_position(sfen.as_deref(), &moves) {
                    self.error(format!("position rejected: {e}"));
                }
            }
            Command::Go(params) => {
                self.finish_search();
                self.go(params);
            }
            Command::Perft(depth) => {
                self.finish_search();
                let (signals, sink) = self.new_job(false);
                match self.session.start_perft(depth, signals, sink) {
                    Ok(handle) => self.search = Some(handle),
                    Err(e) => self.error(format!("perft: {e}")),
                }
            }
            Command::Stop | Command::GameOver(_) => self.finish_search(),
            Command::PonderHit => self.signals.pondering.store(false, Ordering::SeqCst),
            Command::Quit => {
                self.finish_search();
                return Flow::Quit;
            }
            Command::Display => match self.session.display() {
                Ok(lines) => lines.into_iter().for_each(|l| self.say(Reply::Text(l))),
                Err(e) => self.error(format!("d: {e}")),
            },
            Command::Moves => match self.session.legal_moves() {
                Ok(moves) => self.say(Reply::Moves(moves)),
                Err(e) => self.error(format!("moves: {e}")),
            },
            Command::Bench(depth) => {
                self.finish_search();
                let (signals, sink) = self.new_job(false);
                match self.session.start_bench(depth, signals, sink) {
                    Ok(handle) => self.search = Some(handle),
                    Err(e) => self.error(format!("bench: {e}")),
                }
            }
        }
        Flow::Continue
    }

    /// Fresh signals for a job on the search thread (search, perft, bench); `open_ended`:
    /// only `stop` (or the end of input) ends it.
    fn new_job(&mut self, open_ended: bool) -> (Arc<Signals>, Sink) {
        self.signals = Arc::new(Signals::default());
        self.search_is_open_ended = open_ended;
        (Arc::clone(&self.signals), Arc::clone(&self.sink))
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let mut next = self.options.clone();
        match next.set(name, value) {
            Err(e) => self.error(e.to_string()),
            Ok(change) => {
                match change {
                    Change::Variant => {
                        let Some(mut session) = games::new_session(next.variant) else {
                            return self.error(format!("no variant '{}'", next.variant));
                        };
                        for (opt_name, v) in &next.rules {
                            if session.rule_options().iter().any(|o| o.name == *opt_name) {
                                if let Err(e) = session.set_rule(opt_name, v) {
                                    return self.error(e.to_string());
                                }
                            }
                        }
                        session.set_hash(next.hash_mib);
                        self.session = session;
                        self.say(Reply::InfoString(self.session.describe()));
                    }
                    Change::Hash => self.session.set_hash(next.hash_mib),
                    Change::Rule { variant, name, value } => {
                        if variant == self.session.variant() {
                            if let Err(e) = self.session.set_rule(name, &value) {
                                return self.error(e.to_string());
                            }
                        }
                    }
                    Change::Other => {}
                }
                self.options = next;
            }
        }
    }

    fn go(&mut self, params: GoParams) {
        if let Some(why) = self.session.position_error() {
            self.error(format!("go: no position to search: {why}"));
            if params.mate.is_some() {
                // Not `nomate`: that would claim a proof about a position there is none of.
                self.say(Reply::Checkmate(MateResult::Timeout));
            } else {
                self.say(Reply::BestMove { mv: None, ponder: None });
            }
            return;
        }
        // Open-ended: nothing but `stop` (or the end of input) ends it.
        let p = &params;
        let own_limit = [p.btime, p.wtime, p.binc, p.winc, p.byoyomi, p.movetime, p.nodes].iter().any(Option::is_some)
            || p.depth.is_some()
            || matches!(p.mate, Some(Some(_)));
        let open_ended = p.infinite || p.ponder || !own_limit;
        self.new_job(open_ended);
        self.signals.pondering.store(params.ponder, Ordering::SeqCst);
        let is_mate = params.mate.is_some();
        let job = SearchJob {
            params,
            time: TimeOptions {
                minimum_ms: self.options.minimum_thinking_ms,
                overhead_ms: self.options.move_overhead_ms,
                byoyomi_overhead_ms: self.options.byoyomi_overhead_ms,
            },
            multipv: self.options.multipv,
            threads: self.options.threads,
            signals: Arc::clone(&self.signals),
            sink: Arc::clone(&self.sink),
            start: Instant::now(),
        };
        match self.session.start_search(job) {
            Ok(handle) => self.search = Some(handle),
            Err(e) => {
                self.error(format!("go: {e}"));
                if is_mate {
                    self.say(Reply::Checkmate(MateResult::Timeout));
                } else {
                    self.say(Reply::BestMove { mv: None, ponder: None });
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish_search();
    }
}
