//! The typed requests the engine takes. Each dialect's parser (`crate::protocol`) makes
//! them from its own lines; the engine never sees text of any protocol.

use crate::game::RuleSet;
use crate::search::limits::GoParams;

/// One request to the engine, whichever dialect it was written in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// The protocol's handshake (`usi`, `uci`): the engine answers with its name and
    /// options ([`crate::engine::Event::Hello`]).
    Hello,
    IsReady,
    /// `setoption name N [value V]`; the value may contain spaces.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// Play the rule set's game under its rules switches (its variant chosen if it is
    /// another; the engine's own evaluation and engine switches kept): what a page or a
    /// script that holds a live game sends, instead of one `SetOption` per switch.
    Rules(RuleSet),
    /// `usinewgame` / `ucinewgame`.
    NewGame,
    /// `position startpos|sfen <sfen> [moves m1 m2 ...]`; `sfen: None` is startpos.
    Position {
        sfen: Option<String>,
        moves: Vec<String>,
    },
    Go(GoParams),
    /// A `go` the dialect could not read (UCI): after any running job has ended as a new
    /// `go` would end it, the engine answers the error and a `bestmove` that plays nothing.
    CannotGo {
        why: String,
    },
    /// `go perft N`.
    Perft(u32),
    Stop,
    PonderHit,
    /// `gameover win|lose|draw` (the result is accepted and not used).
    GameOver(String),
    Quit,
    /// `d`: board diagram and SFEN.
    Display,
    /// `moves`: every legal move on one line.
    Moves,
    /// `bench [depth]`.
    Bench(Option<u32>),
}
