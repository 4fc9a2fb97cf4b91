//! The network file, version 2. Little-endian throughout: a 64-byte header, then the
//! payload.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `KOMANNUE` |
//! | 8 | 4 | format version: 2 |
//! | 12 | 4 | feature set id (below) |
//! | 16 | 4 | inputs per perspective (the feature set's count) |
//! | 20 | 4 | accumulator width per perspective: the game's (`WIDTH` beside its `FEATURES`; Kokesu 128, 66 shogi 128) |
//! | 24 | 4 | outputs: 1 |
//! | 28 | 4 | QA, the accumulator's scale: 255 |
//! | 32 | 4 | QB, the output weights' scale: 512 (64 rounded the output to 16 cp on average) |
//! | 36 | 4 | scale: centipawns per unit of the float output |
//! | 40 | 8 | payload length in bytes |
//! | 48 | 8 | checksum: FNV-1a (64-bit) of the payload |
//! | 56 | 8 | zero (reserved) |
//!
//! The payload: the feature weights, `inputs` rows of `width` i16 (row `f` is feature
//! `f`'s); the accumulator bias, `width` i16; the output weights, `2 * width` i16 (the
//! side to move's half first); the output bias, one i32; the piece-square path, `inputs`
//! i32 (feature `f`'s value; version 1 had no such path and is refused).
//!
//! Feature sets: **1**, `kokesu-768`: for each perspective, 2 x 6 x 64 piece-square
//! features: `(own piece ? 0 : 384) + kind * 64 + square`, kind pawn, knight, bishop,
//! rook, queen, king; square `rank * 8 + file` from a1 (chess orientation), for gote's
//! perspective with the ranks flipped (`square ^ 56`), so each side sees itself move up
//! the board (`koma::games::kokesu::nnue`). **2**, `shogi66-1200`: for each perspective,
//! 2 x 14 x 36 piece-square features `(own piece ? 0 : 504) + (kind - 1) * 36 + square`
//! (kind 1..=14 of `koma::games::shogi66`, square `rank * 6 + column` from 6a, for gote's
//! perspective turned round: `35 - square`), then 2 x 8 x 12 hand-count features `1008 +
//! (own hand ? 0 : 96) + (kind - 1) * 12 + min(count, 12) - 1` (`koma::games::shogi66::nnue`).
//!
//! A file is checked whole before use: magic, version, feature set, every size (the width
//! must be the game's: `koma nnue-train --width` writes others, which the game refuses),
//! the length and the checksum; the first that is wrong is the error.

use super::{FeatureSet, Kernels, NetError, Network, Row, QA, QB};

pub const MAGIC: &[u8; 8] = b"KOMANNUE";
pub const VERSION: u32 = 2;
pub const HEADER_BYTES: usize = 64;
/// The widest accumulator a file is read with (`koma nnue-train --width`'s widest): a file
/// of a width other than the game's is read whole and refused by its width, not its size.
pub const MAX_WIDTH: usize = 512;

/// FNV-1a, 64 bits.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | (u64::from(u32_at(b, at + 4)) << 32)
}

/// The payload's length for `inputs` features and accumulators `width` wide.
fn payload_bytes(inputs: usize, width: usize) -> usize {
    2 * (inputs * width + width + 2 * width) + 4 + 4 * inputs
}

/// The exact length of a net file for `features` and `width`: a net's size is fixed by its
/// game.
pub fn file_bytes(features: FeatureSet, width: usize) -> usize {
    HEADER_BYTES + payload_bytes(features.inputs, width)
}

/// Reads and checks a network file for the game whose features are `features` and whose
/// accumulators are `H` wide.
pub fn parse<const H: usize>(bytes: &[u8], features: FeatureSet) -> Result<Network<H>, NetError> {
    if bytes.len() < HEADER_BYTES {
        return Err(NetError::TooShort { len: bytes.len(), header: HEADER_BYTES });
    }
    if &bytes[..8] != MAGIC {
        return Err(NetError::Magic);
    }
    let version = u32_at(bytes, 8);
    if version != VERSION {
        return Err(NetError::Version { found: version, expected: VERSION });
    }
    let id = u32_at(bytes, 12);
    if id != features.id {
        return Err(NetError::FeatureSet { found: id, expected: features.id, name: features.name });
    }
    let shape = |what, at: usize, expected: u64| {
        let found = u64::from(u32_at(bytes, at));
        if found == expected {
            Ok(())
        } else {
            Err(NetError::Shape { what, found, expected })
        }
    };
    shape("the number of inputs", 16, features.inputs as u64)?;
    shape("the accumulator width", 20, H as u64)?;
    shape("the number of outputs", 24, 1)?;
    shape("QA", 28, QA as u64)?;
    shape("QB", 32, QB as u64)?;
    let scale = u32_at(bytes, 36);
    if scale == 0 {
        return Err(NetError::Shape { what: "the output scale", found: 0, expected: 400 });
    }
    let payload = payload_bytes(features.inputs, H);
    let stated = u64_at(bytes, 40);
    if stated != payload as u64 {
        return Err(NetError::Shape { what: "the payload length", found: stated, expected: payload as u64 });
    }
    if bytes.len() != HEADER_BYTES + payload {
        return Err(NetError::Size { found: bytes.len(), expected: HEADER_BYTES + payload });
    }
    let body = &bytes[HEADER_BYTES..];
    let (found, expected) = (checksum(body), u64_at(bytes, 48));
    if found != expected {
        return Err(NetError::Checksum { found, expected });
    }

    let mut values = body.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]));
    let mut row = || {
        let mut r = Row::ZERO;
        for (v, x) in r.0.iter_mut().zip(&mut values) {
            *v = x;
        }
        r
    };
    let weights = (0..features.inputs).map(|_| row()).collect();
    let bias = row();
    let out_weights = [row(), row()];
    let i32s = |at: usize| i32::from_le_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
    let rows_end = payload - 4 - 4 * features.inputs;
    let out_bias = i32s(rows_end);
    let psqt = (0..features.inputs).map(|f| i32s(rows_end + 4 + 4 * f)).collect();
    Ok(Network { feature_set: features, weights, bias, out_weights, out_bias, psqt, scale, kernels: Kernels::best() })
}

/// The file of a network (what [`parse`] reads back).
pub fn write<const H: usize>(net: &Network<H>) -> Vec<u8> {
    let mut body = Vec::with_capacity(payload_bytes(net.weights.len(), H));
    let rows = net.weights.iter().chain([&net.bias]).chain(&net.out_weights);
    for r in rows {
        for v in r.0 {
            body.extend_from_slice(&v.to_le_bytes());
        }
    }
    body.extend_from_slice(&net.out_bias.to_le_bytes());
    for v in &net.psqt {
        body.extend_from_slice(&v.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER_BYTES + body.len());
    out.extend_from_slice(MAGIC);
    for v in [VERSION, net.feature_set.id, net.weights.len() as u32, H as u32, 1, QA as u32, QB as u32, net.scale] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum(&body).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nnue::Accumulator;

    const SET: FeatureSet = FeatureSet { id: 9, inputs: 5, name: "test" };

    /// A net of width `H`, every feature row different.
    fn small<const H: usize>() -> Network<H> {
        let mut weights = vec![Row::ZERO; SET.inputs];
        for (f, r) in weights.iter_mut().enumerate() {
            for (i, v) in r.0.iter_mut().enumerate() {
                *v = ((f * 31 + i * 7) % 97) as i16 - 40;
            }
        }
        let mut out = Row::ZERO;
        out.0[3] = -12;
        let bias = Row([5; H]);
        Network {
            feature_set: SET,
            weights,
            bias,
            out_weights: [out.clone(), out],
            out_bias: -77,
            psqt: vec![3, -9, 1000, 0, 7],
            scale: 400,
            kernels: Kernels::best(),
        }
    }

    #[test]
    fn write_then_parse_gives_the_same_network() {
        let net = small::<128>();
        let bytes = write(&net);
        assert_eq!(bytes.len(), HEADER_BYTES + payload_bytes(SET.inputs, 128));
        assert_eq!(parse(&bytes, SET), Ok(net));
    }

    /// A wider net: its header names its width, it reads back the same at that width and
    /// is refused at another, the width in the message.
    #[test]
    fn a_256_wide_net_reads_back_at_its_width_only() {
        let net = small::<256>();
        let bytes = write(&net);
        assert_eq!(bytes.len(), file_bytes(SET, 256));
        assert_eq!(u32_at(&bytes, 20), 256);
        assert_eq!(parse::<256>(&bytes, SET), Ok(net));
        let refused = parse::<128>(&bytes, SET).unwrap_err();
        assert_eq!(refused, NetError::Shape { what: "the accumulator width", found: 256, expected: 128 });
        assert_eq!(refused.to_string(), "the accumulator width is 256 in the header; this koma needs 128");
        let narrow = write(&small::<128>());
        assert!(matches!(parse::<256>(&narrow, SET), Err(NetError::Shape { found: 128, expected: 256, .. })));
    }

    #[test]
    fn every_wrong_field_is_its_own_error() {
        let good = write(&small::<128>());
        let with = |at: usize, v: u32| {
            let mut b = good.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            parse::<128>(&b, SET)
        };
        assert_eq!(parse::<128>(&good[..10], SET), Err(NetError::TooShort { len: 10, header: 64 }));
        assert_eq!(with(0, 0x4e4e_4f4b), Err(NetError::Magic));
        assert_eq!(with(8, 1), Err(NetError::Version { found: 1, expected: 2 }));
        assert_eq!(with(12, 1), Err(NetError::FeatureSet { found: 1, expected: 9, name: "test" }));
        assert!(matches!(with(16, 6), Err(NetError::Shape { what: "the number of inputs", found: 6, expected: 5 })));
        assert!(matches!(with(20, 256), Err(NetError::Shape { what: "the accumulator width", .. })));
        assert!(matches!(with(28, 127), Err(NetError::Shape { what: "QA", .. })));
        let expected = good.len();
        assert_eq!(parse::<128>(&good[..expected - 1], SET), Err(NetError::Size { found: expected - 1, expected }));
        let mut longer = good.clone();
        longer.push(0);
        assert_eq!(parse::<128>(&longer, SET), Err(NetError::Size { found: expected + 1, expected }));
        let mut damaged = good.clone();
        damaged[HEADER_BYTES + 3] ^= 1;
        assert!(matches!(parse::<128>(&damaged, SET), Err(NetError::Checksum { .. })));
    }

    #[test]
    fn updates_equal_a_refresh_and_the_output_is_scaled() {
        updates_equal_a_refresh_and_the_output_is_scaled_at::<128>();
        updates_equal_a_refresh_and_the_output_is_scaled_at::<256>();
    }

    fn updates_equal_a_refresh_and_the_output_is_scaled_at<const H: usize>() {
        let net = small::<H>();
        let (mut acc, mut fresh) = (Row::ZERO, Row::ZERO);
        net.refresh(&mut acc, [0, 2]);
        net.update(&mut acc, 3, 0, None);
        net.refresh(&mut fresh, [2, 3]);
        assert_eq!(acc, fresh);
        net.update(&mut acc, 1, 2, Some(3));
        net.refresh(&mut fresh, [1]);
        assert_eq!(acc, fresh);
        // Only output weight 3 is set, in both halves; the piece-square path adds half the
        // difference of the sums.
        let clipped = i64::from(acc.0[3].clamp(0, QA));
        let (us, them) = (net.psqt_sum([2, 4]), net.psqt_sum([0]));
        assert_eq!((us, them), (1007, 3));
        let want = ((clipped * -12 * 2) - 77 + 502) * 400 / (255 * i64::from(QB));
        assert_eq!(i64::from(net.evaluate_rows(&acc, &acc, us - them)), want);
        let both = Accumulator([acc.clone(), acc.clone()], [us, them]);
        assert_eq!(i64::from(net.evaluate(&both, 0)), want);
    }
}
