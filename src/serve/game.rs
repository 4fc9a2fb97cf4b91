//! One game in the server: a [`Live`] game (the rules and referee, no threads), moves
//! pushed and popped as they are played and taken back, and its own [`Engine`] on a
//! thread of its own for koma's moves.
//! A tokio task owns the game and takes, in order, what its followers (the browser tabs)
//! ask and what the engine answers; every change is sent to all followers as a `state`.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::mpsc::{channel, unbounded_channel, Receiver, Sender, UnboundedReceiver, UnboundedSender};
use tokio::sync::OwnedSemaphorePermit;

use super::clock::{Clock, SystemTime, TimeSource};
use super::hidden::Hidden;
use super::messages::{self, ClientMsg, Limit, NewGame, Seat, Seats};
use super::outbox::{Kind, Outbox};
use crate::engine::{Command, Engine, Event, Info, Score, Sink};
use crate::game::state::{GameResult, GameState};
use crate::game::{Color, Live, RuleSet, Scope};
use crate::records::notation::{self, Style};
use crate::search::limits::GoParams;
use crate::search::skill::MAX_LEVEL;

/// The most messages waiting for a game's task; a connection that sends faster waits.
const INBOX_MESSAGES: usize = 32;

/// The most searches asked of the engine whose `bestmove` has not come yet (a page that
/// plays and takes back faster than the engine stops is refused beyond it).
const MAX_PENDING: usize = 8;

/// The most a move at a playing level may take (the level's depth ends it sooner).
const LEVEL_MOVETIME_MS: u64 = 2000;

/// What reaches a game's task.
pub enum ToGame {
    /// A message of one follower, who gets the errors.
    Client(ClientMsg, Outbox),
    /// A connection follows the game (and gets its state at once).
    Attach(Outbox),
    /// A follower left (closed its page, or follows another game).
    Left(Outbox),
    /// The registry ended the game (to make room, or idle): the engine is stopped.
    End,
}

/// What the registry sees of a running game.
pub struct Presence {
    /// Connections following the game (kept by the connections themselves, so the
    /// registry sees a page leave at once).
    pub followers: AtomicUsize,
    /// When a follower last came, left or sent something.
    pub last_seen: Mutex<Instant>,
}

impl Presence {
    pub fn touch(&self) {
        *self.last_seen.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }
}

/// What a search's `bestmove` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    /// koma's move in the game: played.
    Play,
    /// An analysis the page asked for: shown, not played.
    Hint,
    /// A search stopped by a change (undo, a new position): its move is dropped.
    Drop,
}

/// A game's position and moves as the server keeps them.
struct Kept {
    id: String,
    variant: &'static str,
    rules: BTreeMap<String, String>,
    rule_set: RuleSet,
    start: Option<String>,
    /// The game: its root, moves and position, followed move by move.
    game: Box<dyn Live>,
    /// koma's evaluation after each move (sente's view, centipawns; mates as +-10000).
    evals: Vec<Option<i32>>,
    seats: Seats,
    limit: Limit,
    /// Both sides' clock (`super::clock`), if the game has one.
    clock: Option<Clock>,
    /// Where the clock reads the time.
    time: Arc<dyn TimeSource>,
    paused: bool,
    state: GameState,
    legal: Vec<String>,
    engine: std::sync::mpsc::Sender<Command>,
    /// One entry per `go` whose `bestmove` has not come: what to do with it.
    pending: VecDeque<Pending>,
    /// The last score of the running search (sente's view).
    score: Option<i32>,
    /// The `SkillLevel` the engine was last given.
    engine_level: u32,
    followers: Vec<Outbox>,
}

/// Refuses switches that a page may not set: unknown names, the engine's own, and
/// switches that name a file (a page must never make the server open a path of its
/// choosing).
pub(crate) fn check_rules(variant: &str, rules: &BTreeMap<String, String>) -> Result<(), String> {
    let Some(game) = crate::games::descriptor(variant) else { return Err(format!("no game '{variant}'")) };
    for name in rules.keys() {
        match game.switch(name).filter(|o| o.scope != Scope::Engine) {
            None => return Err(format!("no rules switch '{name}' in {variant}")),
            Some(o) if o.reaches_a_file() => {
                return Err(format!("{} names a file: it cannot be set from the page", o.name))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The rule set of `variant` with the page's switches, each read once here.
fn rule_set(variant: &str, rules: &BTreeMap<String, String>) -> Result<RuleSet, String> {
    check_rules(variant, rules)?;
    let d = crate::games::descriptor(variant).ok_or_else(|| format!("no game '{variant}'"))?;
    let mut set = (d.rule_set)();
    for (name, value) in rules {
        set.set(name, value).map_err(|e| e.to_string())?;
    }
    Ok(set)
}

/// The game under `rule_set` from `sfen` (or the start) after `moves`.
fn live(rule_set: &RuleSet, sfen: Option<&str>, moves: &[String]) -> Result<Box<dyn Live>, String> {
    let mut game = crate::games::start(rule_set, sfen).map_err(|e| format!("position rejected: {e}"))?;
    for (i, token) in moves.iter().enumerate() {
        game.push(token).map_err(|e| format!("position rejected: move {} of the moves list: {e}", i + 1))?;
    }
    Ok(game)
}

/// A new game checked and made, before an engine slot is taken.
pub(crate) struct Prepared {
    new: NewGame,
    limit: Limit,
    clock: Option<Clock>,
    rule_set: RuleSet,
    game: Box<dyn Live>,
}

/// Checks a new game and makes it (its rules read and its moves played once).
pub(crate) fn prepare(new: NewGame) -> Result<Prepared, String> {
    let limit = new.limit.check()?;
    let clock = new.clock.map(|c| c.check().map(Clock::new)).transpose()?;
    let rule_set = rule_set(&new.variant, &new.rules)?;
    let game = live(&rule_set, new.sfen.as_deref(), &new.moves)?;
    Ok(Prepared { new, limit, clock, rule_set, game })
}

/// Starts a prepared game's task and its engine thread; `hash_mib` is the engine's table.
/// The engine thread holds `slot` until it has ended, so the registry's count of slots is
/// the number of engines alive.
pub(crate) fn start(
    id: String,
    prepared: Prepared,
    hash_mib: usize,
    slot: OwnedSemaphorePermit,
) -> (Sender<ToGame>, Arc<Presence>) {
    let (events_tx, events) = unbounded_channel();
    let engine = spawn_engine(events_tx, hash_mib, &prepared.rule_set, slot);
    let shared = Arc::new(Presence { followers: AtomicUsize::new(0), last_seen: Mutex::new(Instant::now()) });
    let kept = Kept::new(id, prepared, engine, Arc::new(SystemTime));
    let (tx, rx) = channel(INBOX_MESSAGES);
    tokio::spawn(kept.run(rx, events));
    (tx, shared)
}

/// The game's engine, on a thread of its own that carries out its commands in order; its
/// events come back on `events`. The thread ends (and the engine stops any search) when
/// the game drops the sender.
fn spawn_engine(
    events: UnboundedSender<Event>,
    hash_mib: usize,
    rule_set: &RuleSet,
    slot: OwnedSemaphorePermit,
) -> std::sync::mpsc::Sender<Command> {
    let (tx, rx) = std::sync::mpsc::channel::<Command>();
    let set = |name: &str, value: String| Command::SetOption { name: name.into(), value: Some(value) };
    let _ = tx.send(set("USI_Hash", hash_mib.to_string()));
    // No process starts between the server and the engine: little kept in hand.
    let _ = tx.send(set("MoveOverhead", "10".into()));
    let _ = tx.send(Command::Rules(rule_set.clone()));
    std::thread::spawn(move || {
        let sink: Sink = Arc::new(move |e| {
            let _ = events.send(e);
        });
        let mut engine = Engine::new(sink);
        while let Ok(cmd) = rx.recv() {
            if engine.handle(cmd) == crate::engine::Flow::Quit {
                break;
            }
        }
        // The search is stopped and joined, and the table freed, before the slot is.
        drop(engine);
        drop(slot);
    });
    tx
}

/// A score from the side to move's view as sente's, mates as +-10000 less the plies.
fn sente_view(score: Score, side: &str) -> i32 {
    let v = match score {
        Score::Cp(cp) => cp.clamp(-9000, 9000),
        Score::Mate(n) if n >= 0 => 10_000 - n,
        Score::Mate(n) => -10_000 - n,
    };
    if side == "b" {
        v
    } else {
        -v
    }
}

impl Kept {
    fn new(
        id: String,
        prepared: Prepared,
        engine: std::sync::mpsc::Sender<Command>,
        time: Arc<dyn TimeSource>,
    ) -> Kept {
        let Prepared { new, limit, clock, rule_set, game } = prepared;
        Kept {
            id,
            variant: game.variant(),
            rules: new.rules,
            rule_set,
            start: new.sfen,
            evals: vec![None; game.plies()],
            state: game.state(),
            legal: game.legal_moves(),
            game,
            seats: new.seats,
            limit,
            clock,
            time,
            paused: false,
            engine,
            pending: VecDeque::new(),
            score: None,
            engine_level: MAX_LEVEL,
            followers: Vec::new(),
        }
    }

    async fn run(mut self, mut inbox: Receiver<ToGame>, mut events: UnboundedReceiver<Event>) {
        loop {
            // The moment the running side's time is gone (a millisecond after its last).
            let flag = self.clock.as_ref().and_then(Clock::deadline).map(|d| d + Duration::from_millis(1));
            let flag_falls = async {
                match flag {
                    Some(d) => tokio::time::sleep_until(tokio::time::Instant::from_std(d)).await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = flag_falls => self.out_of_time(),
                msg = inbox.recv() => match msg {
                    Some(ToGame::Attach(out)) => self.attach(out),
                    Some(ToGame::Left(out)) => {
                        self.followers.retain(|f| !f.same(&out) && !f.is_closed());
                        self.unwatched();
                    }
                    Some(ToGame::Client(ClientMsg::Record { format }, out)) => {
                        out.send(self.record(format).unwrap_or_else(|e| messages::error(&e)));
                    }
                    Some(ToGame::Client(msg, out)) => {
                        if let Err(e) = self.client(msg) {
                            out.send(messages::error(&e));
                        }
                    }
                    // The registry ended the game: the engine thread ends with the sender.
                    Some(ToGame::End) | None => break,
                },
                Some(event) = events.recv() => self.engine_event(event),
            }
        }
        let _ = self.engine.send(Command::Quit);
    }

    /// A page follows the game: it gets the position, and a person's time runs from now.
    fn attach(&mut self, out: Outbox) {
        self.followers.push(out.clone());
        if self.sync_clock() {
            self.cancel_search();
            self.settle_time();
        }
        self.followers.pop();
        if out.push(Kind::State, self.state_message()) {
            self.followers.push(out);
        }
        self.maybe_go();
    }

    /// With no page left to watch it, the game pauses at once: koma's search stops, its
    /// move is not played, and koma moves again when a page follows the game again.
    fn unwatched(&mut self) {
        if self.followers.is_empty() {
            self.cancel_search();
            if self.sync_clock() {
                self.settle_time();
            }
        }
    }

    /// The clock runs for the side to move while the game goes on: a person's from when
    /// the position was sent until their move arrives (unwatched too), koma's while it
    /// searches for its move. Otherwise it stops, the time used charged; `true`: the
    /// side whose time stopped had none left, and has lost.
    fn sync_clock(&mut self) -> bool {
        let side = self.game.side_to_move();
        let over = self.state.result.is_some() || self.paused;
        let koma_searches = self.pending.back() == Some(&Pending::Play);
        let seat = self.seat_of(side);
        let watched = !self.followers.is_empty();
        let Some(clock) = &mut self.clock else { return false };
        let runs = !over
            && match seat {
                Seat::Human => watched || clock.running() == Some(side),
                Seat::Koma => koma_searches,
            };
        let now = self.time.now();
        if clock.running().is_some_and(|r| r != side || !runs) && clock.halt(now).is_some() {
            return true;
        }
        if runs {
            clock.start(side, now);
        }
        false
    }

    /// Charges the mover's clock for a move about to be played; `false` (and the game
    /// over) if the move came too late.
    fn clock_move(&mut self) -> bool {
        let now = self.time.now();
        if self.clock.as_mut().and_then(|c| c.moved(now)).is_some() {
            self.lost_on_time();
            return false;
        }
        true
    }

    /// The timer: the running side's time is gone.
    fn out_of_time(&mut self) {
        let now = self.time.now();
        if self.clock.as_mut().and_then(|c| c.expired(now)).is_some() {
            self.lost_on_time();
        }
    }

    /// A side ran out of time: the game is over, koma's search (if any) stopped.
    fn lost_on_time(&mut self) {
        self.cancel_search();
        let _ = self.changed();
    }

    /// A game lost on time is over: its result is the state's (a result on the board
    /// stands: no clock runs once the game is over).
    fn settle_time(&mut self) {
        if self.state.result.is_none() {
            if let Some(lost) = self.time_result() {
                self.state.result = Some(lost);
                self.state.phase = "over";
            }
        }
    }

    /// The result of a game lost on time, in the referee's words (`gote wins: time`).
    fn time_result(&self) -> Option<GameResult> {
        let loser = self.clock.as_ref()?.flagged()?;
        let winner = loser.flip();
        let letter = if winner == Color::Sente { "b" } else { "w" };
        let reason = "time".to_string();
        let text = format!("{} wins: {reason}", self.state.players[winner.index()]);
        Some(GameResult { winner: Some(letter), reason, text })
    }

    /// Sends `text` to every follower as a message of `kind` (a state replaces the ones
    /// still waiting for a slow page: `super::outbox`).
    fn broadcast(&mut self, kind: Kind, text: impl Into<Arc<str>>) {
        let text: Arc<str> = text.into();
        self.followers.retain(|f| f.push(kind, Arc::clone(&text)));
        self.unwatched();
    }

    fn client(&mut self, msg: ClientMsg) -> Result<(), String> {
        if self.pending.len() >= MAX_PENDING && !matches!(msg, ClientMsg::Stop | ClientMsg::Pause { .. }) {
            return Err("koma is still stopping its earlier searches: try again in a moment".into());
        }
        match msg {
            ClientMsg::Move { mv } => {
                if self.state.result.is_some() {
                    return Err(format!("the game is over: {}", self.state.result.as_ref().map_or("", |r| &r.text)));
                }
                if self.seat_to_move() == Seat::Koma {
                    return Err("it is koma's move".into());
                }
                if !self.legal.contains(&mv) {
                    return Err(format!("illegal move: {mv}"));
                }
                // An analysis of the position before the move is of no use now.
                self.cancel_search();
                // A move that comes after the player's time is gone is not played.
                if !self.clock_move() {
                    return Ok(());
                }
                self.game.push(&mv).map_err(|e| e.to_string())?;
                self.evals.push(None);
                self.changed()
            }
            ClientMsg::Undo => {
                if self.game.plies() == 0 {
                    return Err("no move to take back".into());
                }
                self.cancel_search();
                self.take_back();
                // Back to a human's move: koma's answer goes with the move it answered.
                let humans = [self.seats.b, self.seats.w].contains(&Seat::Human);
                while humans && self.game.plies() > 0 && self.seat_of(self.game.side_to_move()) == Seat::Koma {
                    self.take_back();
                }
                if !humans {
                    self.paused = true;
                }
                self.changed()
            }
            ClientMsg::Pause { paused } => {
                self.paused = paused;
                if paused {
                    self.cancel_search();
                }
                self.changed()
            }
            ClientMsg::Seats { seats, limit } => {
                self.limit = limit.check()?;
                self.seats = seats;
                self.cancel_search();
                self.changed()
            }
            ClientMsg::Paste { text } => {
                let (sfen, moves) = read_paste(&text)?;
                let game = live(&self.rule_set, sfen.as_deref(), &moves)?;
                self.cancel_search();
                self.game = game;
                self.start = sfen;
                self.clock = self.clock.as_ref().map(|c| Clock::new(c.control()));
                self.evals = vec![None; moves.len()];
                self.paused = self.seats.b == Seat::Koma && self.seats.w == Seat::Koma;
                self.changed()
            }
            ClientMsg::Analyse => {
                if self.thinking() {
                    return Err("koma is thinking already".into());
                }
                if self.hidden().is_some() {
                    return Err("koma's setup is hidden until both sides have placed their pieces".into());
                }
                if self.state.result.is_some() {
                    return Err("the game is over: there is nothing to analyse".into());
                }
                self.go(Pending::Hint);
                Ok(())
            }
            ClientMsg::Stop => {
                if self.thinking() {
                    let _ = self.engine.send(Command::Stop);
                }
                Ok(())
            }
            ClientMsg::New(_)
            | ClientMsg::Join { .. }
            | ClientMsg::Explore(_)
            | ClientMsg::Report(_)
            | ClientMsg::Load { .. }
            | ClientMsg::Record { .. } => Err("new, join, explore, load and record are not the game's moves".into()),
        }
    }

    /// The last move taken back, with the clocks as they were before it.
    fn take_back(&mut self) {
        self.game.pop();
        self.evals.pop();
        if let Some(c) = &mut self.clock {
            c.take_back();
        }
    }

    /// The game as a record (`super::records`), never while koma's setup is hidden.
    fn record(&self, format: Option<crate::records::Format>) -> Result<String, String> {
        if self.hidden().is_some() {
            return Err("koma's setup is hidden until both sides have placed their pieces".into());
        }
        let game = super::records::FollowedGame {
            variant: self.variant,
            rules: &self.rules,
            start: self.start.as_deref(),
            moves: &self.game.moves(),
            seats: self.seats,
            lost_on_time: self.clock.as_ref().and_then(Clock::flagged),
        };
        super::records::save(&game, format, jiff::Timestamp::now())
    }

    /// Who plays `side`.
    fn seat_of(&self, side: Color) -> Seat {
        match side {
            Color::Sente => self.seats.b,
            Color::Gote => self.seats.w,
        }
    }

    fn seat_to_move(&self) -> Seat {
        self.seat_of(self.game.side_to_move())
    }

    /// The position after a change of moves: sent to every follower, then koma moves if
    /// it is its turn.
    fn changed(&mut self) -> Result<(), String> {
        self.state = self.game.state();
        self.settle_time();
        self.legal = self.game.legal_moves();
        if self.sync_clock() {
            self.cancel_search();
            self.settle_time();
        }
        let msg = self.state_message();
        self.broadcast(Kind::State, msg);
        self.maybe_go();
        Ok(())
    }

    fn thinking(&self) -> bool {
        matches!(self.pending.back(), Some(Pending::Play | Pending::Hint))
    }

    /// Whether the search whose events come now is one whose move will be played.
    fn searching_now(&self) -> bool {
        matches!(self.pending.front(), Some(Pending::Play | Pending::Hint))
    }

    fn maybe_go(&mut self) {
        if self.paused
            || self.followers.is_empty()
            || self.thinking()
            || self.state.result.is_some()
            || self.seat_to_move() != Seat::Koma
        {
            return;
        }
        self.go(Pending::Play);
    }

    /// Starts a search of the current position under the game's limit; koma's move in a
    /// game with a clock is searched on its clock, as a GUI gives it (`go btime .. wtime ..
    /// byoyomi ..` or `binc .. winc ..`; a time a move is then the clock's, a depth, a node
    /// count or a level still bound the search).
    fn go(&mut self, what: Pending) {
        let mut go = GoParams::default();
        let mut level = MAX_LEVEL;
        let clock = self.clock.as_ref().filter(|_| what == Pending::Play);
        match self.limit {
            Limit::Movetime(ms) => go.movetime = Some(ms),
            Limit::Depth(d) => go.depth = Some(d),
            Limit::Nodes(n) => go.nodes = Some(n),
            // A level bounds its own depth; the time is a ceiling.
            Limit::Level(l) => {
                level = l;
                go.movetime = Some(LEVEL_MOVETIME_MS);
            }
        }
        if let Some(clock) = clock {
            go.movetime = None;
            clock.go(&mut go, self.game.side_to_move());
        }
        if level != self.engine_level {
            self.engine_level = level;
            let _ = self.engine.send(Command::SetOption { name: "SkillLevel".into(), value: Some(level.to_string()) });
        }
        self.score = None;
        let _ = self.engine.send(Command::Position { sfen: self.start.clone(), moves: self.game.moves() });
        let _ = self.engine.send(Command::Go(go));
        self.pending.push_back(what);
        if what == Pending::Play && self.sync_clock() {
            return self.lost_on_time();
        }
        let clock = self.clock_view();
        self.broadcast(Kind::Report, json!({ "type": "thinking", "thinking": true, "clock": clock }).to_string());
    }

    /// The clock as the page shows it (`null` without one).
    fn clock_view(&self) -> Value {
        self.clock.as_ref().map_or(Value::Null, |c| c.view(self.time.now()))
    }

    /// Stops koma's search; its move, when it comes, is not played.
    fn cancel_search(&mut self) {
        if self.thinking() {
            let _ = self.engine.send(Command::Stop);
        }
        self.pending.iter_mut().for_each(|p| *p = Pending::Drop);
    }

    fn engine_event(&mut self, event: Event) {
        // While koma places its hidden setup, nothing of its search is shown.
        let shown = self.searching_now() && self.hidden().is_none();
        match event {
            Event::Info(info) if shown => self.info(info),
            Event::BookMove(mv) if shown => {
                self.broadcast(Kind::Report, json!({ "type": "info", "book": mv }).to_string());
            }
            Event::Message(text) if shown => {
                self.broadcast(Kind::Report, json!({ "type": "info", "message": text }).to_string());
            }
            Event::BestMove { mv, .. } => {
                let what = self.pending.pop_front().unwrap_or(Pending::Drop);
                let play = what == Pending::Play;
                if what == Pending::Hint {
                    self.broadcast(Kind::Report, json!({ "type": "thinking", "thinking": false }).to_string());
                    if let Some(mv) = mv {
                        self.broadcast(
                            Kind::Report,
                            json!({ "type": "info", "best": mv, "sente": self.score }).to_string(),
                        );
                    }
                    return;
                }
                match mv {
                    Some(mv) if play && self.legal.contains(&mv) => {
                        if !self.clock_move() {
                            return;
                        }
                        let played = self.game.push(&mv).map_err(|e| e.to_string());
                        if played.is_ok() {
                            self.evals.push(self.score);
                        }
                        if let Err(e) = played.and_then(|()| self.changed()) {
                            self.broadcast(Kind::Answer, messages::error(&e));
                        }
                    }
                    _ if play => {
                        // No move (a finished game) or a stale one: show where it stands.
                        let _ = self.changed();
                    }
                    _ => {}
                }
            }
            Event::Error(e) => self.broadcast(Kind::Answer, messages::error(&format!("engine: {e}"))),
            _ => {}
        }
    }

    fn info(&mut self, info: Info) {
        let Some(score) = info.score else { return };
        if info.multipv.is_some_and(|k| k > 1) {
            return;
        }
        let sente = sente_view(score, self.state.side);
        self.score = Some(sente);
        let (cp, mate) = match score {
            Score::Cp(cp) => (Some(cp), None),
            Score::Mate(n) => (None, Some(n)),
        };
        self.broadcast(
            Kind::Report,
            json!({ "type": "info", "depth": info.depth, "cp": cp, "mate": mate, "sente": sente,
                    "nodes": info.nodes, "nps": info.nps, "time": info.time_ms, "pv": info.pv, "ply": self.game.plies(),
                    "pv_names": named(self.game.as_ref(), &info.pv) })
            .to_string(),
        );
    }

    /// The board after the first part of each crab turn that has a bond move after it, so
    /// the page can show it while the player picks the bond move.
    fn previews(&mut self) -> BTreeMap<String, String> {
        let firsts: Vec<String> =
            self.legal.iter().filter_map(|m| m.split_once(',').map(|(a, _)| a.to_string())).collect();
        let mut out = BTreeMap::new();
        for first in firsts {
            if out.contains_key(&first) {
                continue;
            }
            // The first part pushed and popped: no replay of the game.
            if self.game.push_unjudged(&first).is_ok() {
                out.insert(first.clone(), self.game.sfen().split(' ').next().unwrap_or("").to_string());
                self.game.pop();
            }
        }
        out
    }

    /// koma's hidden setup, while a person places pieces against it.
    fn hidden(&self) -> Option<Hidden> {
        let koma = match (self.seats.b, self.seats.w) {
            (Seat::Koma, Seat::Human) => Some("b"),
            (Seat::Human, Seat::Koma) => Some("w"),
            _ => None,
        };
        let hidden_setup = crate::games::descriptor(self.variant).is_some_and(|d| d.hidden_setup);
        Hidden::of(hidden_setup, &self.state, koma)
    }

    /// The SFEN of the position before each move and after the last (the page shows a
    /// past position from it), the game taken back move by move on a copy; and the moves
    /// named in the game's styles (see [`named`]).
    fn history(&self) -> (Vec<String>, Value) {
        let mut game = self.game.boxed_clone();
        let mut out = vec![game.sfen()];
        while game.pop().is_some() {
            out.push(game.sfen());
        }
        out.reverse();
        (out, named(game.as_ref(), &self.game.moves()))
    }

    fn state_message(&mut self) -> Arc<str> {
        let previews = self.previews();
        let hidden = self.hidden();
        let (state, moves, evals, history) = match hidden {
            Some(h) => {
                let root = self.game.root_sfen();
                let first = if root.split(' ').nth(1) == Some("w") { "w" } else { "b" };
                (h.mask(&self.state), h.mask_moves(&self.game.moves(), first), vec![None; self.game.plies()], None)
            }
            None => (self.state.clone(), self.game.moves(), self.evals.clone(), Some(self.history())),
        };
        let (positions, names) = history.unzip();
        let state: Value = serde_json::to_value(&state).unwrap_or(Value::Null);
        let hidden = hidden.map(|h| json!({ "side": h.side, "placed": h.placed }));
        json!({
            "type": "state", "game": self.id, "variant": self.variant, "rules": self.rules,
            "start": self.start, "moves": moves, "evals": evals, "legal": self.legal,
            "previews": previews, "state": state, "seats": self.seats, "limit": self.limit,
            "paused": self.paused, "thinking": self.thinking(), "hidden": hidden, "positions": positions,
            "names": names, "clock": self.clock_view(),
        })
        .to_string()
        .into()
    }
}

/// The moves of `line` played from `pos`, named in each of the game's styles but USI
/// (`{"san": [...]}`, `{"kif": [...], "western": [...]}`, `{}` for the crab games): the
/// page's notation switch. A list stops at the first move that is not legal there.
fn named(pos: &dyn Live, line: &[String]) -> Value {
    let styles = notation::styles(pos.variant()).iter().filter(|s| **s != Style::Usi);
    Value::Object(styles.map(|s| (s.name().to_string(), json!(notation::names_of_line(pos, line, *s)))).collect())
}

/// A pasted position: `position startpos|sfen ... [moves ...]` (USI), `sfen <sfen> [moves
/// ...]`, `startpos [moves ...]` or a bare SFEN.
pub(crate) fn read_paste(text: &str) -> Result<(Option<String>, Vec<String>), String> {
    let text = text.trim();
    let line = if text.starts_with("position ") {
        text.to_string()
    } else if text.starts_with("sfen ") || text.starts_with("startpos") {
        format!("position {text}")
    } else {
        format!("position sfen {text}")
    };
    match crate::protocol::parse_command(&line) {
        Ok(Some(Command::Position { sfen, moves })) => Ok((sfen, moves)),
        Ok(_) => Err("not a position".into()),
        Err(e) => Err(format!("not a position: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use super::*;
    use crate::game::referee::Verdict;
    use crate::game::MoveError;

    /// A live game that counts the moves played on it (pushed, previews included).
    struct Counted {
        inner: Box<dyn Live>,
        pushes: Arc<AtomicUsize>,
    }

    impl Counted {
        fn count<T>(&self, played: T) -> T {
            self.pushes.fetch_add(1, Ordering::Relaxed);
            played
        }
    }

    impl Live for Counted {
        fn variant(&self) -> &'static str {
            self.inner.variant()
        }
        fn size(&self) -> (usize, usize) {
            self.inner.size()
        }
        fn rule_set(&self) -> &RuleSet {
            self.inner.rule_set()
        }
        fn root_sfen(&self) -> String {
            self.inner.root_sfen()
        }
        fn moves(&self) -> Vec<String> {
            self.inner.moves()
        }
        fn plies(&self) -> usize {
            self.inner.plies()
        }
        fn sfen(&self) -> String {
            self.inner.sfen()
        }
        fn side_to_move(&self) -> Color {
            self.inner.side_to_move()
        }
        fn in_check(&self) -> bool {
            self.inner.in_check()
        }
        fn state(&self) -> GameState {
            self.inner.state()
        }
        fn verdict(&self) -> Option<Verdict> {
            self.inner.verdict()
        }
        fn legal_moves(&self) -> Vec<String> {
            self.inner.legal_moves()
        }
        fn is_legal(&self, token: &str) -> bool {
            self.inner.is_legal(token)
        }
        fn push(&mut self, token: &str) -> Result<(), MoveError> {
            let played = self.inner.push(token);
            self.count(played)
        }
        fn push_unjudged(&mut self, token: &str) -> Result<(), MoveError> {
            let played = self.inner.push_unjudged(token);
            self.count(played)
        }
        fn pop(&mut self) -> Option<String> {
            self.inner.pop()
        }
        fn perft(&self, depth: u32, stop: &AtomicBool) -> u64 {
            self.inner.perft(depth, stop)
        }
        fn take_rule_set(&mut self, rule_set: &RuleSet, scope: Scope) -> Result<bool, String> {
            self.inner.take_rule_set(rule_set, scope)
        }
        fn boxed_clone(&self) -> Box<dyn Live> {
            self.inner.boxed_clone()
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self.inner.as_any()
        }
    }

    /// A new game of `variant` from its start, koma at the default limit.
    fn new_game(variant: &str, seats: Seats, clock: Option<super::super::clock::TimeControl>) -> NewGame {
        let (rules, moves, limit) = (BTreeMap::new(), vec![], Limit::default());
        NewGame { variant: variant.into(), rules, sfen: None, moves, seats, limit, clock }
    }

    /// A game of `variant` after `plies` moves that keep it going (a fixed pseudo-random
    /// choice among the moves after which the game is not over), two people playing.
    fn game_of(variant: &str, plies: usize) -> (Kept, Arc<AtomicUsize>) {
        let seats = Seats { b: Seat::Human, w: Seat::Human };
        let mut prepared = prepare(new_game(variant, seats, None)).expect("a new game");
        let mut seed = 0x9e37_79b9_u64;
        for _ in 0..plies {
            let legal = prepared.game.legal_moves();
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let first = (seed >> 33) as usize % legal.len();
            let keeps_going = (0..legal.len()).map(|k| &legal[(first + k) % legal.len()]).find(|mv| {
                let mut next = prepared.game.boxed_clone();
                next.push(mv).is_ok() && next.verdict().is_none()
            });
            prepared.game.push(keeps_going.expect("a move that keeps the game going")).expect("legal");
        }
        let pushes = Arc::new(AtomicUsize::new(0));
        prepared.game = Box::new(Counted { inner: prepared.game, pushes: Arc::clone(&pushes) });
        let (engine, _) = std::sync::mpsc::channel();
        (Kept::new("test".into(), prepared, engine, Arc::new(SystemTime)), pushes)
    }

    /// Issue 55: the page's game pushes and pops its moves. Before, every move, take-back
    /// and state replayed the whole game (and once more per crab preview): a move in a
    /// 400-ply game did 20 times the work of one in a 20-ply game.
    #[test]
    fn a_move_in_a_400_ply_game_plays_no_more_moves_than_in_a_20_ply_game() {
        for variant in ["shogi66", "kanishogi"] {
            let mut work = Vec::new();
            for plies in [20, 400] {
                let (mut kept, pushes) = game_of(variant, plies);
                assert_eq!(kept.game.plies(), plies);
                pushes.store(0, Ordering::Relaxed);
                let mv = kept.legal[0].clone();
                kept.client(ClientMsg::Move { mv }).expect("the move is played");
                kept.client(ClientMsg::Undo).expect("taken back");
                let _ = kept.state_message();
                assert_eq!(kept.game.plies(), plies, "{variant}");
                work.push(pushes.load(Ordering::Relaxed));
            }
            // One push for the move, and one per crab preview (a first part of a turn) in
            // the state made: a bound of the position, not of the game's length (a replay
            // of the game would be 400 or more).
            assert!(work.iter().all(|w| (1..=64).contains(w)), "{variant}: {work:?} moves played in 20 and 400 plies");
        }
    }

    /// A time the test moves by hand.
    struct Manual(Mutex<Instant>);

    impl TimeSource for Manual {
        fn now(&self) -> Instant {
            *self.0.lock().unwrap()
        }
    }

    impl Manual {
        fn advance(&self, ms: u64) {
            *self.0.lock().unwrap() += Duration::from_millis(ms);
        }
    }

    /// A game of `variant` with a clock, followed by one page, its time the test's, and
    /// what its engine is told.
    struct Clocked {
        kept: Kept,
        time: Arc<Manual>,
        engine: std::sync::mpsc::Receiver<Command>,
        _page: super::super::outbox::Inbox,
    }

    impl Clocked {
        fn new(variant: &str, seats: Seats, clock: super::super::clock::TimeControl) -> Clocked {
            let new = new_game(variant, seats, Some(clock));
            let time = Arc::new(Manual(Mutex::new(Instant::now())));
            let (tx, engine) = std::sync::mpsc::channel();
            let mut kept = Kept::new("test".into(), prepare(new).expect("a new game"), tx, time.clone());
            let (out, page) = Outbox::new();
            kept.attach(out);
            Clocked { kept, time, engine, _page: page }
        }

        /// The `go` koma was last given, the commands before it read.
        fn go(&self) -> GoParams {
            let mut last = None;
            while let Ok(cmd) = self.engine.try_recv() {
                if let Command::Go(p) = cmd {
                    last = Some(p);
                }
            }
            last.expect("koma was asked for a move")
        }

        fn stopped(&self) -> bool {
            std::iter::from_fn(|| self.engine.try_recv().ok()).any(|c| matches!(c, Command::Stop))
        }

        fn clock(&self) -> Value {
            self.kept.clock_view()
        }

        /// koma's move arrives: the first legal move.
        fn koma_moves(&mut self) {
            let mv = Some(self.kept.legal[0].clone());
            self.kept.engine_event(Event::BestMove { mv, ponder: None });
        }
    }

    fn main_of(v: &Value, side: &str) -> u64 {
        v[side]["main"].as_u64().expect("a main time")
    }

    const PERSON_KOMA: Seats = Seats { b: Seat::Human, w: Seat::Koma };

    /// Issue 56 (clocks): the server keeps the clock; a person's time runs from the
    /// position sent to the move, koma's from its `go` to its move, and koma gets the
    /// clocks as a GUI gives them.
    #[test]
    fn the_time_used_is_charged_to_the_side_that_moved_and_koma_gets_the_clocks_in_go() {
        let byoyomi = super::super::clock::TimeControl { main: 10_000, byoyomi: 5_000, periods: 1, increment: 0 };
        let mut g = Clocked::new("shogi66", PERSON_KOMA, byoyomi);
        assert_eq!(g.clock()["running"], "b", "the person's time runs once the position is sent");
        g.time.advance(3_000);
        let mv = g.kept.legal[0].clone();
        g.kept.client(ClientMsg::Move { mv }).expect("played");
        let c = g.clock();
        assert_eq!((main_of(&c, "b"), main_of(&c, "w"), c["running"].as_str()), (7_000, 10_000, Some("w")));
        let go = g.go();
        assert_eq!(
            (go.btime, go.wtime, go.byoyomi, go.binc, go.movetime),
            (Some(7_000), Some(10_000), Some(5_000), None, None)
        );
        g.time.advance(12_000);
        g.koma_moves();
        let c = g.clock();
        assert_eq!((main_of(&c, "w"), c["w"]["periods"].as_u64(), c["running"].as_str()), (0, Some(1), Some("b")));
        assert!(g.kept.state.result.is_none(), "12 s is main time and 2 s of byoyomi: in time");
        // A Kokesu clock with an increment: added after the move.
        let fischer = super::super::clock::TimeControl { main: 60_000, byoyomi: 0, periods: 1, increment: 2_000 };
        let mut k = Clocked::new("kokesu", PERSON_KOMA, fischer);
        k.time.advance(5_000);
        let mv = k.kept.legal[0].clone();
        k.kept.client(ClientMsg::Move { mv }).expect("played");
        let go = k.go();
        assert_eq!(
            (go.btime, go.wtime, go.binc, go.winc, go.byoyomi),
            (Some(57_000), Some(60_000), Some(2_000), Some(2_000), None)
        );
    }

    #[test]
    fn a_person_whose_time_runs_out_loses_on_time_and_the_record_says_so() {
        let byoyomi = super::super::clock::TimeControl { main: 10_000, byoyomi: 5_000, periods: 1, increment: 0 };
        let mut g = Clocked::new("shogi66", PERSON_KOMA, byoyomi);
        let mv = g.kept.legal[0].clone();
        g.kept.client(ClientMsg::Move { mv }).expect("played");
        g.koma_moves();
        // 15 s is all the person has: the timer that fires then finds it used up.
        g.time.advance(15_000);
        g.kept.out_of_time();
        assert!(g.kept.state.result.is_none(), "the last millisecond still counts");
        g.time.advance(1);
        g.kept.out_of_time();
        let r = g.kept.state.result.clone().expect("over");
        assert_eq!((r.winner, r.reason.as_str(), r.text.as_str()), (Some("w"), "time", "gote wins: time"));
        assert_eq!(g.kept.state.phase, "over");
        assert_eq!(g.clock()["flagged"], "b");
        let mv = g.kept.legal[0].clone();
        assert!(g.kept.client(ClientMsg::Move { mv }).expect_err("refused").contains("gote wins: time"));
        let kif = g.kept.record(Some(crate::records::Format::Kif)).expect("a record");
        assert!(kif.contains("切れ負け"), "{kif}");
        // Taken back: the clocks as they were before the person's move, the game on.
        g.kept.client(ClientMsg::Undo).expect("taken back");
        assert_eq!((g.kept.game.plies(), g.kept.state.result.is_none()), (0, true));
        let c = g.clock();
        assert_eq!((main_of(&c, "b"), c["flagged"].is_null(), c["running"].as_str()), (10_000, true, Some("b")));
    }

    #[test]
    fn koma_loses_on_time_too_and_a_move_that_comes_late_is_not_played() {
        let short = super::super::clock::TimeControl { main: 1_000, byoyomi: 0, periods: 1, increment: 0 };
        let seats = Seats { b: Seat::Koma, w: Seat::Human };
        // The timer: koma's search is stopped, its move not played when it comes.
        let mut g = Clocked::new("kokesu", seats, short);
        assert_eq!((g.go().btime, g.clock()["running"].as_str()), (Some(1_000), Some("b")));
        g.time.advance(1_001);
        g.kept.out_of_time();
        assert!(g.stopped(), "koma's search is stopped");
        assert_eq!(g.kept.state.result.as_ref().map(|r| r.text.as_str()), Some("gote wins: time"));
        g.koma_moves();
        assert_eq!(g.kept.game.plies(), 0, "the late move is not played");
        // A move that arrives after the time is gone, before the timer fired.
        let mut g = Clocked::new("kokesu", seats, short);
        g.time.advance(1_500);
        g.koma_moves();
        assert_eq!(g.kept.game.plies(), 0);
        assert_eq!(g.kept.state.result.as_ref().map(|r| (r.winner, r.reason.as_str())), Some((Some("w"), "time")));
    }
}
