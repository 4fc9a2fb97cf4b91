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
    /// `koma serve --port 0 --hash 1` with `extra` arguments.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(super::koma_path())
            .args(["serve", "--port", "0", "--hash", "1"])
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
