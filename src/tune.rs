//! Evaluation weights as data, and Texel's method to fit them (docs/TUNING.md).
//!
//! A tunable evaluation is linear in named integer weights: each term is a weight times
//! a count (or a fixed shape the weight scales), the middlegame and endgame weights
//! tapered by the game phase. The weights live in a text file in the repository, read by
//! `include_str!` and parsed once; the evaluation reports, through a [`Trace`], the
//! coefficient each weight was multiplied by. The tuner ([`fit_k`], [`tune`]) fits those
//! weights to game results: minimise the mean squared error between
//! `sigmoid(K * eval)` and the result (1, 0.5, 0 for the side to move) over many quiet
//! positions, K fitted first with the starting weights, then Adam over the weights.
//! One kind of term is not linear: a king danger sum `d` of weights times counts, which
//! scores [`danger_mg`]`(d)` (its square) and [`danger_eg`]`(d)`; the trace reports its
//! counts apart ([`Trace::danger`]) and the tuner's gradient goes through the square.
//!
//! Weights file: `#` starts a comment; otherwise whitespace-separated tokens, a name
//! followed by its integers. Every parameter of the schema must appear once, with its
//! exact number of values.

/// Which taper a weight goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taper {
    /// Scaled by phase / total (full with all pieces on the board).
    Mg,
    /// Scaled by (total - phase) / total.
    Eg,
    /// Not tapered (e.g. the side-to-move bonus).
    Flat,
}

/// One named group of weights.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    pub name: &'static str,
    pub len: usize,
    pub taper: Taper,
}

impl Param {
    pub const fn mg(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Mg }
    }
    pub const fn eg(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Eg }
    }
    pub const fn flat(name: &'static str, len: usize) -> Param {
        Param { name, len, taper: Taper::Flat }
    }
}

/// The number of weights of a schema.
pub const fn total_len(params: &[Param]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < params.len() {
        n += params[i].len;
        i += 1;
    }
    n
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The index of the first weight of the parameter `name` (a compile error if absent).
pub const fn offset(params: &[Param], name: &str) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < params.len() {
        if same(params[i].name, name) {
            return n;
        }
        n += params[i].len;
        i += 1;
    }
    panic!("no such parameter")
}

/// The taper of every weight, by index.
pub fn tapers(params: &[Param]) -> Vec<Taper> {
    params.iter().flat_map(|p| std::iter::repeat_n(p.taper, p.len)).collect()
}

/// The name of weight `i`, e.g. `passed_eg[5]`.
pub fn weight_name(params: &[Param], mut i: usize) -> String {
    for p in params {
        if i < p.len {
            return if p.len == 1 { p.name.to_string() } else { format!("{}[{i}]", p.name) };
        }
        i -= p.len;
    }
    format!("#{i}")
}

/// Reads a weights file against its schema.
pub fn parse_weights(text: &str, params: &[Param]) -> Result<Vec<i32>, String> {
    let mut out = vec![0i32; total_len(params)];
    let mut seen = vec![false; params.len()];
    let mut current: Option<(usize, usize, usize)> = None; // (param, offset, values read)
    let close = |cur: Option<(usize, usize, usize)>| -> Result<(), String> {
        if let Some((p, _, n)) = cur {
            if n != params[p].len {
                return Err(format!("{}: {} values, expected {}", params[p].name, n, params[p].len));
            }
        }
        Ok(())
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        for tok in line.split_whitespace() {
            if let Ok(v) = tok.parse::<i32>() {
                let Some((p, off, n)) = current.as_mut() else {
                    return Err(format!("value {tok} before any name"));
                };
                if *n >= params[*p].len {
                    return Err(format!("{}: more than {} values", params[*p].name, params[*p].len));
                }
                out[*off + *n] = v;
                *n += 1;
            } else {
                close(current)?;
                let Some(p) = params.iter().position(|p| p.name == tok) else {
                    return Err(format!("unknown parameter {tok}"));
                };
                if seen[p] {
                    return Err(format!("{tok} given twice"));
                }
                seen[p] = true;
                let off: usize = params[..p].iter().map(|q| q.len).sum();
                current = Some((p, off, 0));
            }
        }
    }
    close(current)?;
    if let Some(p) = seen.iter().position(|s| !s) {
        return Err(format!("{} missing", params[p].name));
    }
    Ok(out)
}

/// A game's weights schema, each name written once: `name: taper(len),` per parameter
/// (`taper` one of `mg`, `eg`, `flat`; doc comments allowed before each) gives `PARAMS`
/// (the schema in the order of `weights.txt`) and a module `at` whose constant `at::name`
/// is the index of that parameter's first weight.
#[macro_export]
macro_rules! weights_schema {
    ($($(#[$doc:meta])* $name:ident: $taper:ident($len:expr),)*) => {
        /// The weights' schema: every number of the evaluation a tuning run may change, in
        /// the order of `weights.txt`.
        pub const PARAMS: &[$crate::tune::Param] = &[$($crate::tune::Param::$taper(stringify!($name), $len),)*];

        /// The index of each parameter's first weight, by the parameter's name.
        #[allow(non_upper_case_globals, dead_code)]
        pub mod at {
            $($(#[$doc])* pub const $name: usize = $crate::tune::offset(super::PARAMS, stringify!($name));)*
        }
    };
}

/// A game's weights, declared in its `eval.rs` after its `PARAMS` schema:
/// `weights_files!("kokesu", include_str!("weights.txt"), include_str!("weights_initial.txt"));`
/// gives `N_WEIGHTS`, `Weights`, `WEIGHTS_TEXT` (the weights in use: the output of the
/// last tuning run), `INITIAL_WEIGHTS_TEXT` (the hand-set weights the tuning starts
/// from), `parse` (a weights file of this schema) and `weights()` (the weights in use,
/// parsed on first use). The files are named at the call so that `include_str!` reads
/// them beside the game's `eval.rs`.
#[macro_export]
macro_rules! weights_files {
    ($game:literal, $weights:expr, $initial:expr $(,)?) => {
        /// The number of weights.
        pub const N_WEIGHTS: usize = $crate::tune::total_len(PARAMS);
        pub type Weights = [i32; N_WEIGHTS];

        /// The weights in use: the output of the last tuning run (docs/TUNING.md).
        pub const WEIGHTS_TEXT: &str = $weights;
        /// The hand-set weights the tuning starts from.
        pub const INITIAL_WEIGHTS_TEXT: &str = $initial;

        /// Parses a weights file of this schema.
        pub fn parse(text: &str) -> Result<Box<Weights>, String> {
            let v = $crate::tune::parse_weights(text, PARAMS)?;
            v.into_boxed_slice().try_into().map_err(|_| "the schema's length changed".to_string())
        }

        static WEIGHTS: std::sync::OnceLock<Box<Weights>> = std::sync::OnceLock::new();

        /// The weights in use, parsed on first use (`weights_files_parse` tests the file).
        #[inline]
        pub fn weights() -> &'static Weights {
            WEIGHTS.get_or_init(|| parse(WEIGHTS_TEXT).unwrap_or_else(|e| panic!("{} weights.txt: {e}", $game)))
        }
    };
}

/// Writes a weights file (rows of 8 values; `header` lines become comments).
pub fn format_weights(w: &[i32], params: &[Param], header: &str) -> String {
    let mut s = String::new();
    for line in header.lines() {
        s.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
    }
    let mut off = 0;
    for p in params {
        let vals = &w[off..off + p.len];
        off += p.len;
        if p.len <= 8 {
            let v: Vec<String> = vals.iter().map(|x| x.to_string()).collect();
            s.push_str(&format!("{} {}\n", p.name, v.join(" ")));
        } else {
            s.push_str(&format!("{}\n", p.name));
            for row in vals.chunks(8) {
                let v: Vec<String> = row.iter().map(|x| format!("{x:5}")).collect();
                s.push_str(&format!("  {}\n", v.join("")));
            }
        }
    }
    s
}

/// Where an evaluation reports the coefficient of each weight it used.
pub trait Trace {
    /// Weight `i` was multiplied by `v` (sente's view, before the taper).
    fn add(&mut self, i: usize, v: f32);
    /// The endgame score was multiplied by `factor` before the taper (a factor of the
    /// position, not a weight: kokesu's pawnless endings). Not called: 1.
    fn scale_eg(&mut self, _factor: f32) {}
    /// Weight `i` times `v` went into the king danger of the side `attacker` (0 sente)
    /// scores against the other king: a sum `d` that adds [`danger_mg`] and [`danger_eg`]
    /// of it (nothing while it is not positive) for the attacker, not the weight itself.
    fn danger(&mut self, _attacker: usize, _i: usize, _v: f32) {}
}

/// The middlegame score of a king danger sum `d` (kokesu): `d^2 / 4096`, 0 unless `d > 0`.
#[inline(always)]
pub fn danger_mg(d: i32) -> i32 {
    if d > 0 {
        d * d / 4096
    } else {
        0
    }
}

/// The endgame score of a king danger sum `d`: `d / 16`, 0 unless `d > 0`.
#[inline(always)]
pub fn danger_eg(d: i32) -> i32 {
    d.max(0) / 16
}

/// The search's trace: nothing (compiled away).
pub struct NoTrace;

impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: f32) {}
}

/// The coefficients of one evaluation, as reported.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub raw: Vec<(u32, f32)>,
    /// The endgame score's factor, if the evaluation reported one.
    pub eg_scale: Option<f32>,
    /// The king danger sums' coefficients, by attacker (sente, gote).
    pub danger: [Vec<(u32, f32)>; 2],
}

impl Trace for Features {
    fn add(&mut self, i: usize, v: f32) {
        self.raw.push((i as u32, v));
    }

    fn scale_eg(&mut self, factor: f32) {
        self.eg_scale = Some(factor);
    }

    fn danger(&mut self, attacker: usize, i: usize, v: f32) {
        self.danger[attacker].push((i as u32, v));
    }
}

impl Features {
    /// The linear form from the side to move's view: `mg_share` is phase / total (the
    /// endgame share also times the reported endgame factor), each weight's
    /// coefficients summed, zeros dropped.
    pub fn finish(&self, tapers: &[Taper], mg_share: f32, sente_to_move: bool) -> Vec<(u32, f32)> {
        let sign = if sente_to_move { 1.0 } else { -1.0 };
        let eg_scale = self.eg_scale.unwrap_or(1.0);
        let mut v: Vec<(u32, f32)> = self
            .raw
            .iter()
            .map(|&(i, c)| {
                let t = match tapers[i as usize] {
                    Taper::Mg => mg_share,
                    Taper::Eg => (1.0 - mg_share) * eg_scale,
                    Taper::Flat => 1.0,
                };
                (i, c * t * sign)
            })
            .collect();
        v.sort_by_key(|x| x.0);
        let mut out: Vec<(u32, f32)> = Vec::with_capacity(v.len());
        for (i, c) in v {
            match out.last_mut() {
                Some(last) if last.0 == i => last.1 += c,
                _ => out.push((i, c)),
            }
        }
        out.retain(|x| x.1.abs() > 1e-6);
        out
    }

    /// The position as a training sample (result 0.5): the linear form of [`finish`]
    /// and the king danger sums, each with its sign and taper.
    ///
    /// [`finish`]: Features::finish
    pub fn sample(&self, tapers: &[Taper], mg_share: f32, sente_to_move: bool) -> Sample {
        let eg = (1.0 - mg_share) * self.eg_scale.unwrap_or(1.0);
        let danger = (0..2)
            .filter(|&a| !self.danger[a].is_empty())
            .map(|a| {
                let sign = if (a == 0) == sente_to_move { 1.0 } else { -1.0 };
                Danger { sign, mg: mg_share, eg, sum: self.danger[a].clone() }
            })
            .collect();
        Sample { result: 0.5, features: self.finish(tapers, mg_share, sente_to_move), danger }
    }
}

/// One king danger sum of a sample: `sign * (mg * danger_mg(d) + eg * danger_eg(d))`
/// with `d` the sum of the weights times their coefficients (in reals, not rounded).
#[derive(Clone, Debug, Default)]
pub struct Danger {
    /// +1 if the attacker is the side to move, -1 if not.
    pub sign: f32,
    /// The middlegame and endgame shares of the taper (the endgame's with its factor).
    pub mg: f32,
    pub eg: f32,
    pub sum: Vec<(u32, f32)>,
}

impl Danger {
    /// The danger sum `d` (0 or less: no effect), and the score's derivative by `d`.
    fn value(&self, w: &[f64]) -> (f64, f64) {
        let d: f64 = self.sum.iter().map(|&(i, c)| w[i as usize] * c as f64).sum();
        if d <= 0.0 {
            return (0.0, 0.0);
        }
        let (mg, eg, sign) = (self.mg as f64, self.eg as f64, self.sign as f64);
        (sign * (mg * d * d / 4096.0 + eg * d / 16.0), sign * (mg * 2.0 * d / 4096.0 + eg / 16.0))
    }
}

/// One training position: the result for the side to move (1, 0.5, 0), the linear
/// form of its evaluation and its king danger sums.
#[derive(Clone, Debug, Default)]
pub struct Sample {
    pub result: f32,
    pub features: Vec<(u32, f32)>,
    pub danger: Vec<Danger>,
}

/// The evaluation of a sample under weights `w`: its linear form and its danger sums.
#[inline]
pub fn linear(w: &[f64], s: &Sample) -> f64 {
    let lin: f64 = s.features.iter().map(|&(i, c)| w[i as usize] * c as f64).sum();
    lin + s.danger.iter().map(|d| d.value(w).0).sum::<f64>()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error of `sigmoid(k * eval)` against the results.
pub fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(k * linear(w, s)) - s.result as f64;
            d * d
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The K (per centipawn) that best fits the results with weights `w`: a ternary
/// search on the (unimodal) error.
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-4f64, 0.05f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// How to run [`tune`].
#[derive(Clone, Debug)]
pub struct TuneOptions {
    pub epochs: usize,
    /// Adam step size, in weight units (centipawns).
    pub rate: f64,
    /// Pull towards the starting weights: `l2 * (w - w0)^2` per weight, added to the error.
    pub l2: f64,
    /// Weights that keep their starting value.
    pub frozen: Vec<bool>,
}

/// Texel's method: full-batch Adam on the mean squared error of `sigmoid(k * eval)`
/// against the results, from the starting weights `w0`. Deterministic (no sampling).
/// `progress` is called every 50 epochs with the epoch and the weights.
pub fn tune(
    samples: &[Sample],
    w0: &[f64],
    k: f64,
    opts: &TuneOptions,
    progress: &mut dyn FnMut(usize, &[f64]),
) -> Vec<f64> {
    let n = w0.len();
    let mut w = w0.to_vec();
    let (mut m, mut v) = (vec![0f64; n], vec![0f64; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let scale = 2.0 * k / samples.len().max(1) as f64;
    let mut grad = vec![0f64; n];
    for epoch in 1..=opts.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            let p = sigmoid(k * linear(&w, s));
            let g = (p - s.result as f64) * p * (1.0 - p) * scale;
            for &(i, c) in &s.features {
                grad[i as usize] += g * c as f64;
            }
            for d in &s.danger {
                let slope = g * d.value(&w).1;
                for &(i, c) in &d.sum {
                    grad[i as usize] += slope * c as f64;
                }
            }
        }
        for i in 0..n {
            if opts.frozen.get(i).copied().unwrap_or(false) {
                continue;
            }
            let g = grad[i] + 2.0 * opts.l2 * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= opts.rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 50 == 0 || epoch == opts.epochs {
            progress(epoch, &w);
        }
    }
    w
}

/// The checks every tuned evaluation's tests share: a deterministic sample of positions,
/// the weights files against the schema, the evaluation's colour symmetry, scores pinned
/// in data, the trace against the evaluation.
#[cfg(test)]
pub mod testing {
    use super::{format_weights, linear, tapers, Features, Param};
    use crate::game::{Color, Game, Strategy};

    /// Positions met by random play from each start: `walks` games of at most `plies`
    /// plies, a capture or promotion (if any) chosen half the time; those for which
    /// `keep` holds. Deterministic.
    pub fn random_play<G: Strategy>(starts: &[G], walks: usize, plies: usize, keep: impl Fn(&G) -> bool) -> Vec<G> {
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n as u64) as usize
        };
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for start in starts {
            for _ in 0..walks {
                let mut pos = start.clone();
                for _ in 0..plies {
                    if keep(&pos) {
                        out.push(pos.clone());
                    }
                    moves.clear();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() || pos.result().is_some() {
                        break;
                    }
                    let caps: Vec<_> = moves.iter().copied().filter(|&m| pos.is_tactical(m)).collect();
                    let mv = if !caps.is_empty() && next(2) == 0 {
                        caps[next(caps.len())]
                    } else {
                        moves[next(moves.len())]
                    };
                    pos.play(mv);
                }
            }
        }
        out
    }

    /// The `sfen` lines of a perft suite, and the start position.
    pub fn suite_starts<G: Game>(suite: &str, rules: &G::Rules) -> Vec<G> {
        let mut starts: Vec<G> =
            suite.lines().filter_map(|l| l.strip_prefix("sfen ")).map(|s| G::from_sfen(s, rules).unwrap()).collect();
        starts.push(G::startpos(rules));
        starts
    }

    /// The sample of a game's weights tests: [`random_play`] from the `sfen` lines of
    /// the perft suite `suite` and the start position, for each rules value and its
    /// number of walks in turn; each position with its rules.
    pub fn sample<G: Strategy>(
        suite: &str,
        rules: &[(G::Rules, usize)],
        plies: usize,
        keep: impl Fn(&G) -> bool,
    ) -> Vec<(G::Rules, G)> {
        let mut out = Vec::new();
        for (rules, walks) in rules {
            out.extend(
                random_play(&suite_starts::<G>(suite, rules), *walks, plies, &keep).into_iter().map(|g| (*rules, g)),
            );
        }
        out
    }

    /// The tests of a game's weights as data, declared in its `eval.rs` test module
    /// (where `use super::*` brings `PARAMS`, the items of [`crate::weights_files!`],
    /// `evaluate_with` and `NoTrace`) beside the game's `sample_positions()` (positions
    /// with their rules, from [`sample`]):
    /// - `weights_files_round_trip`: both weights files fit the schema, and writing what
    ///   was read gives the file again (its header comment kept);
    /// - `evaluation_is_colour_symmetric`: every one of the (more than `min_positions`)
    ///   sample positions out of the placement phase scores what the same position
    ///   with the colours swapped scores (`mirror` turns the SFEN round, usually with
    ///   [`mirrored_sfen`]), with both weights files;
    ///   `coverage` (the positions and the initial weights) then checks that the sample
    ///   reaches the game's rarer terms;
    /// - `pinned_scores`: the scores of every n-th sample position with both weights
    ///   files are those in `fixtures/eval/<dir>.scores` (a deliberate change of the
    ///   evaluation, the weights or the sample rewrites it:
    ///   `KOMA_WRITE_SCORES=1 cargo test --release --lib <dir>::eval::tests::pinned_scores`).
    macro_rules! weights_tests {
        (
            game: $game:ty,
            dir: $dir:literal,
            mirror: $mirror:expr,
            min_positions: $min:expr,
            coverage: $coverage:expr $(,)?
        ) => {
            /// The scores with the weights in use and with the initial weights.
            fn both_scores(g: &$game) -> [i32; 2] {
                let initial = parse(INITIAL_WEIGHTS_TEXT).unwrap();
                [evaluate_with(g, weights(), &mut NoTrace), evaluate_with(g, &initial, &mut NoTrace)]
            }

            #[test]
            fn weights_files_round_trip() {
                for text in [WEIGHTS_TEXT, INITIAL_WEIGHTS_TEXT] {
                    $crate::tune::testing::check_round_trip(text, &parse(text).unwrap()[..], PARAMS);
                }
            }

            #[test]
            fn evaluation_is_colour_symmetric() {
                let positions = sample_positions();
                assert!(positions.len() > $min, "{}", positions.len());
                $crate::tune::testing::check_symmetry(&positions, $mirror, both_scores);
                let games: Vec<$game> = positions.into_iter().map(|x| x.1).collect();
                let coverage: fn(&[$game], &Weights) = $coverage;
                coverage(&games, &parse(INITIAL_WEIGHTS_TEXT).unwrap());
            }

            #[test]
            fn pinned_scores() {
                let path = concat!("fixtures/eval/", $dir, ".scores");
                $crate::tune::testing::check_pinned(&sample_positions(), path, both_scores);
            }
        };
    }
    pub(crate) use weights_tests;

    /// `text`, a weights file, is what [`format_weights`] writes for its values `w` and
    /// its header (the comment lines it starts with).
    pub fn check_round_trip(text: &str, w: &[i32], params: &[Param]) {
        let header: String = text
            .lines()
            .map_while(|l| l.strip_prefix('#'))
            .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
            .collect();
        assert_eq!(format_weights(w, params, &header), text);
    }

    /// The SFEN of `sfen`'s position with the colours swapped: the ranks in reverse
    /// order (and each rank reversed too when `rotate`: the shogi-like games' half turn;
    /// chess only flips the ranks), upper and lower case swapped on the board and in the
    /// hands (sente's hand first again), the other side to move.
    pub fn mirrored_sfen(sfen: &str, rotate: bool) -> String {
        let swap = |s: &str| -> String {
            s.chars().map(|c| if c.is_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect()
        };
        let fields: Vec<&str> = sfen.split(' ').collect();
        let mut ranks: Vec<Vec<String>> = fields[0].split('/').map(rank_cells).collect();
        ranks.reverse();
        if rotate {
            ranks.iter_mut().for_each(|r| r.reverse());
        }
        let board: Vec<String> = ranks.iter().map(|r| rank_text(r, &swap)).collect();
        let mut out = vec![board.join("/")];
        if let Some(side) = fields.get(1) {
            out.push(if *side == "b" { "w" } else { "b" }.to_string());
        }
        if let Some(hands) = fields.get(2) {
            out.push(mirrored_hands(hands, &swap));
        }
        out.extend(fields.iter().skip(3).map(|s| s.to_string()));
        out.join(" ")
    }

    /// The cells of one SFEN rank: "" for an empty square, else the piece ("+P", "k").
    fn rank_cells(rank: &str) -> Vec<String> {
        let mut cells = Vec::new();
        let mut piece = String::new();
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10).filter(|_| piece.is_empty()) {
                cells.extend(std::iter::repeat_n(String::new(), n as usize));
            } else {
                piece.push(c);
                if c != '+' {
                    cells.push(std::mem::take(&mut piece));
                }
            }
        }
        cells
    }

    /// One SFEN rank from its cells, each piece through `swap`.
    fn rank_text(cells: &[String], swap: &dyn Fn(&str) -> String) -> String {
        let (mut text, mut empty) = (String::new(), 0);
        for cell in cells {
            if cell.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
                empty = 0;
            }
            text.push_str(&swap(cell));
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        text
    }

    /// The hands field with the owners swapped, sente's pieces (upper case) first.
    fn mirrored_hands(hands: &str, swap: &dyn Fn(&str) -> String) -> String {
        if hands == "-" {
            return hands.to_string();
        }
        let mut items: Vec<String> = Vec::new();
        let mut count = String::new();
        for c in hands.chars() {
            if c.is_ascii_digit() {
                count.push(c);
            } else {
                items.push(format!("{}{}", std::mem::take(&mut count), swap(&c.to_string())));
            }
        }
        let upper = |s: &String| s.chars().any(|c| c.is_uppercase());
        let (sente, gote): (Vec<String>, Vec<String>) = items.into_iter().partition(upper);
        sente.concat() + &gote.concat()
    }

    /// Every position out of the placement phase scores (`eval`, the side to move's
    /// view) what the same position with the colours swapped (`mirror` of its SFEN)
    /// scores.
    pub fn check_symmetry<G: Game>(
        positions: &[(G::Rules, G)],
        mirror: fn(&str) -> String,
        eval: impl Fn(&G) -> [i32; 2],
    ) {
        for (rules, g) in positions.iter().filter(|x| !x.1.in_placement()) {
            let sfen = g.to_sfen();
            let mirrored = mirror(&sfen);
            let m = G::from_sfen(&mirrored, rules).unwrap_or_else(|e| panic!("{sfen} -> {mirrored}: {e}"));
            assert!(!m.in_placement(), "{sfen} -> {mirrored}: in the placement phase");
            assert_eq!(eval(g), eval(&m), "{sfen} against {mirrored}");
        }
    }

    /// About this many positions' scores are pinned per game.
    const PINNED: usize = 200;

    /// The scores `eval` gives every n-th position of `positions` (about [`PINNED`]) are
    /// those in the file `path` under the crate, a line `score score sfen` each;
    /// `KOMA_WRITE_SCORES=1` writes it first.
    pub fn check_pinned<G: Game>(positions: &[(G::Rules, G)], path: &str, eval: impl Fn(&G) -> [i32; 2]) {
        let step = (positions.len() / PINNED).max(1);
        let lines: Vec<String> = positions
            .iter()
            .step_by(step)
            .map(|(_, g)| {
                let [a, b] = eval(g);
                format!("{a} {b} {}", g.to_sfen())
            })
            .collect();
        let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("KOMA_WRITE_SCORES").is_some() {
            let header = "# The evaluation of every n-th position the weights tests sample (src/tune.rs: testing),\n\
                          # side to move's view: with weights.txt, with weights_initial.txt, the position.\n";
            std::fs::write(&file, format!("{header}{}\n", lines.join("\n"))).unwrap();
        }
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
        let pinned: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(pinned.len(), lines.len(), "{path}: the number of positions");
        for (i, (want, got)) in pinned.iter().zip(&lines).enumerate() {
            assert_eq!(got, want, "{path}, position {}", i + 1);
        }
    }

    /// The trace's linear form equals the evaluation `eval` with weights `w` (within
    /// `tolerance`: a taper's integer division rounds) on every position whose score is
    /// not clamped.
    pub fn check_linear_form<G: Game>(
        positions: &[G],
        params: &[Param],
        w: &[i32],
        eval: impl Fn(&G, &mut Features) -> i32,
        mg_share: impl Fn(&G) -> f32,
        tolerance: f64,
    ) {
        let tapers = tapers(params);
        let wf: Vec<f64> = w.iter().map(|&x| x as f64).collect();
        for g in positions {
            let mut f = Features::default();
            let e = eval(g, &mut f);
            if e.abs() >= 15000 {
                continue;
            }
            let s = f.sample(&tapers, mg_share(g), g.side_to_move() == Color::Sente);
            let lin = linear(&wf, &s);
            assert!((lin - e as f64).abs() <= tolerance, "{e} vs {lin}: {}", g.to_sfen());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCHEMA: &[Param] = &[Param::mg("a_mg", 2), Param::eg("a_eg", 2), Param::flat("tempo", 1)];

    #[test]
    fn weights_round_trip_and_errors() {
        let w = vec![1, -2, 30, 400, 5];
        let text = format_weights(&w, SCHEMA, "a test\n");
        assert_eq!(parse_weights(&text, SCHEMA).unwrap(), w);
        assert_eq!(offset(SCHEMA, "a_eg"), 2);
        assert_eq!(weight_name(SCHEMA, 3), "a_eg[1]");
        assert!(parse_weights("a_mg 1 2 a_eg 3 4", SCHEMA).unwrap_err().contains("tempo missing"));
        assert!(parse_weights("a_mg 1 a_eg 3 4 tempo 1", SCHEMA).unwrap_err().contains("1 values"));
        assert!(parse_weights("a_mg 1 2 3 a_eg 3 4 tempo 1", SCHEMA).is_err());
        assert!(parse_weights("b 1", SCHEMA).unwrap_err().contains("unknown"));
    }

    #[test]
    fn taper_and_side_to_move() {
        let tapers = tapers(SCHEMA);
        let mut f = Features { raw: vec![(0, 2.0), (2, 2.0), (0, 1.0), (4, 1.0)], ..Default::default() };
        let lin = f.finish(&tapers, 0.25, false);
        assert_eq!(lin, vec![(0, -0.75), (2, -1.5), (4, -1.0)]);
        // A reported endgame factor scales the endgame weights only.
        f.scale_eg(0.5);
        assert_eq!(f.finish(&tapers, 0.25, false), vec![(0, -0.75), (2, -0.75), (4, -1.0)]);
    }

    /// Numbers in [0, 1) from a seed (xorshift), the same every run.
    fn uniform(mut state: u64) -> impl FnMut() -> f64 {
        move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    /// Results drawn from a known linear evaluation: the tuner finds its weights again.
    #[test]
    fn recovers_known_weights() {
        let truth = [120.0f64, -40.0, 75.0, 10.0];
        let k = 0.01;
        let mut rnd = uniform(0x1234_5678_9abc_def1);
        let mut samples = Vec::new();
        for _ in 0..20000 {
            let features: Vec<(u32, f32)> =
                (0..4).map(|i| (i as u32, (rnd() * 6.0 - 3.0).round() as f32)).filter(|x| x.1 != 0.0).collect();
            let s = Sample { result: 0.0, features, danger: Vec::new() };
            let p = sigmoid(k * linear(&truth, &s));
            // A result drawn with that probability (win or loss).
            let result = if rnd() < p { 1.0 } else { 0.0 };
            samples.push(Sample { result, ..s });
        }
        let opts = TuneOptions { epochs: 1500, rate: 2.0, l2: 0.0, frozen: vec![false; 4] };
        let w = tune(&samples, &[0.0; 4], k, &opts, &mut |_, _| {});
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 12.0, "{w:?} vs {truth:?}");
        }
        // And K is found again given the true weights.
        let fk = fit_k(&samples, &truth);
        assert!((fk - k).abs() < 0.002, "{fk}");
    }

    #[test]
    fn danger_sums_keep_their_attacker_sign_and_taper() {
        let mut f = Features { raw: vec![(0, 1.0)], ..Default::default() };
        f.danger(1, 1, 3.0);
        f.danger(1, 2, 1.0);
        f.scale_eg(0.5);
        let s = f.sample(&tapers(SCHEMA), 0.75, false);
        assert_eq!(s.features, vec![(0, -0.75)]);
        assert_eq!((s.danger.len(), s.danger[0].sign, s.danger[0].mg, s.danger[0].eg), (1, 1.0, 0.75, 0.125));
        // d = 3 * 64 + 64 = 256: 0.75 * 256^2 / 4096 + 0.125 * 256 / 16 = 12 + 2, less 0.75 * a_mg.
        assert_eq!(linear(&[4.0, 64.0, 64.0, 0.0, 0.0], &s), 14.0 - 3.0);
        // A sum that is not positive adds nothing.
        assert_eq!(linear(&[4.0, -64.0, 64.0, 0.0, 0.0], &s), -3.0);
    }

    /// Results drawn from an evaluation with a linear weight and a danger sum of two
    /// weights: the gradient through the square finds them again.
    #[test]
    fn recovers_known_danger_weights() {
        let truth = [60.0f64, 300.0, -200.0];
        let k = 0.01;
        let mut rnd = uniform(0x0fed_cba9_8765_4321);
        let mut samples = Vec::new();
        for _ in 0..20000 {
            let mut f = Features { raw: vec![(0, (rnd() * 6.0 - 3.0).round() as f32)], ..Default::default() };
            let attacker = usize::from(rnd() < 0.5);
            f.danger(attacker, 1, (rnd() * 4.0).floor() as f32);
            f.danger(attacker, 2, 1.0);
            let mut s = f.sample(&[Taper::Flat; 3], rnd() as f32, rnd() < 0.5);
            s.result = if rnd() < sigmoid(k * linear(&truth, &s)) { 1.0 } else { 0.0 };
            samples.push(s);
        }
        let opts = TuneOptions { epochs: 1500, rate: 4.0, l2: 0.0, frozen: vec![false; 3] };
        let w = tune(&samples, &[0.0, 150.0, -100.0], k, &opts, &mut |_, _| {});
        for (got, want) in w.iter().zip(truth) {
            assert!((got - want).abs() < 0.15 * want.abs(), "{w:?} vs {truth:?}");
        }
    }
}
