//! `report`: the game report of a game the page shows (issue 56, "browsing a game": an
//! analysis board), the same report as `koma analyse --game` ([`crate::cli::report`]) at
//! its default limit: each move's evaluation and mark (`inaccuracy`, `mistake`,
//! `blunder`, from a deeper look), book and forced moves never marked, and each side's
//! totals. The request is stateless (the game is in it, as in `explore`); the work runs on
//! tokio's blocking threads, one report at a time in the whole server, on an engine of its
//! own with a small table. A page waits only for its last request's report: a new request
//! from the page whose report runs gives that one up (within one search) and is made
//! next, a closed page's report is given up, and another page's request is told to wait.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use serde_json::{json, Value};

use super::messages::{self, ExploreRequest, Seat, Seats};
use super::outbox::Outbox;
use super::records::{record_of, FollowedGame};
use crate::cli::analyse::{Analyser, Args};
use crate::cli::report::{report_unless, DEFAULT_NODES, GIVEN_UP};

/// The longest game reported (a report costs about 170 ms of CPU a ply at the default,
/// its deeper looks at least 160,000 nodes: a 400-ply game a bit over a minute).
pub(crate) const MAX_PLIES: usize = 400;

/// The report engine's table, MiB.
const HASH_MIB: &str = "4";

/// The report running: the page it is for, whether it is given up, and the page's next
/// request (at most one waits: a newer one replaces it).
struct Running {
    out: Outbox,
    give_up: Arc<AtomicBool>,
    next: Option<ExploreRequest>,
}

static RUNNING: Mutex<Option<Running>> = Mutex::new(None);

fn running() -> MutexGuard<'static, Option<Running>> {
    RUNNING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Frees [`RUNNING`] if the report's thread ends without doing so (a panic).
struct Slot;

impl Drop for Slot {
    fn drop(&mut self) {
        if std::thread::panicking() {
            *running() = None;
        }
    }
}

/// Starts the report of `req`'s game for the connection `out`; its answer (a `report` or
/// an `error` message) comes on `out`. `Err`: the error message to answer now.
pub(crate) fn start(req: ExploreRequest, out: &Outbox) -> Result<(), String> {
    if req.moves.len() > MAX_PLIES {
        return Err(messages::error(&format!("a game report takes at most {MAX_PLIES} moves")));
    }
    super::game::check_rules(&req.variant, &req.rules).map_err(|e| messages::error(&e))?;
    let mut slot = running();
    match slot.as_mut() {
        Some(r) if r.out.same(out) => {
            r.give_up.store(true, Ordering::SeqCst);
            r.next = Some(req);
            return Ok(());
        }
        Some(_) => return Err(messages::error("a game report is running already: try again when it is done")),
        None => {}
    }
    let give_up = Arc::new(AtomicBool::new(false));
    *slot = Some(Running { out: out.clone(), give_up: Arc::clone(&give_up), next: None });
    drop(slot);
    let out = out.clone();
    tokio::task::spawn_blocking(move || work(req, out, give_up));
    Ok(())
}

/// Makes `req`'s report, then each next request the page sent meanwhile, and frees the slot.
fn work(mut req: ExploreRequest, out: Outbox, mut give_up: Arc<AtomicBool>) {
    let _slot = Slot;
    loop {
        let stop = || give_up.load(Ordering::SeqCst) || out.is_closed();
        match run(&req, &stop) {
            Err(e) if e == GIVEN_UP => {}
            answer => {
                out.send(answer.unwrap_or_else(|e| messages::error(&format!("game report: {e}"))));
            }
        }
        let mut slot = running();
        match slot.as_mut().and_then(|r| r.next.take().map(|next| (r, next))) {
            Some((r, next)) if !out.is_closed() => {
                give_up = Arc::new(AtomicBool::new(false));
                r.give_up = Arc::clone(&give_up);
                req = next;
            }
            _ => {
                *slot = None;
                return;
            }
        }
    }
}

/// The report of `req`'s game, as the `report` message.
pub(crate) fn run(req: &ExploreRequest, give_up: &dyn Fn() -> bool) -> Result<String, String> {
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
    let (moves, summary) = report_unless(&mut analyser, &record, give_up)?;
    let moves: Vec<Value> = moves.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect();
    Ok(json!({ "type": "report", "variant": variant, "sfen": req.sfen, "moves": req.moves,
               "report": moves, "summary": summary, "nodes": DEFAULT_NODES })
    .to_string())
}
