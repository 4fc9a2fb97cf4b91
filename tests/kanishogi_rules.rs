//! Kani Shogi (rules.md §4): one named test per rule, on small hand-made positions, and
//! the two worked examples from a published game.

use koma::game::{Color, Game, MoveError, Outcome};
use koma::games::kanishogi::{KaniShogi, Rules};

const START: &str = "A3b/D3c/K3k/C3d/B3a b - 1";

fn pos(sfen: &str) -> KaniShogi {
    KaniShogi::from_sfen(sfen, &Rules::default()).unwrap()
}

fn tokens(p: &KaniShogi) -> Vec<String> {
    let mut m = Vec::new();
    p.legal_moves(&mut m);
    let mut t: Vec<String> = m.iter().map(|&mv| p.format_move(mv)).collect();
    t.sort();
    t
}

/// Whole-turn tokens starting with `prefix`.
fn starting(p: &KaniShogi, prefix: &str) -> Vec<String> {
    tokens(p).into_iter().filter(|t| t.starts_with(prefix)).collect()
}

/// Normal moves alone (no bond) starting with `prefix`.
fn plain(p: &KaniShogi, prefix: &str) -> Vec<String> {
    starting(p, prefix).into_iter().filter(|t| !t.contains(',')).collect()
}

fn after(p: &KaniShogi, token: &str) -> KaniShogi {
    let mv = p.parse_move(token).unwrap_or_else(|e| panic!("{token} in {}: {e}", p.to_sfen()));
    let mut q = p.clone();
    q.play(mv);
    q
}

fn play_all(sfen: &str, line: &[&str]) -> KaniShogi {
    let mut p = pos(sfen);
    for t in line {
        p = after(&p, t);
    }
    p
}

#[test]
fn start_position() {
    let p = KaniShogi::startpos(&Rules::default());
    assert_eq!(p.to_sfen(), START);
    assert_eq!(p.side_to_move(), Color::Sente);
    assert_eq!(tokens(&p).len(), 21);
    assert_eq!(p.result(), None);
}

#[test]
fn worked_example_bond_grows_child_three_on_1e() {
    let p = play_all(START, &["5c2c", "1e2e"]);
    assert_eq!(p.to_sfen(), "A3b/D3c/3Kk/C3d/B2a1 b - 3");
    let t = starting(&p, "5d2d");
    for want in ["5d2d", "5d2d,2d1e", "5d2d,2d1e+"] {
        assert!(t.contains(&want.to_string()), "{want} not in {t:?}");
    }
    let q = after(&p, "5d2d,2d1e+");
    assert_eq!(q.to_sfen(), "A3b/D3c/3Kk/4d/B2a+C w - 4");
}

#[test]
fn worked_example_red_parent_drifts_up_and_sandwiches() {
    // Red's parent enters the river at 3c and drifts up one square to 3b: black's child 3
    // on 2b is sandwiched against red's child on 1b.
    let p = pos("A3b/D2Cc/K3k/4d/B3a w - 1");
    assert_eq!(plain(&p, "1c"), ["1c2c", "1c3a", "1c3b", "1c3c", "1c3d", "1c3e", "1c4c"]);
    let q = after(&p, "1c3b");
    assert_eq!(q.to_sfen(), "A3b/D1k1c/K4/4d/B3a b - 2");
    assert_eq!(q.captured_pips(Color::Gote), vec![3]);
}

#[test]
fn parent_drifts_any_distance_or_stays() {
    let p = KaniShogi::startpos(&Rules::default());
    assert_eq!(plain(&p, "5c"), ["5c2c", "5c3a", "5c3b", "5c3c", "5c3d", "5c3e", "5c4c"]);
    // a piece in the river stops the drift
    let p = pos("A3b/D1k1c/C4/K3d/B3a b - 1");
    assert_eq!(plain(&p, "5d"), ["5d2d", "5d3c", "5d3d", "5d3e", "5d4d"]);
}

#[test]
fn parent_never_grows() {
    let p = pos("A3b/D3c/3K1/k3d/B3a b - 1");
    let t = plain(&p, "2c");
    assert!(t.contains(&"2c1c".to_string()));
    assert!(!t.contains(&"2c1c+".to_string()));
}

#[test]
fn child_entering_the_river_on_the_top_rank_flows_down() {
    let p = KaniShogi::startpos(&Rules::default());
    assert_eq!(plain(&p, "5a"), ["5a2a", "5a3e", "5a4a"]);
    assert_eq!(plain(&p, "5e"), ["5e2e", "5e3a", "5e4e"]);
    assert_eq!(after(&p, "5a3e").to_sfen(), "4b/D3c/K3k/C3d/B1A1a w - 2");
}

#[test]
fn child_crossing_the_river_is_not_carried() {
    let p = KaniShogi::startpos(&Rules::default());
    assert_eq!(after(&p, "5b2b").to_sfen(), "A3b/3Dc/K3k/C3d/B3a w - 2");
}

#[test]
fn child_blocked_one_way_must_flow_the_other() {
    // red's parent on 3b: the child entering at 3c can only go down, to 3e.
    let p = pos("A3b/D1k1c/C4/K3d/B3a b - 1");
    assert_eq!(plain(&p, "5c"), ["5c1c", "5c1c+", "5c2c", "5c3e", "5c4c"]);
    assert_eq!(after(&p, "5c3e").to_sfen(), "A3b/D1k1c/5/K3d/B1C1a w - 2");
    // entering at the top with the way down blocked it stays on 3a
    assert_eq!(plain(&p, "5a"), ["5a2a", "5a3a", "5a4a"]);
}

#[test]
fn child_blocked_both_ways_stays() {
    let p = pos("A3b/D1k1c/C4/K1B1d/4a b - 1");
    assert_eq!(plain(&p, "5c"), ["5c1c", "5c1c+", "5c2c", "5c3c", "5c4c"]);
    assert_eq!(after(&p, "5c3c").to_sfen(), "A3b/D1k1c/2C2/K1B1d/4a w - 2");
}

#[test]
fn growth_is_optional() {
    let p = play_all(START, &["5c2c", "1e2e"]);
    let t = starting(&p, "5d2d,2d1e");
    assert_eq!(t, ["5d2d,2d1e", "5d2d,2d1e+"]);
    let q = after(&p, "5d2d,2d1e");
    assert_eq!(q.to_sfen(), "A3b/D3c/3Kk/4d/B2aC w - 4");
}

#[test]
fn grown_child_moves_sideways_and_diagonally() {
    let sfen = "1Ak2/c2Cd/5/1K3/1+B3 b - 29";
    assert_eq!(plain(&pos(sfen), "4e"), ["4e1e", "4e2e", "4e3b", "4e3e", "4e5d", "4e5e"]);
    let mut r = Rules::default();
    KaniShogi::set_rule(&mut r, "KaniShogiGrownMove", "diagonal").unwrap();
    let p = KaniShogi::from_sfen(sfen, &r).unwrap();
    assert_eq!(plain(&p, "4e"), ["4e3b", "4e3e", "4e5d"]);
}

#[test]
fn bond_step_into_the_river() {
    // After 5c2c 1e2e, 5d2d touches the parent on 2c: the parent's bond step into the
    // river drifts like a normal move; the child's flows to the far end.
    let p = play_all(START, &["5c2c", "1e2e"]);
    let t = starting(&p, "5d2d,");
    for want in ["5d2d,2c3a", "5d2d,2c3b", "5d2d,2c3c", "5d2d,2c3d", "5d2d,2c3e", "5d2d,2d3a", "5d2d,2d3e"] {
        assert!(t.contains(&want.to_string()), "{want} not in {t:?}");
    }
    assert!(!t.contains(&"5d2d,2d3c".to_string()));
    assert_eq!(after(&p, "5d2d,2d3a").to_sfen(), "A1C1b/D3c/3Kk/4d/B2a1 w - 4");
    assert_eq!(after(&p, "5d2d,2c3d").to_sfen(), "A3b/D3c/4k/2KCd/B2a1 w - 4");
}

#[test]
fn no_bond_without_a_friendly_neighbour() {
    let p = KaniShogi::startpos(&Rules::default());
    assert!(tokens(&p).iter().all(|t| !t.contains(',')));
}

#[test]
fn wall_capture_of_a_group() {
    // Red's 1a-1b group on the edge: 2a and 1c are black; 5b2b closes the last gap.
    let p = pos("3Ab/D3c/K3C/1k3/d3a b - 1");
    let q = after(&p, "5b2b");
    assert_eq!(q.to_sfen(), "3A1/3D1/K3C/1k3/d3a w - 2");
    assert_eq!(q.captured_pips(Color::Sente), vec![2, 3]);
    assert_eq!(q.result(), None, "2-0 does not end the game");
}

#[test]
fn no_wall_capture_with_a_free_neighbour() {
    let p = pos("3Ab/D3c/K4/1k2C/d4 b - 1");
    assert_eq!(after(&p, "5b2b").to_sfen(), "3Ab/3Dc/K4/1k2C/d4 w - 2");
}

#[test]
fn sandwich_and_wall_capture_in_one_move() {
    // The grown child steps 3c2b: 3b is sandwiched against 4b and the 1a-1b group is
    // walled in; three children at once win.
    let p = pos("3Ab/1Dd1c/K1+B1C/1k3/a4 b - 1");
    let q = after(&p, "3c2b");
    assert_eq!(q.to_sfen(), "3A1/1D1+B1/K3C/1k3/a4 w - 2");
    assert_eq!(q.captured_pips(Color::Sente), vec![2, 3, 4]);
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
}

#[test]
fn moving_into_an_enclosure_is_safe() {
    let p = pos("3b1/3+Dc/K3k/C3d/B3a b - 1");
    let q = after(&p, "2b1a");
    assert_eq!(q.to_sfen(), "3b+D/4c/K3k/C3d/B3a w - 2");
}

#[test]
fn end_parent_captured() {
    let p = pos("A4/3D1/3kc/4C/K3a b - 1");
    let q = after(&p, "1d2d");
    assert_eq!(q.to_sfen(), "A4/3D1/4c/3C1/K3a w - 2");
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
    assert!(matches!(q.parse_move("1c2c"), Err(MoveError::GameOver(_))));
}

#[test]
fn end_parent_captured_beats_a_two_two_pip_lead() {
    // Red lost 1+2 and has no parent; black lost 3+4 (red would win the pip race).
    assert_eq!(pos("KA3/5/B4/5/3cd w - 9").result(), Some(Outcome::Loss));
    assert_eq!(pos("KA3/5/B4/5/3cd b - 9").result(), Some(Outcome::Win));
}

#[test]
fn end_three_children() {
    // black has lost three children
    assert_eq!(pos("K4/5/2A2/5/abkc1 b - 9").result(), Some(Outcome::Loss));
    assert_eq!(pos("K4/5/2A2/5/abkc1 w - 9").result(), Some(Outcome::Win));
}

#[test]
fn end_two_two_by_pip_sum() {
    // black captured 3+4, red captured 1+2: black wins
    assert_eq!(pos("K2C1/5/D4/5/1ab1k w - 9").result(), Some(Outcome::Loss));
    assert_eq!(pos("K2C1/5/D4/5/1ab1k b - 9").result(), Some(Outcome::Win));
}

#[test]
fn end_two_two_equal_sums_larger_pip_wins() {
    // The published example: red took 2+3, black took 1+4; both 5, black holds the 4.
    let p = pos("K2A1/5/D4/5/1bc1k w - 9");
    assert_eq!(p.captured_pips(Color::Sente), vec![1, 4]);
    assert_eq!(p.captured_pips(Color::Gote), vec![2, 3]);
    assert_eq!(p.result(), Some(Outcome::Loss));
}

#[test]
fn end_two_two_identical_pips_play_on_and_next_child_capture_wins() {
    let p = pos("K2C1/3c1/4B/k4/1b3 b - 30");
    assert_eq!(p.captured_pips(Color::Sente), vec![1, 4]);
    assert_eq!(p.captured_pips(Color::Gote), vec![1, 4]);
    assert_eq!(p.result(), None);
    assert!(!tokens(&p).is_empty());
    let q = after(&p, "1c2c");
    assert_eq!(q.to_sfen(), "K2C1/5/3B1/k4/1b3 w - 31");
    assert_eq!(q.result(), Some(Outcome::Loss));
}

#[test]
fn end_reached_by_a_capture_stops_the_turn() {
    // the normal move ends the game: no bond turns are listed for it
    let p = pos("K2C1/3c1/4B/k4/1b3 b - 30");
    assert_eq!(starting(&p, "1c2c"), ["1c2c"]);
}

#[test]
fn two_one_does_not_end() {
    assert_eq!(pos("K2C1/5/D1B2/5/1ab1k b - 9").result(), None);
}

#[test]
fn no_legal_normal_move_loses() {
    let p = pos("3Ak/3Kb/3Bc/C4/D4 b - 1");
    let q = after(&p, "5e4e");
    assert_eq!(q.to_sfen(), "3Ak/3Kb/3Bc/C4/1D3 w - 2");
    assert_eq!(q.result(), None);
    assert!(tokens(&q).is_empty());
    assert_eq!(q.no_move_outcome(), Outcome::Loss);
}

#[test]
fn sfen_round_trip_and_rejections() {
    for s in [START, "A3b/D3c/3Kk/4d/B2a+C w - 4", "K4/5/2A2/5/abkc1 b - 9"] {
        assert_eq!(pos(s).to_sfen(), s);
    }
    let r = Rules::default();
    // the same pips on different sides are fine
    assert!(KaniShogi::from_sfen("A3a/D3c/K3k/C3d/B3b b - 1", &r).is_ok());
    for bad in [
        "A3b/A3c/K3k/C3d/B3a b - 1",  // pip 1 twice for black
        "A3b/D3c/K3k/C3d/K3a b - 1",  // two black parents
        "A3b/D3c/+K3k/C3d/B3a b - 1", // a grown parent
        "A3b/D3c/2A1k/C3d/B3a b - 1", // pip 1 twice
        "AD2b/D3c/K3k/C3d/B3a b - 1", // six pieces
        "A3b/D3c/5/C3d/B3a b - 1",    // no parent at all
        "A3b/D3c/K3k/C3d/B3e b - 1",  // no such piece
        "A3b/D3c/K3k/C3d/B3a b b 1",  // a hand
        "A3b/D3c/K3k/C3d b - 1",
    ] {
        assert!(KaniShogi::from_sfen(bad, &r).is_err(), "{bad}");
    }
}

#[test]
fn token_errors() {
    let p = KaniShogi::startpos(&Rules::default());
    assert!(matches!(p.parse_move("5c"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("5c2c,2c"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("5c2c,2c1d,1d2e"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("5a3a"), Err(MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("5c2c+"), Err(MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("5c2c,2c1d"), Err(MoveError::Illegal(..))));
}

#[test]
fn options_and_constants() {
    let mut r = Rules::default();
    assert!(KaniShogi::set_rule(&mut r, "KaniShogiGrownMove", "sideways").is_err());
    assert!(KaniShogi::set_rule(&mut r, "KaniNariEbiBonds", "any").is_err());
    assert!(KaniShogi::set_rule(&mut r, "KaniShogiGrownMove", "sideways+diagonal").is_ok());
    assert_eq!(r, Rules::default());
    assert_eq!(KaniShogi::REPETITION_LIMIT, 4);
    assert_eq!(KaniShogi::NAME, "kanishogi");
}

#[test]
fn key_depends_on_board_and_side_only() {
    let a = pos(START);
    let d = play_all(START, &["5b4b", "1b2b", "4b5b", "2b1b"]);
    assert_eq!(d.to_sfen(), "A3b/D3c/K3k/C3d/B3a b - 5");
    assert_eq!(d.key(), a.key());
    assert_ne!(pos("A3b/D3c/K3k/C3d/B3a w - 1").key(), a.key());
}

#[test]
fn bond_from_anywhere_in_the_connected_group() {
    // 2c4c touches the parent on 5c, which joins 5b and 5a: the child on 5a may make the
    // bond step; the child on 5e is not connected (5d is empty).
    let p = pos("A3b/D3c/K2Ck/4d/B3a b - 1");
    let t = starting(&p, "2c4c,");
    assert!(t.contains(&"2c4c,5a4b".to_string()), "{t:?}");
    assert!(t.contains(&"2c4c,5c4d".to_string()), "{t:?}");
    assert!(!t.iter().any(|x| x.starts_with("2c4c,5e")), "{t:?}");
}

#[test]
fn bond_move_capturing_the_parent_ends_the_game() {
    let p = pos("A4/3D1/K2kc/4a/B3C b - 1");
    let q = after(&p, "5e2e");
    assert_eq!(q.result(), None);
    let q = after(&p, "5e2e,1e2d");
    assert_eq!(q.to_sfen(), "A4/3D1/K3c/3Ca/3B1 w - 2");
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
}
