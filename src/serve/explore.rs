//! `explore`: every legal move of a position with its exact value, as a chess tablebase
//! explorer shows them ("wins in 7", "loses in 12", "draw"), from the exact solver
//! ([`crate::search::solve`]). Only games the solver plays ([`Strategy::MATE_BY_SOLVER`]:
//! Number Shogi, the crab games), never during a placement (Number Shogi's setup is
//! hidden). The request is stateless (the position is in it); the work runs on tokio's
//! blocking threads, within [`MAX_MS`], at most [`MAX_RUNNING`] in the whole server, so it
//! never holds up the games. A connection has one exploration at a time, running or
//! waiting; the waiting ones start in the order they were asked (a fair queue), so a
//! page that asks again as soon as it is answered cannot keep another page out.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use super::messages::{self, ExploreRequest};
use super::outbox::Outbox;
use crate::game::{Live, LiveGame, MoveError, Notation, RuleSet, Scope, Strategy};
use crate::games::{self, Visitor};
use crate::search::prove::{prove, Proof, Sources};
use crate::search::solve::{Budget, Solver, Value as Proven};

/// The longest an exploration runs; moves not solved by then are `unknown`.
pub const MAX_MS: u64 = 4000;

/// Explorations running at once in the whole server (the machine's cores are the games').
pub const MAX_RUNNING: usize = 2;

/// The solver's table for one exploration, in positions (about 100 bytes each).
const TABLE_ENTRIES: usize = 1 << 18;

/// One move and its value for the side that plays it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    /// `win`, `loss`, `draw`, or `unknown` (not solved in time).
    pub value: &'static str,
    /// Plies to the end with best play, this move included (fastest win, slowest loss);
    /// `null` for a draw or an unknown value.
    pub plies: Option<u32>,
}

/// The connections with an exploration running or waiting.
static RUNNING: Mutex<Vec<Outbox>> = Mutex::new(Vec::new());

/// One permit per exploration that may run; tokio's semaphore serves its waiters first
/// come, first served.
static SLOTS: Semaphore = Semaphore::const_new(MAX_RUNNING);

/// Takes a place in [`RUNNING`] for `out`, given back when dropped.
struct Place(Outbox);

impl Place {
    fn take(out: &Outbox) -> Result<Place, String> {
        let mut running = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
        if running.iter().any(|o| o.same(out)) {
            return Err("an exploration is already running for this page: wait for its answer".into());
        }
        running.push(out.clone());
        Ok(Place(out.clone()))
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|p| p.into_inner());
        running.retain(|o| !o.same(&self.0));
    }
}

/// Starts the exploration of `req` for the connection `out` once its turn comes; its
/// answer (an `explore` or an `error` message) comes on `out`. `Err`: the error message to
/// answer now.
pub fn start(req: ExploreRequest, out: &Outbox) -> Result<(), String> {
    let place = Place::take(out).map_err(|e| messages::error(&e))?;
    tokio::spawn(async move {
        let Ok(permit) = SLOTS.acquire().await else { return };
        if place.0.is_closed() {
            return;
        }
        let _ = tokio::task::spawn_blocking(move || {
            let answer = match explore(&req, Duration::from_millis(MAX_MS)) {
                Ok(v) => v.to_string(),
                Err(e) => messages::error(&e),
            };
            // The place is given back before the answer goes out: a page that asks again
            // as soon as it has the answer is not told one is still running.
            let out = place.0.clone();
            drop(place);
            out.send(answer);
        })
        .await;
        drop(permit);
    });
    Ok(())
}

/// The `explore` message for `req`, every move solved within `time` in all.
pub fn explore(req: &ExploreRequest, time: Duration) -> Result<Value, String> {
    let job = Job { req, deadline: Instant::now() + time };
    games::visit(&req.variant, job).unwrap_or_else(|| Err(format!("no game '{}'", req.variant)))
}

struct Job<'a> {
    req: &'a ExploreRequest,
    deadline: Instant,
}

impl Visitor for Job<'_> {
    type Output = Result<Value, String>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        explore_game::<G>(self.req, self.deadline)
    }
}

fn explore_game<G: Strategy>(req: &ExploreRequest, deadline: Instant) -> Result<Value, String> {
    if !G::MATE_BY_SOLVER {
        return Err(format!("exact values are worked out only in {}", games::solved().join(", ")));
    }
    let mut set = RuleSet::of::<G>();
    for (name, value) in &req.rules {
        // Only the game's rules switches: never an evaluation or file switch.
        if !G::switches().iter().any(|o| o.info.name == name && o.info.scope == Scope::Rules) {
            return Err(format!("{} has no rules switch '{name}'", G::NAME));
        }
        set.set(name, value).map_err(|e| e.to_string())?;
    }
    let start = LiveGame::<G>::new(&set, req.sfen.as_deref()).ok_or("the rules are another game's")?;
    let mut game = start.map_err(|e| format!("position rejected: {e}"))?;
    for (i, token) in req.moves.iter().enumerate() {
        game.push(token).map_err(|e| match e {
            MoveError::GameOver(_) => format!("move {} ('{token}') comes after the end of the game", i + 1),
            e => format!("move {} of the moves list: {e}", i + 1),
        })?;
    }
    let pos = game.referee().pos().clone();
    if pos.in_placement() {
        return Err("no exact values during the placement: the setups are hidden until both are done".into());
    }
    if game.verdict().is_some() {
        return Err("the game is over: there is no move to explore".into());
    }
    let started = Instant::now();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut values: Vec<MoveValue> =
        legal.iter().map(|&m| MoveValue { mv: pos.format_move(m), value: "unknown", plies: None }).collect();
    // One solver for every move: the facts it proves for one hold for the others. Each pass
    // shares the time left among the moves still unknown; a later pass goes on with the
    // table the earlier ones filled.
    let mut solver = Solver::<G>::with_table_entries(TABLE_ENTRIES);
    for _pass in 0..3 {
        let open: Vec<usize> = (0..values.len()).filter(|&i| values[i].value == "unknown").collect();
        for (k, &i) in open.iter().enumerate() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            // The move pushed and popped: proven with the game's history (a rule that ends
            // the game at once, a repetition among them, judges it), not replayed.
            let share = left / (open.len() - k) as u32;
            let budget = Budget { max_ms: Some(share.as_millis().max(1) as u64), ..Budget::default() };
            let _ = game.push_unjudged(&values[i].mv);
            let proof = prove(game.referee(), &mut solver, &budget, Sources::TableAndSolver, &mut |_| {});
            game.pop();
            let (value, plies) = match proof {
                Ok(Proof { value: Some(v), plies, .. }) => (v, plies),
                _ => continue,
            };
            values[i].value = match value {
                Proven::Win => "loss",
                Proven::Loss => "win",
                Proven::Draw => "draw",
            };
            values[i].plies = (value != Proven::Draw).then_some(plies + 1);
        }
    }
    values.sort_by_key(|v| match (v.value, v.plies.unwrap_or(0)) {
        ("win", n) => (0, i64::from(n)),
        ("draw", _) => (1, 0),
        ("unknown", _) => (2, 0),
        (_, n) => (3, -i64::from(n)),
    });
    let complete = values.iter().all(|v| v.value != "unknown");
    Ok(json!({ "type": "explore", "variant": G::NAME, "sfen": pos.to_sfen(), "moves": values,
               "complete": complete, "ms": started.elapsed().as_millis() as u64 }))
}
