//! Number Shogi played perfectly (issue 33): the engine's placement from the solved
//! game's optimal mix, the shipped table's proven moves, the solver beyond the table, and
//! the table itself re-solved on a sample of its entries.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use koma::engine::{Engine, Event};
use koma::game::{Color, Game, Outcome};
use koma::games::numbershogi::solution::{self, format_arrangement, parse_arrangement, setup_position, Arrangement};
use koma::games::numbershogi::Table;
use koma::protocol::parse_command;
use koma::search::solve::{Budget, Solver, Value};

use crate::common::Koma;

const WAIT: Duration = Duration::from_secs(20);

fn numbershogi() -> Koma {
    let mut k = Koma::spawn();
    k.send("setoption name USI_Variant value numbershogi");
    k.read_until("info string variant", WAIT);
    k
}

/// The arrangement a side placed, read from a finished placement (owner's view).
fn placed(k: &mut Koma, color: Color) -> Arrangement {
    k.send("d");
    let sfen = k.read_until("sfen ", WAIT).pop().unwrap();
    let pos = koma::games::numbershogi::NumberShogi::from_sfen(sfen.trim_start_matches("sfen "), &Default::default())
        .expect("the engine's SFEN reads");
    let (s, g) = solution::setup_of(&pos).expect("a finished setup");
    if color == Color::Sente {
        s
    } else {
        g
    }
}

/// Lets the engine place both sides' pieces (book moves), twelve plies.
fn engine_setup(k: &mut Koma) -> (Arrangement, Arrangement) {
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..12 {
        k.send(&format!("position startpos moves {}", moves.join(" ")));
        k.send("go btime 1000 wtime 1000 byoyomi 100");
        let best = k.read_until("bestmove", WAIT).pop().unwrap();
        moves.push(best.split_whitespace().nth(1).unwrap().to_string());
    }
    k.send(&format!("position startpos moves {}", moves.join(" ")));
    (placed(k, Color::Sente), placed(k, Color::Gote))
}

#[test]
fn placement_draws_from_the_optimal_mix_and_a_seed_repeats_it() {
    let table = solution::builtin().unwrap();
    let support = |c: Color| table.mix[c.index()].iter().map(|m| m.0).collect::<Vec<_>>();
    let mut runs = Vec::new();
    for _ in 0..2 {
        let mut k = numbershogi();
        k.send("setoption name BookSeed value 12345");
        let (s, g) = engine_setup(&mut k);
        assert!(support(Color::Sente).contains(&s), "sente placed {s:?}, not in its mix");
        assert!(support(Color::Gote).contains(&g), "gote placed {g:?}, not in its mix");
        runs.push((s, g));
    }
    assert_eq!(runs[0], runs[1], "the same seed places the same way");
}

#[test]
fn a_fixed_arrangement_is_placed_as_given_and_a_bad_one_refused() {
    let mut k = numbershogi();
    k.send("setoption name NumberShogiArrangement value 123456");
    let (s, g) = engine_setup(&mut k);
    assert_eq!((s, g), ([1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 5, 6]));
    let line = k.ask("setoption name NumberShogiArrangement value 123457");
    assert!(line.starts_with("info string error: option NumberShogiArrangement: bad value"), "{line}");
}

#[test]
fn at_a_solved_setup_the_engine_plays_the_tables_move_and_says_it_is_proven() {
    let table = solution::builtin().unwrap();
    let (s, g) = ([6, 5, 3, 2, 4, 1], [6, 5, 3, 2, 4, 1]);
    let pos = setup_position(&s, &g, Default::default());
    let entry = table.entry(&pos).expect("the study's setup against itself is in the table");
    let mut k = numbershogi();
    k.send(&format!("position sfen {}", pos.to_sfen()));
    k.send("go btime 1000 wtime 1000 byoyomi 1000");
    let lines = k.read_until("bestmove", WAIT);
    let n = entry.plies as i32;
    let mate = if entry.outcome == Outcome::Win { n } else { -n };
    assert!(lines.iter().any(|l| l.contains(&format!("score mate {mate} "))), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("info string solved:") && l.contains("shipped table")), "{lines:?}");
    assert_eq!(lines.last().unwrap(), &format!("bestmove {}", pos.format_move(entry.best)));
}

#[test]
fn beyond_the_table_the_solver_proves_the_move_and_depth_limits_still_search() {
    // A position after the setup, gote to move: not in the table.
    let pos = setup_position(&[6, 5, 3, 2, 4, 1], &[6, 5, 3, 2, 4, 1], Default::default());
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let first = pos.format_move(moves[0]);
    let mut k = numbershogi();
    k.send(&format!("position sfen {} moves {first}", pos.to_sfen()));
    // A long byoyomi: the solver's share (half) is far more than it needs on a busy
    // machine, and a proof answers at once, so this does not wait for the clock.
    k.send("go btime 0 wtime 0 byoyomi 120000");
    let lines = k.read_until("bestmove", Duration::from_secs(120));
    assert!(lines.iter().any(|l| l.contains("info string solved:") && l.contains("the solver")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains(" score mate ")), "{lines:?}");
    // `go depth` asks for the search, and gets it.
    k.send("go depth 3");
    let lines = k.read_until("bestmove", WAIT);
    assert!(!lines.iter().any(|l| l.contains("solved:")), "{lines:?}");
}

#[test]
fn the_table_option_takes_none_and_refuses_a_bad_file() {
    let mut k = numbershogi();
    let line = k.ask("setoption name NumberShogiSolution value /no/such/file");
    assert!(line.starts_with("info string error: option NumberShogiSolution: bad value"), "{line}");
    let dir = std::env::temp_dir().join(format!("koma-solution-{}", std::process::id()));
    std::fs::write(&dir, "koma-numbershogi-solution 1\nnot a table\n").unwrap();
    let line = k.ask(&format!("setoption name NumberShogiSolution value {}", dir.display()));
    assert!(line.contains("bad value") && line.contains("truncated"), "{line}");
    std::fs::remove_file(&dir).unwrap();
    // With the table switched off, a solved setup is proven by the solver instead.
    k.send("setoption name NumberShogiSolution value none");
    let pos = setup_position(&[6, 5, 3, 2, 4, 1], &[6, 5, 3, 2, 4, 1], Default::default());
    k.send(&format!("position sfen {}", pos.to_sfen()));
    // A long byoyomi: the solver's share (half) is far more than it needs on a busy
    // machine, and a proof answers at once, so this does not wait for the clock.
    k.send("go btime 0 wtime 0 byoyomi 120000");
    let lines = k.read_until("bestmove", Duration::from_secs(120));
    assert!(lines.iter().any(|l| l.contains("info string solved:") && l.contains("the solver")), "{lines:?}");
}

/// The table format's checksum, FNV-1a 64 (protocol/numbershogi-solved.md).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// A valid table of one setup (and its mirror image): the shipped table's rules, value
/// and mixes, with its `n`th entry. Its text and that entry line.
fn one_entry_table(n: usize) -> (String, String) {
    let lines: Vec<&str> = solution::BUILTIN.lines().collect();
    let body = format!("{}\n{}\n", lines[..6].join("\n"), lines[6 + n]);
    (format!("{body}end 1 {:016x}\n", fnv1a(body.as_bytes())), lines[6 + n].to_string())
}

/// The library's engine in this process (where its tables can be counted), driven by USI
/// lines; what it says, as text.
struct InProcess {
    engine: Engine,
    said: Arc<Mutex<Vec<String>>>,
}

impl InProcess {
    fn new() -> InProcess {
        let said = Arc::new(Mutex::new(Vec::new()));
        let to = Arc::clone(&said);
        let engine = Engine::new(Arc::new(move |e: Event| to.lock().unwrap().push(format!("{e:?}"))));
        InProcess { engine, said }
    }

    /// Sends a line and waits for a search it starts.
    fn send(&mut self, line: &str) {
        self.engine.handle(parse_command(line).unwrap().unwrap());
        self.engine.wait_for_limited_job();
    }

    fn said(&self) -> Vec<String> {
        self.said.lock().unwrap().clone()
    }
}

/// Issue 55, item 6: a file's table is held by the games that set it, shared by those
/// that read the same contents, and dropped when none holds it (it used to stay in
/// memory until exit: 50 files, 50 tables).
#[test]
fn row6_fifty_table_files_set_in_turn_leave_one_table_in_memory() {
    let dir = std::env::temp_dir().join(format!("koma-tables-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut e = InProcess::new();
    e.send("setoption name USI_Variant value numbershogi");
    for n in 0..50 {
        let path = dir.join(format!("{n}.txt"));
        std::fs::write(&path, one_entry_table(n).0).unwrap();
        e.send(&format!("setoption name NumberShogiSolution value {}", path.display()));
        assert_eq!(solution::live_tables(), 1, "after the file of entry {n}");
    }
    // The same contents under another name, read while the engine holds them: the same
    // table, by the engine and by another reader alike.
    let again = dir.join("again.txt");
    std::fs::copy(dir.join("49.txt"), &again).unwrap();
    let other = Table::parse(&again.display().to_string()).unwrap();
    assert_eq!(solution::live_tables(), 1);
    e.send(&format!("setoption name NumberShogiSolution value {}", again.display()));
    assert_eq!(solution::live_tables(), 1);
    drop(other);
    // The engine plays the file's table: its setup is answered from it.
    let entry = one_entry_table(49).1;
    let fields: Vec<&str> = entry.split_whitespace().collect();
    let (s, g) = (parse_arrangement(fields[0]).unwrap(), parse_arrangement(fields[1]).unwrap());
    e.send(&format!("position sfen {}", setup_position(&s, &g, Default::default()).to_sfen()));
    e.send("go btime 0 wtime 0 byoyomi 1000");
    let said = e.said();
    assert!(said.iter().any(|l| l.contains("solved")), "{said:?}");
    assert!(said.last().unwrap().contains(&format!("Some(\"{}\")", fields[3])), "{said:?}");
    // The solver keeps the rules of the last search that used it, and lets go of the
    // table at the next.
    e.send("position sfen df1/ECB/cf1/3/D+eA b Ba 33");
    e.send("go btime 0 wtime 0 byoyomi 100");
    e.send("setoption name NumberShogiSolution value none");
    assert_eq!(solution::live_tables(), 1, "the solver's copy of the rules");
    e.send("go btime 0 wtime 0 byoyomi 100");
    assert_eq!(solution::live_tables(), 0);
    assert!(!e.said().iter().any(|l| l.starts_with("Error")), "{:?}", e.said());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A seeded sample of the shipped entries, each re-solved from scratch: the same value
/// and length, and the table's move keeps the value.
#[test]
fn a_sample_of_the_shipped_entries_re_solves_the_same() {
    let table = solution::builtin().unwrap();
    let mut rng = fastrand::Rng::with_seed(33);
    let all = table.setups();
    assert!(all.len() >= 720, "the table holds at least the certifying row");
    for _ in 0..24 {
        let (s, g) = all[rng.usize(..all.len())];
        let pos = setup_position(&s, &g, Default::default());
        let e = table.entry(&pos).unwrap();
        let budget = Budget { max_ms: Some(60_000), ..Budget::default() };
        let got = Solver::new().solve(&pos, &budget);
        let value = Value::from(e.outcome);
        let what = format!("{} vs {}", format_arrangement(&s), format_arrangement(&g));
        assert_eq!((got.value, got.plies), (Some(value), e.plies), "{what}");
        // The table's move keeps the value: the child is lost/won in exactly plies - 1.
        let mut child = pos.clone();
        child.play(e.best);
        let after = Solver::new().solve(&child, &budget);
        let flipped = match value {
            Value::Win => Value::Loss,
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
        };
        assert_eq!(after.value, Some(flipped), "{what}: the table's move");
        assert_eq!(after.plies + 1, e.plies, "{what}: the table's move keeps the distance");
    }
}
