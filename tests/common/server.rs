//! A `koma serve` process for the server and browser tests: started on a free port, its
//! address read from its first line, killed when dropped.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    stderr: Option<std::process::ChildStderr>,
    /// Kept open: a closed pipe would fail the server's later lines.
    _stdout: BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:PORT/`
    pub url: String,
}

impl Server {
    /// `koma serve --port 0 --hash 1` with `extra` arguments (`--hash` among them
    /// replaces the 1).
    pub fn start(extra: &[&str]) -> Server {
        let hash: &[&str] = if extra.contains(&"--hash") { &[] } else { &["--hash", "1"] };
        let mut child = Command::new(super::koma_path())
            .args(["serve", "--port", "0"])
            .args(hash)
            .args(extra)
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("koma serve starts");
        let mut first = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        stdout.read_line(&mut first).expect("a first line");
        let url = first.trim().rsplit(' ').next().unwrap_or_default().to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "koma serve said: {first:?}");
        let stderr = child.stderr.take();
        Server { child, stderr, _stdout: stdout, url }
    }

    /// `ws://127.0.0.1:PORT/ws`
    pub fn ws_url(&self) -> String {
        format!("{}ws", self.url.replacen("http://", "ws://", 1))
    }

    /// `127.0.0.1:PORT`
    pub fn host(&self) -> String {
        self.url.trim_start_matches("http://").trim_end_matches('/').to_string()
    }

    /// A figure of the process's `/proc/PID/status`, e.g. `Threads` or `VmRSS` (kB).
    pub fn status(&self, field: &str) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
            .unwrap_or(0)
    }

    /// The CPU time the process has used, in clock ticks (user + system).
    pub fn cpu_ticks(&self) -> u64 {
        let text = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // The fields after the command name, which is in parentheses.
        let rest = text.rsplit_once(')').map_or("", |(_, r)| r);
        let f: Vec<&str> = rest.split_whitespace().collect();
        let tick = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        tick(11) + tick(12)
    }

    /// Whether the process still runs.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Ends the server; returns what it wrote on stderr (nothing, unless RUST_LOG asked).
    pub fn stop(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut err = String::new();
        if let Some(mut s) = self.stderr.take() {
            let _ = s.read_to_string(&mut err);
        }
        err
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
