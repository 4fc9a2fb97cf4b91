//! Before a move of the game report is marked: book moves and forced moves are never
//! marked, and a move is searched again deeper, the best move and the played move from
//! the position before it, so that a mark stands for a loss a deeper look sees
//! (protocol/records.md, "The game report"). Every move is a candidate, not only those
//! that lose value at the report's limit: measured on 66 shogi (tools/report_stability.py),
//! the moves a deeper look marks were often not seen losing at the shallower one.

use serde::Serialize;

use super::marks::{negate, win_percent};
use crate::cli::analyse::{Analyser, JsonScore};
use crate::game::{BookChoice, Live, LiveGame, Notation, Strategy};
use crate::games::{self, Visitor};
use crate::search::limits::GoParams;

/// The deeper look's limits: this many times the nodes or the time of the report's…
pub(crate) const FACTOR: u64 = 4;
/// …or its depth plus this many plies.
pub(crate) const PLIES: u32 = 2;
/// The fewest nodes of a deeper look at a node limit (the deeper look of a report at
/// 40,000 nodes): a mark is this search's, so reports at the default 10,000 nodes and at
/// 40,000 mark the same moves, and a mark does not hang on the report's own limit.
pub(crate) const FLOOR_NODES: u64 = 160_000;

/// Why a move is never marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exempt {
    /// The game's book plays it here (66 shogi's placement book, Number Shogi's setup).
    Book,
    /// The only legal move.
    Forced,
}

/// Whether `token`, played in `game`'s current position, is exempt from marks.
pub(crate) fn exempt(game: &dyn Live, token: &str) -> Option<Exempt> {
    if game.legal_moves().len() == 1 {
        return Some(Exempt::Forced);
    }
    games::visit(game.variant(), InBook { game, token }).flatten().map(|()| Exempt::Book)
}

/// Whether the game's book plays `token` in `game`'s position: `Some(())` if so.
struct InBook<'a> {
    game: &'a dyn Live,
    token: &'a str,
}

impl Visitor for InBook<'_> {
    type Output = Option<()>;
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        let game = self.game.as_any().downcast_ref::<LiveGame<G>>()?;
        let pos = game.referee().pos();
        let book = pos.book_move(&BookChoice::default())?;
        (pos.parse_move(self.token).ok()? == book).then_some(())
    }
}

/// The deeper look at a move: the depth it reached, the best move there and the values
/// of both moves (the mover's view), and the win probability the played move loses.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Deeper {
    pub depth: u32,
    pub best: Option<String>,
    pub best_score: JsonScore,
    pub played_score: JsonScore,
    pub loss: f64,
}

/// What the report shows of a deeper look: the depth, the played move's evaluation there
/// (the first player's view) and the loss the report's own limit had seen.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Checked {
    pub depth: u32,
    pub eval: JsonScore,
    pub first_loss: f64,
}

/// Searches `game`'s position (before `token` is played) within the analyser's deeper
/// limits for the best move, then the played move alone to the depth the first search
/// reached (and no further than the first's nodes or time), so that both values come
/// from one depth where the budget allows.
pub(crate) fn deeper(analyser: &mut Analyser, game: &dyn Live, token: &str, at: &str) -> Result<Deeper, String> {
    let go = deeper_limits(analyser.deeper(FACTOR, PLIES));
    // From an empty table: a mark depends on the position, the move and the limit, not
    // on what the report searched before it.
    analyser.new_game();
    let best = analyser.analyse_game_with(game, at, go.clone());
    if let Some(e) = best.error {
        return Err(e);
    }
    let best_score = best.score.ok_or("no score")?;
    let depth = best.depth.unwrap_or(1);
    let best_move = best.bestmove.flatten();
    let played_score = if best_move.as_deref() == Some(token) {
        best_score
    } else {
        let played = analyser.analyse_game_with(game, at, played_limits(&go, depth, token));
        if let Some(e) = played.error {
            return Err(e);
        }
        played.score.ok_or("no score for the move played")?
    };
    let loss = (win_percent(best_score) - win_percent(played_score)).max(0.0);
    Ok(Deeper { depth, best: best_move, best_score, played_score, loss })
}

/// The deeper look's limits: the analyser's, at least `FLOOR_NODES` at a node limit.
fn deeper_limits(go: GoParams) -> GoParams {
    GoParams { nodes: go.nodes.map(|n| n.max(FLOOR_NODES)), ..go }
}

/// The played move's search: that move alone, to `depth`, within the deeper look's own
/// nodes or time as well. A depth reached through a mate or a forced line (up to 127
/// plies) would otherwise cost the played move's tree without bound (a 66-shogi report
/// at 40,000 nodes ran for minutes on one move).
fn played_limits(go: &GoParams, depth: u32, token: &str) -> GoParams {
    GoParams { depth: Some(depth), searchmoves: vec![token.to_string()], ..go.clone() }
}

/// The first player's view of a score of the side `side` (`b` or `w`).
pub(crate) fn first_view(score: JsonScore, side: &str) -> JsonScore {
    if side == "b" {
        score
    } else {
        negate(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deeper_look_at_nodes_is_at_least_the_floor_and_four_times_the_report() {
        let at = |nodes| deeper_limits(GoParams { nodes: Some(nodes), ..GoParams::default() }).nodes;
        assert_eq!(at(10_000), Some(FLOOR_NODES));
        assert_eq!(at(10_000 * FACTOR), Some(FLOOR_NODES));
        assert_eq!(at(160_000 * FACTOR), Some(160_000 * FACTOR));
        let timed = deeper_limits(GoParams { movetime: Some(400), ..GoParams::default() });
        assert_eq!((timed.nodes, timed.movetime), (None, Some(400)));
    }

    #[test]
    fn the_played_moves_search_keeps_the_deeper_looks_nodes_and_time() {
        let go = GoParams { nodes: Some(40_000), movetime: Some(900), ..GoParams::default() };
        let only = played_limits(&go, 127, "7g7f");
        assert_eq!((only.depth, only.nodes, only.movetime), (Some(127), Some(40_000), Some(900)));
        assert_eq!(only.searchmoves, ["7g7f"]);
    }
}
