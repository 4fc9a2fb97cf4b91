//! Static evaluation and move-ordering hints.
//!
//! Material (hand pieces a little above board pieces, promoted pieces by their new
//! worth), king safety (own generals beside the king, enemy pieces near it, enemy hand
//! pieces as drop threats against an open king), piece placement (advanced pawns and
//! generals, a king in its camp and off the centre files) and, after the placement,
//! terms read off both sides' attack maps: mobility, pressure on the enemy king's zone,
//! supported drop squares beside the own king, and undefended pieces under attack.

use super::board::*;
use super::Shogi66;
use crate::games::see::swap_off;
use crate::tune::{NoTrace, Trace};

/// Board value per kind, for move ordering, exchanges and the placement reserve (the
/// evaluation's own piece values are the weights `board_value`/`hand_value`).
pub const VALUE: [i32; 15] = [0, 100, 280, 300, 480, 540, 620, 720, 0, 520, 500, 500, 520, 850, 980];
/// Hand value per kind, for exchanges.
pub const HAND_VALUE: [i32; 9] = [0, 115, 310, 330, 530, 590, 700, 800, 0];

crate::weights_schema! {
    // No taper in this game.
    // By kind: -, P L N S G B R K, +P +L +N +S +B(horse) +R(dragon).
    board_value: flat(15),
    // Pieces in hand, by kind (- P L N S G B R -).
    hand_value: flat(9),
    // Per rank a pawn has advanced.
    pawn_advance: flat(1),
    // Per rank (up to 4) a silver, gold or promoted minor has advanced.
    general_advance: flat(1),
    knight_edge: flat(1),
    // King on its own two back ranks; king on the two centre files.
    king_camp: flat(1),
    king_centre: flat(1),
    // Next to the own king: gold-like or silver, pawn, any other piece.
    defender: flat(3),
    // By kind, times (3 - distance) for a piece within two steps of the enemy king.
    attack: flat(15),
    // Per empty square around the own king per enemy hand piece other than a pawn.
    open_drop: flat(1),
    tempo: flat(1),
    // Attack maps (after placement). Per empty or enemy square a piece attacks, by kind.
    mobility: flat(15),
    // Attacks on the enemy king's 3x3 zone: their number (up to 12), its square, the
    // pieces taking part (up to 6), zone squares attacked and not defended but by the king.
    zone_hits: flat(1),
    zone_hits_sq: flat(1),
    zone_attackers: flat(1),
    zone_weak: flat(1),
    // Empty squares beside the own king that the enemy attacks and no own piece but the
    // king defends, times the enemy's hand pieces other than pawns (up to 3).
    drop_support: flat(1),
    // Own pieces attacked and not defended: with the move; while the enemy moves.
    hanging_to_move: flat(1),
    hanging_waiting: flat(1),
    // Squares beside the own king it could step to: not own, not attacked.
    king_flight: flat(1),
    // Piece-square values (after placement), by kind (as board_value), then the rank
    // counted from the owner's far side (0..5), then the file folded onto the owner's
    // half (edge, second, centre): `kind * 18 + rank * 3 + file`.
    pst: flat(15 * 18),
}

const fn build_zones() -> [u64; SQUARES + 1] {
    let mut z = [0u64; SQUARES + 1];
    let mut s = 0;
    while s < SQUARES {
        let mut m = 1u64 << s;
        let (c, r) = ((s % 6) as i32, (s / 6) as i32);
        let mut d = 0;
        while d < 8 {
            let (nc, nr) = (c + DIRS[d].0, r + DIRS[d].1);
            if nc >= 0 && nc < 6 && nr >= 0 && nr < 6 {
                m |= 1u64 << (nr * 6 + nc);
            }
            d += 1;
        }
        z[s] = m;
        s += 1;
    }
    z
}
/// A king's square and its neighbours, by king square (36, no king: empty).
static ZONE: [u64; SQUARES + 1] = build_zones();

crate::weights_files!("shogi66", include_str!("weights.txt"), include_str!("weights_initial.txt"));

fn chebyshev(a: usize, b: usize) -> i32 {
    let dc = (col(a) as i32 - col(b) as i32).abs();
    let dr = (rank(a) as i32 - rank(b) as i32).abs();
    dc.max(dr)
}

/// Score for colour `c` (positive = good for `c`); `t` gets sente's view.
#[inline(always)]
fn side_score<T: Trace>(pos: &Position, c: usize, w: &Weights, t: &mut T) -> i32 {
    let sg = if c == 0 { 1.0f32 } else { -1.0 };
    let mut s = 0;
    let them = 1 - c;
    if pos.placing {
        // The reserve: only one of R and B will be used (the rook while both remain).
        // Fixed values: the placement is not tuned (no training positions there).
        for k in 1..8 {
            s += VALUE[k] * pos.hand[c][k] as i32;
        }
        if pos.hand[c][ROOK as usize] > 0 && pos.hand[c][BISHOP as usize] > 0 {
            s -= VALUE[BISHOP as usize];
        }
    } else {
        for k in 1..8 {
            let n = pos.hand[c][k] as i32;
            s += w[at::hand_value + k] * n;
            t.add(at::hand_value + k, sg * n as f32);
        }
    }
    let ksq = pos.king[c] as usize;
    let eksq = pos.king[them] as usize;
    let mut own = pos.occ[c];
    while own != 0 {
        let sq = own.trailing_zeros() as usize;
        own &= own - 1;
        let k = kind(pos.board[sq]);
        if pos.placing {
            // Placed and unplaced pieces at the same fixed values (the placement is not
            // tuned: a tuned board value against a fixed hand value would make placing
            // a piece a gain in itself).
            s += VALUE[k as usize];
        } else {
            s += w[at::board_value + k as usize];
            t.add(at::board_value + k as usize, sg);
        }
        let adv = 5 - rel_rank(c, sq) as i32; // 0 on own back rank .. 5 on the far rank
        match k {
            PAWN => {
                s += w[at::pawn_advance] * adv;
                t.add(at::pawn_advance, sg * adv as f32);
            }
            SILVER | GOLD | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => {
                s += w[at::general_advance] * adv.min(4);
                t.add(at::general_advance, sg * adv.min(4) as f32);
            }
            KNIGHT if (col(sq) == 0 || col(sq) == 5) => {
                s += w[at::knight_edge];
                t.add(at::knight_edge, sg);
            }
            KING => {
                if rel_rank(c, sq) >= 4 {
                    s += w[at::king_camp];
                    t.add(at::king_camp, sg);
                }
                if col(sq) == 2 || col(sq) == 3 {
                    s += w[at::king_centre];
                    t.add(at::king_centre, sg);
                }
            }
            _ => {}
        }
        if pos.placing {
            continue;
        }
        let file = col(sq).min(5 - col(sq));
        let i = at::pst + k as usize * 18 + rel_rank(c, sq) * 3 + file;
        s += w[i];
        t.add(i, sg);
        // Defenders next to the own king.
        if ksq < SQUARES && k != KING && chebyshev(sq, ksq) == 1 {
            let i = match k {
                GOLD | SILVER | PRO_PAWN | PRO_LANCE | PRO_KNIGHT | PRO_SILVER => 0,
                PAWN => 1,
                _ => 2,
            };
            s += w[at::defender + i];
            t.add(at::defender + i, sg);
        }
        // Attackers near the enemy king.
        if eksq < SQUARES {
            let d = chebyshev(sq, eksq);
            if d <= 2 {
                s += w[at::attack + k as usize] * (3 - d);
                t.add(at::attack + k as usize, sg * (3 - d) as f32);
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
        s += open * threats * w[at::open_drop];
        t.add(at::open_drop, sg * (open * threats) as f32);
    }
    s
}

/// The terms read off both sides' attack maps, sente's view.
#[inline(always)]
fn attack_terms<T: Trace>(pos: &Position, w: &Weights, t: &mut T) -> i32 {
    let mut att = [0u64; 2]; // squares colour c attacks
    let mut att_nk = [0u64; 2]; // ... with a piece other than its king
    let mut hits = [0i32; 2]; // c's attacks into the enemy king's zone
    let mut attackers = [0i32; 2];
    let zone = [ZONE[pos.king[0] as usize], ZONE[pos.king[1] as usize]];
    let mut s = 0;
    for c in 0..2 {
        let (sg, sgf) = if c == 0 { (1, 1.0f32) } else { (-1, -1.0f32) };
        let mut own = pos.occ[c];
        while own != 0 {
            let sq = own.trailing_zeros() as usize;
            own &= own - 1;
            let p = pos.board[sq];
            let tg = pos.targets(sq, p);
            att[c] |= tg;
            let k = kind(p) as usize;
            if k == KING as usize {
                continue;
            }
            att_nk[c] |= tg;
            let m = (tg & !pos.occ[c]).count_ones() as i32;
            s += sg * w[at::mobility + k] * m;
            t.add(at::mobility + k, sgf * m as f32);
            let h = (tg & zone[1 - c]).count_ones() as i32;
            hits[c] += h;
            attackers[c] += i32::from(h > 0);
        }
    }
    let empty = !(pos.occ[0] | pos.occ[1]) & ALL;
    for c in 0..2 {
        let them = 1 - c;
        let (sg, sgf) = if c == 0 { (1, 1.0f32) } else { (-1, -1.0f32) };
        let mut add = |i: usize, n: i32| {
            s += sg * w[i] * n;
            t.add(i, sgf * n as f32);
        };
        if zone[them] != 0 {
            let h = hits[c].min(12);
            add(at::zone_hits, h);
            add(at::zone_hits_sq, h * h);
            add(at::zone_attackers, attackers[c].min(6));
            add(at::zone_weak, (zone[them] & att[c] & !att_nk[them]).count_ones() as i32);
        }
        if zone[c] != 0 {
            let droppers: i32 = (2..8).map(|k| pos.hand[them][k] as i32).sum();
            let support = (zone[c] & empty & att[them] & !att_nk[c]).count_ones() as i32;
            add(at::drop_support, support * droppers.min(3));
            let ksq = pos.king[c] as usize;
            let flight = (zone[c] & !(1u64 << ksq)) & !pos.occ[c] & !att[them];
            add(at::king_flight, flight.count_ones() as i32);
        }
        let king_bit = if (pos.king[c] as usize) < SQUARES { 1u64 << pos.king[c] } else { 0 };
        let hanging = ((pos.occ[c] & !king_bit) & att[them] & !att[c]).count_ones() as i32;
        add(if pos.stm == c { at::hanging_to_move } else { at::hanging_waiting }, hanging);
    }
    s
}

/// Evaluation from the side to move's view, within +-15000.
pub fn evaluate(pos: &Position) -> i32 {
    eval_position(pos, weights(), &mut NoTrace)
}

#[inline(always)]
fn eval_position<T: Trace>(pos: &Position, w: &Weights, t: &mut T) -> i32 {
    let mut v = side_score(pos, 0, w, t) - side_score(pos, 1, w, t);
    if !pos.placing {
        v += attack_terms(pos, w, t);
    }
    let v = if pos.stm == 0 { v } else { -v };
    t.add(at::tempo, if pos.stm == 0 { 1.0 } else { -1.0 });
    (v + w[at::tempo]).clamp(-15000, 15000)
}

/// The evaluation of a game position with weights `w`, reporting each weight's
/// coefficient to `t` (sente's view; the tuner turns it to the side to move's).
pub fn evaluate_with<T: Trace>(g: &Shogi66, w: &Weights, t: &mut T) -> i32 {
    eval_position(&g.pos, w, t)
}

/// No taper in this game: every weight is used in full.
pub fn mg_share(_: &Shogi66) -> f32 {
    1.0
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

/// Static exchange evaluation of the move `from` -> `to` (promoting if `promo`; a drop
/// when `from` is 36 + kind, as in `Move`): what the mover wins (negative: loses) if both sides keep recapturing on `to` with
/// their least valuable piece while that pays. Pieces behind a capturer join in as it
/// leaves; promotions during the exchange and drops into it are not counted.
///
/// The exchange is cut off once its sign is settled: use the sign, not the size.
pub fn see(pos: &Position, from: usize, to: usize, promo: bool) -> i32 {
    let mut board = pos.board;
    let (mut first, mut mover, mut side);
    if from >= SQUARES {
        // A drop (`from` is 36 + kind, as in `Move`): nothing is taken, the dropped
        // piece may be.
        (first, mover, side) = (0, (from - SQUARES) as u8, pos.stm);
        board[to] = piece(mover, side);
    } else {
        let victim = board[to];
        first = if victim == 0 { 0 } else { exchange_value(kind(victim)) };
        mover = kind(board[from]);
        side = color_index(board[from]);
        if promo {
            first += VALUE[promote(mover) as usize] - VALUE[mover as usize];
            mover = promote(mover);
        }
        board[to] = board[from];
        board[from] = 0;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::tune::testing;

    testing::weights_tests! {
        game: Shogi66,
        dir: "shogi66",
        mirror: |sfen| testing::mirrored_sfen(sfen, true),
        min_positions: 10_000,
        coverage: |positions, _| {
            let placing = positions.iter().filter(|g| g.pos.placing).count();
            assert!(placing > 100, "{placing}");
        },
    }

    /// Positions reached by random play (placements included) from the perft suite's
    /// positions and the start.
    fn sample_positions() -> Vec<(<Shogi66 as Game>::Rules, Shogi66)> {
        let suite = include_str!("../../../fixtures/perft/shogi66.perft");
        testing::sample(suite, &[(Default::default(), 60)], 120, |_| true)
    }

    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let positions: Vec<Shogi66> =
            sample_positions().into_iter().map(|x| x.1).step_by(5).filter(|g| !g.pos.placing).collect();
        testing::check_linear_form(
            &positions,
            PARAMS,
            weights(),
            |g, f| evaluate_with(g, weights(), f),
            mg_share,
            0.01,
        );
    }
}
