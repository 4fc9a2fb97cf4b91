//! Playing levels (issue 42): `SkillLevel`, `USI_LimitStrength` and `USI_Elo` in every
//! dialect, checked values, a weaker but legal choice at a low level, full strength
//! unchanged, and one `bestmove` a `go` in time.

use crate::common;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use common::Koma;

/// Generous: the tests never depend on the machine's speed.
const T: Duration = Duration::from_secs(30);

/// Sente (uppercase) takes a loose queen with a pawn (`4e5d`, e4xd5) or plays anything else.
const FREE_QUEEN: &str = "position sfen 4k3/8/8/3q4/4P3/8/8/4K3 b - 1";

fn bestmove(lines: &[String]) -> String {
    let l = lines.last().expect("a line");
    l.split_whitespace().nth(1).unwrap_or_default().to_string()
}

fn engine(setup: &[String]) -> Koma {
    let mut k = Koma::spawn();
    for line in setup {
        k.send(line);
    }
    let lines = {
        k.send("isready");
        k.read_until("readyok", T)
    };
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    k
}

fn options(variant: &str, extra: &[(&str, &str)]) -> Vec<String> {
    let mut v = vec![format!("setoption name USI_Variant value {variant}")];
    v.extend(extra.iter().map(|(n, x)| format!("setoption name {n} value {x}")));
    v
}

/// The move koma plays in `position` with these options and `go`.
fn play(variant: &str, extra: &[(&str, &str)], position: &str, go: &str) -> (String, Vec<String>) {
    let mut k = engine(&options(variant, extra));
    k.send(position);
    k.send(go);
    let lines = k.read_until("bestmove", T);
    (bestmove(&lines), lines)
}

#[test]
fn the_level_options_are_listed_in_usi_uci_and_cecp() {
    let usi = [
        "option name SkillLevel type spin default 20 min 0 max 20",
        "option name USI_LimitStrength type check default false",
        "option name USI_Elo type spin default 1500 min 100 max 4000",
    ];
    let uci = [
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 100 max 4000",
    ];
    let cecp = [
        "feature option=\"Skill Level -spin 20 0 20\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"UCI_Elo -spin 1500 100 4000\"",
    ];
    let dialects: [(&[&str], &str, [&str; 3]); 3] =
        [(&["usi"], "usiok", usi), (&["uci"], "uciok", uci), (&["xboard", "protover 2"], "feature done=1", cecp)];
    for (hello, last, wants) in dialects {
        let mut k = Koma::spawn();
        for line in hello {
            k.send(line);
        }
        let lines = k.read_until(last, T);
        for want in wants {
            assert!(lines.iter().any(|l| l == want), "{want} not in {lines:?}");
        }
    }
}

#[test]
fn bad_level_values_get_one_error_line_each_and_change_nothing() {
    let cases = [
        ("usi", "setoption name SkillLevel value 21"),
        ("usi", "setoption name SkillLevel value -1"),
        ("usi", "setoption name Skill_Level value many"),
        ("usi", "setoption name USI_Elo value 99"),
        ("usi", "setoption name USI_LimitStrength value maybe"),
        ("usi", "setoption name SkillLevel"),
        ("uci", "setoption name Skill Level value 99"),
        ("uci", "setoption name UCI_Elo value 4001"),
    ];
    for (dialect, line) in cases {
        let mut k = Koma::spawn();
        k.send(dialect);
        k.read_until(&format!("{dialect}ok"), T);
        k.send(line);
        k.send("isready");
        let lines = k.read_until("readyok", T);
        let errors: Vec<_> = lines.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 1, "{line}: {lines:?}");
        assert_eq!(lines.len(), 2, "{line}: {lines:?}");
    }
    // xboard's `option` takes the same checks.
    let mut k = Koma::spawn();
    k.send("xboard");
    k.send("option Skill Level=50");
    k.send("ping 1");
    let lines = k.read_until("pong 1", T);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("Error (option Skill Level: bad value '50'"), "{lines:?}");
}

#[test]
fn full_strength_takes_the_free_queen_and_the_lowest_level_does_not_always() {
    let (full, _) = play("kokesu", &[], FREE_QUEEN, "go depth 6");
    assert_eq!(full, "4e5d");
    // The default level (20) is full strength: the same move and search as without it.
    let (top, lines) = play("kokesu", &[("SkillLevel", "20")], FREE_QUEEN, "go depth 6");
    assert_eq!(top, full);
    assert!(lines.iter().any(|l| l.starts_with("info depth 6 ")), "{lines:?}");

    let mut legal = engine(&options("kokesu", &[]));
    legal.send(FREE_QUEEN);
    let legal: BTreeSet<String> = legal.moves().into_iter().collect();
    let mut played = BTreeSet::new();
    for seed in 1..=12 {
        let seed = seed.to_string();
        let (mv, lines) = play("kokesu", &[("SkillLevel", "0"), ("BookSeed", &seed)], FREE_QUEEN, "go depth 6");
        assert!(legal.contains(&mv), "seed {seed}: {mv} is not legal ({legal:?})");
        // Level 0 looks one ply deep at most, whatever the go asks.
        assert!(!lines.iter().any(|l| l.starts_with("info depth 2 ")), "{lines:?}");
        // A seed repeats its choice.
        let (again, _) = play("kokesu", &[("SkillLevel", "0"), ("BookSeed", &seed)], FREE_QUEEN, "go depth 6");
        assert_eq!(again, mv, "seed {seed}");
        played.insert(mv);
    }
    assert!(played.len() > 1 && played.contains("4e5d"), "level 0 played {played:?} over 12 seeds");
}

#[test]
fn usi_elo_chooses_a_level_only_with_limit_strength() {
    let low = [("USI_Elo", "100")];
    let (_, lines) = play("kokesu", &low, "position startpos", "go depth 5");
    assert!(lines.iter().any(|l| l.starts_with("info depth 5 ")), "USI_Elo alone limits nothing: {lines:?}");
    let limited = [("USI_LimitStrength", "true"), ("USI_Elo", "100"), ("BookSeed", "1")];
    let (_, lines) = play("kokesu", &limited, "position startpos", "go depth 5");
    assert!(lines.iter().any(|l| l.starts_with("info depth 1 ") && l.contains(" multipv 12 ")), "{lines:?}");
    assert!(!lines.iter().any(|l| l.starts_with("info depth 2 ")), "{lines:?}");
}

#[test]
fn every_go_at_a_level_ends_in_one_legal_bestmove_in_its_time() {
    for (variant, position) in common::SEARCH_POSITIONS {
        for level in ["0", "12"] {
            let mut k = engine(&options(variant, &[("SkillLevel", level)]));
            k.send(position);
            let legal = k.moves();
            for go in ["go movetime 300", "go btime 2000 wtime 2000 binc 100 winc 100", "go nodes 5000"] {
                k.send(go);
                let asked = Instant::now();
                let lines = k.read_until("bestmove", T);
                // The move's time (300 ms, or a share of 2 s) with a wide margin for a loaded machine.
                assert!(asked.elapsed() < Duration::from_secs(20), "{variant} level {level} {go}");
                assert!(legal.contains(&bestmove(&lines)), "{variant} level {level} {go}: {lines:?}");
                assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
                k.expect_silence(Duration::from_millis(300));
            }
        }
    }
}

/// Number Shogi after both setups: in the shipped table (a loss in 10 for sente).
const SOLVED: &str = "position sfen adb/cef/3/ABC/DEF b - 13";

#[test]
fn number_shogi_below_the_top_level_plays_no_proven_move() {
    let (_, full) = play("numbershogi", &[], SOLVED, "go movetime 500");
    assert!(full.iter().any(|l| l.starts_with("info string solved: ") && l.ends_with("shipped table")), "{full:?}");
    let (_, limited) = play("numbershogi", &[("SkillLevel", "3")], SOLVED, "go movetime 500");
    assert!(!limited.iter().any(|l| l.starts_with("info string solved: ")), "{limited:?}");
    assert!(limited.iter().any(|l| l.starts_with("info depth 4 ") && l.contains(" multipv ")), "{limited:?}");
}
