//! How the browser page of `koma serve` shows a game: its title, board colours, piece
//! pictures and words. Each game declares it once beside its rules
//! ([`super::Game::APPEARANCE`]); the server sends it in `hello` and the page draws
//! from it, so the page names no game.

/// The pictures the page draws a game's pieces with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceStyle {
    /// Shogi pieces (pentagons pointing at the opponent) carrying their SFEN letter.
    Letters,
    /// Shogi pieces carrying their value (`A` is 1, ...); a promoted one shows an 8.
    Numbers,
    /// Kokeshi dolls carrying their letter.
    Kokeshi,
    /// Crabs: the parent `K` crowned, the children `A`..`D` with their pips.
    Crabs,
    /// Crabs without pips; a promoted crab is a shrimp.
    CrabsAndShrimps,
}

impl PieceStyle {
    /// The style's word in `hello`.
    pub fn word(self) -> &'static str {
        match self {
            PieceStyle::Letters => "letters",
            PieceStyle::Numbers => "numbers",
            PieceStyle::Kokeshi => "kokeshi",
            PieceStyle::Crabs => "crabs",
            PieceStyle::CrabsAndShrimps => "crabs-and-shrimps",
        }
    }
}

/// A file of water across the board (a crab board's river), drawn with waves and named
/// under the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Water {
    /// The file (1 on the right, as the protocol counts them).
    pub file: usize,
    /// Its name under the board ("river").
    pub name: &'static str,
}

/// What the page needs to draw a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Appearance {
    /// The game's name for people ("66 shogi").
    pub title: &'static str,
    /// The squares' colours (CSS), the light ones where file + rank is even.
    pub light: &'static str,
    pub dark: &'static str,
    /// The squares' borders.
    pub line: &'static str,
    /// Files painted a colour of their own (the crab boards' home files): file, colour.
    pub tinted: &'static [(usize, &'static str)],
    pub water: Option<Water>,
    pub pieces: PieceStyle,
    /// Captured pieces go to hands, shown beside the board.
    pub hands: bool,
    /// The pieces point at the opponent: when the board is turned round, so are they.
    pub pointed: bool,
    /// The button that promotes a piece ("Promote"), and the one that does not.
    pub promote: &'static str,
    pub stay: &'static str,
    /// Shown as chess: the sides called White (who moves first) and Black, the board's
    /// edges lettered a-h from the left and numbered 1-8 from the bottom. Only the page's
    /// words change: the engine's squares and moves stay those of rules.md.
    pub chess: bool,
}

impl Appearance {
    /// A shogi board and pieces with letters; a game changes what is its own with
    /// `..Appearance::SHOGI`.
    pub const SHOGI: Appearance = Appearance {
        title: "",
        light: "#e9c27c",
        dark: "#e9c27c",
        line: "#6b4a1f",
        tinted: &[],
        water: None,
        pieces: PieceStyle::Letters,
        hands: true,
        pointed: true,
        promote: "Promote",
        stay: "Don't promote",
        chess: false,
    };
}
