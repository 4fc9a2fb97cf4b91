//! koma: a USI engine for five small shogi- and chess-family games.
//!
//! The layers, lowest first; each uses only those on the lines above its own
//! (`tests/layers.rs` reads this list and fails on an import against it):
//!
//! - [`input`]: what comes from outside: files (kind and size checked, a bounded read),
//!   lines (with a length limit), outside text and paths escaped onto one line;
//! - [`game`]: what a game is (the `Game`, `Strategy` and `Notation` traits), and what
//!   holds for any game: its referee (over or not, who won, by which rule), where it
//!   stands, perft, the SFEN fields, the Zobrist numbers, USI ⇄ chess notation;
//! - [`tune`]: the evaluations' weights schema and the Texel tuner's shared parts;
//! - [`games`]: the five games, their networks and their registry (descriptors, `visit`);
//! - [`records`]: game records (KIF, CSA, PGN, RokuRokuGUI's, koma's) in and out, and
//!   move names in each game's notation (SAN, Japanese, Western) both ways;
//! - [`search`]: the search, time, and the exact solver, generic over a game;
//! - [`engine`]: the option table and the protocol-free engine (typed commands in, typed
//!   events out), its game session and job threads;
//! - [`protocol`]: the USI, UCI and CECP dialects over the engine, and the line loop;
//! - [`cli`]: the command-line front ends: `koma analyse` and its game report, `koma
//!   solve`, `koma replay` and `--record`;
//! - [`train`], [`serve`]: `koma nnue-data` and `koma nnue-train` (the games' networks),
//!   and `koma serve` (the games in a browser over a local web server), each a cargo
//!   feature.
//!
//! The crate's face is what the binary (`src/main.rs`), the Python module (`python/src`),
//! `examples/` and `tests/` use: each module above shows its own part of it by `pub`
//! items and `pub use` re-exports of its inner modules, which are `pub(crate)` unless
//! the outside names them. Everything else is `pub(crate)`: the `unreachable_pub` lint
//! (an error under `cargo clippy -- -D warnings`) fails on a `pub` item nothing outside
//! can reach. `python3 -m tools.pub_items` counts the public items.
//!
//! The root re-exports the face a program that embeds koma reaches for first: the
//! engine with its typed commands and events, the live game and its rule set, the
//! registry, records and exact values:
//!
//! ```
//! let rules = (koma::descriptor("kokesu").expect("a game of the registry").rule_set)();
//! let mut game = koma::start(&rules, None).expect("the start position");
//! game.push("3g3e").expect("a legal move");
//! assert_eq!(game.plies(), 1);
//! let text = "# koma record\nvariant kokesu\nstart startpos\nmove 3g3e\n";
//! let record = koma::read_record(koma::Format::Koma, text, None).whole().expect("a record");
//! assert_eq!(record.moves.len(), 1);
//! assert!(koma::write_record(koma::Format::Koma, &record).is_ok());
//! ```

#![warn(unreachable_pub)]

pub mod input;

pub mod game;

pub mod tune;

pub mod games;

pub mod records;

pub mod search;

pub mod engine;

pub mod protocol;

pub mod cli;

#[cfg(feature = "serve")]
pub mod serve;
#[cfg(feature = "train")]
pub mod train;

pub use engine::{Command, Engine, Event, Info, Score, Sink};
pub use game::{Color, Game, Live, LiveGame, Outcome, RuleSet, Strategy};
pub use games::{descriptor, names, start};
pub use records::{read as read_record, write as write_record, Format, Record};
pub use search::prove::{solve_game, Exact};
