//! Playing levels: a weaker search on purpose, for people to play against (`SkillLevel`,
//! `USI_LimitStrength` / `USI_Elo`). As Stockfish does it, in our own numbers: a level
//! below the top searches a few plies only, looks at several root moves (MultiPV) and
//! picks one of them by its score plus a random push that grows with the weakness, so a
//! low level mostly plays a reasonable move and sometimes a plainly worse one, always a
//! legal one. The top level is no limit at all: the search is the full one.
//!
//! The random numbers come from a seed the caller gives (the engine draws it from
//! `BookSeed` and the position), never from the clock here.

/// The top level: full strength (no skill limit).
pub(crate) const MAX_LEVEL: u32 = 20;
/// The score scale of the push: about a pawn (or a small piece) in every game's
/// centipawns, the most the random part adds at the lowest level.
const PUSH_UNIT: i32 = 100;
/// Root moves the lowest level chooses among; each level up takes one fewer, down to
/// [`FEWEST_CANDIDATES`].
const MOST_CANDIDATES: usize = 12;
const FEWEST_CANDIDATES: usize = 4;

/// A level below the top: how deep it looks and how it chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    level: u32,
}

impl Skill {
    /// The skill of `level`; `None` at [`MAX_LEVEL`] and above (full strength).
    pub fn new(level: u32) -> Option<Skill> {
        (level < MAX_LEVEL).then_some(Skill { level })
    }

    pub fn level(&self) -> u32 {
        self.level
    }

    /// The deepest iteration the level searches: one ply at level 0, one more a level.
    pub fn depth(&self) -> u32 {
        1 + self.level
    }

    /// How many root moves the search scores (its MultiPV at least this).
    pub fn candidates(&self) -> usize {
        MOST_CANDIDATES.saturating_sub(self.level as usize).max(FEWEST_CANDIDATES)
    }

    /// The weakness, 120 at level 0 down to 82 at level 19: how much of the gap to the
    /// best score the push closes, out of 128, and the spread of its random part.
    fn weakness(&self) -> i32 {
        120 - 2 * self.level as i32
    }

    /// Which of the scored root moves to play: `scores` best first (the search's order),
    /// `seed` the random numbers' seed. Each move's score gets a push: a fixed share of
    /// its gap to the best (larger at a low level, so worse moves come close) and a random
    /// part up to about a pawn times the weakness; the highest pushed score is played.
    pub fn pick(&self, scores: &[i32], seed: u64) -> usize {
        let Some(&top) = scores.first() else { return 0 };
        let weakness = self.weakness();
        let last = scores[scores.len() - 1];
        let delta = (top.saturating_sub(last)).clamp(0, PUSH_UNIT).max(PUSH_UNIT / 2);
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut best = (i64::MIN, 0);
        for (i, &s) in scores.iter().enumerate() {
            let gap = (top - s) as i64;
            let push = (weakness as i64 * gap + delta as i64 * rng.i64(0..weakness as i64)) / 128;
            if s as i64 + push > best.0 {
                best = (s as i64 + push, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_level_is_no_limit_and_lower_levels_look_shallower_at_more_moves() {
        assert_eq!(Skill::new(MAX_LEVEL), None);
        let (low, high) = (Skill::new(0).unwrap(), Skill::new(MAX_LEVEL - 1).unwrap());
        assert_eq!((low.depth(), high.depth()), (1, MAX_LEVEL));
        assert_eq!((low.candidates(), high.candidates()), (MOST_CANDIDATES, FEWEST_CANDIDATES));
    }

    #[test]
    fn a_low_level_sometimes_plays_a_worse_move_and_never_a_far_worse_one() {
        let scores = [50, 0, -20, -3000];
        let low = Skill::new(0).unwrap();
        let picks: Vec<usize> = (1..=200).map(|seed| low.pick(&scores, seed)).collect();
        assert!(picks.contains(&0) && picks.iter().any(|&i| i > 0), "{picks:?}");
        assert!(!picks.contains(&3), "a move 30 pawns worse was played");
        // The same seed, the same choice.
        assert_eq!(low.pick(&scores, 7), low.pick(&scores, 7));
        // A high level keeps the best move far more often.
        let high = Skill::new(MAX_LEVEL - 1).unwrap();
        let best = |s: Skill| (1..=200).filter(|&seed| s.pick(&scores, seed) == 0).count();
        assert!(best(high) > best(low), "{} <= {}", best(high), best(low));
    }
}
