//! Issue 44: every file and every argument checked before it is used. One test a row of
//! the issue's table, named after it, and the hostile fuzz of the protocol, the files and
//! the arguments (`hostile_fuzz_...`, a few seconds of work, fixed seeds).
//!
//! A run that regresses to blocking (a FIFO opened for reading waits for a writer) must
//! fail, not hang the suite: every process here runs under [`run`]'s deadline.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{koma_path, Koma};

/// Generous: these runs take milliseconds on an idle machine.
const DEADLINE: Duration = Duration::from_secs(60);
const T: Duration = Duration::from_secs(20);

/// A scratch directory of this test's own, made empty.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A FIFO at `dir/name`, with no writer.
fn fifo(dir: &Path, name: &str) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let path = dir.join(name);
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
    path
}

/// A file of `bytes` bytes of holes (no disk used).
fn sparse(dir: &Path, bytes: u64) -> PathBuf {
    let path = dir.join("sparse.bin");
    std::fs::File::create(&path).unwrap().set_len(bytes).unwrap();
    path
}

/// What a finished koma run said.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs koma with `args`, `stdin` as its input, and kills it at [`DEADLINE`] (the test
/// then fails).
fn run(args: &[&str], stdin: Stdio) -> Run {
    let dir = scratch(&format!("run-{}", fastrand::u64(..)));
    let (out_path, err_path) = (dir.join("out"), dir.join("err"));
    let mut child = Command::new(koma_path())
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(stdin)
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let status = wait_within_deadline(&mut child, &format!("koma {args:?}"));
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    let r = Run { code: status.code(), stdout: read(&out_path), stderr: read(&err_path) };
    std::fs::remove_dir_all(dir).unwrap();
    r
}

/// Waits for `child` to exit; kills it at [`DEADLINE`] and fails, saying `what` was still
/// running.
fn wait_within_deadline(child: &mut std::process::Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("{what} still running after {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn run_with_input(args: &[&str], input: &[u8]) -> Run {
    let dir = scratch(&format!("input-{}", fastrand::u64(..)));
    let path = dir.join("input");
    std::fs::write(&path, input).unwrap();
    let r = run(args, Stdio::from(std::fs::File::open(&path).unwrap()));
    std::fs::remove_dir_all(dir).unwrap();
    r
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn files_read_whole_any_kind_are_refused_by_kind_and_size_and_the_engine_keeps_answering() {
    let dir = scratch("kinds");
    let (pipe, big) = (fifo(&dir, "fifo"), sparse(&dir, 2 << 30));
    let (pipe, big, folder) = (pipe.to_str().unwrap(), big.to_str().unwrap(), dir.to_str().unwrap());
    let mut k = Koma::spawn();
    for (variant, option) in
        [("kokesu", "KokesuNetFile"), ("shogi66", "Shogi66NetFile"), ("numbershogi", "NumberShogiSolution")]
    {
        k.send(&format!("setoption name USI_Variant value {variant}"));
        k.read_until("info string variant", T);
        for (path, why) in [
            ("/dev/zero", "it is a device, not a regular file"),
            (pipe, "it is a FIFO, not a regular file"),
            (folder, "it is a directory, not a regular file"),
            (big, "it is 2147483648 bytes, more than the"),
        ] {
            let l = k.ask(&format!("setoption name {option} value {path}"));
            assert!(l.starts_with(&format!("info string error: option {option}: ")), "{l}");
            assert!(l.contains(why), "{option} {path}: {l}");
            assert_eq!(k.ask("isready"), "readyok");
        }
    }
    let (clean, rest, stderr) = k.finish();
    assert!(clean && rest.is_empty() && stderr.is_empty(), "{rest:?} {stderr}");
    // The subcommands that take a path read it the same way.
    let out = dir.join("net.bin");
    for path in ["/dev/zero", pipe, folder] {
        let r = run(&["nnue-train", "--out", out.to_str().unwrap(), path], Stdio::null());
        assert_eq!(r.code, Some(1), "{path}: {}", r.stdout);
        assert!(r.stdout.starts_with(&format!("error: nnue-train: {path}: it is ")), "{}", r.stdout);
        assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
        let r = run(&["replay", path], Stdio::null());
        assert_eq!(r.code, Some(1), "{path}: {}", r.stdout);
        assert!(r.stdout.starts_with(&format!("{path}: it is ")), "{}", r.stdout);
    }
    assert!(!out.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn no_line_limit_in_analyse_solve_now_64_kib_with_the_input_cut_short_and_the_run_going_on() {
    let mut input = vec![b'x'; 200_000];
    input.extend_from_slice(b"\nstartpos\n");
    let r = run_with_input(&["analyse", "--variant", "kokesu", "--depth", "1"], &input);
    let objects = json_lines(&r.stdout);
    assert_eq!(objects.len(), 2, "{}", r.stdout);
    let error = objects[0]["error"].as_str().unwrap();
    assert_eq!(error, "the line is 200000 bytes, longer than the 65536 a line may have");
    assert!(objects[0]["input"].as_str().unwrap().len() < 300, "the input is cut short");
    assert_eq!(objects[0]["at"], "-:1");
    assert!(objects[1]["bestmove"].is_string(), "{}", objects[1]);
    assert_eq!(r.code, Some(1));
    let r = run_with_input(&["solve"], &input[..200_001]);
    let objects = json_lines(&r.stdout);
    assert_eq!(objects.len(), 1, "{}", r.stdout);
    assert!(objects[0]["error"].as_str().unwrap().contains("longer than the 65536"), "{}", objects[0]);
    assert_eq!(r.code, Some(1));
    // The protocol loop reads lines the same way: one error, and the engine goes on.
    for first in ["", "xboard\n"] {
        let mut input = first.as_bytes().to_vec();
        input.extend(vec![b'y'; 100_000]);
        input.extend_from_slice(if first.is_empty() { b"\nisready\n" } else { b"\nping 7\n" });
        let r = run_with_input(&[], &input);
        let lines: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].contains("a line of 100000 bytes, longer than the 65536 a line may have: ignored"),
            "{lines:?}"
        );
        assert!(lines[1] == "readyok" || lines[1] == "pong 7", "{lines:?}");
    }
}

#[test]
fn stdin_errors_are_said_with_a_non_zero_exit() {
    for tool in ["analyse", "solve"] {
        let r = run(&[tool, "--variant", "numbershogi"], Stdio::from(std::fs::File::open("/tmp").unwrap()));
        let objects = json_lines(&r.stdout);
        assert_eq!(objects.len(), 1, "{tool}: {}", r.stdout);
        let error = objects[0]["error"].as_str().unwrap();
        assert!(error.starts_with("cannot read -: ") && error.contains("directory"), "{tool}: {error}");
        assert_eq!(r.code, Some(1), "{tool}");
        assert!(r.stderr.is_empty(), "{}", r.stderr);
    }
}

/// A small data file of `koma nnue-data` (two games at a few nodes a move).
fn data_file(dir: &Path) -> PathBuf {
    let data = dir.join("kokesu.data");
    let args = ["nnue-data", "--games", "2", "--play-nodes", "30", "--score-nodes", "30", "--out"];
    let r = run(&[&args[..], &[data.to_str().unwrap()]].concat(), Stdio::null());
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    data
}

#[test]
fn training_does_not_overwrite_its_data() {
    let dir = scratch("overwrite");
    let data = data_file(&dir);
    let before = std::fs::read(&data).unwrap();
    let other_spelling = dir.join(".").join("kokesu.data");
    for out in [&data, &other_spelling] {
        let r = run(
            &["nnue-train", "--epochs", "1", "--out", out.to_str().unwrap(), data.to_str().unwrap()],
            Stdio::null(),
        );
        assert_eq!(r.code, Some(1), "{}", r.stdout);
        assert!(r.stdout.contains("the data file is also the --out file"), "{}", r.stdout);
        assert_eq!(std::fs::read(&data).unwrap(), before, "the data is untouched");
    }
    // nnue-data killed before its end leaves the old file whole.
    let out = dir.join("old.data");
    std::fs::write(&out, b"the old file").unwrap();
    let mut child = Command::new(koma_path())
        .args(["nnue-data", "--games", "100000", "--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), b"the old file");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn untrained_nets_are_not_written_as_success() {
    let dir = scratch("untrained");
    let data = data_file(&dir);
    let net = dir.join("net.bin");
    let (net_s, data_s) = (net.to_str().unwrap(), data.to_str().unwrap());
    for (flag, value, range) in [
        ("--holdout", "0", "above 0 and at most 0.5"),
        ("--holdout", "NaN", "above 0 and at most 0.5"),
        ("--holdout", "1", "above 0 and at most 0.5"),
        ("--epochs", "0", "1..=10000"),
        ("--batch", "0", "1..=1048576"),
        ("--lr", "NaN", "above 0 and at most 1"),
        ("--lr", "inf", "above 0 and at most 1"),
        ("--lr", "0", "above 0 and at most 1"),
        ("--lr", "-1", "above 0 and at most 1"),
        ("--lambda", "NaN", "at least 0 and at most 1"),
        ("--eval-k", "0", "above 0 and at most 100000"),
        ("--eval-k", "NaN", "above 0 and at most 100000"),
        ("--weight-decay", "1e9", "at least 0 and at most 100"),
    ] {
        let r = run(&["nnue-train", &format!("{flag}={value}"), "--out", net_s, data_s], Stdio::null());
        assert_eq!(r.code, Some(2), "{flag} {value}: {}", r.stderr);
        assert!(r.stderr.contains(range), "{flag} {value}: {}", r.stderr);
        assert!(!net.exists(), "{flag} {value}");
    }
    // A learning rate too small to move a weight: the loss never improves, and that fails.
    let r = run(&["nnue-train", "--epochs", "2", "--lr", "1e-30", "--out", net_s, data_s], Stdio::null());
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stdout.contains("the held-out loss never fell below the starting weights'"), "{}", r.stdout);
    assert!(!net.exists());
    // A run that learns writes its net.
    let r = run(&["nnue-train", "--epochs", "2", "--out", net_s, data_s], Stdio::null());
    assert_eq!(r.code, Some(0), "{}", r.stdout);
    assert!(net.exists());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn impossible_positions_are_refused_with_the_reason() {
    let mut k = Koma::spawn();
    for (variant, sfen, why) in [
        ("kaninariebi", "5/5/5/5/5 b - 1", "both sides have already won (black: 5 captures, red: 5 captures)"),
        ("kaninariebi", "C4/C4/5/4c/4c b - 1", "both sides have already won (black: 3 captures, red: 3 captures)"),
        ("kaninariebi", "+C+C+C2/5/5/2+c+c+c/5 b - 1", "(black: 3 shrimps, red: 3 shrimps)"),
    ] {
        k.send(&format!("setoption name USI_Variant value {variant}"));
        k.read_until("info string variant", T);
        let l = k.ask(&format!("position sfen {sfen}"));
        assert!(l.starts_with("info string error: position rejected: ") && l.contains(why), "{sfen}: {l}");
    }
}

#[test]
fn paths_printed_raw_are_escaped_on_one_line_and_said_once() {
    let dir = scratch("paths");
    let transcript = dir.join("two\nlines.txt");
    std::fs::write(&transcript, "> isready\n< readyok\n").unwrap();
    let missing = dir.join("no\rsuch.txt");
    let r = run(&["replay", transcript.to_str().unwrap(), missing.to_str().unwrap()], Stdio::null());
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let shown = |p: &Path| p.to_str().unwrap().replace('\n', "\\n").replace('\r', "\\r");
    assert_eq!(lines[0], format!("{}: ok", shown(&transcript)));
    assert!(lines[1].starts_with(&format!("{}: cannot open it: ", shown(&missing))), "{lines:?}");
    assert_eq!(r.code, Some(1));
    // An option's error names its value (the path) once.
    let mut k = Koma::spawn();
    let l = k.ask("setoption name NumberShogiSolution value /no/such/table.txt");
    assert_eq!(l.matches("/no/such/table.txt").count(), 1, "{l}");
    assert!(l.contains("cannot open it"), "{l}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn numbers_are_checked_in_clap_with_the_ranges_stated_in_help() {
    for (args, range) in [
        (&["nnue-data", "--random-plies", "18446744073709551615", "--out", "x"][..], "0..=100"),
        (&["nnue-data", "--games", "0", "--out", "x"][..], "1..=1000000"),
        (&["analyse", "--nodes", "0"][..], "1.."),
        (&["analyse", "--movetime", "0"][..], "1.."),
        (&["analyse", "--depth", "0"][..], "1..=127"),
        (&["analyse", "--depth", "1000"][..], "1..=127"),
        (&["analyse", "--multipv", "65"][..], "1..=64"),
        (&["analyse", "--threads", "0"][..], "1..=256"),
        (&["solve", "--max-nodes", "0"][..], "1.."),
        (&["solve", "--max-ms", "0"][..], "1.."),
    ] {
        let r = run(args, Stdio::null());
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(range), "{args:?}: {}", r.stderr);
        assert!(!Path::new("x").exists());
    }
    for (tool, says) in [
        ("analyse", &["1 to 127", "1 to 64", "1 to 256", "at least 1"][..]),
        ("nnue-data", &["1 to 1000000", "0 to 100"][..]),
        ("nnue-train", &["1 to 10000", "above 0, at most 0.5", "0 to 100)"][..]),
        ("solve", &["at least 1"][..]),
    ] {
        let help = run(&[tool, "--help"], Stdio::null()).stdout;
        for s in says {
            assert!(help.contains(s), "{tool} --help does not say '{s}':\n{help}");
        }
    }
}

#[test]
fn for_the_person_at_the_command_line() {
    // `koma --variant NAME` starts in that game; a first `uci` still picks the dialect.
    let r = run(&["--variant", "kokesu", "d"], Stdio::null());
    assert!(r.stdout.starts_with("info string variant kokesu"), "{}", r.stdout);
    assert!(r.stdout.contains("sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1"), "{}", r.stdout);
    let r = run_with_input(&["--variant", "kokesu"], b"uci\nisready\n");
    assert!(r.stdout.contains("option name UCI_Variant type combo default kokesu"), "{}", r.stdout);
    assert!(r.stdout.ends_with("readyok\n"), "{}", r.stdout);
    let r = run(&["--variant", "chess"], Stdio::null());
    assert_eq!(r.code, Some(2));
    // `koma perft 3`: each argument is a command line; the hint names the one meant.
    let r = run(&["perft", "3"], Stdio::null());
    assert_eq!(
        r.stdout,
        "info string error: unknown command 'perft': each argument is one command line; did you mean koma \"go perft 3\"?\n"
    );
    let help = run(&["replay", "--help"], Stdio::null()).stdout;
    assert!(help.contains("<FILE>...") && help.contains("Transcript files"), "{help}");
}

/// The hostile fuzz, three parts with fixed seeds: random and hostile protocol lines (the
/// engine answers `isready` after each batch and exits cleanly, stderr quiet), hostile
/// paths given to every option and subcommand that takes one (one error, no hang), and
/// random arguments to the subcommands (a clap error or a clean run, never a panic).
#[test]
fn hostile_fuzz_of_protocol_files_and_arguments() {
    let dir = scratch("fuzz");
    let junk = dir.join("junk.bin");
    let mut rng = fastrand::Rng::with_seed(44);
    std::fs::write(&junk, (0..5000).map(|_| rng.u8(..)).collect::<Vec<u8>>()).unwrap();
    let paths: Vec<String> =
        [fifo(&dir, "fifo"), sparse(&dir, 64 << 20), junk, dir.clone(), dir.join("a\nb"), "/dev/zero".into()]
            .iter()
            .map(|p| p.to_str().unwrap().to_string())
            .collect();
    let options = ["KokesuNetFile", "Shogi66NetFile", "NumberShogiSolution", "USI_Hash", "Threads", "USI_Variant"];
    let words = ["position", "startpos", "sfen", "moves", "go", "depth", "1", "stop", "d", "moves", "isready", "0"];

    // The protocol.
    let mut k = Koma::spawn();
    for batch in 0..40 {
        for _ in 0..8 {
            let mut line: Vec<u8> = match rng.usize(..5) {
                0 => (0..rng.usize(..200)).map(|_| rng.u8(..)).filter(|&b| b != b'\n').collect(),
                1 => format!("setoption name {} value {}", options[rng.usize(..6)], paths[rng.usize(..paths.len())])
                    .into_bytes(),
                2 => vec![b'z'; 70_000],
                _ => (0..rng.usize(1..8))
                    .map(|_| words[rng.usize(..words.len())])
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes(),
            };
            line.push(b'\n');
            k.send_bytes(&line);
        }
        k.send("stop");
        k.send("isready");
        let got = k.read_until("readyok", T);
        assert!(got.iter().all(|l| !l.contains("panicked")), "batch {batch}: {got:?}");
    }
    let (clean, _, stderr) = k.finish();
    assert!(clean, "the engine exits cleanly at the end of its input");
    assert!(stderr.is_empty(), "{stderr}");

    // The files.
    for path in &paths {
        for args in [
            vec!["replay", path],
            vec!["nnue-train", "--out", "/nonexistent/net.bin", path],
            vec!["analyse", "--variant", "kokesu", "--depth", "1", path],
            vec!["solve", path],
        ] {
            let r = run(&args, Stdio::null());
            assert!(matches!(r.code, Some(0..=2)), "{args:?}: {:?} {}", r.code, r.stderr);
            assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
        }
    }

    // The arguments.
    let values = ["0", "-1", "1", "NaN", "inf", "1e999", "18446744073709551616", "", "\n", "0.5", "x"];
    let flags: [(&str, &[&str]); 4] = [
        ("analyse", &["--depth", "--nodes", "--movetime", "--multipv", "--threads", "--variant"]),
        ("solve", &["--max-nodes", "--max-ms", "--variant"]),
        (
            "nnue-train",
            &["--epochs", "--batch", "--lr", "--lr-decay", "--lambda", "--holdout", "--eval-k", "--weight-decay"],
        ),
        ("nnue-data", &["--games", "--random-plies", "--play-nodes", "--score-nodes"]),
    ];
    for _ in 0..60 {
        let (tool, names) = flags[rng.usize(..flags.len())];
        let mut args = vec![tool.to_string()];
        for _ in 0..rng.usize(1..4) {
            args.push(names[rng.usize(..names.len())].to_string());
            args.push(values[rng.usize(..values.len())].to_string());
        }
        // Never a long run: one bad value always, and an output that cannot be written.
        match tool {
            "nnue-train" => args.extend(["--epochs", "0", "--out", "/nonexistent/out", "/dev/null"].map(String::from)),
            "nnue-data" => args.extend(["--games", "0", "--out", "/nonexistent/out"].map(String::from)),
            _ => {}
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = run(&args, Stdio::null());
        assert!(matches!(r.code, Some(0..=2)), "{args:?}: {:?} {}", r.code, r.stderr);
        assert!(!r.stderr.contains("panicked"), "{args:?}: {}", r.stderr);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// Issue 53: the engine's and the command line's rows (5, 7, 13, 15, 16). The record
// readers' rows are in hostile_records.rs, the server's in hostile_serve.rs.

/// A record of a short 66-shogi game (the fixture), copied to `dir`.
fn a_record(dir: &Path) -> PathBuf {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/records/rokuroku_20261128_123456.txt");
    let path = dir.join("game.txt");
    std::fs::copy(fixture, &path).unwrap();
    path
}

#[test]
fn row5_an_output_that_is_one_of_the_inputs_is_refused_and_an_unread_fifo_never_waited_for() {
    let dir = scratch("row5");
    let game = a_record(&dir);
    let before = std::fs::read(&game).unwrap();
    let g = game.to_str().unwrap();
    let other_spelling = format!("{}/./game.txt", dir.display());
    for (flag, out) in [("--annotated", g), ("--svg", g), ("--annotated", other_spelling.as_str())] {
        let r = run(&["analyse", "--game", g, "--depth", "1", flag, out], Stdio::null());
        assert_eq!(r.code, Some(2), "{flag} {out}: {}", r.stderr);
        assert!(r.stderr.contains("it is the record read (--game): it would be overwritten"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "nothing analysed: {}", r.stdout);
        assert_eq!(std::fs::read(&game).unwrap(), before, "the record is untouched");
    }
    let both = dir.join("both.out");
    let b = both.to_str().unwrap();
    let r = run(&["analyse", "--game", g, "--depth", "1", "--annotated", b, "--svg", b], Stdio::null());
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--annotated and --svg are one file"), "{}", r.stderr);
    // An output FIFO with no reader: an error at once (under `run`'s deadline), the
    // report itself still written.
    let pipe = fifo(&dir, "graph.svg");
    let r = run(&["analyse", "--game", g, "--depth", "1", "--svg", pipe.to_str().unwrap()], Stdio::null());
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("it is a FIFO that nobody reads"), "{}", r.stderr);
    assert!(r.stdout.lines().count() > 1, "{}", r.stdout);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn row7_number_shogi_positions_no_game_reaches_are_refused_with_the_reason() {
    let mut k = Koma::spawn();
    k.send("setoption name USI_Variant value numbershogi");
    k.read_until("info string variant", T);
    for (sfen, why) in [
        ("bce/d2/3/BC1/DE1 b AFaf 13", "both hands already sum to seven"),
        ("bce/d2/3/BC1/DE1 w AFaf 13", "both hands already sum to seven"),
        ("3/3/3/3/3 b ABCDEFabcdef 7", "a placement phase at ply 7 with 12 drops still to come would run past ply 12"),
        ("3/3/3/3/D2 w ABCEFabcdef 3", "a placement phase at ply 3 with 11 drops still to come"),
    ] {
        let l = k.ask(&format!("position sfen {sfen}"));
        assert!(l.starts_with("info string error: position rejected: ") && l.contains(why), "{sfen}: {l}");
        // Rejected whole: no position to search.
        assert!(k.ask("d").starts_with("info string error: d: the last position command was rejected"), "{sfen}");
    }
    // What a game can reach is still read: one hand holding seven (a finished game), a
    // placement whose ply trails its drops (an SFEN without its ply field), a placement
    // in step.
    for sfen in ["bce/d2/3/BC1/DE1 w AFFa 13", "3/3/3/3/D2 w ABCEFabcdef 2", "3/3/3/3/D2 w ABCEFabcdef"] {
        k.send(&format!("position sfen {sfen}"));
        assert_eq!(k.ask("isready"), "readyok", "{sfen}");
    }
    let (clean, rest, stderr) = k.finish();
    assert!(clean && rest.is_empty() && stderr.is_empty(), "{rest:?} {stderr}");
}

/// `koma` with `RLIMIT_AS` at `bytes`: the memory the system gives runs out there.
#[cfg(target_os = "linux")]
fn koma_with_memory_limit(bytes: u64) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(koma_path());
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).env_remove("RUST_LOG");
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.spawn().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn row13_a_hash_the_memory_cannot_hold_is_an_error_line_and_the_old_table_is_kept() {
    use std::io::Write;
    let mut child = koma_with_memory_limit(2 << 30);
    let mut stdin = child.stdin.take().unwrap();
    let script = "setoption name USI_Hash value 4096\nisready\nsetoption name USI_Hash value 64\nisready\n\
                  position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a\n\
                  go depth 4\nquit\n";
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    wait_within_deadline(&mut child, "koma under a memory limit");
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "no abort: {:?} {stderr}", out.status);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "info string error: option USI_Hash: cannot allocate 4096 MiB (out of memory): the table stays at 16 MiB"
    );
    assert_eq!(&lines[1..3], ["readyok", "readyok"], "64 MiB fits: no error");
    assert!(lines.last().unwrap().starts_with("bestmove "), "{stdout}");
    assert!(lines.iter().filter(|l| l.starts_with("info string error")).count() == 1, "{stdout}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn row15_an_engine_whose_stdout_is_closed_stops_its_search_and_exits() {
    use std::io::Write;
    let mut child = Command::new(koma_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG")
        .spawn()
        .unwrap();
    // The GUI goes away: its end of stdout is closed before the search says anything.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let position = "position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a";
    writeln!(stdin, "{position}\ngo depth 100").unwrap();
    stdin.flush().unwrap();
    // A depth-100 search runs for hours; the first line it cannot write ends it (stdin is
    // still open: the end of input is not what stops it).
    let status = wait_within_deadline(&mut child, "koma searching after its stdout was closed");
    assert_eq!(status.code(), Some(1));
    drop(stdin);
}

#[test]
fn row16_numbers_and_inputs_out_of_range_are_one_error_and_exit_1() {
    let dir = scratch("row16");
    // `<silent` beyond a minute in a replay transcript: an error naming the line.
    let t = dir.join("t.txt");
    std::fs::write(&t, "> isready\n< readyok\n<silent 18446744073709551615\n").unwrap();
    let r = run(&["replay", t.to_str().unwrap()], Stdio::null());
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(
        r.stdout.contains(":3: '<silent' needs milliseconds from 0 to 60000, got '18446744073709551615'"),
        "{}",
        r.stdout
    );
    // stdin a directory: one error line, exit 1.
    let r = run(&[], Stdio::from(std::fs::File::open(&dir).unwrap()));
    assert_eq!(r.code, Some(1));
    assert!(r.stdout.starts_with("info string error: cannot read the input: "), "{}", r.stdout);
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    std::fs::remove_dir_all(dir).unwrap();
}
