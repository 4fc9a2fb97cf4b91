//! The engine's Kani Nari Ebi against the simple reference implementation in
//! `reference/kaninariebi_ref.rs`: the same (token -> successor SFEN) on thousands of
//! positions, and the same perft figures.

#[path = "reference/kaninariebi_ref.rs"]
mod reference;

use std::collections::BTreeMap;

use koma::game::Game;
use koma::games::crab::cell::count;
use koma::games::kaninariebi::{KaniNariEbi, Rules};
use koma::perft::perft;

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

fn rules(any: bool) -> Rules {
    let mut r = Rules::default();
    if any {
        KaniNariEbi::set_rule(&mut r, "KaniNariEbiBonds", "any").unwrap();
    }
    r
}

fn engine_map(pos: &KaniNariEbi) -> BTreeMap<String, String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut map = BTreeMap::new();
    for &mv in &moves {
        let mut next = pos.clone();
        next.play(mv);
        let tok = pos.format_move(mv);
        let enemy = pos.side_to_move().flip();
        let lost = count(pos.cells(), enemy) - count(next.cells(), enemy);
        assert_eq!(mv.gain() != 0, lost > 0, "gain of {tok} in {}", pos.to_sfen());
        assert_eq!(pos.is_tactical(mv), lost > 0 || mv.promotes(), "tactical {tok} in {}", pos.to_sfen());
        assert_eq!(pos.parse_move(&tok), Ok(mv), "token {tok} reads back");
        assert!(map.insert(tok.clone(), next.to_sfen()).is_none(), "{tok} listed twice in {}", pos.to_sfen());
    }
    map
}

fn ref_map(sfen: &str, any: bool) -> BTreeMap<String, String> {
    let p = reference::parse(sfen).unwrap();
    reference::turns(&p, any).into_iter().map(|(t, n)| (t, reference::sfen(&n))).collect()
}

fn compare(pos: &KaniNariEbi, any: bool) {
    let sfen = pos.to_sfen();
    let again = KaniNariEbi::from_sfen(&sfen, &rules(any)).unwrap();
    assert_eq!(again.to_sfen(), sfen);
    assert_eq!(again.key(), pos.key());
    let r = reference::parse(&sfen).unwrap();
    assert_eq!(reference::sfen(&r), sfen, "reference reads the SFEN the same");
    assert_eq!(pos.result().is_some(), reference::game_over(&r), "game over in {sfen}");
    let e = engine_map(pos);
    let f = ref_map(&sfen, any);
    if e != f {
        let only_e: Vec<_> = e.iter().filter(|(k, v)| f.get(*k) != Some(v)).collect();
        let only_f: Vec<_> = f.iter().filter(|(k, v)| e.get(*k) != Some(v)).collect();
        panic!("{sfen} (any bonds: {any}):\nengine only {only_e:?}\nreference only {only_f:?}");
    }
}

#[test]
fn random_playouts_match_reference() {
    let mut rng = Rng::with_seed(0x1234_5678_9abc_def1);
    let mut positions = 0;
    for game in 0..400 {
        let any = game % 3 == 2;
        let mut pos = KaniNariEbi::startpos(&rules(any));
        for _ in 0..80 {
            compare(&pos, any);
            positions += 1;
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.usize(..moves.len())];
            pos.play(mv);
        }
    }
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
        let pos = KaniNariEbi::from_sfen(&sfen, &rules(any)).unwrap();
        compare(&pos, any);
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
