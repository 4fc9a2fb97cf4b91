//! The protocol loop: reads lines, parses them, hands commands to the [`Engine`].

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::engine::{Engine, Flow};
use crate::protocol::{parse_command, Command, Reply};
use crate::session::Sink;
use crate::transcript::Recorder;

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
    let mut engine = Engine::new(Arc::clone(&sink));
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
        match parse_command(&line) {
            Ok(None) => {}
            Ok(Some(cmd)) => {
                if engine.handle(cmd) == Flow::Quit {
                    return;
                }
            }
            Err(e) => sink(Reply::Error(e.to_string())),
        }
    }
    // End of input is `quit`; a search with its own limits may finish first.
    if let Some(r) = recorder {
        r.end_of_input();
    }
    engine.end_of_input();
}
