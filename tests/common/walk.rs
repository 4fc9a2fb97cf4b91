//! Random games for the network tests: positions along them, each with its parent.

use koma::game::Strategy;

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
