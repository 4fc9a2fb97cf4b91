//! The placement study behind `games::numbershogi::setup`.
//!
//! `cargo run --release --example numbershogi_setup_study -- SCREEN_DEPTH OPPONENTS FINAL_DEPTH FINAL_OPPONENTS TOP`
//!
//! Every arrangement of the six pieces on the camp (720) plays a small fixed-depth
//! alpha-beta (this game's evaluation, a capture quiescence) against a sample of random
//! opponent arrangements, once as sente and once as gote; the best `TOP` of that screen
//! play again deeper against more opponents. Score: win 1, draw 1/2, loss 0; game ends are
//! the referee's (`koma::game::referee`), and the study also scores 60 plies or a third
//! occurrence of a position (the rules: a fourth) as a draw. The alpha-beta below judges
//! the positions of its own tree (a rules result or no move), which is its search policy.

use koma::game::referee::Referee;
use koma::game::{Color, Game, Outcome, Strategy};
use koma::games::numbershogi::{NumberShogi, Rules};

const WIN: i32 = 30_000;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn permutations() -> Vec<[u8; 6]> {
    let mut out = Vec::new();
    let mut a = [1u8, 2, 3, 4, 5, 6];
    fn rec(a: &mut [u8; 6], k: usize, out: &mut Vec<[u8; 6]>) {
        if k == 6 {
            out.push(*a);
            return;
        }
        for i in k..6 {
            a.swap(k, i);
            rec(a, k + 1, out);
            a.swap(k, i);
        }
    }
    rec(&mut a, 0, &mut out);
    out
}

fn letter(v: u8, gote: bool) -> char {
    let c = (b'A' + v - 1) as char;
    if gote {
        c.to_ascii_lowercase()
    } else {
        c
    }
}

/// Slots (owner's view): 0..2 = front rank from the owner's left, 3..5 = back rank.
fn sfen(sente: &[u8; 6], gote: &[u8; 6]) -> String {
    let mut cells = ['.'; 15];
    for i in 0..6 {
        cells[9 + i] = letter(sente[i], false);
        cells[14 - (9 + i)] = letter(gote[i], true);
    }
    let rows: Vec<String> = (0..5)
        .map(|r| {
            let row: String = cells[r * 3..r * 3 + 3].iter().collect();
            if row == "..." {
                "3".to_string()
            } else {
                row
            }
        })
        .collect();
    format!("{} b - 13", rows.join("/"))
}

fn qsearch(p: &NumberShogi, mut alpha: i32, beta: i32, ply: i32, qd: i32) -> i32 {
    if let Some(r) = p.result() {
        return if r == Outcome::Loss { -WIN + ply } else { WIN - ply };
    }
    let stand = p.evaluate();
    if stand >= beta || qd == 0 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut moves = Vec::with_capacity(96);
    p.legal_moves(&mut moves);
    moves.retain(|&m| p.is_tactical(m));
    moves.sort_by_key(|&m| -p.order_score(m));
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let s = -qsearch(&c, -beta, -alpha, ply + 1, qd - 1);
        if s >= beta {
            return s;
        }
        alpha = alpha.max(s);
    }
    alpha
}

fn search(p: &NumberShogi, depth: i32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(r) = p.result() {
        return if r == Outcome::Loss { -WIN + ply } else { WIN - ply };
    }
    if depth <= 0 {
        return qsearch(p, alpha, beta, ply, 4);
    }
    let mut moves = Vec::with_capacity(96);
    p.legal_moves(&mut moves);
    if moves.is_empty() {
        return -WIN + ply;
    }
    moves.sort_by_key(|&m| -p.order_score(m));
    let mut best = -WIN - 1;
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let s = -search(&c, depth - 1, -beta, -alpha, ply + 1);
        if s > best {
            best = s;
        }
        if s > alpha {
            alpha = s;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

fn best_move(p: &NumberShogi, depth: i32) -> Option<<NumberShogi as Game>::Move> {
    let mut moves = Vec::with_capacity(96);
    p.legal_moves(&mut moves);
    moves.sort_by_key(|&m| -p.order_score(m));
    let mut best = None;
    let mut alpha = -WIN - 1;
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let s = -search(&c, depth - 1, -WIN - 1, -alpha, 1);
        if s > alpha {
            alpha = s;
            best = Some(m);
        }
    }
    best
}

/// The study's cap, not a rule of the game: a game still going after this many plies is
/// scored a draw.
const PLY_CAP: usize = 60;
/// The study's cut-off, not the rule: a position's third occurrence is scored a draw
/// (the rules end the game at the fourth, `REPETITION_LIMIT`), as the study behind
/// `games::numbershogi::setup` was run.
const STUDY_REPETITION: usize = 3;

/// 1.0 if sente wins, 0.0 if gote wins, 0.5 otherwise. Game ends are the referee's
/// (`koma::game::referee`), as `d` reports them, with the study's cap and repetition cut-off.
fn game(sente: &[u8; 6], gote: &[u8; 6], depth: i32) -> f64 {
    let rules = Rules::default();
    let mut game = match NumberShogi::from_sfen(&sfen(sente, gote), &rules) {
        Ok(p) => Referee::new(p),
        Err(_) => return 0.5,
    };
    for _ in 0..PLY_CAP {
        if game.occurrences() >= STUDY_REPETITION {
            return 0.5;
        }
        if let Some(v) = game.verdict() {
            return f64::from(v.points(Color::Sente));
        }
        match best_move(game.pos(), depth) {
            Some(m) => game.play(m),
            None => return 0.5,
        }
    }
    0.5
}

fn score(arr: &[u8; 6], opponents: &[[u8; 6]], depth: i32) -> f64 {
    let mut s = 0.0;
    for o in opponents {
        s += game(arr, o, depth);
        s += 1.0 - game(o, arr, depth);
    }
    s / (2 * opponents.len()) as f64
}

/// `rr DEPTH 563421 365142 ...`: a round robin (each ordered pair plays once, so every
/// two arrangements meet with both colours).
fn round_robin(args: &[String]) {
    let depth: i32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let arrs: Vec<[u8; 6]> = args[1.min(args.len())..]
        .iter()
        .filter_map(|a| {
            let v: Vec<u8> = a.bytes().map(|b| b.wrapping_sub(b'0')).collect();
            <[u8; 6]>::try_from(v.as_slice()).ok()
        })
        .collect();
    let mut pts = vec![0.0f64; arrs.len()];
    let mut sente_points = 0.0;
    for i in 0..arrs.len() {
        for j in 0..arrs.len() {
            if i != j {
                let r = game(&arrs[i], &arrs[j], depth);
                sente_points += r;
                pts[i] += r;
                pts[j] += 1.0 - r;
            }
        }
    }
    let mut order: Vec<usize> = (0..arrs.len()).collect();
    order.sort_by(|&a, &b| pts[b].total_cmp(&pts[a]));
    let games = 2 * (arrs.len() - 1);
    let total = arrs.len() * (arrs.len() - 1);
    println!("round robin, depth {depth}, {games} games each; sente scored {sente_points:.1} of {total}");
    for i in order {
        println!("  {:?} {:.1}/{games}", arrs[i], pts[i]);
    }
}

fn main() {
    let raw: Vec<String> = std::env::args().skip(1).collect();
    if raw.first().map(String::as_str) == Some("rr") {
        round_robin(&raw[1..]);
        return;
    }
    let args: Vec<i32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let get = |i: usize, d: i32| args.get(i).copied().unwrap_or(d);
    let (d1, n1, d2, n2, top) = (get(0, 2), get(1, 8) as usize, get(2, 4), get(3, 24) as usize, get(4, 20) as usize);
    let all = permutations();
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let sample =
        |rng: &mut Rng, n: usize| -> Vec<[u8; 6]> { (0..n).map(|_| all[(rng.next() % 720) as usize]).collect() };
    let opp1 = sample(&mut rng, n1);
    let mut ranked: Vec<([u8; 6], f64)> = all.iter().map(|a| (*a, score(a, &opp1, d1))).collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("screen: depth {d1}, {n1} opponents x 2 colours");
    for (a, s) in ranked.iter().take(top) {
        println!("  {:?} {:.3}", a, s);
    }
    println!("  ... worst: {:?} {:.3}", ranked[719].0, ranked[719].1);
    let opp2 = sample(&mut rng, n2);
    let mut finals: Vec<([u8; 6], f64)> = ranked.iter().take(top).map(|(a, _)| (*a, score(a, &opp2, d2))).collect();
    // The first, a middle and the last of the screen as reference points.
    let refs: Vec<([u8; 6], f64)> =
        [360usize, 719].iter().map(|&i| (ranked[i].0, score(&ranked[i].0, &opp2, d2))).collect();
    finals.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("final: depth {d2}, {n2} opponents x 2 colours");
    for (a, s) in &finals {
        println!("  {:?} {:.3}", a, s);
    }
    for (a, s) in &refs {
        println!("  reference {:?} {:.3}", a, s);
    }
}
