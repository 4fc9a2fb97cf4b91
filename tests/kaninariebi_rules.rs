//! Kani Nari Ebi (rules.md §5): one named test per rule, on small hand-made positions.

use koma::game::{Color, Game, MoveError, Outcome};
use koma::games::kaninariebi::{KaniNariEbi, Rules};

fn pos(sfen: &str) -> KaniNariEbi {
    KaniNariEbi::from_sfen(sfen, &Rules::default()).unwrap()
}

fn pos_any(sfen: &str) -> KaniNariEbi {
    let mut r = Rules::default();
    KaniNariEbi::set_rule(&mut r, "KaniNariEbiBonds", "any").unwrap();
    KaniNariEbi::from_sfen(sfen, &r).unwrap()
}

fn tokens(p: &KaniNariEbi) -> Vec<String> {
    let mut m = Vec::new();
    p.legal_moves(&mut m);
    let mut t: Vec<String> = m.iter().map(|&mv| p.format_move(mv)).collect();
    t.sort();
    t
}

/// The whole-turn tokens whose normal move starts with `prefix`.
fn starting(p: &KaniNariEbi, prefix: &str) -> Vec<String> {
    tokens(p).into_iter().filter(|t| t.starts_with(prefix)).collect()
}

fn after(p: &KaniNariEbi, token: &str) -> KaniNariEbi {
    let mv = p.parse_move(token).unwrap_or_else(|e| panic!("{token}: {e}"));
    let mut q = p.clone();
    q.play(mv);
    q
}

fn play_all(sfen: &str, line: &[&str]) -> KaniNariEbi {
    let mut p = pos(sfen);
    for t in line {
        p = after(&p, t);
    }
    p
}

#[test]
fn start_position_and_first_moves() {
    let p = KaniNariEbi::startpos(&Rules::default());
    assert_eq!(p.to_sfen(), "C3c/C3c/C3c/C3c/C3c b - 1");
    assert_eq!(p.side_to_move(), Color::Sente);
    assert_eq!(tokens(&p).len(), 20);
    assert_eq!(starting(&p, "5c"), ["5c2c", "5c3a", "5c3e", "5c4c"]);
}

#[test]
fn crab_slides_sideways_without_jumping() {
    // black crab on 4c, red on 2c: it reaches 5c and the current at 3c, never 1c.
    let p = pos("4c/4c/1C1c1/C3c/C4 b - 1");
    let plain: Vec<String> = starting(&p, "4c").into_iter().filter(|t| !t.contains(',')).collect();
    assert_eq!(plain, ["4c3a", "4c3e", "4c5c"]);
    // on 5c it touches 5d: the bond turns are listed besides the plain move
    assert!(starting(&p, "4c5c,").contains(&"4c5c,5d4e".to_string()));
}

#[test]
fn shrimp_steps_one_square_diagonally() {
    let p = pos("4c/1+C2c/5/C3c/C4 b - 1");
    // 4b: 5a, 5c, and 3a / 3c in the current (each carried up to 3a or down to 3e).
    assert_eq!(starting(&p, "4b"), ["4b3a", "4b3e", "4b5a", "4b5c"]);
}

#[test]
fn crab_crossing_the_current_is_not_carried() {
    let p = KaniNariEbi::startpos(&Rules::default());
    assert_eq!(after(&p, "5c2c").to_sfen(), "C3c/C3c/3Cc/C3c/C3c w - 2");
}

#[test]
fn current_at_the_board_edge() {
    // Entering at 3a: "up" leaves it there, "down" carries it to 3e.
    let p = KaniNariEbi::startpos(&Rules::default());
    assert_eq!(starting(&p, "5a"), ["5a2a", "5a3a", "5a3e", "5a4a"]);
    assert_eq!(after(&p, "5a3a").to_sfen(), "2C1c/C3c/C3c/C3c/C3c w - 2");
    assert_eq!(after(&p, "5a3e").to_sfen(), "4c/C3c/C3c/C3c/C1C1c w - 2");
}

#[test]
fn current_blocked_in_one_direction() {
    // red on 3a blocks "up": the crab may stay on 3b or be carried down to 3e.
    let p = pos("2c1c/C3c/C4/C4/5 b - 1");
    assert_eq!(starting(&p, "5b"), ["5b2b", "5b3b", "5b3e", "5b4b"]);
    assert_eq!(after(&p, "5b3b").to_sfen(), "2c1c/2C1c/C4/C4/5 w - 2");
    assert_eq!(after(&p, "5b3e").to_sfen(), "2c1c/4c/C4/C4/2C2 w - 2");
}

#[test]
fn current_blocked_both_ways_is_one_move() {
    let p = pos("2c1c/C3c/C1c1c/C4/5 b - 1");
    assert_eq!(starting(&p, "5b"), ["5b2b", "5b3b", "5b4b"]);
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let p = pos("2c1c/C3c/C1c1c/C4/5 b - 1");
    let q = after(&p, "5b3b");
    assert_eq!(q.to_sfen(), "2c1c/2C1c/C1c1c/C4/5 w - 2");
}

#[test]
fn current_applies_to_the_bond_move_which_captures() {
    // 5b4b bonds with the crab on 4a, which steps to 3b, is carried down to 3e and
    // sandwiches red's 2e against black's 1e.
    let p = pos("1C3/C3c/4c/4c/3cC b - 1");
    let t = starting(&p, "5b4b");
    for want in ["5b4b", "5b4b,4a3a", "5b4b,4a3e", "5b4b,4a5b", "5b4b,4b3a", "5b4b,4b3e", "5b4b,4b5a", "5b4b,4b5c"] {
        assert!(t.contains(&want.to_string()), "{want} missing from {t:?}");
    }
    assert_eq!(t.len(), 8, "{t:?}");
    assert_eq!(after(&p, "5b4b,4a3e").to_sfen(), "5/1C2c/4c/4c/2C1C w - 2");
}

#[test]
fn bond_move_promotes_and_captures_two_runs_and_wins() {
    // 5c2c crosses the current next to black's 2b; the bond 2b1c+ promotes on red's
    // home column and sandwiches 1b (against 1a) and 1d (against 1e): three captures.
    let p = pos("4C/3Cc/C4/4c/cc2C b - 1");
    let t = starting(&p, "5c2c");
    assert!(t.contains(&"5c2c,2b1c".to_string()));
    assert!(t.contains(&"5c2c,2b1c+".to_string()));
    let q = after(&p, "5c2c,2b1c+");
    assert_eq!(q.to_sfen(), "4C/5/3C+C/5/cc2C w - 2");
    assert_eq!(q.captured_by(Color::Sente), 3);
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
}

#[test]
fn bond_needs_a_neighbour_of_the_same_type() {
    // The crab arriving on 4c touches only a shrimp (4d): no bond unless bonds are "any".
    let sfen = "C3c/4c/C3c/1+C3/4c b - 1";
    let same = starting(&pos(sfen), "5c4c");
    assert_eq!(same, ["5c4c"]);
    let any = starting(&pos_any(sfen), "5c4c");
    assert!(any.contains(&"5c4c,4d3e".to_string()), "{any:?}");
    assert!(any.contains(&"5c4c,4c5b".to_string()), "{any:?}");
}

#[test]
fn bond_comes_from_the_moved_pieces_group_only() {
    // 5c4c joins 4d and 4e (a line of crabs): any of the three may step; the far crab on
    // 5a is not in the group.
    let p = pos("C3c/4c/C3c/1C3/1C2c b - 1");
    let t = starting(&p, "5c4c,");
    assert!(t.iter().any(|x| x.starts_with("5c4c,4e")));
    assert!(t.iter().any(|x| x.starts_with("5c4c,4d")));
    assert!(t.iter().any(|x| x.starts_with("5c4c,4c")));
    assert!(!t.iter().any(|x| x.starts_with("5c4c,5a")));
    // the normal move alone is a move too
    assert!(starting(&p, "5c4c").contains(&"5c4c".to_string()));
}

#[test]
fn sandwich_captures_several_runs_but_not_against_the_edge() {
    // 5c4c: 3c is closed by 2c, 4b by 4a; 4d-4e run to the edge and stay.
    let p = pos("1C3/1c3/C1cC1/1c3/1c2c b - 1");
    let q = after(&p, "5c4c");
    assert_eq!(q.to_sfen(), "1C3/5/1C1C1/1c3/1c2c w - 2");
    assert_eq!(q.captured_by(Color::Sente), 2);
    assert_eq!(q.result(), None);
}

#[test]
fn win_by_three_captures_on_the_normal_move_leaves_no_bond() {
    // red has 3 pieces; 5c4c sandwiches 3c against 2c and touches black's 4d.
    let p = pos("4c/4c/C1cC1/1C3/5 b - 1");
    assert_eq!(starting(&p, "5c4c"), ["5c4c"]);
    let q = after(&p, "5c4c");
    assert_eq!(q.to_sfen(), "4c/4c/1C1C1/1C3/5 w - 2");
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
    assert!(matches!(q.parse_move("1a2a"), Err(MoveError::GameOver(_))));
    // with a fourth red piece the same move is not a win and the bond is there
    let p = pos("4c/4c/C1cC1/1C3/4c b - 1");
    assert!(starting(&p, "5c4c").len() > 1);
}

#[test]
fn win_by_three_shrimps() {
    let p = pos("3+C1/c4/4c/C4/3+Cc b - 1");
    assert_eq!(starting(&p, "5d"), ["5d1d", "5d1d+", "5d2d", "5d3a", "5d3e", "5d4d"]);
    let q = after(&p, "5d1d+");
    assert_eq!(q.to_sfen(), "3+C1/c4/4c/4+C/3+Cc w - 2");
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert!(tokens(&q).is_empty());
    assert_eq!(after(&p, "5d1d").result(), None);
}

#[test]
fn crab_declines_promotion_and_promotes_later() {
    let sfen = "C3c/4c/1C3/4c/C4 b - 1";
    assert_eq!(starting(&pos(sfen), "4c1c"), ["4c1c", "4c1c+"]);
    let q = play_all(sfen, &["4c1c", "1a2a", "1c2c", "2a1a"]);
    assert_eq!(q.to_sfen(), "C3c/4c/3C1/4c/C4 b - 5");
    assert_eq!(starting(&q, "2c1c"), ["2c1c", "2c1c+"]);
    assert_eq!(after(&q, "2c1c+").to_sfen(), "C3c/4c/4+C/4c/C4 w - 6");
}

#[test]
fn stalemated_opponent_loses() {
    let p = pos("3Cc/3Cc/3Cc/5/C4 b - 1");
    let q = after(&p, "5e4e");
    assert_eq!(q.to_sfen(), "3Cc/3Cc/3Cc/5/1C3 w - 2");
    assert_eq!(q.result(), None);
    assert!(tokens(&q).is_empty());
    assert_eq!(q.no_move_outcome(), Outcome::Loss);
}

#[test]
fn token_syntax_and_errors() {
    let p = KaniNariEbi::startpos(&Rules::default());
    assert!(matches!(p.parse_move("5c2"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("5c2c,"), Err(MoveError::Syntax(_))));
    // one bond at most: a turn has two parts
    assert!(matches!(p.parse_move("5b4b,4a3b,3b2a"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("6c2c"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_move("5c3c"), Err(MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("1c2c"), Err(MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("5c2c,2c1b"), Err(MoveError::Illegal(..))));
    assert!(matches!(p.parse_move("5c1c"), Err(MoveError::Illegal(..))));
}

#[test]
fn sfen_round_trip_and_rejections() {
    for s in ["C3c/C3c/C3c/C3c/C3c b - 1", "3+C1/c4/4c/4+C/3+Cc w - 7", "5/5/5/C4/CC2c b - 3"] {
        assert_eq!(pos(s).to_sfen(), s);
    }
    assert_eq!(pos("C3c/C3c/C3c/C3c/C3c b -").to_sfen(), "C3c/C3c/C3c/C3c/C3c b - 1");
    let r = Rules::default();
    for bad in [
        "CC3c/C3c/C3c/C3c/C3c b - 1",
        "C3c/C3c/C3c/C3c b - 1",
        "C3c/C3c/C3c/C3c/C3k b - 1",
        "C3c/C3c/C3c/C3c/C3c x - 1",
        "C3c/C3c/C3c/C3c/C3c b C 1",
        "C3c/C3c/C3c/C3c/C3c b - 0",
        "C3c/C3c/C3c/C3c/CC2c b - 1",
        "C3c/C3c/C3c/C3c/C3+ b - 1",
        "C3c/C3c/C3c/C3c/C4c b - 1",
        "",
        // Impossible boards (issue 44): both sides have already won, or four shrimps.
        "5/5/5/5/C3c b - 3",
        "5/5/5/5/5 b - 1",
        "C4/C4/5/4c/4c b - 1",
        "+C+C+C2/5/5/2+c+c+c/5 b - 1",
        "+C+C+C+C1/5/5/4c/5 b - 1",
    ] {
        assert!(KaniNariEbi::from_sfen(bad, &r).is_err(), "{bad}");
    }
}

#[test]
fn options_and_constants() {
    let mut r = Rules::default();
    assert!(KaniNariEbi::set_rule(&mut r, "KaniNariEbiBonds", "sometimes").is_err());
    assert!(KaniNariEbi::set_rule(&mut r, "Bonds", "any").is_err());
    assert_eq!(r, Rules::default());
    assert_eq!(KaniNariEbi::REPETITION_LIMIT, 4);
    assert_eq!(KaniNariEbi::NAME, "kaninariebi");
    assert_eq!(KaniNariEbi::switches()[0].info.default, "same-type");
}

#[test]
fn key_depends_on_board_and_side_only() {
    let a = pos("C3c/C3c/C3c/C3c/C3c b - 1");
    let b = pos("C3c/C3c/C3c/C3c/C3c b - 9");
    let c = pos("C3c/C3c/C3c/C3c/C3c w - 1");
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    let d = play_all("C3c/C3c/C3c/C3c/C3c b - 1", &["5c4c", "1c2c", "4c5c", "2c1c"]);
    assert_eq!(d.key(), a.key());
}
