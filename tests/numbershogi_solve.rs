//! `koma::search::solve` on Number Shogi: checked against the plain negamax of
//! `reference/numbershogi_minimax.rs` on thousands of late positions, and its proofs of
//! won setups walked against every defence.

#[path = "reference/numbershogi_minimax.rs"]
mod minimax;

use std::collections::HashSet;

use fastrand::Rng;
use koma::game::referee::judge;
use koma::game::{Color, Game, Outcome};
use koma::games::numbershogi::NumberShogi;
use koma::search::solve::{Budget, Solver, Value};
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
fn agrees_with_plain_minimax_on_four_thousand_positions() {
    const DEPTH: u32 = 5;
    const WANT: usize = 4_000;
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
                        let s = solver.solve(&pos, &Budget { max_nodes: Some(20_000), ..Budget::default() });
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
    assert!(kinds[0] > 400 && kinds[1] > 400, "both kinds of result are checked: {kinds:?}");
}

/// Follows the solver's win from `pos` (the winner to move, `left` plies promised)
/// against every reply, judging each position with the referee's `judge` on the
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
    match judge(&next, history).map(|v| (v.outcome, v.rule)) {
        Some((o, why)) => assert_eq!(o, Outcome::Loss, "{sfen}: the winning move ends the game with {why}"),
        None => {
            assert!(left >= 3, "{sfen}: the game goes on after the promised plies");
            let mut replies = Vec::new();
            next.legal_moves(&mut replies);
            for r in replies {
                let mut after = next.clone();
                after.play(r);
                history.push((after.key(), after.in_check()));
                match judge(&after, history).map(|v| (v.outcome, v.rule)) {
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
        let s = solver.solve(&root, &Budget { max_nodes: Some(50_000), ..Budget::default() });
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
                    assert!(judge(&c, &history).is_none());
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

/// A random study position with 2 to 5 of the twelve pieces (the others out of play),
/// not finished.
fn few_pieces(rng: &mut Rng) -> Option<NumberShogi> {
    let mut board = [String::new(), String::new(), String::new(), String::new(), String::new()];
    let mut cells: [Option<String>; 15] = Default::default();
    let mut hand = String::new();
    let mut values: Vec<u8> = (1..=6).chain(1..=6).collect();
    rng.shuffle(&mut values);
    for &v in &values[..rng.usize(2..=5)] {
        let sente = rng.bool();
        let letter = (if sente { b'A' } else { b'a' } + v - 1) as char;
        if rng.u8(..4) == 0 {
            hand.push(letter);
        } else {
            let free: Vec<usize> = (0..15).filter(|&i| cells[i].is_none()).collect();
            let sq = free[rng.usize(..free.len())];
            cells[sq] = Some(format!("{}{letter}", if rng.u8(..5) == 0 { "+" } else { "" }));
        }
    }
    for (r, row) in board.iter_mut().enumerate() {
        let mut empty = 0;
        for c in &cells[r * 3..r * 3 + 3] {
            match c {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push_str(p);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
    }
    let mut h: Vec<char> = hand.chars().collect();
    h.sort_by_key(|c| (c.is_lowercase(), *c));
    let hand: String = if h.is_empty() { "-".into() } else { h.into_iter().collect() };
    let side = if rng.bool() { "b" } else { "w" };
    let sfen = format!("{} {side} {hand} 20", board.join("/"));
    let pos = NumberShogi::from_study_sfen(&sfen, &Default::default()).ok()?;
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    (pos.result().is_none() && !moves.is_empty()).then_some(pos)
}

/// On positions small enough to walk whole, retrograde analysis (which proves draws) and
/// the depth-bounded prover (which does not know the graph) give the same wins and
/// losses; the draws it finds are left undecided by the plain negamax, and `solve`
/// reports them with a move that keeps the draw.
#[test]
fn retrograde_and_prover_agree_on_few_piece_positions() {
    let mut rng = Rng::with_seed(77);
    let (mut compared, mut draws) = (0, 0);
    while compared < 300 || draws < 30 {
        let Some(pos) = few_pieces(&mut rng) else { continue };
        let sfen = pos.to_sfen();
        let Ok(r) = koma::search::solve::retrograde(&pos, 50_000, None) else { continue };
        match r.value {
            Some(Value::Draw) => {
                if draws >= 30 {
                    continue;
                }
                assert_eq!(minimax::value(&pos, 6).0, RefValue::Undecided, "{sfen}: a draw by retrograde");
                let s = koma::search::solve::solve(&pos, &unbounded());
                assert_eq!(s.value, Some(Value::Draw), "{sfen}");
                let mut next = pos.clone();
                next.play(s.bestmove.expect("a drawn position has a move"));
                let after = koma::search::solve::retrograde(&next, 50_000, None).unwrap();
                assert_eq!(after.value, Some(Value::Draw), "{sfen}: the move keeps the draw");
                draws += 1;
            }
            Some(v) if r.plies < koma::search::solve::RETROGRADE_TRIES[0].0 as u32 => {
                let s = koma::search::solve::solve(&pos, &unbounded());
                assert_eq!((s.value, s.plies), (Some(v), r.plies), "{sfen}: prover against retrograde");
                compared += 1;
            }
            _ => {}
        }
    }
    eprintln!("{compared} wins and losses compared, {draws} draws");
}

fn koma() -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("koma"));
    c.env_remove("RUST_LOG");
    c
}

/// `koma solve`: one JSON object a line, errors as objects (and the run goes on), a
/// budget answering `unknown`.
#[test]
fn the_solve_subcommand() {
    use std::io::Write;
    use std::process::Stdio;
    let lines = [
        "numbershogi bef/acd/3/FEC/BDA b - 13",
        "bef/acd/3/FEC/BDA b - 13 moves 1d2c",
        "kokesu startpos",
        "numbershogi startpos moves F*3e",
        "# a comment",
        "numbershogi 3/3/3/3/3 b xyz",
        "numbershogi cbf/ead/3/ABD/CFE b - 13",
    ];
    let mut child = koma()
        .args(["solve", "--variant", "numbershogi", "--max-nodes", "20000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(lines.join("\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "some lines are errors");
    let objs: Vec<serde_json::Value> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 6);
    assert_eq!(objs[0]["value"], "win");
    assert_eq!(objs[0]["plies"], 7);
    assert_eq!(objs[0]["bestmove"], "1d2c");
    assert!(objs[0]["nodes"].as_u64().unwrap() > 0 && objs[0]["ms"].is_u64());
    assert_eq!((objs[1]["value"].as_str(), objs[1]["plies"].as_u64()), (Some("loss"), Some(6)));
    assert!(objs[2]["error"].as_str().unwrap().contains("only numbershogi"));
    assert!(objs[3]["error"].as_str().unwrap().contains("placement"));
    assert!(objs[4]["error"].as_str().unwrap().contains("hand"));
    assert_eq!(objs[5]["value"], "unknown");
    assert!(objs[5].get("plies").is_none() && objs[5]["bestmove"].is_null());
}

/// A table too small for the job is pruned again and again: the answers stay the same.
#[test]
fn a_tiny_table_gives_the_same_answers() {
    let mut rng = Rng::with_seed(5);
    let mut tiny = Solver::with_table_entries(500);
    let mut solved = 0;
    for _ in 0..40 {
        let root = random_setup(&mut rng);
        let budget = Budget { max_nodes: Some(30_000), ..Budget::default() };
        let s = Solver::new().solve(&root, &budget);
        if s.value.is_some() {
            let t = tiny.solve(&root, &unbounded());
            assert_eq!((t.value, t.plies), (s.value, s.plies), "{}", root.to_sfen());
            assert!(tiny.table_len() <= 500);
            solved += 1;
        }
    }
    assert!(solved >= 5, "{solved} setups solved");
}
