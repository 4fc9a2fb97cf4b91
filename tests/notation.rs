//! Move names (src/records/notation): every legal move of positions reached by random
//! playouts of each game reads back from its name in each of its styles, and a whole line
//! is named as move by move.

use fastrand::Rng;
use koma::records::notation::{self, styles, NotationError, Style};
use koma::records::position;

const GAMES: [&str; 5] = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"];

/// Random playouts from the start of `variant`: the line played and each position met.
fn playouts(variant: &str, seed: u64, games: usize, plies: usize) -> Vec<Vec<String>> {
    let mut rng = Rng::with_seed(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = position(variant, None).unwrap();
        let mut line = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.push(&moves[rng.usize(..moves.len())]).is_err() {
                break;
            }
            line.push(pos.moves().last().unwrap().clone());
        }
        out.push(line);
    }
    out
}

#[test]
fn every_legal_move_reads_back_from_its_name_in_every_style_of_every_game() {
    for (i, variant) in GAMES.into_iter().enumerate() {
        let mut checked = 0;
        for line in playouts(variant, 56 + i as u64, 12, 60) {
            let mut pos = position(variant, None).unwrap();
            for played in &line {
                let previous = pos.moves().last().cloned();
                for &style in styles(variant) {
                    let mut seen = std::collections::HashSet::new();
                    for usi in pos.legal_moves() {
                        let name = notation::name(pos.as_ref(), &usi, style, previous.as_deref());
                        assert!(
                            seen.insert(name.clone()),
                            "{variant} {style}: two moves named {name} at {}",
                            pos.sfen()
                        );
                        let back = notation::parse(pos.as_ref(), &name, style);
                        assert_eq!(back.as_deref(), Ok(usi.as_str()), "{variant} {style} {name} at {}", pos.sfen());
                        checked += 1;
                    }
                }
                pos.push(played).unwrap();
            }
        }
        assert!(checked > 2_000, "{variant}: only {checked} moves named");
    }
}

#[test]
fn a_line_is_named_as_its_moves_are_one_by_one() {
    for (i, variant) in GAMES.into_iter().enumerate() {
        for line in playouts(variant, 570 + i as u64, 3, 80) {
            let start = position(variant, None).unwrap();
            for &style in styles(variant) {
                let names = notation::names_of_line(start.as_ref(), &line, style);
                assert_eq!(names.len(), line.len(), "{variant} {style}");
                let mut pos = start.clone();
                for (usi, name) in line.iter().zip(&names) {
                    let previous = pos.moves().last().cloned();
                    assert_eq!(
                        *name,
                        notation::name(pos.as_ref(), usi, style, previous.as_deref()),
                        "{variant} {style}"
                    );
                    pos.push(usi).unwrap();
                }
            }
        }
    }
}

#[test]
fn a_line_stops_at_its_first_illegal_move() {
    let start = position("kokesu", None).unwrap();
    let names = notation::names_of_line(start.as_ref(), &["4g4e", "4b4d", "4g4e", "5b5d"], Style::San);
    assert_eq!(names, ["e4", "e5"]);
}

#[test]
fn the_crab_games_have_only_usi_names_and_other_styles_are_refused() {
    for variant in ["kanishogi", "kaninariebi"] {
        assert_eq!(styles(variant), [Style::Usi]);
        let pos = position(variant, None).unwrap();
        let usi = pos.legal_moves()[0].clone();
        assert_eq!(notation::name(pos.as_ref(), &usi, Style::Kif, None), usi);
        let err = notation::parse(pos.as_ref(), &usi, Style::Western).unwrap_err();
        assert_eq!(err.to_string(), format!("{variant} has no western notation (its styles: usi)"));
    }
    assert!(matches!(Style::parse("pgn"), Err(NotationError::UnknownStyle(_))));
    assert_eq!(Style::parse(" Hodges").unwrap(), Style::Western);
}

#[test]
fn mangled_names_read_as_a_legal_move_or_an_error_never_a_panic() {
    let pool: Vec<char> = "同　☗☖()+-x*=#?!12345678abcdefghiQRBNKP歩金成不打右上十".chars().collect();
    let mut rng = Rng::with_seed(5657);
    for (i, variant) in GAMES.into_iter().enumerate() {
        for line in playouts(variant, 5600 + i as u64, 4, 40) {
            let mut pos = position(variant, None).unwrap();
            for played in &line {
                for &style in styles(variant) {
                    for usi in pos.legal_moves().iter().take(8) {
                        let mut text: Vec<char> = notation::name(pos.as_ref(), usi, style, None).chars().collect();
                        for _ in 0..rng.usize(1..4) {
                            let at = rng.usize(..=text.len());
                            match rng.u8(..3) {
                                0 if at < text.len() => drop(text.remove(at)),
                                1 if at < text.len() => text[at] = pool[rng.usize(..pool.len())],
                                _ => text.insert(at, pool[rng.usize(..pool.len())]),
                            }
                        }
                        let text: String = text.into_iter().collect();
                        if let Ok(m) = notation::parse(pos.as_ref(), &text, style) {
                            assert!(pos.is_legal(&m), "{variant} {style} '{text}' read as {m}");
                        }
                    }
                }
                pos.push(played).unwrap();
            }
        }
    }
}
