//! The UCI and CECP dialects on every perft fixture position of the games they play:
//! notation round trips (USI ⇄ UCI/CECP), a UCI perft equal to the USI one and to the
//! fixture, and CECP taking each position (`setboard`) and a move in it (`usermove`).

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::Koma;
use koma::engine::{new_board, Board};
use koma::game::perft::{parse_suite, PerftCase};
use koma::game::ChessGame;

const GAMES: [(&str, &str); 3] = [
    ("kokesu", include_str!("../fixtures/perft/kokesu.perft")),
    ("shogi66", include_str!("../fixtures/perft/shogi66.perft")),
    ("numbershogi", include_str!("../fixtures/perft/numbershogi.perft")),
];

/// The deepest fixture figure of a case up to this many leaves (a UCI perft of it).
const PERFT_CAP: u64 = 30_000;
const TIMEOUT: Duration = Duration::from_secs(60);

fn cases(text: &str) -> Vec<PerftCase> {
    parse_suite(text).expect("the fixture parses")
}

/// A session of `variant` with the case's rules switches and position.
fn session(variant: &str, case: &PerftCase, sfen: &str) -> Board {
    let mut s = new_board(variant).expect("registered");
    for (k, v) in &case.options {
        s.set_switch(k, v).unwrap_or_else(|e| panic!("{}: {e}", case.id));
    }
    s.set_position(Some(sfen), &[]).unwrap_or_else(|e| panic!("{}: {sfen}: {e}", case.id));
    s
}

fn sfen_of(s: &Board) -> String {
    s.state().unwrap().sfen
}

fn chess_game(variant: &str) -> ChessGame {
    koma::games::descriptor(variant).unwrap().chess_game().expect("has a chess notation")
}

#[test]
fn crab_games_have_no_chess_notation() {
    for v in ["kanishogi", "kaninariebi"] {
        assert!(koma::games::descriptor(v).unwrap().chess.is_none(), "{v}");
    }
}

#[test]
fn positions_and_moves_round_trip_on_every_fixture_position() {
    let mut positions = 0;
    for (variant, text) in GAMES {
        let g = chess_game(variant);
        for case in cases(text) {
            let usi = session(variant, &case, &case.sfen);
            let sfen = sfen_of(&usi);
            let fen = g.sfen_to_fen(&sfen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
            let back = g.fen_to_sfen(&fen).unwrap_or_else(|e| panic!("{}: {fen}: {e}", case.id));
            let again = session(variant, &case, &back);
            // Board, side and hands come back; the ply too when its parity is the side's
            // (FEN counts full moves, so an odd SFEN ply with the second player to move
            // comes back one less).
            let (a, b): (Vec<&str>, Vec<&str>) = (sfen.split(' ').collect(), back.split(' ').collect());
            assert_eq!(a[..3], sfen_of(&again).split(' ').collect::<Vec<_>>()[..3], "{}: {fen}", case.id);
            let ply: u32 = a[3].parse().unwrap();
            if (ply % 2 == 1) == (a[1] == "b") {
                assert_eq!(a[3], b[3], "{}: ply of {fen}", case.id);
            }
            // Every legal move: USI -> chess -> USI is the identity, and one token each.
            let moves = usi.legal_moves().unwrap();
            assert_eq!(moves, again.legal_moves().unwrap(), "{}: the FEN's position has other moves", case.id);
            let mut seen = BTreeMap::new();
            for m in &moves {
                let c = g.move_to_chess(m).unwrap_or_else(|e| panic!("{}: {e}", case.id));
                assert_eq!(g.move_from_chess(&c).as_deref(), Ok(m.as_str()), "{}: {c}", case.id);
                assert!(seen.insert(c.clone(), m.clone()).is_none(), "{}: {c} twice", case.id);
            }
            positions += 1;
        }
    }
    assert!(positions >= 60, "only {positions} positions");
}

/// `go perft` lines (`move: n`) and the total, read up to `Nodes searched`.
fn perft_lines(koma: &mut Koma, depth: u32) -> (BTreeMap<String, u64>, u64) {
    koma.send(&format!("go perft {depth}"));
    let lines = koma.read_until("Nodes searched:", TIMEOUT);
    let mut map = BTreeMap::new();
    let mut total = 0;
    for l in &lines {
        if l.starts_with("info string ") {
            // What setoption says (the new variant, a rules switch that reset the position).
        } else if let Some(n) = l.strip_prefix("Nodes searched: ") {
            total = n.parse().unwrap();
        } else if let Some((m, n)) = l.split_once(": ") {
            assert!(map.insert(m.to_string(), n.parse::<u64>().unwrap()).is_none(), "{m} twice");
        } else {
            panic!("unexpected line '{l}'");
        }
    }
    (map, total)
}

fn set_options(koma: &mut Koma, variant_option: &str, variant: &str, case: &PerftCase) {
    // Every switch of the game: the case's value, else the default.
    let rules = koma::games::switches().filter(|(v, s)| *v == variant && s.scope == koma::game::Scope::Rules);
    for (_, opt) in rules {
        let value = case.options.iter().find(|(k, _)| k == opt.name).map_or(opt.default, |(_, v)| v.as_str());
        koma.send(&format!("setoption name {} value {value}", opt.name));
    }
    koma.send(&format!("setoption name {variant_option} value {variant}"));
    for (k, v) in &case.options {
        koma.send(&format!("setoption name {k} value {v}"));
    }
}

#[test]
fn uci_perft_equals_usi_perft_on_every_fixture_position() {
    let mut checked = 0;
    for (variant, text) in GAMES {
        let g = chess_game(variant);
        let (mut usi, mut uci) = (Koma::spawn(), Koma::spawn());
        usi.send("usi");
        usi.read_until("usiok", TIMEOUT);
        uci.send("uci");
        uci.read_until("uciok", TIMEOUT);
        for case in cases(text) {
            let Some(&(depth, want)) = case.expected.iter().filter(|(_, n)| *n <= PERFT_CAP).max() else { continue };
            set_options(&mut usi, "USI_Variant", variant, &case);
            set_options(&mut uci, "UCI_Variant", variant, &case);
            let fen = g.sfen_to_fen(&case.sfen).unwrap();
            usi.send(&format!("position sfen {}", case.sfen));
            uci.send(&format!("position fen {fen}"));
            let (usi_lines, usi_total) = perft_lines(&mut usi, depth);
            let (uci_lines, uci_total) = perft_lines(&mut uci, depth);
            assert_eq!((usi_total, uci_total), (want, want), "{} perft {depth}", case.id);
            let translated: BTreeMap<String, u64> =
                usi_lines.iter().map(|(m, n)| (g.move_to_chess(m).unwrap(), *n)).collect();
            assert_eq!(translated, uci_lines, "{} perft {depth}: the UCI divide differs", case.id);
            checked += 1;
        }
        for k in [&mut usi, &mut uci] {
            k.send("quit");
        }
    }
    assert!(checked >= 60, "only {checked} positions");
}

#[test]
fn cecp_takes_every_fixture_position_and_a_move_in_it() {
    let mut checked = 0;
    for (variant, text) in GAMES {
        let g = chess_game(variant);
        let mut koma = Koma::spawn();
        koma.send("xboard");
        koma.send("protover 2");
        koma.read_until("feature done=1", TIMEOUT);
        for (n, case) in cases(text).into_iter().enumerate() {
            // xboard has no way to set rules switches; the default rules only.
            if !case.options.is_empty() {
                continue;
            }
            let usi = session(variant, &case, &case.sfen);
            koma.send("new");
            koma.send(&format!("variant {}", g.notation.xboard_name));
            koma.send("force");
            koma.send(&format!("setboard {}", g.sfen_to_fen(&case.sfen).unwrap()));
            let moves = usi.legal_moves().unwrap();
            if let Some(m) = moves.first() {
                koma.send(&format!("usermove {}", g.move_to_chess(m).unwrap()));
            }
            koma.send(&format!("ping {n}"));
            let lines = koma.read_until(&format!("pong {n}"), TIMEOUT);
            for l in &lines {
                assert!(
                    !(l.starts_with("Illegal") || l.starts_with("Error") || l.starts_with("tellusererror")),
                    "{}: {l}",
                    case.id
                );
            }
            checked += 1;
        }
        koma.send("quit");
    }
    assert!(checked >= 50, "only {checked} positions");
}
