//! The page's "How to play" panel, served as `GET /howto.json` (protocol/serve.md): for
//! each game its section of `protocol/rules.md`, embedded in the binary (the rules are
//! written once, there), and how each of its pieces moves, asked of the engine: the piece
//! is put on a board and its legal moves from that square are listed.
//!
//! The board around the piece is found, not written per game: first the piece alone; if the
//! game refuses that or the piece cannot move, the piece with both kings (`K`, `k`) in far
//! corners; then the piece with the rest of the start position's pieces as far from it as
//! they fit, the others in hand. On each, every square is tried and the one from which the
//! piece reaches the most squares is shown (the nearest the centre on a tie).

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::json;

use crate::game::sfen_fields::{self, rank_letter};
use crate::game::{Color, Game, Notation, Strategy};
use crate::games::{self, Visitor};

/// protocol/rules.md, as the binary was built with it.
pub const RULES_MD: &str = include_str!("../../protocol/rules.md");

/// A piece on a square: its SFEN letter (the case is the colour) and whether promoted.
type Piece = (char, bool);

/// One piece's diagram: a position with the piece on `square`, and where it can go.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub(crate) struct Diagram {
    /// The piece as in SFEN: `R`, `+R`.
    pub piece: String,
    pub square: String,
    pub sfen: String,
    /// The squares of its legal moves from `square`, each once, in the engine's order.
    pub targets: Vec<String>,
}

/// The section of rules.md about the game named `variant`: from its `## ` heading, which
/// names the variant in backquotes, to the next heading of that level.
pub(crate) fn section(variant: &str) -> Option<&'static str> {
    let tag = format!("(`{variant}`)");
    let start = RULES_MD.lines().find(|l| l.starts_with("## ") && l.contains(&tag))?;
    let from = start.as_ptr() as usize - RULES_MD.as_ptr() as usize;
    let rest = &RULES_MD[from..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 4);
    Some(rest[..end].trim_end())
}

/// The body of `GET /howto.json`, made once.
pub(crate) fn json() -> &'static str {
    static BODY: OnceLock<String> = OnceLock::new();
    BODY.get_or_init(|| {
        let games: Vec<_> = games::names()
            .into_iter()
            .map(|name| {
                let (pieces, exact) = games::visit(name, Diagrams).unwrap_or_default();
                let rules = section(name);
                // Whether a won game ends in checkmate, as the rules say ("win in N" otherwise).
                let checkmate = rules.is_some_and(|r| r.contains("**Winning**: checkmate"));
                // The record formats a game of it saves as (`record`), its natural one first.
                let records = super::records::formats(name);
                json!({ "name": name, "rules": rules, "checkmate": checkmate, "pieces": pieces, "exact": exact,
                        "records": records })
            })
            .collect();
        json!({ "source": "protocol/rules.md", "games": games }).to_string()
    })
}

/// A game's piece diagrams, and whether its positions can be solved exactly (`explore`).
struct Diagrams;

impl Visitor for Diagrams {
    type Output = (Vec<Diagram>, bool);
    fn visit<G: Strategy + Notation>(self) -> Self::Output {
        (diagrams::<G>(), G::MATE_BY_SOLVER)
    }
}

/// The start position's pieces: those in hand, then those on the board, in SFEN order.
fn start_pieces<G: Game>() -> Vec<Piece> {
    let sfen = G::startpos(&G::Rules::default()).to_sfen();
    let mut out = Vec::new();
    let Ok(f) = sfen_fields::fields(&sfen) else { return out };
    let _ = sfen_fields::hand(f.hand, 3, 99, |c, n| {
        out.extend(std::iter::repeat_n((c, false), n as usize));
        Ok(())
    });
    let _ = sfen_fields::board(f.board, G::RANKS, G::FILES, |_, _, c, p| {
        out.push((c, p));
        Ok(())
    });
    out
}

/// The kinds to show: each sente letter of the start position, the king (`K`) first, then
/// the others as the start position lists them, each followed by its promoted form.
fn kinds(start: &[Piece]) -> Vec<Piece> {
    let mut letters: Vec<char> = Vec::new();
    for &(c, _) in start {
        let up = c.to_ascii_uppercase();
        if !letters.contains(&up) {
            letters.push(up);
        }
    }
    letters.sort_by_key(|&c| c != 'K');
    letters.into_iter().flat_map(|c| [(c, false), (c, true)]).collect()
}

/// What stands around the piece.
#[derive(Clone, Copy)]
enum Context {
    Alone,
    Kings,
    StartSet,
}

/// Every square as (rank index from the top, column index from the left).
fn squares(ranks: usize, files: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..ranks).flat_map(move |r| (0..files).map(move |f| (r, f)))
}

fn square_name(files: usize, (r, f): (usize, usize)) -> String {
    format!("{}{}", files - f, rank_letter(r))
}

fn distance(a: (usize, usize), b: (usize, usize)) -> usize {
    a.0.abs_diff(b.0).max(a.1.abs_diff(b.1))
}

/// The SFEN of `piece` on `at` with `context` around it, sente to move, in play.
fn layout<G: Game>(piece: Piece, at: (usize, usize), context: Context, start: &[Piece]) -> Option<String> {
    let (ranks, files) = (G::RANKS, G::FILES);
    let mut cells: Vec<Option<Piece>> = vec![None; ranks * files];
    cells[at.0 * files + at.1] = Some(piece);
    let mut hand: Vec<(char, u8)> = Vec::new();
    match context {
        Context::Alone => {}
        Context::Kings => {
            if !start.iter().any(|p| p.0 == 'K') || !start.iter().any(|p| p.0 == 'k') {
                return None;
            }
            for (king, sq) in [('K', (ranks - 1, files - 1)), ('k', (0, 0))] {
                if sq == at {
                    return None;
                }
                if piece != (king, false) {
                    cells[sq.0 * files + sq.1] = Some((king, false));
                }
            }
        }
        Context::StartSet => {
            let mut sente: Vec<Piece> = start.iter().copied().filter(|p| p.0.is_ascii_uppercase()).collect();
            let i = sente.iter().position(|p| p.0 == piece.0)?;
            sente.remove(i);
            let gote: Vec<Piece> = start.iter().copied().filter(|p| !p.0.is_ascii_uppercase()).collect();
            // Both sides in turn, so that neither has all its pieces in hand.
            let n = sente.len().max(gote.len());
            let rest = (0..n).flat_map(|i| [sente.get(i), gote.get(i)]).flatten().copied();
            // Squares off the piece's lines (rank, file, diagonals) first, then far ones;
            // sente's from the bottom up, gote's from the top down.
            let mut free: Vec<(usize, usize)> = squares(ranks, files).filter(|&s| distance(s, at) >= 2).collect();
            let off_line = |s: (usize, usize)| s.0 != at.0 && s.1 != at.1 && s.0.abs_diff(at.0) != s.1.abs_diff(at.1);
            for (letter, promoted) in rest {
                let is_sente = letter.is_ascii_uppercase();
                let far = |s: (usize, usize)| (off_line(s), distance(s, at), if is_sente { s.0 } else { ranks - s.0 });
                match free.iter().enumerate().max_by_key(|(_, &s)| far(s)).map(|(i, _)| i) {
                    Some(i) => {
                        let s = free.remove(i);
                        cells[s.0 * files + s.1] = Some((letter, promoted));
                    }
                    None => match hand.iter_mut().find(|h| h.0 == letter) {
                        Some(h) => h.1 += 1,
                        None => hand.push((letter, 1)),
                    },
                }
            }
        }
    }
    let mut sfen = String::new();
    sfen_fields::write_board(&mut sfen, ranks, files, |r, f| cells[r * files + f]);
    sfen.push(' ');
    sfen.push(sfen_fields::side_letter(Color::Sente));
    sfen.push(' ');
    sfen_fields::write_hand(&mut sfen, hand);
    sfen.push_str(" 60");
    Some(sfen)
}

/// The squares the piece on `from` reaches in `sfen`'s legal moves (the first part of a
/// compound turn); `None` if the position is refused or over.
fn targets<G: Game>(sfen: &str, from: &str) -> Option<Vec<String>> {
    let pos = G::from_sfen(sfen, &G::Rules::default()).ok()?;
    if pos.result().is_some() || pos.in_placement() {
        return None;
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = Vec::new();
    for m in moves {
        let token = pos.format_move(m);
        let first = token.split(',').next().unwrap_or_default();
        let Some(rest) = first.strip_prefix(from) else { continue };
        // The destination: the file digits and the rank letter after the origin.
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        let Some(to) = rest.get(..digits + 1).filter(|t| digits > 0 && t.ends_with(|c: char| c.is_ascii_lowercase()))
        else {
            continue;
        };
        if !out.iter().any(|t| t == to) {
            out.push(to.to_string());
        }
    }
    Some(out)
}

/// The best diagram of `piece`, in the first context where it moves at all.
fn diagram<G: Game>(piece: Piece, start: &[Piece]) -> Option<Diagram> {
    let (ranks, files) = (G::RANKS, G::FILES);
    let centre = |(r, f): (usize, usize)| (2 * r).abs_diff(ranks - 1) + (2 * f).abs_diff(files - 1);
    for context in [Context::Alone, Context::Kings, Context::StartSet] {
        let mut best: Option<(usize, usize, Diagram)> = None;
        for at in squares(ranks, files) {
            let Some(sfen) = layout::<G>(piece, at, context, start) else { continue };
            let square = square_name(files, at);
            let Some(targets) = targets::<G>(&sfen, &square) else { continue };
            let better =
                best.as_ref().is_none_or(|(n, c, _)| targets.len() > *n || (targets.len() == *n && centre(at) < *c));
            if !targets.is_empty() && better {
                let name = format!("{}{}", if piece.1 { "+" } else { "" }, piece.0);
                best = Some((targets.len(), centre(at), Diagram { piece: name, square, sfen, targets }));
            }
        }
        if let Some((_, _, d)) = best {
            return Some(d);
        }
    }
    None
}

/// Every kind of piece of game `G` that the engine lets stand and move.
pub(crate) fn diagrams<G: Game>() -> Vec<Diagram> {
    let start = start_pieces::<G>();
    kinds(&start).into_iter().filter_map(|k| diagram::<G>(k, &start)).collect()
}
