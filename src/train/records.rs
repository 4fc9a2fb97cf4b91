//! The training data file (`koma nnue-data` writes it, `koma nnue-train` reads it),
//! little-endian, in one of two versions: a header, then fixed-size records.
//!
//! **Version 1** (Kokesu's, 32-byte records): header magic `KOMADATA` (8 bytes), format
//! version (u32, 1), record size (u32, 32); 16 bytes. The feature set is Kokesu's (1).
//!
//! | record offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | occupancy: bit `rank * 8 + file` (chess orientation, a1 = 0) per occupied square |
//! | 8 | 16 | the occupied squares' pieces in ascending square order, 4 bits each, low nibble first: `color * 6 + kind` (color 0 sente, kind pawn, knight, bishop, rook, queen, king) |
//! | 24 | 8 | the tail below |
//!
//! **Version 2** (any game, 72-byte records): header magic `KOMADATA`, version (u32, 2),
//! record size (u32, 72), the feature set id of the game's nets (u32,
//! `crate::games::nnue::format` lists them), zero (u32); 24 bytes.
//!
//! | record offset | bytes | field |
//! |---|---|---|
//! | 0 | 64 | the position's 64 cells as the game's network reads them (`Trainable::cells`) |
//! | 64 | 8 | the tail below |
//!
//! The tail of a record, at offset 24 (version 1) or 64 (version 2):
//!
//! | tail offset | bytes | field |
//! |---|---|---|
//! | 0 | 1 | side to move: 0 sente, 1 gote |
//! | 1 | 1 | the game's result for the side to move: 0 loss, 1 draw, 2 win |
//! | 2 | 2 | the scoring search's score, i16 centipawns, side to move's view |
//! | 4 | 2 | the position's ply in its game (u16, saturated; for statistics only) |
//! | 6 | 2 | zero (reserved) |
//!
//! A record holds what the network sees (the cells and the side to move), not a whole
//! position: no rules, no move counter.

use thiserror::Error;

pub const MAGIC: &[u8; 8] = b"KOMADATA";
/// The bytes of version 1's header and records.
pub const V1_HEADER_BYTES: usize = 16;
pub const V1_RECORD_BYTES: usize = 32;
/// The bytes of version 2's header and records.
pub const V2_HEADER_BYTES: usize = 24;
pub const V2_RECORD_BYTES: usize = 72;
/// Version 1's feature set: Kokesu's.
pub const V1_FEATURE_SET: u32 = 1;
/// An empty square in a version 1 record's cells (Kokesu's `EMPTY`).
pub const EMPTY: u8 = 12;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The game's cells (`Trainable::cells`); for Kokesu `color * 6 + kind` by square
    /// (`rank * 8 + file`), [`EMPTY`] for none.
    pub cells: [u8; 64],
    /// 0 sente, 1 gote.
    pub side: u8,
    /// For the side to move: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Centipawns, side to move's view.
    pub score: i16,
    pub ply: u16,
}

/// A data file or record that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DataError {
    #[error("not a koma training data file (no KOMADATA header)")]
    Header,
    #[error("data format version {0} with {1}-byte records; this koma reads version 1 (32 bytes) and 2 (72 bytes)")]
    Version(u32, u32),
    #[error("{0} bytes after the header: not a whole number of {1}-byte records")]
    Length(usize, usize),
    #[error("record {index}: {why}")]
    Record { index: usize, why: String },
    #[error("feature set {found} in this file, {expected} in the files before it: one game's data at a time")]
    Mixed { found: u32, expected: u32 },
}

/// The header of a file of `version` (1 or 2) for the nets of feature set `feature_set`.
pub fn header(version: u32, feature_set: u32) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend_from_slice(&version.to_le_bytes());
    if version == 1 {
        h.extend_from_slice(&(V1_RECORD_BYTES as u32).to_le_bytes());
    } else {
        h.extend_from_slice(&(V2_RECORD_BYTES as u32).to_le_bytes());
        h.extend_from_slice(&feature_set.to_le_bytes());
        h.extend_from_slice(&0u32.to_le_bytes());
    }
    h
}

impl Record {
    fn tail(&self) -> [u8; 8] {
        let mut t = [0u8; 8];
        t[0] = self.side;
        t[1] = self.result;
        t[2..4].copy_from_slice(&self.score.to_le_bytes());
        t[4..6].copy_from_slice(&self.ply.to_le_bytes());
        t
    }

    /// The record's bytes in `version` (1: Kokesu's 32 bytes, at most 32 pieces, cells
    /// below [`EMPTY`] or empty; 2: 72 bytes).
    pub fn encode(&self, version: u32) -> Vec<u8> {
        if version != 1 {
            let mut out = self.cells.to_vec();
            out.extend_from_slice(&self.tail());
            return out;
        }
        let mut out = vec![0u8; V1_RECORD_BYTES];
        let mut occupancy = 0u64;
        let mut n = 0;
        for (sq, &p) in self.cells.iter().enumerate() {
            if p != EMPTY && n < 32 {
                occupancy |= 1 << sq;
                out[8 + n / 2] |= (p & 15) << (4 * (n % 2));
                n += 1;
            }
        }
        out[..8].copy_from_slice(&occupancy.to_le_bytes());
        out[24..].copy_from_slice(&self.tail());
        out
    }

    /// Reads a record of `version` (`b` is one record's bytes), checking every field.
    pub fn decode(b: &[u8], version: u32, index: usize) -> Result<Record, DataError> {
        let bad = |why: String| DataError::Record { index, why };
        let mut cells = [EMPTY; 64];
        let tail = if version == 1 {
            let mut occupancy = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            if occupancy.count_ones() > 32 {
                return Err(bad(format!("{} occupied squares, at most 32", occupancy.count_ones())));
            }
            let mut n = 0;
            while occupancy != 0 {
                let sq = occupancy.trailing_zeros() as usize;
                occupancy &= occupancy - 1;
                let p = (b[8 + n / 2] >> (4 * (n % 2))) & 15;
                if p >= EMPTY {
                    return Err(bad(format!("piece code {p} on square {sq}")));
                }
                cells[sq] = p;
                n += 1;
            }
            &b[24..32]
        } else {
            cells.copy_from_slice(&b[..64]);
            &b[64..72]
        };
        let (side, result) = (tail[0], tail[1]);
        if side > 1 || result > 2 {
            return Err(bad(format!("side to move {side} / result {result} out of range")));
        }
        let score = i16::from_le_bytes([tail[2], tail[3]]);
        let ply = u16::from_le_bytes([tail[4], tail[5]]);
        Ok(Record { cells, side, result, score, ply })
    }
}

/// A data file's contents: the feature set of the nets its positions are for, and every
/// record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    pub feature_set: u32,
    pub records: Vec<Record>,
}

/// Reads a data file's bytes.
pub fn parse(bytes: &[u8]) -> Result<DataFile, DataError> {
    if bytes.len() < V1_HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(DataError::Header);
    }
    let u32_at = |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    let (version, size) = (u32_at(8), u32_at(12));
    let (header, feature_set) = match (version, size as usize) {
        (1, V1_RECORD_BYTES) => (V1_HEADER_BYTES, V1_FEATURE_SET),
        (2, V2_RECORD_BYTES) if bytes.len() >= V2_HEADER_BYTES => (V2_HEADER_BYTES, u32_at(16)),
        _ => return Err(DataError::Version(version, size)),
    };
    let size = size as usize;
    let body = &bytes[header..];
    if !body.len().is_multiple_of(size) {
        return Err(DataError::Length(body.len(), size));
    }
    let records =
        body.chunks_exact(size).enumerate().map(|(i, c)| Record::decode(c, version, i)).collect::<Result<_, _>>()?;
    Ok(DataFile { feature_set, records })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_and_bad_ones_are_refused() {
        let mut cells = [EMPTY; 64];
        for (sq, p) in [(0, 3), (4, 5), (12, 0), (60, 11), (63, 9), (35, 6)] {
            cells[sq] = p;
        }
        let r = Record { cells, side: 1, result: 2, score: -345, ply: 77 };
        let mut file = header(1, V1_FEATURE_SET);
        file.extend_from_slice(&r.encode(1));
        assert_eq!(parse(&file), Ok(DataFile { feature_set: 1, records: vec![r.clone()] }));
        let mut bad = file.clone();
        bad[V1_HEADER_BYTES + 25] = 3;
        assert!(matches!(parse(&bad), Err(DataError::Record { index: 0, .. })));
        assert_eq!(parse(&file[..file.len() - 1]), Err(DataError::Length(31, 32)));
        assert_eq!(parse(b"KOMANNUE"), Err(DataError::Header));
    }

    #[test]
    fn version_two_keeps_every_cell_and_names_its_feature_set() {
        let mut cells = [0u8; 64];
        for (c, v) in cells.iter_mut().enumerate() {
            *v = (c * 7 % 31) as u8;
        }
        let r = Record { cells, side: 0, result: 1, score: 1234, ply: 9 };
        let mut file = header(2, 2);
        assert_eq!(file.len(), V2_HEADER_BYTES);
        file.extend_from_slice(&r.encode(2));
        file.extend_from_slice(&r.encode(2));
        assert_eq!(parse(&file), Ok(DataFile { feature_set: 2, records: vec![r.clone(), r] }));
        let mut wrong_size = file.clone();
        wrong_size[12] = 32;
        assert_eq!(parse(&wrong_size), Err(DataError::Version(2, 32)));
        assert_eq!(parse(&file[..file.len() - 8]), Err(DataError::Length(136, 72)));
    }
}
