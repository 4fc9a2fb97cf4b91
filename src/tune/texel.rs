//! Texel's method: the linear forms of many quiet positions' evaluations ([`Features`],
//! [`Sample`]) fitted to their games' results ([`fit_k`], [`tune`]).

use super::{Taper, Trace};

/// The coefficients of one evaluation, as reported.
#[derive(Clone, Debug, Default)]
pub struct Features {
    pub raw: Vec<(u32, f32)>,
    /// The endgame score's factor, if the evaluation reported one.
    pub eg_scale: Option<f32>,
}

impl Trace for Features {
    fn add(&mut self, i: usize, v: f32) {
        self.raw.push((i as u32, v));
    }

    fn scale_eg(&mut self, factor: f32) {
        self.eg_scale = Some(factor);
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
}

/// One training position: the result for the side to move (1, 0.5, 0) and the linear
/// form of its evaluation.
#[derive(Clone, Debug)]
pub struct Sample {
    pub result: f32,
    pub features: Vec<(u32, f32)>,
}

/// The evaluation of a sample under weights `w` (linear form).
#[inline]
pub fn linear(w: &[f64], s: &Sample) -> f64 {
    s.features.iter().map(|&(i, c)| w[i as usize] * c as f64).sum()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{tapers, Param};

    const SCHEMA: &[Param] = &[Param::mg("a_mg", 2), Param::eg("a_eg", 2), Param::flat("tempo", 1)];

    #[test]
    fn taper_and_side_to_move() {
        let tapers = tapers(SCHEMA);
        let mut f = Features { raw: vec![(0, 2.0), (2, 2.0), (0, 1.0), (4, 1.0)], eg_scale: None };
        let lin = f.finish(&tapers, 0.25, false);
        assert_eq!(lin, vec![(0, -0.75), (2, -1.5), (4, -1.0)]);
        // A reported endgame factor scales the endgame weights only.
        f.scale_eg(0.5);
        assert_eq!(f.finish(&tapers, 0.25, false), vec![(0, -0.75), (2, -0.75), (4, -1.0)]);
    }

    /// Results drawn from a known linear evaluation: the tuner finds its weights again.
    #[test]
    fn recovers_known_weights() {
        let truth = [120.0f64, -40.0, 75.0, 10.0];
        let k = 0.01;
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut rnd = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut samples = Vec::new();
        for _ in 0..20000 {
            let features: Vec<(u32, f32)> =
                (0..4).map(|i| (i as u32, (rnd() * 6.0 - 3.0).round() as f32)).filter(|x| x.1 != 0.0).collect();
            let s = Sample { result: 0.0, features };
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
}
