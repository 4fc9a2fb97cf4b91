//! The training data file (`koma nnue-data` writes it, `koma nnue-train` reads it),
//! version 1: a 16-byte header, then 32-byte records, little-endian.
//!
//! Header: magic `KOMADATA` (8 bytes), format version (u32, 1), record size (u32, 32).
//!
//! | record offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | occupancy: bit `rank * 8 + file` (chess orientation, a1 = 0) per occupied square |
//! | 8 | 16 | the occupied squares' pieces in ascending square order, 4 bits each, low nibble first: `color * 6 + kind` (color 0 sente, kind pawn, knight, bishop, rook, queen, king) |
//! | 24 | 1 | side to move: 0 sente, 1 gote |
//! | 25 | 1 | the game's result for the side to move: 0 loss, 1 draw, 2 win |
//! | 26 | 2 | the scoring search's score, i16 centipawns, side to move's view |
//! | 28 | 2 | the position's ply in its game (u16, saturated; for statistics only) |
//! | 30 | 2 | zero (reserved) |
//!
//! A record holds what the network sees (the squares and the side to move), not a whole
//! position: no rules, no move counter.

use thiserror::Error;

pub const MAGIC: &[u8; 8] = b"KOMADATA";
pub const VERSION: u32 = 1;
pub const HEADER_BYTES: usize = 16;
pub const RECORD_BYTES: usize = 32;
/// A square without a piece in [`Record::squares`].
pub const EMPTY: u8 = 12;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// `color * 6 + kind` by square (`rank * 8 + file`), [`EMPTY`] for none.
    pub squares: [u8; 64],
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
    #[error("data format version {0}; this koma reads version 1 with 32-byte records")]
    Version(u32),
    #[error("{0} bytes after the header: not a whole number of 32-byte records")]
    Length(usize),
    #[error("record {index}: {why}")]
    Record { index: usize, why: String },
}

/// The file header.
pub fn header() -> [u8; HEADER_BYTES] {
    let mut h = [0; HEADER_BYTES];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_BYTES as u32).to_le_bytes());
    h
}

impl Record {
    /// The record's 32 bytes. At most 32 pieces fit (a Kokesu position has at most 32).
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        let mut occupancy = 0u64;
        let mut n = 0;
        for (sq, &p) in self.squares.iter().enumerate() {
            if p != EMPTY && n < 32 {
                occupancy |= 1 << sq;
                out[8 + n / 2] |= (p & 15) << (4 * (n % 2));
                n += 1;
            }
        }
        out[..8].copy_from_slice(&occupancy.to_le_bytes());
        out[24] = self.side;
        out[25] = self.result;
        out[26..28].copy_from_slice(&self.score.to_le_bytes());
        out[28..30].copy_from_slice(&self.ply.to_le_bytes());
        out
    }

    /// Reads a record, checking every field.
    pub fn decode(b: &[u8; RECORD_BYTES], index: usize) -> Result<Record, DataError> {
        let bad = |why: String| DataError::Record { index, why };
        let mut occupancy = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        if occupancy.count_ones() > 32 {
            return Err(bad(format!("{} occupied squares, at most 32", occupancy.count_ones())));
        }
        let mut squares = [EMPTY; 64];
        let mut n = 0;
        while occupancy != 0 {
            let sq = occupancy.trailing_zeros() as usize;
            occupancy &= occupancy - 1;
            let p = (b[8 + n / 2] >> (4 * (n % 2))) & 15;
            if p >= EMPTY {
                return Err(bad(format!("piece code {p} on square {sq}")));
            }
            squares[sq] = p;
            n += 1;
        }
        let (side, result) = (b[24], b[25]);
        if side > 1 || result > 2 {
            return Err(bad(format!("side to move {side} / result {result} out of range")));
        }
        let score = i16::from_le_bytes([b[26], b[27]]);
        let ply = u16::from_le_bytes([b[28], b[29]]);
        Ok(Record { squares, side, result, score, ply })
    }
}

/// Every record of a data file's bytes.
pub fn parse(bytes: &[u8]) -> Result<Vec<Record>, DataError> {
    if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
        return Err(DataError::Header);
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    let size = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]);
    if version != VERSION || size as usize != RECORD_BYTES {
        return Err(DataError::Version(version));
    }
    let body = &bytes[HEADER_BYTES..];
    if !body.len().is_multiple_of(RECORD_BYTES) {
        return Err(DataError::Length(body.len()));
    }
    body.chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, c)| {
            let mut b = [0u8; RECORD_BYTES];
            b.copy_from_slice(c);
            Record::decode(&b, i)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_and_bad_ones_are_refused() {
        let mut squares = [EMPTY; 64];
        for (sq, p) in [(0, 3), (4, 5), (12, 0), (60, 11), (63, 9), (35, 6)] {
            squares[sq] = p;
        }
        let r = Record { squares, side: 1, result: 2, score: -345, ply: 77 };
        let mut file = header().to_vec();
        file.extend_from_slice(&r.encode());
        assert_eq!(parse(&file), Ok(vec![r]));
        let mut bad = file.clone();
        bad[HEADER_BYTES + 25] = 3;
        assert!(matches!(parse(&bad), Err(DataError::Record { index: 0, .. })));
        assert_eq!(parse(&file[..file.len() - 1]), Err(DataError::Length(31)));
        assert_eq!(parse(b"KOMANNUE"), Err(DataError::Header));
    }
}
