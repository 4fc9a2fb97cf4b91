//! SFEN reading (validated, never panics) and writing, the placement-phase test of
//! rules.md §0, and the board diagram.

use super::board::*;
use crate::game::sfen_fields;
use crate::game::SfenError;

pub(super) const STARTPOS: &str = "6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1";

/// Most pieces of each unpromoted kind in the whole game (R and B share their limit).
const LIMIT: [u8; 9] = [0, 12, 2, 2, 2, 2, 2, 2, 2];

fn empty_position() -> Position {
    Position {
        board: [0; SQUARES],
        occ: [0; 2],
        hand: [[0; 9]; 2],
        king: [SQUARES as u8; 2],
        stm: 0,
        ply: 1,
        placing: false,
        key: 0,
    }
}

fn parse_board(text: &str, pos: &mut Position) -> Result<(), SfenError> {
    sfen_fields::board(text, 6, 6, |r, c, ch, promoted| {
        let k = ascii(ch).and_then(kind_of_letter).ok_or_else(|| format!("unknown piece letter '{ch}'"))?;
        let k = if promoted {
            if !can_promote(k) {
                return Err(format!("'{ch}' cannot be promoted"));
            }
            promote(k)
        } else {
            k
        };
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        if k == KING && pos.king[color] as usize != SQUARES {
            return Err("a side has two kings".into());
        }
        pos.put(r * 6 + c, piece(k, color));
        Ok(())
    })
}

/// The byte of an ASCII character.
fn ascii(ch: char) -> Option<u8> {
    ch.is_ascii().then_some(ch as u8)
}

fn parse_hand(text: &str, pos: &mut Position) -> Result<(), SfenError> {
    sfen_fields::hand(text, 2, u32::MAX, |ch, n| {
        let k = ascii(ch).and_then(kind_of_letter).ok_or_else(|| format!("unknown piece letter '{ch}'"))?;
        let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
        let total = pos.hand[color][k as usize] as u32 + n;
        if total > LIMIT[k as usize] as u32 {
            return Err(format!("too many '{ch}' in hand"));
        }
        pos.hand[color][k as usize] = total as u8;
        Ok(())
    })
}

/// rules.md §0, the five conditions of the placement phase.
fn is_placement(pos: &Position) -> bool {
    // 1. ply at most 12.
    if pos.ply > 12 {
        return false;
    }
    // 2. at least one hand not empty.
    if pos.hand.iter().all(|h| h.iter().all(|&n| n == 0)) {
        return false;
    }
    let mut placed = [0u32; 2];
    for c in 0..2 {
        // 3. pieces unpromoted, in own camp; pawns exactly fill own second rank; none in hand.
        let pawn_rank = if c == 0 { 4 } else { 1 };
        let mut on_board = [0u8; 9];
        for sq in 0..SQUARES {
            let p = pos.board[sq];
            if p == 0 || color_index(p) != c {
                continue;
            }
            let k = kind(p);
            if k > KING || !in_camp(c, sq) {
                return false;
            }
            if k == PAWN && rank(sq) != pawn_rank {
                return false;
            }
            if k != PAWN {
                placed[c] += 1;
            }
            on_board[k as usize] += 1;
        }
        if on_board[PAWN as usize] != 6 || pos.hand[c][PAWN as usize] != 0 {
            return false;
        }
        // 4. board + hand is exactly the own set.
        let total = |k: u8| on_board[k as usize] + pos.hand[c][k as usize];
        for k in [KING, GOLD, SILVER, KNIGHT, LANCE] {
            if total(k) != 1 {
                return false;
            }
        }
        let (r, b) = (total(ROOK), total(BISHOP));
        let ok = if on_board[ROOK as usize] > 0 {
            r == 1 && b == 0
        } else if on_board[BISHOP as usize] > 0 {
            b == 1 && r == 0
        } else {
            r == 1 && b == 1
        };
        if !ok {
            return false;
        }
    }
    // 5. placed counts fit the side to move.
    if pos.stm == 0 {
        placed[0] == placed[1]
    } else {
        placed[0] == placed[1] + 1
    }
}

/// Its drops so far (the pieces on the board other than the fixed pawns) against its ply:
/// [`sfen_fields::check_placement_end`].
fn validate_placement_end(pos: &Position) -> Result<(), SfenError> {
    let placed = (0..SQUARES).filter(|&sq| pos.board[sq] != 0 && kind(pos.board[sq]) != PAWN).count() as u32;
    sfen_fields::check_placement_end(pos.ply, placed)
}

/// Checks a play-phase position for things that cannot happen in a game.
fn validate_play(pos: &Position) -> Result<(), SfenError> {
    let bad = |m: &str| Err(SfenError::Invalid(m.to_string()));
    if pos.hand[0][KING as usize] > 0 || pos.hand[1][KING as usize] > 0 {
        return bad("a king in hand outside the placement phase");
    }
    if pos.king[0] as usize >= SQUARES || pos.king[1] as usize >= SQUARES {
        return bad("each side needs a king on the board");
    }
    let mut totals = [0u32; 9];
    let mut pawn_cols = [[false; 6]; 2];
    for sq in 0..SQUARES {
        let p = pos.board[sq];
        if p == 0 {
            continue;
        }
        let (c, k) = (color_index(p), kind(p));
        totals[unpromote(k) as usize] += 1;
        if dead_square(k, c, sq) {
            return bad("an unpromoted pawn, lance or knight with no further move");
        }
        if k == PAWN {
            if pawn_cols[c][col(sq)] {
                return bad("two unpromoted pawns of one side on a file (nifu)");
            }
            pawn_cols[c][col(sq)] = true;
        }
    }
    for c in 0..2 {
        for k in 1..9 {
            totals[k] += pos.hand[c][k] as u32;
        }
    }
    for k in [PAWN, LANCE, KNIGHT, SILVER, GOLD] {
        if totals[k as usize] > LIMIT[k as usize] as u32 {
            return bad("more pieces of a kind than the game has");
        }
    }
    if totals[ROOK as usize] + totals[BISHOP as usize] > 2 {
        return bad("more than two rooks and bishops in play (each side boxes one of R and B)");
    }
    if pos.king_attacked(1 - pos.stm) {
        return bad("the side not to move is in check");
    }
    Ok(())
}

pub(super) fn from_sfen(sfen: &str) -> Result<Position, SfenError> {
    let fields = sfen_fields::fields(sfen)?;
    let mut pos = empty_position();
    parse_board(fields.board, &mut pos)?;
    pos.stm = fields.side()?.index();
    parse_hand(fields.hand, &mut pos)?;
    pos.ply = fields.ply(u32::MAX / 2 - 1)?;
    pos.placing = is_placement(&pos);
    if pos.placing {
        validate_placement_end(&pos)?;
    } else {
        validate_play(&pos)?;
    }
    pos.key = pos.compute_key();
    Ok(pos)
}

/// The letter of a piece (its case the colour) and whether it is promoted.
fn letter(p: u8) -> (char, bool) {
    let k = kind(p);
    let base = unpromote(k);
    let l = LETTER[base as usize] as char;
    (if color_index(p) == 0 { l } else { l.to_ascii_lowercase() }, base != k)
}

fn piece_text(p: u8, out: &mut String) {
    let (l, promoted) = letter(p);
    if promoted {
        out.push('+');
    }
    out.push(l);
}

pub(super) fn to_sfen(pos: &Position) -> String {
    let mut s = String::with_capacity(64);
    sfen_fields::write_board(&mut s, 6, 6, |r, c| match pos.board[r * 6 + c] {
        0 => None,
        p => Some(letter(p)),
    });
    s.push(' ');
    s.push(if pos.stm == 0 { 'b' } else { 'w' });
    s.push(' ');
    let letter = |c: usize, k: u8| {
        let l = LETTER[k as usize] as char;
        if c == 0 {
            l
        } else {
            l.to_ascii_lowercase()
        }
    };
    sfen_fields::write_hand(&mut s, (0..2).flat_map(|c| HAND_ORDER.map(|k| (letter(c, k), pos.hand[c][k as usize]))));
    s.push(' ');
    s.push_str(&pos.ply.to_string());
    s
}

pub(super) fn diagram(pos: &Position) -> String {
    let mut s = String::new();
    s.push_str("   6  5  4  3  2  1\n");
    for r in 0..6 {
        s.push(' ');
        for c in 0..6 {
            let p = pos.board[r * 6 + c];
            if p == 0 {
                s.push_str("  .");
            } else {
                let mut t = String::new();
                piece_text(p, &mut t);
                s.push_str(&format!("{t:>3}"));
            }
        }
        s.push_str(&format!("  {}\n", (b'a' + r as u8) as char));
    }
    s
}
