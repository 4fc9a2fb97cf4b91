//! Kokesu's network evaluation (issue 34): accumulators kept up to date equal ones made
//! from scratch, the SIMD and portable kernels agree, bad net files and option values are
//! refused with one error each, the option switches the evaluation, and the data and
//! training commands run end to end.

use std::path::PathBuf;
use std::process::Command;

use crate::common::nnue::{errors, koma_lines, koma_succeeds};

use koma::game::{Game, Strategy};
use koma::games::kokesu::nnue::{refreshed, stats, Squares, FEATURES, NETS, WIDTH};
use koma::games::kokesu::{Kokesu, KokesuRules};
use koma::games::nnue::stack::{self, Local};
use koma::games::nnue::{format, Kernels};

/// A width the trainer writes and Kokesu does not read (its own is [`WIDTH`]).
const OTHER: usize = if WIDTH == 128 { 256 } else { 128 };

/// A width wider than Kokesu's, which no game of this build uses.
const WIDER: usize = 512;

/// The one error a net of the `OTHER` width gets.
fn refused_width() -> String {
    format!("the accumulator width is {OTHER} in the header; this koma needs {WIDTH}")
}

fn rules(eval: &str) -> KokesuRules {
    let mut r = KokesuRules::default();
    Kokesu::set_rule(&mut r, "KokesuEval", eval).expect("the built-in net loads");
    r
}

/// Positions along random games (a pass now and then), each with its parent.
fn random_walk(seed: u64, games: usize, rules: &KokesuRules, visit: impl FnMut(&Kokesu, &Kokesu, bool)) {
    crate::common::nnue::random_walk(seed, games, 120, false, || Kokesu::startpos(rules), visit);
}

fn child_side(pos: &Kokesu) -> usize {
    usize::from(pos.side_to_move() == koma::game::Color::Gote)
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("koma-nnue-test-{}-{name}", std::process::id()))
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_random_moves() {
    let rules = rules("nnue");
    let net = NETS.builtin().unwrap().0;
    let before = stats();
    let mut checked = 0;
    random_walk(1, 30, &rules, |parent, child, look| {
        // The search evaluates most positions, not all: a child whose parent was not looked
        // at gets its accumulators from another board's (an earlier game's at that ply) or
        // from scratch, the others from the parent's.
        if !look {
            return;
        }
        let acc = child.accumulator().unwrap();
        assert_eq!(acc, refreshed(net, child.squares()), "{}", child.to_sfen());
        assert_eq!(child.evaluate(), net.evaluate(&acc, child_side(child)).clamp(-15000, 15000));
        // Back at the parent after the child (copy-make's unmake): still its own.
        assert_eq!(parent.accumulator().unwrap(), refreshed(net, parent.squares()), "{}", parent.to_sfen());
        checked += 1;
    });
    let after = stats();
    assert!(checked > 500, "{checked}");
    assert!(after.updated - before.updated > 300, "{before:?} {after:?}");
    assert!(after.refreshed - before.refreshed > 20, "{before:?} {after:?}");
}

#[test]
fn simd_and_portable_kernels_give_the_same_evaluations() {
    let net = NETS.builtin().unwrap().0;
    if !Kernels::Avx2.available() {
        eprintln!("no AVX2 on this CPU: only the portable kernels run");
        return;
    }
    let (mut portable, mut simd) = (net.clone(), net.clone());
    portable.kernels = Kernels::Portable;
    simd.kernels = Kernels::Avx2;
    let mut seen = 0;
    random_walk(2, 20, &rules("classic"), |_, pos, _| {
        let (a, b) = (refreshed(&portable, pos.squares()), refreshed(&simd, pos.squares()));
        assert_eq!(a, b);
        for side in 0..2 {
            assert_eq!(portable.evaluate(&a, side), simd.evaluate(&a, side), "{}", pos.to_sfen());
        }
        seen += 1;
    });
    assert!(seen > 1000);
}

thread_local! {
    /// The accumulators of a net wider than Kokesu's, as a game of that width keeps them.
    static WIDE: Local<WIDER> = const { Local::new(None) };
}

/// A net 512 wide (random weights): the accumulators the stack keeps, taken as a search
/// takes them (the parent's, then the child's), equal ones made from scratch, and the AVX2
/// and portable kernels give the same accumulators and evaluations.
#[test]
fn a_512_wide_net_keeps_its_accumulators_and_its_kernels_agree() {
    let net = crate::common::nnue::random_net::<WIDER>(FEATURES, 31);
    let (mut portable, mut simd) = (net.clone(), net.clone());
    portable.kernels = Kernels::Portable;
    simd.kernels = if Kernels::Avx2.available() { Kernels::Avx2 } else { Kernels::Portable };
    let before = stack::stats(&WIDE);
    let (mut ply, mut checked) = (0u32, 0);
    random_walk(4, 20, &rules("classic"), |parent, child, look| {
        let take = |pos: &Kokesu, ply| {
            stack::with_accumulator::<Squares, WIDER, _>(&WIDE, net, ply, pos.squares(), |a| a.clone())
        };
        if look {
            assert_eq!(take(parent, ply), stack::refreshed::<Squares, WIDER>(net, parent.squares()));
        }
        let acc = take(child, ply + 1);
        assert_eq!(acc, stack::refreshed::<Squares, WIDER>(net, child.squares()), "{}", child.to_sfen());
        let (a, b) = (
            stack::refreshed::<Squares, WIDER>(&portable, child.squares()),
            stack::refreshed::<Squares, WIDER>(&simd, child.squares()),
        );
        assert_eq!(a, b);
        for side in 0..2 {
            assert_eq!(portable.evaluate(&acc, side), simd.evaluate(&acc, side), "{}", child.to_sfen());
        }
        ply += 1;
        checked += 1;
    });
    let after = stack::stats(&WIDE);
    assert!(checked > 1000, "{checked}");
    assert!(after.updated - before.updated > 1000, "{before:?} {after:?}");
}

#[test]
fn the_option_switches_the_evaluation() {
    let (classic, nnue) = (rules("classic"), rules("nnue"));
    let net = NETS.builtin().unwrap().0;
    let mut differ = 0;
    random_walk(3, 5, &classic, |_, pos, _| {
        let sfen = pos.to_sfen();
        let with_net = Kokesu::from_sfen(&sfen, &nnue).unwrap();
        let acc = refreshed(net, pos.squares());
        let side = usize::from(sfen.contains(" w "));
        let want = net.evaluate(&acc, side).clamp(-15000, 15000);
        assert_eq!(with_net.evaluate(), want, "{sfen}");
        differ += usize::from(with_net.evaluate() != pos.evaluate());
        // Equal positions whatever their accumulators.
        assert_eq!(Kokesu::from_sfen(&sfen, &nnue).unwrap(), with_net);
    });
    assert!(differ > 100, "{differ}");
    let mut r = KokesuRules::default();
    let e = Kokesu::set_rule(&mut r, "KokesuEval", "fast").unwrap_err();
    assert_eq!(e.to_string(), "option KokesuEval: bad value 'fast': expected one of classic, nnue");
    assert_eq!(r, KokesuRules::default());
}

fn bench_nodes(lines: &[String]) -> u64 {
    let total = lines.iter().find_map(|l| l.strip_prefix("Nodes searched  : ")).expect("a bench total");
    total.trim().parse().unwrap()
}

#[test]
fn bad_net_files_are_refused_with_one_error_and_the_evaluation_stays() {
    let good = format::write(NETS.builtin().unwrap().0);
    let mut wrong_magic = good.clone();
    wrong_magic[0] = b'X';
    let mut wrong_width = good.clone();
    wrong_width[20..24].copy_from_slice(&(OTHER as u32).to_le_bytes());
    // A whole net of another width (as `koma nnue-train --width OTHER` writes): refused by
    // its width, not its size.
    let wide = format::write(crate::common::nnue::random_net::<OTHER>(FEATURES, 32));
    let refused = refused_width();
    let cases: [(&str, &[u8], &str); 5] = [
        ("magic", &wrong_magic, "not a koma network"),
        ("width", &wrong_width, &refused),
        ("wide", &wide, &refused),
        ("short", &good[..good.len() - 10], "bytes; its header makes it"),
        ("empty", b"", "shorter than the 64-byte header"),
    ];
    let variant = "setoption name USI_Variant value kokesu";
    let classic = bench_nodes(&koma_lines(&[variant, "setoption name KokesuEval value classic", "bench 4", "quit"]));
    let nnue = bench_nodes(&koma_lines(&[variant, "setoption name KokesuEval value nnue", "bench 4", "quit"]));
    assert_ne!(classic, nnue, "the net searches other trees");
    // The built-in net is the default (it beat the classic evaluation, docs/NNUE.md).
    assert_eq!(bench_nodes(&koma_lines(&[variant, "bench 4", "quit"])), nnue, "the default is the net");
    for (name, bytes, why) in cases {
        let path = temp(name);
        std::fs::write(&path, bytes).unwrap();
        let set_file = format!("setoption name KokesuNetFile value {}", path.display());
        // Set before or after KokesuEval: the file is refused, the evaluation stays.
        let lines = koma_lines(&[variant, &set_file, "setoption name KokesuEval value nnue", "bench 4", "quit"]);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{lines:?}");
        assert!(errs[0].starts_with("info string error: option KokesuNetFile: bad value"), "{}", errs[0]);
        assert!(errs[0].contains(why), "{name}: {}", errs[0]);
        assert_eq!(bench_nodes(&lines), nnue, "{name}: the built-in net stays");
        let lines = koma_lines(&[variant, "setoption name KokesuEval value classic", &set_file, "bench 4", "quit"]);
        assert_eq!((errors(&lines).len(), bench_nodes(&lines)), (1, classic), "{name}");
        let _ = std::fs::remove_file(path);
    }
    let lines = koma_lines(&[variant, "setoption name KokesuEval value fast", "bench 4", "quit"]);
    assert_eq!(
        errors(&lines),
        ["info string error: option KokesuEval: bad value 'fast': expected one of classic, nnue"]
    );
    assert_eq!(bench_nodes(&lines), nnue, "the default stays");
}

#[test]
fn an_evaluation_switch_keeps_the_position_and_a_rules_switch_does_not() {
    let variant = "setoption name USI_Variant value kokesu";
    let moved = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR b - 3";
    let sfen_lines =
        |lines: &[String]| -> Vec<String> { lines.iter().filter(|l| l.starts_with("sfen ")).cloned().collect() };
    let lines = koma_lines(&[
        variant,
        "position startpos moves 4g4e 5b5d",
        "setoption name KokesuEval value nnue",
        "d",
        "setoption name KokesuNetFile value builtin",
        "d",
        // Kokesu's old word for the classic evaluation, still taken.
        "setoption name KokesuEval value linear",
        "d",
        "setoption name KokesuStalemate value loss",
        "d",
        "quit",
    ]);
    let start = "sfen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1".to_string();
    let kept = format!("sfen {moved}");
    assert_eq!(sfen_lines(&lines), [kept.clone(), kept.clone(), kept, start], "{lines:?}");
    let said: Vec<&String> = lines.iter().filter(|l| l.contains("start position of kokesu again")).collect();
    assert_eq!(said, ["info string KokesuStalemate loss: the position is the start position of kokesu again"]);
    // The net scores the kept position: its search is not the classic one's.
    let go = |eval: &str| {
        let set = format!("setoption name KokesuEval value {eval}");
        let lines = koma_lines(&[variant, "position startpos moves 4g4e 5b5d", &set, "go depth 6", "quit"]);
        lines
            .into_iter()
            .filter(|l| l.starts_with("info depth 6 "))
            .map(|l| l.split(" nps ").next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert_ne!(go("nnue"), go("classic"));
    assert_eq!(go("linear"), go("classic"), "the old word is the same evaluation");
}

#[test]
fn data_and_training_commands_run_end_to_end_and_make_a_loadable_net() {
    let (data, net) = (temp("tiny.data"), temp("tiny.nnue"));
    let run = koma_succeeds;
    let d = data.to_str().unwrap();
    // Three games: whether a tiny set's training beats its starting weights is the data's
    // luck; the two games the net (the default evaluation) plays give 15 held-out positions
    // it never improves on, so no net would be written.
    let said = run(&["nnue-data", "--games", "3", "--play-nodes", "100", "--score-nodes", "200", "--out", d]);
    assert!(said.contains("3 games, "), "{said}");
    let file = koma::train::records::parse(&std::fs::read(&data).unwrap()).unwrap();
    assert_eq!(file.feature_set, koma::games::kokesu::nnue::FEATURES.id);
    assert!(file.records.len() > 20, "{}", file.records.len());
    let n = net.to_str().unwrap();
    let said = run(&["nnue-train", "--epochs", "2", "--batch", "64", "--out", n, d, d]);
    assert!(said.contains("duplicates left out") && said.contains("epoch 2: train loss"), "{said}");
    let bytes = std::fs::read(&net).unwrap();
    format::parse::<WIDTH>(&bytes, FEATURES).expect("a loadable net");
    let set_file = format!("setoption name KokesuNetFile value {n}");
    let lines = koma_lines(&[
        "setoption name USI_Variant value kokesu",
        "setoption name KokesuEval value nnue",
        &set_file,
        "go depth 4",
        "quit",
    ]);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:?}");
    // `--width OTHER`: a net of that width, written, which Kokesu (WIDTH wide) refuses by
    // its width; a width the trainer does not have is refused by the option.
    let wide = format!("{n}.{OTHER}");
    let other = OTHER.to_string();
    run(&["nnue-train", "--epochs", "2", "--batch", "64", "--width", &other, "--out", &wide, d, d]);
    format::parse::<OTHER>(&std::fs::read(&wide).unwrap(), FEATURES).expect("a net of the other width");
    let set_file = format!("setoption name KokesuNetFile value {wide}");
    let lines = koma_lines(&["setoption name USI_Variant value kokesu", &set_file, "quit"]);
    let refused = refused_width();
    assert!(matches!(&errors(&lines)[..], [e] if e.contains(&refused)), "{lines:?}");
    let said = Command::new(assert_cmd::cargo::cargo_bin("koma"))
        .args(["nnue-train", "--width", "200", "--out", &wide, d])
        .output()
        .unwrap();
    assert!(!said.status.success());
    assert!(String::from_utf8_lossy(&said.stderr).contains("[possible values: 128, 256, 512]"), "{said:?}");
    let _ = std::fs::remove_file(&wide);
    // Training data that is not data is one error, no net; an output that is an input is
    // refused before anything is read.
    let other = format!("{n}.other");
    let said =
        Command::new(assert_cmd::cargo::cargo_bin("koma")).args(["nnue-train", "--out", &other, n]).output().unwrap();
    assert!(!said.status.success());
    assert!(String::from_utf8_lossy(&said.stdout).contains("not a koma training data file"), "{said:?}");
    assert!(!std::path::Path::new(&other).exists());
    let said = Command::new(assert_cmd::cargo::cargo_bin("koma")).args(["nnue-train", "--out", n, n]).output().unwrap();
    assert!(!said.status.success());
    assert!(String::from_utf8_lossy(&said.stdout).contains("is also the --out file"), "{said:?}");
    let _ = (std::fs::remove_file(data), std::fs::remove_file(net));
}
