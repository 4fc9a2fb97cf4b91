//! `koma analyse --game FILE`: the game report. Every position of a recorded game is
//! analysed as `koma analyse` analyses a position (the same engine, limits and options);
//! each move gets the evaluation before and after it, koma's best move and its
//! evaluation, the win probability it lost and a mark ([`marks`]); each side gets totals.
//! Out: one JSON object a move and one of totals on stdout, and on request the record
//! annotated in the game's natural format (`--annotated`) and an SVG graph (`--svg`).
//! Positions of a game that the engine solves (Number Shogi after setup) get exact values
//! from the shipped table or the solver, as `mate` scores (0 for a draw). The game is
//! analysed under the record's rules switches: the engine gets them before any position.

pub(crate) mod check;
pub(crate) mod marks;
pub(crate) mod svg;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use serde::Serialize;

use crate::cli::analyse::{Analyser, Analysis, Args, JsonScore};
use crate::game::{Live, LiveGame, Notation, Outcome, Strategy};
use crate::games::{self, Visitor};
use crate::input::file::same_file;
use crate::records::{self, Format, Played, Record};
use crate::search::prove::{prove, Sources};
use crate::search::solve::{Budget, Solver};
use check::{deeper, exempt, Checked, Exempt};
use marks::{mark, negate, win_percent, Mark, Totals};

/// The solver's budget for a position the table does not hold.
const SOLVER_NODES: u64 = 200_000;
/// The report's limit when none is given: nodes a position (protocol/records.md, "The
/// game report", says what it costs and how stable its marks are).
pub const DEFAULT_NODES: u64 = 10_000;

/// One move of the report. Evaluations are the first player's view (`b`), as a graph
/// shows them; `loss` is the mover's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveReport {
    pub ply: usize,
    /// `b` or `w`: who played it.
    pub side: &'static str,
    pub r#move: String,
    /// The evaluation of the position before the move (the best move's).
    pub before: Option<JsonScore>,
    /// After the move; absent when the move ended the game (see `over`).
    pub after: Option<JsonScore>,
    /// koma's best move in the position before, and its evaluation.
    pub best: Option<String>,
    pub best_eval: Option<JsonScore>,
    /// The first player's win probability (0 to 100) before and after.
    pub win_before: f64,
    pub win_after: f64,
    /// Win probability the mover lost with this move, in points (never negative): the
    /// deeper look's figure when there was one (`checked`), 0 for a book or forced move.
    pub loss: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// The game's book plays this move here: never marked.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub book: bool,
    /// The only legal move: never marked.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// A candidate mistake searched again deeper; `best`, `best_eval`, `loss` and `mark`
    /// are that search's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checked: Option<Checked>,
    /// The values were proven (table or solver), not searched.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
    /// How the game ended with this move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub over: Option<String>,
}

/// The last line: each side's totals.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub totals: [(&'static str, Totals); 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

/// What one position is worth to its side to move.
#[derive(Clone, Debug, PartialEq)]
struct Value {
    score: Option<JsonScore>,
    best: Option<String>,
    /// Win probability for the side to move (0..100).
    win: f64,
    exact: bool,
    /// `sente wins: checkmate` when the game is over here.
    over: Option<String>,
    /// The side to move, `b` or `w`.
    side: &'static str,
}

/// The proven value of a live game's position, if its game is one the engine solves
/// first: the engine's own proof ([`prove`]: the verdict, the game's table, else the
/// solver within its budget, the game's history judged).
struct Proven<'a>(&'a dyn Live);

impl Visitor for Proven<'_> {
    type Output = Option<(Outcome, u32)>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        if !G::SOLVE_FIRST {
            return None;
        }
        let game = self.0.as_any().downcast_ref::<LiveGame<G>>()?;
        let budget = Budget { max_nodes: Some(SOLVER_NODES), ..Budget::default() };
        let p = prove(game.referee(), &mut Solver::new(), &budget, Sources::TableAndSolver, &mut |_| {}).ok()?;
        Some((p.value?.into(), p.plies))
    }
}

fn value_of(a: &Analysis, game: &dyn Live) -> Result<Value, String> {
    if let Some(e) = &a.error {
        return Err(e.clone());
    }
    let state = a.state.as_ref().ok_or("no position")?;
    let side = state.side;
    if let Some(r) = &state.result {
        let win = match r.winner {
            None => 50.0,
            Some(w) if w == side => 100.0,
            Some(_) => 0.0,
        };
        return Ok(Value { score: None, best: None, win, exact: true, over: Some(r.text.clone()), side });
    }
    // A score the engine proved is exact as it stands; else the report asks the proof.
    let proven = if a.exact { None } else { games::visit(state.variant, Proven(game)).flatten() };
    if let Some((outcome, plies)) = proven {
        let n = plies as i32;
        let (score, win) = match outcome {
            Outcome::Win => (JsonScore::Mate(n), 100.0),
            Outcome::Loss => (JsonScore::Mate(-n), 0.0),
            Outcome::Draw => (JsonScore::Cp(0), 50.0),
        };
        return Ok(Value { score: Some(score), best: None, win, exact: true, over: None, side });
    }
    let score = a.score;
    let win = score.map_or(50.0, win_percent);
    Ok(Value { score, best: a.bestmove.clone().flatten(), win, exact: a.exact, over: None, side })
}

/// The first player's view of a side-to-move score.
fn first_view(score: Option<JsonScore>, side: &str) -> Option<JsonScore> {
    if side == "b" {
        score
    } else {
        score.map(negate)
    }
}

/// The report of a record: one entry a move, and the totals. Every position is analysed
/// at the analyser's limits (the graph's values); every move is then searched again deeper
/// from the position before it, the best move and the played move ([`check`]), and marked
/// by that search: a loss seen at the report's limit alone is not a mark, and a loss it
/// missed is. Book and forced moves are never marked; proven values (exact) are marked
/// as they are.
pub fn report(analyser: &mut Analyser, record: &Record) -> Result<(Vec<MoveReport>, Summary), String> {
    report_unless(analyser, record, &|| false)
}

/// The error of a report given up (`report_unless`).
pub const GIVEN_UP: &str = "the game report was given up";

/// [`report`], given up ([`GIVEN_UP`]) as soon as `give_up` says so: it is asked before
/// each search, so a report no one waits for stops within one search.
pub fn report_unless(
    analyser: &mut Analyser,
    record: &Record,
    give_up: &dyn Fn() -> bool,
) -> Result<(Vec<MoveReport>, Summary), String> {
    let tokens = record.tokens();
    // The record's game, under its rules, walked once: a move pushed for each ply.
    let mut game = record.position()?;
    let mut values = Vec::with_capacity(tokens.len() + 1);
    let mut exempts = Vec::with_capacity(tokens.len());
    for n in 0..=tokens.len() {
        if n > 0 {
            exempts.push(exempt(game.as_ref(), &tokens[n - 1]));
            game.push_unjudged(&tokens[n - 1]).map_err(|e| format!("move {n}: {e}"))?;
        }
        if give_up() {
            return Err(GIVEN_UP.into());
        }
        let a = analyser.analyse_game(game.as_ref(), &format!("ply {n}"));
        let mut v = value_of(&a, game.as_ref()).map_err(|e| format!("position after {n} moves: {e}"))?;
        if v.exact && v.over.is_none() && v.best.is_none() {
            // A proven position: the search still names koma's move.
            v.best = a.bestmove.clone().flatten();
        }
        values.push(v);
    }
    let mut totals = [("b", Totals::default()), ("w", Totals::default())];
    let mut moves = Vec::with_capacity(tokens.len());
    // The game walked again for the deeper looks, each from the position before its move.
    let mut before = record.position()?;
    for (i, token) in tokens.iter().enumerate() {
        let (pre, post) = (&values[i], &values[i + 1]);
        let mover_after = 100.0 - post.win;
        let first_loss = (pre.win - mover_after).max(0.0);
        let sente = |win_for_mover: f64| if pre.side == "b" { win_for_mover } else { 100.0 - win_for_mover };
        let mut r = MoveReport {
            ply: i + 1,
            side: pre.side,
            r#move: token.clone(),
            before: first_view(pre.score, pre.side),
            after: first_view(post.score, post.side),
            best: pre.best.clone(),
            best_eval: first_view(pre.score, pre.side),
            win_before: round(sente(pre.win)),
            win_after: round(sente(mover_after)),
            loss: round(first_loss),
            mark: None,
            book: exempts[i] == Some(Exempt::Book),
            forced: exempts[i] == Some(Exempt::Forced),
            checked: None,
            exact: pre.exact && post.exact,
            over: post.over.clone(),
        };
        if exempts[i].is_some() {
            r.loss = 0.0;
        } else if !r.exact {
            if give_up() {
                return Err(GIVEN_UP.into());
            }
            let d = deeper(analyser, before.as_ref(), token, &format!("ply {i}"))
                .map_err(|e| format!("position after {i} moves, searched deeper: {e}"))?;
            r.best = d.best;
            r.best_eval = Some(check::first_view(d.best_score, pre.side));
            r.loss = round(d.loss);
            r.mark = mark(d.loss);
            r.checked = Some(Checked {
                depth: d.depth,
                eval: check::first_view(d.played_score, pre.side),
                first_loss: round(first_loss),
            });
        } else {
            r.mark = mark(first_loss);
        }
        totals[usize::from(pre.side == "w")].1.add(r.loss, r.mark);
        moves.push(r);
        before.push_unjudged(token).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    let result = values.last().and_then(|v| v.over.clone());
    Ok((moves, Summary { totals, result }))
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A score as text: pawns with two decimals (`0.31`, `-1.20`) or `#3` / `#-3`.
pub fn pawns(s: JsonScore) -> String {
    match s {
        JsonScore::Cp(cp) => format!("{:.2}", cp as f64 / 100.0),
        JsonScore::Mate(n) => format!("#{n}"),
    }
}

/// The record with each move's report as its comment (PGN: `[%eval]` first).
pub fn annotate(record: &Record, moves: &[MoveReport]) -> Record {
    let pgn = Format::natural(record.variant) == Format::Pgn;
    let mut out = record.clone();
    // The position before each move, for the best move's SAN in PGN.
    let mut pos = record.position().ok();
    for (m, r) in out.moves.iter_mut().zip(moves) {
        let mut words = Vec::new();
        match (r.after, pgn) {
            (Some(a), true) => words.push(format!("[%eval {}]", pawns(a))),
            (Some(a), false) => words.push(format!("eval {}", pawns(a))),
            (None, _) => {}
        }
        if let Some(mk) = r.mark {
            words.push(mk.name().to_string());
        }
        if let (Some(b), Some(e)) = (&r.best, r.best_eval) {
            if *b != r.r#move {
                let shown = match &pos {
                    Some(p) if pgn => records::notation::name(p.as_ref(), b, records::notation::Style::San, None),
                    _ => b.clone(),
                };
                words.push(format!("best {shown} ({})", pawns(e)));
            }
        }
        if let Some(p) = pos.as_mut() {
            let _ = p.play(&m.usi);
        }
        if !words.is_empty() {
            m.comment = Some(words.join(" "));
        }
    }
    out
}

/// `koma analyse --game FILE`: 0 when the whole record was read and analysed, 1 when a
/// part of it could not be read (the rest is analysed) or an output failed, 2 when
/// nothing could be analysed.
pub fn main(args: Args) -> ExitCode {
    let Some(path) = args.game.clone() else { return ExitCode::from(2) };
    if let Some(why) = clashing_output(&path, &args) {
        eprintln!("koma analyse: {why}");
        return ExitCode::from(2);
    }
    let variant = args.variant.as_deref().and_then(|v| games::names().into_iter().find(|n| n.eq_ignore_ascii_case(v)));
    let parsed = match records::read_path(&path, variant) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("koma analyse: {e}");
            return ExitCode::from(2);
        }
    };
    let mut status = ExitCode::SUCCESS;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for e in &parsed.errors {
        let at = format!("{}:{}", path.display(), e.line);
        let _ = writeln!(out, "{}", serde_json::json!({ "at": at, "error": e.reason }));
        status = ExitCode::FAILURE;
    }
    let mut args = args;
    if args.depth.is_none() && args.movetime.is_none() && args.nodes.is_none() {
        args.nodes = Some(DEFAULT_NODES);
    }
    let mut analyser = match Analyser::new(&args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("koma analyse: {e}");
            return ExitCode::from(2);
        }
    };
    let (moves, summary) = match report(&mut analyser, &parsed.record) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("koma analyse: {}: {e}", path.display());
            return ExitCode::from(2);
        }
    };
    for m in &moves {
        let _ = writeln!(out, "{}", serde_json::to_string(m).unwrap_or_default());
    }
    if writeln!(out, "{}", serde_json::to_string(&summary).unwrap_or_default()).is_err() {
        return ExitCode::FAILURE;
    }
    if let Some(to) = &args.annotated {
        let record = annotate(&parsed.record, &moves);
        let text = records::write(Format::natural(record.variant), &record);
        if let Err(e) = text.and_then(|t| save(to, &t)) {
            eprintln!("koma analyse: --annotated {}: {e}", to.display());
            status = ExitCode::FAILURE;
        }
    }
    if let Some(to) = &args.svg {
        let title = format!("{} evaluation graph", path.display());
        if let Err(e) = save(
            to,
            &svg::graph(
                &moves,
                &title,
                svg::sides(games::descriptor(parsed.record.variant).is_some_and(|d| d.appearance.chess)),
            ),
        ) {
            eprintln!("koma analyse: --svg {}: {e}", to.display());
            status = ExitCode::FAILURE;
        }
    }
    status
}

/// Why the outputs cannot be written as asked: one of them is the record read (it would
/// be overwritten) or both are one file (one would overwrite the other).
fn clashing_output(game: &Path, args: &Args) -> Option<String> {
    let outputs = [("--annotated", &args.annotated), ("--svg", &args.svg)];
    let outputs: Vec<(&str, &Path)> = outputs.iter().filter_map(|(n, p)| p.as_deref().map(|p| (*n, p))).collect();
    for (flag, out) in &outputs {
        if out == &game || same_file(out, game) {
            return Some(format!("{flag} {}: it is the record read (--game): it would be overwritten", out.display()));
        }
    }
    if let [(_, a), (_, b)] = outputs[..] {
        if a == b || same_file(a, b) {
            return Some(format!(
                "--annotated and --svg are one file ({}): one would overwrite the other",
                a.display()
            ));
        }
    }
    None
}

fn save(path: &Path, text: &str) -> Result<(), String> {
    crate::input::file::write(path, text.as_bytes()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use super::*;

    fn kokesu(moves: &[&str]) -> Record {
        let text: String = moves.iter().map(|m| format!("move {m}\n")).collect();
        let text = format!("# koma record\nvariant kokesu\nstart startpos\n{text}");
        records::read(Format::Koma, &text, None).whole().expect("a koma record")
    }

    fn analyser() -> Analyser {
        Analyser::new(&Args { nodes: Some(500), ..Args::default() }).expect("an analyser")
    }

    #[test]
    fn a_report_given_up_stops_before_its_next_search_and_says_so() {
        let record = kokesu(&["4g4e", "4b4d", "7h6f", "2a3c"]);
        for stop_at in [1, 3, 6, 8] {
            let asked = Cell::new(0);
            let give_up = || {
                asked.set(asked.get() + 1);
                asked.get() >= stop_at
            };
            let got = report_unless(&mut analyser(), &record, &give_up);
            assert_eq!(got.err().as_deref(), Some(GIVEN_UP), "given up at question {stop_at}");
            assert_eq!(asked.get(), stop_at, "no question after the answer that gave it up");
        }
        // Never given up: the report, asked once before each of the 5 positions' searches
        // and each of the 4 moves' deeper looks.
        let asked = Cell::new(0);
        let whole = report_unless(&mut analyser(), &record, &|| {
            asked.set(asked.get() + 1);
            false
        })
        .expect("the whole report");
        assert_eq!(asked.get(), 9);
        let plain = report(&mut analyser(), &record).expect("the report");
        assert_eq!(serde_json::to_value(&whole.0).unwrap(), serde_json::to_value(&plain.0).unwrap());
    }
}
