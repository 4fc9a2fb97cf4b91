//! The hand-set evaluation as it stood before the weights became data
//! (`weights_initial.txt`): kept, for tests only, to prove that the linear form with the
//! initial weights gives exactly the same scores.
//!
//! It lives outside `src/` but is compiled into the library's unit tests
//! (`src/games/kokesu/eval.rs` includes it by `#[path]`): it reads the game's private
//! position and board (and the tests use the crate's test-only `tune::testing`), which
//! an integration test cannot see.
#![allow(dead_code)]

use super::super::board::*;
use super::super::movegen::promotion_choices;
use super::super::Kokesu;

const MG_VALUE: [i32; 6] = [100, 325, 335, 480, 960, 0];
const EG_VALUE: [i32; 6] = [125, 300, 320, 530, 1000, 0];
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
const PHASE_TOTAL: i32 = 24;

const FILE_H: u64 = FILE_A << 7;

/// Twice the distance of a square from the centre, per axis (1, 3, 5 or 7).
const fn center_axis(x: usize) -> i32 {
    let d = 2 * x as i32 - 7;
    if d < 0 {
        -d
    } else {
        d
    }
}

/// Manhattan distance to the centre squares, 0..=6.
const fn center_manhattan(sq: usize) -> i32 {
    (center_axis(sq % 8) + center_axis(sq / 8) - 2) / 2
}

/// Piece-square tables from sente's view (square numbering of board.rs), built from simple
/// rules rather than written out: `[kind][sq]` for middlegame and endgame.
const fn build_pst(endgame: bool) -> [[i32; 64]; 6] {
    let mut t = [[0i32; 64]; 6];
    let mut sq = 0;
    while sq < 64 {
        let file = sq % 8;
        let rank = sq / 8;
        let md = center_manhattan(sq);
        // Pawns: advance, and hold the centre early.
        let pawn_rank_mg = [0, 0, 4, 10, 20, 32, 50, 0];
        let pawn_rank_eg = [0, 0, 6, 14, 26, 44, 70, 0];
        let mut p = if endgame { pawn_rank_eg[rank] } else { pawn_rank_mg[rank] };
        if !endgame && (file == 3 || file == 4) && (rank == 3 || rank == 4) {
            p += 15;
        }
        if !endgame && (file == 3 || file == 4) && rank == 1 {
            p -= 10;
        }
        t[PAWN][sq] = p;
        t[KNIGHT][sq] = if endgame { 12 - 6 * md } else { 22 - 9 * md - if rank == 0 { 8 } else { 0 } };
        t[BISHOP][sq] = if endgame { 8 - 4 * md } else { 12 - 4 * md - if rank == 0 { 6 } else { 0 } };
        t[ROOK][sq] =
            if endgame { 0 } else { (if rank == 6 { 20 } else { 0 }) + (if file >= 2 && file <= 5 { 4 } else { 0 }) };
        t[QUEEN][sq] = if endgame { 12 - 4 * md } else { 4 - 2 * md };
        let king_file_mg = [18, 24, 10, -6, -6, 10, 24, 18];
        t[KING][sq] = if endgame { 30 - 10 * md } else { king_file_mg[file] - 22 * rank as i32 };
        sq += 1;
    }
    t
}

static PST_MG: [[i32; 64]; 6] = build_pst(false);
static PST_EG: [[i32; 64]; 6] = build_pst(true);

/// `FRONT_SPAN[color][sq]`: squares ahead of `sq` on its file and both neighbour files.
const fn build_front_spans() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let file = (sq % 8) as i32;
        let rank = (sq / 8) as i32;
        let mut f = file - 1;
        while f <= file + 1 {
            if f >= 0 && f < 8 {
                let mut r = rank + 1;
                while r < 8 {
                    t[0][sq] |= 1u64 << (r * 8 + f);
                    r += 1;
                }
                let mut r = rank - 1;
                while r >= 0 {
                    t[1][sq] |= 1u64 << (r * 8 + f);
                    r -= 1;
                }
            }
            f += 1;
        }
        sq += 1;
    }
    t
}

static FRONT_SPAN: [[u64; 64]; 2] = build_front_spans();

const PASSED_MG: [i32; 8] = [0, 5, 10, 16, 28, 48, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 18, 32, 55, 95, 150, 0];

#[inline]
fn pawn_attacks_of(pawns: u64, color: usize) -> u64 {
    if color == 0 {
        ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
    } else {
        ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
    }
}

#[inline]
fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The largest value a pawn of `color` can become on promotion (0 if none now).
fn promotion_value(pos: &Kokesu, color: usize) -> i32 {
    let choices = promotion_choices(pos, color);
    for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
        if choices & (1 << kind) != 0 {
            return MG_VALUE[kind];
        }
    }
    0
}

struct Side {
    mg: i32,
    eg: i32,
}

fn eval_side(pos: &Kokesu, us: usize, phase: i32) -> Side {
    let them = us ^ 1;
    let own = pos.colors[us];
    let opp = pos.colors[them];
    let occ = own | opp;
    let p = &pos.pieces;
    let my_pawns = p[PAWN] & own;
    let their_pawns = p[PAWN] & opp;
    let flip = if us == 0 { 0 } else { 56 };
    let mut mg = 0;
    let mut eg = 0;

    // Material and piece-square tables.
    for kind in PAWN..=KING {
        for sq in Bits(p[kind] & own) {
            let rs = sq ^ flip;
            mg += MG_VALUE[kind] + PST_MG[kind][rs];
            eg += EG_VALUE[kind] + PST_EG[kind][rs];
        }
    }
    if (p[BISHOP] & own).count_ones() >= 2 {
        mg += 30;
        eg += 50;
    }

    // Pawn structure and promotion awareness.
    let promo_value = promotion_value(pos, us);
    // Scale of a passed pawn's bonus, in 1/16: full when a queen is available.
    let promo_scale = (promo_value.max(240) * 16) / MG_VALUE[QUEEN];
    let last_rank = if us == 0 { RANK_8 } else { RANK_1 };
    for file in 0..8 {
        let n = (my_pawns & file_mask(file)).count_ones() as i32;
        if n > 1 {
            mg -= 10 * (n - 1);
            eg -= 24 * (n - 1);
        }
    }
    for sq in Bits(my_pawns) {
        let rs = sq ^ flip;
        let rank = rs / 8;
        let file = sq % 8;
        if bit(sq) & last_rank != 0 {
            // Stuck for good: a blocker at most.
            mg -= MG_VALUE[PAWN] - 30;
            eg -= EG_VALUE[PAWN] - 30;
            continue;
        }
        let neighbours =
            (if file > 0 { file_mask(file - 1) } else { 0 }) | (if file < 7 { file_mask(file + 1) } else { 0 });
        if my_pawns & neighbours == 0 {
            mg -= 12;
            eg -= 16;
        }
        if FRONT_SPAN[us][sq] & their_pawns == 0 {
            let bonus_mg = PASSED_MG[rank] * promo_scale / 16;
            let mut bonus_eg = PASSED_EG[rank] * promo_scale / 16;
            // Free path: nothing in front on its own file.
            let ahead = FRONT_SPAN[us][sq] & file_mask(file);
            if ahead & occ == 0 {
                bonus_eg += bonus_eg / 3;
            }
            // Distance of the kings to the pawn's queening square.
            let qsq = if us == 0 { 56 + file } else { file };
            let their_k = pos.king_square(them);
            let my_k = pos.king_square(us);
            let dist = |a: usize, b: usize| -> i32 {
                let df = (a % 8) as i32 - (b % 8) as i32;
                let dr = (a / 8) as i32 - (b / 8) as i32;
                df.abs().max(dr.abs())
            };
            bonus_eg += (dist(their_k, qsq) - dist(my_k, qsq)) * 4 * rank as i32 * promo_scale / 16;
            mg += bonus_mg;
            eg += bonus_eg;
        }
        if rank == 6 && promo_value > 0 {
            // One step from promoting into something: worth a share of the gain.
            mg += (promo_value - MG_VALUE[PAWN]) / 12;
            eg += (promo_value - MG_VALUE[PAWN]) / 8;
        }
    }

    // Mobility and king attack.
    let their_pawn_attacks = pawn_attacks_of(their_pawns, them);
    let area = !own & !their_pawn_attacks;
    let their_k = pos.king_square(them);
    let zone = KING_ATTACKS[their_k] | bit(their_k);
    let mut attack_units = 0;
    let mut attackers = 0;
    for sq in Bits(p[KNIGHT] & own) {
        let a = KNIGHT_ATTACKS[sq];
        let m = (a & area).count_ones() as i32;
        mg += (m - 4) * 4;
        eg += (m - 4) * 4;
        let z = (a & zone).count_ones() as i32;
        if z > 0 {
            attackers += 1;
            attack_units += 2 * z;
        }
    }
    for sq in Bits(p[BISHOP] & own) {
        let a = bishop_attacks(sq, occ);
        let m = (a & area).count_ones() as i32;
        mg += (m - 6) * 5;
        eg += (m - 6) * 5;
        let z = (a & zone).count_ones() as i32;
        if z > 0 {
            attackers += 1;
            attack_units += 2 * z;
        }
    }
    for sq in Bits(p[ROOK] & own) {
        let a = rook_attacks(sq, occ);
        let m = (a & area).count_ones() as i32;
        mg += (m - 7) * 2;
        eg += (m - 7) * 4;
        let z = (a & zone).count_ones() as i32;
        if z > 0 {
            attackers += 1;
            attack_units += 3 * z;
        }
        let f = file_mask(sq % 8);
        if f & my_pawns == 0 {
            if f & their_pawns == 0 {
                mg += 25;
                eg += 10;
            } else {
                mg += 12;
                eg += 5;
            }
        }
    }
    for sq in Bits(p[QUEEN] & own) {
        let a = rook_attacks(sq, occ) | bishop_attacks(sq, occ);
        let m = (a & area).count_ones() as i32;
        mg += m - 14;
        eg += (m - 14) * 2;
        let z = (a & zone).count_ones() as i32;
        if z > 0 {
            attackers += 1;
            attack_units += 5 * z;
        }
    }
    if attackers >= 2 && p[QUEEN] & own != 0 {
        mg += (attack_units * attack_units / 2).min(450);
    } else if attackers >= 2 {
        mg += (attack_units * attack_units / 4).min(200);
    }

    // Own king shelter (middlegame).
    let k = pos.king_square(us);
    let kr = (k ^ flip) / 8;
    let kf = k % 8;
    if kr <= 1 {
        let mut shelter = 0;
        for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
            let fm = file_mask(f);
            let one = if us == 0 { bit(k) << 8 } else { bit(k) >> 8 };
            let two = if us == 0 { bit(k) << 16 } else { bit(k) >> 16 };
            let row1 = if one != 0 { RANK_1 << (8 * ((one.trailing_zeros() / 8) as usize)) } else { 0 };
            let row2 = if two != 0 { RANK_1 << (8 * ((two.trailing_zeros() / 8) as usize)) } else { 0 };
            if my_pawns & fm & row1 != 0 {
                shelter += 14;
            } else if my_pawns & fm & row2 != 0 {
                shelter += 8;
            }
            if my_pawns & fm == 0 {
                shelter -= 14;
                if their_pawns & fm == 0 {
                    shelter -= 8;
                }
            }
        }
        mg += shelter;
    } else if phase > 12 {
        mg -= 20;
    }
    Side { mg, eg }
}

/// The evaluation from the side to move's view, in centipawns.
pub fn evaluate_reference(pos: &Kokesu) -> i32 {
    let p = &pos.pieces;
    let mut phase = 0;
    for kind in KNIGHT..=QUEEN {
        phase += PHASE_WEIGHT[kind] * p[kind].count_ones() as i32;
    }
    let phase = phase.min(PHASE_TOTAL);
    let white = eval_side(pos, 0, phase);
    let black = eval_side(pos, 1, phase);
    let mg = white.mg - black.mg;
    let mut eg = white.eg - black.eg;

    // Mop-up: a side far ahead without pawns on the other side drives that king to the
    // edge and brings its own king near.
    for (strong, weak, sign) in [(0usize, 1usize, 1i32), (1, 0, -1)] {
        let weak_side = pos.colors[weak];
        if p[PAWN] & weak_side != 0 {
            continue;
        }
        let material = |c: usize| -> i32 {
            (KNIGHT..=QUEEN).map(|k| MG_VALUE[k] * (p[k] & pos.colors[c]).count_ones() as i32).sum()
        };
        if material(strong) - material(weak) >= MG_VALUE[ROOK] {
            let wk = pos.king_square(weak);
            let sk = pos.king_square(strong);
            let kd = ((wk % 8) as i32 - (sk % 8) as i32).abs() + ((wk / 8) as i32 - (sk / 8) as i32).abs();
            eg += sign * (12 * center_manhattan(wk) + 6 * (14 - kd));
        }
    }

    // The endgame scale is a rule of what can be won, not a weight: the evaluation
    // applies it to every set of weights, so the reference does too.
    let eg = eg * super::eg_scale(pos, eg) / 64;
    let score = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    let tempo = 12;
    let score = if pos.side == 0 { score } else { -score } + tempo;
    score.clamp(-15000, 15000)
}

/// The hand-set weights above in the schema of `super::PARAMS`.
pub fn initial_weights() -> Vec<i32> {
    let mut w = Vec::new();
    w.extend_from_slice(&MG_VALUE[..5]);
    w.extend_from_slice(&EG_VALUE[..5]);
    for t in [&PST_MG, &PST_EG] {
        for row in &t[PAWN..=KING] {
            w.extend_from_slice(row);
        }
    }
    w.extend_from_slice(&[30, 50]); // bishop pair
    w.extend_from_slice(&[-10, -24]); // doubled
    w.extend_from_slice(&[-12, -16]); // isolated
    w.extend_from_slice(&[-(MG_VALUE[PAWN] - 30), -(EG_VALUE[PAWN] - 30)]); // stuck
    w.extend_from_slice(&PASSED_MG);
    w.extend_from_slice(&PASSED_EG);
    w.push(4); // passed king distance
    w.extend_from_slice(&[8, 12]); // promo7: 1/12 and 1/8 as 96ths
    w.extend_from_slice(&[4, 5, 2, 1]); // mobility mg
    w.extend_from_slice(&[4, 5, 4, 2]); // mobility eg
    w.extend_from_slice(&[25, 10, 12, 5]); // rook open mg eg, semi-open mg eg
    w.extend_from_slice(&[100, 100]); // king attack percent
    w.extend_from_slice(&[14, 8, -14, -8]); // shelter
    w.push(-20); // king exposed
    w.extend_from_slice(&[12, 6]); // mop-up
    w.push(12); // tempo
    w.extend_from_slice(&[0; 2 + 20 + 2 + 4]); // threats, added after the hand-set evaluation
    w.extend_from_slice(&[0; 2 * 66]); // mobility by count, likewise
    w.extend_from_slice(&[0; 16 + 2 + 4 + 2 + 2 + 4 + 1 + 2 + 1]); // structure and placement, likewise
    w
}
