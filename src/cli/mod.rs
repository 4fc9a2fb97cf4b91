//! The command-line front ends over the engine and the records: `koma analyse` (positions
//! in, JSON lines out) and its game report, `koma solve`, `koma replay` and `--record`
//! (transcripts), and the JSON-lines reading they share.

pub mod analyse;
pub(crate) mod jsonl;
pub mod report;
pub mod solve;
pub mod transcript;
