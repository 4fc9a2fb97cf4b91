//! The USI text protocol: lines in, typed commands out; typed replies in, lines out.
//! It knows no rule of any game. The full reference is `protocol/README.md`.

mod command;
mod reply;

pub use command::{parse_command, Command, CommandError, GoParams};
pub use reply::{Info, MateResult, Reply, Score};
