//! A tiny fixed-depth alpha-beta over the `Game` trait, to eyeball kokesu's evaluation
//! (the engine's real search lives elsewhere):
//! `cargo run --release --example kokesu_selfplay -- [DEPTH] [PLIES] [SFEN...]`.
use std::collections::HashMap;

use koma::game::{Game, Outcome};
use koma::games::kokesu::{KMove, Kokesu, KokesuRules};

const MATE: i32 = 30000;

fn qsearch(p: &Kokesu, mut alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let stand = p.evaluate();
    if stand >= beta {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut caps: Vec<KMove> = moves.into_iter().filter(|&m| p.is_tactical(m)).collect();
    caps.sort_by_key(|&m| -p.order_score(m));
    for m in caps {
        let mut c = p.clone();
        c.play(m);
        let s = -qsearch(&c, -beta, -alpha, nodes);
        if s >= beta {
            return s;
        }
        alpha = alpha.max(s);
    }
    alpha
}

fn search(
    p: &Kokesu,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    ply: i32,
    nodes: &mut u64,
) -> (i32, Option<KMove>) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    if moves.is_empty() {
        return match p.no_move_outcome() {
            Outcome::Loss => (-MATE + ply, None),
            Outcome::Win => (MATE - ply, None),
            Outcome::Draw => (0, None),
        };
    }
    if depth == 0 {
        return (qsearch(p, alpha, beta, nodes), None);
    }
    *nodes += 1;
    moves.sort_by_key(|&m| -p.order_score(m));
    let mut best = (-MATE - 1, None);
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let s = -search(&c, depth - 1, -beta, -alpha, ply + 1, nodes).0;
        if s > best.0 {
            best = (s, Some(m));
        }
        alpha = alpha.max(s);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(4);
    let plies: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(80);
    let rules = KokesuRules::default();
    let mut p = if args.len() > 2 {
        Kokesu::from_sfen(&args[2..].join(" "), &rules).unwrap_or_else(|e| panic!("{e}"))
    } else {
        Kokesu::startpos(&rules)
    };
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut line = Vec::new();
    for _ in 0..plies {
        *seen.entry(p.key()).or_default() += 1;
        if seen[&p.key()] >= Kokesu::REPETITION_LIMIT {
            println!("draw by repetition");
            break;
        }
        if p.move_count_draw() {
            println!("draw by 100 plies");
            break;
        }
        let mut nodes = 0;
        let (score, mv) = search(&p, depth, -MATE - 1, MATE + 1, 0, &mut nodes);
        let Some(mv) = mv else {
            println!("game over: {:?} for the side to move", p.no_move_outcome());
            break;
        };
        let tok = p.format_move(mv);
        println!(
            "{:>3} {:>6} score {:>6} nodes {}",
            p.to_sfen().split(' ').nth(3).unwrap_or(""),
            tok,
            score,
            nodes
        );
        line.push(tok);
        p.play(mv);
    }
    println!("{}", p.diagram());
    println!("moves {}", line.join(" "));
}
