//! What the two crab games (Kani Shogi §4, Kani Nari Ebi §5 of rules.md) share: the 5x5
//! board with its flowing column (file 3), sideways slides and diagonal steps, sandwich
//! captures, orthogonally connected groups for the bond, the shape of a two-part turn
//! and its token `<from><final>[+][,<from><final>[+]]`, SFEN without hands and Zobrist
//! keys, square sets as 25-bit masks for counting in an evaluation ([`bits`]), and the
//! position type with its `Game` implementation ([`game::Crab`]). Each
//! game supplies its own pieces, flow, captures and end conditions through
//! [`turn::Variant`], and its name, switches, start and evaluation through
//! [`game::CrabGame`].

pub(crate) mod bits;
pub(crate) mod capture;
pub mod cell;
pub(crate) mod flow;
pub mod game;
pub(crate) mod sfen;
pub(crate) mod square;
pub(crate) mod token;
pub(crate) mod turn;
pub(crate) mod zobrist;

pub use token::CrabMove;
