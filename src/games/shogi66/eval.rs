//! Static evaluation and move-ordering hints.
//!
//! Material (hand pieces a little above board pieces, promoted pieces by their new
//! worth), king safety (own generals beside the king, enemy pieces near it, enemy hand
//! pieces as drop threats against an open king) and piece placement (advanced pawns and
//! generals, a king in its camp and off the centre files).

use super::board::*;
use crate::games::see::swap_off;

/// Board value per kind.
pub const VALUE: [i32; 15] = [0, 100, 280, 300, 480, 540, 620, 720, 0, 520, 500, 500, 520, 850, 980];
/// Hand value per kind.
pub const HAND_VALUE: [i32; 9] = [0, 115, 310, 330, 530, 590, 700, 800, 0];

/// How much a piece near the enemy king threatens it.
const ATTACK_WEIGHT: [i32; 15] = [0, 6, 10, 14, 22, 24, 22, 26, 0, 24, 24, 24, 24, 34, 38];

fn chebyshev(a: usize, b: usize) -> i32 {
    let dc = (col(a) as i32 - col(b) as i32).abs();
    let dr = (rank(a) as i32 - rank(b) as i32).abs();
    dc.max(dr)
}

/// Score for colour `c` (positive = good for `c`).
fn side_score(pos: &Position, c: usize) -> i32 {
    let mut s = 0;
    let them = 1 - c;
    if pos.placing {
        // The reserve: only one of R and B will be used (the rook while both remain).
        for k in 1..8 {
            s += VALUE[k] * pos.hand[c][k] as i32;
        }
        if pos.hand[c][ROOK as usize] > 0 && pos.hand[c][BISHOP as usize] > 0 {
            s -= VALUE[BISHOP as usize];
        }
    } else {
        for k in 1..8 {
            s += HAND_VALUE[k] * pos.hand[c][k] as i32;
        }
    }
    let ksq = pos.king[c] as usize;
    let eksq = pos.king[them] as usize;
    let mut own = pos.occ[c];
    while own != 0 {
        let sq = own.trailing_zeros() as usize;
        own &= own - 1;
        let k = kind(pos.board[sq]);
        s += VALUE[k as usize];
        let adv = 5 - rel_rank(c, sq) as i32; // 0 on own back rank .. 5 on the far rank
        match k {
            PAWN => s += 6 * adv,
            SILVER | GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => s += 5 * adv.min(4),
            KNIGHT if (col(sq) == 0 || col(sq) == 5) => {
                s -= 10;
            }
            KING => {
                if rel_rank(c, sq) >= 4 {
                    s += 20;
                }
                if col(sq) == 2 || col(sq) == 3 {
                    s -= 15;
                }
            }
            _ => {}
        }
        if pos.placing {
            continue;
        }
        // Defenders next to the own king.
        if ksq < SQUARES && k != KING && chebyshev(sq, ksq) == 1 {
            s += match k {
                GOLD | SILVER | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => 28,
                PAWN => 8,
                _ => 12,
            };
        }
        // Attackers near the enemy king.
        if eksq < SQUARES {
            let d = chebyshev(sq, eksq);
            if d <= 2 {
                s += ATTACK_WEIGHT[k as usize] * (3 - d);
            }
        }
    }
    if !pos.placing && ksq < SQUARES {
        // Open squares around the own king invite drops.
        let mut open = 0;
        for d in 0..8 {
            let n = NB[ksq][d];
            if n >= 0 && pos.board[n as usize] == 0 {
                open += 1;
            }
        }
        let threats: i32 = (1..8).filter(|&k| k != PAWN as usize).map(|k| pos.hand[them][k] as i32).sum();
        s -= open * threats * 6;
    }
    s
}

/// Evaluation from the side to move's view, within +-15000.
pub fn evaluate(pos: &Position) -> i32 {
    let v = side_score(pos, 0) - side_score(pos, 1);
    let v = if pos.stm == 0 { v } else { -v };
    (v + 12).clamp(-15000, 15000)
}

/// Captures and promotions.
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    !mv.is_drop() && (mv.is_promotion() || pos.board[mv.to()] != 0)
}

/// MVV/LVA with a promotion bonus; larger first.
pub fn order_score(pos: &Position, mv: Move) -> i32 {
    if mv.is_drop() {
        return 0;
    }
    let mover = kind(pos.board[mv.from()]);
    let victim = kind(pos.board[mv.to()]);
    let mut s = 0;
    if victim != 0 {
        s += VALUE[victim as usize] * 16 / 10 - VALUE[mover as usize] / 10 + 1000;
    }
    if mv.is_promotion() {
        s += VALUE[promote(mover) as usize] - VALUE[mover as usize] + 200;
    }
    s
}

/// What taking a piece of kind `k` swings: it leaves the board and enters the captor's
/// hand unpromoted (the king: more than everything else).
fn exchange_value(k: u8) -> i32 {
    if k == KING {
        return 20_000;
    }
    VALUE[k as usize] + HAND_VALUE[unpromote(k) as usize]
}

/// The least valuable piece of `by` attacking `sq` on `board`: (square, kind).
fn least_attacker(board: &[u8; SQUARES], sq: usize, by: usize) -> Option<(usize, u8)> {
    let mut best: Option<(usize, u8)> = None;
    Position::each_attacker(board, sq, by, |a, k| {
        if best.is_none_or(|(_, b)| exchange_value(k) < exchange_value(b)) {
            best = Some((a, k));
        }
        false
    });
    best
}

/// Static exchange evaluation of the board move `from` -> `to` (promoting if `promo`):
/// what the mover wins (negative: loses) if both sides keep recapturing on `to` with
/// their least valuable piece while that pays. Pieces behind a capturer join in as it
/// leaves; promotions during the exchange and drops are not counted.
///
/// The exchange is cut off once its sign is settled: use the sign, not the size.
pub fn see(pos: &Position, from: usize, to: usize, promo: bool) -> i32 {
    let mut board = pos.board;
    let victim = board[to];
    let mut first = if victim == 0 { 0 } else { exchange_value(kind(victim)) };
    let mut mover = kind(board[from]);
    if promo {
        first += VALUE[promote(mover) as usize] - VALUE[mover as usize];
        mover = promote(mover);
    }
    let mut side = color_index(board[from]);
    board[to] = board[from];
    board[from] = 0;
    swap_off(first, exchange_value(mover), || {
        side = 1 - side;
        let (a, k) = least_attacker(&board, to, side)?;
        if k == KING && least_attacker(&board, to, 1 - side).is_some() {
            // The king may not capture onto a defended square.
            return None;
        }
        board[to] = board[a];
        board[a] = 0;
        Some(exchange_value(k))
    })
}
