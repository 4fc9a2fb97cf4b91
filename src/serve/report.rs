//! `report`: the game report of a game the page shows (issue 56, "browsing a game": an
//! analysis board), the same report as `koma analyse --game` ([`crate::cli::report`]) at
//! its default limit: each move's evaluation and mark (`inaccuracy`, `mistake`,
//! `blunder`, from a deeper look), book and forced moves never marked, and each side's
//! totals. The request is stateless (the game is in it, as in `explore`); the work runs on
//! tokio's blocking threads, one report at a time in the whole server (another is told to
//! wait), on an engine of its own with a small table.

use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{json, Value};

use super::messages::{self, ExploreRequest, Seat, Seats};
use super::outbox::Outbox;
use super::records::{record_of, FollowedGame};
use crate::cli::analyse::{Analyser, Args};
use crate::cli::report::{report, DEFAULT_NODES};

/// The longest game reported (a report costs about 170 ms of CPU a ply at the default,
/// its deeper looks at least 160,000 nodes: a 400-ply game a bit over a minute).
pub(crate) const MAX_PLIES: usize = 400;

/// The report engine's table, MiB.
const HASH_MIB: &str = "4";

/// A report is running.
static BUSY: AtomicBool = AtomicBool::new(false);

/// Holds [`BUSY`] until dropped (a panic in the report gives it back too).
struct Busy;

impl Busy {
    fn take() -> Result<Busy, String> {
        if BUSY.swap(true, Ordering::SeqCst) {
            return Err("a game report is running already: try again when it is done".into());
        }
        Ok(Busy)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.store(false, Ordering::SeqCst);
    }
}

/// Starts the report of `req`'s game for the connection `out`; its answer (a `report` or
/// an `error` message) comes on `out`. `Err`: the error message to answer now.
pub(crate) fn start(req: ExploreRequest, out: &Outbox) -> Result<(), String> {
    if req.moves.len() > MAX_PLIES {
        return Err(messages::error(&format!("a game report takes at most {MAX_PLIES} moves")));
    }
    super::game::check_rules(&req.variant, &req.rules).map_err(|e| messages::error(&e))?;
    let busy = Busy::take().map_err(|e| messages::error(&e))?;
    let out = out.clone();
    tokio::task::spawn_blocking(move || {
        let answer = run(&req).unwrap_or_else(|e| messages::error(&format!("game report: {e}")));
        drop(busy);
        out.send(answer);
    });
    Ok(())
}

/// The report of `req`'s game, as the `report` message.
pub(crate) fn run(req: &ExploreRequest) -> Result<String, String> {
    let variant = crate::games::descriptor(&req.variant).ok_or_else(|| format!("no game '{}'", req.variant))?.name;
    let game = FollowedGame {
        variant,
        rules: &req.rules,
        start: req.sfen.as_deref(),
        moves: &req.moves,
        seats: Seats { b: Seat::Human, w: Seat::Human },
        lost_on_time: None,
    };
    let record = record_of(&game, String::new())?;
    let mut analyser = Analyser::new(&Args { nodes: Some(DEFAULT_NODES), ..Args::default() })?;
    analyser.option("USI_Hash", HASH_MIB)?;
    let (moves, summary) = report(&mut analyser, &record)?;
    let moves: Vec<Value> = moves.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect();
    Ok(json!({ "type": "report", "variant": variant, "sfen": req.sfen, "moves": req.moves,
               "report": moves, "summary": summary, "nodes": DEFAULT_NODES })
    .to_string())
}
