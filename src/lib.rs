//! koma: a USI engine for five small shogi- and chess-family games.
//!
//! The layers, each using only those above it in this list:
//!
//! - [`input`]: what comes from outside: files (kind and size checked, a bounded read),
//!   lines (with a length limit), outside text and paths escaped onto one line;
//! - [`game`]: what a game is (the `Game`, `Strategy` and `Notation` traits);
//! - [`games`]: the five games and their registry (descriptors, `visit`);
//! - [`search`], [`perft`]: generic over a game; [`referee`]: whether a game is over, who
//!   won and by which rule (judged in one place); [`state`]: where a game stands (`d`);
//! - [`options`]: the option table; [`engine`]: the protocol-free engine (typed commands
//!   in, typed events out), its game session and job threads;
//! - [`protocol`]: the USI, UCI and CECP dialects over the engine, and the line loop;
//! - [`transcript`]: record and replay sessions; [`records`]: game records (KIF, CSA,
//!   PGN, RokuRokuGUI's, koma's) in and out; [`analyse`]: `koma analyse`, positions in,
//!   JSON lines out; [`tune`]: the evaluation tuner's shared parts;
//! - [`report`]: `koma analyse --game`, a recorded game's report move by move;
//! - [`solve`]: the exact solver and `koma solve` (Number Shogi), over the game layer,
//!   reading lines as `analyse` does;
//! - [`train`]: `koma nnue-data` and `koma nnue-train`, the data and the training of
//!   the games' network evaluations (Kokesu's, 66 shogi's).
//! - [`serve`]: `koma serve`, the games in a browser over a local web server.

pub mod analyse;
pub mod engine;
pub mod game;
pub mod games;
pub mod input;
pub mod jsonl;
pub mod options;
pub mod perft;
pub mod protocol;
pub mod records;
pub mod referee;
pub mod report;
pub mod search;
#[cfg(feature = "serve")]
pub mod serve;
pub mod solve;
pub mod state;
#[cfg(feature = "train")]
pub mod train;
pub mod transcript;
pub mod tune;
