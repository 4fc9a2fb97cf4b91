//! How a game is written in the chess protocols (UCI, CECP).

/// How a game is written in the chess protocols (UCI, CECP): FEN and squares `a1`.. are
/// derived from the board size; these are the facts that are not. Only games whose every
/// move is one board move or one drop have one (see `src/protocol/notation.rs`).
#[derive(Clone, Copy, Debug)]
pub struct ChessNotation {
    /// The name in CECP's `variant` (xboard takes a name that starts with one of its own
    /// variants' names, such as `shogi66`, for that variant).
    pub xboard_name: &'static str,
    /// The FEN carries holdings in brackets (`[Nnpp]`, `[]` when empty).
    pub holdings: bool,
    /// xboard `setup`: the piece-to-character table (xboard's piece order, `.` unused).
    pub xboard_pieces: &'static str,
    /// xboard `setup`: the parent variant whose rules xboard applies (`fairy`, `shogi`).
    pub xboard_parent: &'static str,
    /// xboard `piece` lines: a piece letter (`+A` for a promoted one) and its Betza moves.
    pub xboard_moves: &'static [(&'static str, &'static str)],
}

/// A game's chess notation, read by the protocol's UCI and CECP dialects (through the
/// registry's descriptors); the rules never use it.
pub trait Notation {
    /// The game in UCI and CECP; `None`: USI only (compound turns have no UCI form).
    const CHESS_NOTATION: Option<ChessNotation> = None;
}
