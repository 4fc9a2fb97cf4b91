//! Kokesu (`kokesu`, rules.md §2): chess for kokeshi-doll pieces.
//!
//! Rules as implemented:
//! - 8x8 board, standard chess array; sente = red = uppercase moves first from ranks g-h.
//!   USI squares: file 1 = chess h-file, file 8 = a-file; rank a = chess rank 8, rank h =
//!   chess rank 1. Chess e2-e4 is `4g4e`. Start: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1`.
//! - K Q R B N P move as in chess; pawns double-step from their start rank. **No castling,
//!   no en passant.** Only legal moves (the own king is never left attacked).
//! - Promotion, switch `KokesuPromotion`:
//!   - `captured` (default): a pawn reaching the last rank becomes one of the types of which
//!     its side has fewer on the board than at the start (1 Q, 2 R, 2 B, 2 N); compulsory
//!     when there is one (tokens `<from><to><q|r|b|n>`). With no type available the pawn
//!     still moves there (plain token), stays a pawn with no moves for good.
//!   - `free`: any of q r b n, always, compulsory (FIDE).
//! - Checkmate loses for the mated side. Stalemate, switch `KokesuStalemate`: `draw`
//!   (default) | `loss` (for the stalemated side). Threefold repetition is a draw
//!   (REPETITION_LIMIT = 3); 100 plies without capture or pawn move is a draw
//!   ([`Game::move_count_draw`]; the counter is 0 at the SFEN root, is not written in the
//!   SFEN and is not part of the key). No insufficient-material rule.
//!
//! SFEN: `<board> <b|w> - [ply]`; the hand field must be `-`. `from_sfen` rejects: a side
//! without exactly one king; a pawn on its own first rank (a pawn on its last rank is legal:
//! a stuck pawn); more than 8 pawns a side; with `captured`, more Q/R/B/N of a type than the
//! starting array (promotion only replaces captured pieces); with `free`, more pieces above
//! the starting array than missing pawns; the side not to move in check; `+` (no promoted
//! pieces exist).

mod board;
pub mod eval;
mod movegen;
pub mod nnue;
mod sfen;
mod zobrist;

pub use movegen::KMove;

use crate::game::{
    Appearance, ChessNotation, Color, Game, MoveError, Notation, Outcome, PieceStyle, Scope, SfenError, Strategy,
    Switch, SwitchKind, CORRECTION_KEYS,
};
use crate::games::nnue as net;
use board::*;
use nnue::Accumulator;

/// Switch `KokesuPromotion`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PromotionRule {
    #[default]
    Captured,
    Free,
}

/// Switch `KokesuStalemate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StalemateRule {
    #[default]
    Draw,
    Loss,
}

/// The values of Kokesu's rules switches, and of its evaluation switches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KokesuRules {
    pub promotion: PromotionRule,
    pub stalemate: StalemateRule,
    /// `KokesuEval` and `KokesuNetFile`: not rules, but every position needs to know how it
    /// is scored.
    pub eval: EvalSettings,
}

/// The evaluation switches' values. The default scores positions by the net built into
/// the binary (it beat the classic evaluation, docs/NNUE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EvalSettings {
    /// The net positions are scored by (`KokesuEval nnue`, the default); `None`: the
    /// classic evaluation.
    pub net: Option<nnue::Net>,
    /// The net of `KokesuNetFile`; `None`: the one built into the binary.
    pub file: Option<nnue::Net>,
}

impl Default for EvalSettings {
    /// The built-in net (checked by a test, so a shipped binary always has it; were it
    /// unreadable, the classic evaluation).
    fn default() -> EvalSettings {
        EvalSettings { net: nnue::NETS.builtin().ok(), file: None }
    }
}

/// A Kokesu position (a small plain value; copy-make).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kokesu {
    /// Bitboards by kind (both colours).
    pieces: [u64; 6],
    /// Bitboards by colour (0 = sente, 1 = gote).
    colors: [u64; 2],
    /// Mailbox: `color * 6 + kind`, or `EMPTY`.
    board: [u8; 64],
    side: usize,
    /// The number of the next ply.
    ply: u32,
    /// Plies since the last capture or pawn move (0 at the SFEN root).
    halfmove: u32,
    key: u64,
    rules: KokesuRules,
}

const START_SFEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1";

/// `KokesuNetFile`'s value for the net built into the binary.
pub use crate::games::nnue::BUILTIN_NET;

/// Kokesu's switches.
static SWITCHES: [Switch<KokesuRules>; 4] = [
    Switch::new("KokesuPromotion", SwitchKind::Combo(&["captured", "free"]), "captured", Scope::Rules, |r, v| {
        r.promotion = if v == "free" { PromotionRule::Free } else { PromotionRule::Captured };
        Ok(())
    }),
    Switch::new("KokesuStalemate", SwitchKind::Combo(&["draw", "loss"]), "draw", Scope::Rules, |r, v| {
        r.stalemate = if v == "loss" { StalemateRule::Loss } else { StalemateRule::Draw };
        Ok(())
    }),
    Switch::new(
        "KokesuEval",
        SwitchKind::Combo(net::EVAL_WORDS),
        "nnue",
        Scope::Evaluation,
        |r: &mut KokesuRules, v| nnue::NETS.set_eval(&mut r.eval.net, r.eval.file, v),
    )
    .with_aliases(net::EVAL_ALIASES),
    Switch::new("KokesuNetFile", SwitchKind::File, BUILTIN_NET, Scope::Evaluation, |r: &mut KokesuRules, v| {
        nnue::NETS.set_file(&mut r.eval.net, &mut r.eval.file, v)
    }),
];

const KIND_NAMES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

impl Kokesu {
    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The rules this position is played under.
    pub fn rules(&self) -> KokesuRules {
        self.rules
    }

    /// The network's accumulators, when the position is scored by a net: as the
    /// evaluation gets them (from this thread's stack, the parent's, or from scratch).
    pub fn accumulator(&self) -> Option<Accumulator> {
        let net = self.rules.eval.net?.0;
        Some(nnue::with_accumulator(net, self.ply, &self.board, |acc| acc.clone()))
    }

    /// The network's evaluation. Kept out of line: inlined into `evaluate`, it changed how
    /// the search's code around the classic evaluation was inlined (1.3% more instructions).
    #[inline(never)]
    fn evaluate_nnue(&self, net: &'static nnue::Network) -> i32 {
        let score = nnue::with_accumulator(net, self.ply, &self.board, |acc| net.evaluate(acc, self.side));
        score.clamp(-eval::MAX_EVAL, eval::MAX_EVAL)
    }

    /// The squares: `color * 6 + kind`, or 12 for an empty one; square `rank * 8 + file`
    /// from a1 (the network's features are made from these).
    pub fn squares(&self) -> &[u8; 64] {
        &self.board
    }

    fn illegal_reason(&self, from: usize, to: usize, promo: usize, legal: &[KMove]) -> String {
        let us = self.side;
        let piece = self.board[from];
        let sq = |s: usize| String::from_utf8_lossy(&sfen::square_name(s)).into_owned();
        if piece == EMPTY {
            return format!("there is no piece on {}", sq(from));
        }
        if piece as usize / 6 != us {
            return format!("the piece on {} belongs to the opponent", sq(from));
        }
        let kind = piece as usize % 6;
        if promo != 0 {
            if kind != PAWN {
                return format!("only a pawn promotes; the piece on {} is a {}", sq(from), KIND_NAMES[kind]);
            }
            let last = if us == 0 { RANK_8 } else { RANK_1 };
            if bit(to) & last == 0 {
                return "a pawn promotes only on the last rank".to_string();
            }
        }
        let same_path: Vec<KMove> = legal.iter().copied().filter(|m| m.from() == from && m.to() == to).collect();
        if !same_path.is_empty() {
            let letters: Vec<String> =
                same_path.iter().filter(|m| m.promo() != 0).map(|m| (LETTERS[m.promo()] as char).to_string()).collect();
            if letters.is_empty() {
                return "no promotion type is available (every Q, R, B, N of the mover is still on the board): \
                        the pawn moves without a letter"
                    .to_string();
            }
            if promo == 0 {
                return format!("a pawn reaching the last rank must promote: add one of {}", letters.join(" "));
            }
            return format!(
                "cannot promote to a {}: the mover has all its {}s on the board; choose one of {}",
                KIND_NAMES[promo],
                KIND_NAMES[promo],
                letters.join(" ")
            );
        }
        if self.pseudo_targets(from) & bit(to) != 0 {
            if self.checkers() != 0 {
                return "the king is in check and this move does not answer it".to_string();
            }
            return "it would leave the own king attacked".to_string();
        }
        format!("the {} on {} cannot move to {}", KIND_NAMES[kind], sq(from), sq(to))
    }
}

impl Game for Kokesu {
    type Move = KMove;
    type Rules = KokesuRules;

    const NAME: &'static str = "kokesu";
    const APPEARANCE: Appearance = Appearance {
        title: "Kokesu",
        light: "#f0d9b5",
        dark: "#b58863",
        line: "#7a5a3a",
        pieces: PieceStyle::Kokeshi,
        hands: false,
        pointed: false,
        chess: true,
        ..Appearance::SHOGI
    };
    const FILES: usize = 8;
    const RANKS: usize = 8;
    const REPETITION_LIMIT: usize = 3;

    fn switches() -> &'static [Switch<KokesuRules>] {
        &SWITCHES
    }

    fn startpos(rules: &KokesuRules) -> Self {
        match sfen::from_sfen(START_SFEN, rules) {
            Ok(p) => p,
            // The start position is valid under every rule set.
            Err(e) => unreachable!("start position rejected: {e}"),
        }
    }

    fn from_sfen(s: &str, rules: &KokesuRules) -> Result<Self, SfenError> {
        sfen::from_sfen(s, rules)
    }

    fn to_sfen(&self) -> String {
        sfen::to_sfen(self)
    }

    fn diagram(&self) -> String {
        sfen::diagram(self)
    }

    fn status(&self) -> Option<String> {
        Some(format!("plies without capture or pawn move {}", self.halfmove))
    }

    fn result_reason(&self) -> Option<&'static str> {
        None
    }

    fn no_move_reason(&self) -> &'static str {
        if self.checkers() != 0 {
            "checkmate"
        } else {
            "stalemate"
        }
    }

    fn side_to_move(&self) -> Color {
        if self.side == 0 {
            Color::Sente
        } else {
            Color::Gote
        }
    }

    fn legal_moves(&self, out: &mut Vec<KMove>) {
        self.generate(out);
    }

    fn play(&mut self, mv: KMove) {
        self.make(mv);
    }

    fn parse_move(&self, token: &str) -> Result<KMove, MoveError> {
        let Some((from, to, promo)) = sfen::parse_token(token) else {
            return Err(MoveError::Syntax(token.to_string()));
        };
        let mut legal = Vec::with_capacity(64);
        self.generate(&mut legal);
        if legal.is_empty() {
            return Err(MoveError::GameOver(token.to_string()));
        }
        let mv = KMove::new(from, to, promo);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        Err(MoveError::Illegal(token.to_string(), self.illegal_reason(from, to, promo, &legal)))
    }

    fn write_move(&self, mv: KMove, out: &mut String) {
        sfen::write_token(mv, out)
    }

    fn key(&self) -> u64 {
        self.key
    }

    fn no_move_outcome(&self) -> Outcome {
        if self.checkers() != 0 {
            return Outcome::Loss;
        }
        match self.rules.stalemate {
            StalemateRule::Draw => Outcome::Draw,
            StalemateRule::Loss => Outcome::Loss,
        }
    }

    fn in_check(&self) -> bool {
        self.checkers() != 0
    }

    fn attackers(&self, by: Color, square: &str) -> Option<Vec<String>> {
        let b = square.as_bytes();
        let sq = if b.len() == 2 { sfen::parse_square(b[0], b[1]) } else { None };
        let occ = self.colors[0] | self.colors[1];
        Some(sq.map_or_else(Vec::new, |sq| square_names(Kokesu::attackers(self, sq, by.index(), occ))))
    }

    fn checkers(&self) -> Vec<String> {
        square_names(Kokesu::checkers(self))
    }

    fn move_count_draw(&self) -> bool {
        self.halfmove >= 100
    }
}

/// The USI names of the squares of a bitboard.
fn square_names(mut bits: u64) -> Vec<String> {
    let mut out = Vec::new();
    while bits != 0 {
        let sq = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        out.push(String::from_utf8_lossy(&sfen::square_name(sq)).into_owned());
    }
    out
}

impl Strategy for Kokesu {
    const BENCH_POSITIONS: &'static [&'static str] = &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 b - 1",
    ];
    const BENCH_DEPTH: u32 = 10;

    fn stalemate_may_lose(&self) -> bool {
        self.rules.stalemate == StalemateRule::Loss
            && self.colors[self.side] & !(self.pieces[board::PAWN] | self.pieces[board::KING]) == 0
    }

    fn evaluate(&self) -> i32 {
        match self.rules.eval.net {
            Some(net) => self.evaluate_nnue(net.0),
            None => eval::evaluate(self),
        }
    }

    fn take_switches(&mut self, rules: &KokesuRules) {
        self.rules.eval = rules.eval;
    }

    /// The pawns of both sides (the structure the evaluation is least sure of), then each
    /// side's other pieces, king included.
    fn correction_keys(&self) -> [Option<u64>; CORRECTION_KEYS] {
        const MUL: [u64; 5] = [
            0x9E37_79B9_7F4A_7C15,
            0xC2B2_AE3D_27D4_EB4F,
            0x1656_67B1_9E37_79F9,
            0x27D4_EB2F_1656_67C5,
            0x85EB_CA77_C2B2_AE63,
        ];
        let pawns = self.pieces[PAWN];
        let (w, b) = (pawns & self.colors[0], pawns & self.colors[1]);
        let pawn_key = w.wrapping_mul(MUL[0]) ^ b.wrapping_mul(MUL[1]).rotate_left(29);
        let pieces = |c: usize| {
            (KNIGHT..=KING).fold(0u64, |h, k| {
                h ^ (self.pieces[k] & self.colors[c]).wrapping_mul(MUL[k - 1]).rotate_left(7 * k as u32)
            })
        };
        [Some(pawn_key), Some(pieces(0)), Some(pieces(1))]
    }

    const FUTILITY_MARGIN: i32 = 120;
    const QUIET_PRUNING: bool = true;
    const REDUCE_LESS_WHEN_UNCERTAIN: bool = true;

    /// A pass, while the side to move has a piece besides pawns and king (pawn endings
    /// are where zugzwang decides).
    fn null_move(&self) -> Option<Kokesu> {
        let own = self.colors[self.side];
        if own & !(self.pieces[PAWN] | self.pieces[KING]) == 0 || self.checkers() != 0 {
            return None;
        }
        let mut p = self.clone();
        p.side ^= 1;
        p.key ^= zobrist::GOTE_TO_MOVE;
        p.ply = p.ply.saturating_add(1);
        p.halfmove = p.halfmove.saturating_add(1);
        Some(p)
    }

    fn is_tactical(&self, mv: KMove) -> bool {
        mv.promo() != 0 || self.board[mv.to()] != EMPTY
    }

    fn material_gain(&self, mv: KMove) -> Option<i32> {
        Some(eval::material_gain(self, mv))
    }

    fn tactical_moves(&self, out: &mut Vec<KMove>) -> bool {
        self.generate_some(out, true);
        true
    }

    fn losing_exchange(&self, mv: KMove) -> bool {
        eval::see(self, mv.from(), mv.to(), mv.promo()) < 0
    }

    fn order_score(&self, mv: KMove) -> i32 {
        const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];
        let attacker = self.board[mv.from()];
        let victim = self.board[mv.to()];
        let mut score = 0;
        if victim != EMPTY {
            score += VALUE[victim as usize % 6] * 16 - VALUE[attacker as usize % 6];
            score += 16;
        }
        if mv.promo() != 0 {
            score += VALUE[mv.promo()] * 16;
        }
        score
    }

    fn move_id(mv: KMove) -> u32 {
        mv.0 as u32
    }

    /// The moving piece (colour and kind) and its destination.
    fn continuation_id(&self, mv: KMove) -> u32 {
        self.board[mv.from()] as u32 * 64 + mv.to() as u32
    }
    const CONTINUATION_IDS: u32 = 12 * 64;
}

impl Notation for Kokesu {
    /// Chess FEN; xboard draws it as an 8x8 `fairy` board whose king has no castling and
    /// whose pawn has no en passant capture (Betza without `O` and `e`).
    const CHESS_NOTATION: Option<ChessNotation> = Some(ChessNotation {
        xboard_name: "kokesu",
        holdings: false,
        xboard_pieces: "PNBRQ................Kpnbrq................k",
        xboard_parent: "fairy",
        xboard_moves: &[("P", "fmWfcFifmnD"), ("N", "N"), ("B", "B"), ("R", "R"), ("Q", "Q"), ("K", "K")],
    });
}
