//! Number Shogi rules, one named test per rule (rules.md §3 and §0).

use koma::game::perft::perft;
use koma::game::{BookChoice, Color, Game, MoveError, Outcome, Strategy};
use koma::games::numbershogi::{setup, NumberShogi, Rules};

fn rules() -> Rules {
    Rules::default()
}
/// Rule tests use study positions: pieces not shown are out of play.
fn pos(sfen: &str) -> NumberShogi {
    match NumberShogi::from_study_sfen(sfen, &rules()) {
        Ok(p) => p,
        Err(e) => panic!("{sfen}: {e}"),
    }
}
fn pos_with(sfen: &str, r: &Rules) -> NumberShogi {
    match NumberShogi::from_study_sfen(sfen, r) {
        Ok(p) => p,
        Err(e) => panic!("{sfen}: {e}"),
    }
}
fn tokens(p: &NumberShogi) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| p.format_move(m)).collect();
    t.sort();
    t
}
fn play(p: &mut NumberShogi, token: &str) {
    match p.parse_move(token) {
        Ok(m) => p.play(m),
        Err(e) => panic!("{} in {}: {e}", token, p.to_sfen()),
    }
}
fn played(sfen: &str, moves: &[&str]) -> NumberShogi {
    let mut p = pos(sfen);
    for m in moves {
        play(&mut p, m);
    }
    p
}
fn illegal_reason(p: &NumberShogi, token: &str) -> String {
    match p.parse_move(token) {
        Err(MoveError::Illegal(t, why)) => {
            assert_eq!(t, token);
            why
        }
        other => panic!("{token}: expected Illegal, got {other:?}"),
    }
}

const SETUP: &str = "cfb/ead/3/DAE/BFC b - 1";

// ---------------------------------------------------------------- placement phase

#[test]
fn startpos_is_empty_board_with_both_sets_in_hand() {
    let p = NumberShogi::startpos(&rules());
    assert_eq!(p.to_sfen(), "3/3/3/3/3 b ABCDEFabcdef 1");
    assert!(p.is_placement());
    assert_eq!(p.side_to_move(), Color::Sente);
    assert_eq!(p.result(), None);
    assert_eq!(NumberShogi::NAME, "numbershogi");
    assert_eq!((NumberShogi::FILES, NumberShogi::RANKS), (3, 5));
    assert_eq!(NumberShogi::REPETITION_LIMIT, 4);
}

#[test]
fn placement_drops_only_on_own_camp() {
    let p = NumberShogi::startpos(&rules());
    let t = tokens(&p);
    assert_eq!(t.len(), 36);
    assert!(t.iter().all(|m| m.ends_with('d') || m.ends_with('e')), "{t:?}");
    assert!(t.contains(&"D*2e".to_string()));
    assert!(illegal_reason(&p, "D*2c").contains("own camp"));
    assert!(illegal_reason(&p, "D*2a").contains("own camp"));
    let p = played("3/3/3/3/3 b ABCDEFabcdef 1", &["D*2e"]);
    let t = tokens(&p);
    assert_eq!(t.len(), 36);
    assert!(t.iter().all(|m| m.ends_with('a') || m.ends_with('b')), "{t:?}");
    assert!(illegal_reason(&p, "A*3d").contains("own camp"));
    // A piece already placed is no longer in the reserve.
    let p = played("3/3/3/3/3 b ABCDEFabcdef 1", &["D*2e", "D*2a"]);
    assert!(illegal_reason(&p, "D*3e").contains("reserve"));
}

#[test]
fn placement_forbids_board_moves_and_occupied_squares() {
    let p = played("3/3/3/3/3 b ABCDEFabcdef 1", &["D*2e", "D*2a"]);
    assert!(illegal_reason(&p, "A*2e").contains("occupied"));
    assert!(illegal_reason(&p, "2e2d").contains("placement"));
    assert_eq!(tokens(&p).len(), 25);
}

#[test]
fn twelve_placement_plies_then_play() {
    let moves = ["D*3d", "C*3a", "A*2d", "F*2a", "E*1d", "B*1a", "B*3e", "E*3b", "F*2e", "A*2b", "C*1e", "D*1b"];
    let mut p = NumberShogi::startpos(&rules());
    for (i, m) in moves.iter().enumerate() {
        assert!(p.is_placement(), "ply {}", i + 1);
        play(&mut p, m);
    }
    assert!(!p.is_placement());
    assert_eq!(p.to_sfen(), "cfb/ead/3/DAE/BFC b - 13");
    assert_eq!(tokens(&p), ["1d1c", "1d2c", "2d2c", "3d2c"]);
    // Same position from a setup sfen (ply 1): play phase, since no hand holds anything.
    assert!(!pos(SETUP).is_placement());
    assert_eq!(pos(SETUP).key(), p.key());
}

#[test]
fn placement_sfen_round_trips_and_is_recognised() {
    let p = played("3/3/3/3/3 b ABCDEFabcdef 1", &["D*3d", "C*3a", "A*2d"]);
    assert_eq!(p.to_sfen(), "c2/3/3/DA1/3 w BCEFabdef 4");
    let q = pos(&p.to_sfen());
    assert!(q.is_placement());
    assert_eq!(q.to_sfen(), p.to_sfen());
    assert_eq!(q.key(), p.key());
    assert_eq!(tokens(&q), tokens(&p));
}

#[test]
fn placement_conditions_of_rules_section_0() {
    // Each condition broken in turn makes the position a play-phase one. (Late in the
    // placement, where neither reserve read as captures makes seven: earlier, such a
    // play-phase reading has both hands making seven, which is refused.)
    assert!(pos("c2/3/3/DA1/3 w BCEFabdef 4").is_placement());
    let base = "abc/d2/3/ABC/DE1 w Fef 10";
    assert!(pos(base).is_placement());
    // 1. ply above 12 (a ply that runs ahead of the drops is refused: see below)
    assert!(!pos("abc/d2/3/ABC/DE1 w Fef 13").is_placement());
    // 3. a piece outside its camp, or promoted
    assert!(!pos("abc/d2/A2/1BC/DE1 w Fef 10").is_placement());
    assert!(!pos("abc/d2/3/+ABC/DE1 w Fef 10").is_placement());
    // 4. not exactly its own set
    assert!(!pos("abc/d2/3/ABC/DE1 w ef 10").is_placement());
    // 5. counts that do not fit the side to move
    assert!(!pos("abc/d2/3/ABC/DE1 b Fef 10").is_placement());
    // 2. empty hands: play
    assert!(!pos("cfb/ead/3/DAE/BFC b - 5").is_placement());
}

#[test]
fn placement_ends_with_the_twelfth_drop_and_a_ply_ahead_of_the_drops_is_refused() {
    // Gote's sixth drop, ply 12, ends the placement.
    let mut p = pos("abc/de1/3/ABC/DEF w f 12");
    assert!(p.is_placement());
    play(&mut p, "F*1b");
    assert!(!p.is_placement());
    assert_eq!((p.to_sfen().as_str(), p.result()), ("abc/def/3/ABC/DEF b - 13", None));
    // Issue 53 row 7: a placement SFEN whose ply leaves too few plies for its drops
    // would end the placement by condition 1 with the reserves read as captures (a sum
    // of seven at once): refused by both readers, with the reason.
    for sfen in ["3/3/3/3/3 b ABCDEFabcdef 12", "3/3/3/3/3 b ABCDEFabcdef 2", "abc/d2/3/ABC/DE1 w Fef 11"] {
        for read in [NumberShogi::from_sfen, NumberShogi::from_study_sfen] {
            let e = read(sfen, &rules()).map(|_| ()).unwrap_err().to_string();
            assert!(e.contains("drops still to come would run past ply 12"), "{sfen}: {e}");
        }
    }
}

#[test]
fn placement_hands_do_not_count_for_seven() {
    // The reserve holds 1+6 and more, but a placement position is not over.
    let p = NumberShogi::startpos(&rules());
    assert_eq!(p.result(), None);
    // The same board and hands read as a play-phase position (ply 13) would have both
    // hands making seven, which no game reaches (the first sum ends it): refused.
    let e = NumberShogi::from_sfen("3/3/3/3/3 b ABCDEFabcdef 13", &rules()).map(|_| ()).unwrap_err();
    assert!(e.to_string().contains("both hands already sum to seven"), "{e}");
    // One hand making seven in play: a finished game.
    let q = pos("3/3/3/3/3 w AFbd 13");
    assert!(!q.is_placement());
    assert_eq!(q.result(), Some(Outcome::Loss));
    // Placement state is part of the key: the same board and hands in and out of it.
    let (a, b) = (pos("abc/d2/3/ABC/DE1 w Fef 10"), pos("abc/d2/3/ABC/DE1 w Fef 13"));
    assert_ne!(a.key(), b.key(), "placement state is part of the key");
}

// ---------------------------------------------------------------- movement

#[test]
fn direction_table_default_moves() {
    // One sente piece of each value alone on 2c, moves listed from the owner's view.
    let cases = [
        ("A", vec!["2c2b"]),
        ("B", vec!["2c1b", "2c3b"]),
        ("C", vec!["2c1b", "2c2b", "2c3b"]),
        ("D", vec!["2c1b", "2c1d", "2c3b", "2c3d"]),
        ("E", vec!["2c1b", "2c1d", "2c2b", "2c3b", "2c3d"]),
        ("F", vec!["2c1c", "2c1b", "2c2b", "2c2d", "2c3b", "2c3c"]),
        ("+A", vec!["2c1b", "2c1c", "2c1d", "2c2b", "2c2d", "2c3b", "2c3c", "2c3d"]),
    ];
    for (piece, want) in cases {
        let p = pos(&format!("3/3/1{piece}1/3/3 b - 20"));
        let mut want: Vec<String> = want.into_iter().map(String::from).collect();
        want.sort();
        assert_eq!(tokens(&p), want, "{piece}");
    }
}

#[test]
fn gote_pieces_are_turned_half_round() {
    let p = pos("3/3/1f1/3/3 w - 20");
    // Gote's forward is down the diagram: N = 2d, NW = 1d (towards higher files from its view: 1).
    assert_eq!(tokens(&p), ["2c1c", "2c1d", "2c2b", "2c2d", "2c3c", "2c3d"]);
    let p = pos("3/3/1b1/3/3 w - 20");
    assert_eq!(tokens(&p), ["2c1d", "2c3d"]);
}

#[test]
fn captures_go_to_hand_face_up() {
    let mut p = pos("3/1+b1/1F1/3/3 b - 20");
    play(&mut p, "2c2b");
    assert_eq!(p.to_sfen(), "3/1F1/3/3/3 w B 21");
    assert_eq!(p.hand(Color::Sente)[2], 1);
}

#[test]
fn hand_output_order_a_to_f_with_counts() {
    let p = pos("3/3/3/3/3 b FCAAbd 30");
    assert_eq!(p.to_sfen(), "3/3/3/3/3 b 2ACFbd 30");
    let p = pos("3/3/3/3/3 b 2A1C 30");
    assert_eq!(p.to_sfen(), "3/3/3/3/3 b 2AC 30");
}

#[test]
fn drops_on_any_empty_square() {
    let p = pos("3/1a1/3/1A1/3 b C 20");
    let t = tokens(&p);
    let drops: Vec<&String> = t.iter().filter(|m| m.contains('*')).collect();
    assert_eq!(drops.len(), 13);
    assert!(t.contains(&"C*2a".to_string()) && t.contains(&"C*2e".to_string()));
    assert!(illegal_reason(&p, "C*2b").contains("occupied"));
    assert!(illegal_reason(&p, "D*2c").contains("no D"));
}

#[test]
fn drop_on_far_rank_cannot_promote_but_may_later() {
    let p = pos("3/3/2f/3/A2 b D 20");
    let t = tokens(&p);
    assert!(t.contains(&"D*2a".to_string()));
    assert!(t.iter().all(|m| !(m.contains('*') && m.ends_with('+'))));
    assert!(matches!(p.parse_move("D*2a+"), Err(MoveError::Syntax(_))));
    // On the next own move the dropped piece may promote as it leaves the far rank.
    let p = played("3/3/2f/3/A2 b D 20", &["D*2a", "1c1b"]);
    let t = tokens(&p);
    assert!(t.contains(&"2a1b".to_string()) && t.contains(&"2a1b+".to_string()), "{t:?}");
    assert!(t.contains(&"2a3b+".to_string()));
}

#[test]
fn promotion_on_entering_the_far_rank_and_eight_moves_all_ways() {
    let mut p = pos("3/1A1/3/3/3 b - 20");
    assert_eq!(tokens(&p), ["2b2a", "2b2a+"]);
    play(&mut p, "2b2a+");
    assert_eq!(p.to_sfen(), "1+A1/3/3/3/3 w - 21");
    let p = pos("1+A1/3/3/3/3 b - 22");
    assert_eq!(tokens(&p), ["2a1a", "2a1b", "2a2b", "2a3a", "2a3b"]);
    // Gote promotes on rank e.
    let p = pos("3/3/3/1a1/3 w - 20");
    assert_eq!(tokens(&p), ["2d2e", "2d2e+"]);
}

#[test]
fn no_promotion_away_from_the_far_rank_or_twice() {
    let p = pos("3/3/1C1/3/3 b - 20");
    assert!(tokens(&p).iter().all(|m| !m.ends_with('+')));
    assert!(illegal_reason(&p, "2c2b+").contains("far rank"));
    let p = pos("3/1+C1/3/3/3 b - 20");
    assert!(illegal_reason(&p, "2b2a+").contains("already promoted"));
}

#[test]
fn promotion_off_switch() {
    let mut r = rules();
    NumberShogi::set_rule(&mut r, "NumberShogiPromotion", "off").unwrap();
    assert!(!r.promotion);
    let p = pos_with("3/1A1/3/3/3 b - 20", &r);
    assert_eq!(tokens(&p), ["2b2a"]);
    assert!(illegal_reason(&p, "2b2a+").contains("switched off"));
    // An "8" already on the board still moves all ways.
    let p = pos_with("3/3/1+A1/3/3 b - 20", &r);
    assert_eq!(tokens(&p).len(), 8);
    assert!(NumberShogi::set_rule(&mut r, "NumberShogiPromotion", "maybe").is_err());
    assert!(!r.promotion);
    NumberShogi::set_rule(&mut r, "NumberShogiPromotion", "on").unwrap();
    assert!(r.promotion);
}

#[test]
fn pieces_stuck_on_the_last_rank() {
    // 1, 2 and 3 have no move on the far rank (nothing points backwards).
    for piece in ["A", "B", "C"] {
        let p = pos(&format!("1{piece}1/3/3/3/3 b - 20"));
        assert!(tokens(&p).is_empty(), "{piece}");
        assert_eq!(p.result(), None);
        assert_eq!(p.no_move_outcome(), Outcome::Loss);
    }
    // Gote's 1 on rank e likewise; with a hand the side can still drop.
    let p = pos("3/3/3/3/1a1 w b 20");
    assert!(tokens(&p).iter().all(|m| m.starts_with("B*")));
    assert_eq!(tokens(&p).len(), 14);
    assert_eq!(perft(&pos("1A1/3/3/3/3 b - 20"), 1), 0);
}

// ---------------------------------------------------------------- the sum of seven

fn assert_won_by(before: &str, mv: &str, after: &str) {
    let mut p = pos(before);
    assert_eq!(p.result(), None, "{before}");
    let mover = p.side_to_move();
    play(&mut p, mv);
    assert_eq!(p.to_sfen(), after);
    assert_eq!(p.result(), Some(Outcome::Loss), "the side to move was just beaten");
    assert_eq!(p.side_to_move(), mover.flip());
    assert!(tokens(&p).is_empty());
    assert_eq!(perft(&p, 1), 0);
    assert!(matches!(p.parse_move("1a1b"), Err(MoveError::GameOver(_))));
    // Read back, the finished position is still finished.
    let q = pos(after);
    assert_eq!(q.result(), Some(Outcome::Loss));
    assert_eq!(q.key(), p.key());
}

#[test]
fn sum_one_plus_six() {
    assert_won_by("3/3/1a1/1A1/3 b F 20", "2d2c", "3/3/1A1/3/3 w AF 21");
}

#[test]
fn sum_three_plus_four() {
    assert_won_by("3/1d1/1C1/3/3 b C 20", "2c2b", "3/1C1/3/3/3 w CD 21");
}

#[test]
fn sum_one_plus_two_plus_four() {
    assert_won_by("3/1d1/1C1/3/3 b AB 20", "2c2b", "3/1C1/3/3/3 w ABD 21");
}

#[test]
fn sum_one_plus_one_plus_five() {
    assert_won_by("3/1e1/1C1/3/3 b 2A 20", "2c2b", "3/1C1/3/3/3 w 2AE 21");
}

#[test]
fn sum_two_plus_two_plus_three() {
    assert_won_by("3/1c1/1C1/3/3 b 2B 20", "2c2b", "3/1C1/3/3/3 w 2BC 21");
}

#[test]
fn sum_by_gote() {
    assert_won_by("3/1F1/1+f1/3/3 w a 20", "2c2b", "3/1+f1/3/3/3 b af 21");
}

#[test]
fn captured_eight_counts_by_its_face() {
    // +A is an "8" but counts 1: with a 6 in hand that makes 7.
    assert_won_by("3/1+a1/1C1/3/3 b F 20", "2c2b", "3/1C1/3/3/3 w AF 21");
    // An "8" worth 2 with a 6 in hand makes 8, not 7: play goes on.
    let p = played("3/1+b1/1C1/3/1e1 b F 20", &["2c2b"]);
    assert_eq!(p.result(), None);
    assert_eq!(p.to_sfen(), "3/1C1/3/3/1e1 w BF 21");
}

#[test]
fn sums_other_than_seven_do_not_win() {
    // 6 + 3 = 9, 5 + 6 = 11, 2 + 4 = 6.
    for (before, mv) in
        [("3/1c1/1C1/3/1e1 b F 20", "2c2b"), ("3/1e1/1C1/3/1e1 b F 20", "2c2b"), ("3/1d1/1C1/3/1e1 b B 20", "2c2b")]
    {
        let p = played(before, &[mv]);
        assert_eq!(p.result(), None, "{before} {mv}");
        assert!(!tokens(&p).is_empty());
    }
}

#[test]
fn a_drop_never_wins() {
    // The win comes from a capture; dropping keeps the hand's remaining sums out of 7.
    let p = played("3/3/3/3/2e b BF 20", &["B*2c"]);
    assert_eq!(p.result(), None);
}

#[test]
fn finished_sfen_has_no_moves() {
    // Sente just made 1+6: gote to move has lost.
    let p = pos("3/3/1A1/3/1e1 w AF 21");
    assert_eq!(p.result(), Some(Outcome::Loss));
    assert!(tokens(&p).is_empty());
    // The side to move holding 7 has won.
    let p = pos("3/3/1A1/3/1e1 b AF 21");
    assert_eq!(p.result(), Some(Outcome::Win));
    assert!(tokens(&p).is_empty());
}

// ---------------------------------------------------------------- switches

#[test]
fn piece_moves_table_parsing_errors() {
    let mut r = rules();
    let before = r.clone();
    let bad = [
        ("", "missing"),
        ("1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE", "6 is missing"),
        ("1:N 1:S 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S", "twice"),
        ("1:N 2:NW,NE 3:N,NW,XX 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S", "unknown direction"),
        ("1:N 2:NW,NW 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S", "twice"),
        ("1:N 2:NW 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S", "exactly 2"),
        ("1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 7:N,NW,NE,W,E,S", "1..6"),
        ("1-N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S", "VALUE:DIRS"),
    ];
    for (text, why) in bad {
        let e = NumberShogi::set_rule(&mut r, "NumberShogiPieceMoves", text).unwrap_err();
        assert_eq!(e.name, "NumberShogiPieceMoves");
        assert!(e.why.contains(why), "{text}: {}", e.why);
        assert_eq!(r, before, "a bad table keeps the old one");
    }
    assert!(NumberShogi::set_rule(&mut r, "NoSuchOption", "x").is_err());
}

#[test]
fn piece_moves_table_switch_changes_moves() {
    let mut r = rules();
    // The old-style 3 and 4 of a hypothetical printing: 3 = N,W,E and 4 = N,S,W,E.
    let table = "1:N 2:NW,NE 3:N,W,E 4:N,W,E,S 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S";
    NumberShogi::set_rule(&mut r, "NumberShogiPieceMoves", table).unwrap();
    assert_eq!(r.table(), table, "written back in the documented order");
    assert_eq!(Rules::default().table(), NumberShogi::switches()[0].info.default);
    let p = pos_with("3/3/1C1/3/3 b - 20", &r);
    assert_eq!(tokens(&p), ["2c1c", "2c2b", "2c3c"]);
    let p = pos_with("3/3/1d1/3/3 w - 20", &r);
    assert_eq!(tokens(&p), ["2c1c", "2c2b", "2c2d", "2c3c"]);
    // Case and spacing are forgiving.
    NumberShogi::set_rule(
        &mut r,
        "NumberShogiPieceMoves",
        " 6:n,nw,ne,w,e,s 1:n  2:nw,ne 3:n,nw,ne 4:nw,ne,sw,se 5:n,nw,ne,sw,se ",
    )
    .unwrap();
    assert_eq!(r, Rules::default());
}

// ---------------------------------------------------------------- notation

#[test]
fn exact_moves_of_a_middlegame() {
    let p = pos("c1b/e1+d/1f1/DA1/B1C b Ea 31");
    let t = tokens(&p);
    assert_eq!(t.iter().filter(|m| m.starts_with("E*")).count(), 6);
    let board: Vec<&str> = t.iter().filter(|m| !m.contains('*')).map(|s| s.as_str()).collect();
    // D: NE takes the 6, SE back to 2e; A takes the 6; C steps up; B is blocked.
    assert_eq!(board, ["1e1d", "2d2c", "3d2c", "3d2e"]);
    assert_eq!(perft(&p, 1), 10);
}

#[test]
fn parse_move_syntax_errors() {
    let p = pos(SETUP);
    for bad in ["", "3d", "3d2", "3d3d", "4d3c", "3f3e", "3d2c=", "3d2c++", "a*2c", "G*2c", "D*4c", "D2c", "3d 2c"] {
        assert!(matches!(p.parse_move(bad), Err(MoveError::Syntax(_))), "{bad:?}");
    }
}

#[test]
fn parse_move_illegal_reasons() {
    let p = pos("cfb/e1d/3/DAE/BFC b A 20");
    assert!(illegal_reason(&p, "2c2b").contains("no piece"));
    assert!(illegal_reason(&p, "2a2b").contains("not yours"));
    assert!(illegal_reason(&p, "3e3d").contains("cannot step"));
    assert!(illegal_reason(&p, "2e2d").contains("own piece"));
    assert!(illegal_reason(&p, "2d1c").contains("cannot step"));
    assert!(illegal_reason(&p, "B*2c").contains("no B"));
    assert!(p.parse_move("A*2c").is_ok());
}

#[test]
fn every_legal_token_parses_to_its_move() {
    for sfen in [SETUP, "c1b/e1+d/1f1/DA1/B1C b Ea 31", "3/3/3/3/3 b ABCDEFabcdef 1", "1+A1/3/1b1/3/3 w AC 40"] {
        let p = pos(sfen);
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        let mut seen = std::collections::HashSet::new();
        for &m in &v {
            let t = p.format_move(m);
            assert!(seen.insert(t.clone()), "{t} twice");
            assert_eq!(p.parse_move(&t), Ok(m));
        }
    }
}

#[test]
fn sfen_errors() {
    let r = rules();
    for bad in [
        "",
        "3/3/3/3 b - 1",
        "3/3/3/3/3/3 b - 1",
        "4/3/3/3/3 b - 1",
        "2/3/3/3/3 b - 1",
        "3/3/3/3/3 x - 1",
        "3/3/3/3/3 b G 1",
        "3/3/3/3/3 b - 0",
        "3/3/3/3/3 b - x",
        "3/3/1+1/3/3 b - 1",
        "3/3/1G1/3/3 b - 1",
        "3/3/3/3/3 b 3A 1",
        "AAA/3/3/3/3 b - 1",
        "3/3/3/3/3 b 2 1",
        "3/3/3/3/3 b - 1 extra",
        "3/3/3/3/2+ b - 1",
    ] {
        assert!(NumberShogi::from_sfen(bad, &r).is_err(), "{bad:?}");
    }
    // Ply is optional.
    assert_eq!(pos("cfb/ead/3/DAE/BFC b -").to_sfen(), "cfb/ead/3/DAE/BFC b - 1");
}

/// Issue 11, class 12: no piece ever leaves a game of Number Shogi, so a position must
/// hold every value exactly twice (board and hands together, any owner, any side up).
#[test]
fn numbershogi_rejects_impossible_piece_counts() {
    let r = rules();
    for bad in [
        "3/3/3/3/3 b - 1",
        "+A+B+C/3/3/3/3 b - 1",
        "3/3/3/3/3 b ABCDEFabcde 1",
        "cfb/ead/3/DAE/BF1 b - 1",
        "cfb/ead/3/DAE/BF1 b - 30",
        "e1f/1d1/1F1/D1E/1C1 b ABc 40",
    ] {
        let e = NumberShogi::from_sfen(bad, &r).expect_err(bad);
        assert!(e.to_string().contains("exactly two"), "{bad}: {e}");
    }
    for good in [
        "cfb/ead/3/DAE/BFC b - 1",
        "cfb/ead/3/DAE/+BFC w - 30",
        "e1f/1d1/1F1/D1E/1C1 b ABabc 40",
        "3/3/3/3/3 b ABCDEFabcdef 1",
    ] {
        assert!(NumberShogi::from_sfen(good, &r).is_ok(), "{good}");
    }
}

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

#[test]
fn from_sfen_never_panics_on_mutated_strings() {
    let seeds = [
        SETUP,
        "c1b/e1+d/1f1/DA1/B1C b Ea 31",
        "3/3/3/3/3 b ABCDEFabcdef 1",
        "1+A1/3/1b1/3/3 w 2AC 40",
        "abc/d2/3/ABC/DE1 w Fef 13",
        "c2/3/3/DA1/3 w BCEFabdef 4",
    ];
    let alphabet: Vec<char> = "0123456789/+- abcdefgABCDEFGbwxX*\u{3042}".chars().collect();
    let mut rng = Rng::with_seed(0x1234_5678_9abc_def1);
    let mut accepted = 0;
    for i in 0..1200 {
        let mut s: Vec<char> = seeds[i % seeds.len()].chars().collect();
        for _ in 0..1 + rng.usize(..4) {
            let at = rng.usize(..s.len() + 1);
            match rng.usize(..3) {
                0 if at < s.len() => {
                    s.remove(at);
                }
                1 => s.insert(at, alphabet[rng.usize(..alphabet.len())]),
                _ if at < s.len() => s[at] = alphabet[rng.usize(..alphabet.len())],
                _ => {}
            }
        }
        let text: String = s.into_iter().collect();
        // Both readers must survive any string; study positions (pieces out of play)
        // are the ones that stay valid often enough to exercise the rest.
        let strict = NumberShogi::from_sfen(&text, &rules());
        if let Ok(p) = NumberShogi::from_study_sfen(&text, &rules()) {
            accepted += 1;
            let back = p.to_sfen();
            assert_eq!(strict.is_ok(), NumberShogi::from_sfen(&back, &rules()).is_ok(), "{text}");
            let q = NumberShogi::from_study_sfen(&back, &rules()).unwrap();
            assert_eq!(q.to_sfen(), back);
            let mut v = Vec::new();
            q.legal_moves(&mut v);
            let _ = q.evaluate();
        }
    }
    assert!(accepted > 20, "some mutations stay valid ({accepted})");
}

#[test]
fn random_games_round_trip_and_keep_the_key() {
    let mut rng = Rng::with_seed(42);
    let mut v = Vec::new();
    for _ in 0..60 {
        let mut p = NumberShogi::startpos(&rules());
        for _ in 0..80 {
            let back = pos(&p.to_sfen());
            assert_eq!(back.to_sfen(), p.to_sfen());
            assert_eq!(back.key(), p.key(), "{}", p.to_sfen());
            assert_eq!(back.result(), p.result());
            assert_eq!(back.is_placement(), p.is_placement());
            let e = p.evaluate();
            assert!(e.abs() <= 20000);
            v.clear();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            let m = v[rng.usize(..v.len())];
            assert_eq!(p.parse_move(&p.format_move(m)), Ok(m));
            p.play(m);
        }
    }
}

// ---------------------------------------------------------------- engine hooks

#[test]
fn tactical_moves_are_captures_and_promotions() {
    let p = pos("3/1a1/1A1/1F1/3 b C 20");
    let cap = p.parse_move("2c2b").unwrap();
    let promo = pos("3/1A1/3/3/3 b - 20").parse_move("2b2a+").unwrap();
    let quiet = p.parse_move("2d1c").unwrap();
    let drop = p.parse_move("C*1a").unwrap();
    assert!(p.is_tactical(cap));
    assert!(pos("3/1A1/3/3/3 b - 20").is_tactical(promo));
    assert!(!p.is_tactical(quiet));
    assert!(!p.is_tactical(drop));
    assert!(p.order_score(cap) > p.order_score(quiet));
}

#[test]
fn winning_capture_is_ordered_first_and_evaluated_as_won() {
    // Sente holds 6: taking the 1 wins, taking the 3 does not.
    let p = pos("3/ac1/AC1/3/3 b F 20");
    let win = p.parse_move("3c3b").unwrap();
    let other = p.parse_move("2c2b").unwrap();
    assert!(p.order_score(win) > p.order_score(other));
    assert!(p.evaluate() >= 5000);
}

#[test]
fn book_move_places_own_pieces_only_on_own_camp() {
    // The arrangement is an engine switch (`NumberShogiArrangement`) the position carries.
    let choice = BookChoice { random: 7 };
    let fixed = Rules { arrangement: Some(setup::ARRANGEMENT), ..rules() };
    let mixed = rules();
    let played = |r: &Rules, sfen: &str, moves: &[&str]| {
        let mut p = pos_with(sfen, r);
        for m in moves {
            play(&mut p, m);
        }
        p
    };
    let mut p = NumberShogi::startpos(&fixed);
    for _ in 0..12 {
        let m = p.book_move(&choice).expect("a placement move");
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert!(v.contains(&m));
        p.play(m);
    }
    assert!(!p.is_placement());
    // The studied arrangement (setup.rs): 3, 5, 6 in front, their complements 4, 2, 1 behind.
    assert_eq!(p.to_sfen(), "adb/cef/3/FEC/BDA b - 13");
    assert_eq!(p.book_move(&choice), None);
    let mut after = p.clone();
    after.take_switches(&mixed);
    assert_eq!(after.book_move(&choice), None);
    // Gote's choice does not depend on where sente's pieces stand (given the same random
    // number), whether fixed or drawn from the mix.
    for r in [&fixed, &mixed] {
        let a = played(r, "3/3/3/3/3 b ABCDEFabcdef 1", &["D*3d"]);
        let b = played(r, "3/3/3/3/3 b ABCDEFabcdef 1", &["F*1e"]);
        assert_eq!(a.book_move(&choice), b.book_move(&choice));
        let a = played(r, "3/3/3/3/3 b ABCDEFabcdef 1", &["D*3d", "A*3a", "A*2e"]);
        let b = played(r, "3/3/3/3/3 b ABCDEFabcdef 1", &["F*1e", "A*3a", "C*2d"]);
        assert_eq!(a.book_move(&choice), b.book_move(&choice));
    }
    // If a square of the arrangement is taken, another camp square is used.
    let p = played(
        &fixed,
        "3/3/3/3/3 b ABCDEFabcdef 1",
        &["A*3d", "A*3a", "B*2d", "B*2a", "C*1d", "C*1a", "D*3e", "D*3b", "E*2e", "E*2b"],
    );
    let m = p.book_move(&choice).unwrap();
    assert_eq!(p.format_move(m), "F*1e");
}

#[test]
fn full_game_from_startpos_to_a_win() {
    let mut p = NumberShogi::startpos(&rules());
    let moves = [
        // placement
        "D*3d", "C*3a", "A*2d", "F*2a", "E*1d", "B*1a", "B*3e", "E*3b", "F*2e", "A*2b", "C*1e", "D*1b",
        // play
        // play: an exchange on 2c, then gote's 5 takes the 6 with 1 in hand: 1+6
        "2d2c", "2b2c", "1d2c", "1b2c", "3d2c", "3b2c", "2e2d", "2c2d",
    ];
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(p.result(), None, "ply {}", i + 1);
        play(&mut p, m);
    }
    assert_eq!(p.to_sfen(), "cfb/3/3/1e1/B1C b ADadef 21");
    assert_eq!(p.result(), Some(Outcome::Loss));
    assert_eq!(p.side_to_move(), Color::Sente);
    assert!(tokens(&p).is_empty());
}

/// The same position with the colours exchanged (board turned half round, cases and
/// hands swapped, the other side to move).
fn colour_flipped(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let swap = |c: char| {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    };
    // Expand the board to 15 cells of optional "+X" strings.
    let mut cells: Vec<String> = Vec::new();
    let mut plus = false;
    for ch in f[0].chars() {
        match ch {
            '/' => {}
            '1'..='3' => (0..ch as usize - '0' as usize).for_each(|_| cells.push(String::new())),
            '+' => plus = true,
            c => {
                cells.push(format!("{}{}", if plus { "+" } else { "" }, swap(c)));
                plus = false;
            }
        }
    }
    cells.reverse();
    let rows: Vec<String> = cells
        .chunks(3)
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for c in r {
                if c.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(c);
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    let hand: String = if f[2] == "-" { "-".into() } else { f[2].chars().map(swap).collect() };
    let side = if f[1] == "b" { "w" } else { "b" };
    format!("{} {side} {hand} {}", rows.join("/"), f.get(3).unwrap_or(&"1"))
}

#[test]
fn evaluation_and_moves_are_colour_symmetric() {
    let mut rng = Rng::with_seed(7);
    let mut v = Vec::new();
    let mut checked = 0;
    for _ in 0..40 {
        let mut p = NumberShogi::startpos(&rules());
        for _ in 0..60 {
            let sfen = p.to_sfen();
            // (placement is not symmetric: sente always places first)
            if p.is_placement() {
                v.clear();
                p.legal_moves(&mut v);
                p.play(v[rng.usize(..v.len())]);
                continue;
            }
            let q = pos(&colour_flipped(&sfen));
            assert_eq!(q.evaluate(), p.evaluate(), "{sfen}");
            assert_eq!(perft(&q, 2), perft(&p, 2), "{sfen}");
            assert_eq!(q.result(), p.result(), "{sfen}");
            checked += 1;
            v.clear();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            p.play(v[rng.usize(..v.len())]);
        }
    }
    assert!(checked > 200, "{checked}");
}
