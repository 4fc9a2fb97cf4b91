//! Transcripts (format: `protocol/transcripts.md`, engine: `koma::cli::transcript`):
//! every fixture in `fixtures/transcripts/` replays against the binary through the same
//! code as `koma replay`; `koma --record` writes sessions of every game that replay; a
//! changed expectation fails with its line number.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn koma() -> PathBuf {
    assert_cmd::cargo::cargo_bin("koma")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-transcripts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn every_transcript_replays() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/transcripts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/transcripts exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "expected transcript fixtures in {}", dir.display());
    let failures: Vec<String> =
        files.iter().filter_map(|p| koma::cli::transcript::replay_file(p, &koma()).err()).collect();
    assert!(failures.is_empty(), "{} of {} transcripts failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}

/// Plays a session as a GUI does (waiting for each `bestmove`) with `koma --record`,
/// and returns the transcript it wrote.
fn record(path: &Path, variant: &str) -> String {
    let mut child = Command::new(koma())
        .arg("--record")
        .arg(path)
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koma starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut read_until = |prefix: &str| -> String {
        loop {
            let mut l = String::new();
            assert!(out.read_line(&mut l).unwrap() > 0, "koma ended before '{prefix}'");
            if l.starts_with(prefix) {
                return l.trim_end().to_string();
            }
        }
    };
    let mut send = |l: &str| writeln!(stdin, "{l}").unwrap();
    send("usi");
    read_until("usiok");
    send(&format!("setoption name USI_Variant value {variant}"));
    send("isready");
    read_until("readyok");
    send("position startpos");
    send("go depth 3");
    let best = read_until("bestmove ");
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    send(&format!("position startpos moves {mv}"));
    send("d");
    read_until("sfen ");
    send("moves");
    send("go perft 2");
    read_until("Nodes searched");
    send("go btime 0 wtime 0 byoyomi 50");
    read_until("bestmove ");
    send("go depth 2");
    send("isready");
    // readyok and the bestmove, in whichever order they come.
    let (mut ready, mut best) = (false, false);
    while !(ready && best) {
        let l = read_until("");
        ready |= l == "readyok";
        best |= l.starts_with("bestmove ");
    }
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    std::fs::read_to_string(path).unwrap()
}

fn replay(files: &[&Path]) -> (bool, String) {
    let out = Command::new(koma()).arg("replay").args(files).env_remove("RUST_LOG").output().unwrap();
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    (out.status.success(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn recorded_sessions_of_every_game_replay() {
    let mut searched = 0;
    for variant in koma::games::names() {
        let path = scratch(&format!("{variant}.txt"));
        let text = record(&path, variant);
        // The fixed-depth search is kept line for line with its scores and PVs, its
        // figures as patterns (games with a placement book answer from the book).
        if text.contains("\n> go depth 3\n<re ^info depth 1 seldepth \\d+ score ") {
            assert!(text.contains(" nodes \\d+ nps \\d+ time \\d+ hashfull \\d+ pv "), "{variant}:\n{text}");
            searched += 1;
        } else {
            assert!(text.contains("\n> go depth 3\n<...re ^info string book move \\S+$"), "{variant}:\n{text}");
        }
        // The timed search only by its shape.
        let timed = text.split("> go btime 0 wtime 0 byoyomi 50\n").nth(1).unwrap().split("\n>").next().unwrap();
        assert!(timed.ends_with("<...re ^bestmove \\S+( ponder \\S+)?$"), "{variant}:\n{text}");
        assert!(!timed.contains("info depth"), "{variant}:\n{text}");
        assert!(text.contains("\n> d\n<"), "{variant}:\n{text}");
        let (ok, out) = replay(&[&path]);
        assert!(ok, "{variant}: {out}\n{text}");
        assert_eq!(out, format!("{}: ok\n", path.display()));
    }
    assert!(searched >= 3, "only {searched} games searched from their start position");
}

#[test]
fn a_changed_expectation_fails_with_its_line_number() {
    let good = scratch("good.txt");
    let text = record(&good, "kokesu");
    // Change the expected `moves` line (the line after `> moves`).
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| *l == "> moves").unwrap() + 1;
    assert!(lines[at].starts_with("< "), "{}", lines[at]);
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[at] = "< 1a1b".to_string();
    let bad = scratch("bad.txt");
    std::fs::write(&bad, changed.join("\n") + "\n").unwrap();
    let (ok, out) = replay(&[&good, &bad]);
    assert!(!ok, "{out}");
    let got: Vec<&str> = out.lines().collect();
    assert_eq!(got.len(), 2, "{out}");
    assert_eq!(got[0], format!("{}: ok", good.display()));
    let want = format!("{}:{}: expected '1a1b', got '{}'", bad.display(), at + 1, &lines[at][2..]);
    assert_eq!(got[1], want);
}

#[test]
fn consecutive_skips_find_their_lines_in_any_order() {
    // `readyok` comes before the `moves` line (both answered in order); the transcript
    // asks for them the other way round.
    let path = scratch("any_order.txt");
    let text = "> isready\n> moves\n<... K*\n<... readyok\n> isready\n< readyok\n";
    std::fs::write(&path, text).unwrap();
    let (ok, out) = replay(&[&path]);
    assert!(ok, "{out}");
    // Once another directive has moved on, a passed line is gone.
    let text = "> isready\n> moves\n<... K*\n> isready\n< readyok\n<... readyok\n";
    std::fs::write(&path, text).unwrap();
    let (ok, out) = replay(&[&path]);
    assert!(!ok, "{out}");
    assert!(out.starts_with(&format!("{}:6: expected a line starting 'readyok'", path.display())), "{out}");
}

#[test]
fn a_command_line_quit_lets_a_limited_search_finish() {
    // `go depth 9` takes far longer than the moment `quit` follows it.
    let out = Command::new(koma())
        .args(["setoption name USI_Variant value kokesu", "position startpos", "go depth 9", "quit"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\ninfo depth 9 "), "{text}");
    assert!(text.lines().last().unwrap().starts_with("bestmove "), "{text}");
}

/// Issue 36: an engine that dies was reported as "got nothing within 20s".
#[test]
fn replay_says_when_the_engine_exited_with_its_status_and_stderr() {
    use std::os::unix::fs::PermissionsExt;
    let engine = scratch("dies.sh");
    std::fs::write(&engine, "#!/bin/sh\nread line\necho 'thread main panicked: boom' >&2\nexit 3\n").unwrap();
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).unwrap();
    let transcript = scratch("dies.txt");
    std::fs::write(&transcript, "> isready\n< readyok\n").unwrap();
    let started = std::time::Instant::now();
    let err = koma::cli::transcript::replay_file(&transcript, &engine).unwrap_err();
    assert!(err.contains("the engine exited (exit status: 3)"), "{err}");
    assert!(err.contains("thread main panicked: boom"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "reported at once, not after the line timeout");
}

/// Issue 36: a stopped `go perft` or `bench`, and a UCI search with `movestogo`, were
/// recorded as exact lines that never replay.
#[test]
fn recorded_stopped_counts_and_uci_clock_searches_replay() {
    let sessions: [&[&str]; 2] = [
        &["position startpos", "go perft 12", "~stop", "bench 30", "~stop", "go perft 2"],
        &["uci", "setoption name UCI_Variant value kokesu", "position startpos", "go wtime 300 btime 300 movestogo 10"],
    ];
    for (i, lines) in sessions.iter().enumerate() {
        let path = scratch(&format!("stopped-{i}.txt"));
        let mut child = Command::new(koma())
            .arg("--record")
            .arg(&path)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        for line in lines.iter() {
            // `~`: sent a moment later, while the count runs.
            let line = match line.strip_prefix('~') {
                Some(l) => {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    l
                }
                None => line,
            };
            writeln!(stdin, "{line}").unwrap();
        }
        drop(stdin);
        assert!(child.wait().unwrap().success());
        koma::cli::transcript::replay_file(&path, &koma()).unwrap_or_else(|e| panic!("session {i}: {e}"));
    }
}
