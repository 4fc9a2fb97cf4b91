//! The UCI dialect at the protocol edge: UCI lines become the engine's typed
//! [`Command`]s (USI tokens and SFEN inside), its typed [`Reply`]s become UCI lines.
//!
//! Notation is Fairy-Stockfish's (see [`super::notation`]); the first player is UCI's
//! white, so `wtime`/`winc` are the first player's clock (USI `btime`/`binc`). Scores in
//! `mate` count moves, not plies. Only games with a chess notation are playable; the
//! others (compound turns) answer a clear error and `go` answers `bestmove (none)`.

use super::command::{parse_command, Command, CommandError};
use super::notation::ChessGame;
use super::reply::{Info, Reply, Score};
use super::Step;

/// The games that have a chess notation, in `UCI_Variant` order.
pub fn chess_games() -> Vec<ChessGame> {
    crate::games::names().into_iter().filter_map(|n| crate::games::new_session(n)?.chess_game()).collect()
}

/// Their names.
pub fn chess_variants() -> Vec<&'static str> {
    chess_games().iter().map(|g| g.name).collect()
}

fn no_notation(variant: &str) -> String {
    format!(
        "{variant} has no UCI notation (its turns are compound); choose one of {} with setoption name UCI_Variant",
        chess_variants().join(", ")
    )
}

fn malformed(command: &str, why: impl Into<String>) -> String {
    CommandError::Malformed { command: command.into(), why: why.into() }.to_string()
}

/// `position startpos|fen <fen> [moves m1 ...]` in chess notation, as a USI command.
fn position(args: &str, game: &ChessGame) -> Result<Command, String> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let (head, tail) = (&words[..at], words.get(at + 1..).unwrap_or(&[]));
    let sfen = match head {
        ["startpos"] => None,
        ["fen", fen @ ..] if !fen.is_empty() => {
            Some(game.fen_to_sfen(&fen.join(" ")).map_err(|e| malformed("position", e.to_string()))?)
        }
        ["fen"] => return Err(malformed("position", "'fen' needs a position")),
        _ => return Err(malformed("position", "expected 'startpos' or 'fen <fen>'")),
    };
    let moves = tail
        .iter()
        .enumerate()
        .map(|(i, m)| {
            game.move_from_chess(m).map_err(|e| malformed("position", format!("move {} of the moves list: {e}", i + 1)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::Position { sfen, moves })
}

/// `go` with the first player as white, `movestogo` ignored, `mate N` (moves) as a search
/// to 2N-1 plies.
fn go(args: &str, game: &ChessGame) -> Result<Command, String> {
    let mut words: Vec<&str> = args.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| *w == "movestogo") {
        if words.get(i + 1).is_none_or(|n| n.parse::<u32>().is_err()) {
            return Err(malformed("go", "'movestogo' needs a non-negative number"));
        }
        words.drain(i..i + 2);
    }
    let mut p = match parse_command(&format!("go {}", words.join(" "))) {
        Ok(Some(Command::Go(p))) => p,
        Ok(_) => return Err(malformed("go", "expected search limits")),
        Err(e) => return Err(e.to_string()),
    };
    std::mem::swap(&mut p.btime, &mut p.wtime);
    std::mem::swap(&mut p.binc, &mut p.winc);
    if p.byoyomi.is_some() {
        return Err(malformed("go", "unknown parameter 'byoyomi'"));
    }
    if let Some(mate) = p.mate.take() {
        match mate {
            Some(n) if n > 0 => p.depth = Some((2 * n.min(100) - 1) as u32),
            _ => return Err(malformed("go", "'mate' needs a number of moves")),
        }
    }
    p.searchmoves = p
        .searchmoves
        .iter()
        .map(|m| game.move_from_chess(m).map_err(|e| malformed("go", format!("searchmoves: {e}"))))
        .collect::<Result<_, _>>()?;
    Ok(Command::Go(p))
}

/// One UCI line as steps for the engine. `game` is the current variant's notation, or
/// its name when it has none.
pub fn command(line: &str, game: Result<&ChessGame, &str>) -> Vec<Step> {
    let line = line.trim();
    let (name, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let error = |e: String| vec![Step::Say(Reply::Error(e))];
    let needs_game = |f: &dyn Fn(&ChessGame) -> Result<Command, String>| match game {
        Ok(g) => f(g).map_or_else(error, |c| vec![Step::Run(c)]),
        Err(v) => error(no_notation(v)),
    };
    match name {
        "uci" if args.trim().is_empty() => vec![Step::Run(Command::Usi)],
        "position" => needs_game(&|g| position(args, g)),
        "go" if args.split_whitespace().next() == Some("perft") => {
            needs_game(&|_| parse_command(line).map_err(|e| e.to_string()).map(|c| c.unwrap_or(Command::Stop)))
        }
        "go" => match game {
            Ok(g) => match go(args, g) {
                Ok(c) => vec![Step::Run(c)],
                Err(e) => vec![Step::Say(Reply::Error(e)), Step::Say(Reply::Text("bestmove (none)".into()))],
            },
            Err(v) => vec![Step::Say(Reply::Error(no_notation(v))), Step::Say(Reply::Text("bestmove (none)".into()))],
        },
        "setoption" => match parse_command(line) {
            Ok(Some(Command::SetOption { name, value })) => {
                let is = |n: &str| name.eq_ignore_ascii_case(n);
                if is("UCI_Variant") || is("USI_Variant") {
                    let v = value.clone().unwrap_or_default();
                    if let Some(s) = crate::games::new_session(&v.to_ascii_lowercase()) {
                        if s.chess_game().is_none() {
                            return error(format!("setoption: {}", no_notation(s.variant())));
                        }
                    }
                }
                let name = if is("Hash") {
                    "USI_Hash".into()
                } else if is("Ponder") {
                    "USI_Ponder".into()
                } else {
                    name
                };
                vec![Step::Run(Command::SetOption { name, value })]
            }
            Ok(_) => Vec::new(),
            Err(e) => error(e.to_string()),
        },
        "usi" | "usinewgame" | "gameover" => error(format!("'{name}' is USI; this session speaks UCI")),
        _ => match parse_command(line) {
            Ok(Some(c)) => vec![Step::Run(c)],
            Ok(None) => Vec::new(),
            Err(e) => error(e.to_string()),
        },
    }
}

fn moves_to_chess(game: &ChessGame, moves: &[String]) -> Vec<String> {
    moves.iter().map(|m| game.move_to_chess(m).unwrap_or_else(|_| m.clone())).collect()
}

/// One engine reply as UCI lines.
pub fn reply(r: Reply, game: Option<&ChessGame>) -> Vec<String> {
    let mv = |m: &String| game.and_then(|g| g.move_to_chess(m).ok()).unwrap_or_else(|| m.clone());
    let line = match r {
        Reply::UsiOk => "uciok".to_string(),
        Reply::Option(body) => {
            if body.starts_with("name USI_Variant ") {
                let vars = chess_variants();
                let default = game.map_or(vars[0], |g| g.name);
                let list: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name UCI_Variant type combo default {default}{list}")
            } else {
                let body =
                    body.replacen("name USI_Hash ", "name Hash ", 1).replacen("name USI_Ponder ", "name Ponder ", 1);
                format!("option {body}")
            }
        }
        Reply::Info(info) => {
            let score = info.score.map(|s| match s {
                Score::Mate(n) if n > 0 => Score::Mate((n + 1) / 2),
                Score::Mate(n) => Score::Mate(-((-n + 1) / 2)),
                cp => cp,
            });
            let pv = game.map_or_else(|| info.pv.clone(), |g| moves_to_chess(g, &info.pv));
            Info { score, pv, ..info }.to_string()
        }
        Reply::BestMove { mv: None, .. } => "bestmove (none)".to_string(),
        Reply::BestMove { mv: Some(m), ponder } => match ponder {
            Some(p) => format!("bestmove {} ponder {}", mv(&m), mv(&p)),
            None => format!("bestmove {}", mv(&m)),
        },
        Reply::Moves(list) => game.map_or_else(|| list.clone(), |g| moves_to_chess(g, &list)).join(" "),
        Reply::PerftMove { mv: m, nodes } => format!("{}: {nodes}", mv(&m)),
        Reply::Text(t) => {
            if let (Some(sfen), Some(g)) = (t.strip_prefix("sfen "), game) {
                if let Ok(fen) = g.sfen_to_fen(sfen) {
                    return vec![t.clone(), format!("fen {fen}")];
                }
            }
            t
        }
        Reply::InfoString(s) => match (s.split_once(" startpos "), s.strip_prefix("book move ")) {
            // The new variant's start position, in its own notation.
            (Some((head, sfen)), _) if s.starts_with("variant ") => {
                let name = head.split_whitespace().nth(1).unwrap_or_default();
                match chess_games().iter().find(|g| g.name == name).map(|g| g.sfen_to_fen(sfen)) {
                    Some(Ok(fen)) => format!("info string {head} startpos {fen}"),
                    _ => format!("info string {s}"),
                }
            }
            (_, Some(m)) => format!("info string book move {}", mv(&m.to_string())),
            _ => format!("info string {s}"),
        },
        Reply::Error(e) => Reply::Error(game.map_or(e.clone(), |g| g.text_to_chess(&e))).to_string(),
        other => other.to_string(),
    };
    vec![line]
}
