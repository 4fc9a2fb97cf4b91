//! The shape of a crab turn, shared by both games: a normal move (with the flow, the
//! promotion and the captures), the end check, then, if the moved piece bonded with its
//! group, one optional diagonal bond move with the same steps. Each game supplies only
//! what differs through [`Variant`].

use super::capture::squares;
use super::cell::{self, Cells, EMPTY};
use super::square::{in_flow, step, DIAGONAL};
use super::token::{CrabMove, Part};
use crate::game::{Color, MoveError, Outcome};

/// What one crab game decides for itself.
pub trait Variant {
    /// Squares where `piece` (already lifted from `from`, so `cells[from]` is empty) may
    /// end a normal move before the flowing column acts.
    fn normal_targets(&self, cells: &Cells, piece: u8, from: usize, out: &mut Squares);
    /// The final squares of `piece` entering the flowing column at `entry` (called only
    /// for `entry` in file 3; `cells[entry]` is empty).
    fn flow(&self, cells: &Cells, piece: u8, entry: usize, out: &mut Squares);
    /// Whether `piece` of `side` may promote (grow) ending on `at`.
    fn can_promote(&self, piece: u8, at: usize, side: Color) -> bool;
    /// Removes what a piece of `mover` that just arrived on `at` captures.
    fn capture(&self, cells: &mut Cells, at: usize, mover: Color);
    /// A result declared by the board, from `to_move`'s view, and the rule that
    /// declares it (for `d`'s `result` line), e.g. `"three shrimps"`.
    fn outcome_rule(&self, cells: &Cells, to_move: Color) -> Option<(Outcome, &'static str)>;
    /// [`Variant::outcome_rule`] without the rule's name.
    #[inline]
    fn outcome(&self, cells: &Cells, to_move: Color) -> Option<Outcome> {
        self.outcome_rule(cells, to_move).map(|(o, _)| o)
    }
    /// The pieces that may make the bond move after a normal move ended on `at`
    /// (0 when there is no bond).
    fn bond_group(&self, cells: &Cells, at: usize, side: Color) -> u32;
    /// What a turn of `side` captured, from the boards before and after it, for move
    /// ordering (0: nothing). Stored in the move ([`CrabMove::gain`]).
    fn gain(&self, before: &Cells, after: &Cells, side: Color) -> u8;
}

/// A small set of squares (no repeats), in insertion order.
#[derive(Clone, Copy, Debug, Default)]
pub struct Squares {
    len: usize,
    sq: [u8; 24],
}

impl Squares {
    /// Adds a square unless already there.
    pub fn add(&mut self, sq: usize) {
        if !self.contains(sq) && self.len < self.sq.len() {
            self.sq[self.len] = sq as u8;
            self.len += 1;
        }
    }
    pub fn contains(&self, sq: usize) -> bool {
        self.sq[..self.len].iter().any(|&s| s as usize == sq)
    }
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.sq[..self.len].iter().map(|&s| s as usize)
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Every empty square of a slide along the rank from `from`, both ways, no jumping.
pub(crate) fn slides(cells: &Cells, from: usize, out: &mut Squares) {
    for df in [1, -1] {
        let mut sq = from;
        while let Some(next) = step(sq, df, 0) {
            if cells[next] != EMPTY {
                break;
            }
            out.add(next);
            sq = next;
        }
    }
}

/// Every empty square one diagonal step from `from`.
pub(crate) fn diagonal_steps(cells: &Cells, from: usize, out: &mut Squares) {
    for &(df, dr) in &DIAGONAL {
        if let Some(n) = step(from, df, dr) {
            if cells[n] == EMPTY {
                out.add(n);
            }
        }
    }
}

/// The distinct final squares from a set of targets (after the flow).
fn finals<V: Variant>(v: &V, cells: &Cells, piece: u8, targets: &Squares) -> Squares {
    let mut out = Squares::default();
    for t in targets.iter() {
        if in_flow(t) {
            v.flow(cells, piece, t, &mut out);
        } else {
            out.add(t);
        }
    }
    out
}

/// Plays one part of a turn on `cells`: lift, place (promoted or not), capture.
pub(crate) fn apply_part<V: Variant>(v: &V, cells: &mut Cells, side: Color, part: Part) {
    let piece = cells[part.from];
    cells[part.from] = EMPTY;
    cells[part.to] = if part.promote { cell::promote(piece) } else { piece };
    v.capture(cells, part.to, side);
}

/// Plays a whole turn on `cells` (the side to move is `side`).
pub(crate) fn apply_turn<V: Variant>(v: &V, cells: &mut Cells, side: Color, mv: CrabMove) {
    apply_part(v, cells, side, mv.first());
    if let Some(b) = mv.bond() {
        apply_part(v, cells, side, b);
    }
}

/// Reads a whole-turn token and checks it against the legal turns of `side` (`legal`,
/// empty when the game is over).
pub(crate) fn parse_turn(token: &str, legal: &[CrabMove], cells: &Cells, side: Color) -> Result<CrabMove, MoveError> {
    let mv = CrabMove::parse(token).ok_or_else(|| MoveError::Syntax(token.to_string()))?;
    if legal.is_empty() {
        return Err(MoveError::GameOver(token.to_string()));
    }
    if let Some(&m) = legal.iter().find(|m| m.token_bits() == mv.token_bits()) {
        return Ok(m);
    }
    let first = mv.first();
    let plain = CrabMove::normal(first.from, first.to, first.promote);
    let why = if !cell::is(cells[first.from], side) {
        "no piece of the side to move on its from-square"
    } else if mv.has_bond() && legal.iter().any(|m| m.token_bits() == plain.token_bits()) {
        "the normal move is legal but this bond move is not (the bond's from-square is where the piece stands after the normal move)"
    } else {
        "that piece cannot end its move there"
    };
    Err(MoveError::Illegal(token.to_string(), why.to_string()))
}

/// Appends every legal whole turn of `side` (the game is not over), each token once.
pub(crate) fn generate<V: Variant>(v: &V, cells: &Cells, side: Color, out: &mut Vec<CrabMove>) {
    for from in 0..cells.len() {
        let piece = cells[from];
        if !cell::is(piece, side) {
            continue;
        }
        let mut base = *cells;
        base[from] = EMPTY;
        let mut targets = Squares::default();
        v.normal_targets(&base, piece, from, &mut targets);
        let ends = finals(v, &base, piece, &targets);
        for to in ends.iter() {
            for promote in [false, true] {
                if promote && !v.can_promote(piece, to, side) {
                    continue;
                }
                let part = Part { from, to, promote };
                let mut after = *cells;
                apply_part(v, &mut after, side, part);
                let mv = CrabMove::normal(from, to, promote);
                out.push(mv.with_gain(v.gain(cells, &after, side)));
                if v.outcome(&after, side.flip()).is_some() {
                    continue;
                }
                let group = v.bond_group(&after, to, side);
                for b in squares(group) {
                    generate_bond(v, cells, &after, side, b, mv, out);
                }
            }
        }
    }
}

/// The bond moves of the piece on `from` after the normal move `mv` (`start`: the board
/// before the turn, `cells`: after the normal move).
fn generate_bond<V: Variant>(
    v: &V,
    start: &Cells,
    cells: &Cells,
    side: Color,
    from: usize,
    mv: CrabMove,
    out: &mut Vec<CrabMove>,
) {
    let piece = cells[from];
    let mut base = *cells;
    base[from] = EMPTY;
    let mut targets = Squares::default();
    diagonal_steps(&base, from, &mut targets);
    let ends = finals(v, &base, piece, &targets);
    for to in ends.iter() {
        for promote in [false, true] {
            if promote && !v.can_promote(piece, to, side) {
                continue;
            }
            let mut after = *cells;
            apply_part(v, &mut after, side, Part { from, to, promote });
            out.push(mv.with_bond(from, to, promote).with_gain(v.gain(start, &after, side)));
        }
    }
}
