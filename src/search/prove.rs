//! The engine's one path to an exact value, shared by its proven moves (`go` in a game
//! solved in play), the game report, `koma serve`'s exploration, `koma solve` and the
//! Python module's `koma.solve`: the referee's verdict if the game is over, else the
//! game's shipped table ([`Strategy::known`]), else the exact solver within a budget.

use std::time::Instant;

use super::mate::MateAnswer;
use super::solve::{Budget, Solver, Value};
use crate::game::referee::Referee;
use crate::game::Strategy;

/// Where an exact value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProvenBy {
    /// The game is over: the referee's verdict.
    Rules,
    /// The game's shipped table (Number Shogi's).
    Table,
    /// The exact solver.
    Solver,
}

impl ProvenBy {
    /// As the engine's `info string solved: ..., proven by ...` says it.
    pub fn name(self) -> &'static str {
        match self {
            ProvenBy::Rules => "the rules",
            ProvenBy::Table => "the shipped table",
            ProvenBy::Solver => "the solver",
        }
    }
}

/// What a proof may consult besides the solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sources {
    /// The game's shipped table first (the engine, the report, exploration, `koma.solve`).
    TableAndSolver,
    /// The solver alone: `koma solve`, which makes and checks the table.
    SolverOnly,
}

/// What [`prove`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof<M> {
    /// For the side to move; `None`: the budget ran out first.
    pub value: Option<Value>,
    /// Plies to the end with best play (the fastest win, the slowest loss); 0 for a draw
    /// or a finished game.
    pub plies: u32,
    /// A move that keeps the value first, then (for a win the solver proved) the line to
    /// the end; empty when the game is over or the value unknown.
    pub pv: Vec<M>,
    /// Positions the solver expanded (0 for the rules and the table).
    pub nodes: u64,
    pub ms: u64,
    pub by: ProvenBy,
}

/// Why a position has no exact value to ask for.
pub const IN_PLACEMENT: &str = "the position is in the placement phase: the solver starts after setup";

/// The exact value of the game followed by `game`: its verdict, the game's table, else
/// `solver` (whose facts hold wherever a position is met, so one solver may serve many
/// positions of a game) within `budget`. A table that cannot be used is reported to
/// `unusable` and the solver answers instead. `Err`: the placement phase, where setups
/// are hidden and nothing is solved.
pub fn prove<G: Strategy + PartialEq>(
    game: &Referee<G>,
    solver: &mut Solver<G>,
    budget: &Budget,
    sources: Sources,
    unusable: &mut dyn FnMut(String),
) -> Result<Proof<G::Move>, String> {
    let started = Instant::now();
    if let Some(v) = game.verdict() {
        return Ok(Proof {
            value: Some(v.outcome.into()),
            plies: 0,
            pv: Vec::new(),
            nodes: 0,
            ms: 0,
            by: ProvenBy::Rules,
        });
    }
    let pos = game.pos();
    if pos.in_placement() {
        return Err(IN_PLACEMENT.into());
    }
    let known = if sources == Sources::TableAndSolver { pos.known() } else { None };
    match known {
        Some(Ok(k)) => {
            let ms = started.elapsed().as_millis() as u64;
            return Ok(Proof {
                value: Some(k.outcome.into()),
                plies: k.plies,
                pv: vec![k.best],
                nodes: 0,
                ms,
                by: ProvenBy::Table,
            });
        }
        Some(Err(e)) => unusable(e),
        None => {}
    }
    let s = solver.solve(pos, budget);
    let mut pv: Vec<G::Move> = s.bestmove.into_iter().collect();
    // A win's line, read off the solver's table (cheap after the proof).
    if s.value == Some(Value::Win) {
        if let MateAnswer::Mate(line) = solver.mate(pos, &Budget::default()) {
            if line.first() == pv.first() {
                pv = line;
            }
        }
    }
    let plies = if s.value.is_some() { s.plies } else { 0 };
    let ms = started.elapsed().as_millis() as u64;
    Ok(Proof { value: s.value, plies, pv, nodes: s.nodes, ms, by: ProvenBy::Solver })
}

/// What `koma solve` (and the Python binding's `koma.solve`) says of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exact {
    /// For the side to move; `None`: the budget ran out first.
    pub value: Option<Value>,
    /// Plies to the end with best play (the fastest win, the slowest loss); 0 for a draw
    /// or a finished game; `None` with no value.
    pub plies: Option<u32>,
    /// A move that keeps the value; `None` when the game is over or the value unknown.
    pub bestmove: Option<String>,
    pub nodes: u64,
    pub ms: u64,
    pub by: ProvenBy,
}

/// [`prove`] with a solver of its own, in move tokens (`koma solve`, `koma.solve`).
pub fn solve_game<G: Strategy + PartialEq>(
    game: &Referee<G>,
    budget: &Budget,
    sources: Sources,
) -> Result<Exact, String> {
    let p = prove(game, &mut Solver::new(), budget, sources, &mut |_| {})?;
    Ok(Exact {
        value: p.value,
        plies: p.value.map(|_| p.plies),
        bestmove: p.pv.first().map(|&m| game.pos().format_move(m)),
        nodes: p.nodes,
        ms: p.ms,
        by: p.by,
    })
}
