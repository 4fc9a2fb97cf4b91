//! The USI dialect: USI lines to the engine's typed [`Command`]s (nom), and its typed
//! [`Event`]s to USI lines.
//!
//! The grammar is USI with the Shogidokoro extensions plus the script verbs `d`, `moves`,
//! `go perft N` and `bench`. Parsing knows no rule of any game: move tokens and SFENs stay
//! text here and are checked by the game when the engine applies them. The UCI dialect
//! reads its common commands with the same parser ([`parse_command`]).

use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::multispace0;
use nom::sequence::{preceded, tuple};
use nom::IResult;
use thiserror::Error;

use super::shown;
use crate::engine::{Command, Event, Info, MateResult, Score};
use crate::game::{SwitchInfo, SwitchKind};
use crate::search::limits::GoParams;

/// A line that is not a command koma understands.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("malformed '{command}' command: {why}")]
    Malformed { command: String, why: String },
}

fn word(input: &str) -> IResult<&str, &str> {
    preceded(multispace0, take_till1(|c: char| c.is_whitespace()))(input)
}

fn number<T: std::str::FromStr>(token: &str, key: &str, command: &str) -> Result<T, CommandError> {
    token.parse().map_err(|_| CommandError::Malformed {
        command: command.to_string(),
        why: format!("'{key}' needs a non-negative number, got '{token}'"),
    })
}

fn malformed(command: &str, why: impl Into<String>) -> CommandError {
    CommandError::Malformed { command: command.to_string(), why: why.into() }
}

/// `setoption name <name> [value <value...>]`; the value may contain spaces.
fn setoption(args: &str) -> Result<Command, CommandError> {
    let header = |i| -> IResult<&str, &str> { preceded(tuple((multispace0, tag("name"))), word)(i) };
    let (after, name) =
        header(args).map_err(|_| malformed("setoption", "expected 'setoption name <name> [value <value>]'"))?;
    let after = after.trim();
    let value = if after.is_empty() {
        None
    } else if let Ok((v, _)) = tag::<_, _, nom::error::Error<&str>>("value")(after) {
        Some(v.trim()).filter(|v| !v.is_empty()).map(str::to_string)
    } else {
        return Err(malformed("setoption", format!("option names have no spaces: unexpected '{after}'")));
    };
    Ok(Command::SetOption { name: name.to_string(), value })
}

/// `position startpos|sfen <fields...> [moves ...]`
fn position(args: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = args.split_whitespace().collect();
    let moves_at = words.iter().position(|w| *w == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], words[i + 1..].iter().map(|s| s.to_string()).collect()),
        None => (&words[..], Vec::new()),
    };
    match head.first() {
        Some(&"startpos") if head.len() == 1 => Ok(Command::Position { sfen: None, moves }),
        Some(&"startpos") => Err(malformed("position", format!("unexpected '{}' after startpos", head[1]))),
        Some(&"sfen") if head.len() > 1 => Ok(Command::Position { sfen: Some(head[1..].join(" ")), moves }),
        Some(&"sfen") => Err(malformed("position", "'sfen' needs a position")),
        Some(&"fen") => Err(malformed(
            "position",
            "expected 'startpos' or 'sfen', got 'fen' (FEN is for UCI sessions, which start with the \
             line 'uci'; in USI write 'position sfen <sfen>')",
        )),
        Some(other) => Err(malformed("position", format!("expected 'startpos' or 'sfen', got '{other}'"))),
        None => Err(malformed("position", "expected 'startpos' or 'sfen'")),
    }
}

fn go(args: &str) -> Result<Command, CommandError> {
    let mut p = GoParams::default();
    let words: Vec<&str> = args.split_whitespace().collect();
    let mut i = 0;
    let value = |i: usize, key: &str| -> Result<&str, CommandError> {
        words.get(i + 1).copied().ok_or_else(|| malformed("go", format!("'{key}' needs a value")))
    };
    while i < words.len() {
        let key = words[i];
        match key {
            "perft" => {
                if words.len() != 2 || i != 0 {
                    return Err(malformed("go", "expected 'go perft <depth>'"));
                }
                return Ok(Command::Perft(number(value(i, key)?, key, "go")?));
            }
            "btime" | "wtime" | "binc" | "winc" | "byoyomi" | "movetime" | "nodes" => {
                let v: u64 = number(value(i, key)?, key, "go")?;
                match key {
                    "btime" => p.btime = Some(v),
                    "wtime" => p.wtime = Some(v),
                    "binc" => p.binc = Some(v),
                    "winc" => p.winc = Some(v),
                    "byoyomi" => p.byoyomi = Some(v),
                    "movetime" => p.movetime = Some(v),
                    _ => p.nodes = Some(v),
                }
                i += 2;
            }
            "depth" => {
                p.depth = Some(number(value(i, key)?, key, "go")?);
                i += 2;
            }
            "infinite" => {
                p.infinite = true;
                i += 1;
            }
            "ponder" => {
                p.ponder = true;
                i += 1;
            }
            "mate" => match words.get(i + 1) {
                Some(&"infinite") => {
                    p.mate = Some(None);
                    i += 2;
                }
                Some(t) if t.parse::<u64>().is_ok() => {
                    p.mate = Some(Some(number(t, key, "go")?));
                    i += 2;
                }
                _ => {
                    p.mate = Some(None);
                    i += 1;
                }
            },
            "searchmoves" => {
                // Everything up to the next known keyword is a move token.
                i += 1;
                while i < words.len() && !is_go_keyword(words[i]) {
                    p.searchmoves.push(words[i].to_string());
                    i += 1;
                }
            }
            other => return Err(malformed("go", format!("unknown parameter '{other}'"))),
        }
    }
    Ok(Command::Go(p))
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "btime"
            | "wtime"
            | "binc"
            | "winc"
            | "byoyomi"
            | "movetime"
            | "nodes"
            | "depth"
            | "infinite"
            | "ponder"
            | "mate"
    )
}

fn no_args(command: Command, name: &str, args: &str) -> Result<Command, CommandError> {
    if args.trim().is_empty() {
        Ok(command)
    } else {
        Err(malformed(name, format!("takes no arguments, got '{}'", args.trim())))
    }
}

/// Parses one input line. Blank lines are `Ok(None)`.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let Ok((args, name)) = word(line) else { return Ok(None) };
    let args = args.trim_start();
    let cmd = match name {
        "usi" => no_args(Command::Hello, name, args)?,
        "isready" => no_args(Command::IsReady, name, args)?,
        "setoption" => setoption(args)?,
        "usinewgame" | "ucinewgame" => no_args(Command::NewGame, name, args)?,
        "position" => position(args)?,
        "go" => go(args)?,
        "stop" => no_args(Command::Stop, name, args)?,
        "ponderhit" => no_args(Command::PonderHit, name, args)?,
        "gameover" => Command::GameOver(args.to_string()),
        "quit" => Command::Quit,
        "d" => no_args(Command::Display, name, args)?,
        "moves" => no_args(Command::Moves, name, args)?,
        "bench" => match args.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => Command::Bench(None),
            [d] => Command::Bench(Some(number(d, "depth", "bench")?)),
            _ => return Err(malformed("bench", "expected 'bench [depth]'")),
        },
        other => {
            let shown: String = other.chars().take(40).collect();
            return Err(CommandError::Unknown(shown));
        }
    };
    Ok(Some(cmd))
}

/// An option as a USI `option` line.
pub(crate) fn option_line(o: &SwitchInfo) -> String {
    option_line_named(o.name, o)
}

/// An option's line under another name (the chess protocols' names for the same option).
pub(crate) fn option_line_named(name: &str, o: &SwitchInfo) -> String {
    let default = &o.default;
    match &o.kind {
        SwitchKind::Spin { min, max } => format!("option name {name} type spin default {default} min {min} max {max}"),
        SwitchKind::Check => format!("option name {name} type check default {default}"),
        SwitchKind::Combo(values) => {
            let vars: String = values.iter().map(|v| format!(" var {v}")).collect();
            format!("option name {name} type combo default {default}{vars}")
        }
        SwitchKind::Text | SwitchKind::File => format!("option name {name} type string default {default}"),
    }
}

/// A score as USI writes it.
pub(crate) fn score(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// An `info` line of search progress (UCI writes the same fields).
pub(crate) fn info_line(info: &Info) -> String {
    let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth.max(info.depth));
    if let Some(k) = info.multipv {
        line += &format!(" multipv {k}");
    }
    if let Some(s) = info.score {
        line += &format!(" score {}", score(s));
    }
    line += &format!(" nodes {} nps {} time {} hashfull {}", info.nodes, info.nps, info.time_ms, info.hashfull);
    if !info.pv.is_empty() {
        line += &format!(" pv {}", info.pv.join(" "));
    }
    line
}

/// An error line: `info string error: <text>`, the text made safe for one line.
pub(crate) fn error_line(text: &str) -> String {
    format!("info string error: {}", shown(text))
}

/// The `info string` that says the game is over (`by`: the move that ends it).
pub(crate) fn game_over_line(by: Option<&str>, result: &str) -> String {
    match by {
        Some(m) => format!("info string {m} ends the game: {result}"),
        None => format!("info string the game is over: {result}"),
    }
}

/// The lines of `go perft`'s and `bench`'s closing events, which every dialect writes
/// alike; `None` for the other events.
pub(crate) fn count_lines(e: &Event) -> Option<Vec<String>> {
    Some(match e {
        Event::PerftTotal { nodes, stopped: None } => vec![format!("Nodes searched: {nodes}")],
        Event::PerftTotal { nodes, stopped: Some((done, of)) } => {
            vec![format!("Nodes searched: {nodes} (stopped: {done} of {of} moves counted)")]
        }
        Event::BenchTotal { ms, nodes, nps, stopped } => {
            let stopped = if *stopped { " (stopped)" } else { "" };
            vec![
                format!("Total time (ms) : {ms}"),
                format!("Nodes searched  : {nodes}{stopped}"),
                format!("Nodes/second    : {nps}"),
            ]
        }
        _ => return None,
    })
}

/// One engine event as USI lines.
pub(crate) fn format(e: &Event) -> Vec<String> {
    let line = match e {
        Event::Hello { name, author, options } => {
            let mut out = vec![format!("id name {name}"), format!("id author {author}")];
            out.extend(options.iter().map(option_line));
            out.push("usiok".into());
            return out;
        }
        Event::Ready => "readyok".into(),
        Event::Info(info) => info_line(info),
        Event::Message(s) => format!("info string {s}"),
        Event::BookMove(m) => format!("info string book move {m}"),
        Event::Error(s) => error_line(s),
        Event::GameOver { by, result } => game_over_line(by.as_deref(), &result.text),
        Event::BestMove { mv: None, .. } => "bestmove resign".into(),
        Event::BestMove { mv: Some(m), ponder: Some(p) } => format!("bestmove {m} ponder {p}"),
        Event::BestMove { mv: Some(m), ponder: None } => format!("bestmove {m}"),
        Event::Checkmate(MateResult::Mate(pv)) => format!("checkmate {}", pv.join(" ")),
        Event::Checkmate(MateResult::NoMate) => "checkmate nomate".into(),
        Event::Checkmate(MateResult::Timeout) => "checkmate timeout".into(),
        Event::Moves(moves) => moves.join(" "),
        Event::State(state) => return state.lines(),
        Event::VariantChanged { name, files, ranks, startpos } => {
            format!("info string variant {name} files {files} ranks {ranks} startpos {startpos}")
        }
        Event::PerftMoves(moves) => return moves.iter().map(|(mv, nodes)| format!("{mv}: {nodes}")).collect(),
        Event::BenchPosition { index, nodes, best, sfen } => {
            let best = best.as_deref().unwrap_or("resign");
            format!("info string bench position {index} nodes {nodes} bestmove {best} sfen {sfen}")
        }
        Event::BenchStopped { index, of } => format!("info string bench stopped in position {index} of {of}"),
        Event::PerftTotal { .. } | Event::BenchTotal { .. } => return count_lines(e).unwrap_or_default(),
    };
    vec![line]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::MAX_ERROR_CHARS;

    #[test]
    fn lines_are_exact() {
        let line = |e: Event| format(&e).join("\n");
        assert_eq!(line(Event::BestMove { mv: None, ponder: None }), "bestmove resign");
        assert_eq!(
            line(Event::BestMove { mv: Some("2e2d".into()), ponder: Some("3b3c".into()) }),
            "bestmove 2e2d ponder 3b3c"
        );
        let info = Info {
            depth: 3,
            seldepth: 5,
            score: Some(Score::Mate(-2)),
            nodes: 10,
            pv: vec!["a".into()],
            ..Default::default()
        };
        assert_eq!(info_line(&info), "info depth 3 seldepth 5 score mate -2 nodes 10 nps 0 time 0 hashfull 0 pv a");
        assert_eq!(line(Event::Checkmate(MateResult::NoMate)), "checkmate nomate");
    }

    /// Class 10: input echoed in an error line is escaped and cut.
    #[test]
    fn control_bytes_are_escaped_and_long_input_cut_in_error_lines() {
        let line = error_line("takes no arguments, got 'x\rbestmove 1e1d\ry\u{0}\u{1b}[2J'");
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        assert!(line.contains("x\\rbestmove 1e1d\\ry"), "{line}");
        let huge = "v".repeat(1 << 20);
        let line = error_line(&format!("option X: bad value '{huge}'"));
        assert!(line.len() < 400, "{} bytes", line.len());
        assert!(
            line.ends_with(&format!("... ({} more characters)", (1 << 20) + 22 - MAX_ERROR_CHARS)),
            "{}",
            &line[300..]
        );
    }

    #[test]
    fn setoption_with_and_without_value() {
        assert_eq!(
            parse_command("setoption name USI_Hash value 64"),
            Ok(Some(Command::SetOption { name: "USI_Hash".into(), value: Some("64".into()) }))
        );
        assert_eq!(
            parse_command("setoption name NumberShogiPieceMoves value 1:N 2:NW,NE"),
            Ok(Some(Command::SetOption { name: "NumberShogiPieceMoves".into(), value: Some("1:N 2:NW,NE".into()) }))
        );
        assert_eq!(
            parse_command("setoption name Clear"),
            Ok(Some(Command::SetOption { name: "Clear".into(), value: None }))
        );
        assert!(parse_command("setoption value 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse_command("position startpos moves K*1f K*1a"),
            Ok(Some(Command::Position { sfen: None, moves: vec!["K*1f".into(), "K*1a".into()] }))
        );
        assert_eq!(
            parse_command("position sfen 6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1"),
            Ok(Some(Command::Position {
                sfen: Some("6/pppppp/6/6/PPPPPP/6 b KRBGSNLkrbgsnl 1".into()),
                moves: vec![]
            }))
        );
        assert!(parse_command("position").is_err());
        assert!(parse_command("position sfen").is_err());
        assert!(parse_command("position startpos 7g7f").is_err());
    }

    #[test]
    fn go_forms() {
        let Ok(Some(Command::Go(p))) = parse_command("go btime 1000 wtime 2000 byoyomi 3000") else { panic!() };
        assert_eq!((p.btime, p.wtime, p.byoyomi), (Some(1000), Some(2000), Some(3000)));
        let Ok(Some(Command::Go(p))) = parse_command("go mate infinite") else { panic!() };
        assert_eq!(p.mate, Some(None));
        let Ok(Some(Command::Go(p))) = parse_command("go mate 5000") else { panic!() };
        assert_eq!(p.mate, Some(Some(5000)));
        let Ok(Some(Command::Go(p))) = parse_command("go searchmoves 1e1d 2e2d depth 3") else { panic!() };
        assert_eq!((p.searchmoves.len(), p.depth), (2, Some(3)));
        assert_eq!(parse_command("go perft 3"), Ok(Some(Command::Perft(3))));
        assert!(parse_command("go btime x").is_err());
        assert!(parse_command("go depth").is_err());
        assert!(parse_command("go sideways").is_err());
    }

    #[test]
    fn unknown_and_blank() {
        assert_eq!(parse_command("   "), Ok(None));
        assert_eq!(parse_command("xyzzy 1 2"), Err(CommandError::Unknown("xyzzy".into())));
        assert!(parse_command("isready now").is_err());
    }
}
