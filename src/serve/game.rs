//! One game in the server: its position, kept on a [`Board`] (the engine's rules and
//! referee, no threads), and its own [`Engine`] on a thread of its own for koma's moves.
//! A tokio task owns the game and takes, in order, what its followers (the browser tabs)
//! ask and what the engine answers; every change is sent to all followers as a `state`.

use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde_json::{json, Value};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};

use super::messages::{self, ClientMsg, Limit, NewGame, Seat, Seats};
use crate::engine::{new_board, Board, Command, Engine, Event, Info, Score, Sink};
use crate::search::limits::GoParams;
use crate::state::GameState;

/// Where a connection's messages go (its outbox).
pub type Outbox = UnboundedSender<Arc<str>>;

/// What reaches a game's task.
pub enum ToGame {
    /// A message of one follower, who gets the errors.
    Client(ClientMsg, Outbox),
    /// A connection follows the game (and gets its state at once).
    Attach(Outbox),
    /// A follower left (closed its page, or follows another game).
    Left(Outbox),
}

/// What the registry sees of a running game.
pub struct Shared {
    /// Connections following the game.
    pub followers: AtomicUsize,
    /// When a follower last came, left or sent something.
    pub last_seen: Mutex<Instant>,
}

impl Shared {
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
struct Game {
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
    followers: Vec<Outbox>,
    shared: Arc<Shared>,
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
        board.set_rule(name, value).map_err(|e| e.to_string())?;
    }
    board.set_position(sfen, moves).map_err(|e| format!("position rejected: {e}"))?;
    Ok(board)
}

/// Starts a game's task and its engine thread; `hash_mib` is the engine's table.
pub fn start(id: String, new: NewGame, hash_mib: usize) -> Result<(UnboundedSender<ToGame>, Arc<Shared>), String> {
    let limit = new.limit.check()?;
    let board = make_board(&new.variant, &new.rules, new.sfen.as_deref(), &new.moves)?;
    let scratch = make_board(&new.variant, &new.rules, None, &[])?;
    let variant = board.variant();
    let (events_tx, events) = unbounded_channel();
    let engine = spawn_engine(events_tx, variant, hash_mib, &new.rules);
    let shared = Arc::new(Shared { followers: AtomicUsize::new(0), last_seen: Mutex::new(Instant::now()) });
    let state = board.state()?;
    let legal = board.legal_moves()?;
    let game = Game {
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
        followers: Vec::new(),
        shared: Arc::clone(&shared),
    };
    let (tx, rx) = unbounded_channel();
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
            engine.handle(cmd);
        }
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

impl Game {
    async fn run(mut self, mut inbox: UnboundedReceiver<ToGame>, mut events: UnboundedReceiver<Event>) {
        self.maybe_go();
        loop {
            tokio::select! {
                msg = inbox.recv() => match msg {
                    Some(ToGame::Attach(out)) => {
                        let _ = out.send(self.state_message());
                        self.followers.push(out);
                        self.count_followers();
                    }
                    Some(ToGame::Left(out)) => {
                        self.shared.touch();
                        self.followers.retain(|f| !f.same_channel(&out));
                        self.count_followers();
                    }
                    Some(ToGame::Client(msg, out)) => {
                        self.shared.touch();
                        if let Err(e) = self.client(msg) {
                            let _ = out.send(messages::error(&e).into());
                        }
                    }
                    // The registry ended the game: the engine thread ends with the sender.
                    None => break,
                },
                Some(event) = events.recv() => self.engine_event(event),
            }
        }
        let _ = self.engine.send(Command::Quit);
    }

    fn count_followers(&mut self) {
        self.followers.retain(|f| !f.is_closed());
        self.shared.followers.store(self.followers.len(), Ordering::SeqCst);
    }

    fn broadcast(&mut self, text: impl Into<Arc<str>>) {
        let text: Arc<str> = text.into();
        self.followers.retain(|f| f.send(Arc::clone(&text)).is_ok());
        self.shared.followers.store(self.followers.len(), Ordering::SeqCst);
    }

    fn client(&mut self, msg: ClientMsg) -> Result<(), String> {
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
            ClientMsg::New(_) | ClientMsg::Join { .. } | ClientMsg::Explore(_) => {
                Err("new, join and explore are for the connection".into())
            }
        }
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
        self.broadcast(msg);
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
        if self.paused || self.thinking() || self.state.result.is_some() || self.seat_to_move() != Seat::Koma {
            return;
        }
        self.go(Pending::Play);
    }

    /// Starts a search of the current position under the game's limit.
    fn go(&mut self, what: Pending) {
        let mut go = GoParams::default();
        match self.limit {
            Limit::Movetime(ms) => go.movetime = Some(ms),
            Limit::Depth(d) => go.depth = Some(d),
            Limit::Nodes(n) => go.nodes = Some(n),
        }
        self.score = None;
        let _ = self.engine.send(Command::Position { sfen: self.start.clone(), moves: self.moves.clone() });
        let _ = self.engine.send(Command::Go(go));
        self.pending.push_back(what);
        self.broadcast(json!({ "type": "thinking", "thinking": true }).to_string());
    }

    /// Stops koma's search; its move, when it comes, is not played.
    fn cancel_search(&mut self) {
        if self.thinking() {
            let _ = self.engine.send(Command::Stop);
        }
        self.pending.iter_mut().for_each(|p| *p = Pending::Drop);
    }

    fn engine_event(&mut self, event: Event) {
        match event {
            Event::Info(info) if self.searching_now() => self.info(info),
            Event::BookMove(mv) if self.searching_now() => {
                self.broadcast(json!({ "type": "info", "book": mv }).to_string());
            }
            Event::Message(text) if self.searching_now() => {
                self.broadcast(json!({ "type": "info", "message": text }).to_string());
            }
            Event::BestMove { mv, .. } => {
                let what = self.pending.pop_front().unwrap_or(Pending::Drop);
                let play = what == Pending::Play;
                if what == Pending::Hint {
                    self.broadcast(json!({ "type": "thinking", "thinking": false }).to_string());
                    if let Some(mv) = mv {
                        self.broadcast(json!({ "type": "info", "best": mv, "sente": self.score }).to_string());
                    }
                    return;
                }
                match mv {
                    Some(mv) if play && self.legal.contains(&mv) => {
                        self.moves.push(mv);
                        self.evals.push(self.score);
                        if let Err(e) = self.changed() {
                            self.broadcast(messages::error(&e));
                        }
                    }
                    _ if play => {
                        // No move (a finished game) or a stale one: show where it stands.
                        let _ = self.changed();
                    }
                    _ => {}
                }
            }
            Event::Error(e) => self.broadcast(messages::error(&format!("engine: {e}"))),
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

    fn state_message(&mut self) -> Arc<str> {
        let previews = self.previews();
        let state: Value = serde_json::to_value(&self.state).unwrap_or(Value::Null);
        json!({
            "type": "state", "game": self.id, "variant": self.variant, "rules": self.rules,
            "start": self.start, "moves": self.moves, "evals": self.evals, "legal": self.legal,
            "previews": previews, "state": state, "seats": self.seats, "limit": self.limit,
            "paused": self.paused, "thinking": self.thinking(),
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
