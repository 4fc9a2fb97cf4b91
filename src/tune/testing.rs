//! The checks every tuned evaluation's tests share: a deterministic sample of positions,
//! the weights files against the schema, the evaluation's colour symmetry, scores pinned
//! in data, the trace against the evaluation.

use super::{format_weights, linear, tapers, Features, Param, Sample};
use crate::game::{Color, Game, Strategy};

/// Positions met by random play from each start: `walks` games of at most `plies`
/// plies, a capture or promotion (if any) chosen half the time; those for which
/// `keep` holds. Deterministic.
pub(crate) fn random_play<G: Strategy>(starts: &[G], walks: usize, plies: usize, keep: impl Fn(&G) -> bool) -> Vec<G> {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for start in starts {
        for _ in 0..walks {
            let mut pos = start.clone();
            for _ in 0..plies {
                if keep(&pos) {
                    out.push(pos.clone());
                }
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() || pos.result().is_some() {
                    break;
                }
                let caps: Vec<_> = moves.iter().copied().filter(|&m| pos.is_tactical(m)).collect();
                let mv =
                    if !caps.is_empty() && next(2) == 0 { caps[next(caps.len())] } else { moves[next(moves.len())] };
                pos.play(mv);
            }
        }
    }
    out
}

/// The `sfen` lines of a perft suite, and the start position.
pub(crate) fn suite_starts<G: Game>(suite: &str, rules: &G::Rules) -> Vec<G> {
    let mut starts: Vec<G> =
        suite.lines().filter_map(|l| l.strip_prefix("sfen ")).map(|s| G::from_sfen(s, rules).unwrap()).collect();
    starts.push(G::startpos(rules));
    starts
}

/// The sample of a game's weights tests: [`random_play`] from the `sfen` lines of
/// the perft suite `suite` and the start position, for each rules value and its
/// number of walks in turn; each position with its rules.
pub(crate) fn sample<G: Strategy>(
    suite: &str,
    rules: &[(G::Rules, usize)],
    plies: usize,
    keep: impl Fn(&G) -> bool,
) -> Vec<(G::Rules, G)> {
    let mut out = Vec::new();
    for (rules, walks) in rules {
        out.extend(
            random_play(&suite_starts::<G>(suite, rules), *walks, plies, &keep).into_iter().map(|g| (rules.clone(), g)),
        );
    }
    out
}

/// The tests of a game's weights as data, declared in its `eval.rs` test module
/// (where `use super::*` brings `PARAMS`, the items of [`crate::weights_files!`],
/// `evaluate_with` and `NoTrace`) beside the game's `sample_positions()` (positions
/// with their rules, from [`sample`]):
/// - `weights_files_round_trip`: both weights files fit the schema, and writing what
///   was read gives the file again (its header comment kept);
/// - `evaluation_is_colour_symmetric`: every one of the (more than `min_positions`)
///   sample positions out of the placement phase scores what the same position
///   with the colours swapped scores (`mirror` turns the SFEN round, usually with
///   [`mirrored_sfen`]), with both weights files;
///   `coverage` (the positions and the initial weights) then checks that the sample
///   reaches the game's rarer terms;
/// - `pinned_scores`: the scores of every n-th sample position with both weights
///   files are those in `fixtures/eval/<dir>.scores` (a deliberate change of the
///   evaluation, the weights or the sample rewrites it:
///   `KOMA_WRITE_SCORES=1 cargo test --release --lib <dir>::eval::tests::pinned_scores`).
macro_rules! weights_tests {
    (
        game: $game:ty,
        dir: $dir:literal,
        mirror: $mirror:expr,
        min_positions: $min:expr,
        coverage: $coverage:expr $(,)?
    ) => {
        /// The scores with the weights in use and with the initial weights.
        fn both_scores(g: &$game) -> [i32; 2] {
            static INITIAL: std::sync::OnceLock<Box<Weights>> = std::sync::OnceLock::new();
            let initial = INITIAL.get_or_init(|| parse(INITIAL_WEIGHTS_TEXT).unwrap());
            [evaluate_with(g, weights(), &mut NoTrace), evaluate_with(g, initial, &mut NoTrace)]
        }

        #[test]
        fn weights_files_round_trip() {
            for text in [WEIGHTS_TEXT, INITIAL_WEIGHTS_TEXT] {
                $crate::tune::testing::check_round_trip(text, &parse(text).unwrap()[..], PARAMS);
            }
        }

        #[test]
        fn evaluation_is_colour_symmetric() {
            let positions = sample_positions();
            assert!(positions.len() > $min, "{}", positions.len());
            $crate::tune::testing::check_symmetry(&positions, $mirror, both_scores);
            let games: Vec<$game> = positions.into_iter().map(|x| x.1).collect();
            let coverage: fn(&[$game], &Weights) = $coverage;
            coverage(&games, &parse(INITIAL_WEIGHTS_TEXT).unwrap());
        }

        #[test]
        fn pinned_scores() {
            let path = concat!("fixtures/eval/", $dir, ".scores");
            $crate::tune::testing::check_pinned(&sample_positions(), path, both_scores);
        }
    };
}
pub(crate) use weights_tests;

/// `text`, a weights file, is what [`format_weights`] writes for its values `w` and
/// its header (the comment lines it starts with).
pub(crate) fn check_round_trip(text: &str, w: &[i32], params: &[Param]) {
    let header: String = text
        .lines()
        .map_while(|l| l.strip_prefix('#'))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    assert_eq!(format_weights(w, params, &header), text);
}

/// The SFEN of `sfen`'s position with the colours swapped: the ranks in reverse
/// order (and each rank reversed too when `rotate`: the shogi-like games' half turn;
/// chess only flips the ranks), upper and lower case swapped on the board and in the
/// hands (sente's hand first again), the other side to move.
pub(crate) fn mirrored_sfen(sfen: &str, rotate: bool) -> String {
    let swap = |s: &str| -> String {
        s.chars().map(|c| if c.is_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect()
    };
    let fields: Vec<&str> = sfen.split(' ').collect();
    let mut ranks: Vec<Vec<String>> = fields[0].split('/').map(rank_cells).collect();
    ranks.reverse();
    if rotate {
        ranks.iter_mut().for_each(|r| r.reverse());
    }
    let board: Vec<String> = ranks.iter().map(|r| rank_text(r, &swap)).collect();
    let mut out = vec![board.join("/")];
    if let Some(side) = fields.get(1) {
        out.push(if *side == "b" { "w" } else { "b" }.to_string());
    }
    if let Some(hands) = fields.get(2) {
        out.push(mirrored_hands(hands, &swap));
    }
    out.extend(fields.iter().skip(3).map(|s| s.to_string()));
    out.join(" ")
}

/// The cells of one SFEN rank: "" for an empty square, else the piece ("+P", "k").
fn rank_cells(rank: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut piece = String::new();
    for c in rank.chars() {
        if let Some(n) = c.to_digit(10).filter(|_| piece.is_empty()) {
            cells.extend(std::iter::repeat_n(String::new(), n as usize));
        } else {
            piece.push(c);
            if c != '+' {
                cells.push(std::mem::take(&mut piece));
            }
        }
    }
    cells
}

/// One SFEN rank from its cells, each piece through `swap`.
fn rank_text(cells: &[String], swap: &dyn Fn(&str) -> String) -> String {
    let (mut text, mut empty) = (String::new(), 0);
    for cell in cells {
        if cell.is_empty() {
            empty += 1;
            continue;
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
            empty = 0;
        }
        text.push_str(&swap(cell));
    }
    if empty > 0 {
        text.push_str(&empty.to_string());
    }
    text
}

/// The hands field with the owners swapped, sente's pieces (upper case) first.
fn mirrored_hands(hands: &str, swap: &dyn Fn(&str) -> String) -> String {
    if hands == "-" {
        return hands.to_string();
    }
    let mut items: Vec<String> = Vec::new();
    let mut count = String::new();
    for c in hands.chars() {
        if c.is_ascii_digit() {
            count.push(c);
        } else {
            items.push(format!("{}{}", std::mem::take(&mut count), swap(&c.to_string())));
        }
    }
    let upper = |s: &String| s.chars().any(|c| c.is_uppercase());
    let (sente, gote): (Vec<String>, Vec<String>) = items.into_iter().partition(upper);
    sente.concat() + &gote.concat()
}

/// Every position out of the placement phase scores (`eval`, the side to move's
/// view) what the same position with the colours swapped (`mirror` of its SFEN)
/// scores.
pub(crate) fn check_symmetry<G: Game>(
    positions: &[(G::Rules, G)],
    mirror: fn(&str) -> String,
    eval: impl Fn(&G) -> [i32; 2],
) {
    for (rules, g) in positions.iter().filter(|x| !x.1.in_placement()) {
        let sfen = g.to_sfen();
        let mirrored = mirror(&sfen);
        let m = G::from_sfen(&mirrored, rules).unwrap_or_else(|e| panic!("{sfen} -> {mirrored}: {e}"));
        assert!(!m.in_placement(), "{sfen} -> {mirrored}: in the placement phase");
        assert_eq!(eval(g), eval(&m), "{sfen} against {mirrored}");
    }
}

/// About this many positions' scores are pinned per game.
const PINNED: usize = 200;

/// The scores `eval` gives every n-th position of `positions` (about [`PINNED`]) are
/// those in the file `path` under the crate, a line `score score sfen` each;
/// `KOMA_WRITE_SCORES=1` writes it first.
pub(crate) fn check_pinned<G: Game>(positions: &[(G::Rules, G)], path: &str, eval: impl Fn(&G) -> [i32; 2]) {
    let step = (positions.len() / PINNED).max(1);
    let lines: Vec<String> = positions
        .iter()
        .step_by(step)
        .map(|(_, g)| {
            let [a, b] = eval(g);
            format!("{a} {b} {}", g.to_sfen())
        })
        .collect();
    let file = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("KOMA_WRITE_SCORES").is_some() {
        let header = "# The evaluation of every n-th position the weights tests sample (src/tune/testing.rs),\n\
                      # side to move's view: with weights.txt, with weights_initial.txt, the position.\n";
        std::fs::write(&file, format!("{header}{}\n", lines.join("\n"))).unwrap();
    }
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let pinned: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(pinned.len(), lines.len(), "{path}: the number of positions");
    for (i, (want, got)) in pinned.iter().zip(&lines).enumerate() {
        assert_eq!(got, want, "{path}, position {}", i + 1);
    }
}

/// The trace's linear form equals the evaluation `eval` with weights `w` (within
/// `tolerance`: a taper's integer division rounds) on every position whose score is
/// not clamped.
pub(crate) fn check_linear_form<G: Game>(
    positions: &[G],
    params: &[Param],
    w: &[i32],
    eval: impl Fn(&G, &mut Features) -> i32,
    mg_share: impl Fn(&G) -> f32,
    tolerance: f64,
) {
    let tapers = tapers(params);
    let wf: Vec<f64> = w.iter().map(|&x| x as f64).collect();
    for g in positions {
        let mut f = Features::default();
        let e = eval(g, &mut f);
        if e.abs() >= 15000 {
            continue;
        }
        let s = Sample { result: 0.5, features: f.finish(&tapers, mg_share(g), g.side_to_move() == Color::Sente) };
        let lin = linear(&wf, &s);
        assert!((lin - e as f64).abs() <= tolerance, "{e} vs {lin}: {}", g.to_sfen());
    }
}
