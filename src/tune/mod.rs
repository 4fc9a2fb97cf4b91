//! Evaluation weights as data, and Texel's method to fit them (docs/TUNING.md).
//!
//! A tunable evaluation is linear in named integer weights: each term is a weight times
//! a count (or a fixed shape the weight scales), the middlegame and endgame weights
//! tapered by the game phase. The weights live in a text file in the repository, read by
//! `include_str!` and parsed once; the evaluation reports, through a [`Trace`], the
//! coefficient each weight was multiplied by.
//!
//! - [`weights`]: the schema (`weights_schema!`), the weights files (`weights_files!`,
//!   [`parse_weights`], [`format_weights`]) and the [`Trace`]: what the games'
//!   evaluations use at run time.
//! - [`texel`]: the tuner ([`fit_k`], [`tune`]), which minimises the mean squared error
//!   between `sigmoid(K * eval)` and the result (1, 0.5, 0 for the side to move) over
//!   many quiet positions, K fitted first with the starting weights, then Adam over the
//!   weights. Used by `examples/tune.rs` only.
//!
//! Weights file: `#` starts a comment; otherwise whitespace-separated tokens, a name
//! followed by its integers. Every parameter of the schema must appear once, with its
//! exact number of values.

pub mod texel;
pub mod weights;

#[cfg(test)]
pub(crate) mod testing;

pub use texel::{error, fit_k, linear, tune, Features, Sample, TuneOptions};
pub use weights::{
    format_weights, offset, parse_weights, tapers, total_len, weight_name, NoTrace, Param, Taper, Trace,
};
