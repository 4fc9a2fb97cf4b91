//! The games. Each module holds one game's rules, notation and evaluation.
//!
//! To add a game: write its module implementing [`crate::game::Game`], then add one line
//! to the `games!` list at the bottom of this file.
pub mod numbershogi;
