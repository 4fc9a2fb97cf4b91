//! Move representation, legal move generation and making moves.

use super::board::*;
use super::zobrist::{hand_key, KEYS};
use super::NumberShogi;
use crate::game::Color;

/// A move: bits 0-3 the target square, bits 4-7 the origin (15 = drop), bit 8 promotion,
/// bits 9-11 the dropped value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move(pub(crate) u16);

const DROP_FROM: u16 = 15;

impl Move {
    pub fn board(from: usize, to: usize, promote: bool) -> Move {
        Move(to as u16 | (from as u16) << 4 | (promote as u16) << 8)
    }
    pub fn drop(value: u8, to: usize) -> Move {
        Move(to as u16 | DROP_FROM << 4 | (value as u16) << 9)
    }
    #[inline]
    pub fn to(self) -> usize {
        (self.0 & 15) as usize
    }
    #[inline]
    pub fn from(self) -> Option<usize> {
        let f = (self.0 >> 4) & 15;
        if f == DROP_FROM {
            None
        } else {
            Some(f as usize)
        }
    }
    #[inline]
    pub fn is_drop(self) -> bool {
        (self.0 >> 4) & 15 == DROP_FROM
    }
    #[inline]
    pub fn promotes(self) -> bool {
        self.0 & 0x100 != 0
    }
    /// The value dropped (drops only).
    #[inline]
    pub fn drop_value(self) -> u8 {
        ((self.0 >> 9) & 7) as u8
    }
    /// The token, `<from><to>[+]` or `<LETTER>*<to>`.
    pub fn token(self) -> String {
        let mut s = String::with_capacity(5);
        self.write_token(&mut s);
        s
    }

    /// Writes the token at the end of `s`.
    pub fn write_token(self, s: &mut String) {
        match self.from() {
            None => {
                s.push(letter(self.drop_value()));
                s.push('*');
            }
            Some(f) => push_square(s, f),
        }
        push_square(s, self.to());
        if self.from().is_some() && self.promotes() {
            s.push('+');
        }
    }
}

impl NumberShogi {
    /// The direction mask of a cell under the current rules.
    #[inline]
    pub(crate) fn mask_of(&self, cell: Cell) -> u8 {
        if is_promoted(cell) {
            0xFF
        } else {
            self.rules.moves[face(cell) as usize]
        }
    }

    /// Squares a piece on `sq` steps to (ignoring what stands there).
    #[inline]
    pub(crate) fn steps(&self, sq: usize) -> Bb {
        let cell = self.board[sq];
        TARGETS[owner(cell).index()][sq][self.mask_of(cell) as usize]
    }

    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        if self.winner.is_some() {
            return;
        }
        let us = self.side.index();
        let empty = ALL & !(self.occ[0] | self.occ[1]);
        if self.placing {
            let camp = CAMP[us] & empty;
            for v in 1..=6u8 {
                if self.hand[us][v as usize] > 0 {
                    for to in Bits::from(camp) {
                        out.push(Move::drop(v, to));
                    }
                }
            }
            return;
        }
        let far = FAR_RANK[us];
        let own = self.occ[us];
        for from in Bits::from(own) {
            let cell = self.board[from];
            let targets = TARGETS[us][from][self.mask_of(cell) as usize] & !own;
            let can_promote = self.rules.promotion && !is_promoted(cell);
            for to in Bits::from(targets) {
                out.push(Move::board(from, to, false));
                if can_promote && (far & (1 << from | 1 << to)) != 0 {
                    out.push(Move::board(from, to, true));
                }
            }
        }
        for v in 1..=6u8 {
            if self.hand[us][v as usize] > 0 {
                for to in Bits::from(empty) {
                    out.push(Move::drop(v, to));
                }
            }
        }
    }

    #[inline]
    fn set_hand(&mut self, color: usize, value: usize, count: u8) {
        self.key ^= hand_key(color, value, self.hand[color][value]) ^ hand_key(color, value, count);
        self.hand[color][value] = count;
    }

    pub(crate) fn make(&mut self, mv: Move) {
        let us = self.side.index();
        let to = mv.to();
        match mv.from() {
            None => {
                let v = mv.drop_value();
                let n = self.hand[us][v as usize];
                self.set_hand(us, v as usize, n.saturating_sub(1));
                let cell = make_cell(self.side, v, false);
                self.board[to] = cell;
                self.occ[us] |= 1 << to;
                self.key ^= KEYS.piece[cell as usize][to];
                // rules.md §0: the phase is a property of the position. After a placement
                // drop only conditions 1 (ply at most 12) and 2 (a hand not empty) can
                // change; normally both hands empty together at ply 13.
                if self.placing {
                    let hands_empty = self.hand[0].iter().all(|&n| n == 0) && self.hand[1].iter().all(|&n| n == 0);
                    if hands_empty || self.ply.saturating_add(1) > 12 {
                        self.placing = false;
                        self.key ^= KEYS.placing;
                        // Only an SFEN whose ply field ran ahead of its placement gets
                        // here with hands left; they are play-phase hands from now on.
                        let mover = self.side;
                        // (as `assemble` judges it: the side that just moved first)
                        if sums_to_seven(&self.hand[mover.index()]) {
                            self.winner = Some(mover);
                        } else if sums_to_seven(&self.hand[mover.flip().index()]) {
                            self.winner = Some(mover.flip());
                        }
                    }
                }
            }
            Some(from) => {
                let cell = self.board[from];
                let captured = self.board[to];
                if captured != EMPTY {
                    let them = 1 - us;
                    self.occ[them] &= !(1 << to);
                    self.key ^= KEYS.piece[captured as usize][to];
                    let v = face(captured) as usize;
                    let n = self.hand[us][v];
                    self.set_hand(us, v, n + 1);
                    if sums_to_seven(&self.hand[us]) {
                        self.winner = Some(self.side);
                    }
                }
                let new_cell = if mv.promotes() { cell | PROMOTED } else { cell };
                self.board[from] = EMPTY;
                self.board[to] = new_cell;
                self.occ[us] ^= 1 << from | 1 << to;
                self.key ^= KEYS.piece[cell as usize][from] ^ KEYS.piece[new_cell as usize][to];
            }
        }
        self.side = self.side.flip();
        self.key ^= KEYS.gote_to_move;
        self.ply = self.ply.saturating_add(1);
    }

    /// Why a well-formed token is not legal here (it is known not to be in the list).
    pub(crate) fn illegal_reason(&self, mv: Move) -> String {
        let us = self.side.index();
        let to = mv.to();
        let to_name = square_name(to);
        let occupied = (self.occ[0] | self.occ[1]) & (1 << to) != 0;
        match mv.from() {
            None => {
                let v = mv.drop_value();
                if self.hand[us][v as usize] == 0 {
                    if self.placing {
                        format!("{} ({v}) is not in your placement reserve", letter(v))
                    } else {
                        format!("you have no {} ({v}) in hand", letter(v))
                    }
                } else if occupied {
                    format!("{to_name} is occupied")
                } else if self.placing {
                    let camp = if self.side == Color::Sente { "d-e" } else { "a-b" };
                    format!("during placement you may only drop on your own camp (ranks {camp})")
                } else {
                    "not a legal drop".to_string()
                }
            }
            Some(from) => {
                let cell = self.board[from];
                let from_name = square_name(from);
                if self.placing {
                    "no board move during the placement phase: drop a piece on your camp".to_string()
                } else if cell == EMPTY {
                    format!("there is no piece on {from_name}")
                } else if owner(cell) != self.side {
                    format!("the piece on {from_name} is not yours")
                } else if self.steps(from) & (1 << to) == 0 {
                    format!("the piece on {from_name} cannot step to {to_name}")
                } else if self.occ[us] & (1 << to) != 0 {
                    format!("your own piece stands on {to_name}")
                } else if mv.promotes() {
                    if !self.rules.promotion {
                        "promotion is switched off (NumberShogiPromotion off)".to_string()
                    } else if is_promoted(cell) {
                        format!("the piece on {from_name} is already promoted")
                    } else {
                        "promotion needs a move that starts or ends on the far rank".to_string()
                    }
                } else {
                    "not a legal move".to_string()
                }
            }
        }
    }
}
