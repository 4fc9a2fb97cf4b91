//! The protocol loop: reads lines, lets the session's dialect parse them, hands the
//! commands to the [`Engine`], and writes the engine's events in the same dialect.
//!
//! The session speaks USI until a line is `uci` or `xboard` (the first line, for a GUI of
//! those protocols); from then on every line goes through that dialect
//! ([`super::usi`], [`super::uci`], [`super::cecp`]: peers, each a parser and a formatter
//! over the same typed commands and events).

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use super::cecp::Cecp;
use super::{parse_command, shown, uci, usi, Step};
use crate::engine::{Command, Engine, Event, Flow, Sink};
use crate::game::ChessGame;
use crate::games;
use crate::input::lines::{Lines, MAX_LINE_BYTES};

/// The dialect of the session, with the current game's chess notation.
enum Dialect {
    Usi,
    Uci(Result<ChessGame, &'static str>),
    Cecp(Box<Cecp>),
}

impl Dialect {
    fn command(&mut self, line: &str) -> Vec<Step> {
        match self {
            Dialect::Usi => match parse_command(line) {
                Ok(None) => Vec::new(),
                Ok(Some(cmd)) => vec![Step::Run(cmd)],
                Err(e) => vec![Step::Say(usi::error_line(&e.to_string()))],
            },
            Dialect::Uci(game) => uci::command(line, game.as_ref().map_err(|v| *v)),
            Dialect::Cecp(cecp) => cecp.command(line),
        }
    }

    /// An engine event as lines of this dialect.
    fn format(&mut self, e: &Event) -> Vec<String> {
        match self {
            Dialect::Usi => usi::format(e),
            Dialect::Uci(game) => uci::format(e, game.as_ref().ok()),
            Dialect::Cecp(cecp) => cecp.format(e),
        }
    }

    /// Follows the engine's current game; lines to send because of it.
    fn sync(&mut self, engine: &Engine) -> Vec<String> {
        match self {
            Dialect::Usi => Vec::new(),
            Dialect::Uci(game) => {
                *game = chess_game(engine).ok_or(engine.variant());
                Vec::new()
            }
            Dialect::Cecp(cecp) => cecp.sync(chess_game(engine)),
        }
    }
}

/// Something that sees every line the loop reads and writes (the transcript recorder,
/// `koma --record`).
pub trait Tap: Send + Sync {
    /// A line read.
    fn input(&self, line: &str);
    /// A line written.
    fn output(&self, line: &str);
    /// The input ended (or a script's `quit`).
    fn end_of_input(&self);
}

/// Where the loop's output lines go: one call a line, in order.
pub(crate) type LineSink = Arc<dyn Fn(&str) + Send + Sync>;

/// A sink that writes each line to stdout, flushed at once, and shows it to `recorder`.
/// A write that fails (stdout closed by the GUI, a full disk) ends the process at once
/// with status 1: nobody can read an answer any more, and a search would only go on
/// using the machine (`go depth 100` for minutes, even at EOF). The transcript, written
/// and flushed line by line, is whole up to that line.
pub fn recording_stdout_sink(recorder: Option<Arc<dyn Tap>>) -> LineSink {
    let lock = Arc::new(Mutex::new(()));
    Arc::new(move |text: &str| {
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(rec) = &recorder {
            rec.output(text);
        }
        let mut out = std::io::stdout().lock();
        if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
            log::warn!("stdout cannot be written ({e}): the engine exits");
            std::process::exit(1);
        }
    })
}

/// The engine's game in the chess protocols, from the registry (no session is made).
fn chess_game(engine: &Engine) -> Option<ChessGame> {
    games::descriptor(engine.variant()).and_then(games::Descriptor::chess_game)
}

fn lock(d: &Mutex<Dialect>) -> std::sync::MutexGuard<'_, Dialect> {
    d.lock().unwrap_or_else(|p| p.into_inner())
}

/// The protocol loop's state: the engine, the dialect its lines go through, and the
/// recorder that sees every line read.
struct Loop<'r> {
    engine: Engine,
    dialect: Arc<Mutex<Dialect>>,
    sink: LineSink,
    recorder: Option<&'r dyn Tap>,
    /// Whether a line other than a blank one has been read: only the first may pick the
    /// dialect.
    started: bool,
}

impl<'r> Loop<'r> {
    fn new(sink: LineSink, recorder: Option<&'r dyn Tap>) -> Self {
        let dialect = Arc::new(Mutex::new(Dialect::Usi));
        let out = Arc::clone(&sink);
        let translated = Arc::clone(&dialect);
        // The engine's events, in the dialect of the moment.
        let engine_sink: Sink = Arc::new(move |e: Event| {
            let lines = lock(&translated).format(&e);
            lines.iter().for_each(|l| out(l));
        });
        Loop { engine: Engine::new(engine_sink), dialect, sink, recorder, started: false }
    }

    fn say(&self, lines: Vec<String>) {
        lines.iter().for_each(|l| (self.sink)(l));
    }

    /// Parses one line in the current dialect and hands its commands to the engine.
    fn line(&mut self, line: &str) -> Flow {
        log::debug!("<< {}", line.trim_end());
        let switch_to = match line.trim() {
            "uci" => Some(Dialect::Uci(Err(""))),
            "xboard" => Some(Dialect::Cecp(Box::default())),
            _ => None,
        };
        let first = !self.started;
        self.started |= !line.trim().is_empty();
        match switch_to {
            Some(d) if first => {
                *lock(&self.dialect) = d;
                let lines = lock(&self.dialect).sync(&self.engine);
                self.say(lines);
            }
            Some(_) if matches!(*lock(&self.dialect), Dialect::Usi) => {
                let why = format!(
                    "'{}' picks its dialect only as the first line of a session; this one speaks USI",
                    line.trim()
                );
                self.say(vec![usi::error_line(&why)]);
                return Flow::Continue;
            }
            _ => {}
        }
        // The dialect lock is not held while the engine works: its search thread answers
        // through it.
        let steps = lock(&self.dialect).command(line);
        for step in steps {
            match step {
                Step::Say(line) => (self.sink)(&line),
                Step::Run(cmd) => {
                    if self.engine.handle(cmd) == Flow::Quit {
                        return Flow::Quit;
                    }
                    let lines = lock(&self.dialect).sync(&self.engine);
                    self.say(lines);
                }
            }
        }
        Flow::Continue
    }

    /// End of input: a search with limits of its own finishes, any other ends.
    fn end(&mut self) {
        if let Some(r) = self.recorder {
            r.end_of_input();
        }
        self.engine.end_of_input();
    }
}

/// The `go` limits that a user may type as commands of their own.
const GO_WORDS: [&str; 6] = ["perft", "depth", "nodes", "movetime", "mate", "infinite"];

/// A hint for command-line arguments that look like one `go` command split into several
/// (`koma perft 3`): each argument is one command line, so none of them would run.
pub(crate) fn split_command_hint(script: &[String]) -> Option<String> {
    let first = script.first()?.trim();
    if !GO_WORDS.contains(&first) || parse_command(first).is_ok() {
        return None;
    }
    let words: Vec<&str> = script.iter().map(|a| a.trim()).take_while(|a| *a != "quit").collect();
    let joined = shown(&format!("go {}", words.join(" ")));
    Some(format!("unknown command '{first}': each argument is one command line; did you mean koma \"{joined}\"?"))
}

/// Runs `script` (the command-line commands, one line each), then `input`, until `quit`
/// or end of input; every line read is shown to `recorder`.
///
/// A script runs one command after the other: a search, perft or bench with limits of its
/// own finishes before the next command (open-ended ones, such as `go infinite`, go on
/// under the next command). So `koma "go perft 5" quit` prints the whole count and
/// `koma "position startpos" "go depth 12" quit` the whole search; a `quit` in the script
/// is the end of the script's input. `quit` read from stdin stops a search at once, as
/// USI asks.
///
/// `variant` (`koma --variant NAME`) is set first, as a `setoption name USI_Variant` would
/// (its `info string variant` line is written and recorded), without being the session's
/// first line: a `uci` or `xboard` after it still picks the dialect.
///
/// Input that cannot be read (stdin a directory, a read error) is said as an error line,
/// ends the session as the end of input does, and is returned: the binary exits with 1.
pub fn run_script(
    variant: Option<&str>,
    script: &[String],
    input: impl BufRead,
    sink: LineSink,
    recorder: Option<&dyn Tap>,
) -> Result<(), String> {
    if let Some(hint) = split_command_hint(script) {
        sink(&usi::error_line(&hint));
        return Err(hint);
    }
    let mut state = Loop::new(sink, recorder);
    if let Some(v) = variant {
        let line = format!("setoption name USI_Variant value {v}");
        if let Some(r) = recorder {
            r.input(&line);
        }
        if let Ok(Some(cmd)) = parse_command(&line) {
            state.engine.handle(cmd);
        }
    }
    for line in script.iter().flat_map(|l| l.lines()) {
        if matches!(parse_command(line), Ok(Some(Command::Quit))) {
            // The script's `quit` is an end of input, and is recorded as one.
            state.end();
            return Ok(());
        }
        if let Some(r) = recorder {
            r.input(line);
        }
        if state.line(line) == Flow::Quit {
            return Ok(());
        }
        state.engine.wait_for_limited_job();
    }
    let mut lines = Lines::new(input);
    let mut failed = Ok(());
    loop {
        let line = match lines.next_line() {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                let why = format!("cannot read the input: {e}");
                let said = lock(&state.dialect).format(&Event::Error(why.clone()));
                state.say(said);
                failed = Err(why);
                break;
            }
        };
        if line.cut > 0 {
            // Not run, not even in part: a cut command could mean something else.
            let length = line.bytes.len() as u64 + line.cut;
            let why = format!("a line of {length} bytes, longer than the {MAX_LINE_BYTES} a line may have: ignored");
            let said = lock(&state.dialect).format(&Event::Error(why));
            state.say(said);
            continue;
        }
        let text = String::from_utf8_lossy(line.bytes);
        if let Some(r) = recorder {
            r.input(&text);
        }
        if state.line(&text) == Flow::Quit {
            return Ok(());
        }
    }
    // End of input is `quit`; a search with its own limits may finish first.
    state.end();
    failed
}
