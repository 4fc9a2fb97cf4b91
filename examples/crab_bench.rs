//! Rough costs of the crab games' hot functions on positions from random playouts:
//! `cargo run --release --example crab_bench`.

use std::time::Instant;

use koma::game::perft::perft;
use koma::game::Strategy;
use koma::games::kaninariebi::KaniNariEbi;
use koma::games::kanishogi::KaniShogi;

fn positions<G: Strategy>() -> Vec<G> {
    let mut s: u64 = 7;
    let mut out = Vec::new();
    for _ in 0..200 {
        let mut p = G::startpos(&G::Rules::default());
        for _ in 0..40 {
            let mut m = Vec::new();
            p.legal_moves(&mut m);
            if m.is_empty() {
                break;
            }
            out.push(p.clone());
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            p.play(m[(s % m.len() as u64) as usize]);
        }
    }
    out
}

fn bench<G: Strategy>() {
    let ps = positions::<G>();
    let mut moves = Vec::new();
    let t = Instant::now();
    let mut n = 0;
    for p in &ps {
        moves.clear();
        p.legal_moves(&mut moves);
        n += moves.len();
    }
    let gen = t.elapsed();
    let t = Instant::now();
    let mut e = 0i64;
    for p in &ps {
        e += p.evaluate() as i64;
    }
    let ev = t.elapsed();
    let lists: Vec<Vec<G::Move>> = ps
        .iter()
        .map(|p| {
            let mut m = Vec::new();
            p.legal_moves(&mut m);
            m
        })
        .collect();
    let t = Instant::now();
    let mut o = 0i64;
    for (p, list) in ps.iter().zip(&lists) {
        for &m in list {
            o += p.order_score(m) as i64;
        }
    }
    let ord = t.elapsed();
    let k = ps.len() as f64;
    println!(
        "{}: {} positions, {:.1} moves each; legal_moves {:.2} us, evaluate {:.2} us, order_score (all moves) {:.2} us [{e} {o}]",
        G::NAME,
        ps.len(),
        n as f64 / k,
        gen.as_secs_f64() * 1e6 / k,
        ev.as_secs_f64() * 1e6 / k,
        ord.as_secs_f64() * 1e6 / k
    );
    let start = G::startpos(&G::Rules::default());
    let t = Instant::now();
    let nodes = perft(&start, 4);
    println!(
        "{}: perft 4 from the start = {nodes} in {:?} ({:.1} M leaves/s)",
        G::NAME,
        t.elapsed(),
        nodes as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}

fn main() {
    bench::<KaniNariEbi>();
    bench::<KaniShogi>();
}
