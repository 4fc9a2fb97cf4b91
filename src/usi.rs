//! The protocol loop: reads lines, parses them, hands commands to the [`Engine`].
//!
//! The session speaks USI until a line is `uci` or `xboard` (the first line, for a GUI of
//! those protocols); from then on every line goes through that dialect's edge
//! (`protocol::uci`, `protocol::cecp`), which turns it into the same typed commands and
//! turns the engine's replies back into its lines.

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::engine::{Engine, Flow};
use crate::protocol::cecp::Cecp;
use crate::protocol::notation::ChessGame;
use crate::protocol::{parse_command, uci, Command, Reply, Step};
use crate::session::Sink;
use crate::transcript::Recorder;

/// The dialect of the session, with the current game's chess notation.
enum Dialect {
    Usi,
    Uci(Result<ChessGame, &'static str>),
    Cecp(Cecp),
}

impl Dialect {
    fn command(&mut self, line: &str) -> Vec<Step> {
        match self {
            Dialect::Usi => match parse_command(line) {
                Ok(None) => Vec::new(),
                Ok(Some(cmd)) => vec![Step::Run(cmd)],
                Err(e) => vec![Step::Say(Reply::Error(e.to_string()))],
            },
            Dialect::Uci(game) => uci::command(line, game.as_ref().map_err(|v| *v)),
            Dialect::Cecp(cecp) => cecp.command(line),
        }
    }

    /// The engine's reply as lines; `None`: the reply as it is (USI).
    fn reply(&mut self, r: Reply) -> Result<Vec<String>, Reply> {
        match self {
            Dialect::Usi => Err(r),
            Dialect::Uci(game) => Ok(uci::reply(r, game.as_ref().ok())),
            Dialect::Cecp(cecp) => Ok(cecp.reply(r)),
        }
    }

    /// Follows the engine's current game; lines to send because of it.
    fn sync(&mut self, engine: &Engine) -> Vec<String> {
        match self {
            Dialect::Usi => Vec::new(),
            Dialect::Uci(game) => {
                *game = engine.chess_game().ok_or(engine.variant());
                Vec::new()
            }
            Dialect::Cecp(cecp) => cecp.sync(engine.chess_game()),
        }
    }
}

/// A sink that writes each reply as whole lines to stdout, flushed at once. Write errors
/// (a closed pipe) are ignored: the engine still ends cleanly at EOF.
pub fn stdout_sink() -> Sink {
    recording_stdout_sink(None)
}

/// [`stdout_sink`] that also shows each reply to `recorder`.
pub fn recording_stdout_sink(recorder: Option<Arc<Recorder>>) -> Sink {
    let lock = Arc::new(Mutex::new(()));
    Arc::new(move |r: Reply| {
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        let text = r.to_string();
        if let Some(rec) = &recorder {
            rec.output(&text);
        }
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    })
}

fn lock(d: &Mutex<Dialect>) -> std::sync::MutexGuard<'_, Dialect> {
    d.lock().unwrap_or_else(|p| p.into_inner())
}

/// The protocol loop's state: the engine, the dialect its lines go through, and the
/// recorder that sees every line read.
struct Loop<'r> {
    engine: Engine,
    dialect: Arc<Mutex<Dialect>>,
    sink: Sink,
    recorder: Option<&'r Recorder>,
}

impl<'r> Loop<'r> {
    fn new(sink: Sink, recorder: Option<&'r Recorder>) -> Self {
        let dialect = Arc::new(Mutex::new(Dialect::Usi));
        let out = Arc::clone(&sink);
        let translated = Arc::clone(&dialect);
        let engine_sink: Sink = Arc::new(move |r: Reply| match lock(&translated).reply(r) {
            Err(r) => out(r),
            Ok(lines) => lines.into_iter().for_each(|l| out(Reply::Text(l))),
        });
        Loop { engine: Engine::new(engine_sink), dialect, sink, recorder }
    }

    fn say(&self, lines: Vec<String>) {
        lines.into_iter().for_each(|l| (self.sink)(Reply::Text(l)));
    }

    /// Parses one line in the current dialect and hands its commands to the engine.
    fn line(&mut self, line: &str) -> Flow {
        log::debug!("<< {}", line.trim_end());
        let switch_to = match line.trim() {
            "uci" => Some(Dialect::Uci(Err(""))),
            "xboard" => Some(Dialect::Cecp(Cecp::default())),
            _ => None,
        };
        if let Some(d) = switch_to.filter(|_| matches!(*lock(&self.dialect), Dialect::Usi)) {
            *lock(&self.dialect) = d;
            let lines = lock(&self.dialect).sync(&self.engine);
            self.say(lines);
        }
        // The dialect lock is not held while the engine works: its search thread answers
        // through it.
        let steps = lock(&self.dialect).command(line);
        for step in steps {
            match step {
                Step::Say(r) => (self.sink)(r),
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

/// Runs the protocol on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, sink: Sink) {
    run_script(&[], input, sink, None)
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
pub fn run_script(script: &[String], input: impl BufRead, sink: Sink, recorder: Option<&Recorder>) {
    let mut state = Loop::new(sink, recorder);
    for line in script.iter().flat_map(|l| l.lines()) {
        if matches!(parse_command(line), Ok(Some(Command::Quit))) {
            // The script's `quit` is an end of input, and is recorded as one.
            state.end();
            return;
        }
        if let Some(r) = recorder {
            r.input(line);
        }
        if state.line(line) == Flow::Quit {
            return;
        }
        state.engine.wait_for_limited_job();
    }
    let mut input = input;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                log::debug!("input error: {e}");
                break;
            }
        }
        let line = String::from_utf8_lossy(&buf);
        if let Some(r) = recorder {
            r.input(&line);
        }
        if state.line(&line) == Flow::Quit {
            return;
        }
    }
    // End of input is `quit`; a search with its own limits may finish first.
    state.end();
}
