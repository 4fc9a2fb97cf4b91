//! A deliberately simple second implementation of Kani Nari Ebi (rules.md §5), written
//! from the rules text with plain arrays, to check the engine against.
//!
//! Board: `b[row][col]`, row 0 = rank a, col 0 = file 5 (the leftmost, as SFEN reads).
//! Cells: 0 empty, 1 black crab, 2 black shrimp, -1 red crab, -2 red shrimp.

#![allow(dead_code)]

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub b: [[i8; 5]; 5],
    pub black_to_move: bool,
    pub ply: u32,
}

pub fn startpos() -> Pos {
    parse("C3c/C3c/C3c/C3c/C3c b - 1").unwrap()
}

pub fn parse(sfen: &str) -> Option<Pos> {
    let f: Vec<&str> = sfen.split(' ').collect();
    let rows: Vec<&str> = f[0].split('/').collect();
    let mut b = [[0i8; 5]; 5];
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0;
        let mut plus = false;
        for ch in row.chars() {
            if ch == '+' {
                plus = true;
            } else if ch.is_ascii_digit() {
                c += ch as usize - '0' as usize;
            } else {
                let v = if plus { 2 } else { 1 };
                b[r][c] = if ch == 'C' { v } else { -v };
                c += 1;
                plus = false;
            }
        }
    }
    Some(Pos { b, black_to_move: f[1] == "b", ply: f.get(3).map(|p| p.parse().unwrap()).unwrap_or(1) })
}

pub fn sfen(p: &Pos) -> String {
    let mut s = String::new();
    for r in 0..5 {
        if r > 0 {
            s += "/";
        }
        let mut e = 0;
        for c in 0..5 {
            let v = p.b[r][c];
            if v == 0 {
                e += 1;
                continue;
            }
            if e > 0 {
                s += &e.to_string();
                e = 0;
            }
            if v.abs() == 2 {
                s += "+";
            }
            s += if v > 0 { "C" } else { "c" };
        }
        if e > 0 {
            s += &e.to_string();
        }
    }
    s += if p.black_to_move { " b - " } else { " w - " };
    s += &p.ply.to_string();
    s
}

fn sq_name(r: usize, c: usize) -> String {
    format!("{}{}", 5 - c, (b'a' + r as u8) as char)
}

fn count(b: &[[i8; 5]; 5], me: i8) -> usize {
    b.iter().flatten().filter(|&&v| v * me > 0).count()
}

fn shrimps(b: &[[i8; 5]; 5], me: i8) -> usize {
    b.iter().flatten().filter(|&&v| v == 2 * me).count()
}

/// Whether side `me` (1 black, -1 red) has met a win condition on this board.
fn has_won(b: &[[i8; 5]; 5], me: i8) -> bool {
    shrimps(b, me) >= 3 || 5 - count(b, -me) >= 3
}

/// Game over by a rule (not counting "no move").
pub fn game_over(p: &Pos) -> bool {
    has_won(&p.b, 1) || has_won(&p.b, -1)
}

fn inside(r: i32, c: i32) -> bool {
    (0..5).contains(&r) && (0..5).contains(&c)
}

/// Final squares after landing at (r, c) with the piece lifted off the board.
fn current(b: &[[i8; 5]; 5], r: usize, c: usize) -> Vec<(usize, usize)> {
    if c != 2 {
        return vec![(r, c)];
    }
    let mut up = r;
    while up > 0 && b[up - 1][2] == 0 {
        up -= 1;
    }
    let mut down = r;
    while down < 4 && b[down + 1][2] == 0 {
        down += 1;
    }
    vec![(up, 2), (down, 2)]
}

fn captures(b: &mut [[i8; 5]; 5], r: usize, c: usize, me: i8) {
    let mut gone = vec![];
    for (dr, dc) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
        let mut run = vec![];
        let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
        while inside(rr, cc) && b[rr as usize][cc as usize] * me < 0 {
            run.push((rr as usize, cc as usize));
            rr += dr;
            cc += dc;
        }
        if !run.is_empty() && inside(rr, cc) && b[rr as usize][cc as usize] * me > 0 {
            gone.extend(run);
        }
    }
    for (rr, cc) in gone {
        b[rr][cc] = 0;
    }
}

/// (token part, board after) for every way piece at (r, c) can move, diagonal only or
/// by its own kind.
fn part_moves(b: &[[i8; 5]; 5], r: usize, c: usize, me: i8, bond: bool) -> Vec<(String, [[i8; 5]; 5], usize, usize)> {
    let piece = b[r][c];
    let mut lifted = *b;
    lifted[r][c] = 0;
    let mut landings = vec![];
    if bond || piece.abs() == 2 {
        for (dr, dc) in [(1i32, 1i32), (1, -1), (-1, 1), (-1, -1)] {
            let (rr, cc) = (r as i32 + dr, c as i32 + dc);
            if inside(rr, cc) && lifted[rr as usize][cc as usize] == 0 {
                landings.push((rr as usize, cc as usize));
            }
        }
    } else {
        for dc in [1i32, -1] {
            let mut cc = c as i32 + dc;
            while inside(r as i32, cc) && lifted[r][cc as usize] == 0 {
                landings.push((r, cc as usize));
                cc += dc;
            }
        }
    }
    let enemy_home = if me > 0 { 4 } else { 0 };
    let mut out = vec![];
    for (lr, lc) in landings {
        for (fr, fc) in current(&lifted, lr, lc) {
            let mut proms = vec![false];
            if piece.abs() == 1 && fc == enemy_home {
                proms.push(true);
            }
            for pr in proms {
                let mut nb = lifted;
                nb[fr][fc] = if pr { 2 * me } else { piece };
                captures(&mut nb, fr, fc, me);
                let tok = format!("{}{}{}", sq_name(r, c), sq_name(fr, fc), if pr { "+" } else { "" });
                out.push((tok, nb, fr, fc));
            }
        }
    }
    out
}

/// Every whole turn: token -> successor. Panics if one token gives two successors.
pub fn turns(p: &Pos, any_bond: bool) -> BTreeMap<String, Pos> {
    let mut map = BTreeMap::new();
    if game_over(p) {
        return map;
    }
    let me: i8 = if p.black_to_move { 1 } else { -1 };
    let add = |map: &mut BTreeMap<String, Pos>, tok: String, b: [[i8; 5]; 5]| {
        let next = Pos { b, black_to_move: !p.black_to_move, ply: p.ply + 1 };
        if let Some(old) = map.insert(tok.clone(), next.clone()) {
            assert_eq!(old, next, "token {tok} gives two positions");
        }
    };
    for r in 0..5 {
        for c in 0..5 {
            if p.b[r][c] * me <= 0 {
                continue;
            }
            for (tok, nb, fr, fc) in part_moves(&p.b, r, c, me, false) {
                add(&mut map, tok.clone(), nb);
                if has_won(&nb, me) {
                    continue;
                }
                // the moved piece's group
                let kind = nb[fr][fc];
                let same = |v: i8| if any_bond { v * me > 0 } else { v == kind };
                let mut group = vec![(fr, fc)];
                let mut i = 0;
                while i < group.len() {
                    let (gr, gc) = group[i];
                    for (dr, dc) in [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)] {
                        let (rr, cc) = (gr as i32 + dr, gc as i32 + dc);
                        if inside(rr, cc)
                            && same(nb[rr as usize][cc as usize])
                            && !group.contains(&(rr as usize, cc as usize))
                        {
                            group.push((rr as usize, cc as usize));
                        }
                    }
                    i += 1;
                }
                if group.len() < 2 {
                    continue;
                }
                for (gr, gc) in group {
                    for (tok2, nb2, _, _) in part_moves(&nb, gr, gc, me, true) {
                        add(&mut map, format!("{tok},{tok2}"), nb2);
                    }
                }
            }
        }
    }
    map
}

pub fn perft(p: &Pos, depth: u32, any_bond: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let t = turns(p, any_bond);
    if depth == 1 {
        return t.len() as u64;
    }
    t.values().map(|n| perft(n, depth - 1, any_bond)).sum()
}
