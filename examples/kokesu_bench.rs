//! Perft speed of the kokesu move generator: `cargo run --release --example kokesu_bench -- [--free] [--all] [DEPTH] [SFEN...]`.
use std::time::Instant;

use koma::game::Game;
use koma::games::kokesu::{Kokesu, KokesuRules};
use koma::perft::perft;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rules = KokesuRules::default();
    if let Some(i) = args.iter().position(|a| a == "--free") {
        args.remove(i);
        let _ = Kokesu::set_rule(&mut rules, "KokesuPromotion", "free");
    }
    let all = args.iter().any(|a| a == "--all");
    args.retain(|a| a != "--all");
    let depth: u32 = args.first().and_then(|d| d.parse().ok()).unwrap_or(5);
    let sfen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        String::new()
    };
    let pos = if sfen.is_empty() {
        Kokesu::startpos(&rules)
    } else {
        match Kokesu::from_sfen(&sfen, &rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    };
    if all {
        for d in 1..=depth {
            println!("perft {d} {}", perft(&pos, d));
        }
        return;
    }
    let t = Instant::now();
    let n = perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!(
        "perft {depth} = {n} in {s:.3} s: {:.1} M leaves/s",
        n as f64 / s / 1e6
    );
}
