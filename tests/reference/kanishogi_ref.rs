//! A deliberately simple second implementation of Kani Shogi (rules.md §4), written from
//! the rules text with plain arrays, to check the engine against.
//!
//! Board: `b[row][col]`, row 0 = rank a, col 0 = file 5 (the leftmost, as SFEN reads).
//! Cells: 0 empty; black positive, red negative; magnitude 9 = parent, 1..4 = child
//! with that pip, 11..14 = grown child (pip + 10).

#![allow(dead_code)]

use std::collections::BTreeMap;

pub type Board = [[i8; 5]; 5];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    pub b: Board,
    pub black_to_move: bool,
    pub ply: u32,
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
                let up = ch.to_ascii_uppercase();
                let mut v = if up == 'K' { 9 } else { (up as u8 - b'A' + 1) as i8 };
                if plus {
                    v += 10;
                }
                b[r][c] = if ch.is_ascii_uppercase() { v } else { -v };
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
            let m = v.abs();
            if m > 10 {
                s += "+";
            }
            let l = if m == 9 { 'K' } else { (b'A' + (m % 10) as u8 - 1) as char };
            s.push(if v > 0 { l } else { l.to_ascii_lowercase() });
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

fn inside(r: i32, c: i32) -> bool {
    (0..5).contains(&r) && (0..5).contains(&c)
}

/// Pips of side `s`'s children still on the board.
fn pips_left(b: &Board, s: i8) -> Vec<i8> {
    let mut v: Vec<i8> = b.iter().flatten().filter(|&&x| x * s > 0 && x.abs() != 9).map(|&x| x.abs() % 10).collect();
    v.sort();
    v
}

fn lost_pips(b: &Board, s: i8) -> Vec<i8> {
    let left = pips_left(b, s);
    (1..=4).filter(|p| !left.contains(p)).collect()
}

fn has_parent(b: &Board, s: i8) -> bool {
    b.iter().flatten().any(|&x| x == 9 * s)
}

/// The winner (1 black, -1 red) if the board ends the game; `me` is the side to move.
pub fn winner(b: &Board, me: i8) -> Option<i8> {
    if !has_parent(b, me) {
        return Some(-me);
    }
    if !has_parent(b, -me) {
        return Some(me);
    }
    let mine = lost_pips(b, me);
    let theirs = lost_pips(b, -me);
    if mine.len() >= 3 {
        return Some(-me);
    }
    if theirs.len() >= 3 {
        return Some(me);
    }
    if mine.len() == 2 && theirs.len() == 2 {
        let sm: i8 = mine.iter().sum();
        let st: i8 = theirs.iter().sum();
        if st > sm {
            return Some(me);
        }
        if sm > st {
            return Some(-me);
        }
        let bm = *mine.iter().max().unwrap();
        let bt = *theirs.iter().max().unwrap();
        if bt > bm {
            return Some(me);
        }
        if bm > bt {
            return Some(-me);
        }
    }
    None
}

pub fn game_over(p: &Pos) -> bool {
    winner(&p.b, if p.black_to_move { 1 } else { -1 }).is_some()
}

/// Final squares after landing at (r, c) with the piece `v` lifted off the board.
fn river(b: &Board, r: usize, c: usize, v: i8) -> Vec<(usize, usize)> {
    if c != 2 {
        return vec![(r, c)];
    }
    if v.abs() == 9 {
        let mut out = vec![(r, c)];
        let mut rr = r;
        while rr > 0 && b[rr - 1][2] == 0 {
            rr -= 1;
            out.push((rr, 2));
        }
        let mut rr = r;
        while rr < 4 && b[rr + 1][2] == 0 {
            rr += 1;
            out.push((rr, 2));
        }
        return out;
    }
    let mut out = vec![];
    if r > 0 && b[r - 1][2] == 0 {
        let mut rr = r;
        while rr > 0 && b[rr - 1][2] == 0 {
            rr -= 1;
        }
        out.push((rr, 2));
    }
    if r < 4 && b[r + 1][2] == 0 {
        let mut rr = r;
        while rr < 4 && b[rr + 1][2] == 0 {
            rr += 1;
        }
        out.push((rr, 2));
    }
    if out.is_empty() {
        out.push((r, c));
    }
    out
}

const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

fn captures(b: &mut Board, r: usize, c: usize, me: i8) {
    let mut gone: Vec<(usize, usize)> = vec![];
    for (dr, dc) in ORTH {
        // sandwich
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
        // wall: the enemy group next to the moved piece in this direction
        let (nr, nc) = (r as i32 + dr, c as i32 + dc);
        if !inside(nr, nc) || b[nr as usize][nc as usize] * me >= 0 {
            continue;
        }
        let mut grp = vec![(nr as usize, nc as usize)];
        let mut i = 0;
        while i < grp.len() {
            let (gr, gc) = grp[i];
            for (er, ec) in ORTH {
                let (xr, xc) = (gr as i32 + er, gc as i32 + ec);
                if inside(xr, xc) && b[xr as usize][xc as usize] * me < 0 && !grp.contains(&(xr as usize, xc as usize))
                {
                    grp.push((xr as usize, xc as usize));
                }
            }
            i += 1;
        }
        let edge = grp.iter().any(|&(gr, gc)| gr == 0 || gr == 4 || gc == 0 || gc == 4);
        let mut closed = true;
        for &(gr, gc) in &grp {
            for (er, ec) in ORTH {
                let (xr, xc) = (gr as i32 + er, gc as i32 + ec);
                if inside(xr, xc) && !grp.contains(&(xr as usize, xc as usize)) && b[xr as usize][xc as usize] * me <= 0
                {
                    closed = false;
                }
            }
        }
        if edge && closed {
            gone.extend(grp);
        }
    }
    for (rr, cc) in gone {
        b[rr][cc] = 0;
    }
}

fn part_moves(
    b: &Board,
    r: usize,
    c: usize,
    me: i8,
    bond: bool,
    diagonal_only: bool,
) -> Vec<(String, Board, usize, usize)> {
    let v = b[r][c];
    let grown = v.abs() > 10;
    let mut lifted = *b;
    lifted[r][c] = 0;
    let mut landings = vec![];
    let diag = bond || grown;
    let sideways_ok = !(bond || (grown && diagonal_only));
    if diag {
        for (dr, dc) in [(1i32, 1i32), (1, -1), (-1, 1), (-1, -1)] {
            let (rr, cc) = (r as i32 + dr, c as i32 + dc);
            if inside(rr, cc) && lifted[rr as usize][cc as usize] == 0 {
                landings.push((rr as usize, cc as usize));
            }
        }
    }
    if sideways_ok {
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
    let mut seen = vec![];
    for (lr, lc) in landings {
        for (fr, fc) in river(&lifted, lr, lc, v) {
            let mut grows = vec![false];
            if v.abs() <= 4 && fc == enemy_home {
                grows.push(true);
            }
            for g in grows {
                let tok = format!("{}{}{}", sq_name(r, c), sq_name(fr, fc), if g { "+" } else { "" });
                if seen.contains(&tok) {
                    continue;
                }
                seen.push(tok.clone());
                let mut nb = lifted;
                nb[fr][fc] = if g { v + 10 * me } else { v };
                captures(&mut nb, fr, fc, me);
                out.push((tok, nb, fr, fc));
            }
        }
    }
    out
}

/// Every whole turn: token -> successor. Panics if one token gives two successors.
pub fn turns(p: &Pos, diagonal_only: bool) -> BTreeMap<String, Pos> {
    let mut map = BTreeMap::new();
    if game_over(p) {
        return map;
    }
    let me: i8 = if p.black_to_move { 1 } else { -1 };
    let add = |map: &mut BTreeMap<String, Pos>, tok: String, b: Board| {
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
            for (tok, nb, fr, fc) in part_moves(&p.b, r, c, me, false, diagonal_only) {
                add(&mut map, tok.clone(), nb);
                if winner(&nb, -me).is_some() {
                    continue;
                }
                let mut group = vec![(fr, fc)];
                let mut i = 0;
                while i < group.len() {
                    let (gr, gc) = group[i];
                    for (dr, dc) in ORTH {
                        let (rr, cc) = (gr as i32 + dr, gc as i32 + dc);
                        if inside(rr, cc)
                            && nb[rr as usize][cc as usize] * me > 0
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
                    for (tok2, nb2, _, _) in part_moves(&nb, gr, gc, me, true, diagonal_only) {
                        add(&mut map, format!("{tok},{tok2}"), nb2);
                    }
                }
            }
        }
    }
    map
}

pub fn perft(p: &Pos, depth: u32, diagonal_only: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let t = turns(p, diagonal_only);
    if depth == 1 {
        return t.len() as u64;
    }
    t.values().map(|n| perft(n, depth - 1, diagonal_only)).sum()
}
