//! Drives the real `koma` binary over pipes, line by line, as a GUI does.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// A position of each game where the search has work to do (after the placements).
pub const SEARCH_POSITIONS: [(&str, &str); 5] = [
    ("shogi66", "position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a"),
    ("kokesu", "position startpos"),
    ("numbershogi", "position startpos moves D*3d C*3a A*2d F*2a E*1d B*1a B*3e E*3b F*2e A*2b C*1e D*1b"),
    ("kanishogi", "position startpos"),
    ("kaninariebi", "position startpos"),
];

/// The line that makes the test suite's Python: `.venv` with the tools (the root
/// `pyproject.toml`, with its test extras) and the binding (`./python`).
pub const VENV_SETUP: &str = "python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]' ./python";

pub fn koma_path() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("koma")
}

/// A running engine process.
pub struct Koma {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    stderr: std::thread::JoinHandle<String>,
    /// Every line the engine printed so far.
    pub transcript: Vec<String>,
}

impl Koma {
    pub fn spawn() -> Koma {
        Self::spawn_with_env(&[])
    }

    pub fn spawn_with_env(env: &[(&str, &str)]) -> Koma {
        let mut cmd = Command::new(koma_path());
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).env_remove("RUST_LOG");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("koma starts");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let stdin = child.stdin.take();
        Koma { child, stdin, lines: rx, stderr, transcript: Vec::new() }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("write to koma");
        stdin.flush().expect("flush");
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to koma");
        stdin.flush().expect("flush");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_input(&mut self) {
        drop(self.stdin.take());
    }

    /// The next output line, or `None` after `timeout`.
    pub fn next_line_timed(&mut self, timeout: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(timeout) {
            Ok((t, l)) => {
                self.transcript.push(l.clone());
                Some((t, l))
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        self.next_line_timed(timeout).map(|x| x.1)
    }

    /// Reads lines until one starts with `prefix`; returns all lines read, that one last.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                None => panic!("no line starting with '{prefix}' within {timeout:?}; got {got:?}"),
            }
        }
    }

    /// Sends `line` and returns the single reply line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.next_line(Duration::from_secs(10)).unwrap_or_else(|| panic!("no reply to '{line}'"))
    }

    /// The legal moves in the current position.
    pub fn moves(&mut self) -> Vec<String> {
        let l = self.ask("moves");
        l.split_whitespace().map(str::to_string).collect()
    }

    /// Asserts that nothing more is printed within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some(l) = self.next_line(wait) {
            panic!("unexpected output: {l}");
        }
    }

    /// Closes stdin and waits for the process; returns (exit success, remaining stdout, stderr).
    pub fn finish(mut self) -> (bool, Vec<String>, String) {
        drop(self.stdin.take());
        let status = match self.child.wait_timeout(Duration::from_secs(10)) {
            Ok(Some(s)) => Some(s),
            _ => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                None
            }
        };
        let mut rest = Vec::new();
        while let Ok((_, l)) = self.lines.recv_timeout(Duration::from_millis(200)) {
            rest.push(l);
        }
        let stderr = self.stderr.join().unwrap_or_default();
        (status.is_some_and(|s| s.success()), rest, stderr)
    }
}

pub mod crab;
pub mod nnue;
pub mod server;
pub mod source;
