//! From scores to marks: the win probability of a score, and the thresholds that make a
//! move an inaccuracy, a mistake or a blunder (protocol/records.md, "The game report").

use serde::Serialize;

use crate::cli::analyse::JsonScore;

/// The logistic slope: 1/(1 + e^(-k cp)) is the win probability of a score of `cp`
/// centipawns (lichess's curve, k = 0.00368208: +100 is 59%, +300 is 75%, +800 95%).
pub(crate) const SLOPE: f64 = 0.00368208;

/// Win-probability loss (in percentage points, the mover's view) from which a move is
/// marked, the worst first.
pub(crate) const THRESHOLDS: [(f64, Mark); 3] = [(15.0, Mark::Blunder), (10.0, Mark::Mistake), (5.0, Mark::Inaccuracy)];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// The win probability (0 to 100) of a score for the side it belongs to: a mate to give
/// is 100, a mate to suffer 0.
pub(crate) fn win_percent(score: JsonScore) -> f64 {
    match score {
        JsonScore::Cp(cp) => 100.0 / (1.0 + (-SLOPE * cp as f64).exp()),
        JsonScore::Mate(n) if n > 0 => 100.0,
        JsonScore::Mate(_) => 0.0,
    }
}

/// The score for the other side.
pub(crate) fn negate(score: JsonScore) -> JsonScore {
    match score {
        JsonScore::Cp(cp) => JsonScore::Cp(-cp),
        JsonScore::Mate(n) => JsonScore::Mate(-n),
    }
}

/// The mark of a move that lost `loss` points of win probability.
pub(crate) fn mark(loss: f64) -> Option<Mark> {
    THRESHOLDS.iter().find(|(t, _)| loss >= *t).map(|&(_, m)| m)
}

/// One side's totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Totals {
    pub moves: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean win-probability loss a move, in points.
    pub average_loss: f64,
}

impl Totals {
    pub fn add(&mut self, loss: f64, mark: Option<Mark>) {
        self.average_loss = (self.average_loss * self.moves as f64 + loss) / (self.moves + 1) as f64;
        self.moves += 1;
        match mark {
            Some(Mark::Inaccuracy) => self.inaccuracies += 1,
            Some(Mark::Mistake) => self.mistakes += 1,
            Some(Mark::Blunder) => self.blunders += 1,
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lost_position_does_not_mark_every_move() {
        // From -900 to -1200: a few tenths of a point of win probability.
        let loss = win_percent(JsonScore::Cp(-900)) - win_percent(JsonScore::Cp(-1200));
        assert!(loss < 5.0, "{loss}");
        assert_eq!(mark(loss), None);
        // From +50 to -250 in an even game: a blunder.
        let loss = win_percent(JsonScore::Cp(50)) - win_percent(JsonScore::Cp(-250));
        assert_eq!(mark(loss), Some(Mark::Blunder), "{loss}");
        assert_eq!(mark(7.0), Some(Mark::Inaccuracy));
        assert_eq!(mark(12.0), Some(Mark::Mistake));
        assert_eq!(win_percent(JsonScore::Mate(-3)), 0.0);
        let mut t = Totals::default();
        t.add(2.0, None);
        t.add(20.0, Some(Mark::Blunder));
        assert_eq!((t.moves, t.blunders, t.average_loss), (2, 1, 11.0));
    }
}
