//! `koma nnue-data`: a game's training positions from koma's own games (Kokesu's by
//! default, `--variant` another game with a network).
//!
//! Each game opens with a few random plies (`--random-plies` plus 0 to 4 more, as
//! `examples/selfplay_data.rs` does), then koma plays itself at `--play-nodes` nodes a
//! move (the default evaluation, one hash table per side). Every position after the
//! opening that is quiet (not in check, the move played not a capture or promotion, its
//! score not a mate) and not seen before in the run (by key: deduplicated) is searched
//! again, deeper, at `--score-nodes` nodes with the game's history; that score and the
//! game's result (the referee's, or the runner's cuts: a score beyond 1500 cp for 8
//! plies is adjudicated, 300 plies is a draw) go into the record (`records.rs`).
//!
//! Deterministic from the seed: fixed nodes, one thread, no clock.

use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, Instant};

use super::records::{self, Record};
use super::Rng;
use crate::game::referee::Referee;
use crate::game::{Color, Strategy};
use crate::games::nnue::trainable::Trainable;
use crate::search::time::TimePlan;
use crate::search::tt::Table;
use crate::search::{mate_plies, Limits, Searcher, Signals};

/// What `koma nnue-data` is asked for.
#[derive(Clone, Debug)]
pub(crate) struct DataPlan {
    pub(crate) games: usize,
    pub(crate) seed: u64,
    pub(crate) play_nodes: u64,
    pub(crate) score_nodes: u64,
    pub(crate) random_plies: usize,
}

/// What a run made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DataSummary {
    pub(crate) games: usize,
    pub(crate) positions: usize,
    /// Quiet positions left out as already written.
    pub(crate) duplicates: usize,
    /// Sente's wins, draws, losses.
    pub(crate) results: [usize; 3],
}

/// The runner's cap, not a rule: a game still going after this many plies is a draw.
const PLY_CAP: usize = 300;
/// The runner's adjudication, not a rule.
const ADJUDICATE_CP: i32 = 1500;
const ADJUDICATE_PLIES: i32 = 8;

fn search<G: Strategy>(pos: &G, tt: &Table<G::Move>, history: &[(u64, bool)], nodes: u64) -> (i32, Option<G::Move>) {
    let signals = Signals::default();
    let limits = Limits {
        time: TimePlan { optimum: None, maximum: None, minimum: Duration::ZERO, use_all: false },
        depth: None,
        nodes: Some(nodes),
        multipv: 1,
        searchmoves: Vec::new(),
    };
    let r = Searcher::<G>::new(tt, &signals, history).run(pos, &limits, Instant::now(), &mut |_| {});
    (r.score, r.best)
}

/// Plays one game; returns its quiet new positions (record without result, and the side to
/// move) and sente's result (0 loss, 1 draw, 2 win).
fn game<G: Trainable>(
    plan: &DataPlan,
    rng: &mut Rng,
    seen: &mut HashSet<u64>,
    summary: &mut DataSummary,
) -> (Vec<Record>, u8) {
    let opening = plan.random_plies + rng.below(5);
    let mut game = Referee::new(G::startpos(&G::Rules::default()));
    let tts = [Table::new(8), Table::new(8)];
    let scorer = Table::new(8);
    let mut out = Vec::new();
    let mut big = 0i32;
    let mut legal = Vec::new();
    for ply in 0..PLY_CAP {
        if let Some(v) = game.verdict() {
            return (out, (v.points(Color::Sente) * 2.0) as u8);
        }
        let pos = game.pos().clone();
        legal.clear();
        pos.legal_moves(&mut legal);
        let sente = pos.side_to_move() == Color::Sente;
        if ply < opening {
            game.play(legal[rng.below(legal.len())]);
            continue;
        }
        let (score, best) = search(&pos, &tts[usize::from(!sente)], game.history(), plan.play_nodes);
        let mv = best.unwrap_or(legal[0]);
        let white = if sente { score } else { -score };
        big = if white.abs() <= ADJUDICATE_CP {
            0
        } else if big.signum() == white.signum() {
            big + white.signum()
        } else {
            white.signum()
        };
        if big.abs() >= ADJUDICATE_PLIES {
            return (out, if big > 0 { 2 } else { 0 });
        }
        if !pos.in_check() && !pos.is_tactical(mv) && mate_plies(score).is_none() {
            if seen.insert(pos.key()) {
                let (deep, _) = search(&pos, &scorer, game.history(), plan.score_nodes);
                if mate_plies(deep).is_none() {
                    let score = deep.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
                    let ply = u16::try_from(game.plies()).unwrap_or(u16::MAX);
                    out.push(Record { cells: pos.cells(), side: u8::from(!sente), result: 0, score, ply });
                }
            } else {
                summary.duplicates += 1;
            }
        }
        game.play(mv);
    }
    (out, 1)
}

/// Plays `plan.games` games and writes the header and every record to `out`, with a
/// progress line on `progress` every 20 games.
pub(crate) fn generate<G: Trainable>(
    plan: &DataPlan,
    out: &mut impl Write,
    progress: &mut impl Write,
) -> std::io::Result<DataSummary> {
    let mut rng = Rng(plan.seed);
    let mut seen = HashSet::new();
    let mut summary = DataSummary::default();
    let start = Instant::now();
    out.write_all(&records::header(G::DATA_VERSION, G::FEATURES.id))?;
    for g in 0..plan.games {
        let (positions, sente_result) = game::<G>(plan, &mut rng, &mut seen, &mut summary);
        summary.games += 1;
        summary.results[2 - sente_result as usize] += 1;
        for mut r in positions {
            r.result = if r.side == 0 { sente_result } else { 2 - sente_result };
            out.write_all(&r.encode(G::DATA_VERSION))?;
            summary.positions += 1;
        }
        if (g + 1) % 20 == 0 || g + 1 == plan.games {
            let secs = start.elapsed().as_secs_f64();
            let [w, d, l] = summary.results;
            writeln!(
                progress,
                "{} games, {} positions ({} duplicates left out), sente +{w} ={d} -{l}, {secs:.0} s, {:.0} positions/s",
                g + 1,
                summary.positions,
                summary.duplicates,
                summary.positions as f64 / secs.max(1e-9)
            )?;
        }
    }
    out.flush()?;
    Ok(summary)
}
