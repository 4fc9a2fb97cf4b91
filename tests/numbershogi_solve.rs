//! `koma::solve` on Number Shogi: checked against the plain negamax of
//! `reference/numbershogi_minimax.rs` on thousands of late positions, and its proofs of
//! won setups walked against every defence.

#[path = "reference/numbershogi_minimax.rs"]
mod minimax;

use std::collections::HashSet;

use fastrand::Rng;
use koma::game::{Color, Game, Outcome};
use koma::games::numbershogi::NumberShogi;
use koma::solve::{Budget, Solver, Value};
use koma::state::result_of;
use minimax::RefValue;

/// A random setup: placement done, sente to move.
fn random_setup(rng: &mut Rng) -> NumberShogi {
    let mut b: Vec<char> = "ABCDEF".chars().collect();
    let mut w: Vec<char> = "abcdef".chars().collect();
    rng.shuffle(&mut b);
    rng.shuffle(&mut w);
    let row = |s: &[char]| s.iter().collect::<String>();
    let sfen = format!("{}/{}/3/{}/{} b - 13", row(&w[..3]), row(&w[3..]), row(&b[..3]), row(&b[3..]));
    NumberShogi::from_sfen(&sfen, &Default::default()).unwrap()
}

fn unbounded() -> Budget {
    Budget::default()
}

/// Seeded random games from random setups; every position the reference decides within
/// `DEPTH` plies is compared with the solver, value and plies. Positions it leaves
/// undecided must not be solved within `DEPTH` either.
#[test]
fn agrees_with_plain_minimax_on_ten_thousand_positions() {
    const DEPTH: u32 = 5;
    const WANT: usize = 10_000;
    let mut rng = Rng::with_seed(33);
    let (mut decided, mut undecided, mut games) = (0usize, 0usize, 0usize);
    let mut kinds = [0usize; 2];
    while decided < WANT {
        games += 1;
        let mut pos = random_setup(&mut rng);
        let mut solver = Solver::new();
        let mut moves = Vec::new();
        // A short random opening, then compare at every ply until the game ends.
        for ply in 0..60 {
            moves.clear();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if ply >= 4 {
                let (r, _) = minimax::value(&pos, DEPTH);
                let sfen = pos.to_sfen();
                match r {
                    RefValue::Undecided => {
                        let s = solver.solve(&pos, &Budget { max_nodes: Some(20_000), max_ms: None });
                        if let Some(v) = s.value {
                            assert!(
                                v == Value::Draw || s.plies > DEPTH,
                                "{sfen}: reference undecided at {DEPTH}, solver {v:?} in {}",
                                s.plies
                            );
                        }
                        undecided += 1;
                    }
                    RefValue::Win(d) | RefValue::Loss(d) => {
                        let s = solver.solve(&pos, &unbounded());
                        let want = match r {
                            RefValue::Win(_) => Value::Win,
                            _ => Value::Loss,
                        };
                        assert_eq!((s.value, s.plies), (Some(want), d), "{sfen}: solver against reference");
                        kinds[(want == Value::Loss) as usize] += 1;
                        decided += 1;
                    }
                }
            }
            pos.play(moves[rng.usize(..moves.len())]);
        }
    }
    eprintln!("{decided} decided ({} wins, {} losses), {undecided} undecided, {games} games", kinds[0], kinds[1]);
    assert!(kinds[0] > 1000 && kinds[1] > 1000, "both kinds of result are checked: {kinds:?}");
}

/// Follows the solver's win from `pos` (the winner to move, `left` plies promised)
/// against every reply, judging each position with the referee's `result_of` on the
/// game's history. Returns the positions checked.
fn walk_win(
    solver: &mut Solver<NumberShogi>,
    pos: &NumberShogi,
    history: &mut Vec<(u64, bool)>,
    left: u32,
    seen: &mut HashSet<(u64, u32)>,
) -> u64 {
    if !seen.insert((pos.key(), left)) {
        return 0;
    }
    let s = solver.solve(pos, &unbounded());
    let sfen = pos.to_sfen();
    assert_eq!(s.value, Some(Value::Win), "{sfen}: still won");
    assert!(s.plies <= left, "{sfen}: win in {} but {left} promised", s.plies);
    let winner = pos.side_to_move();
    let mut next = pos.clone();
    next.play(s.bestmove.expect("a won position has a move"));
    history.push((next.key(), next.in_check()));
    let mut checked = 1;
    match result_of(&next, history) {
        Some((o, why)) => assert_eq!(o, Outcome::Loss, "{sfen}: the winning move ends the game with {why}"),
        None => {
            assert!(left >= 3, "{sfen}: the game goes on after the promised plies");
            let mut replies = Vec::new();
            next.legal_moves(&mut replies);
            for r in replies {
                let mut after = next.clone();
                after.play(r);
                history.push((after.key(), after.in_check()));
                match result_of(&after, history) {
                    Some((o, why)) => panic!("{sfen}: a defence ends the game ({o:?}, {why})"),
                    None => checked += walk_win(solver, &after, history, left - 2, seen),
                }
                history.pop();
            }
        }
    }
    history.pop();
    assert_eq!(winner, pos.side_to_move());
    checked
}

/// Every won or lost setup of a seeded sample whose proof is short enough: the win is
/// walked against every defence (for a loss, every move of the loser is answered by a
/// win walked the same way), and the game ends by the rules within the plies promised.
#[test]
fn proofs_of_setups_hold_against_every_defence() {
    let mut rng = Rng::with_seed(3333);
    let mut solver = Solver::new();
    let (mut wins, mut losses, mut checked) = (0, 0, 0u64);
    for _ in 0..200 {
        if wins >= 3 && losses >= 2 {
            break;
        }
        let root = random_setup(&mut rng);
        let s = solver.solve(&root, &Budget { max_nodes: Some(50_000), max_ms: None });
        let mut seen = HashSet::new();
        let mut history = vec![(root.key(), root.in_check())];
        match s.value {
            Some(Value::Win) if s.plies <= 9 && wins < 3 => {
                checked += walk_win(&mut solver, &root, &mut history, s.plies, &mut seen);
                wins += 1;
            }
            Some(Value::Loss) if s.plies <= 10 && losses < 2 => {
                let mut moves = Vec::new();
                root.legal_moves(&mut moves);
                for m in moves {
                    let mut c = root.clone();
                    c.play(m);
                    history.push((c.key(), c.in_check()));
                    assert!(result_of(&c, &history).is_none());
                    assert_eq!(c.side_to_move(), Color::Gote);
                    checked += walk_win(&mut solver, &c, &mut history, s.plies - 1, &mut seen);
                    history.pop();
                }
                losses += 1;
            }
            _ => {}
        }
    }
    eprintln!("{wins} won and {losses} lost setups walked, {checked} positions checked");
    assert!(wins >= 3 && losses >= 2, "the sample holds short wins and losses");
}
