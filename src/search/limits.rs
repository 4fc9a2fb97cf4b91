//! What a `go` asks of the search: clocks, fixed limits, mate search, moves to consider.
//! The engine owns this type; every dialect's parser fills it in.

/// The deepest search a script may ask for (`koma analyse --depth`, the Python module's
/// `analyse(depth=)`): the search's own limit. A GUI's `go depth` may say more, which
/// means the same.
pub const MAX_DEPTH: u32 = super::MAX_PLY as u32 - 1;

/// The limits of a `go` command. Times are milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    pub btime: Option<u64>,
    pub wtime: Option<u64>,
    pub binc: Option<u64>,
    pub winc: Option<u64>,
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    /// `go mate <ms>` / `go mate infinite` (`Some(None)` = no time limit).
    pub mate: Option<Option<u64>>,
    pub searchmoves: Vec<String>,
}
