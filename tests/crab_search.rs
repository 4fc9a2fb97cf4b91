//! The crab games' evaluation and move ordering inside a tiny alpha-beta (a stand-in for
//! the engine's search): short forced wins are found, and a lost piece is avoided.

use koma::game::{Game, Outcome, Strategy};
use koma::games::kaninariebi::KaniNariEbi;
use koma::games::kanishogi::KaniShogi;

const MATE: i32 = 1_000_000;

fn negamax<G: Strategy>(p: &G, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
    if let Some(o) = p.result() {
        return match o {
            Outcome::Win => MATE - ply,
            Outcome::Loss => -MATE + ply,
            Outcome::Draw => 0,
        };
    }
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    if moves.is_empty() {
        return -MATE + ply;
    }
    if depth == 0 {
        return p.evaluate();
    }
    moves.sort_by_key(|&m| -p.order_score(m));
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let v = -negamax(&c, depth - 1, -beta, -alpha, ply + 1);
        if v >= beta {
            return v;
        }
        alpha = alpha.max(v);
    }
    alpha
}

fn best<G: Strategy>(p: &G, depth: u32) -> (String, i32) {
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let mut best = (String::new(), -MATE - 1);
    for m in moves {
        let mut c = p.clone();
        c.play(m);
        let v = -negamax(&c, depth - 1, -MATE - 1, MATE + 1, 1);
        if v > best.1 {
            best = (p.format_move(m), v);
        }
    }
    best
}

#[test]
fn kaninariebi_finds_a_win_in_one() {
    let p = KaniNariEbi::from_sfen("4c/4c/C1cC1/1C3/5 b - 1", &Default::default()).unwrap();
    let (mv, v) = best(&p, 2);
    assert_eq!(mv, "5c4c");
    assert!(v > MATE - 10);
}

#[test]
fn kaninariebi_finds_the_third_shrimp() {
    let p = KaniNariEbi::from_sfen("3+C1/c4/4c/C4/3+Cc b - 1", &Default::default()).unwrap();
    assert_eq!(best(&p, 3).0, "5d1d+");
}

#[test]
fn kaninariebi_start_is_not_decided() {
    let p = KaniNariEbi::from_sfen("C3c/C3c/C3c/C3c/C3c b - 1", &Default::default()).unwrap();
    let (_, v) = best(&p, 3);
    assert!(v.abs() < MATE / 2, "no forced result from the start: {v}");
}

#[test]
fn kanishogi_finds_a_win_in_one() {
    let p = KaniShogi::from_sfen("A4/3D1/3kc/4C/K3a b - 1", &Default::default()).unwrap();
    let (mv, v) = best(&p, 2);
    assert!(v > MATE - 10, "{mv} {v}");
    // 1d2d takes the parent; 5a2a,2a1b takes a third child: both win at once
    assert!(mv == "1d2d" || mv == "5a2a,2a1b", "{mv}");
}

#[test]
fn kanishogi_takes_the_winning_child_in_a_tie() {
    let p = KaniShogi::from_sfen("K2C1/3c1/4B/k4/1b3 b - 30", &Default::default()).unwrap();
    assert_eq!(best(&p, 3).0, "1c2c");
}

/// The same position with colours swapped and the board turned left to right.
fn mirror(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split(' ').collect();
    let mut ranks = vec![];
    for rank in f[0].split('/') {
        let mut cells: Vec<String> = vec![];
        let mut plus = false;
        for ch in rank.chars() {
            if ch == '+' {
                plus = true;
            } else if let Some(d) = ch.to_digit(10) {
                cells.extend((0..d).map(|_| String::new()));
            } else {
                let l = if ch.is_ascii_uppercase() { ch.to_ascii_lowercase() } else { ch.to_ascii_uppercase() };
                cells.push(format!("{}{l}", if plus { "+" } else { "" }));
                plus = false;
            }
        }
        cells.reverse();
        let mut out = String::new();
        let mut empty = 0;
        for c in cells {
            if c.is_empty() {
                empty += 1;
            } else {
                if empty > 0 {
                    out += &empty.to_string();
                    empty = 0;
                }
                out += &c;
            }
        }
        if empty > 0 {
            out += &empty.to_string();
        }
        ranks.push(out);
    }
    format!("{} {} - {}", ranks.join("/"), if f[1] == "b" { "w" } else { "b" }, f[3])
}

#[test]
fn evaluation_is_symmetric() {
    for s in ["A3b/D3c/3Kk/C3d/B2a1 b - 3", "1Ak2/c2Cd/5/1K3/1+B3 b - 29", "A4/1D2c/2b2/KC1ak/2d2 w - 20"] {
        let a = KaniShogi::from_sfen(s, &Default::default()).unwrap();
        let b = KaniShogi::from_sfen(&mirror(s), &Default::default()).unwrap();
        assert_eq!(a.evaluate(), b.evaluate(), "{s} / {}", mirror(s));
    }
    for s in ["C3c/C3c/3Cc/C3c/C3c w - 2", "2C2/2C+C+C/1c2c/5/1Cccc b - 15", "C1cC1/3Cc/2C2/+c1cc1/1C3 w - 17"] {
        let a = KaniNariEbi::from_sfen(s, &Default::default()).unwrap();
        let b = KaniNariEbi::from_sfen(&mirror(s), &Default::default()).unwrap();
        assert_eq!(a.evaluate(), b.evaluate(), "{s} / {}", mirror(s));
    }
}
