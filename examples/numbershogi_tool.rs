//! Number Shogi developer tool.
//!
//! `cargo run --release --example numbershogi_tool -- perft "<sfen>" DEPTH`
//! `cargo run --release --example numbershogi_tool -- divide "<sfen>" DEPTH`
//! `cargo run --release --example numbershogi_tool -- moves "<sfen>"`

use std::time::Instant;

use koma::game::Game;
use koma::games::numbershogi::{NumberShogi, Rules};
use koma::perft::{divide, perft};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // Rules switches from NS_OPT="Name=Value;Name=Value".
    let mut rules = Rules::default();
    if let Ok(opts) = std::env::var("NS_OPT") {
        for kv in opts.split(';').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if let Err(e) = NumberShogi::set_rule(&mut rules, k, v) {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
    let cmd = args.get(1).map(String::as_str).unwrap_or("");
    let pos = match args.get(2) {
        Some(s) if s == "startpos" => NumberShogi::startpos(&rules),
        Some(s) => match NumberShogi::from_sfen(s, &rules) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        },
        None => NumberShogi::startpos(&rules),
    };
    let depth: u32 = if cmd == "moves" {
        1
    } else {
        args.get(3).and_then(|d| d.parse().ok()).unwrap_or(1)
    };
    match cmd {
        "perft" => {
            for d in 1..=depth {
                let t = Instant::now();
                let n = perft(&pos, d);
                let s = t.elapsed().as_secs_f64();
                println!(
                    "perft {d} {n}  {:.3}s  {:.0} nodes/s",
                    s,
                    n as f64 / s.max(1e-9)
                );
            }
        }
        "divide" => {
            let mut total = 0;
            for (m, n) in divide(&pos, depth) {
                println!("{m} {n}");
                total += n;
            }
            println!("total {total}");
        }
        "moves" => {
            let mut pos = pos;
            for t in &args[3.min(args.len())..] {
                match pos.parse_move(t) {
                    Ok(m) => pos.play(m),
                    Err(e) => {
                        eprintln!("{e}");
                        std::process::exit(2);
                    }
                }
            }
            println!("eval {} result {:?}", pos.evaluate(), pos.result());
            let mut v = Vec::new();
            pos.legal_moves(&mut v);
            let toks: Vec<String> = v.iter().map(|&m| pos.format_move(m)).collect();
            println!("{}", pos.diagram());
            println!("{} moves: {}", toks.len(), toks.join(" "));
        }
        "random" => {
            // random games from pos: print "sfen|perft1|perft2|perft3" at each ply
            let mut seed: u64 = args.get(4).and_then(|d| d.parse().ok()).unwrap_or(1);
            let games: u32 = depth;
            for _ in 0..games {
                let mut p = pos.clone();
                let mut v = Vec::new();
                for _ in 0..60 {
                    let f: Vec<String> = (1..=3).map(|d| perft(&p, d).to_string()).collect();
                    println!("{}|{}", p.to_sfen(), f.join("|"));
                    v.clear();
                    p.legal_moves(&mut v);
                    if v.is_empty() {
                        break;
                    }
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    p.play(v[(seed % v.len() as u64) as usize]);
                }
            }
        }
        _ => eprintln!("usage: perft|divide|moves <sfen|startpos> [depth]"),
    }
}
