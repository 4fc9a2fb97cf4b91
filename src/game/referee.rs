//! The referee: whether a game is over, who won and by which rule, judged in one place.
//!
//! Everything that plays whole games asks here: `d` and `koma analyse` ([`crate::game::state`]),
//! the self-play examples (match games and tuning data) and the self-play tests. A game is
//! over, in this order, by
//! 1. a rule of the game that has declared a result ([`Game::result`]: sum of seven,
//!    three shrimps, ...),
//! 2. the side to move having no legal move ([`Game::no_move_outcome`]: checkmate,
//!    stalemate, ...),
//! 3. the same position (board, hands, side to move, placement state: [`Game::key`]) for
//!    the [`Game::REPETITION_LIMIT`]th time since the root: a draw, unless the game's
//!    perpetual-check rule ([`Game::PERPETUAL_CHECK_LOSES`], shogi) makes the side that
//!    gave check with every move since the position's first occurrence lose,
//! 4. the game's move-count rule ([`Game::move_count_draw`], kokesu's 100 plies).
//!
//! What a runner adds on top (a ply cap for a self-play game, adjudication by score, an
//! earlier repetition cut-off in a study) is the runner's choice, not a rule, and is
//! named so there. The search judges the positions inside its tree by its own faster
//! policy (`search::alphabeta`: a repetition within the tree scores as a draw at once);
//! it never decides that a real game is over.

use std::collections::HashMap;
use std::fmt;

use crate::game::{Color, Game, Outcome};

/// The rule that ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A rule of the game declared the result, in the game's words (`sum of seven`,
    /// `three shrimps`).
    Game(&'static str),
    /// The side to move has no legal move, in the game's words (`checkmate`, `stalemate`,
    /// `no legal move`).
    NoMove(&'static str),
    /// The same position for the game's [`Game::REPETITION_LIMIT`]th time: a draw.
    Repetition,
    /// The same position for the [`Game::REPETITION_LIMIT`]th time, one side having given
    /// check with every move since its first occurrence: that side loses.
    PerpetualCheck,
    /// The game's move-count rule: a draw.
    MoveCount,
}

impl Rule {
    /// The rule in a few words, as `d`'s `result` line ends.
    pub fn text(self) -> &'static str {
        match self {
            Rule::Game(s) | Rule::NoMove(s) => s,
            Rule::Repetition => "repetition",
            Rule::PerpetualCheck => "perpetual check",
            Rule::MoveCount => "the move-count rule",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The result from the view of the side to move in the final position.
    pub outcome: Outcome,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    pub rule: Rule,
}

impl Verdict {
    fn new(outcome: Outcome, side_to_move: Color, rule: Rule) -> Verdict {
        let winner = match outcome {
            Outcome::Win => Some(side_to_move),
            Outcome::Loss => Some(side_to_move.flip()),
            Outcome::Draw => None,
        };
        Verdict { outcome, winner, rule }
    }

    /// The game's points for `side`: 1 for a win, 0.5 for a draw, 0 for a loss (the
    /// labels of the tuning data, `examples/selfplay_data.rs`).
    pub fn points(&self, side: Color) -> f32 {
        match self.winner {
            None => 0.5,
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// The verdict on the game at `pos`, whose history since the root is `history`
/// (`(key, side to move in check)` of every position, `pos` last), if it is over.
pub fn judge<G: Game>(pos: &G, history: &[(u64, bool)]) -> Option<Verdict> {
    let seen = history.last().map(|&(key, _)| {
        let mut at = (0..history.len()).filter(|&i| history[i].0 == key);
        let first = at.next().unwrap_or(0);
        (first, 1 + at.count())
    });
    judge_seen(pos, history, seen, || has_legal_move(pos))
}

fn has_legal_move<G: Game>(pos: &G) -> bool {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    !moves.is_empty()
}

/// [`judge`], told where the current position first occurred and how often it has
/// (`(index in history, count)`), so that a game followed move by move is judged
/// without scanning its history ([`Referee`] keeps the counts).
fn judge_seen<G: Game>(
    pos: &G,
    history: &[(u64, bool)],
    seen: Option<(usize, usize)>,
    has_moves: impl FnOnce() -> bool,
) -> Option<Verdict> {
    let stm = pos.side_to_move();
    if let Some(o) = pos.result() {
        return Some(Verdict::new(o, stm, Rule::Game(pos.result_reason().unwrap_or("a rule of the game"))));
    }
    if !has_moves() {
        return Some(Verdict::new(pos.no_move_outcome(), stm, Rule::NoMove(pos.no_move_reason())));
    }
    if let Some((first, count)) = seen {
        if count >= G::REPETITION_LIMIT {
            let cur = history.len() - 1;
            if G::PERPETUAL_CHECK_LOSES {
                // The side to move was in check at each of its turns: the other side
                // checked with every move of the cycle, and loses.
                if (first + 2..=cur).step_by(2).all(|j| history[j].1) {
                    return Some(Verdict::new(Outcome::Win, stm, Rule::PerpetualCheck));
                }
                if (first + 1..cur).step_by(2).all(|j| history[j].1) {
                    return Some(Verdict::new(Outcome::Loss, stm, Rule::PerpetualCheck));
                }
            }
            return Some(Verdict::new(Outcome::Draw, stm, Rule::Repetition));
        }
    }
    if pos.move_count_draw() {
        return Some(Verdict::new(Outcome::Draw, stm, Rule::MoveCount));
    }
    None
}

/// A game followed from its root: the position and the `(key, in_check)` of every
/// position since the root, which is what the referee judges and what the search needs
/// to see repetitions ([`crate::search::Searcher::new`]).
#[derive(Clone, Debug)]
pub struct Referee<G: Game> {
    pos: G,
    history: Vec<(u64, bool)>,
    /// Each key of `history`: where it first occurred and how often it has, so that a
    /// move is judged in constant time however long the game (a record of a million
    /// plies is read in linear time).
    seen: HashMap<u64, (usize, usize)>,
}

impl<G: Game> Referee<G> {
    /// A game starting at `root` (a start position or any SFEN).
    pub fn new(root: G) -> Self {
        let history = vec![(root.key(), root.in_check())];
        let seen = HashMap::from([(root.key(), (0, 1))]);
        Referee { pos: root, history, seen }
    }

    /// The current position.
    pub fn pos(&self) -> &G {
        &self.pos
    }

    /// `(key, side to move in check)` of every position since the root, the current last.
    pub fn history(&self) -> &[(u64, bool)] {
        &self.history
    }

    /// The number of plies played since the root.
    pub fn plies(&self) -> usize {
        self.history.len() - 1
    }

    /// How many times the current position has occurred since the root (1 the first
    /// time), for a runner's own repetition cut-off.
    pub fn occurrences(&self) -> usize {
        self.seen.get(&self.pos.key()).map_or(0, |&(_, n)| n)
    }

    /// Plays `mv`, a legal move of the current position. Whether the game was already
    /// over is not checked here: ask [`Referee::verdict`] first.
    pub fn play(&mut self, mv: G::Move) {
        self.pos.play(mv);
        let key = self.pos.key();
        self.seen.entry(key).or_insert((self.history.len(), 0)).1 += 1;
        self.history.push((key, self.pos.in_check()));
    }

    /// Takes back the last move: `previous` is the position it was played from (positions
    /// are small plain values, so a caller that takes moves back keeps them; the Python
    /// binding's `Board.pop`). Does nothing at the root.
    pub fn take_back(&mut self, previous: G) {
        if self.history.len() > 1 {
            if let Some((key, _)) = self.history.pop() {
                if let Some(entry) = self.seen.get_mut(&key) {
                    entry.1 -= 1;
                    if entry.1 == 0 {
                        self.seen.remove(&key);
                    }
                }
            }
            debug_assert_eq!(self.history.last().map(|h| h.0), Some(previous.key()));
            self.pos = previous;
        }
    }

    /// Changes the current position in a way that keeps its key and the game's history
    /// (how it is evaluated, [`crate::game::Strategy::take_switches`]).
    pub fn change_pos_keeping_key(&mut self, change: impl FnOnce(&mut G)) {
        let key = self.pos.key();
        change(&mut self.pos);
        debug_assert_eq!(self.pos.key(), key);
    }

    /// The verdict if the game is over.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict_knowing(|| has_legal_move(&self.pos))
    }

    /// [`Self::verdict`], told by `has_moves` whether the side to move has a legal move
    /// (asked only where the game's own result does not already end it), for a caller
    /// that has listed the moves.
    pub fn verdict_knowing(&self, has_moves: impl FnOnce() -> bool) -> Option<Verdict> {
        let seen = self.seen.get(&self.pos.key()).copied();
        judge_seen(&self.pos, &self.history, seen, has_moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kokesu::Kokesu;
    use crate::games::shogi66::Shogi66;

    fn game<G: Game>(sfen: &str) -> Referee<G> {
        Referee::new(G::from_sfen(sfen, &G::Rules::default()).expect("sfen"))
    }

    fn play<G: Game>(r: &mut Referee<G>, tokens: &[&str]) {
        for t in tokens {
            assert!(r.verdict().is_none(), "over before {t}: {:?}", r.verdict());
            let mv = r.pos().parse_move(t).unwrap_or_else(|e| panic!("{t}: {e}"));
            r.play(mv);
        }
    }

    /// Issue 32: `examples/selfplay_data.rs` judged repetitions itself and scored a
    /// perpetual-check cycle in 66 shogi as a draw, where the rules (and `d`) make it a
    /// loss for the side that checked; its tuning labels now come from here.
    #[test]
    fn shogi66_perpetual_check_cycle_is_a_loss_for_the_checking_side_not_a_draw() {
        // Sente's rook checks gote's king from 6c and 5c while the king steps between 6a
        // and 5a: every sente move is a check.
        let mut r = game::<Shogi66>("k5/6/1R4/6/6/5K b - 1");
        let cycle = ["5c6c", "6a5a", "6c5c", "5a6a"];
        for _ in 0..2 {
            play(&mut r, &cycle);
        }
        play(&mut r, &cycle[..3]);
        assert_eq!(r.occurrences(), 3);
        assert!(r.verdict().is_none(), "the third occurrence does not end a shogi game");
        play(&mut r, &cycle[3..]);
        assert_eq!(r.occurrences(), Shogi66::REPETITION_LIMIT);
        assert_eq!(r.plies(), 12);
        let v = r.verdict().expect("the fourth occurrence ends the game");
        assert_eq!(v, Verdict { outcome: Outcome::Loss, winner: Some(Color::Gote), rule: Rule::PerpetualCheck });
        // The tuning label (selfplay_data: RESULT for the side to move of a position).
        assert_eq!(v.points(Color::Sente), 0.0);
        assert_eq!(v.points(Color::Gote), 1.0);
        // What `d` prints.
        let d = r.state().lines();
        assert!(d.contains(&"result gote wins: perpetual check".to_string()), "{d:?}");
        assert!(d.contains(&"phase over".to_string()), "{d:?}");
    }

    /// Judged from the other side: the cycle ending with the checked side to move is a win
    /// for it.
    #[test]
    fn shogi66_perpetual_check_judged_with_the_checked_side_to_move() {
        let mut r = game::<Shogi66>("k5/6/R5/6/6/5K w - 1");
        assert!(r.pos().in_check());
        let cycle = ["6a5a", "6c5c", "5a6a", "5c6c"];
        for _ in 0..2 {
            play(&mut r, &cycle);
        }
        play(&mut r, &cycle[..3]);
        play(&mut r, &cycle[3..]);
        let v = r.verdict().expect("over");
        assert_eq!(v, Verdict { outcome: Outcome::Win, winner: Some(Color::Gote), rule: Rule::PerpetualCheck });
    }

    /// A cycle without checks is a draw by repetition at the game's limit.
    #[test]
    fn shogi66_quiet_cycle_is_a_draw_at_the_fourth_occurrence() {
        let mut r = game::<Shogi66>("k5/6/6/6/6/5K b - 1");
        let cycle = ["1f2f", "6a5a", "2f1f", "5a6a"];
        for _ in 0..3 {
            play(&mut r, &cycle);
        }
        let v = r.verdict().expect("over");
        assert_eq!(v, Verdict { outcome: Outcome::Draw, winner: None, rule: Rule::Repetition });
        assert_eq!(v.points(Color::Sente), 0.5);
    }

    /// Kokesu: the third occurrence is a draw.
    #[test]
    fn kokesu_third_occurrence_is_a_draw() {
        let mut r = game::<Kokesu>("k7/p7/8/8/8/8/7P/7K b - 1");
        let cycle = ["1h2h", "8a7a", "2h1h", "7a8a"];
        play(&mut r, &cycle);
        play(&mut r, &cycle[..3]);
        assert_eq!(r.verdict(), None);
        play(&mut r, &cycle[3..]);
        assert_eq!(r.occurrences(), Kokesu::REPETITION_LIMIT);
        let v = r.verdict().expect("over");
        assert_eq!(v, Verdict { outcome: Outcome::Draw, winner: None, rule: Rule::Repetition });
    }

    /// The counts the referee keeps move by move (and takes back) judge as a scan of the
    /// whole history does.
    #[test]
    fn the_kept_counts_judge_as_the_history_does_through_take_backs() {
        let mut r = game::<Shogi66>("k5/6/1R4/6/6/5K b - 1");
        let cycle = ["5c6c", "6a5a", "6c5c", "5a6a"];
        let mut before = Vec::new();
        for t in cycle.iter().cycle().take(12) {
            assert_eq!(r.verdict(), judge(r.pos(), r.history()));
            assert_eq!(r.occurrences(), r.history().iter().filter(|h| h.0 == r.pos().key()).count());
            before.push(*r.pos());
            play(&mut r, &[t]);
        }
        assert!(r.verdict().is_some() && r.verdict() == judge(r.pos(), r.history()));
        while let Some(p) = before.pop() {
            r.take_back(p);
            assert_eq!(r.verdict(), judge(r.pos(), r.history()));
            assert_eq!(r.occurrences(), r.history().iter().filter(|h| h.0 == r.pos().key()).count());
        }
        assert_eq!((r.plies(), r.occurrences()), (0, 1));
    }

    #[test]
    fn no_legal_move_and_rules_results_name_the_game_rule() {
        let r = game::<Shogi66>("k5/6/6/6/6/5K b - 1");
        assert_eq!(r.verdict(), None);
        // Gote's king on 6a, sente's gold on 6b guarded by the lance on 6f: mate.
        let r = game::<Shogi66>("k5/G5/6/6/6/L4K w - 1");
        let v = r.verdict().expect("mate");
        assert_eq!((v.outcome, v.winner), (Outcome::Loss, Some(Color::Sente)));
        assert!(matches!(v.rule, Rule::NoMove(_)), "{v:?}");
    }
}
