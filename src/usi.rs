//! The protocol loop: reads lines, parses them, hands commands to the [`Engine`].

use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

use crate::engine::{Engine, Flow};
use crate::protocol::{parse_command, Reply};
use crate::session::Sink;

/// A sink that writes each reply as whole lines to stdout, flushed at once. Write errors
/// (a closed pipe) are ignored: the engine still ends cleanly at EOF.
pub fn stdout_sink() -> Sink {
    let lock = Arc::new(Mutex::new(()));
    Arc::new(move |r: Reply| {
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{r}");
        let _ = out.flush();
    })
}

/// Parses one line and hands it to the engine.
fn handle_line(engine: &mut Engine, bytes: &[u8], sink: &Sink) -> Flow {
    let line = String::from_utf8_lossy(bytes);
    log::debug!("<< {}", line.trim_end());
    match parse_command(&line) {
        Ok(None) => Flow::Continue,
        Ok(Some(cmd)) => engine.handle(cmd),
        Err(e) => {
            sink(Reply::Error(e.to_string()));
            Flow::Continue
        }
    }
}

/// Runs the protocol on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, sink: Sink) {
    run_with_script(&[], input, sink)
}

/// Runs `script` (one command per item, e.g. the command-line arguments), then `input`.
/// A script is run one command after the other: a search, perft or bench with limits
/// of its own finishes before the next command, so `koma "go perft 5" quit` prints the
/// whole count (open-ended ones, such as `go infinite`, go on under the next command).
pub fn run_with_script(script: &[String], input: impl BufRead, sink: Sink) {
    let mut engine = Engine::new(Arc::clone(&sink));
    for line in script {
        if handle_line(&mut engine, line.as_bytes(), &sink) == Flow::Quit {
            return;
        }
        engine.wait_for_limited_job();
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
        if handle_line(&mut engine, &buf, &sink) == Flow::Quit {
            return;
        }
    }
    // End of input is `quit`; a search with its own limits may finish first.
    engine.end_of_input();
}
