//! Kokesu rules (rules.md §2), one named test per rule, with exact move sets and SFENs.
//! Squares: file 1 = chess h-file, rank a = chess rank 8 (chess e2-e4 is `4g4e`).

use std::collections::HashSet;

use koma::game::{Color, Game, MoveError, Outcome, SfenError, Strategy};
use koma::games::kokesu::{Kokesu, KokesuRules};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1";

fn rules(opts: &[(&str, &str)]) -> KokesuRules {
    let mut r = KokesuRules::default();
    for (k, v) in opts {
        Kokesu::set_rule(&mut r, k, v).unwrap();
    }
    r
}

fn pos(sfen: &str) -> Kokesu {
    Kokesu::from_sfen(sfen, &KokesuRules::default()).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn pos_with(sfen: &str, opts: &[(&str, &str)]) -> Kokesu {
    Kokesu::from_sfen(sfen, &rules(opts)).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn tokens(p: &Kokesu) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| p.format_move(m)).collect();
    t.sort();
    t
}

fn tokens_from(p: &Kokesu, from: &str) -> Vec<String> {
    tokens(p).into_iter().filter(|t| t.starts_with(from)).collect()
}

fn set(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(p: &mut Kokesu, moves: &str) {
    for tok in moves.split_whitespace() {
        let mv = p.parse_move(tok).unwrap_or_else(|e| panic!("{tok}: {e}"));
        p.play(mv);
    }
}

fn illegal_reason(p: &Kokesu, tok: &str) -> String {
    match p.parse_move(tok) {
        Err(MoveError::Illegal(t, why)) => {
            assert_eq!(t, tok);
            why
        }
        other => panic!("{tok}: expected Illegal, got {other:?}"),
    }
}

#[test]
fn names_and_constants() {
    assert_eq!(Kokesu::NAME, "kokesu");
    assert_eq!((Kokesu::FILES, Kokesu::RANKS), (8, 8));
    assert_eq!(Kokesu::REPETITION_LIMIT, 3);
    const { assert!(!Kokesu::PERPETUAL_CHECK_LOSES) };
    let names: Vec<&str> = Kokesu::switches().iter().map(|o| o.info.name).collect();
    assert_eq!(names, ["KokesuPromotion", "KokesuStalemate", "KokesuEval", "KokesuNetFile"]);
    assert_eq!(Kokesu::switches()[0].info.default, "captured");
    assert_eq!(Kokesu::switches()[1].info.default, "draw");
    let mut r = KokesuRules::default();
    assert!(Kokesu::set_rule(&mut r, "KokesuPromotion", "any").is_err());
    assert!(Kokesu::set_rule(&mut r, "KokesuStalemate", "win").is_err());
    assert!(Kokesu::set_rule(&mut r, "Kokesu", "draw").is_err());
    assert_eq!(r, KokesuRules::default());
}

#[test]
fn start_position_and_coordinates() {
    let p = Kokesu::startpos(&KokesuRules::default());
    assert_eq!(p.to_sfen(), START);
    assert_eq!(p.side_to_move(), Color::Sente);
    assert_eq!(tokens(&p).len(), 20);
    // Chess e2e4 = 4g4e, Nb1-c3 = 7h6f, Ng1-f3 = 2h3f.
    for t in ["4g4e", "4g4f", "7h6f", "7h8f", "2h3f", "8g8e", "1g1f"] {
        assert!(p.parse_move(t).is_ok(), "{t}");
    }
    let mut q = p.clone();
    play(&mut q, "4g4e");
    assert_eq!(q.to_sfen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w - 2");
    assert_eq!(q.side_to_move(), Color::Gote);
    play(&mut q, "4b4d 2h3f");
    assert_eq!(q.to_sfen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w - 4");
    // The red queen stands on 5h (chess d1).
    assert!(p.diagram().contains('Q'));
    assert!(tokens_from(&p, "5h").is_empty());
}

#[test]
fn no_en_passant_after_double_step() {
    let mut p = pos("4k3/8/8/8/3p4/8/4P3/4K3 b - 1");
    play(&mut p, "4g4e");
    assert_eq!(p.to_sfen(), "4k3/8/8/8/3pP3/8/8/4K3 w - 2");
    assert_eq!(tokens(&p), set(&["5e5f", "4a5a", "4a5b", "4a4b", "4a3b", "4a3a"]));
    let why = illegal_reason(&p, "5e4f");
    assert!(why.contains("cannot move"), "{why}");
    // The same for gote's double step beside a sente pawn.
    let mut p = pos("4k3/3p4/8/4P3/8/8/8/4K3 w - 1");
    play(&mut p, "5b5d");
    assert!(p.parse_move("4d5c").is_err());
    assert_eq!(tokens_from(&p, "4d"), set(&["4d4c"]));
}

#[test]
fn no_castling_from_home_squares() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b - 1");
    assert_eq!(tokens_from(&p, "4h"), set(&["4h5h", "4h5g", "4h4g", "4h3g", "4h3h"]));
    assert_eq!(tokens(&p).len(), 24);
    for t in ["4h2h", "4h6h"] {
        let why = illegal_reason(&p, t);
        assert!(why.contains("king"), "{t}: {why}");
    }
    let g = pos("r3k2r/8/8/8/8/8/8/R3K2R w - 1");
    assert!(g.parse_move("4a2a").is_err());
    assert!(g.parse_move("4a6a").is_err());
}

#[test]
fn promotion_only_to_captured_types() {
    // Sente misses one knight only: b7 takes a8 or c8 and must become a knight.
    let p = pos("rnbqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/R1BQKBNR b - 1");
    assert_eq!(tokens_from(&p, "7b"), set(&["7b8an", "7b6an"]));
    let why = illegal_reason(&p, "7b8aq");
    assert!(why.contains("queen") && why.contains('n'), "{why}");
    let why = illegal_reason(&p, "7b8a");
    assert!(why.contains("must promote"), "{why}");
    let mut q = p.clone();
    play(&mut q, "7b8an");
    assert_eq!(q.to_sfen(), "Nnbqkbnr/p1pppppp/8/8/8/8/P1PPPPPP/R1BQKBNR w - 2");
    // Now gote misses a rook; sente has its two knights again.
    assert_eq!(q.halfmove_clock(), 0);

    // Missing everything: all four letters, e.g. `2b2aq`.
    let p = pos("4k3/6P1/8/8/8/8/8/4K3 b - 1");
    assert_eq!(tokens_from(&p, "2b"), set(&["2b2aq", "2b2ar", "2b2ab", "2b2an"]));
    let mut q = p.clone();
    play(&mut q, "2b2aq");
    assert_eq!(q.to_sfen(), "4k1Q1/8/8/8/8/8/8/4K3 w - 2");
    assert!(q.in_check());

    // Sente misses a bishop and a rook: exactly b and r; gote (b1 blocked) takes a1 as anything.
    let p = pos("4k3/6P1/8/8/8/8/1p6/RN1QK1N1 b - 1");
    assert_eq!(tokens_from(&p, "2b"), set(&["2b2ab", "2b2ar"]));
    let g = pos("4k3/6P1/8/8/8/8/1p6/RN1QK1N1 w - 1");
    assert_eq!(tokens_from(&g, "7g"), set(&["7g8hq", "7g8hr", "7g8hb", "7g8hn"]));
}

#[test]
fn pawn_without_choice_stays_pawn_on_last_rank() {
    // Sente has its whole army: b7 goes to the last rank as a plain pawn.
    let p = pos("r1bqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/RNBQKBNR b - 1");
    assert_eq!(tokens_from(&p, "7b"), set(&["7b7a", "7b8a", "7b6a"]));
    let why = illegal_reason(&p, "7b7aq");
    assert!(why.contains("no promotion type"), "{why}");
    let mut q = p.clone();
    play(&mut q, "7b7a");
    assert_eq!(q.to_sfen(), "rPbqkbnr/p1pppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w - 2");
    assert_eq!(q.halfmove_clock(), 0);
    // It never moves again, not even once types become available.
    play(&mut q, "8b8c");
    assert!(tokens_from(&q, "7a").is_empty());
    let why = illegal_reason(&q, "7a6b");
    assert!(why.contains("cannot move"), "{why}");
    // A stuck pawn next to missing pieces: still no moves, and it does not give check.
    let s = pos("1P2k3/8/8/8/8/8/8/4K3 b - 1");
    assert!(tokens_from(&s, "7a").is_empty());
    let s = pos("1P6/k7/8/8/8/8/8/4K3 w - 1");
    assert!(!s.in_check());
    // A gote pawn reaching rank h likewise.
    let g = pos("rnbqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/RNBQKBNp w - 1");
    assert!(tokens_from(&g, "1h").is_empty());
}

#[test]
fn free_promotion_switch() {
    let free = [("KokesuPromotion", "free")];
    let p = pos_with("r1bqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/RNBQKBNR b - 1", &free);
    let mut want = Vec::new();
    for to in ["7a", "8a", "6a"] {
        for l in ["q", "r", "b", "n"] {
            want.push(format!("7b{to}{l}"));
        }
    }
    want.sort();
    assert_eq!(tokens_from(&p, "7b"), want);
    let why = illegal_reason(&p, "7b7a");
    assert!(why.contains("must promote"), "{why}");
    let mut q = p.clone();
    play(&mut q, "7b7aq");
    assert_eq!(q.to_sfen(), "rQbqkbnr/p1pppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w - 2");
    // Two queens: accepted with `free`, rejected with `captured`.
    assert!(Kokesu::from_sfen(&q.to_sfen(), &rules(&free)).is_ok());
    assert!(matches!(Kokesu::from_sfen(&q.to_sfen(), &KokesuRules::default()), Err(SfenError::Invalid(_))));
}

#[test]
fn stalemate_is_draw() {
    let p = pos("k7/8/1Q6/8/8/8/8/7K w - 1");
    assert!(tokens(&p).is_empty());
    assert!(!p.in_check());
    assert_eq!(p.result(), None);
    assert_eq!(p.no_move_outcome(), Outcome::Draw);
    assert!(matches!(p.parse_move("8a7a"), Err(MoveError::GameOver(_))));
    // Reached by a move: Qg6-f7 stalemates the h8 king.
    let mut q = pos("7k/8/6Q1/8/8/8/8/K7 b - 1");
    play(&mut q, "2c3b");
    assert!(tokens(&q).is_empty());
    assert_eq!(q.no_move_outcome(), Outcome::Draw);
}

#[test]
fn stalemate_loss_switch() {
    let p = pos_with("k7/8/1Q6/8/8/8/8/7K w - 1", &[("KokesuStalemate", "loss")]);
    assert!(tokens(&p).is_empty());
    assert_eq!(p.no_move_outcome(), Outcome::Loss);
}

#[test]
fn checkmate_has_no_moves() {
    // Fool's mate: f3 e5 g4 Qh4#.
    let mut p = Kokesu::startpos(&KokesuRules::default());
    play(&mut p, "3g3f 4b4d 2g2e 5a1e");
    assert!(p.in_check());
    assert!(tokens(&p).is_empty());
    assert_eq!(p.no_move_outcome(), Outcome::Loss);
    assert!(matches!(p.parse_move("4g4f"), Err(MoveError::GameOver(_))));
    // Mate stays a loss whatever the stalemate switch says.
    let q = pos_with(&p.to_sfen(), &[("KokesuStalemate", "loss")]);
    assert_eq!(q.no_move_outcome(), Outcome::Loss);
    // Back-rank mate of gote.
    let r = pos("R5k1/5ppp/8/8/8/8/8/6K1 w - 1");
    assert!(r.in_check() && tokens(&r).is_empty());
}

#[test]
fn check_evasions() {
    // Single check by a rook: block, capture or step aside.
    let p = pos("4k3/8/8/8/4r3/8/3PB3/3QK3 b - 1");
    // Chess: e2 bishop pinned? No: the rook e4 checks through e2? e2 blocks, so no check.
    assert!(!p.in_check());
    let p = pos("4k3/8/8/8/4r3/8/3P4/3QKB2 b - 1");
    assert!(p.in_check());
    assert_eq!(tokens(&p), set(&["4h3g", "3h4g", "5h4g"]));
    // Double check: only the king moves.
    let p = pos("4k3/8/8/8/1b2r3/8/8/2NQK3 b - 1");
    assert!(p.in_check());
    assert!(tokens(&p).iter().all(|t| t.starts_with("4h")));
    assert!(!tokens(&p).is_empty());
    // The king may not retreat along the checking line.
    let p = pos("4k3/8/8/8/8/8/8/r3K3 b - 1");
    assert_eq!(tokens(&p), set(&["4h5g", "4h4g", "4h3g"]));
}

#[test]
fn pins() {
    let p = pos("4k3/4r3/8/8/1b6/4B3/3N4/r2QK3 b - 1");
    assert_eq!(tokens(&p), set(&["5h6h", "5h7h", "5h8h", "4h4g", "4h3h", "4h3g"]));
    assert!(illegal_reason(&p, "5g3f").contains("king"));
    assert!(illegal_reason(&p, "4f3e").contains("king"));
    // A pinned pawn may capture its pinner but not push.
    let p = pos("4k3/8/8/8/8/5b2/4P3/3K4 b - 1");
    assert_eq!(tokens_from(&p, "4g"), set(&["4g3f"]));
}

#[test]
fn fifty_move_counter() {
    let mut p = pos("4k3/8/8/8/8/8/P7/R3K3 b - 1");
    let root_key = p.key();
    assert_eq!(p.halfmove_clock(), 0);
    for i in 0..25 {
        play(&mut p, "8h7h 4a5a 7h8h 5a4a");
        assert_eq!(p.key(), root_key, "same position, counter not in the key");
        assert_eq!(p.halfmove_clock(), 4 * (i + 1));
        assert_eq!(p.move_count_draw(), p.halfmove_clock() >= 100);
    }
    assert!(p.move_count_draw());
    // The counter is not written in the SFEN; reading it back starts at 0.
    assert_eq!(p.to_sfen(), "4k3/8/8/8/8/8/P7/R3K3 b - 101");
    let q = pos(&p.to_sfen());
    assert_eq!(q.halfmove_clock(), 0);
    assert_eq!(q.key(), p.key());
    // A pawn move resets it; so does a capture.
    let mut r = p.clone();
    play(&mut r, "8g8f");
    assert_eq!(r.halfmove_clock(), 0);
    let mut s = pos("r3k3/8/8/8/8/8/8/R3K3 b - 1");
    play(&mut s, "8h8g");
    assert_eq!(s.halfmove_clock(), 1);
    play(&mut s, "8a8g");
    assert_eq!(s.halfmove_clock(), 0);
    // 99 plies: not yet.
    let mut t = pos("4k3/8/8/8/8/8/8/R3K3 b - 1");
    for _ in 0..24 {
        play(&mut t, "8h7h 4a5a 7h8h 5a4a");
    }
    play(&mut t, "8h7h 4a5a 7h8h");
    assert_eq!(t.halfmove_clock(), 99);
    assert!(!t.move_count_draw());
    play(&mut t, "5a4a");
    assert!(t.move_count_draw());
}

#[test]
fn parse_move_errors() {
    let p = Kokesu::startpos(&KokesuRules::default());
    for bad in ["", "e2e4", "4g4", "4g4eQ", "9g4e", "4i4e", "4g4e+", "4g4ek", "4g4eqq", " 4g4e", "P*4e", "４g4e"] {
        assert!(matches!(p.parse_move(bad), Err(MoveError::Syntax(_))), "{bad:?}");
    }
    assert!(illegal_reason(&p, "4f4e").contains("no piece"));
    assert!(illegal_reason(&p, "4b4d").contains("opponent"));
    assert!(illegal_reason(&p, "4g4d").contains("cannot move"));
    assert!(illegal_reason(&p, "4g4eq").contains("last rank"));
    assert!(illegal_reason(&p, "7h6fq").contains("only a pawn"));
    assert!(illegal_reason(&p, "5h5g").contains("cannot move"));
}

#[test]
fn from_sfen_rejects_bad_positions() {
    let r = KokesuRules::default();
    type Check = fn(&SfenError) -> bool;
    let bad: &[(&str, Check)] = &[
        ("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Invalid(_))),
        ("rnbqkbnr/pppppppp/8/8/8/4k3/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Invalid(_))),
        ("4k3/8/8/8/8/8/8/3PK3 b - 1", |e| matches!(e, SfenError::Invalid(_))),
        ("3pk3/8/8/8/8/8/8/4K3 b - 1", |e| matches!(e, SfenError::Invalid(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b P 1", |e| matches!(e, SfenError::Hand(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - 1", |e| matches!(e, SfenError::Side(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 0", |e| matches!(e, SfenError::Ply(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - x", |e| matches!(e, SfenError::Ply(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b", |e| matches!(e, SfenError::FieldCount(2))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1 0", |e| matches!(e, SfenError::FieldCount(5))),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKB+NR b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX b - 1", |e| matches!(e, SfenError::Board(_))),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1R b - 1", |e| matches!(e, SfenError::Board(_))),
        // Gote, not to move, is in check from the rook.
        ("4k3/8/8/8/8/8/8/4RK2 b - 1", |e| matches!(e, SfenError::Invalid(_))),
        // Nine pawns; a third rook with `captured`.
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 b - 1", |e| matches!(e, SfenError::Invalid(_))),
        ("4k3/8/8/8/8/8/8/RRR1K3 b - 1", |e| matches!(e, SfenError::Invalid(_))),
    ];
    for (sfen, ok) in bad {
        match Kokesu::from_sfen(sfen, &r) {
            Err(e) => assert!(ok(&e), "{sfen}: unexpected error {e:?}"),
            Ok(_) => panic!("{sfen}: accepted"),
        }
    }
    // Accepted: optional ply, any whitespace, a stuck pawn, the side to move in check.
    for sfen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b -",
        "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  -  7 ",
        "Pnbqkbnr/1ppppppp/8/8/8/8/1PPPPPPP/RNBQKBNR w - 1",
        "4k3/8/8/8/8/8/8/4RK2 w - 1",
    ] {
        assert!(Kokesu::from_sfen(sfen, &r).is_ok(), "{sfen}");
    }
    assert_eq!(pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b -").to_sfen(), START);
    // Three rooks are fine with `free` (a promoted pawn).
    assert!(Kokesu::from_sfen("4k3/8/8/8/8/8/8/RRR1K3 b - 1", &rules(&[("KokesuPromotion", "free")])).is_ok());
}

/// Seeded generators, so failures reproduce.
use fastrand::Rng;

#[test]
fn from_sfen_never_panics_on_garbage() {
    let alphabet: &[u8] = b"pnbrqkPNBRQK12345678/9+- bwx0 \t*";
    let seeds = [
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - 12",
    ];
    let mut rng = Rng::with_seed(0x1234_5678_9abc_def1);
    let mut accepted = 0;
    for i in 0..3000 {
        let mut s: Vec<u8> = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.u64(..) % 4 {
            let at = (rng.u64(..) % (s.len() as u64 + 1)) as usize;
            let c = alphabet[(rng.u64(..) % alphabet.len() as u64) as usize];
            match rng.u64(..) % 3 {
                0 if at < s.len() => s[at] = c,
                1 if at < s.len() => {
                    s.remove(at);
                }
                _ => s.insert(at, c),
            }
        }
        let text = String::from_utf8_lossy(&s).into_owned();
        for rules in [KokesuRules::default(), rules(&[("KokesuPromotion", "free")])] {
            if let Ok(p) = Kokesu::from_sfen(&text, &rules) {
                accepted += 1;
                let back = Kokesu::from_sfen(&p.to_sfen(), &rules).expect("round trip");
                assert_eq!(back.to_sfen(), p.to_sfen());
                assert_eq!(back.key(), p.key());
                let mut v = Vec::new();
                p.legal_moves(&mut v);
                let _ = p.evaluate();
            }
        }
    }
    assert!(accepted > 100, "only {accepted} mutated SFENs were valid");
    // Random bytes.
    for _ in 0..500 {
        let n = (rng.u64(..) % 80) as usize;
        let s: Vec<u8> = (0..n).map(|_| (rng.u64(..) % 256) as u8).collect();
        let _ = Kokesu::from_sfen(&String::from_utf8_lossy(&s), &KokesuRules::default());
    }
}

/// Random games under both switches: distinct tokens, every token parses back to its move,
/// the incremental key equals a fresh one, SFENs round-trip, the eval stays in range,
/// and generating never grows a buffer of 256.
#[test]
fn random_games_keep_invariants() {
    let mut rng = Rng::with_seed(0xdead_beef_cafe_f00d);
    for game in 0..120 {
        let rules = if game % 2 == 0 { KokesuRules::default() } else { rules(&[("KokesuPromotion", "free")]) };
        let mut p = Kokesu::startpos(&rules);
        let mut buf = Vec::with_capacity(256);
        for _ in 0..300 {
            buf.clear();
            let cap = buf.capacity();
            p.legal_moves(&mut buf);
            assert_eq!(buf.capacity(), cap);
            let toks: HashSet<String> = buf.iter().map(|&m| p.format_move(m)).collect();
            assert_eq!(toks.len(), buf.len(), "duplicate tokens in {}", p.to_sfen());
            for &m in buf.iter() {
                assert_eq!(p.parse_move(&p.format_move(m)), Ok(m));
            }
            let e = p.evaluate();
            assert!(e.abs() < 20000);
            let fresh = Kokesu::from_sfen(&p.to_sfen(), &rules).expect("reachable position reads back");
            assert_eq!(fresh.key(), p.key(), "{}", p.to_sfen());
            assert_eq!(fresh.to_sfen(), p.to_sfen());
            if buf.is_empty() {
                break;
            }
            let mv = buf[(rng.u64(..) % buf.len() as u64) as usize];
            p.play(mv);
        }
    }
}

/// A whole game (engine self-play) from the start to checkmate, every move read by
/// `parse_move`; sente mates with Rh1-h8 (`1c1a` is the rook from 1c).
#[test]
fn full_game_to_mate() {
    let moves = "5g5e 5b5d 7h6f 7a6c 6h3e 3b3c 4g4f 4b4d 5e4d 3c4d 3e2f 2a3c 2h3f 4d4e 6f7d 3a7e \
        6g6f 7e8d 3f5e 4a3a 5e6c 7b6c 7d5e 6c6d 5e6c 6a2e 5h5g 5a5b 6c8d 3c1d 2f1e 1d3c 1g1f 2e4c \
        3h4g 5b8e 8d7f 8e6c 4h3h 8a7a 8h6h 6d6e 7f5e 6c7c 1e2f 7a7b 7g7e 4c5b 2f4d 1b1d 3h2h 6b6d \
        5e6g 7c6c 6h8h 1d1e 8g8e 8b8c 2g2e 5b4c 8e8d 3c5b 4d3e 6d7e 6g5e 7e6f 5g6f 7b7f 5e7f 5b6d \
        7f5e 6c5b 6f7e 5b6a 7e6d 3a2a 5e4c 6a4c 8h5h 2a1b 5h5d 1a6a 5d1d 1b2a 3e6b 6a6b 6d6b 6e6f \
        4g6e 4c6e 6b6e 2a3a 1d1e 3a4b 2e2d 6f6g 6e6g 4b3b 6g4e 2b2c 1e1c 3b2b 4e2c 2b3a 2c8c 3a3b \
        2h2g 3b3a 8c6a 3a4b 6a7b 4b5a 1c1a";
    let mut p = Kokesu::startpos(&KokesuRules::default());
    play(&mut p, moves);
    assert_eq!(p.to_sfen(), "3k3R/1Q6/8/P5P1/8/4P2P/5PK1/7R w - 114");
    assert!(p.in_check());
    assert!(tokens(&p).is_empty());
    assert_eq!(p.no_move_outcome(), Outcome::Loss);
    assert_eq!(p.side_to_move(), Color::Gote);
}

/// Threefold repetition is judged by the search on the keys of the game history; the key
/// sees board and side to move only.
#[test]
fn threefold_repetition_keys() {
    let mut p = Kokesu::startpos(&KokesuRules::default());
    let mut history = vec![p.key()];
    for tok in "2h3f 2a3c 3f2h 3c2a 2h3f 2a3c 3f2h 3c2a".split_whitespace() {
        play(&mut p, tok);
        history.push(p.key());
    }
    let start = history[0];
    assert_eq!(history.iter().filter(|&&k| k == start).count(), Kokesu::REPETITION_LIMIT);
    // Same board, other side to move: a different key.
    let w = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - 1");
    assert_ne!(w.key(), start);
    // The ply is not part of the key either.
    assert_eq!(pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 9").key(), start);
}

#[test]
fn diagram_shows_board_and_sfen() {
    let mut p = Kokesu::startpos(&KokesuRules::default());
    play(&mut p, "4g4e 2a3c");
    let d = p.diagram();
    let want = [
        "  8 7 6 5 4 3 2 1",
        " +-----------------+",
        " | r n b q k b . r | a",
        " | p p p p p p p p | b",
        " | . . . . . n . . | c",
        " | . . . . . . . . | d",
        " | . . . . P . . . | e",
        " | . . . . . . . . | f",
        " | P P P P . P P P | g",
        " | R N B Q K B N R | h",
        " +-----------------+",
    ];
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines, want, "{d}");
    assert_eq!(p.status().as_deref(), Some("plies without capture or pawn move 1"));
}

/// 100 plies from the start without capture, pawn move, check or a third repetition:
/// the move-count draw holds after the 100th ply and not before (a transcript for the
/// draw rule).
#[test]
fn hundred_plies_draw_from_start() {
    let moves = "7h6f 7a6c 2h1f 2a3c 6f7d 6c5e 7d8f 3c2a 1h2h 2a1c 8f7d 1c2e 7d8f 5e3d 8f6e 2e1c \
        6e4d 1c2a 4d3f 2a3c 3f5e 3c4e 2h1h 4e5c 1f2h 3d4f 2h1f 1a2a 5e3d 5c4e 1h2h 4f2e 8h7h 4e6f \
        2h1h 2e1c 1f2h 6f5d 3d2f 1c3d 2f4e 5d3e 4e6f 3e2c 6f4e 2c3e 7h8h 3e4c 4e2d 4c3e 2h1f 3e4c \
        1f3e 4c6d 2d4e 3d1e 4e2f 1e3d 3e1f 8a7a 2f4e 6d8c 1h2h 3d5e 1f3e 5e7d 3e1d 7d5c 4e6d 5c3d \
        6d4e 3d5e 8h7h 7a8a 4e2d 5e3d 1d3e 3d5c 7h8h 8c7e 3e1f 7e6c 2d4e 5c3d 2h1h 3d5c 4e6f 5c3d \
        1f2d 3d4f 6f4e 4f6e 2d1f 6c5e 4e2f 6e7c 1f3e 7c6e 3e2c 8a7a";
    let toks: Vec<&str> = moves.split_whitespace().collect();
    assert_eq!(toks.len(), 100);
    let mut p = Kokesu::startpos(&KokesuRules::default());
    let mut counts = std::collections::HashMap::new();
    *counts.entry(p.key()).or_insert(0) += 1;
    for (i, tok) in toks.iter().enumerate() {
        assert!(!p.move_count_draw(), "draw too early at ply {i}");
        play(&mut p, tok);
        let n = counts.entry(p.key()).or_insert(0);
        *n += 1;
        assert!(*n < Kokesu::REPETITION_LIMIT, "third repetition at ply {}", i + 1);
        assert_eq!(p.halfmove_clock() as usize, i + 1);
    }
    assert!(p.move_count_draw());
    assert!(!tokens(&p).is_empty(), "the game goes on in perft and moves");
    assert_eq!(p.to_sfen(), "1rbqkbr1/pppppppp/6N1/8/2nn4/6N1/PPPPPPPP/R1BQKB1R b - 101");
}

/// The colour-flipped position (ranks mirrored, cases and side swapped).
fn mirror(sfen: &str) -> String {
    let f: Vec<&str> = sfen.split_whitespace().collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() })
                .collect()
        })
        .collect();
    format!("{} {} - 1", board.join("/"), if f[1] == "b" { "w" } else { "b" })
}

/// The evaluation is colour-symmetric, and mirrored positions have the same move counts.
#[test]
fn evaluation_is_colour_symmetric() {
    let mut rng = Rng::with_seed(0x0bad_cafe_1234_5678);
    for game in 0..40 {
        let rules = if game % 2 == 0 { KokesuRules::default() } else { rules(&[("KokesuPromotion", "free")]) };
        let mut p = Kokesu::startpos(&rules);
        for _ in 0..160 {
            let m = Kokesu::from_sfen(&mirror(&p.to_sfen()), &rules).expect("mirror is valid");
            assert_eq!(p.evaluate(), m.evaluate(), "{} vs {}", p.to_sfen(), m.to_sfen());
            assert_eq!(tokens(&p).len(), tokens(&m).len());
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            p.play(v[(rng.u64(..) % v.len() as u64) as usize]);
        }
    }
}

/// The search's pass (null move): the same board with the other side to move, refused in
/// check and in pawn endings, where zugzwang is real.
#[test]
fn null_move_passes_only_where_zugzwang_is_unlikely() {
    let p = pos("4k3/8/8/8/8/8/3N4/4K3 b - 7");
    let passed = p.null_move().expect("a knight besides the king: passing allowed");
    let want = pos("4k3/8/8/8/8/8/3N4/4K3 w - 8");
    assert_eq!(passed.to_sfen(), want.to_sfen());
    assert_eq!(passed.key(), want.key(), "the key of the same board, other side to move");
    assert_eq!(passed.side_to_move(), Color::Gote);
    // King and pawns only: no pass.
    assert!(pos("4k3/4p3/8/8/8/8/4P3/4K3 b - 1").null_move().is_none());
    // In check: no pass.
    assert!(pos("4k3/8/8/8/8/8/3N4/r3K3 b - 1").null_move().is_none());
}

/// Static exchange: the quiescence search leaves out captures that lose material when
/// both sides recapture with their least valuable piece, x-rays included.
#[test]
fn quiescence_skips_only_captures_that_lose_material() {
    let losing = |sfen: &str, tok: &str| {
        let p = pos(sfen);
        let m = p.parse_move(tok).unwrap();
        p.losing_exchange(m)
    };
    assert!(losing("4k3/8/3p4/4p3/8/8/8/4QK2 b - 1", "4h4d"), "queen takes a pawn guarded by a pawn");
    assert!(losing("4k3/8/3p4/4p3/8/5N2/8/5K2 b - 1", "3f4d"), "knight takes a guarded pawn");
    assert!(!losing("4k3/8/8/4p3/8/8/8/4RK2 b - 1", "4h4d"), "an unguarded pawn");
    assert!(!losing("4k3/4r3/8/8/8/8/8/4RK2 b - 1", "4h4b"), "rook for rook is even");
    assert!(!losing("4r2k/8/8/4p3/8/8/4R3/4RK2 b - 1", "4g4d"), "the rook behind recaptures (x-ray)");
    assert!(losing("4r2k/8/8/4p3/8/8/4R3/5K2 b - 1", "4g4d"), "without the rook behind, the rook is lost");
}

#[test]
fn tactical_moves_are_the_legal_captures_and_promotions() {
    // The quiescence search's own generator against the full one, filtered, over seeded
    // random games with both promotion rules (captured: a stuck pawn's plain move to the
    // last rank is not tactical).
    let mut checked = 0;
    for (seed, promotion) in [(5u64, "captured"), (6, "free")] {
        let rules = rules(&[("KokesuPromotion", promotion)]);
        let mut rng = Rng::with_seed(seed);
        for _ in 0..200 {
            let mut p = Kokesu::startpos(&rules);
            for _ in 0..rng.usize(..160) {
                let mut all = Vec::new();
                p.legal_moves(&mut all);
                if all.is_empty() {
                    break;
                }
                if !p.in_check() {
                    let mut want: Vec<String> =
                        all.iter().filter(|&&m| p.is_tactical(m)).map(|&m| p.format_move(m)).collect();
                    let mut fast = Vec::new();
                    assert!(p.tactical_moves(&mut fast));
                    let mut got: Vec<String> = fast.iter().map(|&m| p.format_move(m)).collect();
                    want.sort();
                    got.sort();
                    assert_eq!(got, want, "{}", p.to_sfen());
                    checked += 1;
                }
                // Captures more often than chance, to reach endgames and promotions.
                let caps: Vec<_> = all.iter().copied().filter(|&m| p.is_tactical(m)).collect();
                let mv = if !caps.is_empty() && rng.bool() {
                    caps[rng.usize(..caps.len())]
                } else {
                    all[rng.usize(..all.len())]
                };
                p.play(mv);
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Delta pruning's bound: what a capture takes, plus what its promotion adds, at the
/// fixed piece values (pawn 100, knight 325, bishop 335, rook 480, queen 960).
#[test]
fn material_gain_counts_the_victim_and_the_promotion() {
    let gain = |sfen: &str, tok: &str| {
        let p = pos(sfen);
        let m = p.parse_move(tok).unwrap();
        p.material_gain(m)
    };
    assert_eq!(gain("4k3/8/8/4p3/8/8/8/4RK2 b - 1", "4h4d"), Some(100), "rook takes a pawn");
    assert_eq!(gain("4k3/4r3/8/8/8/8/8/4RK2 b - 1", "4h4b"), Some(480), "rook takes a rook");
    // b7 takes the rook on a8 and becomes the missing knight: 480 + 325 - 100.
    let p = "rnbqkbnr/pPpppppp/8/8/8/8/P1PPPPPP/R1BQKBNR b - 1";
    assert_eq!(gain(p, "7b8an"), Some(705));
    // Taking nothing: the promotion alone, to a queen (960 - 100) or a knight (325 - 100).
    assert_eq!(gain("4k3/1P6/8/8/8/8/8/4K3 b - 1", "7b7aq"), Some(860));
    assert_eq!(gain("4k3/1P6/8/8/8/8/8/4K3 b - 1", "7b7an"), Some(225));
}
