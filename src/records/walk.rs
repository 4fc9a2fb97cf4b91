//! A game replayed as a record is read or written: the game's own rules and referee
//! behind an object-safe face, and the record being built with its errors.

use crate::game::{Color, Live, MoveError};
use crate::games;

use super::{Ending, Errors, LineError, Parsed, Record, RecordMove, RuleSwitches};

/// What a record reader or writer asks of a record's live game, in its words: a move
/// that cannot be played as one line of text, the verdict as an [`Ending`].
pub trait Played {
    /// Plays a token: an error if it is not a legal move here or the game is over.
    fn play(&mut self, token: &str) -> Result<(), String>;
    /// The referee's verdict if the game is over.
    fn ending(&self) -> Option<Ending>;
}

impl Played for dyn Live {
    fn play(&mut self, token: &str) -> Result<(), String> {
        match self.push(token) {
            Err(MoveError::GameOver(_)) => {
                let rule = self.verdict().map(|v| v.rule.text()).unwrap_or("");
                Err(format!("'{token}' cannot be played: the game is already over ({rule})"))
            }
            played => played.map_err(|e| e.to_string()),
        }
    }

    fn ending(&self) -> Option<Ending> {
        self.verdict().map(|v| Ending { winner: v.winner, rule: Some(v.rule.text().to_string()) })
    }
}

/// The game `variant` at `start` (its start position for `None`), default rules.
pub fn position(variant: &str, start: Option<&str>) -> Result<Box<dyn Live>, String> {
    position_under(variant, &RuleSwitches::default(), start)
}

/// The game `variant` under `rules` at `start` (its start position for `None`).
pub fn position_under(variant: &str, rules: &RuleSwitches, start: Option<&str>) -> Result<Box<dyn Live>, String> {
    games::start(&rules.rule_set(variant)?, start).map_err(|e| e.to_string())
}

/// More squares than any board's row has ([`grid`] reads no longer run of empty squares).
const MAX_WIDTH: usize = 64;

/// An SFEN's board as rows from the top, each from the highest file down: the piece text
/// (`P`, `+p`) of each square, `None` when empty.
pub fn grid(sfen: &str) -> Vec<Vec<Option<String>>> {
    let board = sfen.split_whitespace().next().unwrap_or("");
    board
        .split('/')
        .map(|row| {
            let mut out = Vec::new();
            let mut plus = false;
            let mut digits = 0usize;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    // No board is wider than this: a run of digits cannot ask for more.
                    digits = (digits * 10 + d as usize).min(MAX_WIDTH);
                    continue;
                }
                out.extend(std::iter::repeat_n(None, std::mem::take(&mut digits)));
                if ch == '+' {
                    plus = true;
                } else {
                    out.push(Some(if std::mem::take(&mut plus) { format!("+{ch}") } else { ch.to_string() }));
                }
            }
            out.extend(std::iter::repeat_n(None, digits));
            out
        })
        .collect()
}

/// A record being read: the game replayed move by move. After a move that cannot be
/// played the rest of the moves are skipped (one error says so); headers and comments
/// are still read.
pub struct Walk {
    pub pos: Box<dyn Live>,
    pub record: Record,
    pub errors: Errors,
    broken: bool,
    /// The line of the result (or interruption) the record stated: no move may follow it.
    closed: Option<usize>,
    /// Where header `comment` is in `record.headers`, once there: a game comment of many
    /// lines after many headers is not a search of every header for each line.
    comment_header: Option<usize>,
}

impl Walk {
    /// A walk from `record`'s start position under its rules (its moves, if any, are
    /// dropped).
    pub fn new(mut record: Record, line: usize) -> Result<Walk, Box<Parsed>> {
        record.moves.clear();
        match record.position() {
            Ok(pos) => {
                let comment_header = record.headers.iter().position(|(k, _)| k == "comment");
                Ok(Walk { pos, record, errors: Errors::default(), broken: false, closed: None, comment_header })
            }
            Err(e) => Err(Box::new(Parsed { record, errors: vec![LineError::new(line, e)] })),
        }
    }

    /// A walk once the headers are read: their `errors` kept, the game's `comments` (the
    /// lines before the first move) attached; on error the errors so far and why.
    pub fn after_headers(record: Record, line: usize, errors: Errors, comments: &[&str]) -> Result<Walk, Box<Parsed>> {
        let mut walk = match Walk::new(record, line) {
            Ok(w) => w,
            Err(mut p) => {
                p.errors.extend(errors.into_sorted());
                p.errors.sort_by_key(|e| e.line);
                return Err(p);
            }
        };
        walk.errors = errors;
        for c in comments {
            walk.comment(c);
        }
        Ok(walk)
    }

    /// Whether a move could not be played (the later ones are skipped).
    pub fn broken(&self) -> bool {
        self.broken
    }

    pub fn error(&mut self, line: usize, reason: impl Into<String>) {
        self.errors.push(LineError::new(line, reason));
    }

    /// An error on a move: the moves after it are skipped.
    pub fn fail(&mut self, line: usize, reason: impl Into<String>) {
        if !self.broken {
            let n = self.record.moves.len() + 1;
            self.error(line, format!("move {n}: {} (the moves after it are not read)", reason.into()));
            self.broken = true;
        }
    }

    /// The record states the game's result (or that it was interrupted) on `line`: the
    /// moves are over. False, with an error, when a result was already stated.
    pub fn close(&mut self, line: usize) -> bool {
        if let Some(first) = self.closed {
            self.error(line, format!("a second result: the record already ended on line {first}"));
            return false;
        }
        self.closed = Some(line);
        true
    }

    /// Whether a move (`text`, on `line`) may come next: not after the result (then an
    /// error, and the moves after it are not read) nor after a move that failed.
    pub fn expects_move(&mut self, text: &str, line: usize) -> bool {
        if let Some(end) = self.closed.filter(|_| !self.broken) {
            self.fail(line, format!("'{text}' comes after the result on line {end}"));
        }
        !self.broken
    }

    /// Plays the next move, read on `line`.
    pub fn push(&mut self, token: &str, line: usize) {
        if !self.expects_move(token, line) {
            return;
        }
        match self.pos.play(token) {
            Ok(()) => self.record.moves.push(RecordMove { usi: token.to_string(), comment: None }),
            Err(e) => self.fail(line, e),
        }
    }

    /// A comment line: it belongs to the last move read, or before the first move to the
    /// game (header `comment`).
    pub fn comment(&mut self, text: &str) {
        if self.broken {
            return;
        }
        let slot = match self.record.moves.last_mut() {
            Some(m) => &mut m.comment,
            None => {
                match self.comment_header.and_then(|i| self.record.headers.get_mut(i)) {
                    Some((_, c)) => {
                        c.push('\n');
                        c.push_str(text);
                    }
                    None => {
                        self.comment_header = Some(self.record.headers.len());
                        self.record.headers.push(("comment".into(), text.into()));
                    }
                }
                return;
            }
        };
        match slot {
            Some(c) => {
                c.push('\n');
                c.push_str(text);
            }
            None => *slot = Some(text.to_string()),
        }
    }

    /// The record read, its result settled: the referee's verdict when the final
    /// position is over, else what the record states. What the board decides, the board
    /// decides: a `stated` result that names another winner than the verdict, or a rule the
    /// board can judge ([`BOARD_RULES`]) that the final position does not show, is an
    /// error on its line. A rule the board cannot judge (a resignation, time) is kept.
    pub fn finish(mut self, stated: Option<(Ending, usize)>) -> Parsed {
        let verdict = if self.broken { None } else { self.pos.ending() };
        self.record.result = match (verdict, stated) {
            (Some(v), Some((s, line))) => {
                let rule_differs = s.rule.as_deref().is_some_and(|r| board_rule(r) && !same_rule(r, v.rule.as_deref()));
                if s.winner != v.winner || rule_differs {
                    self.error(line, format!("the record says {}, but the game ended: {}", says(&s), says(&v)));
                }
                Some(v)
            }
            (Some(v), None) => Some(v),
            (None, Some((s, line))) if !self.broken && s.rule.as_deref().is_some_and(board_rule) => {
                let n = self.record.moves.len();
                self.error(line, format!("the record says {}, but the position after move {n} is not over", says(&s)));
                None
            }
            (None, s) => s.map(|(e, _)| e),
        };
        Parsed { record: self.record, errors: self.errors.into_sorted() }
    }
}

/// The rules that the final position shows or not, in the referee's words
/// ([`crate::game::referee::Rule`]): a record that claims one of them is believed only
/// when the referee agrees. The others (a resignation, a loss on time, a declared
/// impasse, a rule in another program's words) the board cannot judge.
pub(super) const BOARD_RULES: [&str; 6] =
    ["checkmate", "stalemate", "no legal move", "repetition", "perpetual check", "the move-count rule"];

fn board_rule(rule: &str) -> bool {
    BOARD_RULES.contains(&rule)
}

/// Whether a claimed rule is the verdict's: KIF's 詰み and CSA's %TSUMI say checkmate for
/// every game that has no move left.
fn same_rule(claim: &str, verdict: Option<&str>) -> bool {
    let no_move = |r: &str| ["checkmate", "no legal move", "stalemate"].contains(&r);
    match verdict {
        Some(v) => claim == v || (claim == "checkmate" && no_move(v) && v != "stalemate"),
        None => false,
    }
}

fn says(e: &Ending) -> String {
    let who = match e.winner {
        Some(Color::Sente) => "a win for the first player",
        Some(Color::Gote) => "a win for the second player",
        None => "a draw",
    };
    match &e.rule {
        Some(r) => format!("{who} ({r})"),
        None => who.to_string(),
    }
}

/// A record's game replayed for a writer: the position before each move is handed to
/// `each` with the move's index.
pub(super) fn replay(record: &Record, mut each: impl FnMut(usize, &dyn Live, &RecordMove)) -> Result<(), String> {
    let mut pos = record.position()?;
    for (i, m) in record.moves.iter().enumerate() {
        each(i, pos.as_ref(), m);
        pos.play(&m.usi).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_reads_promoted_pieces_and_gaps() {
        let g = grid("1+p4/6/6/6/6/K5 b - 1");
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], vec![None, Some("+p".into()), None, None, None, None]);
        assert_eq!(g[5][0].as_deref(), Some("K"));
    }
}
