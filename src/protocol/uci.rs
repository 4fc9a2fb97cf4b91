//! The UCI dialect at the protocol edge: UCI lines become the engine's typed
//! [`Command`]s (USI tokens and SFEN inside), its typed [`Event`]s become UCI lines.
//!
//! Notation is Fairy-Stockfish's (see [`super::notation`]); the first player is UCI's
//! white, so `wtime`/`winc` are the first player's clock (USI `btime`/`binc`). Scores in
//! `mate` count moves, not plies. Only games with a chess notation are playable; the
//! others (compound turns) answer a clear error and `go` answers `bestmove (none)`.

use super::usi::{self, parse_command, CommandError};
use super::Step;
use crate::engine::{Command, Event, Info, Score};
use crate::game::state::{GameResult, GameState};
use crate::game::{ChessGame, SwitchKind};
use crate::games;

/// The games that have a chess notation, in `UCI_Variant` order (from the registry's
/// descriptors: no session is made).
pub(crate) fn chess_games() -> Vec<ChessGame> {
    games::descriptors().iter().filter_map(games::Descriptor::chess_game).collect()
}

/// Their names.
pub(crate) fn chess_variants() -> Vec<&'static str> {
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
    // A token that is no chess move goes on as it is: the engine ignores a bad list whole
    // and searches every move, with an error line, as in USI.
    p.searchmoves = p.searchmoves.iter().map(|m| game.move_from_chess(m).unwrap_or_else(|_| m.clone())).collect();
    Ok(Command::Go(p))
}

/// `setoption name <id> [value <x>]`, where in UCI the id may have spaces (`Skill Level`):
/// the words up to `value` are the name.
fn setoption(args: &str) -> Result<(String, Option<String>), String> {
    static FORM: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let form = FORM
        .get_or_init(|| regex::Regex::new(r"^name\s+(\S.*?)(?:\s+value(?:\s+(.*?))?)?\s*$").expect("a valid pattern"));
    let Some(c) = form.captures(args.trim()) else {
        return Err(malformed("setoption", "expected 'setoption name <name> [value <value>]'"));
    };
    let value = c.get(2).map(|v| v.as_str().to_string()).filter(|v| !v.is_empty());
    Ok((c[1].to_string(), value))
}

/// One UCI line as steps for the engine. `game` is the current variant's notation, or
/// its name when it has none.
pub(crate) fn command(line: &str, game: Result<&ChessGame, &str>) -> Vec<Step> {
    let line = line.trim();
    let (name, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let error = |e: String| vec![Step::Say(usi::error_line(&e))];
    let needs_game = |f: &dyn Fn(&ChessGame) -> Result<Command, String>| match game {
        Ok(g) => f(g).map_or_else(error, |c| vec![Step::Run(c)]),
        Err(v) => error(no_notation(v)),
    };
    match name {
        "uci" if args.trim().is_empty() => vec![Step::Run(Command::Hello)],
        "position" => needs_game(&|g| position(args, g)),
        "go" if args.split_whitespace().next() == Some("perft") => {
            needs_game(&|_| parse_command(line).map_err(|e| e.to_string()).map(|c| c.unwrap_or(Command::Stop)))
        }
        // A `go` that cannot be read still gets its one `bestmove (none)`, from the engine,
        // after any running search has given its own answer.
        "go" => match game {
            Ok(g) => match go(args, g) {
                Ok(c) => vec![Step::Run(c)],
                Err(why) => vec![Step::Run(Command::CannotGo { why })],
            },
            Err(v) => vec![Step::Run(Command::CannotGo { why: no_notation(v) })],
        },
        "setoption" => match setoption(args) {
            Ok((name, value)) => {
                let is = |n: &str| name.eq_ignore_ascii_case(n);
                if is("UCI_Variant") || is("USI_Variant") {
                    let v = value.clone().unwrap_or_default();
                    if let Some(d) = games::descriptor(&v.to_ascii_lowercase()) {
                        if d.chess.is_none() {
                            return error(format!("setoption: {}", no_notation(d.name)));
                        }
                    }
                }
                // The engine's options answer to their chess names too (`Hash`, `Ponder`).
                vec![Step::Run(Command::SetOption { name, value })]
            }
            Err(e) => error(e),
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

/// A result in chess words: the first player is white.
fn result_text(r: &GameResult) -> String {
    match r.winner {
        Some("b") => format!("white wins: {}", r.reason),
        Some(_) => format!("black wins: {}", r.reason),
        None => format!("draw: {}", r.reason),
    }
}

/// `d` in chess words: the board from the FEN with files a.. and ranks 1.. (the first
/// player, white, at the bottom), white and black, and the FEN last. Without a chess
/// notation, USI's layout.
fn state_lines(state: &GameState, game: Option<&ChessGame>) -> Vec<String> {
    let Some(fen) = game.and_then(|g| g.sfen_to_fen(&state.sfen).ok()) else { return state.lines() };
    let rows: Vec<&str> = fen.split(['[', ' ']).next().unwrap_or_default().split('/').collect();
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut cells = Vec::new();
        let (mut digits, mut promoted) = (String::new(), false);
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            let empty: usize = digits.parse().unwrap_or(0);
            cells.extend(std::iter::repeat_n(".".to_string(), empty));
            digits.clear();
            if c == '+' {
                promoted = true;
            } else {
                cells.push(if promoted { format!("+{c}") } else { c.to_string() });
                promoted = false;
            }
        }
        cells.extend(std::iter::repeat_n(".".to_string(), digits.parse().unwrap_or(0)));
        let line: String = cells.iter().map(|c| format!("{c:>3}")).collect();
        out.push(format!("{:>2}{line}", rows.len() - i));
    }
    let files = game.map_or(0, |g| g.files);
    out.push(format!("  {}", (0..files).map(|f| format!("{:>3}", (b'a' + f as u8) as char)).collect::<String>()));
    let (side, letter) = if state.side == "b" { ("white", "w") } else { ("black", "b") };
    out.push(format!("side {side} ({letter})"));
    if game.is_some_and(|g| g.notation.holdings) {
        out.push(format!("holdings white {}  black {}", state.hands.b, state.hands.w));
    }
    out.push(format!("ply {}", state.ply));
    out.push(format!("phase {}", state.phase));
    if let Some(s) = &state.status {
        out.push(format!("status {s}"));
    }
    if let Some(r) = &state.result {
        out.push(format!("result {}", result_text(r)));
    }
    out.push(format!("fen {fen}"));
    out
}

/// One engine event as UCI lines. `game` is the current variant's notation, if it has one.
pub(crate) fn format(e: &Event, game: Option<&ChessGame>) -> Vec<String> {
    let mv = |m: &String| game.and_then(|g| g.move_to_chess(m).ok()).unwrap_or_else(|| m.clone());
    let line = match e {
        Event::Hello { name, author, options } => {
            let mut out = vec![format!("id name {name}"), format!("id author {author}")];
            for o in options {
                if let SwitchKind::Combo(_) = o.kind {
                    if o.chess_name == "UCI_Variant" {
                        let vars: Vec<&str> = chess_games().iter().map(|g| g.name).collect();
                        let default = game.map_or(vars[0], |g| g.name);
                        let list: String = vars.iter().map(|v| format!(" var {v}")).collect();
                        out.push(format!("option name UCI_Variant type combo default {default}{list}"));
                        continue;
                    }
                }
                out.push(usi::option_line_named(o.chess_name, o));
            }
            out.push("uciok".into());
            return out;
        }
        Event::Info(info) => {
            let score = info.score.map(|s| match s {
                Score::Mate(n) if n > 0 => Score::Mate((n + 1) / 2),
                Score::Mate(n) => Score::Mate(-((-n + 1) / 2)),
                cp => cp,
            });
            let pv = game.map_or_else(|| info.pv.clone(), |g| moves_to_chess(g, &info.pv));
            usi::info_line(&Info { score, pv, ..info.clone() })
        }
        Event::BestMove { mv: None, .. } => "bestmove (none)".to_string(),
        Event::BestMove { mv: Some(m), ponder } => match ponder {
            Some(p) => format!("bestmove {} ponder {}", mv(m), mv(p)),
            None => format!("bestmove {}", mv(m)),
        },
        Event::Moves(list) => game.map_or_else(|| list.clone(), |g| moves_to_chess(g, list)).join(" "),
        Event::PerftMoves(moves) => {
            let mut lines: Vec<(String, u64)> = moves.iter().map(|(m, n)| (mv(m), *n)).collect();
            lines.sort();
            return lines.into_iter().map(|(m, n)| format!("{m}: {n}")).collect();
        }
        Event::State(state) => return state_lines(state, game),
        Event::VariantChanged { name, files, ranks, startpos } => {
            // The new variant's start position, in its own notation.
            let fen = chess_games().iter().find(|g| g.name == *name).and_then(|g| g.sfen_to_fen(startpos).ok());
            format!(
                "info string variant {name} files {files} ranks {ranks} startpos {}",
                fen.as_ref().unwrap_or(startpos)
            )
        }
        Event::BookMove(m) => format!("info string book move {}", mv(m)),
        Event::GameOver { by, result } => usi::game_over_line(by.as_ref().map(mv).as_deref(), &result_text(result)),
        Event::Error(e) => usi::error_line(&game.map_or(e.clone(), |g| g.text_to_chess(e))),
        other => return usi::format(other),
    };
    vec![line]
}
