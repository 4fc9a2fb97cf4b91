//! A game session: the engine's one game, behind an object-safe face. It joins the
//! game's [`Board`] (rules, position) and its job [`Runner`] (table, statistics,
//! threads). The engine picks the session when the variant is chosen and from then on
//! never matches on the variant again.

use std::thread::JoinHandle;

use super::board::Board;
use super::event::Event;
use super::jobs::{JobContext, Runner, SearchJob};
use crate::game::{LiveGame, Notation, RuleSet, Strategy};
use crate::games::{self, Visitor};

/// The variant-independent face of the engine's game.
pub trait Session: Send {
    fn board(&self) -> &Board;
    fn board_mut(&mut self) -> &mut Board;
    /// `go perft N` on a thread of its own.
    fn start_perft(&self, depth: u32, ctx: JobContext) -> Result<JoinHandle<()>, String>;
    /// `go`: starts a search thread that ends with exactly one `bestmove` or `checkmate`.
    fn start_search(&mut self, job: SearchJob) -> Result<JoinHandle<()>, String>;
    /// `bench` on a thread of its own: the start position and the game's bench positions
    /// to `depth` (the game's bench depth if `None`).
    fn start_bench(&self, depth: Option<u32>, ctx: JobContext) -> Result<JoinHandle<()>, String>;
    /// `usinewgame`: forget what earlier games taught the table (cleared off the clock).
    fn new_game(&mut self);
    /// `USI_Hash`: a table of this size is made in the background; an error (the table
    /// kept at its old size) when the memory cannot be had.
    fn set_hash(&mut self, mib: usize) -> Result<(), String>;
    /// `isready`: waits until the table is ready.
    fn wait_ready(&mut self);
    /// Drops the table now (before another session makes its own); a later search makes
    /// a new one.
    fn release_table(&mut self);
}

/// [`Session`] for game `G`.
pub(crate) struct GameSession<G: Strategy> {
    board: Board,
    runner: Runner<G>,
}

impl<G: Strategy> GameSession<G> {
    /// The start position with default rules; a table of `hash_mib` MiB is made in the
    /// background.
    pub(crate) fn new(hash_mib: usize) -> Self {
        G::prepare();
        GameSession { board: Board::new(RuleSet::of::<G>()), runner: Runner::new(hash_mib) }
    }
}

/// The board's typed game, or why there is no position to work on.
fn typed<G: Strategy>(board: &Board) -> Result<&LiveGame<G>, String> {
    let live = board.live()?;
    live.as_any().downcast_ref::<LiveGame<G>>().ok_or_else(|| format!("the game is not {}", G::NAME))
}

impl<G: Strategy> Session for GameSession<G> {
    fn board(&self) -> &Board {
        &self.board
    }

    fn board_mut(&mut self) -> &mut Board {
        &mut self.board
    }

    fn start_perft(&self, depth: u32, ctx: JobContext) -> Result<JoinHandle<()>, String> {
        self.runner.start_perft(typed::<G>(&self.board)?.referee(), depth, ctx)
    }

    fn start_search(&mut self, job: SearchJob) -> Result<JoinHandle<()>, String> {
        let game = typed::<G>(&self.board)?;
        let (cur, rules) = (game.referee(), game.rules().clone());
        self.runner.start_search(cur, rules, job)
    }

    fn start_bench(&self, depth: Option<u32>, ctx: JobContext) -> Result<JoinHandle<()>, String> {
        let depth = depth.unwrap_or(G::BENCH_DEPTH).clamp(1, 64);
        let rules = self.board.rule_set().rules::<G>().ok_or_else(|| format!("the rules are not {}'s", G::NAME))?;
        let mut positions = vec![G::startpos(rules)];
        for s in G::BENCH_POSITIONS {
            match G::from_sfen(s, rules) {
                Ok(p) => positions.push(p),
                Err(e) => (ctx.sink)(Event::Error(format!("bench position '{s}': {e}"))),
            }
        }
        self.runner.start_bench(positions, depth, ctx)
    }

    fn new_game(&mut self) {
        self.runner.new_game();
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        self.runner.set_hash(mib)
    }

    fn wait_ready(&mut self) {
        self.runner.wait_ready();
    }

    fn release_table(&mut self) {
        self.runner.release_table();
    }
}

struct NewSession(usize);

impl Visitor for NewSession {
    type Output = Box<dyn Session>;
    fn visit<G: Strategy + Notation>(self) -> Box<dyn Session> {
        Box::new(GameSession::<G>::new(self.0))
    }
}

/// A session of the variant named `name` (start position, default rules) with a table of
/// `hash_mib` MiB made in the background.
pub fn new_session(name: &str, hash_mib: usize) -> Option<Box<dyn Session>> {
    games::visit(name, NewSession(hash_mib))
}
