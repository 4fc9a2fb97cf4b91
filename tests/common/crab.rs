//! The harness both crab games' reference tests share: the engine's successor map with
//! its per-move checks, the comparison with a reference map, and random playouts.
//! A module of `common` (`use crate::common::crab;`).
#![allow(dead_code)]

use std::collections::BTreeMap;

use koma::game::{Game, Strategy};
use koma::games::crab::cell::count;
use koma::games::crab::game::{Crab, CrabGame};

/// Every legal turn of `pos` as token -> successor SFEN. Checks on the way that a
/// turn's gain and tactical flag match what it captured, that its token reads back, and
/// that no token is listed twice.
pub fn engine_map<R: CrabGame>(pos: &Crab<R>) -> BTreeMap<String, String> {
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

/// Checks `pos` against the reference: its SFEN reads back to the same key, and its
/// successor map equals `reference` (token -> successor SFEN). `what` names the rules.
pub fn assert_same_turns<R: CrabGame>(pos: &Crab<R>, reference: &BTreeMap<String, String>, what: &str) {
    let sfen = pos.to_sfen();
    let again = Crab::<R>::from_sfen(&sfen, pos.rules()).unwrap();
    assert_eq!(again.to_sfen(), sfen);
    assert_eq!(again.key(), pos.key());
    let e = engine_map(pos);
    if &e != reference {
        let only_e: Vec<_> = e.iter().filter(|(k, v)| reference.get(*k) != Some(v)).collect();
        let only_f: Vec<_> = reference.iter().filter(|(k, v)| e.get(*k) != Some(v)).collect();
        panic!("{sfen} ({what}):\nengine only {only_e:?}\nreference only {only_f:?}");
    }
}

/// `games` seeded random games of up to `plies` plies from the start, game `g` under
/// `rules(g)`; `check` sees every position. Returns how many positions were checked.
pub fn random_playouts<R: CrabGame>(
    seed: u64,
    games: usize,
    plies: usize,
    rules: impl Fn(usize) -> R,
    mut check: impl FnMut(&Crab<R>, usize),
) -> usize {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut positions = 0;
    for game in 0..games {
        let mut pos = Crab::<R>::startpos(&rules(game));
        for _ in 0..plies {
            check(&pos, game);
            positions += 1;
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[rng.usize(..moves.len())]);
        }
    }
    positions
}
