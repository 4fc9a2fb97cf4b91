//! The USI text protocol: lines in, typed commands out; typed replies in, lines out.
//! It knows no rule of any game. The full reference is `protocol/README.md`.

pub mod cecp;
mod command;
pub mod notation;
mod reply;
pub mod uci;

pub use command::{parse_command, Command, CommandError, GoParams};
pub use reply::{Info, MateResult, Reply, Score};

/// What a dialect edge makes of one input line: commands for the engine and lines for
/// the GUI, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Run(Command),
    Say(Reply),
}
