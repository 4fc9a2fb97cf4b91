//! Texel tuning of an evaluation's weights (docs/TUNING.md).
//!
//! `cargo run --release --example tune -- --variant kokesu --data target/tune/kokesu.txt --out src/games/kokesu/weights.txt`
//!
//! Options: `--epochs N` (1000), `--rate R` (Adam step, 0.5), `--l2 X` (pull towards the
//! starting weights, 0), `--lambda L` (1: the game result alone; below 1 the target mixes
//! in the search score of the data file), `--freeze P1,P2` (parameters whose names start
//! so keep their values), `--from FILE` (starting weights), `--limit N` (first N lines),
//! `--score-k fit` (the data's scores are another engine's, e.g. tools/fsf_label.py's:
//! their scale is fitted to the game results on its own).
//!
//! Reads the positions `examples/selfplay_data.rs` wrote (`RESULT SFEN`, the result for
//! the side to move), takes each position's linear form and king danger sums from the
//! evaluation's trace, fits K with the starting weights (default: the game's `weights_initial.txt`), then
//! runs full-batch Adam on the squared error of sigmoid(K * eval) with a pull towards
//! the starting weights, and writes the rounded weights. The last tenth of the file (its
//! last games) is held out and its error reported, before and after. Deterministic: the
//! same data and options give the same file.

use std::time::Instant;

use koma::game::Game;
use koma::games::kaninariebi::{eval as neval, KaniNariEbi};
use koma::games::kanishogi::{eval as kseval, KaniShogi};
use koma::games::kokesu::{eval as keval, Kokesu};
use koma::games::numbershogi::{eval as nseval, NumberShogi};
use koma::games::shogi66::{eval as seval, Shogi66};
use koma::tune::{
    error, fit_k, format_weights, parse_weights, tapers, tune, weight_name, Features, Param, Sample, TuneOptions,
};

struct Opts {
    variant: String,
    data: String,
    out: Option<String>,
    from: Option<String>,
    epochs: usize,
    rate: f64,
    l2: f64,
    limit: usize,
    freeze: Vec<String>,
    lambda: f64,
    /// `--score-k fit`: the search scores get their own K, fitted to the game results
    /// (scores of another engine, in its own centipawns); default: the evaluation's K.
    score_k_fit: bool,
}

type Featurize = dyn Fn(&str) -> Option<Sample>;

fn run(o: &Opts, params: &[Param], initial: &str, featurize: &Featurize) {
    let start = Instant::now();
    let text = std::fs::read_to_string(&o.data).unwrap_or_else(|e| panic!("{}: {e}", o.data));
    let mut samples = Vec::new();
    let mut scores = Vec::new();
    for line in text.lines().take(o.limit) {
        let Some((r, rest)) = line.split_once(' ') else { continue };
        let result: f32 = r.parse().expect("result");
        // `RESULT SCORE SFEN`, or `RESULT SFEN` (no search score).
        let (score, sfen) = match rest.split_once(' ') {
            Some((s, sfen)) if s.parse::<i32>().is_ok() => (s.parse::<i32>().ok(), sfen),
            _ => (None, rest),
        };
        if let Some(sample) = featurize(sfen) {
            samples.push(Sample { result, ..sample });
            scores.push(score);
        }
    }
    let split = samples.len() * 9 / 10;
    // K is fitted on the game results; then, with --lambda below 1, the target becomes
    // lambda * result + (1 - lambda) * sigmoid(K * search score).
    let k_results = {
        let w: Vec<f64> = parse_weights(initial, params).unwrap().iter().map(|&x| x as f64).collect();
        fit_k(&samples[..split], &w)
    };
    let k_scores = if o.score_k_fit {
        let scored: Vec<Sample> = samples[..split]
            .iter()
            .zip(&scores)
            .filter_map(|(s, sc)| {
                sc.map(|sc| Sample { result: s.result, features: vec![(0, sc as f32)], danger: Vec::new() })
            })
            .collect();
        let k = fit_k(&scored, &[1.0]);
        eprintln!("K of the evaluation {k_results:.6}/cp, of the data's scores {k:.6}/cp");
        k
    } else {
        k_results
    };
    if o.lambda < 1.0 {
        for (s, score) in samples.iter_mut().zip(&scores) {
            if let Some(sc) = score {
                let p = 1.0 / (1.0 + (-k_scores * *sc as f64).exp());
                s.result = (o.lambda * s.result as f64 + (1.0 - o.lambda) * p) as f32;
            }
        }
    }
    let (train, test) = samples.split_at(split);
    let from_text = match &o.from {
        Some(p) => std::fs::read_to_string(p).unwrap(),
        None => initial.to_string(),
    };
    let w0: Vec<f64> = parse_weights(&from_text, params).unwrap().iter().map(|&x| x as f64).collect();
    let k = fit_k(train, &w0);
    let (e_train0, e_test0) = (error(train, &w0, k), error(test, &w0, k));
    eprintln!(
        "{} positions ({} train, {} held out), read in {:.1} s; K = {k:.6}/cp; error {e_train0:.6} train, {e_test0:.6} held out",
        samples.len(),
        train.len(),
        test.len(),
        start.elapsed().as_secs_f64()
    );
    // Parameters whose name starts with a --freeze prefix keep their starting values.
    let frozen: Vec<bool> = params
        .iter()
        .flat_map(|p| std::iter::repeat_n(o.freeze.iter().any(|f| p.name.starts_with(f.as_str())), p.len))
        .collect();
    let opts = TuneOptions { epochs: o.epochs, rate: o.rate, l2: o.l2, frozen };
    let w = tune(train, &w0, k, &opts, &mut |epoch, w| {
        if epoch % 200 == 0 || epoch == o.epochs {
            let (a, b) = (error(train, w, k), error(test, w, k));
            eprintln!("epoch {epoch}: error {a:.6} train, {b:.6} held out, {:.0} s", start.elapsed().as_secs_f64())
        }
    });
    let wi: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let wr: Vec<f64> = wi.iter().map(|&x| x as f64).collect();
    let (e_train, e_test) = (error(train, &wr, k), error(test, &wr, k));
    let secs = start.elapsed().as_secs_f64();
    eprintln!("tuned in {secs:.0} s: error {e_train:.6} train, {e_test:.6} held out");
    let mut moves: Vec<(usize, f64)> = (0..w.len()).map(|i| (i, wr[i] - w0[i])).collect();
    moves.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
    for (i, d) in moves.iter().take(12) {
        eprintln!("  {} {} -> {} ({d:+})", weight_name(params, *i), w0[*i], wr[*i]);
    }
    let header = format!(
        "{} evaluation weights, written by examples/tune.rs (docs/TUNING.md):\n\
         tune --variant {} --data {} --epochs {} --rate {} --l2 {} --lambda {}{}{}{}\n\
         {} positions ({} held out); K = {k:.6}/cp; squared error {e_train0:.6} -> {e_train:.6} (train), \
         {e_test0:.6} -> {e_test:.6} (held out)",
        o.variant,
        o.variant,
        o.data,
        o.epochs,
        o.rate,
        o.l2,
        o.lambda,
        if o.score_k_fit { " --score-k fit" } else { "" },
        o.from.as_ref().map(|f| format!(" --from {f}")).unwrap_or_default(),
        if o.freeze.is_empty() { String::new() } else { format!(" --freeze {}", o.freeze.join(",")) },
        samples.len(),
        test.len()
    );
    let out = format_weights(&wi, params, &header);
    match &o.out {
        Some(path) => std::fs::write(path, out).unwrap(),
        None => print!("{out}"),
    }
}

fn main() {
    let mut o = Opts {
        variant: "kokesu".into(),
        data: String::new(),
        out: None,
        from: None,
        epochs: 1000,
        rate: 0.5,
        l2: 0.0,
        limit: usize::MAX,
        freeze: Vec::new(),
        lambda: 1.0,
        score_k_fit: false,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i + 1 < v.len() {
        let val = v[i + 1].clone();
        match v[i].as_str() {
            "--variant" => o.variant = val,
            "--data" => o.data = val,
            "--out" => o.out = Some(val),
            "--from" => o.from = Some(val),
            "--epochs" => o.epochs = val.parse().unwrap(),
            "--rate" => o.rate = val.parse().unwrap(),
            "--l2" => o.l2 = val.parse().unwrap(),
            "--limit" => o.limit = val.parse().unwrap(),
            "--lambda" => o.lambda = val.parse().unwrap(),
            "--score-k" => o.score_k_fit = val == "fit",
            "--freeze" => o.freeze = val.split(',').map(String::from).collect(),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    match o.variant.as_str() {
        "kokesu" => {
            let t = tapers(keval::PARAMS);
            let initial = keval::parse(keval::INITIAL_WEIGHTS_TEXT).unwrap();
            let rules = Default::default();
            run(&o, keval::PARAMS, keval::INITIAL_WEIGHTS_TEXT, &move |sfen| {
                let pos = Kokesu::from_sfen(sfen, &rules).ok()?;
                let mut f = Features::default();
                let e = keval::evaluate_with(&pos, &initial, &mut f);
                (e.abs() < 3000).then(|| f.sample(&t, keval::mg_share(&pos), pos.side_to_move().index() == 0))
            })
        }
        "shogi66" => {
            let t = tapers(seval::PARAMS);
            let initial = seval::parse(seval::INITIAL_WEIGHTS_TEXT).unwrap();
            run(&o, seval::PARAMS, seval::INITIAL_WEIGHTS_TEXT, &move |sfen| {
                let pos = Shogi66::from_sfen(sfen, &Default::default()).ok()?;
                let mut f = Features::default();
                let e = seval::evaluate_with(&pos, &initial, &mut f);
                (e.abs() < 3000).then(|| f.sample(&t, seval::mg_share(&pos), pos.side_to_move().index() == 0))
            })
        }
        "kanishogi" => {
            let t = tapers(kseval::PARAMS);
            let initial = kseval::parse(kseval::INITIAL_WEIGHTS_TEXT).unwrap();
            run(&o, kseval::PARAMS, kseval::INITIAL_WEIGHTS_TEXT, &move |sfen| {
                let pos = KaniShogi::from_sfen(sfen, &Default::default()).ok()?;
                let mut f = Features::default();
                let e = kseval::evaluate_with(&pos, &initial, &mut f);
                (e.abs() < 3000).then(|| f.sample(&t, kseval::mg_share(&pos), pos.side_to_move().index() == 0))
            })
        }
        "kaninariebi" => {
            let t = tapers(neval::PARAMS);
            let initial = neval::parse(neval::INITIAL_WEIGHTS_TEXT).unwrap();
            run(&o, neval::PARAMS, neval::INITIAL_WEIGHTS_TEXT, &move |sfen| {
                let pos = KaniNariEbi::from_sfen(sfen, &Default::default()).ok()?;
                let mut f = Features::default();
                let e = neval::evaluate_with(&pos, &initial, &mut f);
                (e.abs() < 3000).then(|| f.sample(&t, neval::mg_share(&pos), pos.side_to_move().index() == 0))
            })
        }
        // Placement positions (no evaluation) and won positions (win_now) are left out.
        "numbershogi" => {
            let t = tapers(nseval::PARAMS);
            let initial = nseval::parse(nseval::INITIAL_WEIGHTS_TEXT).unwrap();
            run(&o, nseval::PARAMS, nseval::INITIAL_WEIGHTS_TEXT, &move |sfen| {
                let pos = NumberShogi::from_sfen(sfen, &Default::default()).ok()?;
                if pos.is_placement() {
                    return None;
                }
                let mut f = Features::default();
                let e = nseval::evaluate_with(&pos, &initial, &mut f);
                (e.abs() < 3000).then(|| f.sample(&t, nseval::mg_share(&pos), pos.side_to_move().index() == 0))
            })
        }
        other => panic!("no tuner for variant {other}"),
    }
}
