//! The engine's Kani Shogi against the simple reference implementation in
//! `reference/kanishogi_ref.rs`: the same (token -> successor SFEN) on thousands of
//! positions, and the same perft figures.

#[path = "reference/kanishogi_ref.rs"]
mod reference;

use crate::common::crab;

use std::collections::BTreeMap;

use koma::game::perft::perft;
use koma::game::Game;
use koma::games::kanishogi::{KaniShogi, Rules};

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

fn rules(diag: bool) -> Rules {
    let mut r = Rules::default();
    if diag {
        KaniShogi::set_rule(&mut r, "KaniShogiGrownMove", "diagonal").unwrap();
    }
    r
}

fn ref_map(sfen: &str, diag: bool) -> BTreeMap<String, String> {
    let p = reference::parse(sfen).unwrap();
    reference::turns(&p, diag).into_iter().map(|(t, n)| (t, reference::sfen(&n))).collect()
}

fn compare(pos: &KaniShogi, diag: bool) {
    let sfen = pos.to_sfen();
    let r = reference::parse(&sfen).unwrap();
    assert_eq!(reference::sfen(&r), sfen, "reference reads the SFEN the same");
    assert_eq!(pos.result().is_some(), reference::game_over(&r), "game over in {sfen}");
    if let Some(w) = reference::winner(&r.b, if r.black_to_move { 1 } else { -1 }) {
        let me = if r.black_to_move { 1 } else { -1 };
        let want = if w == me { koma::game::Outcome::Win } else { koma::game::Outcome::Loss };
        assert_eq!(pos.result(), Some(want), "winner in {sfen}");
    }
    crab::assert_same_turns(pos, &ref_map(&sfen, diag), &format!("diagonal growth: {diag}"));
}

#[test]
fn random_playouts_match_reference() {
    let positions = crab::random_playouts(
        0x1234_5678_9abc_def1,
        400,
        80,
        |game| rules(game % 3 == 2),
        |pos, game| compare(pos, game % 3 == 2),
    );
    assert!(positions > 5000, "{positions}");
}

#[test]
fn random_setups_match_reference() {
    let mut rng = Rng::with_seed(0xfeed_beef_0bad_cafe);
    for i in 0..6000 {
        let diag = i % 3 == 0;
        let mut b = [[0i8; 5]; 5];
        let black_parent = rng.usize(..10) != 0;
        let red_parent = !black_parent || rng.usize(..10) != 0;
        for (side, parent) in [(1i8, black_parent), (-1, red_parent)] {
            let mut pieces: Vec<i8> = (1..=4).filter(|_| rng.usize(..5) != 0).collect();
            if parent {
                pieces.push(9);
            }
            for v in pieces {
                loop {
                    let (r, c) = (rng.usize(..5), rng.usize(..5));
                    if b[r][c] == 0 {
                        let grown = v != 9 && rng.usize(..4) == 0;
                        b[r][c] = side * (v + if grown { 10 } else { 0 });
                        break;
                    }
                }
            }
        }
        let p = reference::Pos { b, black_to_move: rng.usize(..2) == 0, ply: 1 + rng.usize(..40) as u32 };
        let sfen = reference::sfen(&p);
        let pos = KaniShogi::from_sfen(&sfen, &rules(diag)).unwrap();
        compare(&pos, diag);
    }
}

#[test]
fn perft_matches_reference() {
    let cases = [
        ("A3b/D3c/K3k/C3d/B3a b - 1", 4),
        ("2C2/3c1/1D1kb/2AKd/3Ba w - 14", 3),
        ("A4/1D2c/2b2/KC1ak/2d2 w - 20", 3),
        ("1Ak2/c2Cd/5/1K3/1+B3 b - 29", 3),
    ];
    for (sfen, depth) in cases {
        for diag in [false, true] {
            let pos = KaniShogi::from_sfen(sfen, &rules(diag)).unwrap();
            let r = reference::parse(sfen).unwrap();
            for d in 1..=depth {
                assert_eq!(perft(&pos, d), reference::perft(&r, d, diag), "{sfen} depth {d} diag {diag}");
            }
        }
    }
}
