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

/// Runs the protocol on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, sink: Sink) {
    run_script(&[], input, sink, None)
}

/// Runs `script` (the command-line commands, one line each), then `input`, until `quit`
/// or end of input; every line read is shown to `recorder`.
///
/// A `quit` in the script is the end of the script's input, not a USI `quit`: a search
/// with limits of its own (`go depth 12`, `go byoyomi 1000`) finishes first, as at the end
/// of stdin, so `koma "position startpos" "go depth 12" quit` prints the whole search and
/// exits. `quit` read from stdin stops a search at once, as USI asks.
pub fn run_script(script: &[String], input: impl BufRead, sink: Sink, recorder: Option<&Recorder>) {
    let dialect = Arc::new(Mutex::new(Dialect::Usi));
    let out = Arc::clone(&sink);
    let translated = Arc::clone(&dialect);
    let engine_sink: Sink = Arc::new(move |r: Reply| match lock(&translated).reply(r) {
        Err(r) => out(r),
        Ok(lines) => lines.into_iter().for_each(|l| out(Reply::Text(l))),
    });
    let say = |lines: Vec<String>| lines.into_iter().for_each(|l| sink(Reply::Text(l)));
    let mut engine = Engine::new(engine_sink);
    for line in script.iter().flat_map(|l| l.lines()) {
        let parsed = parse_command(line);
        if let Some(r) = recorder {
            // The script's `quit` is an end of input, and is recorded as one.
            if matches!(parsed, Ok(Some(Command::Quit))) {
                r.end_of_input();
            } else {
                r.input(line);
            }
        }
        match parsed {
            Ok(None) => {}
            Ok(Some(Command::Quit)) => {
                engine.end_of_input();
                return;
            }
            Ok(Some(cmd)) => {
                if engine.handle(cmd) == Flow::Quit {
                    return;
                }
            }
            Err(e) => sink(Reply::Error(e.to_string())),
        }
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
        log::debug!("<< {}", line.trim_end());
        let switch_to = match line.trim() {
            "uci" => Some(Dialect::Uci(Err(""))),
            "xboard" => Some(Dialect::Cecp(Cecp::default())),
            _ => None,
        };
        if let Some(d) = switch_to.filter(|_| matches!(*lock(&dialect), Dialect::Usi)) {
            *lock(&dialect) = d;
            let lines = lock(&dialect).sync(&engine);
            say(lines);
        }
        // The dialect lock is not held while the engine works: its search thread answers
        // through it.
        let steps = lock(&dialect).command(&line);
        for step in steps {
            match step {
                Step::Say(r) => sink(r),
                Step::Run(cmd) => {
                    if engine.handle(cmd) == Flow::Quit {
                        return;
                    }
                    let lines = lock(&dialect).sync(&engine);
                    say(lines);
                }
            }
        }
    }
    // End of input is `quit`; a search with its own limits may finish first.
    if let Some(r) = recorder {
        r.end_of_input();
    }
    engine.end_of_input();
}
