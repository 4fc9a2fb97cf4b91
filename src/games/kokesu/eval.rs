//! Evaluation: tapered (middlegame/endgame) material, piece-square tables, pawn structure
//! (doubled, isolated, connected, backward, passed), king safety (pawn shield, open files,
//! attackers on the king zone by kind, weak zone squares, safe checks), mobility, outposts,
//! rooks on open files and the seventh, the bishop pair and its own-colour pawns, the
//! king's distance to its pawns, and promotion awareness:
//! under `KokesuPromotion=captured` a passed pawn is worth what it can become, so it gains
//! little while its side has every type on the board, and a pawn stuck on its last rank is
//! worth little. A mop-up term drives a bare king to the edge so won endings get mated.
//! Threats: enemy pieces attacked by pawns, by minor pieces and rooks when weakly
//! defended, and hanging pieces.

use super::board::*;
use super::movegen::{promotion_choices, KMove};
use super::Kokesu;
use crate::games::see::swap_off;

use crate::tune::{NoTrace, Trace};

crate::weights_schema! {
    // `_mg`/`_eg` weights are tapered by the phase.
    // Piece values, pawn..queen.
    material_mg: mg(5),
    material_eg: eg(5),
    // Piece-square tables from sente's view, a1..h8 (square = rank * 8 + file).
    pst_mg_pawn: mg(64),
    pst_mg_knight: mg(64),
    pst_mg_bishop: mg(64),
    pst_mg_rook: mg(64),
    pst_mg_queen: mg(64),
    pst_mg_king: mg(64),
    pst_eg_pawn: eg(64),
    pst_eg_knight: eg(64),
    pst_eg_bishop: eg(64),
    pst_eg_rook: eg(64),
    pst_eg_queen: eg(64),
    pst_eg_king: eg(64),
    bishop_pair_mg: mg(1),
    bishop_pair_eg: eg(1),
    // Per extra pawn on a file.
    doubled_mg: mg(1),
    doubled_eg: eg(1),
    isolated_mg: mg(1),
    isolated_eg: eg(1),
    // A pawn on its last rank (no promotion possible): on top of its material.
    stuck_pawn_mg: mg(1),
    stuck_pawn_eg: eg(1),
    // Passed pawn by relative rank, scaled by what it can promote to (1/16ths).
    passed_mg: mg(8),
    passed_eg: eg(8),
    // Per rank of the pawn and per square the enemy king is further from its queening square.
    passed_king_eg: eg(1),
    // A pawn on the 7th: this many 96ths of (promotion value - pawn).
    promo7_mg: mg(1),
    promo7_eg: eg(1),
    // Per square of mobility beyond a base, knight bishop rook queen.
    mobility_mg: mg(4),
    mobility_eg: eg(4),
    rook_open_mg: mg(1),
    rook_open_eg: eg(1),
    rook_semi_mg: mg(1),
    rook_semi_eg: eg(1),
    // Percent of the king-attack shape, with a queen and without.
    king_attack_mg: mg(2),
    // Shield pawn one step ahead, two steps ahead, own file without pawn, file fully open.
    shelter_mg: mg(4),
    // King off its first two ranks while the phase is above 12.
    king_exposed_mg: mg(1),
    // Mop-up: per step of the weak king from the centre, per step the kings are closer.
    mopup_eg: eg(2),
    // The side to move's bonus.
    tempo: flat(1),
    // Threats (added after the hand-set evaluation, zero there). Enemy pieces other than
    // pawns attacked by an own pawn.
    threat_pawn_mg: mg(1),
    threat_pawn_eg: eg(1),
    // By the victim's kind (pawn..queen): an enemy piece attacked by an own knight or
    // bishop / by an own rook, when no enemy pawn defends it or it is worth more.
    threat_minor_mg: mg(5),
    threat_minor_eg: eg(5),
    threat_rook_mg: mg(5),
    threat_rook_eg: eg(5),
    // Enemy pieces (not the king) attacked and not defended at all.
    hanging_mg: mg(1),
    hanging_eg: eg(1),
    // By checker (knight, bishop, rook, queen): empty squares from which it could give
    // check next move, that piece attacking them and no enemy piece defending them.
    safe_check_mg: mg(4),
    // Mobility by its count (the squares counted for `mobility`, not less the base):
    // knight 0..8, bishop 0..13, rook 0..14, queen 0..27, one value per count.
    mob_count_mg: mg(MOB_COUNTS),
    mob_count_eg: eg(MOB_COUNTS),
    // Pawn structure and piece placement, added after the mobility counts (zero in the
    // hand-set evaluation). A pawn defended by an own pawn or beside one, by relative rank.
    connected_mg: mg(8),
    connected_eg: eg(8),
    // A pawn whose neighbours are all ahead of it and whose stop square an enemy pawn attacks.
    backward_mg: mg(1),
    backward_eg: eg(1),
    // A knight / bishop on relative ranks 4-6, defended by an own pawn, out of reach of
    // enemy pawns.
    outpost_mg: mg(2),
    outpost_eg: eg(2),
    rook_seventh_mg: mg(1),
    rook_seventh_eg: eg(1),
    // Per own pawn on the squares of a bishop's colour.
    bishop_pawns_mg: mg(1),
    bishop_pawns_eg: eg(1),
    // Per square of the enemy king's zone attacked, by attacker (knight, bishop, rook, queen).
    zone_attack_mg: mg(4),
    // Squares of the enemy king's zone attacked and defended by the king alone, or not at all.
    weak_zone_mg: mg(1),
    // Enemy pieces (not pawns) a safe pawn push would attack.
    push_threat_mg: mg(1),
    push_threat_eg: eg(1),
    // The king's distance to its nearest own pawn (none: 0).
    king_pawn_dist_eg: eg(1),
}

/// Where each piece's counts start in `mob_count_*` (knight, bishop, rook, queen), and
/// their number.
const MOB_COUNT_START: [usize; 4] = [0, 9, 23, 38];
const MOB_COUNTS: usize = 66;

const _: () = assert!(at::pst_mg_pawn + 6 * 64 == at::pst_eg_pawn && at::pst_mg_king == at::pst_mg_pawn + 5 * 64);

crate::weights_files!("kokesu", include_str!("weights.txt"), include_str!("weights_initial.txt"));

/// Piece values that are not weights: the phase, what a promotion is worth, and the
/// mop-up's material test.
const PIECE_VALUE: [i32; 6] = [100, 325, 335, 480, 960, 0];
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

#[inline]
fn pawn_attacks_of(pawns: u64, color: usize) -> u64 {
    if color == 0 {
        ((pawns & !FILE_A) << 7) | ((pawns & !FILE_H) << 9)
    } else {
        ((pawns & !FILE_A) >> 9) | ((pawns & !FILE_H) >> 7)
    }
}

/// The king's distance between two squares.
#[inline]
fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    df.abs().max(dr.abs())
}

/// a1, c1, ..., b2, ...: the squares of a1's colour.
const DARK_SQUARES: u64 = 0xAA55_AA55_AA55_AA55;

#[inline]
fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

/// The largest value a pawn of `color` can become on promotion (0 if none now).
fn promotion_value(pos: &Kokesu, color: usize) -> i32 {
    let choices = promotion_choices(pos, color);
    for kind in [QUEEN, ROOK, BISHOP, KNIGHT] {
        if choices & (1 << kind) != 0 {
            return PIECE_VALUE[kind];
        }
    }
    0
}

/// A score as the terms add to it: middlegame and endgame sums, the weights, and the
/// trace each weight's coefficient goes to with the sign `s` (+1 for sente's terms, -1
/// for gote's).
struct Score<'a, T> {
    w: &'a Weights,
    t: &'a mut T,
    s: f32,
    mg: i32,
    eg: i32,
}

impl<'a, T: Trace> Score<'a, T> {
    fn new(w: &'a Weights, t: &'a mut T, s: f32) -> Self {
        Score { w, t, s, mg: 0, eg: 0 }
    }

    /// `n` times the middlegame weight `mg` and the endgame weight `eg`.
    #[inline(always)]
    fn add(&mut self, mg: usize, eg: usize, n: i32) {
        self.add_mg(mg, n);
        self.add_eg(eg, n);
    }

    #[inline(always)]
    fn add_mg(&mut self, i: usize, n: i32) {
        self.mg += self.w[i] * n;
        self.t.add(i, self.s * n as f32);
    }

    #[inline(always)]
    fn add_eg(&mut self, i: usize, n: i32) {
        self.eg += self.w[i] * n;
        self.t.add(i, self.s * n as f32);
    }
}

/// What one side's terms look at: its colour, both sides' men, and the square flip that
/// turns its squares into sente's view.
struct View<'a> {
    pos: &'a Kokesu,
    us: usize,
    them: usize,
    own: u64,
    occ: u64,
    my_pawns: u64,
    their_pawns: u64,
    flip: usize,
}

impl<'a> View<'a> {
    fn new(pos: &'a Kokesu, us: usize) -> Self {
        let them = us ^ 1;
        let (own, opp) = (pos.colors[us], pos.colors[them]);
        let pawns = pos.pieces[PAWN];
        View {
            pos,
            us,
            them,
            own,
            occ: own | opp,
            my_pawns: pawns & own,
            their_pawns: pawns & opp,
            flip: if us == 0 { 0 } else { 56 },
        }
    }
}

/// One side's terms (in its own favour) and the squares it attacks.
#[inline(always)]
fn eval_side<T: Trace>(pos: &Kokesu, us: usize, phase: i32, w: &Weights, t: &mut T) -> (i32, i32, AttackMap) {
    let v = View::new(pos, us);
    let mut score = Score::new(w, t, if us == 0 { 1.0 } else { -1.0 });
    material(&v, &mut score);
    pawns(&v, &mut score);
    let checkers = pieces(&v, &mut score);
    king(&v, phase, &mut score);
    let pawn = pawn_attacks_of(v.my_pawns, us);
    let [knight, bishop, rook, queen] = checkers;
    let pieces = pawn | knight | bishop | rook | queen;
    let all = pieces | KING_ATTACKS[pos.king_square(us)];
    (score.mg, score.eg, AttackMap { pawn, minor: knight | bishop, rook, pieces, all, checkers })
}

/// Material, piece-square tables and the bishop pair.
#[inline(always)]
fn material<T: Trace>(v: &View, score: &mut Score<T>) {
    let p = &v.pos.pieces;
    for (kind, &of_kind) in p.iter().enumerate().take(KING + 1).skip(PAWN) {
        let bb = of_kind & v.own;
        if kind != KING {
            score.add(at::material_mg + kind, at::material_eg + kind, bb.count_ones() as i32);
        }
        for sq in Bits(bb) {
            let i = kind * 64 + (sq ^ v.flip);
            score.add(at::pst_mg_pawn + i, at::pst_eg_pawn + i, 1);
        }
    }
    if (p[BISHOP] & v.own).count_ones() >= 2 {
        score.add(at::bishop_pair_mg, at::bishop_pair_eg, 1);
    }
}

/// Pawn structure and promotion awareness.
#[inline(always)]
fn pawns<T: Trace>(v: &View, score: &mut Score<T>) {
    let (us, them, my_pawns) = (v.us, v.them, v.my_pawns);
    let promo_value = promotion_value(v.pos, us);
    // Scale of a passed pawn's bonus, in 1/16: full when a queen is available.
    let promo_scale = (promo_value.max(240) * 16) / PIECE_VALUE[QUEEN];
    let last_rank = if us == 0 { RANK_8 } else { RANK_1 };
    for file in 0..8 {
        let n = (my_pawns & file_mask(file)).count_ones() as i32;
        if n > 1 {
            score.add(at::doubled_mg, at::doubled_eg, n - 1);
        }
    }
    for sq in Bits(my_pawns) {
        let rank = (sq ^ v.flip) / 8;
        let file = sq % 8;
        if bit(sq) & last_rank != 0 {
            // Stuck for good: a blocker at most.
            score.add(at::stuck_pawn_mg, at::stuck_pawn_eg, 1);
            continue;
        }
        let neighbours =
            (if file > 0 { file_mask(file - 1) } else { 0 }) | (if file < 7 { file_mask(file + 1) } else { 0 });
        if my_pawns & neighbours == 0 {
            score.add(at::isolated_mg, at::isolated_eg, 1);
        } else {
            let level = neighbours & (RANK_1 << (8 * (sq / 8)));
            // Own pawns that defend it stand where an enemy pawn on its square would attack.
            if (pawn_attacks_of(bit(sq), them) | level) & my_pawns != 0 {
                score.add(at::connected_mg + rank, at::connected_eg + rank, 1);
            }
            let stop = if us == 0 { sq + 8 } else { sq - 8 };
            let behind = FRONT_SPAN[them][sq] | level;
            if my_pawns & neighbours & behind == 0 && pawn_attacks_of(v.their_pawns, them) & bit(stop) != 0 {
                score.add(at::backward_mg, at::backward_eg, 1);
            }
        }
        if FRONT_SPAN[us][sq] & v.their_pawns == 0 {
            passed_pawn(v, sq, promo_scale, score);
        }
        if rank == 6 && promo_value > 0 {
            // One step from promoting into something: worth a share of the gain.
            let gain = promo_value - PIECE_VALUE[PAWN];
            score.mg += gain * score.w[at::promo7_mg] / 96;
            score.eg += gain * score.w[at::promo7_eg] / 96;
            score.t.add(at::promo7_mg, score.s * gain as f32 / 96.0);
            score.t.add(at::promo7_eg, score.s * gain as f32 / 96.0);
        }
    }
}

/// A passed pawn on `sq`: by its rank, a third more with a free path, and by the kings'
/// distances to its queening square; all scaled by what it can become (`promo_scale`
/// 16ths).
#[inline(always)]
fn passed_pawn<T: Trace>(v: &View, sq: usize, promo_scale: i32, score: &mut Score<T>) {
    let (w, s) = (score.w, score.s);
    let rank = (sq ^ v.flip) / 8;
    let file = sq % 8;
    let scale = promo_scale as f32 / 16.0;
    let bonus_mg = w[at::passed_mg + rank] * promo_scale / 16;
    let mut bonus_eg = w[at::passed_eg + rank] * promo_scale / 16;
    score.t.add(at::passed_mg + rank, s * scale);
    // Free path: nothing in front on its own file.
    let ahead = FRONT_SPAN[v.us][sq] & file_mask(file);
    if ahead & v.occ == 0 {
        bonus_eg += bonus_eg / 3;
        score.t.add(at::passed_eg + rank, s * scale * 4.0 / 3.0);
    } else {
        score.t.add(at::passed_eg + rank, s * scale);
    }
    // Distance of the kings to the pawn's queening square.
    let qsq = if v.us == 0 { 56 + file } else { file };
    let dd = distance(v.pos.king_square(v.them), qsq) - distance(v.pos.king_square(v.us), qsq);
    bonus_eg += dd * w[at::passed_king_eg] * rank as i32 * promo_scale / 16;
    score.t.add(at::passed_king_eg, s * (dd * rank as i32) as f32 * scale);
    score.mg += bonus_mg;
    score.eg += bonus_eg;
}

/// Knights, bishops, rooks and queens: mobility, attacks on the enemy king's zone,
/// outposts, the bishop's own-colour pawns, rooks on open files and the seventh, and the
/// king attack they add up to. Returns the squares each kind attacks (knight, bishop,
/// rook, queen).
#[inline(always)]
fn pieces<T: Trace>(v: &View, score: &mut Score<T>) -> [u64; 4] {
    let (p, us, occ) = (&v.pos.pieces, v.us, v.occ);
    let my_pawn_attacks = pawn_attacks_of(v.my_pawns, us);
    let area = !v.own & !pawn_attacks_of(v.their_pawns, v.them);
    let their_k = v.pos.king_square(v.them);
    let zone = KING_ATTACKS[their_k] | bit(their_k);
    let mut attack_units = 0;
    let mut attackers = 0;
    let mut checkers = [0u64; 4];
    // (kind, mobility index, base squares, attack units per zone square)
    for (kind, mi, base, units) in [(KNIGHT, 0, 4, 2), (BISHOP, 1, 6, 2), (ROOK, 2, 7, 3), (QUEEN, 3, 14, 5)] {
        for sq in Bits(p[kind] & v.own) {
            let a = match kind {
                KNIGHT => KNIGHT_ATTACKS[sq],
                BISHOP => bishop_attacks(sq, occ),
                ROOK => rook_attacks(sq, occ),
                _ => rook_attacks(sq, occ) | bishop_attacks(sq, occ),
            };
            checkers[mi] |= a;
            let count = (a & area).count_ones() as usize;
            score.add(at::mobility_mg + mi, at::mobility_eg + mi, count as i32 - base);
            let c = MOB_COUNT_START[mi] + count;
            score.add(at::mob_count_mg + c, at::mob_count_eg + c, 1);
            let z = (a & zone).count_ones() as i32;
            if z > 0 {
                attackers += 1;
                attack_units += units * z;
                score.add_mg(at::zone_attack_mg + mi, z);
            }
            let rank = (sq ^ v.flip) / 8;
            if kind == KNIGHT || kind == BISHOP {
                let i = kind - KNIGHT;
                let reach = FRONT_SPAN[us][sq] & !file_mask(sq % 8);
                if (3..=5).contains(&rank) && my_pawn_attacks & bit(sq) != 0 && reach & v.their_pawns == 0 {
                    score.add(at::outpost_mg + i, at::outpost_eg + i, 1);
                }
                if kind == BISHOP {
                    let colour = if bit(sq) & DARK_SQUARES != 0 { DARK_SQUARES } else { !DARK_SQUARES };
                    score.add(at::bishop_pawns_mg, at::bishop_pawns_eg, (v.my_pawns & colour).count_ones() as i32);
                }
            }
            if kind == ROOK {
                if rank == 6 {
                    score.add(at::rook_seventh_mg, at::rook_seventh_eg, 1);
                }
                let f = file_mask(sq % 8);
                if f & v.my_pawns == 0 {
                    if f & v.their_pawns == 0 {
                        score.add(at::rook_open_mg, at::rook_open_eg, 1);
                    } else {
                        score.add(at::rook_semi_mg, at::rook_semi_eg, 1);
                    }
                }
            }
        }
    }
    if attackers >= 2 {
        let (i, shape) = if p[QUEEN] & v.own != 0 {
            (0, (attack_units * attack_units / 2).min(450))
        } else {
            (1, (attack_units * attack_units / 4).min(200))
        };
        score.mg += shape * score.w[at::king_attack_mg + i] / 100;
        score.t.add(at::king_attack_mg + i, score.s * shape as f32 / 100.0);
    }
    checkers
}

/// The own king: its pawn shelter on its first two ranks (middlegame), exposure off
/// them, and its distance to its nearest pawn (endgame).
#[inline(always)]
fn king<T: Trace>(v: &View, phase: i32, score: &mut Score<T>) {
    let (us, my_pawns) = (v.us, v.my_pawns);
    let k = v.pos.king_square(us);
    let kr = (k ^ v.flip) / 8;
    let kf = k % 8;
    if kr <= 1 {
        let one = if us == 0 { bit(k) << 8 } else { bit(k) >> 8 };
        let two = if us == 0 { bit(k) << 16 } else { bit(k) >> 16 };
        let row1 = if one != 0 { RANK_1 << (8 * ((one.trailing_zeros() / 8) as usize)) } else { 0 };
        let row2 = if two != 0 { RANK_1 << (8 * ((two.trailing_zeros() / 8) as usize)) } else { 0 };
        for f in kf.saturating_sub(1)..=(kf + 1).min(7) {
            let fm = file_mask(f);
            if my_pawns & fm & row1 != 0 {
                score.add_mg(at::shelter_mg, 1);
            } else if my_pawns & fm & row2 != 0 {
                score.add_mg(at::shelter_mg + 1, 1);
            }
            if my_pawns & fm == 0 {
                score.add_mg(at::shelter_mg + 2, 1);
                if v.their_pawns & fm == 0 {
                    score.add_mg(at::shelter_mg + 3, 1);
                }
            }
        }
    } else if phase > 12 {
        score.add_mg(at::king_exposed_mg, 1);
    }
    if my_pawns != 0 {
        let d = Bits(my_pawns).map(|sq| distance(k, sq)).min().unwrap_or(0);
        score.add_eg(at::king_pawn_dist_eg, d);
    }
}

/// The squares one side attacks, by kind of attacker.
struct AttackMap {
    pawn: u64,
    minor: u64,
    rook: u64,
    /// Attacked by a piece other than the king.
    pieces: u64,
    all: u64,
    /// By checker (knight, bishop, rook, queen).
    checkers: [u64; 4],
}

/// `us`'s threats against `them`'s pieces (in `us`'s favour): pieces attacked by pawns,
/// by minor pieces and rooks when weakly defended, hanging pieces, safe pawn pushes that
/// attack, weak squares of the king's zone and safe checks.
#[inline(always)]
fn threats<T: Trace>(pos: &Kokesu, us: usize, a: &[AttackMap; 2], w: &Weights, t: &mut T) -> (i32, i32) {
    let mut score = Score::new(w, t, if us == 0 { 1.0 } else { -1.0 });
    let them = us ^ 1;
    let p = &pos.pieces;
    let theirs = pos.colors[them] & !p[KING];
    let n = (a[us].pawn & theirs & !p[PAWN]).count_ones() as i32;
    score.add(at::threat_pawn_mg, at::threat_pawn_eg, n);
    // Targets worth a threat: not defended by a pawn, or a rook or queen.
    let weak = theirs & (!a[them].pawn | p[ROOK] | p[QUEEN]);
    for (kind, &of_kind) in p.iter().enumerate().take(QUEEN + 1).skip(PAWN) {
        let victims = weak & of_kind;
        let n = (victims & a[us].minor).count_ones() as i32;
        score.add(at::threat_minor_mg + kind, at::threat_minor_eg + kind, n);
        let rook_victims = if kind == QUEEN { victims } else { victims & !a[them].all };
        let n = (rook_victims & a[us].rook).count_ones() as i32;
        score.add(at::threat_rook_mg + kind, at::threat_rook_eg + kind, n);
    }
    let n = (theirs & a[us].all & !a[them].all).count_ones() as i32;
    score.add(at::hanging_mg, at::hanging_eg, n);
    // Pawn pushes to squares no enemy pawn attacks and that we defend or they do not
    // attack, attacking pieces.
    let occ = pos.colors[0] | pos.colors[1];
    let my_pawns = p[PAWN] & pos.colors[us];
    let pushed = if us == 0 { my_pawns << 8 } else { my_pawns >> 8 };
    let safe_push = pushed & !occ & !a[them].pawn & (a[us].all | !a[them].all);
    let n = (pawn_attacks_of(safe_push, us) & theirs & !p[PAWN]).count_ones() as i32;
    score.add(at::push_threat_mg, at::push_threat_eg, n);
    // Weak squares of their king's zone, and safe checks against it.
    let ksq = pos.king_square(them);
    score.add_mg(at::weak_zone_mg, (KING_ATTACKS[ksq] & a[us].all & !a[them].pieces).count_ones() as i32);
    let safe = !occ & !a[them].all;
    let (rook_lines, bishop_lines) = (rook_attacks(ksq, occ), bishop_attacks(ksq, occ));
    let from = [KNIGHT_ATTACKS[ksq], bishop_lines, rook_lines, rook_lines | bishop_lines];
    for (i, lines) in from.iter().enumerate() {
        score.add_mg(at::safe_check_mg + i, (lines & a[us].checkers[i] & safe).count_ones() as i32);
    }
    (score.mg, score.eg)
}

/// What `mv` takes plus what its promotion adds, at the fixed piece values.
pub fn material_gain(pos: &Kokesu, mv: KMove) -> i32 {
    capture_gain(pos, mv.to(), mv.promo(), &PIECE_VALUE)
}

/// What a move to `to` (promoting to `promo`, 0 for none) takes plus what the promotion
/// adds, at the piece values `value`.
fn capture_gain(pos: &Kokesu, to: usize, promo: usize, value: &[i32; 6]) -> i32 {
    let victim = pos.board[to];
    let taken = if victim == EMPTY { 0 } else { value[victim as usize % 6] };
    let promoted = if promo != 0 { value[promo] - value[PAWN] } else { 0 };
    taken + promoted
}

/// The largest evaluation either way (far from the search's mate scores).
pub const MAX_EVAL: i32 = 15000;

/// The evaluation from the side to move's view, in centipawns.
pub fn evaluate(pos: &Kokesu) -> i32 {
    evaluate_with(pos, weights(), &mut NoTrace)
}

/// The game phase: 24 with all pieces on the board, 0 with pawns and kings only.
pub fn phase(pos: &Kokesu) -> i32 {
    let kinds = KNIGHT..=QUEEN;
    let phase: i32 =
        PHASE_WEIGHT[kinds.clone()].iter().zip(&pos.pieces[kinds]).map(|(w, b)| w * b.count_ones() as i32).sum();
    phase.min(PHASE_TOTAL)
}

/// The share of the middlegame weights in the taper (phase / total), for the tuner.
pub fn mg_share(pos: &Kokesu) -> f32 {
    phase(pos) as f32 / PHASE_TOTAL as f32
}

/// The evaluation with weights `w`, reporting each weight's coefficient to `t`.
#[inline(always)]
pub fn evaluate_with<T: Trace>(pos: &Kokesu, w: &Weights, t: &mut T) -> i32 {
    let phase = phase(pos);
    let (white_mg, white_eg, white) = eval_side(pos, 0, phase, w, t);
    let (black_mg, black_eg, black) = eval_side(pos, 1, phase, w, t);
    let mut mg = white_mg - black_mg;
    let mut eg = white_eg - black_eg;
    let maps = [white, black];
    for (us, sign) in [(0, 1), (1, -1)] {
        let (m, e) = threats(pos, us, &maps, w, t);
        mg += sign * m;
        eg += sign * e;
    }

    eg += mop_up(pos, w, t);

    // What the favoured side can still win with scales the endgame score.
    let scale = eg_scale(pos, eg);
    t.scale_eg(scale as f32 / 64.0);
    let eg = eg * scale / 64;
    let score = (mg * phase + eg * (PHASE_TOTAL - phase)) / PHASE_TOTAL;
    // The tempo is the mover's: in sente's view before the sign turns it round.
    t.add(at::tempo, if pos.side == 0 { 1.0 } else { -1.0 });
    let score = if pos.side == 0 { score } else { -score } + w[at::tempo];
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

/// Mop-up, in sente's view (endgame): a side far ahead while the other has no pawns
/// drives that king to the edge and brings its own king near.
fn mop_up<T: Trace>(pos: &Kokesu, w: &Weights, t: &mut T) -> i32 {
    let mut eg = 0;
    for (strong, weak, sign) in [(0usize, 1usize, 1i32), (1, 0, -1)] {
        if pos.pieces[PAWN] & pos.colors[weak] != 0 {
            continue;
        }
        if non_pawn_material(pos, strong) - non_pawn_material(pos, weak) >= PIECE_VALUE[ROOK] {
            let wk = pos.king_square(weak);
            let sk = pos.king_square(strong);
            let kd = ((wk % 8) as i32 - (sk % 8) as i32).abs() + ((wk / 8) as i32 - (sk / 8) as i32).abs();
            let (a, b) = (center_manhattan(wk), 14 - kd);
            eg += sign * (w[at::mopup_eg] * a + w[at::mopup_eg + 1] * b);
            t.add(at::mopup_eg, (sign * a) as f32);
            t.add(at::mopup_eg + 1, (sign * b) as f32);
        }
    }
    eg
}

/// How much of the endgame score `eg` (sente's view) the side it favours can turn into a
/// win, in 64ths.
/// Without a pawn and at most a minor piece ahead, a side cannot force mate with less
/// than a rook (king and minor piece against king: nothing), and hardly with more (a rook
/// against a minor piece, or a rook and a minor piece against a rook): these are
/// Stockfish's scale factors for such endings, which no linear weight can express.
pub fn eg_scale(pos: &Kokesu, eg: i32) -> i32 {
    let strong = if eg > 0 { 0 } else { 1 };
    let p = &pos.pieces;
    if p[PAWN] & pos.colors[strong] != 0 {
        return 64;
    }
    let (ours, theirs) = (non_pawn_material(pos, strong), non_pawn_material(pos, strong ^ 1));
    if ours - theirs <= PIECE_VALUE[BISHOP] {
        return if ours < PIECE_VALUE[ROOK] {
            0
        } else if theirs <= PIECE_VALUE[BISHOP] {
            4
        } else {
            14
        };
    }
    64
}

/// `c`'s pieces other than pawns and king, at the fixed piece values (the mop-up's and
/// the endgame scale's material test).
fn non_pawn_material(pos: &Kokesu, c: usize) -> i32 {
    (KNIGHT..=QUEEN).map(|k| PIECE_VALUE[k] * (pos.pieces[k] & pos.colors[c]).count_ones() as i32).sum()
}

/// Piece values for exchanges (the king: more than everything else together).
const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Static exchange evaluation of the capture `mv` on its target square: what the mover
/// wins (negative: loses) if both sides keep recapturing with their least valuable
/// piece while that pays, pieces behind a slider joining in as it leaves. Promotions
/// during the exchange are not counted.
///
/// The exchange is cut off once its sign is settled: use the sign, not the size.
pub fn see(pos: &Kokesu, from: usize, to: usize, promo: usize) -> i32 {
    let first = capture_gain(pos, to, promo, &SEE_VALUE);
    let mover = if promo != 0 { promo } else { pos.board[from] as usize % 6 };
    let mut occ = (pos.colors[0] | pos.colors[1]) & !bit(from);
    let mut side = pos.side;
    swap_off(first, SEE_VALUE[mover], || {
        side ^= 1;
        let attackers = pos.attackers(to, side, occ) & occ;
        let kind = (PAWN..=KING).find(|&k| attackers & pos.pieces[k] != 0)?;
        if kind == KING && pos.attackers(to, side ^ 1, occ) & occ != 0 {
            // The king may not capture onto a defended square.
            return None;
        }
        occ &= !bit((attackers & pos.pieces[kind]).trailing_zeros() as usize);
        Some(SEE_VALUE[kind])
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, Strategy};
    use crate::games::kokesu::KokesuRules;
    use crate::tune::testing;

    /// The default rules with the classic evaluation (the default scores by the net).
    fn classic() -> KokesuRules {
        let mut rules = KokesuRules::default();
        Kokesu::set_rule(&mut rules, "KokesuEval", "classic").unwrap();
        rules
    }

    fn eval(sfen: &str) -> i32 {
        match Kokesu::from_sfen(sfen, &classic()) {
            Ok(p) => p.evaluate(),
            Err(e) => panic!("{sfen}: {e}"),
        }
    }

    testing::weights_tests! {
        game: Kokesu,
        dir: "kokesu",
        mirror: |sfen| testing::mirrored_sfen(sfen, false),
        min_positions: 20_000,
        coverage: |positions, _| {
            let endings = positions.iter().filter(|pos| phase(pos) < 8).count();
            assert!(endings > 1000, "{endings}");
        },
    }

    /// Positions reached by random play from the perft suite's positions, under both
    /// promotion rules: a deterministic sample of openings, middlegames and endings.
    fn sample_positions() -> Vec<(KokesuRules, Kokesu)> {
        let suite = include_str!("../../../fixtures/perft/kokesu.perft");
        let rules = ["captured", "free"].map(|promotion| {
            let mut rules = KokesuRules::default();
            Kokesu::set_rule(&mut rules, "KokesuPromotion", promotion).unwrap();
            (rules, 40)
        });
        testing::sample(suite, &rules, 160, |_| true)
    }

    /// The trace's linear form gives the evaluation, up to the rounding of the integer
    /// evaluation, for the weights in use: the taper's division, and per passed pawn the
    /// divisions of its 16ths scale, its free-path third and its king-distance term (five
    /// passed pawns against a bare king came to 6.2 cp).
    #[test]
    fn traced_linear_form_matches_the_evaluation() {
        let positions: Vec<Kokesu> = sample_positions().into_iter().map(|x| x.1).step_by(7).collect();
        testing::check_linear_form(
            &positions,
            PARAMS,
            weights(),
            |g, f| evaluate_with(g, weights(), f),
            mg_share,
            10.0,
        );
    }

    /// The sum of the coefficients the evaluation reports for weight `i` (sente's view).
    fn coefficient(sfen: &str, i: usize) -> f32 {
        let pos = Kokesu::from_sfen(sfen, &classic()).unwrap();
        let mut f = crate::tune::Features::default();
        evaluate_with(&pos, weights(), &mut f);
        f.raw.iter().filter(|x| x.0 as usize == i).map(|x| x.1).sum()
    }

    #[test]
    fn outposts_and_connected_pawns_are_seen() {
        // Knight d5 defended by e4, no black pawn on the c or e file; e4 defended by f3.
        let sfen = "4k3/pp3ppp/8/3N4/4P3/5P2/8/4K3 b - 1";
        assert_eq!(coefficient(sfen, at::outpost_mg), 1.0);
        assert_eq!(coefficient(sfen, at::connected_mg + 3), 1.0);
        assert_eq!(coefficient(sfen, at::backward_mg), 0.0);
        // A black pawn on c7 could attack d5 from c6: no outpost. One on c5 never can.
        assert_eq!(coefficient("4k3/ppp2ppp/8/3N4/4P3/5P2/8/4K3 b - 1", at::outpost_mg), 0.0);
        assert_eq!(coefficient("4k3/pp3ppp/8/2pN4/4P3/5P2/8/4K3 b - 1", at::outpost_mg), 1.0);
    }

    #[test]
    fn backward_pawns_are_seen() {
        // c3 trails b4 and d4, and b5 attacks c4; c3 defends both of them.
        let sfen = "4k3/8/8/1p6/1P1P4/2P5/8/4K3 b - 1";
        assert_eq!(coefficient(sfen, at::backward_mg), 1.0);
        assert_eq!(coefficient(sfen, at::connected_mg + 3), 2.0);
        // The same for black, mirrored: the trace is in sente's view.
        assert_eq!(coefficient("4k3/8/2p5/1p1p4/1P6/8/8/4K3 w - 1", at::backward_mg), -1.0);
    }

    #[test]
    fn start_is_balanced_and_symmetric() {
        let e = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1");
        assert!(e.abs() <= 30, "{e}");
        // Mirror positions give the same score for the side to move.
        let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b - 3");
        let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w - 3");
        assert_eq!(a, b);
    }

    #[test]
    fn material_counts() {
        // Sente a queen up.
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1") > 700);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - 1") < -700);
    }

    #[test]
    fn pawnless_endings_a_side_cannot_win_are_scaled_down() {
        let pos = |sfen: &str| Kokesu::from_sfen(sfen, &classic()).unwrap();
        // King and minor piece against king: nothing to win with. A rook against a minor
        // piece, or a rook and a minor piece against a rook: hardly anything.
        assert_eq!(eg_scale(&pos("8/8/4k3/8/8/2N5/8/4K3 b - 1"), 1), 0);
        assert_eq!(eg_scale(&pos("8/8/4k3/3n4/8/8/8/R3K3 b - 1"), 1), 4);
        assert_eq!(eg_scale(&pos("8/8/4k3/3r4/8/8/8/RN2K3 b - 1"), 1), 14);
        // With a pawn, or a rook against a bare king, or a queen against a rook: in full.
        assert_eq!(eg_scale(&pos("8/8/4k3/8/8/2N5/4P3/4K3 b - 1"), 1), 64);
        assert_eq!(eg_scale(&pos("8/8/4k3/8/8/8/8/R3K3 b - 1"), 1), 64);
        assert_eq!(eg_scale(&pos("8/8/4k3/3r4/8/8/8/Q3K3 b - 1"), 1), 64);
        // (The second argument is the endgame score's sign: 1 favours sente.) Black's
        // pawns against a bishop, the score in black's favour: in full.
        assert_eq!(eg_scale(&pos("8/3pp3/4k3/8/8/2B5/8/4K3 b - 1"), -1), 64);
        // In the evaluation (sente to move): what is left is the middlegame share of the
        // taper.
        assert!(eval("8/8/4k3/8/8/2B5/8/4K3 w - 1").abs() < 60);
        assert!(eval("8/8/4k3/3n4/8/8/8/R3K3 w - 1").abs() < 60);
        assert!(eval("8/8/4k3/8/8/8/8/R3K3 b - 1") > 300);
        assert!(eval("8/8/4k3/3r4/8/8/8/Q3K3 b - 1") > 250);
    }

    #[test]
    fn promotion_awareness() {
        // A pawn on the 7th is worth much more when a queen can be had.
        let with_choice = eval("6k1/P7/8/8/8/8/8/RNB1KBNR b - 1") - eval("6k1/8/8/8/8/8/P7/RNB1KBNR b - 1");
        let without = eval("6k1/P7/8/8/8/8/8/RNBQKBNR b - 1") - eval("6k1/8/8/8/8/8/P7/RNBQKBNR b - 1");
        assert!(with_choice > without + 80, "{with_choice} vs {without}");
    }
}
