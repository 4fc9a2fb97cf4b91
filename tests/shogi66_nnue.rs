//! 66 shogi's network evaluation (issue 34): accumulators kept up to date over squares and
//! hand counts equal ones made from scratch, the evaluation switch takes the built-in net
//! or a 66 shogi net file and refuses Kokesu's, the placement phase keeps the classic
//! evaluation, and the data and training commands make a 66 shogi net that koma plays with.

use std::path::PathBuf;
use std::process::Command;

use crate::common::nnue::{errors, koma_lines, koma_succeeds};

use koma::game::{Game, Strategy};
use koma::games::nnue::trainable::Trainable;
use koma::games::nnue::{format, Net};
use koma::games::shogi66::nnue::{refreshed, stats, Network, FEATURES};
use koma::games::shogi66::{Rules, Shogi66};

/// A 66 shogi net of pseudo-random weights (every row differs), for the accumulator tests.
fn random_net(seed: u64) -> &'static Network {
    crate::common::nnue::random_net(FEATURES, seed)
}

fn classic() -> Rules {
    Rules { net: None, file: None }
}

fn with_net(net: &'static Network) -> Rules {
    Rules { net: Some(Net(net)), file: Some(Net(net)) }
}

/// Positions along random games from the start (placement included, captures favoured),
/// each with its parent; `look`: whether the parent was evaluated before the child.
fn random_walk(seed: u64, games: usize, rules: &Rules, visit: impl FnMut(&Shogi66, &Shogi66, bool)) {
    crate::common::nnue::random_walk(seed, games, 150, true, || Shogi66::startpos(rules), visit);
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("koma-s66-nnue-test-{}-{name}", std::process::id()))
}

#[test]
fn incremental_accumulators_equal_a_refresh_over_squares_and_hands() {
    let net = random_net(11);
    let rules = with_net(net);
    let before = stats();
    let (mut checked, mut with_hands) = (0, 0);
    random_walk(5, 30, &rules, |parent, child, look| {
        if !look {
            return;
        }
        let acc = child.accumulator().unwrap();
        assert_eq!(acc, refreshed(net, &child.cells()), "{}", child.to_sfen());
        assert_eq!(parent.accumulator().unwrap(), refreshed(net, &parent.cells()), "{}", parent.to_sfen());
        let side = usize::from(child.side_to_move() == koma::game::Color::Gote);
        if !child.in_placement() {
            assert_eq!(child.evaluate(), net.evaluate(&acc, side).clamp(-15000, 15000), "{}", child.to_sfen());
        }
        checked += 1;
        with_hands += usize::from(!child.in_placement() && child.to_sfen().split(' ').nth(2) != Some("-"));
    });
    let after = stats();
    assert!(checked > 500 && with_hands > 200, "{checked} {with_hands}");
    assert!(after.updated - before.updated > 300, "{before:?} {after:?}");
}

#[test]
fn the_placement_phase_keeps_the_classic_evaluation() {
    let rules = with_net(random_net(12));
    let (mut placing, mut play_differs) = (0, 0);
    random_walk(6, 10, &rules, |_, pos, _| {
        let classic = Shogi66::from_sfen(&pos.to_sfen(), &classic()).unwrap();
        if pos.in_placement() {
            assert_eq!(pos.evaluate(), classic.evaluate(), "{}", pos.to_sfen());
            placing += 1;
        } else {
            play_differs += usize::from(pos.evaluate() != classic.evaluate());
        }
    });
    assert!(placing >= 100 && play_differs > 100, "{placing} {play_differs}");
}

#[test]
fn the_mirror_image_of_a_position_is_a_position_of_the_same_moves() {
    // Mirrored cells set up a legal position with as many legal moves (shogi's rules
    // have no left or right), which is why training on mirror images is sound.
    let mut n = 0;
    random_walk(7, 8, &classic(), |_, pos, _| {
        if pos.in_placement() {
            return;
        }
        let side = usize::from(pos.side_to_move() == koma::game::Color::Gote);
        let mirrored = Shogi66::from_cells(&Shogi66::mirrored(&pos.cells()), side).expect("a position");
        let count = |p: &Shogi66| {
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            v.len()
        };
        assert_eq!(count(&mirrored), count(pos), "{} / {}", pos.to_sfen(), mirrored.to_sfen());
        n += 1;
    });
    assert!(n > 300, "{n}");
}

#[test]
fn the_switch_takes_the_built_in_net_or_a_66_shogi_net_file_and_refuses_kokesus() {
    let good = temp("good.nnue");
    std::fs::write(&good, format::write(random_net(13))).unwrap();
    let kokesu = format::write(koma::games::kokesu::nnue::NETS.builtin().unwrap().0);
    let wrong = temp("kokesu.nnue");
    std::fs::write(&wrong, kokesu).unwrap();
    let set = |name: &str, value: &str| format!("setoption name {name} value {value}");
    let probe = ["position startpos moves K*2f K*5a R*1f R*2a G*3f G*4a S*4f S*3a N*5f N*6a L*6f L*1a", "go depth 5"];
    let depth5 = |lines: &[String]| {
        let at5 = lines.iter().filter(|l| l.starts_with("info depth 5 "));
        at5.map(|l| l.split(" nodes ").next().unwrap().to_string()).collect::<Vec<_>>()
    };
    let search = |setup: &[&str]| {
        let lines = koma_lines(&[setup, &probe[..], &["quit"]].concat());
        assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:?}");
        lines
    };
    let classic = search(&[&set("Shogi66Eval", "classic")]);
    let built_in = search(&[&set("Shogi66Eval", "nnue")]);
    assert!(errors(&built_in).is_empty(), "{built_in:?}");
    assert_ne!(depth5(&built_in), depth5(&classic));
    // Kokesu's net is refused by its feature set, with one error; the built-in net stays.
    let lines = search(&[&set("Shogi66Eval", "nnue"), &set("Shogi66NetFile", wrong.to_str().unwrap())]);
    let e = errors(&lines);
    assert_eq!(e.len(), 1, "{lines:?}");
    assert!(e[0].contains("Shogi66NetFile") && e[0].contains("feature set 1"), "{}", e[0]);
    assert_eq!(depth5(&lines), depth5(&built_in));
    // A 66 shogi net file, set before or after the switch: its own search.
    let file = good.to_str().unwrap();
    let after = search(&[&set("Shogi66Eval", "nnue"), &set("Shogi66NetFile", file)]);
    let before = search(&[&set("Shogi66NetFile", file), &set("Shogi66Eval", "nnue")]);
    assert!(errors(&after).is_empty(), "{after:?}");
    assert_eq!(depth5(&after), depth5(&before));
    assert_ne!(depth5(&after), depth5(&built_in));
    // `builtin` goes back to the built-in net.
    let back = search(&[&set("Shogi66NetFile", file), &set("Shogi66Eval", "nnue"), &set("Shogi66NetFile", "builtin")]);
    assert_eq!(depth5(&back), depth5(&built_in));
    let _ = (std::fs::remove_file(good), std::fs::remove_file(wrong));
}

#[test]
fn data_and_training_commands_make_a_66_shogi_net() {
    let (data, net) = (temp("tiny.data"), temp("tiny.nnue"));
    let run = koma_succeeds;
    let d = data.to_str().unwrap();
    let args = ["nnue-data", "--variant", "shogi66", "--games", "3", "--random-plies", "12"];
    let said = run(&[&args[..], &["--play-nodes", "200", "--score-nodes", "300", "--out", d]].concat());
    assert!(said.contains("3 games, "), "{said}");
    let file = koma::train::records::parse(&std::fs::read(&data).unwrap()).unwrap();
    assert_eq!(file.feature_set, FEATURES.id);
    assert!(file.records.len() > 10, "{}", file.records.len());
    // Every record is a position of play whose cells koma sets up again.
    for r in &file.records {
        let pos = Shogi66::from_cells(&r.cells, r.side as usize).expect("a position");
        assert!(!pos.in_placement());
        assert_eq!(pos.cells(), r.cells);
    }
    let n = net.to_str().unwrap();
    let said = run(&["nnue-train", "--epochs", "2", "--batch", "64", "--out", n, d, d]);
    assert!(said.contains("classic evaluation's") && said.contains("epoch 2: train loss"), "{said}");
    format::parse::<{ koma::games::shogi66::nnue::WIDTH }>(&std::fs::read(&net).unwrap(), FEATURES)
        .expect("a loadable 66 shogi net");
    let lines = koma_lines(&[
        &format!("setoption name Shogi66NetFile value {n}"),
        "setoption name Shogi66Eval value nnue",
        "position startpos moves K*2f K*5a R*1f R*2a G*3f G*4a S*4f S*3a N*5f N*6a L*6f L*1a",
        "go depth 4",
        "quit",
    ]);
    assert!(errors(&lines).is_empty(), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("bestmove ")), "{lines:?}");
    // Kokesu's data and 66 shogi's cannot be mixed in one run.
    let kokesu = temp("kokesu.data");
    let k = kokesu.to_str().unwrap();
    run(&["nnue-data", "--games", "1", "--play-nodes", "100", "--score-nodes", "100", "--out", k]);
    let out =
        Command::new(assert_cmd::cargo::cargo_bin("koma")).args(["nnue-train", "--out", n, d, k]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("one game's data at a time"));
    let _ = (std::fs::remove_file(data), std::fs::remove_file(net), std::fs::remove_file(kokesu));
}
