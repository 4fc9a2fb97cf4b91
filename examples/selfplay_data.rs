//! Training positions for the evaluation tuner (docs/TUNING.md) from koma's own games,
//! played in process with the engine's search at a fixed node count per move.
//!
//! `cargo run --release --example selfplay_data -- --variant kokesu --games 1500 --nodes 5000 --seed 1 > data/kokesu.txt`
//!
//! Each game starts with a few random plies (66 shogi: the whole placement at random,
//! then one or two random plies; Kani Shogi and Kani Nari Ebi: two to four; Number Shogi:
//! the random placement and at most one more) so the games differ; the rest is koma at `--nodes`
//! nodes a move with one hash table per side. The run is deterministic from the seed
//! (fixed nodes, no clock), so the command reproduces the data set.
//!
//! `--replay FILE` writes the quiet positions of games played elsewhere instead
//! (`tools/ray_fsf_games.py`: Fairy-Stockfish against itself or against koma), and
//! `--rescore FILE` scores the positions of a data file again with koma's search.
//!
//! Output, one position a line: `RESULT SCORE SFEN`, RESULT the game's result for the side
//! to move in that position (1 win, 0.5 draw, 0 loss), SCORE the search's score of it
//! (centipawns, side to move's view). Only quiet positions are written: not
//! in check, the search's move not a capture or promotion, its score not a mate, and not
//! inside the random opening. The game's end and result are the referee's
//! (`koma::game::referee`, what `d` prints: rules, no legal move, repetition with 66 shogi's
//! perpetual check, the move-count rule). The runner's own cuts: a game whose search score
//! stays beyond 1500 centipawns for 8 plies is adjudicated to that side; 300 plies is a
//! draw. The last stderr line counts the games by how they ended.
//!
//! Until issue 32 this example judged game ends itself and scored a perpetual-check cycle
//! in 66 shogi as a draw (the rules make it a loss for the checking side); 66 shogi data
//! generated before then carries those labels. No data set is committed (the tuning
//! commands regenerate them), only weights fitted to them. The games themselves are the
//! same as before (the search saw the same history); only a game's end label changes, and
//! only for a perpetual-check end. At db252a4 the 66 shogi recipe of tools/tune_eval.sh
//! (`--games 400 --nodes 8000`, seeds 1 and 2) has none: its 800 games end by checkmate
//! 69, repetition 15, adjudication 716, and its output is the same with the old judging;
//! the other four games' data is unchanged byte for byte (checked on 40-400 games each).

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use koma::game::referee::Referee;
use koma::game::zobrist;
use koma::game::{Color, Notation, Strategy};
use koma::games::{self, Visitor};
use koma::search::tt::Table;
use koma::search::{mate_plies, Limits, Searcher, Signals, TimePlan};

/// The run's only source of chance (splitmix64), so a seed gives the same data.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (zobrist::next(&mut self.0) % n as u64) as usize
    }
}

struct Args {
    rescore: Option<String>,
    replay: Option<String>,
    variant: String,
    games: usize,
    nodes: u64,
    seed: u64,
    random_plies: usize,
}

/// The runner's cap, not a rule of any game: a game still going after this many plies is
/// scored a draw.
const PLY_CAP: usize = 300;
/// The runner's adjudication, not a rule: a game whose search score stays beyond
/// `ADJUDICATE_CP` centipawns for `ADJUDICATE_PLIES` plies is scored a win for that side.
const ADJUDICATE_CP: i32 = 1500;
const ADJUDICATE_PLIES: i32 = 8;

/// How a game ended: the referee's rule, or the runner's own cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum End {
    Rule(&'static str),
    Adjudicated,
    PlyCap,
}

/// Plays one game; returns the quiet positions (SFEN, side to move is sente, search score),
/// sente's result (1, 0.5, 0), the plies played and how it ended. Game ends are the
/// referee's (`koma::game::referee`), as `d` reports them.
fn game<G: Strategy>(args: &Args, rng: &mut Rng, opening: usize) -> (Vec<(String, bool, i32)>, f32, usize, End) {
    let mut game = Referee::new(G::startpos(&G::Rules::default()));
    let tts = [Table::<G::Move>::new(8), Table::<G::Move>::new(8)];
    let mut out = Vec::new();
    let mut big = 0i32; // consecutive plies with |score| > ADJUDICATE_CP, signed for sente
    let mut legal = Vec::new();
    for ply in 0..=PLY_CAP {
        if let Some(v) = game.verdict() {
            return (out, v.points(Color::Sente), ply, End::Rule(v.rule.text()));
        }
        if ply == PLY_CAP {
            break;
        }
        let pos = game.pos();
        legal.clear();
        pos.legal_moves(&mut legal);
        let sente = pos.side_to_move() == Color::Sente;
        let mv = if ply < opening {
            legal[rng.below(legal.len())]
        } else {
            let signals = Signals::default();
            let limits = node_limits(args.nodes);
            let tt = &tts[usize::from(!sente)];
            let mut s = Searcher::<G>::new(tt, &signals, game.history());
            let r = s.run(pos, &limits, Instant::now(), &mut |_| {});
            let mv = r.best.unwrap_or(legal[0]);
            let white_score = if sente { r.score } else { -r.score };
            if white_score.abs() > ADJUDICATE_CP {
                if big.signum() == white_score.signum() {
                    big += white_score.signum();
                } else {
                    big = white_score.signum();
                }
            } else {
                big = 0;
            }
            if big.abs() >= ADJUDICATE_PLIES {
                return (out, if big > 0 { 1.0 } else { 0.0 }, ply, End::Adjudicated);
            }
            if !pos.in_check() && !pos.in_placement() && !pos.is_tactical(mv) && mate_plies(r.score).is_none() {
                out.push((pos.to_sfen(), sente, r.score));
            }
            mv
        };
        game.play(mv);
    }
    (out, 0.5, PLY_CAP, End::PlyCap)
}

/// A search of `nodes` nodes, no clock (so a seed gives the same data).
fn node_limits<M>(nodes: u64) -> Limits<M> {
    Limits {
        time: TimePlan { optimum: None, maximum: None, minimum: std::time::Duration::ZERO, use_all: false },
        depth: None,
        nodes: Some(nodes),
        multipv: 1,
        searchmoves: Vec::new(),
    }
}

fn run<G: Strategy>(args: &Args, base_opening: usize, extra: usize) {
    let mut rng = Rng(args.seed);
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let start = Instant::now();
    let (mut positions, mut score) = (0usize, [0usize; 3]);
    let mut ends: BTreeMap<End, usize> = BTreeMap::new();
    for g in 0..args.games {
        let opening = base_opening + rng.below(extra + 1);
        let (pos, result, plies, end) = game::<G>(args, &mut rng, opening);
        score[(result * 2.0) as usize] += 1;
        *ends.entry(end).or_insert(0) += 1;
        for (sfen, sente, score) in &pos {
            let r = if *sente { result } else { 1.0 - result };
            writeln!(w, "{r} {score} {sfen}").unwrap();
        }
        positions += pos.len();
        if (g + 1) % 50 == 0 || g + 1 == args.games {
            w.flush().unwrap();
            eprintln!(
                "{} games ({} plies last), {positions} positions, sente +{} ={} -{}, {:.0} s",
                g + 1,
                plies,
                score[2],
                score[1],
                score[0],
                start.elapsed().as_secs_f64()
            );
        }
    }
    let ends: Vec<String> = ends
        .iter()
        .map(|(end, n)| match end {
            End::Rule(rule) => format!("{rule} {n}"),
            End::Adjudicated => format!("adjudicated {n}"),
            End::PlyCap => format!("ply cap {n}"),
        })
        .collect();
    eprintln!("ends: {}", ends.join(", "));
}

/// `--rescore FILE`: the positions of FILE (`RESULT [SCORE] SFEN`) again, each with the
/// score of a fresh search of `--nodes` nodes (new table, no game history).
fn rescore<G: Strategy>(args: &Args, path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let start = Instant::now();
    for (n, line) in text.lines().enumerate() {
        let Some((r, rest)) = line.split_once(' ') else { continue };
        let sfen = match rest.split_once(' ') {
            Some((s, sfen)) if s.parse::<i32>().is_ok() => sfen,
            _ => rest,
        };
        let pos = G::from_sfen(sfen, &G::Rules::default()).expect("sfen");
        let tt = Table::<G::Move>::new(4);
        let signals = Signals::default();
        let limits = node_limits(args.nodes);
        let history = [(pos.key(), pos.in_check())];
        let res = Searcher::<G>::new(&tt, &signals, &history).run(&pos, &limits, Instant::now(), &mut |_| {});
        writeln!(w, "{r} {} {sfen}", res.score).unwrap();
        if (n + 1) % 5000 == 0 {
            eprintln!("{} positions, {:.0} s", n + 1, start.elapsed().as_secs_f64());
        }
    }
}

/// `--replay FILE`: the quiet positions of games played elsewhere (tools/ray_fsf_games.py:
/// Fairy-Stockfish against itself or against koma). Each line of FILE is one game,
/// `RESULT OPENING MOVE...`: sente's result (1, 0.5, 0), how many opening plies to pass
/// over (the random ones), then the game's moves from the start position. Written as
/// `RESULT 0 SFEN` (no search score: tools/fsf_label.py scores them), each position once
/// in the whole file, with the filter of the self-play games: not in check, the move
/// played not a capture or promotion, not inside the opening.
fn replay<G: Strategy>(path: &str) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let mut seen = std::collections::HashSet::new();
    let (mut games, mut written) = (0usize, 0usize);
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| -> ! { panic!("{path}:{}: {what}", n + 1) };
        let mut words = line.split_whitespace();
        let Some(result) = words.next() else { continue };
        let result: f32 = result.parse().unwrap_or_else(|_| bad("RESULT is not a number"));
        let opening: usize = words.next().and_then(|w| w.parse().ok()).unwrap_or_else(|| bad("no OPENING count"));
        let mut pos = G::startpos(&G::Rules::default());
        for (ply, token) in words.enumerate() {
            let mv = pos.parse_move(token).unwrap_or_else(|e| bad(&format!("{token}: {e}")));
            if ply >= opening && !pos.in_check() && !pos.in_placement() && !pos.is_tactical(mv) {
                let sfen = pos.to_sfen();
                if seen.insert(sfen.clone()) {
                    let r = if pos.side_to_move() == Color::Sente { result } else { 1.0 - result };
                    writeln!(w, "{r} 0 {sfen}").unwrap();
                    written += 1;
                }
            }
            pos.play(mv);
        }
        games += 1;
    }
    eprintln!("{games} games, {written} positions");
}

fn main() {
    let mut args = Args {
        rescore: None,
        replay: None,
        variant: "kokesu".into(),
        games: 100,
        nodes: 5000,
        seed: 1,
        random_plies: usize::MAX,
    };
    let v: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i + 1 < v.len() {
        let val = &v[i + 1];
        match v[i].as_str() {
            "--variant" => args.variant = val.clone(),
            "--games" => args.games = val.parse().expect("--games N"),
            "--nodes" => args.nodes = val.parse().expect("--nodes N"),
            "--seed" => args.seed = val.parse().expect("--seed N"),
            "--rescore" => args.rescore = Some(val.clone()),
            "--replay" => args.replay = Some(val.clone()),
            "--random-plies" => args.random_plies = val.parse().expect("--random-plies N"),
            other => panic!("unknown argument {other}"),
        }
        i += 2;
    }
    let variant = args.variant.clone();
    games::visit(&variant, Task(&args)).unwrap_or_else(|| panic!("no tuner data for variant {variant}"));
}

/// The random opening of a game: the plies played at random unless `--random-plies`
/// says, and the most more at random.
fn opening(variant: &str) -> (usize, usize) {
    match variant {
        // 4 to 8 random plies from the start position.
        "kokesu" => (4, 4),
        // The 12 placement plies at random, then 0 to 2 more.
        "shogi66" => (12, 2),
        // The 12 placement plies at random (as tools/match.py opens Number Shogi games),
        // then 0 or 1 more; placement positions are never written.
        "numbershogi" => (12, 1),
        // 2 to 4 random plies from the start position (tools/match.py opens crab games
        // with 2).
        "kanishogi" | "kaninariebi" => (2, 2),
        other => panic!("no tuner data for variant {other}"),
    }
}

/// The run for the game named by `--variant`: a rescore, or new games.
struct Task<'a>(&'a Args);

impl Visitor for Task<'_> {
    type Output = ();
    fn visit<G: Strategy + Notation>(self) {
        let args = self.0;
        if let Some(path) = &args.rescore {
            return rescore::<G>(args, path);
        }
        if let Some(path) = &args.replay {
            return replay::<G>(path);
        }
        let (base, extra) = opening(G::NAME);
        run::<G>(args, if args.random_plies == usize::MAX { base } else { args.random_plies }, extra)
    }
}
