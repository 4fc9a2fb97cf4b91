//! koma: a USI engine for five small shogi- and chess-family games.
//!
//! - [`game`]: the trait each game implements; [`games`]: the games and their registry.
//! - [`search`], [`perft`]: generic over a game.
//! - [`session`]: one game behind an object-safe face; [`engine`]: options, session and
//!   search thread; [`protocol`]: text to typed commands and typed replies to text;
//!   [`usi`]: the loop that joins them.
//! - [`referee`]: whether a game is over and by which rule, judged in one place;
//!   [`state`]: where a game stands (`d`); [`transcript`]: record and replay sessions;
//!   [`analyse`]: `koma analyse`, positions in, JSON lines out.

pub mod analyse;
pub mod engine;
pub mod game;
pub mod games;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod referee;
pub mod search;
pub mod session;
pub mod state;
pub mod table_slot;
pub mod transcript;
pub mod tune;
pub mod usi;
