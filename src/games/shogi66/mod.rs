//! 66 shogi (`shogi66`): standard shogi on a 6x6 board with a placement phase
//! (rules.md §1 and §0).
//!
//! - Board 6x6, files 1..6 (1 = right), ranks a..f (a = top). Camps and promotion zones
//!   are 2 ranks: sente's camp e-f, gote's a-b.
//! - Pieces per side K R B G S N L and 6 P; only one of R and B is used.
//! - `startpos` = `6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1`: pawns fixed, the rest in
//!   hand as a reserve. Placement: 12 plies, sente first, each a drop (`K*1f`) onto an
//!   empty square of the mover's own camp; placing R boxes B and vice versa; no board move
//!   until both sides have placed 6. Whether an SFEN is in the placement phase follows the
//!   five conditions of rules.md §0.
//! - Play: standard shogi moves. Promotion optional on a move starting or ending in the
//!   zone, compulsory where the piece would have no further move (P/L last rank, N last
//!   two). Drops of captured pieces: no P/L on the last rank, no N on the last two, no
//!   second unpromoted pawn on a file (nifu), no pawn drop that mates. No move may leave
//!   one's own king in check. No legal move = loss (checkmate).
//! - Repetition: 4th occurrence = draw, a side that checked throughout loses (judged by the
//!   search on history; see the constants).
//!
//! Tokens: drop `<LETTER>*<sq>` (uppercase for both sides), board move `<from><to>[+]`.

// Index loops over squares and kinds read more plainly here than iterator chains.
#![allow(clippy::needless_range_loop)]

mod board;
mod book;
pub mod eval;
mod movegen;
pub mod nnue;
mod sfen;
mod zobrist;

use crate::game::{
    Appearance, BookChoice, ChessNotation, Color, Game, MoveError, Notation, Scope, SfenError, Strategy, Switch,
    SwitchKind,
};
use crate::games::nnue as net;
pub use board::Move;
use board::*;
use movegen::Gen;
use nnue::Net;

/// 66 shogi has no rules switches; what it holds are the evaluation switches
/// (`Shogi66Eval`, `Shogi66NetFile`). The default scores positions of play by the net
/// built into the binary (it beat the classic evaluation, docs/NNUE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The net positions of play are scored by (`Shogi66Eval nnue`, the default); `None`:
    /// the classic evaluation.
    pub net: Option<Net>,
    /// The net of `Shogi66NetFile`; `None`: the one built into the binary.
    pub file: Option<Net>,
}

/// A 66-shogi position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shogi66 {
    pos: Position,
    /// The net of `Shogi66Eval nnue`, if chosen.
    net: Option<Net>,
}

impl Default for Rules {
    /// The built-in net (checked by a test, so a shipped binary always has it; were it
    /// unreadable, the classic evaluation).
    fn default() -> Rules {
        Rules { net: nnue::NETS.builtin().ok(), file: None }
    }
}

/// `Shogi66NetFile`'s value for the net built into the binary.
pub use crate::games::nnue::BUILTIN_NET;

/// 66 shogi's switches: its evaluation's.
static SWITCHES: [Switch<Rules>; 2] = [
    Switch::new("Shogi66Eval", SwitchKind::Combo(net::EVAL_WORDS), "nnue", Scope::Evaluation, |r: &mut Rules, v| {
        nnue::NETS.set_eval(&mut r.net, r.file, v)
    })
    .with_aliases(net::EVAL_ALIASES),
    Switch::new("Shogi66NetFile", SwitchKind::File, BUILTIN_NET, Scope::Evaluation, |r: &mut Rules, v| {
        nnue::NETS.set_file(&mut r.net, &mut r.file, v)
    }),
];

impl Shogi66 {
    /// The network's evaluation. Kept out of line, as Kokesu's: the classic evaluation's
    /// code around it stays as it was.
    #[inline(never)]
    fn evaluate_nnue(&self, net: &'static nnue::Network) -> i32 {
        nnue::evaluate(net, &self.pos).clamp(-15000, 15000)
    }

    /// Whether the position is in the placement phase.
    pub fn in_placement(&self) -> bool {
        self.pos.placing
    }

    /// Why a well-formed move token `mv` is not legal here (it is known not to be).
    fn why_illegal(&self, mv: Move) -> String {
        let p = &self.pos;
        let us = p.stm;
        let to = mv.to();
        let occupied = (p.occ[0] | p.occ[1]) & (1u64 << to) != 0;
        if mv.is_drop() {
            let k = mv.drop_kind();
            let letter = LETTER[k as usize] as char;
            if p.placing {
                if p.hand[us][k as usize] == 0 {
                    if (k == ROOK || k == BISHOP) && (0..SQUARES).any(|s| p.board[s] == piece(ROOK + BISHOP - k, us)) {
                        return format!("{letter} is boxed: the other of R and B was placed");
                    }
                    return format!("no {letter} left in the placement reserve");
                }
                if occupied {
                    return "the square is occupied".into();
                }
                return "a placement drop must go onto an empty square of one's own camp".into();
            }
            if k == KING || p.hand[us][k as usize] == 0 {
                return format!("no {letter} in hand");
            }
            if occupied {
                return "the square is occupied".into();
            }
            if dead_square(k, us, to) {
                return format!("a dropped {letter} would have no further move");
            }
            if k == PAWN && (0..6).any(|r| p.board[r * 6 + col(to)] == piece(PAWN, us)) {
                return "nifu: an unpromoted pawn of the side to move is already on that file".into();
            }
            if k == PAWN && !p.king_attacked_after(mv) && p.drop_mates(mv) {
                return "pawn-drop mate (uchifuzume)".into();
            }
            return "leaves the king in check".into();
        }
        if p.placing {
            return "no board move during the placement phase".into();
        }
        let from = mv.from();
        let pc = p.board[from];
        if pc == 0 || color_index(pc) != us {
            return "no piece of the side to move on the from-square".into();
        }
        let k = kind(pc);
        if p.occ[us] & (1u64 << to) != 0 {
            return "the to-square holds one's own piece".into();
        }
        if p.targets(from, pc) & (1u64 << to) == 0 {
            return format!("that piece cannot move from {} to {}", sq_str(from), sq_str(to));
        }
        if mv.is_promotion() {
            if !can_promote(k) {
                return "that piece cannot promote".into();
            }
            if !in_zone(us, from) && !in_zone(us, to) {
                return "promotion only on a move that starts or ends in the promotion zone".into();
            }
        } else if can_promote(k) && dead_square(k, us, to) {
            return "must promote: the piece would have no further move".into();
        }
        "leaves the king in check".into()
    }
}

fn sq_str(sq: usize) -> String {
    let n = square_name(sq);
    format!("{}{}", n[0] as char, n[1] as char)
}

impl Position {
    /// Whether the mover's own king is attacked after `mv` (any pseudo move).
    fn king_attacked_after(&self, mv: Move) -> bool {
        let mut c = *self;
        c.make(mv);
        c.king_attacked(self.stm)
    }
}

/// Reads a token's shape: `X*sq` or `sqsq[+]`.
fn parse_token(token: &str) -> Option<Move> {
    let b = token.as_bytes();
    if b.len() == 4 && b[1] == b'*' {
        if !b[0].is_ascii_uppercase() {
            return None;
        }
        let k = kind_of_letter(b[0])?;
        let to = parse_square(&b[2..4])?;
        return Some(Move::drop(k, to));
    }
    if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
        let from = parse_square(&b[0..2])?;
        let to = parse_square(&b[2..4])?;
        if from == to {
            return None;
        }
        return Some(Move::board(from, to, b.len() == 5));
    }
    None
}

impl Game for Shogi66 {
    type Move = Move;
    type Rules = Rules;

    const NAME: &'static str = "shogi66";
    const APPEARANCE: Appearance = Appearance { title: "66 shogi", ..Appearance::SHOGI };
    const FILES: usize = 6;
    const RANKS: usize = 6;
    const REPETITION_LIMIT: usize = 4;
    const PERPETUAL_CHECK_LOSES: bool = true;

    fn switches() -> &'static [Switch<Rules>] {
        &SWITCHES
    }
    const MATE_NEEDS_CHECK: bool = true;

    fn startpos(rules: &Rules) -> Self {
        match sfen::from_sfen(sfen::STARTPOS) {
            Ok(pos) => Shogi66 { pos, net: rules.net },
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    fn from_sfen(text: &str, rules: &Rules) -> Result<Self, SfenError> {
        sfen::from_sfen(text).map(|pos| Shogi66 { pos, net: rules.net })
    }

    fn to_sfen(&self) -> String {
        sfen::to_sfen(&self.pos)
    }

    fn diagram(&self) -> String {
        sfen::diagram(&self.pos)
    }

    fn in_placement(&self) -> bool {
        self.pos.placing
    }

    fn result_reason(&self) -> Option<&'static str> {
        None
    }

    fn no_move_reason(&self) -> &'static str {
        if self.in_check() {
            "checkmate"
        } else {
            "no legal move"
        }
    }

    fn side_to_move(&self) -> Color {
        color_of_index(self.pos.stm)
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        self.pos.generate(true, &mut |m| {
            out.push(m);
            false
        });
    }

    fn play(&mut self, mv: Move) {
        self.pos.make(mv);
    }

    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        let mv = parse_token(token).ok_or_else(|| MoveError::Syntax(token.to_string()))?;
        let mut found = false;
        let mut any = false;
        self.pos.generate(true, &mut |m| {
            any = true;
            if m == mv {
                found = true;
                return true;
            }
            false
        });
        if found {
            Ok(mv)
        } else if !any {
            Err(MoveError::GameOver(token.to_string()))
        } else {
            Err(MoveError::Illegal(token.to_string(), self.why_illegal(mv)))
        }
    }

    fn write_move(&self, mv: Move, s: &mut String) {
        if mv.is_drop() {
            s.push(LETTER[mv.drop_kind() as usize] as char);
            s.push('*');
        } else {
            s.extend(square_name(mv.from()).map(char::from));
        }
        s.extend(square_name(mv.to()).map(char::from));
        if mv.is_promotion() {
            s.push('+');
        }
    }

    fn key(&self) -> u64 {
        self.pos.key
    }

    fn no_move_outcome(&self) -> crate::game::Outcome {
        crate::game::Outcome::Loss
    }

    fn in_check(&self) -> bool {
        !self.pos.placing && self.pos.king_attacked(self.pos.stm)
    }

    fn attackers(&self, by: Color, square: &str) -> Option<Vec<String>> {
        let mut out = Vec::new();
        if let Some(sq) = parse_square(square.as_bytes()) {
            Position::each_attacker(&self.pos.board, sq, by.index(), |a, _| {
                out.push(String::from_utf8_lossy(&square_name(a)).into_owned());
                false
            });
        }
        Some(out)
    }

    fn checkers(&self) -> Vec<String> {
        if !self.in_check() {
            return Vec::new();
        }
        let king = square_name(self.pos.king[self.pos.stm] as usize);
        let king = String::from_utf8_lossy(&king).into_owned();
        Game::attackers(self, self.side_to_move().flip(), &king).unwrap_or_default()
    }
}

impl Strategy for Shogi66 {
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "lrnskg/pppppp/6/6/PPPPPP/GKSNRL b - 13",
        "1sb1l1/1pp1pk/2g3/pG1K2/PP2PS/RL4 b N2Pn3p 43",
        "1k1+S1+P/p3+BL/2pRg1/PP1P2/L1P2g/1K3+p w 2N3Psp 60",
        "n3rk/gpp2p/L1s3/1P1SLG/K1P3/1R1P2 w N6p 58",
    ];
    const BENCH_DEPTH: u32 = 9;

    fn evaluate(&self) -> i32 {
        match self.net {
            Some(net) if !self.pos.placing => self.evaluate_nnue(net.0),
            _ => eval::evaluate(&self.pos),
        }
    }

    fn take_switches(&mut self, rules: &Rules) {
        self.net = rules.net;
    }

    const FUTILITY_MARGIN: i32 = 150;
    const QUIET_PRUNING: bool = true;

    /// A pass, in play (not during placement) and not in check: with drops a position
    /// where every move hurts is rare.
    fn null_move(&self) -> Option<Shogi66> {
        if self.pos.placing || self.pos.king_attacked(self.pos.stm) {
            return None;
        }
        let mut p = *self;
        p.pos.stm ^= 1;
        p.pos.key ^= zobrist::KEYS.side;
        p.pos.ply = p.pos.ply.saturating_add(1);
        Some(p)
    }

    fn is_tactical(&self, mv: Move) -> bool {
        eval::is_tactical(&self.pos, mv)
    }

    fn tactical_moves(&self, out: &mut Vec<Move>) -> bool {
        self.pos.generate_some(true, Gen::Tactical, &mut |m| {
            out.push(m);
            false
        });
        true
    }

    /// The quiet moves (board moves and drops together, by history) only after the table
    /// move, the captures and the killers: with full hands the drops are most of the
    /// moves, and a node that cuts before never makes them. (Drops in a stage of their
    /// own after the board moves lost: docs/STRENGTH.md.)
    const STAGED_MOVES: bool = true;

    fn quiet_moves(&self, _stage: usize, out: &mut Vec<Move>) {
        self.pos.generate_some(true, Gen::Quiet, &mut |m| {
            out.push(m);
            false
        });
    }

    fn is_legal(&self, mv: Move) -> bool {
        self.pos.is_legal(mv)
    }

    fn gives_check(&self, mv: Move) -> bool {
        self.pos.gives_check(mv)
    }

    fn losing_exchange(&self, mv: Move) -> bool {
        eval::see(&self.pos, mv.from(), mv.to(), mv.is_promotion()) < 0
    }

    fn order_score(&self, mv: Move) -> i32 {
        eval::order_score(&self.pos, mv)
    }

    fn move_id(mv: Move) -> u32 {
        mv.0 as u32
    }

    /// The moving piece (colour and kind, promoted kinds apart; a drop's piece is the
    /// kind it drops) and its destination.
    fn continuation_id(&self, mv: Move) -> u32 {
        let p = &self.pos;
        let piece = if mv.is_drop() { board::piece(mv.drop_kind(), p.stm) } else { p.board[mv.from()] };
        piece as u32 * 36 + mv.to() as u32
    }
    const CONTINUATION_IDS: u32 = 32 * 36;

    fn book_move(&self, _choice: &BookChoice) -> Option<Move> {
        book::placement(&self.pos)
    }
}

impl Notation for Shogi66 {
    /// Shogi FEN with holdings; xboard draws a 6x6 `shogi` board (its lance is xboard's
    /// queen slot, silver ferz, gold wazir, as in xboard's own shogi).
    const CHESS_NOTATION: Option<ChessNotation> = Some(ChessNotation {
        xboard_name: "rokurokushogi",
        holdings: true,
        xboard_pieces: "PNBRLS...GK++++++....Ypnbrls...gk++++++....y",
        xboard_parent: "shogi",
        xboard_moves: &[],
    });
}
