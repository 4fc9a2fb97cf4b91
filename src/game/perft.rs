//! Perft: counting the leaves of the legal-move tree, generic over a [`Game`].
//!
//! Positions where the game is over have no children (their move list is empty);
//! repetition never cuts the tree. Move lists are reused per depth, so the walk
//! allocates only while the buffers first grow.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that gives up (with a partial count) as soon as `stop` is set.
pub fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    walk(pos, depth, &mut buffers, stop)
}

fn walk<G: Game>(pos: &G, depth: u32, buffers: &mut [Vec<G::Move>], stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth > 1 && stop.load(Ordering::Relaxed) {
        return 0;
    }
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    list.clear();
    pos.legal_moves(list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        nodes += walk(&child, depth - 1, rest, stop);
    }
    nodes
}

/// Perft split by root move: one `(token, leaves)` pair per legal move, sorted by token.
/// It ends as soon as `stop` is set, with the root moves counted in full so far; the
/// second value is the number of root moves.
pub fn divide_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> (Vec<(String, u64)>, usize) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let mut child = pos.clone();
        child.play(mv);
        let n = perft_until(&child, depth.saturating_sub(1), stop);
        if stop.load(Ordering::Relaxed) {
            break;
        }
        out.push((pos.format_move(mv), n));
    }
    out.sort();
    (out, moves.len())
}

/// One position of a perft suite file (`fixtures/perft/<variant>.perft`).
///
/// The format, shakmaty-style, one record per blank-line-separated block:
/// ```text
/// # comments anywhere
/// id promotion-with-free-switch
/// sfen <sfen>
/// option KokesuPromotion=free      (zero or more rules switches)
/// perft 1 20
/// perft 2 400
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PerftCase {
    pub id: String,
    pub sfen: String,
    pub options: Vec<(String, String)>,
    pub expected: Vec<(u32, u64)>,
}

/// Reads a perft suite. Errors name the line.
pub fn parse_suite(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases = Vec::new();
    let mut cur = PerftCase::default();
    let flush = |cur: &mut PerftCase, cases: &mut Vec<PerftCase>| -> Result<(), String> {
        if *cur != PerftCase::default() {
            if cur.sfen.is_empty() || cur.expected.is_empty() {
                return Err(format!("case '{}' needs a sfen line and a perft line", cur.id));
            }
            cases.push(std::mem::take(cur));
        }
        Ok(())
    };
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            flush(&mut cur, &mut cases)?;
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "id" => cur.id = rest.to_string(),
            "sfen" => cur.sfen = rest.to_string(),
            "option" => {
                let (k, v) = rest.split_once('=').ok_or(format!("line {}: option needs NAME=VALUE", n + 1))?;
                cur.options.push((k.trim().to_string(), v.trim().to_string()));
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let d = it.next().and_then(|s| s.parse().ok());
                let c = it.next().and_then(|s| s.parse().ok());
                match (d, c) {
                    (Some(d), Some(c)) => cur.expected.push((d, c)),
                    _ => return Err(format!("line {}: perft needs DEPTH NODES", n + 1)),
                }
            }
            _ => return Err(format!("line {}: unknown key '{key}'", n + 1)),
        }
    }
    flush(&mut cur, &mut cases)?;
    Ok(cases)
}

/// Runs every case of a suite on game `G`, up to `max_nodes` expected leaves per line
/// (bigger lines are skipped). Returns one message per mismatch.
pub fn run_suite<G: Game>(text: &str, max_nodes: u64) -> Result<usize, Vec<String>> {
    let cases = parse_suite(text).map_err(|e| vec![e])?;
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &cases {
        let mut rules = G::Rules::default();
        let mut bad = false;
        for (k, v) in &case.options {
            if let Err(e) = G::set_rule(&mut rules, k, v) {
                failures.push(format!("{}: {e}", case.id));
                bad = true;
            }
        }
        if bad {
            continue;
        }
        let pos = match G::from_sfen(&case.sfen, &rules) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: {e}", case.id));
                continue;
            }
        };
        for &(depth, want) in &case.expected {
            if want > max_nodes {
                continue;
            }
            let got = perft(&pos, depth);
            checked += 1;
            if got != want {
                failures.push(format!("{}: perft {depth} = {got}, expected {want}", case.id));
            }
        }
    }
    if failures.is_empty() {
        Ok(checked)
    } else {
        Err(failures)
    }
}
