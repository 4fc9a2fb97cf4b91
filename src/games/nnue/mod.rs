//! A small efficiently updatable neural network (NNUE) for a game's evaluation, in integer
//! arithmetic, independent of the game: the game names its sparse input features (a
//! [`FeatureSet`]), keeps one [`Accumulator`] in its position and updates it when a move
//! is played; this module holds the network, its file format ([`format`]) and the loops
//! ([`kernels`]).
//!
//! The network: `inputs` binary features for each side's view (perspective) → an
//! accumulator of `H` 16-bit values per perspective (the width: the game's, a const
//! generic of every type here, 128 for Kokesu and 66 shogi; the feature rows added to a
//! bias) → clipped ReLU (`clamp(x, 0, QA)`) of both halves, the side to move's first →
//! one output, a dot product with 16-bit weights summed in 32 bits, plus a bias and a
//! piece-square path (a value a feature, straight to the output, as Stockfish's PSQT:
//! material and placement are learned there from little data), scaled to centipawns. As
//! floats (how it is trained, `koma::train`): `h = clamp(b + sum W[f], 0, 1)`, `y = v_us .
//! h_us + v_them . h_them + c + (sum q[f_us] - sum q[f_them]) / 2`, `cp = y * scale`;
//! quantised with `W, b` times [`QA`] and `v` times [`QB`], `c` and `q` times `QA * QB`.

pub mod format;
pub(crate) mod kernels;
pub mod stack;
pub mod trainable;

use std::path::Path;
use std::sync::{Mutex, OnceLock};

use thiserror::Error;

pub use kernels::Kernels;

/// The AVX2 kernels' 16-bit lanes: every accumulator width is a multiple of this, checked
/// at compile time wherever a width is used ([`Row::ZERO`], the kernels).
pub const LANES: usize = 16;
/// The accumulator's scale: a float 1.0 is `QA`; the clipped ReLU's top.
pub const QA: i16 = 255;
/// The output weights' scale: `v` of 1.98 is 1014, so two products of an accumulator (at
/// most 255) and a weight still fit the AVX2 kernel's 32-bit pair sums.
pub const QB: i16 = 512;

/// `H` 16-bit values (the accumulator's width), aligned for SIMD loads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Row<const H: usize>(pub [i16; H]);

impl<const H: usize> Row<H> {
    pub const ZERO: Row<H> = {
        assert!(H > 0 && H.is_multiple_of(LANES), "an accumulator width is a multiple of 16 (LANES)");
        Row([0; H])
    };
}

/// Both perspectives' accumulators: `[0]` is sente's view, `[1]` gote's; with each
/// perspective's sum of the piece-square path (`Network::psqt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator<const H: usize>(pub [Row<H>; 2], pub [i32; 2]);

impl<const H: usize> Accumulator<H> {
    pub const ZERO: Accumulator<H> = Accumulator([Row::ZERO, Row::ZERO], [0, 0]);
}

/// A game's input features, as a network file names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    /// The number in the file's header (format.rs lists them).
    pub id: u32,
    /// How many features each perspective has.
    pub inputs: usize,
    /// In words, for error messages.
    pub name: &'static str,
}

/// A network file that cannot be used. Each says what is wrong in one line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NetError {
    #[error("{0}")]
    Read(String),
    #[error("the file is {len} bytes, shorter than the {header}-byte header: not a koma network")]
    TooShort { len: usize, header: usize },
    #[error("the file does not start with KOMANNUE: not a koma network")]
    Magic,
    #[error("format version {found}; this koma reads version {expected}")]
    Version { found: u32, expected: u32 },
    #[error("feature set {found}; this game's is {expected} ({name})")]
    FeatureSet { found: u32, expected: u32, name: &'static str },
    #[error("{what} is {found} in the header; this koma needs {expected}")]
    Shape { what: &'static str, found: u64, expected: u64 },
    #[error("the file is {found} bytes; its header makes it {expected}")]
    Size { found: usize, expected: usize },
    #[error("checksum {found:#018x} does not match the header's {expected:#018x}: the file is damaged")]
    Checksum { found: u64, expected: u64 },
    #[error(
        "{0} different net files are loaded already, the most one engine process keeps: restart it to load others"
    )]
    TooMany(usize),
}

/// A loaded network of width `H`: integer weights, ready to evaluate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network<const H: usize> {
    pub feature_set: FeatureSet,
    /// One row per feature.
    pub weights: Vec<Row<H>>,
    pub bias: Row<H>,
    /// The output weights for the side to move's half and for the other's.
    pub out_weights: [Row<H>; 2],
    pub out_bias: i32,
    /// The piece-square path: one value a feature, in the output's units (`QA * QB` a
    /// float 1.0), summed per perspective; the output gains half the side to move's sum
    /// minus half the other's.
    pub psqt: Vec<i32>,
    /// Centipawns per unit of the float output.
    pub scale: u32,
    /// The kernels in use (the best this CPU has; tests switch them).
    pub kernels: Kernels,
}

impl<const H: usize> Network<H> {
    /// The accumulator of one perspective computed from scratch: the bias plus the rows
    /// of `features`.
    pub fn refresh(&self, acc: &mut Row<H>, features: impl IntoIterator<Item = usize>) {
        *acc = self.bias.clone();
        for f in features {
            self.kernels.update(acc, &[&self.weights[f]], &[]);
        }
    }

    /// Adds the rows of `add` and removes those of `sub` (feature indices).
    #[inline]
    pub fn update(&self, acc: &mut Row<H>, add: usize, sub: usize, sub2: Option<usize>) {
        let w = &self.weights;
        match sub2 {
            Some(s2) => self.kernels.update(acc, &[&w[add]], &[&w[sub], &w[s2]]),
            None => self.kernels.update(acc, &[&w[add]], &[&w[sub]]),
        }
    }

    /// The piece-square path's sum of `features`.
    pub fn psqt_sum(&self, features: impl IntoIterator<Item = usize>) -> i32 {
        features.into_iter().map(|f| self.psqt[f]).sum()
    }

    /// The evaluation in centipawns of the side `us` (0 or 1) of `acc` to move.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator<H>, us: usize) -> i32 {
        self.evaluate_rows(&acc.0[us], &acc.0[us ^ 1], acc.1[us] - acc.1[us ^ 1])
    }

    /// The evaluation in centipawns from the view of the side whose accumulator is `us`;
    /// `psqt`: its piece-square sum minus the other's.
    #[inline]
    pub fn evaluate_rows(&self, us: &Row<H>, them: &Row<H>, psqt: i32) -> i32 {
        let [w_us, w_them] = &self.out_weights;
        let sum = self.kernels.output(us, them, w_us, w_them);
        let y = i64::from(sum) + i64::from(self.out_bias) + i64::from(psqt) / 2;
        let cp = y * i64::from(self.scale) / (i64::from(QA) * i64::from(QB));
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// A network in use, compared and hashed by identity (positions carry it in their rules).
#[derive(Clone, Copy)]
pub struct Net<const H: usize>(pub &'static Network<H>);

impl<const H: usize> PartialEq for Net<H> {
    fn eq(&self, other: &Net<H>) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl<const H: usize> Eq for Net<H> {}

impl<const H: usize> std::hash::Hash for Net<H> {
    fn hash<S: std::hash::Hasher>(&self, state: &mut S) {
        std::ptr::hash(self.0, state)
    }
}

impl<const H: usize> std::fmt::Debug for Net<H> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({:p})", self.0)
    }
}

/// Where a game's nets (of its width `H`) come from, for its two network switches: the
/// evaluation switch (`KokesuEval`: [`EVAL_WORDS`], the net's `nnue`) and the net file
/// switch (`KokesuNetFile`: [`BUILTIN_NET`] or a path). Kokesu's and 66 shogi's are alike
/// but for their names and nets.
pub struct NetSource<const H: usize> {
    features: FeatureSet,
    /// The built-in net's bytes, and its file in the repository (for the error if it fails).
    bytes: &'static [u8],
    path: &'static str,
    /// The built-in net, read and checked on first use.
    builtin: OnceLock<Result<Network<H>, NetError>>,
    /// The nets of the files loaded so far ([`NetSource::load`]).
    loaded: Mutex<Vec<&'static Network<H>>>,
}

/// The evaluation switch's words in every game: the game's own hand-written evaluation,
/// or the network.
pub const EVAL_WORDS: &[&str] = &["classic", "nnue"];
/// Kokesu's name for its classic evaluation before the games used one word.
pub const EVAL_ALIASES: &[(&str, &str)] = &[("linear", "classic")];

/// The net file switch's value for the net built into the binary.
pub const BUILTIN_NET: &str = "builtin";

impl<const H: usize> NetSource<H> {
    /// The nets of a game with `features`, `bytes` (its file in the repository: `path`)
    /// built into the binary.
    pub const fn new(features: FeatureSet, bytes: &'static [u8], path: &'static str) -> NetSource<H> {
        NetSource { features, bytes, path, builtin: OnceLock::new(), loaded: Mutex::new(Vec::new()) }
    }

    /// The net built into the binary, checked on first use.
    pub fn builtin(&'static self) -> Result<Net<H>, NetError> {
        match self.builtin.get_or_init(|| format::parse(self.bytes, self.features)) {
            Ok(net) => Ok(Net(net)),
            Err(e) => Err(e.clone()),
        }
    }

    /// The evaluation switch set to `value` (one of [`EVAL_WORDS`]): `net` is the net
    /// positions are scored by (`None`: the classic evaluation), `file` the net file's.
    pub fn set_eval(&'static self, net: &mut Option<Net<H>>, file: Option<Net<H>>, value: &str) -> Result<(), String> {
        *net = if value == "nnue" { Some(self.chosen(file)?) } else { None };
        Ok(())
    }

    /// The net file switch set to `value`: the file is read and checked once, here; a
    /// net in use is replaced by the file's.
    pub fn set_file(
        &'static self,
        net: &mut Option<Net<H>>,
        file: &mut Option<Net<H>>,
        value: &str,
    ) -> Result<(), String> {
        let path = value.trim();
        *file = if path.eq_ignore_ascii_case(BUILTIN_NET) {
            None
        } else {
            Some(self.load(path).map_err(|e| e.to_string())?)
        };
        if net.is_some() {
            *net = Some(self.chosen(*file)?);
        }
        Ok(())
    }

    /// The net the evaluation switch takes: the file's, else the built-in one.
    fn chosen(&'static self, file: Option<Net<H>>) -> Result<Net<H>, String> {
        match file {
            Some(net) => Ok(net),
            None => self.builtin().map_err(|e| format!("the built-in net ({}): {e}", self.path)),
        }
    }

    /// The net in the file at `path`, checked (its width is the game's, `H`). A file's net
    /// stays in memory until the process ends; the same contents loaded again are the same
    /// net (no second copy); at most [`MAX_NET_FILES`] distinct ones are kept a game.
    fn load(&self, path: &str) -> Result<Net<H>, NetError> {
        let max = format::file_bytes(self.features, H.max(format::MAX_WIDTH)) as u64;
        let bytes = crate::input::file::read(Path::new(path), max, "a net of this game")
            .map_err(|e| NetError::Read(e.to_string()))?;
        let net = format::parse::<H>(&bytes, self.features)?;
        keep(net, &mut self.loaded.lock().unwrap_or_else(|e| e.into_inner()), MAX_NET_FILES)
    }
}

/// The most distinct net files one process keeps for a game. A net in use is read at every
/// node through a plain reference, so a loaded net is never freed: the cap keeps a client
/// that names file after file from growing the engine without bound (about 200 KB a
/// 128-wide net).
pub const MAX_NET_FILES: usize = 16;

/// `net` as one of the `loaded` nets: the same one if its contents are there, else a new
/// one while fewer than `cap` are.
fn keep<const H: usize>(
    net: Network<H>,
    loaded: &mut Vec<&'static Network<H>>,
    cap: usize,
) -> Result<Net<H>, NetError> {
    if let Some(&same) = loaded.iter().find(|&&n| *n == net) {
        return Ok(Net(same));
    }
    if loaded.len() >= cap {
        return Err(NetError::TooMany(cap));
    }
    let leaked: &'static Network<H> = Box::leak(Box::new(net));
    loaded.push(leaked);
    Ok(Net(leaked))
}

#[cfg(test)]
mod keep_tests {
    use super::*;

    #[test]
    fn distinct_net_files_are_kept_up_to_the_cap_and_the_same_contents_once() {
        let builtin = crate::games::kokesu::nnue::NETS.builtin().expect("the built-in net");
        let other = |bias: i32| Network { out_bias: bias, ..builtin.0.clone() };
        let mut loaded = Vec::new();
        let a = keep(other(1), &mut loaded, 2).expect("room for a first");
        assert_eq!(keep(other(1), &mut loaded, 2).expect("the same contents"), a);
        let b = keep(other(2), &mut loaded, 2).expect("room for a second");
        assert_ne!(a, b);
        assert_eq!(keep(other(3), &mut loaded, 2).err(), Some(NetError::TooMany(2)));
        assert_eq!(keep(other(2), &mut loaded, 2).expect("one of those kept"), b);
        assert_eq!(loaded.len(), 2);
    }
}
