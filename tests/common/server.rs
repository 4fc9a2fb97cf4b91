//! A `koma serve` process for the server and browser tests: started on a free port, its
//! address read from its first line, killed when dropped.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    stderr: Option<std::process::ChildStderr>,
    /// Kept open: a closed pipe would fail the server's later lines.
    _stdout: BufReader<std::process::ChildStdout>,
    /// `http://127.0.0.1:PORT/` (a server bound beyond loopback: its address and token
    /// as printed, `http://0.0.0.0:PORT/?token=...`)
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
        let loopback = !extra.contains(&"--bind");
        assert!(url.starts_with(if loopback { "http://127.0.0.1:" } else { "http://" }), "koma serve said: {first:?}");
        let stderr = child.stderr.take();
        Server { child, stderr, _stdout: stdout, url }
    }

    /// `ws://127.0.0.1:PORT/ws` (always through loopback, whatever the server is bound to)
    pub fn ws_url(&self) -> String {
        format!("ws://{}/ws", self.host())
    }

    /// `127.0.0.1:PORT`
    pub fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port())
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        let authority = self.url.trim_start_matches("http://").split('/').next().unwrap_or_default();
        authority.rsplit(':').next().and_then(|p| p.parse().ok()).expect("a port in the printed address")
    }

    /// The token of the printed address (`?token=`), if any.
    pub fn token(&self) -> Option<String> {
        self.url.split_once("?token=").map(|(_, t)| t.to_string())
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
