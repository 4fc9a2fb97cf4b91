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

/// Runs the protocol on `input` until `quit` or end of input.
pub fn run(input: impl BufRead, sink: Sink) {
    let mut engine = Engine::new(Arc::clone(&sink));
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
    engine.end_of_input();
}
