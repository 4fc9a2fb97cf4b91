//! What the network tests share: random games (positions along them, each with its
//! parent) and runs of the koma binary with arguments.

use std::process::Command;

use koma::game::Strategy;
use koma::games::nnue::{FeatureSet, Kernels, Network, Row};

/// Runs koma with `args` (commands, or a subcommand and its options) and returns its
/// stdout's lines; it must exit with success.
pub fn koma_lines(args: &[&str]) -> Vec<String> {
    koma_succeeds(args).lines().map(str::to_string).collect()
}

/// Runs koma with `args` and returns its stdout; it must exit with success (else the
/// test fails, showing the arguments and the output).
pub fn koma_succeeds(args: &[&str]) -> String {
    let out = Command::new(assert_cmd::cargo::cargo_bin("koma")).args(args).env_remove("RUST_LOG").output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{args:?}: {text}");
    text
}

/// The error lines among `lines`.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info string error")).collect()
}

/// Plays `games` random games of at most `plies` plies from `start()`, a pass now and then
/// (where the game allows one), calling `visit(parent, child, look)` for every move
/// (`look`: a coin, whether the test evaluates the parent before the child). With
/// `captures`, a capture or promotion is chosen half the time when there is one, so that
/// hands fill and empty.
pub fn random_walk<G: Strategy + Clone>(
    seed: u64,
    games: usize,
    plies: usize,
    captures: bool,
    start: impl Fn() -> G,
    mut visit: impl FnMut(&G, &G, bool),
) {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = start();
        for _ in 0..plies {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let tactical: Vec<G::Move> =
                if captures { moves.iter().copied().filter(|&m| pos.is_tactical(m)).collect() } else { Vec::new() };
            let pick = if !tactical.is_empty() && rng.bool() {
                tactical[rng.usize(..tactical.len())]
            } else {
                moves[rng.usize(..moves.len())]
            };
            let child = match pos.null_move().filter(|_| rng.u8(..) < 20) {
                Some(passed) => passed,
                None => {
                    let mut c = pos.clone();
                    c.play(pick);
                    c
                }
            };
            visit(&pos, &child, rng.bool());
            pos = child;
        }
    }
}

/// A net `H` wide for `features` of pseudo-random weights (every row differs), for the
/// accumulator tests.
pub fn random_net<const H: usize>(features: FeatureSet, seed: u64) -> &'static Network<H> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut row = |spread: i16| Row(std::array::from_fn(|_| rng.i16(-spread..=spread)));
    let weights = (0..features.inputs).map(|_| row(300)).collect();
    let (bias, out_weights) = (row(100), [row(400), row(400)]);
    let psqt = (0..features.inputs).map(|f| (f as i32 * 7919) % 20011 - 10005).collect();
    let net = Network {
        feature_set: features,
        weights,
        bias,
        out_weights,
        out_bias: 1234,
        psqt,
        scale: 400,
        kernels: Kernels::best(),
    };
    Box::leak(Box::new(net))
}
