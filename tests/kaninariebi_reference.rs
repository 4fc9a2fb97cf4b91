//! The engine's Kani Nari Ebi against the simple reference implementation in
//! `reference/kaninariebi_ref.rs`: the same (token -> successor SFEN) on thousands of
//! positions, and the same perft figures.

#[path = "reference/kaninariebi_ref.rs"]
mod reference;

use crate::common::crab;

use std::collections::BTreeMap;

use koma::game::perft::perft;
use koma::game::Game;
use koma::games::kaninariebi::{KaniNariEbi, Rules};

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

fn rules(any: bool) -> Rules {
    let mut r = Rules::default();
    if any {
        KaniNariEbi::set_rule(&mut r, "KaniNariEbiBonds", "any").unwrap();
    }
    r
}

fn ref_map(sfen: &str, any: bool) -> BTreeMap<String, String> {
    let p = reference::parse(sfen).unwrap();
    reference::turns(&p, any).into_iter().map(|(t, n)| (t, reference::sfen(&n))).collect()
}

fn compare(pos: &KaniNariEbi, any: bool) {
    let sfen = pos.to_sfen();
    let r = reference::parse(&sfen).unwrap();
    assert_eq!(reference::sfen(&r), sfen, "reference reads the SFEN the same");
    assert_eq!(pos.result().is_some(), reference::game_over(&r), "game over in {sfen}");
    crab::assert_same_turns(pos, &ref_map(&sfen, any), &format!("any bonds: {any}"));
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
        let any = i % 3 == 0;
        let mut b = [[0i8; 5]; 5];
        for side in [1i8, -1] {
            let n = if rng.usize(..5) == 0 { 1 + rng.usize(..5) } else { 3 + rng.usize(..3) };
            let mut placed = 0;
            while placed < n {
                let (r, c) = (rng.usize(..5), rng.usize(..5));
                if b[r][c] == 0 {
                    b[r][c] = side * if rng.usize(..4) == 0 { 2 } else { 1 };
                    placed += 1;
                }
            }
        }
        let p = reference::Pos { b, black_to_move: rng.usize(..2) == 0, ply: 1 + rng.usize(..40) as u32 };
        let sfen = reference::sfen(&p);
        // A random board may be one no game reaches (both sides already won, four
        // shrimps): refused with the reason, and not compared.
        match KaniNariEbi::from_sfen(&sfen, &rules(any)) {
            Ok(pos) => compare(&pos, any),
            Err(e) => {
                let e = e.to_string();
                assert!(e.contains("already won") || e.contains("shrimps"), "{sfen}: {e}");
            }
        }
    }
}

#[test]
fn perft_matches_reference() {
    let cases = [
        ("C3c/C3c/C3c/C3c/C3c b - 1", 4),
        ("2C2/2C+C+C/1c2c/5/1Cccc b - 15", 3),
        ("C1cC1/3Cc/2C2/+c1cc1/1C3 b - 17", 3),
        ("C1cC1/3Cc/2C2/+c1cc1/1C3 w - 17", 3),
    ];
    for (sfen, depth) in cases {
        for any in [false, true] {
            let pos = KaniNariEbi::from_sfen(sfen, &rules(any)).unwrap();
            let r = reference::parse(sfen).unwrap();
            for d in 1..=depth {
                assert_eq!(perft(&pos, d), reference::perft(&r, d, any), "{sfen} depth {d} any {any}");
            }
        }
    }
}
