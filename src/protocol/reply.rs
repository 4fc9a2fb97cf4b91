//! Replies to the GUI. Each is a typed value whose `Display` is the exact line sent.

use std::fmt;

/// A score as USI reports it: centipawns, or mate in plies (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// One `info` line of search progress.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: Option<usize>,
    pub score: Option<Score>,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    pub pv: Vec<String>,
}

/// The result of `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult {
    Mate(Vec<String>),
    NoMate,
    Timeout,
}

/// One line from the engine to the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Id {
        name: String,
        author: String,
    },
    /// A full `option name ...` line body (after `option `).
    Option(String),
    UsiOk,
    ReadyOk,
    Info(Info),
    /// `info string <text>`
    InfoString(String),
    /// `info string error: <text>`
    Error(String),
    BestMove {
        mv: Option<String>,
        ponder: Option<String>,
    },
    Checkmate(MateResult),
    /// `moves`: every legal move on one line.
    Moves(Vec<String>),
    /// One line of `go perft`: a move and the leaves below it.
    PerftMove {
        mv: String,
        nodes: u64,
    },
    /// Free-form lines for script verbs (`d`, perft total, bench).
    Text(String),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "info depth {} seldepth {}", self.depth, self.seldepth.max(self.depth))?;
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        if let Some(s) = self.score {
            write!(f, " score {s}")?;
        }
        write!(f, " nodes {} nps {} time {} hashfull {}", self.nodes, self.nps, self.time_ms, self.hashfull)?;
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Id { name, author } => write!(f, "id name {name}\nid author {author}"),
            Reply::Option(body) => write!(f, "option {body}"),
            Reply::UsiOk => write!(f, "usiok"),
            Reply::ReadyOk => write!(f, "readyok"),
            Reply::Info(info) => write!(f, "{info}"),
            Reply::InfoString(s) => write!(f, "info string {s}"),
            Reply::Error(s) => write!(f, "info string error: {}", shown(s)),
            Reply::BestMove { mv: None, .. } => write!(f, "bestmove resign"),
            Reply::BestMove { mv: Some(m), ponder: Some(p) } => write!(f, "bestmove {m} ponder {p}"),
            Reply::BestMove { mv: Some(m), ponder: None } => write!(f, "bestmove {m}"),
            Reply::Checkmate(MateResult::Mate(pv)) => write!(f, "checkmate {}", pv.join(" ")),
            Reply::Checkmate(MateResult::NoMate) => write!(f, "checkmate nomate"),
            Reply::Checkmate(MateResult::Timeout) => write!(f, "checkmate timeout"),
            Reply::Moves(moves) => write!(f, "{}", moves.join(" ")),
            Reply::PerftMove { mv, nodes } => write!(f, "{mv}: {nodes}"),
            Reply::Text(s) => write!(f, "{s}"),
        }
    }
}

/// The longest error text printed; the rest is cut (a 1 MB bad value is not echoed).
pub const MAX_ERROR_CHARS: usize = 300;

/// Text that may hold input, made safe for one output line: control characters escaped
/// (`\r`, `\n`, `\t`, else `\u{..}`), so no input byte can start a line of its own
/// or look like one to a reader splitting on `\r`, and cut to [`MAX_ERROR_CHARS`].
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    for c in chars.by_ref() {
        match c {
            '\r' => out.push_str("\\r"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            c => out.push(c),
        }
        if out.chars().count() >= MAX_ERROR_CHARS {
            break;
        }
    }
    let rest = chars.count();
    if rest > 0 {
        out.push_str(&format!("... ({rest} more characters)"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_exact() {
        assert_eq!(Reply::BestMove { mv: None, ponder: None }.to_string(), "bestmove resign");
        assert_eq!(
            Reply::BestMove { mv: Some("2e2d".into()), ponder: Some("3b3c".into()) }.to_string(),
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
        assert_eq!(info.to_string(), "info depth 3 seldepth 5 score mate -2 nodes 10 nps 0 time 0 hashfull 0 pv a");
        assert_eq!(Reply::Checkmate(MateResult::NoMate).to_string(), "checkmate nomate");
    }

    /// Class 10: input echoed in an error line is escaped and cut.
    #[test]
    fn control_bytes_are_escaped_and_long_input_cut_in_error_lines() {
        let line = Reply::Error("takes no arguments, got 'x\rbestmove 1e1d\ry\u{0}\u{1b}[2J'".into()).to_string();
        assert!(!line.chars().any(|c| c.is_control()), "{line:?}");
        assert!(line.contains("x\\rbestmove 1e1d\\ry"), "{line}");
        let huge = "v".repeat(1 << 20);
        let line = Reply::Error(format!("option X: bad value '{huge}'")).to_string();
        assert!(line.len() < 400, "{} bytes", line.len());
        assert!(
            line.ends_with(&format!("... ({} more characters)", (1 << 20) + 22 - MAX_ERROR_CHARS)),
            "{}",
            &line[300..]
        );
    }
}
