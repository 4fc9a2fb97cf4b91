//! The CECP (xboard/WinBoard protocol 2) dialect at the protocol edge.
//!
//! CECP is stateful where USI is not: the GUI sends single moves and the engine keeps the
//! game, plays its side on its own and claims results. This edge keeps that game as the
//! USI start position and move list, checks each `usermove` (and finds the end of the
//! game) with a session of the same game, and drives the one engine with the usual typed
//! [`Command`]s: `position` then `go`. Moves are in chess notation ([`super::notation`]).
//! On `variant`, the board, holdings and pieces go to xboard with `setup` and `piece`.

use super::uci::chess_games;
use super::{shown, Step};
use crate::engine::options;
use crate::engine::{new_board, Board, Command, Event, PositionError, Score};
use crate::game::{ChessGame, Color, Outcome};
use crate::game::{SwitchInfo, SwitchKind};
use crate::search::limits::GoParams;

/// The clock as xboard last told it.
#[derive(Clone, Debug, Default)]
struct Clock {
    /// `time` / `otim`: the engine's and the opponent's clocks, centiseconds.
    own_cs: Option<u64>,
    other_cs: Option<u64>,
    /// `level`'s increment, milliseconds.
    inc_ms: u64,
    /// `st`: seconds per move.
    per_move_s: Option<u64>,
    /// `sd`: depth limit.
    depth: Option<u32>,
}

/// The game xboard and the engine play.
pub(crate) struct Cecp {
    game: Option<ChessGame>,
    /// A board of the same game that follows the moves, for legality and results (no
    /// table, no thread).
    tracker: Option<Board>,
    /// `setboard`'s SFEN; `None` is the start position.
    start: Option<String>,
    moves: Vec<String>,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    /// A game search runs: its `bestmove` becomes `move`.
    searching: bool,
    post: bool,
    clock: Clock,
    /// Send `setup` and `piece` once the engine has the variant.
    announce: bool,
    /// The last command line, quoted by errors.
    last: String,
}

impl Default for Cecp {
    fn default() -> Self {
        Cecp {
            game: None,
            tracker: None,
            start: None,
            moves: Vec::new(),
            engine_side: Some(Color::Gote),
            searching: false,
            post: false,
            clock: Clock::default(),
            announce: false,
            last: String::new(),
        }
    }
}

/// The playing level's options as xboard's `feature option` values (their chess names).
fn feature_option(o: &SwitchInfo) -> String {
    let default = |d: &str| {
        if d == "true" {
            "1"
        } else if d == "false" {
            "0"
        } else {
            d
        }
        .to_string()
    };
    match &o.kind {
        SwitchKind::Spin { min, max } => format!("{} -spin {} {min} {max}", o.chess_name, o.default),
        SwitchKind::Check => format!("{} -check {}", o.chess_name, default(o.default)),
        SwitchKind::Combo(values) => format!("{} -combo {}", o.chess_name, values.join(" /// ")),
        SwitchKind::Text | SwitchKind::File => format!("{} -string {}", o.chess_name, o.default),
    }
}

fn say(s: impl Into<String>) -> Step {
    Step::Say(s.into())
}

impl Cecp {
    /// Follows the engine's current game; a new game resets the moves.
    pub(crate) fn sync(&mut self, game: Option<ChessGame>) -> Vec<String> {
        if game.map(|g| g.name) != self.game.map(|g| g.name) {
            self.game = game;
            self.tracker = game.and_then(|g| new_board(g.name));
            self.start = None;
            self.moves.clear();
        }
        let mut out = Vec::new();
        if std::mem::take(&mut self.announce) {
            if let Some(g) = self.game {
                out.extend(setup_lines(&g, self.tracker.as_ref()));
            }
        }
        out
    }

    fn side_to_move(&self) -> Color {
        let first = match self.start.as_deref().and_then(|s| s.split_whitespace().nth(1)) {
            Some("w") => Color::Gote,
            _ => Color::Sente,
        };
        if self.moves.len().is_multiple_of(2) {
            first
        } else {
            first.flip()
        }
    }

    /// Puts the tracker on the game with `extra` moves played; on error it goes back.
    fn track(&mut self, start: Option<&str>, moves: &[String]) -> Result<(), String> {
        let Some(t) = self.tracker.as_mut() else { return Err("this variant is not played over CECP".into()) };
        if let Err(e) = t.set_position(start, moves) {
            let _ = t.set_position(self.start.as_deref(), &self.moves);
            let why = match e {
                PositionError::Move { source, .. } => source.to_string(),
                other => other.to_string(),
            };
            return Err(self.game.map_or(why.clone(), |g| g.text_to_chess(&why)));
        }
        Ok(())
    }

    /// Plays one more move on the tracker; an illegal one changes nothing.
    fn play(&mut self, token: &str) -> Result<(), String> {
        let Some(t) = self.tracker.as_mut() else { return Err("this variant is not played over CECP".into()) };
        t.play(token).map_err(|why| self.game.map_or(why.clone(), |g| g.text_to_chess(&why)))
    }

    /// The engine's claim (`1-0 {White wins}`) if the game is over.
    fn result(&self) -> Option<String> {
        let outcome = self.tracker.as_ref()?.outcome()?;
        let mover_won = match outcome {
            Outcome::Draw => return Some("1/2-1/2 {Draw}".to_string()),
            Outcome::Win => true,
            Outcome::Loss => false,
        };
        let white_won = mover_won == (self.side_to_move() == Color::Sente);
        Some(if white_won { "1-0 {White wins}" } else { "0-1 {Black wins}" }.to_string())
    }

    /// Starts the engine on the game's position if it is its turn.
    fn think_if_our_turn(&mut self) -> Vec<Step> {
        if self.engine_side != Some(self.side_to_move()) || self.searching {
            return Vec::new();
        }
        if let Some(r) = self.result() {
            return vec![say(r)];
        }
        let mut p = GoParams { depth: self.clock.depth, ..GoParams::default() };
        if let Some(s) = self.clock.per_move_s {
            p.movetime = Some(s.saturating_mul(1000));
        } else if let Some(own) = self.clock.own_cs {
            let ms = |cs: u64| cs.saturating_mul(10);
            let (own, other) = (ms(own), ms(self.clock.other_cs.unwrap_or(own)));
            let (b, w) = if self.side_to_move() == Color::Sente { (own, other) } else { (other, own) };
            (p.btime, p.wtime) = (Some(b), Some(w));
            (p.binc, p.winc) = (Some(self.clock.inc_ms), Some(self.clock.inc_ms));
        } else if p.depth.is_none() {
            p.movetime = Some(1000);
        }
        self.searching = true;
        vec![
            Step::Run(Command::Position { sfen: self.start.clone(), moves: self.moves.clone() }),
            Step::Run(Command::Go(p)),
        ]
    }

    fn error(&self, why: impl std::fmt::Display) -> Vec<Step> {
        vec![say(format!("Error ({why}): {}", self.last))]
    }

    /// One CECP line as steps for the engine.
    pub(crate) fn command(&mut self, line: &str) -> Vec<Step> {
        let line = line.trim();
        // Input is echoed in replies (`pong`, errors): escaped and cut, never raw.
        self.last = shown(line);
        let (name, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let number = |s: &str| s.parse::<u64>().ok();
        match name {
            "" | "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hard"
            | "easy" | "memory" | "cores" | "egtpath" | "draw" | "hint" | "bk" | "." | "exit" => Vec::new(),
            "protover" => {
                let name = format!("koma {}", env!("CARGO_PKG_VERSION"));
                vec![say(format!(
                    "feature ping=1 setboard=1 playother=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
                         analyze=0 colors=0 name=0 nps=0 memory=0 smp=0 debug=1 myname=\"{name}\" variants=\"{}\"",
                    xboard_names().join(",")
                ))]
                .into_iter()
                .chain(options::level_lines().iter().map(|o| say(format!("feature option=\"{}\"", feature_option(o)))))
                .chain([say("feature done=1")])
                .collect()
            }
            "option" => {
                let Some((name, value)) = args.split_once('=') else {
                    return self.error("expected option NAME=VALUE");
                };
                let (name, value) = (name.trim(), value.trim());
                let is_check = options::level_lines()
                    .iter()
                    .any(|o| o.chess_name.eq_ignore_ascii_case(name) && o.kind == SwitchKind::Check);
                let value = match value {
                    "1" if is_check => "true",
                    "0" if is_check => "false",
                    v => v,
                };
                vec![Step::Run(Command::SetOption { name: name.into(), value: Some(value.into()) })]
            }
            "ping" => vec![say(format!("pong {}", shown(args)))],
            "new" => {
                self.searching = false;
                self.start = None;
                self.moves.clear();
                self.engine_side = Some(Color::Gote);
                self.clock.depth = None;
                self.clock.per_move_s = None;
                let _ = self.track(None, &[]);
                // xboard's `new` abandons the game: a search of it stops at once (the engine
                // would otherwise let a timed search finish first).
                vec![Step::Run(Command::Stop), Step::Run(Command::NewGame)]
            }
            "variant" => {
                let Some(game) = chess_games().into_iter().find(|g| g.notation.xboard_name == args) else {
                    return self.error(format!("unknown variant; koma plays {}", xboard_names().join(", ")));
                };
                self.searching = false;
                self.announce = true;
                // The same variant again starts it afresh.
                if self.game.is_some_and(|g| g.name == game.name) {
                    self.start = None;
                    self.moves.clear();
                    let _ = self.track(None, &[]);
                }
                vec![Step::Run(Command::SetOption { name: "USI_Variant".into(), value: Some(game.name.into()) })]
            }
            "force" | "result" => {
                self.searching = false;
                self.engine_side = None;
                vec![Step::Run(Command::Stop)]
            }
            "go" => {
                self.engine_side = Some(self.side_to_move());
                let steps = self.think_if_our_turn();
                if steps.is_empty() {
                    return self.error("the engine is already thinking");
                }
                steps
            }
            "playother" => {
                self.engine_side = Some(self.side_to_move().flip());
                Vec::new()
            }
            "?" => {
                if self.searching {
                    vec![Step::Run(Command::Stop)]
                } else {
                    Vec::new()
                }
            }
            "usermove" => self.usermove(args),
            "setboard" => {
                let Some(g) = self.game else { return self.error("no variant") };
                let sfen = match g.fen_to_sfen(args) {
                    Ok(s) => s,
                    Err(e) => return vec![say(format!("tellusererror Illegal position: {}", shown(&e.to_string())))],
                };
                if let Err(e) = self.track(Some(&sfen), &[]) {
                    return vec![say(format!("tellusererror Illegal position: {}", shown(&e)))];
                }
                self.searching = false;
                self.start = Some(sfen);
                self.moves.clear();
                vec![Step::Run(Command::Stop)]
            }
            "undo" | "remove" => {
                let n = if name == "undo" { 1 } else { 2 };
                if self.moves.len() < n {
                    return self.error("no move to take back");
                }
                self.searching = false;
                let moves = self.moves[..self.moves.len() - n].to_vec();
                let start = self.start.clone();
                if let Err(e) = self.track(start.as_deref(), &moves) {
                    return self.error(e);
                }
                self.moves = moves;
                vec![Step::Run(Command::Stop)]
            }
            "time" | "otim" => match number(args) {
                Some(cs) if name == "time" => {
                    self.clock.own_cs = Some(cs);
                    Vec::new()
                }
                Some(cs) => {
                    self.clock.other_cs = Some(cs);
                    Vec::new()
                }
                None => self.error("expected centiseconds"),
            },
            "level" => match level(args) {
                Some(inc_ms) => {
                    self.clock.inc_ms = inc_ms;
                    self.clock.per_move_s = None;
                    Vec::new()
                }
                None => self.error("expected 'level <moves> <minutes[:seconds]> <increment>'"),
            },
            "st" => match number(args) {
                Some(s) if s > 0 => {
                    self.clock.per_move_s = Some(s);
                    Vec::new()
                }
                _ => self.error("expected seconds per move"),
            },
            "sd" => match number(args).and_then(|d| u32::try_from(d).ok()).filter(|&d| d > 0) {
                Some(d) => {
                    self.clock.depth = Some(d);
                    Vec::new()
                }
                None => self.error("expected a depth"),
            },
            "post" | "nopost" => {
                self.post = name == "post";
                Vec::new()
            }
            "quit" => vec![Step::Run(Command::Quit)],
            // Moves without `usermove` (xboard sends them so when usermove=1 is refused).
            _ if self.game.is_some_and(|g| g.move_from_chess(name).is_ok()) && args.is_empty() => self.usermove(name),
            _ => vec![say(format!("Error (unknown command): {name}"))],
        }
    }

    fn usermove(&mut self, m: &str) -> Vec<Step> {
        let Some(g) = self.game else { return self.error("no variant") };
        if self.searching {
            return vec![say(format!("Illegal move (it is the engine's turn): {}", shown(m)))];
        }
        let token = match g.move_from_chess(m) {
            Ok(t) => t,
            Err(e) => return vec![say(format!("Illegal move ({}): {}", shown(&e.to_string()), shown(m)))],
        };
        // One move more on the tracker (replaying the whole game each move would make a
        // long game quadratic).
        if let Err(e) = self.play(&token) {
            return vec![say(format!("Illegal move ({}): {}", shown(&e), shown(m)))];
        }
        self.moves.push(token);
        if let Some(r) = self.result() {
            return vec![say(r)];
        }
        self.think_if_our_turn()
    }

    /// One engine event as CECP lines.
    pub(crate) fn format(&mut self, e: &Event) -> Vec<String> {
        let game = self.game;
        let chess = |m: &String| game.and_then(|g| g.move_to_chess(m).ok()).unwrap_or_else(|| m.clone());
        match e {
            Event::Info(info) if self.post && self.searching => {
                let score = match info.score {
                    Some(Score::Mate(n)) if n > 0 => 100000 + (n + 1) / 2,
                    Some(Score::Mate(n)) => -100000 - (-n + 1) / 2,
                    Some(Score::Cp(cp)) => cp,
                    None => 0,
                };
                let pv: Vec<String> = info.pv.iter().map(chess).collect();
                vec![format!("{} {score} {} {} {}", info.depth, info.time_ms / 10, info.nodes, pv.join(" "))]
            }
            Event::BestMove { mv, .. } if self.searching => {
                self.searching = false;
                let Some(m) = mv.clone() else {
                    return vec![self.result().unwrap_or_else(|| "resign".into())];
                };
                if let Err(e) = self.play(&m) {
                    return vec![format!("Error (the engine's own move {m} was refused: {e}): {}", self.last)];
                }
                self.moves.push(m.clone());
                let mut out = vec![format!("move {}", chess(&m))];
                out.extend(self.result());
                out
            }
            Event::Error(e) => {
                let e = game.map_or(e.clone(), |g| g.text_to_chess(e));
                vec![format!("Error ({e}): {}", self.last)]
            }
            // What USI writes as `info string` or plain text (`d`, the perft total, bench)
            // is a comment for xboard; moves lists and perft's move lines are not shown.
            Event::Message(_)
            | Event::BookMove(_)
            | Event::State(_)
            | Event::VariantChanged { .. }
            | Event::PerftTotal { .. }
            | Event::BenchPosition { .. }
            | Event::BenchStopped { .. }
            | Event::BenchTotal { .. } => super::usi::format(e)
                .into_iter()
                .map(|l| format!("# {}", l.strip_prefix("info string ").unwrap_or(&l)))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// The names xboard knows koma's games by.
fn xboard_names() -> Vec<&'static str> {
    chess_games().iter().map(|g| g.notation.xboard_name).collect()
}

/// `level <moves> <base> <inc>` → the increment in milliseconds.
fn level(args: &str) -> Option<u64> {
    let w: Vec<&str> = args.split_whitespace().collect();
    let [mps, base, inc] = w.as_slice() else { return None };
    mps.parse::<u32>().ok()?;
    let (min, sec) = base.split_once(':').unwrap_or((base, "0"));
    min.parse::<u64>().ok()?;
    sec.parse::<u64>().ok()?;
    let inc: f64 = inc.parse().ok().filter(|i: &f64| i.is_finite() && *i >= 0.0)?;
    Some((inc * 1000.0) as u64)
}

/// `setup` and `piece` for xboard: the board size, holdings, start position and moves.
fn setup_lines(g: &ChessGame, tracker: Option<&Board>) -> Vec<String> {
    let n = &g.notation;
    let start = tracker.and_then(|t| t.state().ok()).and_then(|state| g.sfen_to_fen(&state.sfen).ok());
    // One holdings slot per piece letter of a side but the royal king (the last).
    let side = &n.xboard_pieces[..n.xboard_pieces.len() / 2 - 1];
    let holdings = if n.holdings { side.chars().filter(char::is_ascii_alphabetic).count() } else { 0 };
    let mut out = vec![format!(
        "setup ({}) {}x{}+{}_{} {}",
        n.xboard_pieces,
        g.files,
        g.ranks,
        holdings,
        n.xboard_parent,
        start.unwrap_or_default()
    )];
    out.extend(n.xboard_moves.iter().map(|(p, betza)| format!("piece {p}& {betza}")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(steps: &[Step]) -> Vec<String> {
        steps.iter().filter_map(|s| if let Step::Say(r) = s { Some(r.to_string()) } else { None }).collect()
    }

    #[test]
    fn level_reads_the_increment() {
        assert_eq!(level("40 5 0"), Some(0));
        assert_eq!(level("0 2:30 1.5"), Some(1500));
        assert_eq!(level("40 5"), None);
        assert_eq!(level("x 5 0"), None);
        assert_eq!(level("40 5:xx 0"), None);
        assert_eq!(level("40 5 -1"), None);
    }

    #[test]
    fn a_user_move_before_any_variant_is_refused_and_changes_nothing() {
        let mut c = Cecp::default();
        assert_eq!(lines(&c.command("usermove e2e4")), vec!["Error (no variant): usermove e2e4"]);
        assert!(c.moves.is_empty());
        assert_eq!(
            lines(&c.command("time 99999999999999999999")),
            vec!["Error (expected centiseconds): time 99999999999999999999"]
        );
        assert_eq!(c.clock.own_cs, None);
    }

    #[test]
    fn huge_clocks_do_not_overflow() {
        let mut c = Cecp::default();
        c.sync(chess_games().into_iter().find(|g| g.name == "kokesu"));
        c.command("time 18446744073709551615");
        let steps = c.command("go");
        let Some(Step::Run(Command::Go(p))) = steps.get(1) else { panic!("{steps:?}") };
        assert_eq!(p.btime, Some(u64::MAX));
    }
}
