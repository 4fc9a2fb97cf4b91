//! 66 shogi: one named test per rule of rules.md §1 (and the §0 conventions it uses),
//! on small hand-made positions with exact move sets, counts and SFENs.

use koma::game::{BookChoice, Color, Game, MoveError, Outcome, Strategy};
use koma::games::shogi66::Shogi66;

const START: &str = "6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1";
/// A RokuRokuGUI-style placement: 12 drops.
const SETUP: [&str; 12] =
    ["K*2f", "K*5a", "G*1f", "G*6a", "S*3f", "S*4a", "R*5f", "R*2a", "N*4f", "N*3a", "L*6f", "L*1a"];

fn pos(sfen: &str) -> Shogi66 {
    match Shogi66::from_sfen(sfen, &Default::default()) {
        Ok(p) => p,
        Err(e) => panic!("{sfen}: {e}"),
    }
}

fn moves(p: &Shogi66) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut s: Vec<String> = v.iter().map(|&m| p.format_move(m)).collect();
    s.sort();
    s
}

fn play(p: &mut Shogi66, tokens: &[&str]) {
    for t in tokens {
        match p.parse_move(t) {
            Ok(m) => p.play(m),
            Err(e) => panic!("{t} in {}: {e}", p.to_sfen()),
        }
    }
}

fn illegal_reason(p: &Shogi66, token: &str) -> String {
    match p.parse_move(token) {
        Err(MoveError::Illegal(_, why)) => why,
        other => panic!("{token} in {}: expected Illegal, got {other:?}", p.to_sfen()),
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut s: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    s.sort();
    s
}

#[test]
fn startpos_is_the_rules_start() {
    let p = Shogi66::startpos(&Default::default());
    assert_eq!(p.to_sfen(), START);
    assert_eq!(p.side_to_move(), Color::Sente);
    assert!(p.in_placement());
    assert!(!p.in_check());
}

#[test]
fn placement_drops_go_on_the_own_camp_only() {
    let mut p = Shogi66::startpos(&Default::default());
    let m = moves(&p);
    assert_eq!(m.len(), 42); // 7 kinds x 6 empty squares of rank f
    assert!(m.iter().all(|t| t.ends_with('f') && t.as_bytes()[1] == b'*'));
    play(&mut p, &["K*1f"]);
    let m = moves(&p);
    assert_eq!(m.len(), 42);
    assert!(m.iter().all(|t| t.ends_with('a')));
    assert!(illegal_reason(&p, "K*1c").contains("own camp"));
    assert!(illegal_reason(&p, "P*1a").contains("no P"));
}

#[test]
fn placing_rook_boxes_bishop() {
    let mut p = Shogi66::startpos(&Default::default());
    play(&mut p, &["R*2f"]);
    assert_eq!(p.to_sfen(), "6/pppppp/6/6/PPPPPP/4R1 w KGSNLkrbgsnl 2");
    play(&mut p, &["K*5a"]);
    assert!(illegal_reason(&p, "B*3f").contains("boxed"));
    assert_eq!(moves(&p).len(), 5 * 5);
}

#[test]
fn placing_bishop_boxes_rook() {
    let mut p = Shogi66::startpos(&Default::default());
    play(&mut p, &["K*2f", "B*5a"]);
    assert_eq!(p.to_sfen(), "1b4/pppppp/6/6/PPPPPP/4K1 b RBGSNLkgsnl 3");
    play(&mut p, &["G*1f"]);
    assert!(illegal_reason(&p, "R*1a").contains("boxed"));
}

#[test]
fn no_board_move_during_placement() {
    let mut p = Shogi66::startpos(&Default::default());
    assert!(illegal_reason(&p, "1e1d").contains("placement"));
    play(&mut p, &SETUP[..11]);
    assert!(p.in_placement());
    assert_eq!(moves(&p), strs(&["L*1a"]));
    assert!(illegal_reason(&p, "1b1c").contains("placement"));
}

#[test]
fn placement_ends_after_twelve_plies() {
    let mut p = Shogi66::startpos(&Default::default());
    play(&mut p, &SETUP);
    assert!(!p.in_placement());
    assert_eq!(p.to_sfen(), "gksnrl/pppppp/6/6/PPPPPP/LRNSKG b - 13");
    assert_eq!(moves(&p), strs(&["1e1d", "2e2d", "3e3d", "4e4d", "5e5d", "6e6d", "4f3d", "4f5d"]));
    play(&mut p, &["1e1d", "1b1c", "1d1c", "1a1c"]);
    assert_eq!(p.to_sfen(), "gksnr1/ppppp1/5l/6/PPPPP1/LRNSKG b Pp 17");
}

#[test]
fn placement_sfen_round_trips() {
    let mut p = Shogi66::startpos(&Default::default());
    for t in SETUP {
        let q = pos(&p.to_sfen());
        assert_eq!(q.to_sfen(), p.to_sfen());
        assert_eq!(q.key(), p.key());
        assert_eq!(moves(&q), moves(&p));
        assert_eq!(q.in_placement(), p.in_placement());
        play(&mut p, &[t]);
    }
    let q = pos(&p.to_sfen());
    assert_eq!((q.to_sfen(), q.key(), moves(&q)), (p.to_sfen(), p.key(), moves(&p)));
}

#[test]
fn placement_needs_all_five_conditions() {
    // Sente has placed 5, gote 4, sente to move: condition 5 fails, so this is play
    // (the hands are captured pieces) and board moves are legal.
    let p = pos("lr1sk1/pppppp/6/6/PPPPPP/GKSN1L b Rgn 11");
    assert!(!p.in_placement());
    assert!(moves(&p).contains(&"1e1d".to_string()));
    // Ply 13: no longer placement, and a king in hand is then impossible.
    assert!(Shogi66::from_sfen("6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 13", &Default::default()).is_err());
    // The same position with the right counts is placement.
    let p = pos("lr1skg/pppppp/6/6/PPPPPP/GKSN1L b RBn 11");
    assert!(p.in_placement());
    assert_eq!(moves(&p), strs(&["R*2f", "B*2f"]));
}

#[test]
fn pawn_drop_mate_is_illegal() {
    let p = pos("5k/6/3NG1/6/6/K5 b P 1");
    assert!(!moves(&p).contains(&"P*1b".to_string()));
    assert!(illegal_reason(&p, "P*1b").contains("pawn-drop mate"));
    // 27 empty squares off rank a, less the mating 1b.
    assert_eq!(moves(&p).iter().filter(|t| t.starts_with("P*")).count(), 26);
}

#[test]
fn pawn_drop_mate_with_pinned_defender_is_illegal() {
    // The gold on 2a could take the pawn but is pinned by the rook on 4a.
    let p = pos("2R1gk/6/3NG1/6/6/K5 b P 1");
    assert!(illegal_reason(&p, "P*1b").contains("pawn-drop mate"));
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    let mut p = pos("4gk/6/3NG1/6/6/K5 b P 1");
    play(&mut p, &["P*1b"]);
    assert!(p.in_check());
    assert_eq!(moves(&p), strs(&["2a1b"]));
}

#[test]
fn pawn_move_mate_is_legal() {
    let mut p = pos("5k/6/3NGP/6/6/K5 b - 1");
    play(&mut p, &["1c1b"]);
    assert!(p.in_check());
    assert!(moves(&p).is_empty());
}

#[test]
fn checkmate_has_no_moves() {
    let p = pos("5k/5P/3NG1/6/6/K5 w - 2");
    assert!(p.in_check());
    assert!(moves(&p).is_empty());
    assert_eq!(p.no_move_outcome(), Outcome::Loss);
    assert_eq!(p.result(), None);
    assert!(matches!(p.parse_move("1a2a"), Err(MoveError::GameOver(_))));
}

#[test]
fn nifu_is_illegal() {
    let p = pos("k5/6/1P1+P2/6/P5/5K b 2Pp 1");
    let m = moves(&p);
    assert!(illegal_reason(&p, "P*5d").contains("nifu"));
    assert!(illegal_reason(&p, "P*6b").contains("nifu"));
    // A tokin does not count.
    assert!(m.contains(&"P*3d".to_string()));
    // Files 4, 3, 2, 1 on ranks b..f, less the occupied 3c and 1f: 4*5 - 2.
    assert_eq!(m.iter().filter(|t| t.starts_with("P*")).count(), 18);
}

#[test]
fn pawn_and_lance_cannot_drop_on_the_last_rank() {
    let p = pos("k5/6/6/6/6/5K b PL 1");
    assert!(illegal_reason(&p, "P*3a").contains("no further move"));
    assert!(illegal_reason(&p, "L*3a").contains("no further move"));
    assert!(moves(&p).contains(&"L*3b".to_string()));
    let p = pos("k5/6/6/6/6/5K w pl 1");
    assert!(illegal_reason(&p, "P*3f").contains("no further move"));
    assert!(moves(&p).contains(&"P*3e".to_string()));
}

#[test]
fn knight_cannot_drop_on_the_last_two_ranks() {
    let p = pos("k5/6/6/6/6/5K b N 1");
    assert!(illegal_reason(&p, "N*3a").contains("no further move"));
    assert!(illegal_reason(&p, "N*3b").contains("no further move"));
    assert_eq!(moves(&p).iter().filter(|t| t.starts_with("N*")).count(), 6 * 4 - 1);
}

#[test]
fn knight_must_promote_on_last_two_ranks() {
    let p = pos("k5/3P2/1LN3/4Nl/2p3/K5 b Gsp 1");
    let m = moves(&p);
    for t in ["4c3a+", "4c5a+", "2d1b+"] {
        assert!(m.contains(&t.to_string()), "{t}");
    }
    assert!(illegal_reason(&p, "4c3a").contains("must promote"));
    assert!(illegal_reason(&p, "2d1b").contains("must promote"));
}

#[test]
fn pawn_and_lance_must_promote_on_the_last_rank() {
    let p = pos("k5/3P2/1LN3/4Nl/2p3/K5 b Gsp 1");
    let m = moves(&p);
    assert!(m.contains(&"3b3a+".to_string()));
    assert!(illegal_reason(&p, "3b3a").contains("must promote"));
    assert!(m.contains(&"5c5b".to_string()) && m.contains(&"5c5b+".to_string()));
    assert!(m.contains(&"5c5a+".to_string()));
    assert!(illegal_reason(&p, "5c5a").contains("must promote"));
    // Gote the same way round.
    let mut q = p;
    play(&mut q, &["G*6d"]);
    let m = moves(&q);
    assert!(m.contains(&"4e4f+".to_string()) && !m.contains(&"4e4f".to_string()));
    assert!(m.contains(&"1d1e".to_string()) && m.contains(&"1d1e+".to_string()) && m.contains(&"1d1f+".to_string()));
    assert!(!m.contains(&"1d1f".to_string()));
}

#[test]
fn promotion_is_optional_entering_leaving_or_inside_the_zone() {
    let p = pos("k5/4S1/6/2S3/6/5K b - 1");
    let m = moves(&p);
    // Entering.
    assert!(m.contains(&"4d4c".to_string()) && !m.contains(&"4d4c+".to_string()));
    let p2 = pos("k5/6/2S3/6/6/5K b - 1");
    let m2 = moves(&p2);
    assert!(m2.contains(&"4c4b".to_string()) && m2.contains(&"4c4b+".to_string()));
    // Leaving and inside.
    assert!(m.contains(&"2b3c".to_string()) && m.contains(&"2b3c+".to_string()));
    assert!(m.contains(&"2b2a".to_string()) && m.contains(&"2b2a+".to_string()));
    assert!(illegal_reason(&p, "4d4c+").contains("promotion zone"));
}

#[test]
fn king_and_gold_do_not_promote() {
    let p = pos("k5/4G1/6/6/6/5K b - 1");
    assert!(illegal_reason(&p, "2b2a+").contains("cannot promote"));
    assert!(moves(&p).contains(&"2b2a".to_string()));
}

#[test]
fn captured_pieces_go_to_hand_unpromoted() {
    let mut p = pos("k5/6/6/3+r2/2G3/5K b - 1");
    play(&mut p, &["4e3d"]);
    assert_eq!(p.to_sfen(), "k5/6/6/3G2/6/5K w R 2");
    let mut p = pos("k5/6/6/3+p2/2G3/5K b - 1");
    play(&mut p, &["4e3d"]);
    assert_eq!(p.to_sfen(), "k5/6/6/3G2/6/5K w P 2");
}

#[test]
fn no_move_may_leave_the_king_in_check() {
    // The silver on 5d is pinned by the bishop; sente is in check from the rook on 3a.
    let p = pos("3r1k/6/b5/1S4/6/3K2 b GPs 1");
    assert!(p.in_check());
    assert!(illegal_reason(&p, "5d4c").contains("in check"));
    assert_eq!(
        moves(&p),
        strs(&["3f2e", "3f2f", "3f4e", "3f4f", "G*3b", "G*3c", "G*3d", "G*3e", "P*3b", "P*3c", "P*3d", "P*3e"])
    );
}

#[test]
fn double_check_allows_only_king_moves() {
    let p = pos("3r1k/6/b5/1S2n1/6/3K2 b GPs 1");
    assert!(p.in_check());
    assert_eq!(moves(&p), strs(&["3f2e", "3f2f", "3f4e", "3f4f"]));
}

#[test]
fn move_tokens_are_checked() {
    let p = pos("k5/6/6/6/2S3/5K b P 1");
    for bad in ["", "1a", "7a1a", "1g1f", "1f1f", "K*", "p*3d", "x*3d", "P*3", "4e4d++", "4e4d=", "4e4d+x", " 4e4d"] {
        assert!(matches!(p.parse_move(bad), Err(MoveError::Syntax(_))), "{bad:?}");
    }
    assert!(illegal_reason(&p, "3e3d").contains("no piece"));
    assert!(illegal_reason(&p, "4e4c").contains("cannot move"));
    assert!(illegal_reason(&p, "G*3d").contains("no G"));
    assert!(illegal_reason(&p, "P*4e").contains("occupied"));
    assert!(p.parse_move("P*3d").is_ok());
}

#[test]
fn sfen_rejects_impossible_positions() {
    for bad in [
        "k5/6/6/6/6/5K b - 0",
        "k5/6/6/6/6/5K b",
        "k5/6/6/6/6/5K x - 1",
        "k5/6/6/6/6/5 b - 1",
        "kk4/6/6/6/6/5K b - 1",
        "k5/6/6/6/6/5K b K 1",
        "k5/P5/6/6/P5/5K b - 1",
        "P4k/6/6/6/6/5K b - 1",
        "k5/N5/6/6/6/5K b - 1",
        "k5/R5/6/6/6/5K b - 1",
        "k5/6/6/6/6/4+GK b - 1",
        "k5/6/6/6/6/5K b 13P 1",
        "k5/6/6/6/6/5K b 3S 1",
        "k5/6/6/6/6/5K b RBr 1",
        "k6/6/6/6/6/5K b - 1",
        "k5/6/6/6/6/6/5K b - 1",
    ] {
        assert!(Shogi66::from_sfen(bad, &Default::default()).is_err(), "{bad}");
    }
}

#[test]
fn sfen_hands_accept_any_order_and_print_in_order() {
    let p = pos("k5/6/6/6/6/5K b PPpRg 7");
    assert_eq!(p.to_sfen(), "k5/6/6/6/6/5K b R2Pgp 7");
    let p = pos("k5/6/6/6/6/5K w - ");
    assert_eq!(p.to_sfen(), "k5/6/6/6/6/5K w - 1");
}

/// A seeded generator's next number, so failures reproduce.
fn lcg(rng: &mut fastrand::Rng) -> usize {
    rng.usize(..)
}

/// Positions from seeded random games (placement included).
fn random_games(n: usize, seed: u64) -> Vec<Shogi66> {
    let mut s = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    let mut v = Vec::new();
    for _ in 0..n {
        let mut p = Shogi66::startpos(&Default::default());
        for _ in 0..(lcg(&mut s) % 70) {
            v.clear();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            let mv = v[lcg(&mut s) % v.len()];
            p.play(mv);
            out.push(p);
        }
    }
    out
}

#[test]
fn sfen_round_trips_and_keys_are_incremental() {
    for p in random_games(60, 3) {
        let q = pos(&p.to_sfen());
        assert_eq!(q.to_sfen(), p.to_sfen());
        assert_eq!(q.key(), p.key(), "{}", p.to_sfen());
        assert_eq!(moves(&q), moves(&p));
        assert_eq!(q.in_check(), p.in_check());
    }
}

#[test]
fn legal_moves_are_distinct_tokens_and_parse_back() {
    for p in random_games(40, 5) {
        let m = moves(&p);
        let mut d = m.clone();
        d.dedup();
        assert_eq!(d.len(), m.len(), "{}", p.to_sfen());
        for t in &m {
            assert!(p.parse_move(t).is_ok(), "{t} in {}", p.to_sfen());
        }
        let e = p.evaluate();
        assert!(e.abs() < 20000);
    }
}

#[test]
fn key_covers_side_to_move_and_placement_state() {
    let a = pos("k5/6/6/6/6/5K b - 1");
    let b = pos("k5/6/6/6/6/5K w - 1");
    assert_ne!(a.key(), b.key());
    let mut p = Shogi66::startpos(&Default::default());
    let k0 = p.key();
    play(&mut p, &["K*1f"]);
    assert_ne!(p.key(), k0);
}

#[test]
fn from_sfen_never_panics_on_garbage() {
    let seeds = [
        START,
        "lnskgr/pppppp/6/6/PPPPPP/GKSNRL b - 13",
        "1+P2+L1/2ps1k/n3p1/p5/+pg2PP/1L1G1K w BSN3Pr2p 60",
        "lr1skg/pppppp/6/6/PPPPPP/GKSN1L b RBn 11",
    ];
    let alphabet = b"0123456789/+-* bwKRBGSNLPkrbgsnlpx\t";
    let mut s = fastrand::Rng::with_seed(11);
    let mut ok = 0;
    for i in 0..3000 {
        let mut t: Vec<u8> = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + lcg(&mut s) % 4 {
            let at = lcg(&mut s) % (t.len() + 1);
            let c = alphabet[lcg(&mut s) % alphabet.len()];
            match lcg(&mut s) % 3 {
                0 if at < t.len() => t[at] = c,
                1 if at < t.len() => {
                    t.remove(at);
                }
                _ => t.insert(at, c),
            }
        }
        let text = String::from_utf8_lossy(&t).to_string();
        if let Ok(p) = Shogi66::from_sfen(&text, &Default::default()) {
            ok += 1;
            let q = pos(&p.to_sfen());
            assert_eq!(q.to_sfen(), p.to_sfen());
            assert_eq!(moves(&q), moves(&p));
        }
    }
    for junk in ["", " ", "\u{3042}", "+", "//////", "6/6/6/6/6/6 b - 99999999999999999999", "k5/6/6/6/6/5K b 99P 1"] {
        let _ = Shogi66::from_sfen(junk, &Default::default());
    }
    assert!(ok > 0);
}

#[test]
fn book_places_a_sensible_setup() {
    let mut p = Shogi66::startpos(&Default::default());
    for _ in 0..12 {
        let mv = match p.book_move(&BookChoice::default()) {
            Some(m) => m,
            None => panic!("no book move in {}", p.to_sfen()),
        };
        let t = p.format_move(mv);
        assert!(moves(&p).contains(&t));
        p.play(mv);
    }
    assert!(!p.in_placement());
    assert_eq!(p.book_move(&BookChoice::default()), None);
    let sfen = p.to_sfen();
    let back = sfen.split('/').nth(5).unwrap_or("");
    assert!(back.starts_with("GKS"), "{sfen}");
    assert!(back.contains('R'), "{sfen}");
    // Adapts to what is left: after a bishop was placed by hand, it places the rest.
    let mut p = Shogi66::startpos(&Default::default());
    play(&mut p, &["B*2f", "K*5a", "K*1f"]);
    let mv = p.book_move(&BookChoice::default());
    assert!(mv.is_some());
}

#[test]
fn rules_constants() {
    assert_eq!(Shogi66::NAME, "shogi66");
    assert_eq!((Shogi66::FILES, Shogi66::RANKS), (6, 6));
    assert_eq!(Shogi66::REPETITION_LIMIT, 4);
    const { assert!(Shogi66::PERPETUAL_CHECK_LOSES) };
}

/// A position scored by the classic evaluation (`Shogi66Eval classic`).
fn classic(sfen: &str) -> Shogi66 {
    let rules = koma::games::shogi66::Rules { net: None, file: None };
    Shogi66::from_sfen(sfen, &rules).unwrap()
}

#[test]
fn the_built_in_net_is_symmetric_and_sees_material() {
    let net = |sfen: &str| pos(sfen).evaluate();
    assert_ne!(net("k5/6/6/6/6/4RK b P 1"), classic("k5/6/6/6/6/4RK b P 1").evaluate(), "the default is the net");
    assert_eq!(net("k5/6/6/6/6/4RK b P 1"), net("kr4/6/6/6/6/5K w p 1"));
    // A position that is its own turned-round colour swap: the same for either to move.
    assert_eq!(net("gksnrl/pppppp/6/6/PPPPPP/LRNSKG b - 13"), net("gksnrl/pppppp/6/6/PPPPPP/LRNSKG w - 13"));
    assert!(net("k5/6/6/6/6/4RK b P 1") > 500, "{}", net("k5/6/6/6/6/4RK b P 1"));
    assert!(net("k5/6/6/6/6/4RK w P 1") < -500, "{}", net("k5/6/6/6/6/4RK w P 1"));
    // In the placement phase the classic evaluation scores (the net never saw it).
    let mut q = Shogi66::startpos(&Default::default());
    play(&mut q, &["R*2f"]);
    assert_eq!(q.evaluate(), classic(&q.to_sfen()).evaluate());
}

#[test]
fn evaluation_is_symmetric_and_sane() {
    let p = Shogi66::startpos(&koma::games::shogi66::Rules { net: None, file: None });
    let mut q = p;
    play(&mut q, &["R*2f"]);
    // Placing the rook does not count as losing the bishop.
    assert!(q.evaluate() > -200 && q.evaluate() < 200, "{}", q.evaluate());
    // Colour-mirrored positions evaluate the same for the side to move.
    let pos = classic;
    let a = pos("gksnrl/pppppp/6/6/PPPPPP/LRNSKG b - 13");
    let up = pos("k5/6/6/6/6/4RK b P 1");
    let down = pos("kr4/6/6/6/6/5K w p 1");
    assert_eq!(up.evaluate(), down.evaluate());
    assert!(up.evaluate() > 500);
    assert!(a.evaluate().abs() < 100);
    // A piece in hand is worth about what it is worth on the board (the fitted weights
    // value an advanced central silver somewhat above one in hand, 706 against 597 cp).
    let hand = pos("k5/6/6/6/6/5K b S 1");
    for sfen in ["k5/6/6/3S2/6/5K b - 1", "k5/6/6/6/3S2/5K b - 1"] {
        let board = pos(sfen);
        assert!((hand.evaluate() - board.evaluate()).abs() < 150, "{sfen}: {} {}", hand.evaluate(), board.evaluate());
    }
}

#[test]
fn diagram_shows_board_hands_and_true_ply() {
    let p = pos("lr1skg/pppppp/6/6/PPPPPP/GKSN1L b RBn 11");
    let d = koma::game::state::GameState::of(&p, &[(p.key(), p.in_check())]).lines();
    let tail = &d[d.len() - 5..];
    assert_eq!(
        tail,
        [
            "side sente (b)",
            "hands sente RB  gote n",
            "ply 11",
            "phase placement",
            "sfen lr1skg/pppppp/6/6/PPPPPP/GKSN1L b RBn 11"
        ],
        "{d:?}"
    );
    assert_eq!(d.len(), 12, "seven board lines, then the state: {d:?}");
}

/// The search's pass (null move): never during placement or in check; in play it is the
/// same position with the other side to move.
#[test]
fn null_move_only_in_play_and_not_in_check() {
    assert!(Shogi66::startpos(&Default::default()).null_move().is_none(), "placement phase");
    let p = pos("lrnskg/pppppp/6/6/PPPPPP/GKSNRL b - 13");
    let passed = p.null_move().expect("in play, not in check");
    let want = pos("lrnskg/pppppp/6/6/PPPPPP/GKSNRL w - 14");
    assert_eq!(passed.to_sfen(), want.to_sfen());
    assert_eq!(passed.key(), want.key());
    assert!(passed.side_to_move() == Color::Gote);
    let checked = pos("4rk/6/6/6/6/4K1 b - 1");
    assert!(checked.in_check());
    assert!(checked.null_move().is_none());
}

/// Static exchange: the quiescence search leaves out captures that lose material when
/// both sides recapture with their least valuable piece (a captured piece counts on the
/// board and in the captor's hand), pieces behind joining in.
#[test]
fn quiescence_skips_only_captures_that_lose_material() {
    let losing = |sfen: &str, tok: &str| {
        let p = pos(sfen);
        let m = p.parse_move(tok).unwrap();
        p.losing_exchange(m)
    };
    assert!(losing("k5/6/2gp2/6/6/3R1K b - 1", "3f3c"), "rook takes a pawn guarded by a gold");
    assert!(!losing("k5/6/3p2/6/6/3R1K b - 1", "3f3c"), "an unguarded pawn");
    assert!(losing("k5/6/2gp2/3S2/6/5K b - 1", "3d3c"), "silver takes a pawn guarded by a gold");
    assert!(!losing("k5/6/2gp2/3S2/6/3L1K b - 1", "3d3c"), "the lance behind makes the gold's recapture lose");
    assert!(!losing("k5/2g3/2gp2/2S3/6/5K b - 1", "4d4c"), "silver for a gold guarded by a gold still gains");
}

/// The same exchange for a drop or a quiet move: the search's pruning of quiet moves and
/// its check extension ask whether the moved or dropped piece can be won.
#[test]
fn drops_and_quiet_moves_that_hang_a_piece_lose_by_exchange() {
    let losing = |sfen: &str, tok: &str| {
        let p = pos(sfen);
        let m = p.parse_move(tok).unwrap();
        p.losing_exchange(m)
    };
    assert!(losing("k5/6/3p2/6/6/5K b G 1", "G*3d"), "a gold dropped in front of a pawn");
    assert!(losing("k5/6/3p2/6/3R2/5K b G 1", "G*3d"), "guarded by the rook: still a gold for a pawn");
    assert!(!losing("k5/6/2g3/6/3R2/5K b G 1", "G*3d"), "guarded by the rook against a gold: gold for gold");
    assert!(!losing("k5/6/6/6/6/5K b G 1", "G*3d"), "a square nothing attacks");
    assert!(losing("k2p2/6/6/6/6/3R1K b - 1", "3f3b"), "the rook steps where the pawn takes it");
    assert!(!losing("k5/6/6/6/6/3R1K b - 1", "3f3b"), "the same step with nothing guarding");
}

#[test]
fn tactical_moves_are_the_legal_captures_and_promotions() {
    // The quiescence search's own generator (no drops) against the full one, filtered.
    let mut checked = 0;
    for p in random_games(300, 23) {
        if p.in_check() || p.result().is_some() {
            continue;
        }
        let mut all = Vec::new();
        p.legal_moves(&mut all);
        let mut want: Vec<String> = all.iter().filter(|&&m| p.is_tactical(m)).map(|&m| p.format_move(m)).collect();
        let mut fast = Vec::new();
        assert!(p.tactical_moves(&mut fast));
        let mut got: Vec<String> = fast.iter().map(|&m| p.format_move(m)).collect();
        want.sort();
        got.sort();
        assert_eq!(got, want, "{}", p.to_sfen());
        checked += 1;
    }
    assert!(checked > 2000, "{checked}");
}
