//! The protocol edge: three peer dialects over the one engine. Each turns its own lines
//! into the engine's typed commands and the engine's typed events into its own lines; the
//! engine knows none of them. The full reference is `protocol/README.md`.
//!
//! - [`usi`]: USI (the default), and the parser the UCI dialect shares for common commands;
//! - [`uci`]: UCI, in chess notation, for the games that have one;
//! - [`cecp`]: CECP (xboard), which keeps the game itself and drives the engine;
//! - [`io`]: the loop that reads lines, picks the dialect and writes lines.

pub(crate) mod cecp;
pub(crate) mod io;
pub(crate) mod uci;
pub(crate) mod usi;

pub use io::{recording_stdout_sink, run_script, Tap};
pub use usi::{parse_command, CommandError};

use crate::engine::Command;

/// What a dialect makes of one input line: commands for the engine and lines of its own
/// for the GUI, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Run(Command),
    Say(String),
}

pub use crate::input::{shown, MAX_ERROR_CHARS};
