//! Self-play between two thinking times for the crab games, in process with the engine's
//! own search: `cargo run --release --example crab_match -- VARIANT GAMES FAST_MS SLOW_MS`
//! (VARIANT = kaninariebi | kanishogi). Each pair of games starts from the same two
//! random opening plies with colours swapped. Prints one line per game (its moves and how
//! it ended: the referee's rule, `koma::game::referee`, or the runner's ply cap) and the score of
//! the slower side.

use std::time::{Duration, Instant};

use koma::game::referee::Referee;
use koma::game::{Color, Strategy};
use koma::games::kaninariebi::KaniNariEbi;
use koma::games::kanishogi::KaniShogi;
use koma::search::tt::Table;
use koma::search::{Limits, Searcher, Signals, TimePlan};

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn think<G: Strategy>(pos: &G, history: &[(u64, bool)], ms: u64, tt: &mut Table<G::Move>) -> Option<G::Move> {
    let signals = Signals::default();
    let t = Duration::from_millis(ms);
    let limits = Limits {
        time: TimePlan { optimum: Some(t), maximum: Some(t), minimum: Duration::ZERO, use_all: true },
        depth: None,
        nodes: None,
        multipv: 1,
        searchmoves: Vec::new(),
    };
    let mut s = Searcher::<G>::new(tt, &signals, history);
    s.run(pos, &limits, Instant::now(), &mut |_| {}).best
}

/// The runner's cap, not a rule of the game: a game still going after this many plies is
/// scored a draw.
const PLY_CAP: usize = 200;

/// Plays one game; returns the result for sente (1 win, 0 draw, -1 loss) and a summary.
/// Game ends are the referee's (`koma::game::referee`), as `d` reports them.
fn game<G: Strategy>(opening: &[usize], times: [u64; 2]) -> (i32, String) {
    let mut game = Referee::new(G::startpos(&G::Rules::default()));
    let mut tokens = Vec::new();
    let mut tts = [Table::new(16), Table::new(16)];
    for ply in 0..=PLY_CAP {
        if let Some(v) = game.verdict() {
            let sente = match v.winner {
                Some(Color::Sente) => 1,
                Some(Color::Gote) => -1,
                None => 0,
            };
            return (sente, format!("{} after {ply} plies: {}", v.rule, tokens.join(" ")));
        }
        if ply == PLY_CAP {
            break;
        }
        let pos = game.pos();
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let side = ply % 2;
        let mv = if ply < opening.len() {
            legal[opening[ply] % legal.len()]
        } else {
            match think(pos, game.history(), times[side], &mut tts[side]) {
                Some(m) => m,
                None => legal[0],
            }
        };
        tokens.push(pos.format_move(mv));
        game.play(mv);
    }
    (0, format!("ply limit: {}", tokens.join(" ")))
}

fn run<G: Strategy>(games: usize, fast: u64, slow: u64) {
    let mut rng = Rng(0x5eed_cafe_f00d_0001);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for pair in 0..games.div_ceil(2) {
        let opening = [rng.below(64), rng.below(64)];
        for slow_is_sente in [true, false] {
            if 2 * pair + usize::from(!slow_is_sente) >= games {
                break;
            }
            let times = if slow_is_sente { [slow, fast] } else { [fast, slow] };
            let (r, summary) = game::<G>(&opening, times);
            let for_slow = if slow_is_sente { r } else { -r };
            match for_slow {
                1 => w += 1,
                0 => d += 1,
                _ => l += 1,
            }
            println!("slow as {}: {:+} {summary}", if slow_is_sente { "sente" } else { "gote" }, for_slow);
        }
    }
    println!("{} {slow} ms against {fast} ms: +{w} ={d} -{l}", G::NAME);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args.first().map(String::as_str).unwrap_or("kaninariebi");
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (games, fast, slow) = (num(1, 10) as usize, num(2, 20), num(3, 100));
    match variant {
        "kanishogi" => run::<KaniShogi>(games, fast, slow),
        _ => run::<KaniNariEbi>(games, fast, slow),
    }
}
