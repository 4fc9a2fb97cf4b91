//! How to play a game well: what the search asks of a game beyond its rules.

use super::search_params::SearchParams;
use super::{Game, Outcome};

/// A proven result from a solved game's shipped table: the outcome for the side to move
/// under best play, the plies to the end (the fastest win, the slowest loss; 0 for a
/// draw), and a move that keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known<M> {
    pub outcome: Outcome,
    pub plies: u32,
    pub best: M,
}

/// What the engine hands a game's book: a random number for a mixed choice (fresh, or
/// derived from `BookSeed` and the position, so that a seed repeats a game). What else a
/// book needs is a switch of its game, in the position's settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BookChoice {
    pub random: u64,
}

/// How many structural keys a game may name for the evaluation's correction
/// (`Strategy::correction_keys`).
pub const CORRECTION_KEYS: usize = 3;

/// The evaluation, move ordering and per-game search knobs. The search is generic over
/// this trait; perft, the referee and the protocol need only [`Game`].
pub trait Strategy: Game {
    /// Whether `go mate` is answered by the exact solver (`search::solve`) instead of the
    /// mate search: games whose only ends are rule results and no legal move, with
    /// repetition a plain draw and no move-count rule, where the solver's table proves
    /// long wins the mate search cannot reach.
    const MATE_BY_SOLVER: bool = false;
    /// Whether a `go` that is not limited by depth or nodes first asks the exact solver
    /// (`search::solve`) and plays its proven move, searching only if the solver runs out
    /// of its share of the time: games small enough to be solved during play (Number
    /// Shogi).
    const SOLVE_FIRST: bool = false;
    /// Extra positions (SFEN) for `bench`, beside the start position.
    const BENCH_POSITIONS: &'static [&'static str] = &[];
    /// The `bench` search depth.
    const BENCH_DEPTH: u32 = 6;
    /// Whether the side to move, not in check, may have no legal move here and would lose
    /// by it (kokesu under `KokesuStalemate=loss` with only king and pawns). The search
    /// then does not cut the node on its static evaluation before it has looked at the
    /// moves. A cheap guess: false positives only cost pruning.
    fn stalemate_may_lose(&self) -> bool {
        false
    }

    /// Static evaluation in centipawns from the side to move's view.
    fn evaluate(&self) -> i32;
    /// This position under the evaluation and engine switches of `rules` (whose rules
    /// switches are this position's own): a change of such a switch keeps the position a
    /// GUI set. The same position, key and history; a game with such switches overrides
    /// this (the default, for games without any, changes nothing).
    fn take_switches(&mut self, rules: &Self::Rules) {
        let _ = rules;
    }
    /// Hashes of the slow-changing parts of the position the evaluation may misjudge
    /// (kokesu: the pawns, and each side's other pieces), under each of which the search
    /// learns a correction of the static evaluation (`search::history::Corrections`). A
    /// `None` slot learns nothing; the default names no key. (The search also corrects by
    /// the move that led to the position, in every game.)
    fn correction_keys(&self) -> [Option<u64>; CORRECTION_KEYS] {
        [None; CORRECTION_KEYS]
    }
    /// The position after the side to move passes, for null-move pruning; `None` where a
    /// pass would mislead the search (the default: zugzwang-prone games and phases, such
    /// as placements or pawn endings).
    fn null_move(&self) -> Option<Self> {
        None
    }
    /// Reverse futility pruning margin per ply of remaining depth (0 = off): a non-PV
    /// node within 3 plies of the horizon whose static evaluation beats beta by this much
    /// per ply is cut. Only for games whose evaluation is stable from move to move.
    const FUTILITY_MARGIN: i32 = 0;
    /// The search's numbers a tuner moves (src/game/search_params.rs): the defaults with this
    /// game's futility margin unless its own tuning run found better.
    const SEARCH: SearchParams = SearchParams { futility_margin: Self::FUTILITY_MARGIN, ..SearchParams::DEFAULT };
    /// Whether the search may skip quiet moves near the horizon: late-move pruning,
    /// futility pruning (with [`Strategy::FUTILITY_MARGIN`]) and pruning by bad history. Off
    /// where a quiet move often decides at once (sudden wins by capture counts, compound
    /// turns).
    const QUIET_PRUNING: bool = false;
    /// Whether late moves are reduced one ply less where the correction history moved the
    /// static evaluation far (`SearchParams::lmr_uncertain`). On where a match showed it pays
    /// (kokesu); in 66 shogi it was even in play and cost a ply of depth.
    const REDUCE_LESS_WHEN_UNCERTAIN: bool = false;
    /// Moves the quiescence search looks at (captures, promotions).
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// The most a tactical move can win in material, in centipawns of the evaluation
    /// (what it takes, and what a promotion adds), for the quiescence search's delta
    /// pruning: a capture that cannot lift the standing score near alpha is skipped.
    /// `None` (the default): not known, no move is skipped so.
    fn material_gain(&self, _mv: Self::Move) -> Option<i32> {
        None
    }
    /// Appends only the legal moves that [`Strategy::is_tactical`] accepts, for a side not in
    /// check, where the game can make them faster than all legal moves (no drops to
    /// generate, say), and returns `true`; an empty list then does not mean the game is
    /// over. The default makes none and returns `false`: the quiescence search filters
    /// [`Game::legal_moves`] instead.
    fn tactical_moves(&self, _out: &mut Vec<Self::Move>) -> bool {
        false
    }
    /// Whether the main search's move picker (`search::movepick`) takes this game's moves
    /// in stages, each generated only when the picker reaches it: the table move, then
    /// [`Strategy::tactical_moves`] (which must then also work in check), the killers and
    /// the countermove, the tactical moves that lose material, and the quiet moves in
    /// [`Strategy::QUIET_STAGES`] stages of [`Strategy::quiet_moves`] (66 shogi: one, its
    /// board moves and drops together). The table move and the killers are checked by
    /// [`Strategy::is_legal`]. The stages together must be exactly the legal moves, each
    /// once. The default (false): all legal moves are generated and scored in one stage.
    const STAGED_MOVES: bool = false;
    /// How many stages the quiet moves come in (with [`Strategy::STAGED_MOVES`]).
    const QUIET_STAGES: usize = 1;
    /// Appends the legal quiet moves of stage `stage` (below [`Strategy::QUIET_STAGES`]);
    /// used only with [`Strategy::STAGED_MOVES`].
    fn quiet_moves(&self, _stage: usize, _out: &mut Vec<Self::Move>) {}
    /// Whether `mv`, which may come from another position (a killer, the table's move),
    /// is legal here; used only with [`Strategy::STAGED_MOVES`]. The default says no: the
    /// move is then only searched in its own stage.
    fn is_legal(&self, _mv: Self::Move) -> bool {
        false
    }
    /// Whether the legal move `mv` gives check. The default plays it on a copy; a game
    /// can answer without making the move, which the search asks of every move it would
    /// prune unless it checks.
    fn gives_check(&self, mv: Self::Move) -> bool {
        let mut child = self.clone();
        child.play(mv);
        child.in_check()
    }
    /// A move that loses material by static exchange (a capture that loses more than it
    /// takes, a quiet move that leaves its piece en prise); the quiescence search leaves
    /// such captures out and the main search prunes them near the horizon. The default
    /// knows of none.
    fn losing_exchange(&self, _mv: Self::Move) -> bool {
        false
    }
    /// Ordering hint for non-hash moves: larger first (e.g. victim value * 16 - attacker).
    fn order_score(&self, mv: Self::Move) -> i32;
    /// A number that identifies the move in history tables (any value; it is reduced
    /// modulo the table size).
    fn move_id(mv: Self::Move) -> u32;
    /// The move's key in the continuation histories and the countermove table, from the
    /// position it is played in: by default its `move_id`. A game may key them by the
    /// moving piece and its destination instead (Stockfish's `[piece][to]`), which
    /// generalises over origins; it then says how many such keys there are
    /// (`CONTINUATION_IDS`), and the continuation tables are laid out densely by them
    /// (a context's entries in one row: fewer cache misses where moves are scored).
    fn continuation_id(&self, mv: Self::Move) -> u32 {
        Self::move_id(mv)
    }
    /// `continuation_id` is below this; 0: it may be any number (the tables hash it).
    const CONTINUATION_IDS: u32 = 0;
    /// A move chosen without search, e.g. a placement. The engine plays it if it is `Some`
    /// (it must be legal).
    fn book_move(&self, _choice: &BookChoice) -> Option<Self::Move> {
        None
    }
    /// Called when the engine starts a session of this game: a game with shipped data
    /// reads it now (on a thread of its own), not inside the first move's time.
    fn prepare() {}
    /// The proven result of this position from a solved game's shipped table, if the table
    /// has it; `Err` with a clear message when the table is unusable (the engine then
    /// solves or searches).
    fn known(&self) -> Option<Result<Known<Self::Move>, String>> {
        None
    }
}
