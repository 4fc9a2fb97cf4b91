//! The search in every game, on positions whose right answer is known: mates found at
//! the right distance, a stalemate trap avoided, a pawn-drop mate never played, sums of
//! seven and crab wins taken, mate scores that survive the transposition table, and the
//! same answers with two threads. Fixed depths, so nothing depends on the machine.

use std::time::{Duration, Instant};

use koma::game::{Game, Strategy};
use koma::games::kaninariebi::KaniNariEbi;
use koma::games::kanishogi::KaniShogi;
use koma::games::kokesu::Kokesu;
use koma::games::numbershogi::NumberShogi;
use koma::games::shogi66::Shogi66;
use koma::search::tt::Table;
use koma::search::{mate_plies, smp, CorrectionKeys, Limits, SearchResult, Searcher, Signals, TimePlan};

fn pos<G: Strategy>(sfen: &str) -> G {
    G::from_sfen(sfen, &Default::default()).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn limits<M>(depth: u32) -> Limits<M> {
    Limits {
        time: TimePlan::unlimited(Duration::ZERO),
        depth: Some(depth),
        nodes: None,
        multipv: 1,
        searchmoves: Vec::new(),
    }
}

/// A search of `p` to `depth` with `threads` threads over `table`: the best move's token
/// and the result.
fn search_with<G: Strategy>(
    p: &G,
    depth: u32,
    threads: usize,
    table: &Table<G::Move>,
) -> (String, SearchResult<G::Move>) {
    let signals = Signals::default();
    let history = [(p.key(), p.in_check())];
    let r = if threads == 1 {
        Searcher::new(table, &signals, &history).run(p, &limits(depth), Instant::now(), &mut |_| {})
    } else {
        let ctx = smp::SearchContext { tt: table, signals: &signals, threads, start: Instant::now() };
        smp::search(p, &history, &limits(depth), &ctx, &mut |_| {})
    };
    let token = r.best.map(|m| p.format_move(m)).unwrap_or_else(|| "resign".into());
    (token, r)
}

fn search<G: Strategy>(p: &G, depth: u32) -> (String, SearchResult<G::Move>) {
    search_with(p, depth, 1, &Table::new(4))
}

/// Ra7 (8g8b) and Rb8 (7h7a) mate the h8 king: mate in 2 (3 plies).
const KOKESU_MATE_IN_TWO: &str = "7k/8/8/8/8/8/R7/1R4K1 b - 1";

#[test]
fn kokesu_finds_a_mate_in_two_at_the_right_distance() {
    let p: Kokesu = pos(KOKESU_MATE_IN_TWO);
    let (_, r) = search(&p, 6);
    assert_eq!(mate_plies(r.score), Some(3), "score {}", r.score);
}

#[test]
fn kokesu_avoids_the_stalemate_trap() {
    // Qg6-f7 (2c3b) would stalemate the h8 king; the queen must keep winning.
    let p: Kokesu = pos("7k/8/6Q1/8/8/8/8/K7 b - 1");
    let (mv, r) = search(&p, 8);
    assert_ne!(mv, "2c3b");
    assert!(r.score > 500, "a queen up, not a draw: {}", r.score);
}

#[test]
fn mate_scores_survive_the_transposition_table() {
    let p: Kokesu = pos(KOKESU_MATE_IN_TWO);
    let table = Table::new(4);
    let (first, a) = search_with(&p, 7, 1, &table);
    // The same search again over the filled table: the same distance, from the root.
    let (second, b) = search_with(&p, 7, 1, &table);
    assert_eq!(mate_plies(a.score), Some(3));
    assert_eq!(mate_plies(b.score), Some(3));
    assert!(b.nodes < a.nodes, "the table saves work: {} then {}", a.nodes, b.nodes);
    assert_eq!(first, second);
    // And from the position after the first move, one ply nearer.
    let mut q = p.clone();
    q.play(a.best.unwrap());
    let (_, c) = search_with(&q, 7, 1, &table);
    assert_eq!(mate_plies(c.score), Some(-2), "score {}", c.score);
}

#[test]
fn two_threads_find_the_same_mate() {
    let p: Kokesu = pos(KOKESU_MATE_IN_TWO);
    let (mv, r) = search_with(&p, 8, 2, &Table::new(4));
    assert_eq!(mate_plies(r.score), Some(3));
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    assert!(legal.iter().any(|&m| p.format_move(m) == mv));
}

/// The search's move leaves the opponent without a legal move (a win in shogi).
fn assert_leaves_no_move(p: &Shogi66, r: &SearchResult<<Shogi66 as Game>::Move>) {
    let mut after = *p;
    after.play(r.best.expect("a move"));
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(replies.is_empty(), "{} leaves the king no move", p.format_move(r.best.unwrap()));
}

#[test]
fn shogi66_never_plays_a_pawn_drop_mate() {
    // P*1b would mate, but a pawn drop may not mate. (Gold moves that leave the king
    // without a move win here too: having no legal move loses in shogi.)
    let p: Shogi66 = pos("5k/6/3NG1/6/6/K5 b P 1");
    let (mv, r) = search(&p, 5);
    assert_ne!(mv, "P*1b");
    assert_eq!(mate_plies(r.score), Some(1));
    assert_leaves_no_move(&p, &r);
}

#[test]
fn shogi66_finds_a_mate_by_a_pawn_move() {
    // A pawn that moves (1c1b) may mate; so do several gold moves (a king without a move
    // has lost). Whichever the engine picks must leave gote no move.
    let p: Shogi66 = pos("5k/6/3NGP/6/6/K5 b - 1");
    let (mv, r) = search(&p, 4);
    assert_eq!(mate_plies(r.score), Some(1), "{mv}");
    assert_leaves_no_move(&p, &r);
}

#[test]
fn numbershogi_takes_the_sum_of_seven() {
    // Holding a 6 (F), taking the 1 on 2c makes seven.
    // A study position: the pieces not shown are out of play.
    let p = NumberShogi::from_study_sfen("3/3/1a1/1A1/3 b F 20", &Default::default()).unwrap();
    let (mv, r) = search(&p, 4);
    assert_eq!(mv, "2d2c");
    assert_eq!(mate_plies(r.score), Some(1));
}

#[test]
fn kaninariebi_takes_the_forced_win() {
    let p: KaniNariEbi = pos("4c/4c/C1cC1/1C3/5 b - 1");
    let (mv, r) = search(&p, 4);
    assert_eq!(mv, "5c4c");
    assert_eq!(mate_plies(r.score), Some(1));
}

#[test]
fn kanishogi_takes_the_forced_win() {
    let p: KaniShogi = pos("A4/3D1/3kc/4C/K3a b - 1");
    let (mv, r) = search(&p, 4);
    assert!(mv == "1d2d" || mv == "5a2a,2a1b", "{mv}");
    assert_eq!(mate_plies(r.score), Some(1));
}

/// Kiwipete without castling rights, kokesu's notation.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1";

#[test]
fn kokesu_corrects_its_evaluation_by_pawn_structure_and_pieces() {
    // A knight move keeps the pawns' key and changes its side's pieces' key; a pawn move
    // changes only the pawns'.
    let p: Kokesu = pos(KIWIPETE);
    let keys = p.correction_keys().map(|k| k.expect("kokesu names three keys"));
    let after = |token: &str| {
        let mut q = p.clone();
        q.play(p.parse_move(token).unwrap());
        q.correction_keys().map(Option::unwrap)
    };
    let knight = after("4d5f");
    assert_eq!(knight[0], keys[0], "Nd3 moves no pawn");
    assert_ne!(knight[1], keys[1], "Nd3 moves a white piece");
    assert_eq!(knight[2], keys[2], "Nd3 leaves black's pieces");
    let pawn = after("7g7f");
    assert_ne!(pawn[0], keys[0], "b3 moves a pawn");
    assert_eq!(pawn[1..], keys[1..], "b3 moves no other piece");
    // A search learns a correction for the structure it searched most, and hands it on.
    let history = [(p.key(), p.in_check())];
    let mut stats = Vec::new();
    let (table, signals) = (Table::new(4), Signals::default());
    let ctx = smp::SearchContext { tt: &table, signals: &signals, threads: 1, start: Instant::now() };
    smp::search_with(&p, &history, &limits(9), &ctx, &mut stats, &mut |_| {});
    let root = CorrectionKeys { game: p.correction_keys(), prev: None };
    let learned = stats[0].corrections.get(0, &root);
    assert_ne!(learned, 0, "nine plies over one pawn structure teach it something");
    assert!(learned.abs() <= 300, "{learned}: three keys of at most 100 each");
}
