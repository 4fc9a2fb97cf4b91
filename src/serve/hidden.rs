//! A hidden setup (Number Shogi: rules.md, "the seed's setup is hidden and
//! simultaneous"). While a person places pieces against koma, the page must not see where
//! koma put its own: the `state` sent to the page leaves koma's placed pieces off the
//! board, shows its hand whole, and writes its placement moves as `?`.

use crate::game::state::GameState;

/// The side whose setup is hidden, and how many pieces it has placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// `b` or `w`.
    pub(crate) side: &'static str,
    pub(crate) placed: usize,
}

fn is_sides(side: &str, ch: char) -> bool {
    ch.is_ascii_alphabetic() && (side == "b") == ch.is_ascii_uppercase()
}

impl Hidden {
    /// The hidden side of a game of a hidden-setup variant in its placement phase in which
    /// `koma` (`b` or `w`) plays against a person; `None` otherwise.
    pub(crate) fn of(hidden_setup: bool, state: &GameState, koma: Option<&'static str>) -> Option<Hidden> {
        let side = koma?;
        if !hidden_setup || state.phase != "placement" {
            return None;
        }
        let board = state.sfen.split(' ').next().unwrap_or("");
        Some(Hidden { side, placed: board.chars().filter(|&c| is_sides(side, c)).count() })
    }

    /// `state` as the person may see it: the hidden side's pieces off the board, its hand
    /// its whole set (what is on the board and in its hand).
    pub(crate) fn mask(&self, state: &GameState) -> GameState {
        let mut out = state.clone();
        let mut fields: Vec<String> = state.sfen.split(' ').map(str::to_string).collect();
        let mut set: Vec<char> = Vec::new();
        if let Some(board) = fields.first_mut() {
            set.extend(board.chars().filter(|&c| is_sides(self.side, c)));
            *board = mask_board_field(board, self.side);
        }
        let hand = if self.side == "b" { &state.hands.b } else { &state.hands.w };
        set.extend(expand_hand(hand));
        set.sort_unstable();
        let whole: String = set.iter().collect();
        let (b, w) = if self.side == "b" {
            (whole.clone(), state.hands.w.clone())
        } else {
            (state.hands.b.clone(), whole.clone())
        };
        if let Some(h) = fields.get_mut(2) {
            let join = |s: &str| if s == "-" { String::new() } else { s.to_string() };
            let both = join(&b) + &join(&w);
            *h = if both.is_empty() { "-".into() } else { both };
        }
        out.hands.b = if b.is_empty() { "-".into() } else { b };
        out.hands.w = if w.is_empty() { "-".into() } else { w };
        out.sfen = fields.join(" ");
        out.board = state.board.iter().map(|l| mask_diagram_line(l, self.side)).collect();
        out
    }

    /// The moves as the person may see them: the hidden side's as `?`. `first` is the
    /// side that made the first move.
    pub(crate) fn mask_moves(&self, moves: &[String], first: &str) -> Vec<String> {
        moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mover_is_first = i % 2 == 0;
                let mover = if mover_is_first == (first == "b") { "b" } else { "w" };
                if mover == self.side {
                    "?".to_string()
                } else {
                    m.clone()
                }
            })
            .collect()
    }
}

/// An SFEN hand field's letters, counts written out (`2A` -> `AA`).
fn expand_hand(hand: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut count = 0usize;
    for ch in hand.chars() {
        if let Some(d) = ch.to_digit(10) {
            count = count * 10 + d as usize;
        } else if ch.is_ascii_alphabetic() {
            out.extend(std::iter::repeat_n(ch, count.max(1)));
            count = 0;
        }
    }
    out
}

/// An SFEN board field with `side`'s pieces taken off (empty squares counted again).
fn mask_board_field(field: &str, side: &str) -> String {
    field
        .split('/')
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0u32;
            let mut pending_plus = false;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    empty += d;
                } else if ch == '+' {
                    pending_plus = true;
                } else if is_sides(side, ch) {
                    empty += 1;
                    pending_plus = false;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    if std::mem::take(&mut pending_plus) {
                        out.push('+');
                    }
                    out.push(ch);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// A line of the board diagram (`  | a |   | B | e`) with `side`'s pieces blanked: only
/// the cells between the first and the last `|` are touched (the rank letter after the
/// last is not a piece).
fn mask_diagram_line(line: &str, side: &str) -> String {
    let (Some(first), Some(last)) = (line.find('|'), line.rfind('|')) else {
        return line.to_string();
    };
    if first == last {
        return line.to_string();
    }
    let cells: String = line[first..last].chars().map(|c| if is_sides(side, c) { ' ' } else { c }).collect();
    format!("{}{}{}", &line[..first], cells, &line[last..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::Hands;

    fn state(sfen: &str, phase: &'static str) -> GameState {
        let f: Vec<&str> = sfen.split(' ').collect();
        let hand = f[2];
        let b: String = hand.chars().filter(|c| c.is_ascii_uppercase()).collect();
        let w: String = hand.chars().filter(|c| c.is_ascii_lowercase()).collect();
        GameState {
            variant: "numbershogi",
            board: vec!["  |   | d |   | a".into(), "  |   | D |   | e".into()],
            side: "b",
            side_name: "sente",
            players: ["sente", "gote"],
            hands: Hands { b: if b.is_empty() { "-".into() } else { b }, w: if w.is_empty() { "-".into() } else { w } },
            ply: 3,
            phase,
            status: None,
            result: None,
            sfen: sfen.into(),
        }
    }

    #[test]
    fn the_hidden_sides_pieces_leave_the_board_and_return_to_its_hand() {
        let st = state("1d1/3/3/3/1D1 b ABCEFabcef 3", "placement");
        let h = Hidden::of(true, &st, Some("w")).unwrap();
        assert_eq!(h, Hidden { side: "w", placed: 1 });
        let m = h.mask(&st);
        assert_eq!(m.sfen, "3/3/3/3/1D1 b ABCEFabcdef 3");
        assert_eq!(m.hands.w, "abcdef");
        assert_eq!(m.hands.b, "ABCEF");
        assert_eq!(m.board, vec!["  |   |   |   | a".to_string(), "  |   | D |   | e".to_string()]);
        assert_eq!(h.mask_moves(&["D*2e".into(), "D*2a".into(), "C*1d".into()], "b"), ["D*2e", "?", "C*1d"]);
    }

    #[test]
    fn nothing_is_hidden_in_play_without_koma_or_in_other_games() {
        let st = state("1d1/3/3/3/1D1 b ABCEFabcef 3", "placement");
        assert!(Hidden::of(false, &st, Some("w")).is_none());
        assert!(Hidden::of(true, &st, None).is_none());
        assert!(Hidden::of(true, &state("1d1/3/3/3/1D1 b - 13", "play"), Some("w")).is_none());
    }

    #[test]
    fn sente_hidden_too() {
        let st = state("1d1/3/3/2C/1D1 w ABEFabcef 4", "placement");
        let h = Hidden::of(true, &st, Some("b")).unwrap();
        assert_eq!(h.placed, 2);
        assert_eq!(h.mask(&st).sfen, "1d1/3/3/3/3 w ABCDEFabcef 4");
        assert_eq!(h.mask_moves(&["D*2e".into(), "D*2a".into(), "C*1d".into()], "b"), ["?", "D*2a", "?"]);
    }
}
