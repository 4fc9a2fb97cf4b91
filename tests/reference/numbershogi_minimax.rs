//! A deliberately plain second solver to check `koma::search::solve` against: a depth-limited
//! negamax over Number Shogi with no table of any kind. The end of the game is judged
//! by the referee's own rule, `koma::game::referee::judge`, on the path from the root (so
//! the fourth occurrence of a position on the path is a draw, exactly as in a game).
//! Alpha-beta cut-offs are the only economy: they never change the root's value.
//!
//! Scores are from the side to move's view: `MATE - d` for a win in `d` plies,
//! `-(MATE - d)` for a loss in `d`, 0 for a draw by repetition or for the horizon
//! (undecided).

#![allow(dead_code)]

use koma::game::referee::judge;
use koma::game::{Game, Outcome};
use koma::games::numbershogi::NumberShogi;

pub const MATE: i32 = 1000;

/// What the reference can say of a position within `depth` plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefValue {
    /// Win in exactly this many plies (the fastest).
    Win(u32),
    /// Loss in exactly this many plies (the slowest).
    Loss(u32),
    /// Neither side forces a result within the depth (a draw or a longer result).
    Undecided,
}

/// The value of `pos` as the root of a game, searched `depth` plies.
pub fn value(pos: &NumberShogi, depth: u32) -> (RefValue, u64) {
    let mut path = vec![(pos.key(), pos.in_check())];
    let mut nodes = 0;
    let s = negamax(pos, &mut path, 0, depth, -MATE - 1, MATE + 1, &mut nodes);
    let v = if s > 0 {
        RefValue::Win((MATE - s) as u32)
    } else if s < 0 {
        RefValue::Loss((MATE + s) as u32)
    } else {
        RefValue::Undecided
    };
    (v, nodes)
}

fn negamax(
    pos: &NumberShogi,
    path: &mut Vec<(u64, bool)>,
    ply: u32,
    depth: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if let Some(o) = judge(pos, path).map(|v| v.outcome) {
        return match o {
            Outcome::Win => MATE - ply as i32,
            Outcome::Loss => -(MATE - ply as i32),
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Captures first, only to make the cut-offs come sooner.
    moves.sort_by_key(|&m| !pos.is_capture(m));
    let mut best = -MATE - 1;
    for m in moves {
        let mut c = pos.clone();
        c.play(m);
        path.push((c.key(), c.in_check()));
        let s = -negamax(&c, path, ply + 1, depth - 1, -beta, -alpha, nodes);
        path.pop();
        if s > best {
            best = s;
        }
        if s > alpha {
            alpha = s;
        }
        if alpha >= beta {
            break;
        }
    }
    best
}
