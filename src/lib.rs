//! koma: a USI engine for five small shogi- and chess-family games.

pub mod game;
pub mod games;
pub mod perft;
