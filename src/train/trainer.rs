//! `koma nnue-train`: fits a game's network to training data and writes the net file,
//! generic over the game (`Trainable`: its cells, features, mirror image and material).
//!
//! The float network is the one `crate::games::nnue` evaluates in integers: per
//! perspective `h = clamp(b + sum W[f], 0, 1)` over the active features, `y = v_us . h_us +
//! v_them . h_them + c + (sum q[f_us] - sum q[f_them]) / 2`, centipawns `y * SCALE`; the
//! piece-square path `q` starts as the game's material values (`--no-psqt`: zero and left there).
//! The loss is the mean squared error between `sigmoid(cp / K_net)` (`--eval-k`, default
//! K) and the target `lambda * result + (1 - lambda) * sigmoid(score / K)`
//! (result 0, 0.5, 1 for the side to move; score the data's search score), where K, the
//! centipawns-to-odds scale, is fitted to the training positions' scores and results first.
//!
//! Sparse and hand-written: a Kokesu position touches about 60 of the 768 x 2 feature rows,
//! so the forward and backward passes cost `60 * H` additions each (`H` the accumulator's
//! width: the game's, or `--width`'s), and the batch's
//! gradients go to the dense Adam step of all weights once a batch. (Tensor libraries do
//! the first layer as a dense 768-wide product or a gather: measured 30 to 50 times slower
//! per position, docs/NNUE.md.) Weights are kept within the quantised ranges (|W|, |b|,
//! |v| <= 1.98: an accumulator of 64 features cannot overflow 16 bits) and rounded to the
//! file's integers at the end.
//!
//! Deterministic from the seed and the thread count (each thread sums its share of a batch
//! in order; the shares are added in order).

use std::collections::HashSet;
use std::io::Write;
use std::time::Instant;

use super::records::Record;
use super::Rng;
use crate::games::nnue::stack::Cells;
use crate::games::nnue::trainable::Trainable;
use crate::games::nnue::{format, FeatureSet, Kernels, Network, Row, QA, QB};

/// Centipawns per unit of the float output (the file's `scale`).
pub(crate) const SCALE: f32 = 400.0;
/// The bound of the quantised weights, as floats.
const CLIP: f32 = 1.98;
/// The most features a perspective of a position has (Kokesu 32, 66 shogi 24 pieces and
/// 16 hand counts).
const MAX_ACTIVE: usize = 48;

/// What `koma nnue-train` is asked for.
#[derive(Clone, Debug)]
pub(crate) struct TrainPlan {
    pub(crate) epochs: usize,
    pub(crate) batch: usize,
    pub(crate) lr: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub(crate) lr_decay: f32,
    /// The weight of the game result in the target (the rest: the search score).
    pub(crate) lambda: f32,
    /// The share of the positions held out (the last ones: the last games).
    pub(crate) holdout: f32,
    pub(crate) seed: u64,
    pub(crate) threads: usize,
    /// AdamW's decoupled weight decay of the accumulator weights and biases.
    pub(crate) weight_decay: f32,
    /// Train on each position's mirror image too.
    pub(crate) mirror: bool,
    /// Train the piece-square path (else it stays zero).
    pub(crate) psqt: bool,
    /// The K of the net's `sigmoid(cp / K)`; None: the one fitted to the data's scores.
    pub(crate) eval_k: Option<f32>,
}

/// One position as the trainer sees it: the active features of the side to move's
/// perspective and of the other's, and the target's parts.
#[derive(Clone)]
struct Sample {
    n: u8,
    us: [u16; MAX_ACTIVE],
    them: [u16; MAX_ACTIVE],
    score: f32,
    /// 0, 0.5, 1 for the side to move.
    result: f32,
}

/// The sample of a record; `mirror`: of its mirror image (files reversed), a position of
/// the same value.
fn sample<G: Trainable>(r: &Record, mirror: bool) -> Sample {
    let (mut us, mut them, mut n) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE], 0usize);
    let side = r.side as usize;
    let cells = if mirror { G::mirrored(&r.cells) } else { r.cells };
    for (cell, &value) in cells.iter().enumerate() {
        let features = (G::Cells::feature(side, cell, value), G::Cells::feature(side ^ 1, cell, value));
        if let (Some(own), Some(other)) = features {
            if n < MAX_ACTIVE {
                (us[n], them[n]) = (own as u16, other as u16);
                n += 1;
            }
        }
    }
    Sample { n: n as u8, us, them, score: f32::from(r.score), result: f32::from(r.result) / 2.0 }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network's weights (and, shaped alike, its gradients and Adam moments), `H`
/// accumulators wide.
#[derive(Clone)]
struct Params<const H: usize> {
    w: Vec<f32>,
    b: Vec<f32>,
    v: Vec<f32>,
    c: f32,
    /// The piece-square values straight to the output (one a feature, in output units).
    q: Vec<f32>,
}

impl<const H: usize> Params<H> {
    fn zero(inputs: usize) -> Params<H> {
        Params { w: vec![0.0; inputs * H], b: vec![0.0; H], v: vec![0.0; 2 * H], c: 0.0, q: vec![0.0; inputs] }
    }

    /// Random feature and output weights; the piece-square path starts as the game's
    /// material (`Trainable::start_value`).
    fn random<G: Trainable>(rng: &mut Rng) -> Params<H> {
        let inputs = G::FEATURES.inputs;
        let mut p = Params::zero(inputs);
        let mut uniform = |scale: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale;
        let ws = 1.0 / (inputs as f32).sqrt();
        p.w.iter_mut().for_each(|x| *x = uniform(ws));
        let vs = 1.0 / (2.0 * H as f32).sqrt();
        p.v.iter_mut().for_each(|x| *x = uniform(vs));
        for (f, q) in p.q.iter_mut().enumerate() {
            *q = G::start_value(f) / SCALE;
        }
        p
    }

    fn add(&mut self, o: &Params<H>) {
        let pairs = self.w.iter_mut().zip(&o.w).chain(self.b.iter_mut().zip(&o.b)).chain(self.v.iter_mut().zip(&o.v));
        for (a, b) in pairs.chain(self.q.iter_mut().zip(&o.q)) {
            *a += b;
        }
        self.c += o.c;
    }

    fn clear(&mut self) {
        self.w.iter_mut().chain(&mut self.b).chain(&mut self.v).chain(&mut self.q).for_each(|x| *x = 0.0);
        self.c = 0.0;
    }
}

/// The accumulator of one perspective, as floats.
fn accumulate<const H: usize>(p: &Params<H>, features: &[u16], acc: &mut [f32; H]) {
    acc.copy_from_slice(&p.b);
    for &f in features {
        let row = &p.w[f as usize * H..][..H];
        for (a, w) in acc.iter_mut().zip(row) {
            *a += w;
        }
    }
}

/// The piece-square path: half the side to move's sum minus half the other's.
fn psqt<const H: usize>(p: &Params<H>, s: &Sample) -> f32 {
    let n = s.n as usize;
    let sum = |features: &[u16]| features.iter().map(|&f| p.q[f as usize]).sum::<f32>();
    0.5 * (sum(&s.us[..n]) - sum(&s.them[..n]))
}

/// The float network's output in centipawns.
fn forward<const H: usize>(p: &Params<H>, s: &Sample, acc: &mut [[f32; H]; 2]) -> f32 {
    let n = s.n as usize;
    accumulate(p, &s.us[..n], &mut acc[0]);
    accumulate(p, &s.them[..n], &mut acc[1]);
    let mut y = p.c + psqt(p, s);
    for (half, a) in acc.iter().enumerate() {
        let v = &p.v[half * H..][..H];
        y += a.iter().zip(v).map(|(&a, &v)| a.clamp(0.0, 1.0) * v).sum::<f32>();
    }
    y * SCALE
}

/// The K of the net's `sigmoid(cp / K)` and that of the data's scores.
#[derive(Clone, Copy, Debug)]
struct Ks {
    eval: f32,
    data: f32,
}

/// The training target: `lambda * result + (1 - lambda) * sigmoid(score / K_data)`.
fn target(k: Ks, lambda: f32, result: f32, score: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(score / k.data)
}

/// Adds the loss's gradient for `s` to `g`; returns the squared error.
fn backward<const H: usize>(p: &Params<H>, s: &Sample, k: Ks, lambda: f32, g: &mut Params<H>) -> f32 {
    let mut acc = [[0f32; H]; 2];
    let cp = forward(p, s, &mut acc);
    let pred = sigmoid(cp / k.eval);
    let err = pred - target(k, lambda, s.result, s.score);
    let dy = 2.0 * err * pred * (1.0 - pred) / k.eval * SCALE;
    g.c += dy;
    let n = s.n as usize;
    for &f in &s.us[..n] {
        g.q[f as usize] += 0.5 * dy;
    }
    for &f in &s.them[..n] {
        g.q[f as usize] -= 0.5 * dy;
    }
    for (half, features) in [&s.us[..n], &s.them[..n]].into_iter().enumerate() {
        let v = &p.v[half * H..][..H];
        let gv = &mut g.v[half * H..][..H];
        let mut dh = [0f32; H];
        for i in 0..H {
            let a = acc[half][i];
            gv[i] += dy * a.clamp(0.0, 1.0);
            dh[i] = if a > 0.0 && a < 1.0 { dy * v[i] } else { 0.0 };
        }
        for (gb, d) in g.b.iter_mut().zip(&dh) {
            *gb += d;
        }
        for &f in features {
            let row = &mut g.w[f as usize * H..][..H];
            for (gw, d) in row.iter_mut().zip(&dh) {
                *gw += d;
            }
        }
    }
    err * err
}

/// The mean squared error over `samples`.
fn loss<const H: usize>(p: &Params<H>, samples: &[Sample], k: Ks, lambda: f32) -> f64 {
    let mut acc = [[0f32; H]; 2];
    let total: f64 = samples
        .iter()
        .map(|s| {
            let err = sigmoid(forward(p, s, &mut acc) / k.eval) - target(k, lambda, s.result, s.score);
            f64::from(err * err)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The K of `sigmoid(score / K)` that best predicts the results (ternary search).
pub(crate) fn fit_k(samples: &[(f32, f32)]) -> f32 {
    let err = |k: f32| samples.iter().map(|&(s, r)| (sigmoid(s / k) - r).powi(2)).sum::<f32>();
    let (mut lo, mut hi) = (20.0f32, 4000.0f32);
    for _ in 0..60 {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if err(a) < err(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam over all weights.
struct Adam<const H: usize> {
    m: Params<H>,
    s: Params<H>,
    t: i32,
}

impl<const H: usize> Adam<H> {
    /// One step; `decay`: decoupled weight decay of the feature weights (AdamW), per unit
    /// of the learning rate.
    fn step(&mut self, p: &mut Params<H>, g: &Params<H>, lr: f32, decay: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let (c1, c2) = (1.0 - B1.powi(self.t), 1.0 - B2.powi(self.t));
        let update = |x: &mut f32, g: f32, m: &mut f32, s: &mut f32| {
            *m = B1 * *m + (1.0 - B1) * g;
            *s = B2 * *s + (1.0 - B2) * g * g;
            *x -= lr * (*m / c1) / ((*s / c2).sqrt() + EPS);
        };
        let groups = [(&mut p.w, &g.w, &mut self.m.w, &mut self.s.w), (&mut p.b, &g.b, &mut self.m.b, &mut self.s.b)];
        for (x, g, m, s) in groups {
            for i in 0..x.len() {
                x[i] -= lr * decay * x[i];
                update(&mut x[i], g[i], &mut m[i], &mut s[i]);
                x[i] = x[i].clamp(-CLIP, CLIP);
            }
        }
        for i in 0..p.v.len() {
            update(&mut p.v[i], g.v[i], &mut self.m.v[i], &mut self.s.v[i]);
            p.v[i] = p.v[i].clamp(-CLIP, CLIP);
        }
        update(&mut p.c, g.c, &mut self.m.c, &mut self.s.c);
        for i in 0..p.q.len() {
            update(&mut p.q[i], g.q[i], &mut self.m.q[i], &mut self.s.q[i]);
        }
    }
}

/// The integer network of float weights `p`.
fn quantise<const H: usize>(p: &Params<H>, feature_set: FeatureSet) -> Network<H> {
    let q = |x: f32, scale: f32| (x * scale).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
    let row = |xs: &[f32], scale: f32| {
        let mut r = Row::ZERO;
        for (o, &x) in r.0.iter_mut().zip(xs) {
            *o = q(x, scale);
        }
        r
    };
    let (qa, qb) = (f32::from(QA), f32::from(QB));
    Network {
        feature_set,
        weights: p.w.chunks_exact(H).map(|w| row(w, qa)).collect(),
        bias: row(&p.b, qa),
        out_weights: [row(&p.v[..H], qb), row(&p.v[H..], qb)],
        out_bias: (p.c * qa * qb).round() as i32,
        psqt: p.q.iter().map(|&x| (x * qa * qb).round() as i32).collect(),
        scale: SCALE as u32,
        kernels: Kernels::best(),
    }
}

/// The loss of the game's classic evaluation on `records` (a baseline for the net's): the
/// records koma cannot set up are left out.
fn classic_loss<G: Trainable>(records: &[&Record], k: Ks, lambda: f32) -> f64 {
    let (mut total, mut n) = (0f64, 0usize);
    for r in records {
        if let Some(pos) = G::from_cells(&r.cells, r.side as usize) {
            let err = sigmoid(pos.evaluate() as f32 / k.eval)
                - target(k, lambda, f32::from(r.result) / 2.0, f32::from(r.score));
            total += f64::from(err * err);
            n += 1;
        }
    }
    total / n.max(1) as f64
}

/// The integer network's evaluation of a sample, in centipawns.
fn integer_eval<const H: usize>(net: &Network<H>, s: &Sample) -> i32 {
    let n = s.n as usize;
    let (mut us, mut them) = (Row::ZERO, Row::ZERO);
    net.refresh(&mut us, s.us[..n].iter().map(|&f| f as usize));
    net.refresh(&mut them, s.them[..n].iter().map(|&f| f as usize));
    let psqt =
        net.psqt_sum(s.us[..n].iter().map(|&f| f as usize)) - net.psqt_sum(s.them[..n].iter().map(|&f| f as usize));
    net.evaluate_rows(&us, &them, psqt)
}

/// What a training run made.
#[derive(Clone, Debug)]
pub(crate) struct TrainSummary {
    /// The net's file (`format::write`; its header names its width).
    pub(crate) net_file: Vec<u8>,
    /// Positions trained on (mirror images not counted).
    pub(crate) train_positions: usize,
    pub(crate) heldout_positions: usize,
    /// The held-out loss of the starting weights and after each epoch.
    pub(crate) heldout_loss: Vec<f64>,
    /// The epoch whose weights were kept: the least held-out loss.
    pub(crate) best_epoch: usize,
}

/// Trains a net `H` wide on `records` (the files' records in order) and reports each epoch
/// on `progress`.
pub(crate) fn train<G: Trainable, const H: usize>(
    plan: &TrainPlan,
    records: &[Record],
    progress: &mut impl Write,
) -> std::io::Result<TrainSummary> {
    // Deduplicate (the same squares and side to move), keeping the first.
    let mut seen = HashSet::new();
    let unique: Vec<&Record> = records.iter().filter(|r| seen.insert((r.cells, r.side))).collect();
    let duplicates = records.len() - unique.len();
    let held = ((unique.len() as f32 * plan.holdout).round() as usize).min(unique.len().saturating_sub(1));
    let split = unique.len() - held;
    let mirrors: &[bool] = if plan.mirror { &[false, true] } else { &[false] };
    let mut train_set: Vec<Sample> =
        unique[..split].iter().flat_map(|r| mirrors.iter().map(move |&m| sample::<G>(r, m))).collect();
    let heldout: Vec<Sample> = unique[split..].iter().map(|r| sample::<G>(r, false)).collect();
    let k_data = fit_k(&train_set.iter().map(|s| (s.score, s.result)).collect::<Vec<_>>());
    let ks = Ks { eval: plan.eval_k.unwrap_or(k_data), data: k_data };
    writeln!(
        progress,
        "{} positions ({duplicates} duplicates left out): {} to train on{}, {} held out; K = {k_data:.1}{}",
        unique.len(),
        split,
        if plan.mirror { " with their mirror images" } else { "" },
        heldout.len(),
        plan.eval_k.map_or(String::new(), |e| format!(" (the net's: {e:.1})"))
    )?;

    let mut rng = Rng(plan.seed);
    let mut p = Params::<H>::random::<G>(&mut rng);
    if !plan.psqt {
        p.q.iter_mut().for_each(|q| *q = 0.0);
    }
    let inputs = G::FEATURES.inputs;
    let mut adam = Adam { m: Params::zero(inputs), s: Params::zero(inputs), t: 0 };
    let threads = plan.threads.max(1);
    let mut grads: Vec<Params<H>> = (0..threads).map(|_| Params::zero(inputs)).collect();
    let mut heldout_loss = vec![loss(&p, &heldout, ks, plan.lambda)];
    let classic_loss = classic_loss::<G>(&unique[split..], ks, plan.lambda);
    writeln!(progress, "epoch 0: held-out loss {:.6} (the classic evaluation's: {classic_loss:.6})", heldout_loss[0])?;
    let mut lr = plan.lr;
    // The weights of the epoch with the least held-out loss (early stopping).
    let mut best = (0, p.clone());
    for epoch in 1..=plan.epochs {
        let start = Instant::now();
        // Fisher-Yates with the run's generator.
        for i in (1..train_set.len()).rev() {
            train_set.swap(i, rng.below(i + 1));
        }
        let mut train_error = 0f64;
        for batch in train_set.chunks(plan.batch.max(1)) {
            let share = batch.len().div_ceil(threads);
            let errors: Vec<f64> = std::thread::scope(|scope| {
                let handles: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(share.max(1)))
                    .map(|(g, part)| {
                        let p = &p;
                        scope.spawn(move || {
                            g.clear();
                            part.iter().map(|s| f64::from(backward(p, s, ks, plan.lambda, g))).sum::<f64>()
                        })
                    })
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
            });
            train_error += errors.iter().sum::<f64>();
            let used = errors.len();
            let (first, rest) = grads.split_at_mut(1);
            for g in rest.iter().take(used - 1) {
                first[0].add(g);
            }
            let scale = 1.0 / batch.len() as f32;
            let g = &mut first[0];
            g.w.iter_mut().chain(&mut g.b).chain(&mut g.v).chain(&mut g.q).for_each(|x| *x *= scale);
            g.c *= scale;
            if !plan.psqt {
                g.q.iter_mut().for_each(|q| *q = 0.0);
            }
            adam.step(&mut p, g, lr, plan.weight_decay);
        }
        lr *= plan.lr_decay;
        let held_loss = loss(&p, &heldout, ks, plan.lambda);
        if heldout_loss.iter().all(|&l| held_loss < l) {
            best = (epoch, p.clone());
        }
        heldout_loss.push(held_loss);
        let secs = start.elapsed().as_secs_f64();
        writeln!(
            progress,
            "epoch {epoch}: train loss {:.6}, held-out loss {held_loss:.6}, {secs:.1} s ({:.0} positions/s)",
            train_error / train_set.len().max(1) as f64,
            train_set.len() as f64 / secs.max(1e-9)
        )?;
    }

    let (best_epoch, p) = best;
    writeln!(progress, "kept epoch {best_epoch}: held-out loss {:.6}", heldout_loss[best_epoch])?;
    let net = quantise(&p, G::FEATURES);
    let mut acc = [[0f32; H]; 2];
    let diff: f64 =
        heldout.iter().map(|s| f64::from((integer_eval(&net, s) as f32 - forward(&p, s, &mut acc)).abs())).sum();
    let quantisation_cp = diff / heldout.len().max(1) as f64;
    writeln!(progress, "quantised: mean |integer - float| evaluation {quantisation_cp:.2} cp on held-out positions")?;
    let net_file = format::write(&net);
    Ok(TrainSummary { net_file, train_positions: split, heldout_positions: heldout.len(), heldout_loss, best_epoch })
}
