//! One game in the server: its position, kept on a [`Board`] (the engine's rules and
//! referee, no threads), and its own [`Engine`] on a thread of its own for koma's moves.
//! A tokio task owns the game and takes, in order, what its followers (the browser tabs)
//! ask and what the engine answers; every change is sent to all followers as a `state`.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::mpsc::{channel, unbounded_channel, Receiver, Sender, UnboundedReceiver, UnboundedSender};
use tokio::sync::OwnedSemaphorePermit;

use super::hidden::Hidden;
use super::messages::{self, ClientMsg, Limit, NewGame, Seat, Seats};
use super::outbox::{Kind, Outbox};
use crate::engine::{new_board, Board, Command, Engine, Event, Info, Score, Sink};
use crate::game::state::GameState;
use crate::game::Scope;
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
    start: Option<String>,
    moves: Vec<String>,
    /// koma's evaluation after each move (sente's view, centipawns; mates as +-10000).
    evals: Vec<Option<i32>>,
    seats: Seats,
    limit: Limit,
    paused: bool,
    board: Box<dyn Board>,
    scratch: Box<dyn Board>,
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
pub fn check_rules(variant: &str, rules: &BTreeMap<String, String>) -> Result<(), String> {
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

/// A board of `variant` with these rules, at `sfen` (or the start) after `moves`.
pub fn make_board(
    variant: &str,
    rules: &BTreeMap<String, String>,
    sfen: Option<&str>,
    moves: &[String],
) -> Result<Box<dyn Board>, String> {
    let mut board = new_board(variant).ok_or_else(|| format!("no game '{variant}'"))?;
    for (name, value) in rules {
        board.set_switch(name, value).map_err(|e| e.to_string())?;
    }
    board.set_position(sfen, moves).map_err(|e| format!("position rejected: {e}"))?;
    Ok(board)
}

/// Checks a new game and makes its first position (before an engine slot is taken).
pub fn prepare(new: &NewGame) -> Result<(), String> {
    new.limit.check()?;
    check_rules(&new.variant, &new.rules)?;
    make_board(&new.variant, &new.rules, new.sfen.as_deref(), &new.moves).map(|_| ())
}

/// Starts a game's task and its engine thread; `hash_mib` is the engine's table. The
/// engine thread holds `slot` until it has ended, so the registry's count of slots is
/// the number of engines alive.
pub fn start(
    id: String,
    new: NewGame,
    hash_mib: usize,
    slot: OwnedSemaphorePermit,
) -> Result<(Sender<ToGame>, Arc<Presence>), String> {
    let limit = new.limit.check()?;
    check_rules(&new.variant, &new.rules)?;
    let board = make_board(&new.variant, &new.rules, new.sfen.as_deref(), &new.moves)?;
    let scratch = make_board(&new.variant, &new.rules, None, &[])?;
    let variant = board.variant();
    let (events_tx, events) = unbounded_channel();
    let engine = spawn_engine(events_tx, variant, hash_mib, &new.rules, slot);
    let shared = Arc::new(Presence { followers: AtomicUsize::new(0), last_seen: Mutex::new(Instant::now()) });
    let state = board.state()?;
    let legal = board.legal_moves()?;
    let game = Kept {
        id,
        variant,
        rules: new.rules,
        start: new.sfen,
        evals: vec![None; new.moves.len()],
        moves: new.moves,
        seats: new.seats,
        limit,
        paused: false,
        board,
        scratch,
        state,
        legal,
        engine,
        pending: VecDeque::new(),
        score: None,
        engine_level: MAX_LEVEL,
        followers: Vec::new(),
    };
    let (tx, rx) = channel(INBOX_MESSAGES);
    tokio::spawn(game.run(rx, events));
    Ok((tx, shared))
}

/// The game's engine, on a thread of its own that carries out its commands in order; its
/// events come back on `events`. The thread ends (and the engine stops any search) when
/// the game drops the sender.
fn spawn_engine(
    events: UnboundedSender<Event>,
    variant: &str,
    hash_mib: usize,
    rules: &BTreeMap<String, String>,
    slot: OwnedSemaphorePermit,
) -> std::sync::mpsc::Sender<Command> {
    let (tx, rx) = std::sync::mpsc::channel::<Command>();
    let set = |name: &str, value: String| Command::SetOption { name: name.into(), value: Some(value) };
    let _ = tx.send(set("USI_Hash", hash_mib.to_string()));
    // No process starts between the server and the engine: little kept in hand.
    let _ = tx.send(set("MoveOverhead", "10".into()));
    let _ = tx.send(set("USI_Variant", variant.to_string()));
    for (name, value) in rules {
        let _ = tx.send(set(name, value.clone()));
    }
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
    async fn run(mut self, mut inbox: Receiver<ToGame>, mut events: UnboundedReceiver<Event>) {
        loop {
            tokio::select! {
                msg = inbox.recv() => match msg {
                    Some(ToGame::Attach(out)) => {
                        if out.push(Kind::State, self.state_message()) {
                            self.followers.push(out);
                        }
                        self.maybe_go();
                    }
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

    /// With no page left to watch it, the game pauses at once: koma's search stops, its
    /// move is not played, and koma moves again when a page follows the game again.
    fn unwatched(&mut self) {
        if self.followers.is_empty() {
            self.cancel_search();
        }
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
                self.moves.push(mv);
                self.evals.push(None);
                self.changed()
            }
            ClientMsg::Undo => {
                if self.moves.is_empty() {
                    return Err("no move to take back".into());
                }
                self.cancel_search();
                self.moves.pop();
                self.evals.pop();
                // Back to a human's move: koma's answer goes with the move it answered.
                let humans = [self.seats.b, self.seats.w].contains(&Seat::Human);
                while humans && !self.moves.is_empty() && self.seat_after(self.moves.len()) == Seat::Koma {
                    self.moves.pop();
                    self.evals.pop();
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
                let board = make_board(self.variant, &self.rules, sfen.as_deref(), &moves)?;
                self.cancel_search();
                self.board = board;
                self.start = sfen;
                self.evals = vec![None; moves.len()];
                self.moves = moves;
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
            | ClientMsg::Load { .. }
            | ClientMsg::Record { .. } => Err("new, join, explore, load and record are not the game's moves".into()),
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
            moves: &self.moves,
            seats: self.seats,
        };
        super::records::save(&game, format, jiff::Timestamp::now())
    }

    /// Who plays the side to move after the first `plies` moves.
    fn seat_after(&mut self, plies: usize) -> Seat {
        let side = match self.scratch.set_position(self.start.as_deref(), &self.moves[..plies]) {
            Ok(()) => self.scratch.state().map(|s| s.side).unwrap_or("b"),
            Err(_) => "b",
        };
        if side == "b" {
            self.seats.b
        } else {
            self.seats.w
        }
    }

    fn seat_to_move(&self) -> Seat {
        if self.state.side == "b" {
            self.seats.b
        } else {
            self.seats.w
        }
    }

    /// The position after a change of moves: sent to every follower, then koma moves if
    /// it is its turn.
    fn changed(&mut self) -> Result<(), String> {
        if let Err(e) = self.board.set_position(self.start.as_deref(), &self.moves) {
            return Err(format!("position rejected: {e}"));
        }
        self.state = self.board.state()?;
        self.legal = self.board.legal_moves()?;
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

    /// Starts a search of the current position under the game's limit.
    fn go(&mut self, what: Pending) {
        let mut go = GoParams::default();
        let mut level = MAX_LEVEL;
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
        if level != self.engine_level {
            self.engine_level = level;
            let _ = self.engine.send(Command::SetOption { name: "SkillLevel".into(), value: Some(level.to_string()) });
        }
        self.score = None;
        let _ = self.engine.send(Command::Position { sfen: self.start.clone(), moves: self.moves.clone() });
        let _ = self.engine.send(Command::Go(go));
        self.pending.push_back(what);
        self.broadcast(Kind::Report, json!({ "type": "thinking", "thinking": true }).to_string());
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
                        self.moves.push(mv);
                        self.evals.push(self.score);
                        if let Err(e) = self.changed() {
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
                    "nodes": info.nodes, "nps": info.nps, "time": info.time_ms, "pv": info.pv, "ply": self.moves.len() })
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
            let mut moves = self.moves.clone();
            moves.push(first.clone());
            if self.scratch.set_position(self.start.as_deref(), &moves).is_ok() {
                if let Ok(st) = self.scratch.state() {
                    out.insert(first, st.sfen.split(' ').next().unwrap_or("").to_string());
                }
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

    fn state_message(&mut self) -> Arc<str> {
        let previews = self.previews();
        let hidden = self.hidden();
        let (state, moves, evals) = match hidden {
            Some(h) => {
                let first = match self.scratch.set_position(self.start.as_deref(), &[]) {
                    Ok(()) => self.scratch.state().map(|s| s.side).unwrap_or("b"),
                    Err(_) => "b",
                };
                (h.mask(&self.state), h.mask_moves(&self.moves, first), vec![None; self.moves.len()])
            }
            None => (self.state.clone(), self.moves.clone(), self.evals.clone()),
        };
        let state: Value = serde_json::to_value(&state).unwrap_or(Value::Null);
        let hidden = hidden.map(|h| json!({ "side": h.side, "placed": h.placed }));
        json!({
            "type": "state", "game": self.id, "variant": self.variant, "rules": self.rules,
            "start": self.start, "moves": moves, "evals": evals, "legal": self.legal,
            "previews": previews, "state": state, "seats": self.seats, "limit": self.limit,
            "paused": self.paused, "thinking": self.thinking(), "hidden": hidden,
        })
        .to_string()
        .into()
    }
}

/// A pasted position: `position startpos|sfen ... [moves ...]` (USI), `sfen <sfen> [moves
/// ...]`, `startpos [moves ...]` or a bare SFEN.
pub fn read_paste(text: &str) -> Result<(Option<String>, Vec<String>), String> {
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
