//! The protocol edge: three peer dialects over the one engine. Each turns its own lines
//! into the engine's typed commands and the engine's typed events into its own lines; the
//! engine knows none of them. The full reference is `protocol/README.md`.
//!
//! - [`usi`]: USI (the default), and the parser the UCI dialect shares for common commands;
//! - [`uci`]: UCI, in chess notation, for the games that have one;
//! - [`cecp`]: CECP (xboard), which keeps the game itself and drives the engine;
//! - [`notation`]: USI <-> chess notation;
//! - [`io`]: the loop that reads lines, picks the dialect and writes lines.

pub mod cecp;
pub mod io;
pub mod notation;
pub mod uci;
pub mod usi;

pub use usi::{parse_command, CommandError};

use crate::engine::Command;

/// What a dialect makes of one input line: commands for the engine and lines of its own
/// for the GUI, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Run(Command),
    Say(String),
}

/// The longest error text printed; the rest is cut (a 1 MB bad value is not echoed).
pub const MAX_ERROR_CHARS: usize = 300;

/// Text that may hold input, made safe for one output line: control characters escaped
/// (`\r`, `\n`, `\t`, else `\u{..}`, U+2028 and U+2029 too), so no input byte can start a line of its own
/// or look like one to a reader splitting on `\r`, and cut to [`MAX_ERROR_CHARS`].
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref() {
        match c {
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // Controls, and the Unicode line and paragraph separators that many readers
            // split lines on.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
        if out.chars().count() >= MAX_ERROR_CHARS {
            break;
        }
    }
    let rest = chars.count();
    if rest > 0 {
        out.push_str(&format!("... ({rest} more characters)"));
    }
    out
}
