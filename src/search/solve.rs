//! An exact solver: the game-theoretic value of a position (win, loss or draw for the
//! side to move, with the distance to the end under best play), proven, not estimated.
//! Generic over a [`Game`] whose repetition is a plain draw and that has no move-count
//! rule; `koma solve` uses it for Number Shogi (issue 33).
//!
//! # The method, and why
//!
//! **Measured first: the reachable space is far too big for retrograde analysis of a
//! whole setup.** A breadth-first walk from a random Number Shogi setup (placement done,
//! sente to move) passes 30 million distinct positions in 16-25 s with most of the
//! frontier still unexpanded (about 2 edges walked per position stored), on each of the
//! setups tried: drops onto any empty square make the space grow without the captures
//! needed to end it. Retrograde analysis over the reachable graph of one setup would need
//! hundreds of millions of positions and tens of gigabytes, 518,400 times. So the solver
//! has two provers, both exact:
//!
//! 1. **A depth-bounded AND/OR prover, iterated on the ply budget** (the main one). With
//!    `W(p, h)` = "the side to move at `p` forces a win within `h` plies" and `L(p, h)` =
//!    "the side to move at `p` loses within `h` plies, whatever it plays":
//!    - `W(p, h)` is true at a position whose rule result is a win, else iff `h >= 1` and
//!      **some** move leads to a position `c` with `L(c, h - 1)`;
//!    - `L(p, h)` is true at a position whose rule result is a loss or with no legal move
//!      (Number Shogi: no legal move loses), else iff `h >= 2` and **every** legal move
//!      leads to a `c` with `W(c, h - 1)`. An AND node never skips a move: one move for
//!      which `W` fails refutes it, and only then does the search stop looking.
//!
//!    These are pure functions of the position and `h`: they never look at the path, and
//!    the horizon `h` makes the recursion finite, so no repetition test is needed inside
//!    it. Wins and losses are reached only at rule-ended positions (sum of seven, no legal
//!    move). Hence every fact the table stores ("`W` true from `h` on", "`W` false up to
//!    `h`", the same for `L`) holds for the position wherever it is met: there is no
//!    graph-history interaction, and the order in which the table was filled cannot
//!    change an answer, only the time taken. (A "no win within `h`" cut short by a
//!    repetition on the current path would be path-dependent; this prover never cuts on
//!    repetition, so it never produces such a fact.) The table is keyed by `key()` and
//!    holds the position itself, checked with `==` on every hit, so a hash collision can
//!    cost a table entry but never a wrong answer.
//!
//!    At the root, `W(root, n)` is asked for n = 1, 3, 5, ... and `L(root, n)` for
//!    n = 2, 4, 6, ... (a win ends on the winner's move, so a fastest win has odd length
//!    and a slowest loss even length; the table uses the same parity to share facts
//!    between neighbouring budgets). The first `n` that proves one is the exact
//!    distance: the fastest win, or the slowest loss (`L(p, n)` first holds at
//!    `n = 1 + ` the maximum over moves of the opponent's fastest win).
//!
//!    **Repetition does not change these values.** Along a fastest win the winner's
//!    fastest-win distance strictly drops with each pair of plies (winner to `c` with
//!    `L(c, d - 1)`, any reply to a position it wins within `d - 2`), so the proof tree
//!    holds no repeated position and the loser cannot reach a fourth occurrence before
//!    the sum of seven. The repetition draw only adds draws, so it cannot make any win
//!    faster either: the distances are exact under the rules. (Only positions before the
//!    root are not counted: the value is the root's own, as if the game started there;
//!    a line whose history already ended the game reports that result instead.)
//!
//! 2. **Retrograde analysis over the reachable graph** of the root, for positions whose
//!    whole reachable space fits a cap (late positions with few pieces). It is the only
//!    way to *prove a draw*: walk every position reachable from the root, mark the rule
//!    ends (sum of seven, no legal move), propagate (a position with a move to a lost
//!    position is won, one step further; a position all of whose moves go to won
//!    positions is lost, one step beyond its slowest such move), and what is unmarked at
//!    the fixpoint is a draw. Values are properties of positions in a finite graph, so
//!    again no path enters; a drawn side can repeat forever (so the 4th-occurrence rule
//!    gives it the draw), and a won side wins without repeating, as above.
//!
//! `solve` runs the prover, tries retrograde with a small cap once the prover has failed
//! at 16 plies and with a larger one at 40 ([`RETROGRADE_TRIES`]), and goes on with the
//! prover until the budget runs out. A Number Shogi
//! setup that is a draw can therefore only be answered `unknown` (within a budget); none
//! has been met so far (see the cost section).
//!
//! # Cost per setup (measured, issue 33)
//!
//! 20 seeded random setups (`python3 random.Random(33)`, both arrangements shuffled,
//! sente to move), `koma solve`, one core of a shared 2-core machine:
//! - 18 solved: 6 sente wins (9 to 25 plies), 12 sente losses (6 to 18 plies). 14 of them
//!   take under 0.7 s (median about 0.1 s, 1k-1.2M nodes at 1-2M nodes/s unloaded);
//!   two wins in 21 plies take 10-12 s (4.5M nodes); a win in 25 took 53 s and 61M nodes.
//! - 2 not solved within 60-120 s (24-150M nodes): the tail. With the table unbounded one
//!   of them filled the machine's memory, hence the bounded table ([`TABLE_ENTRIES`],
//!   about 2 GB resident at the cap).
//!
//! So the cost is dominated by a tail of setups whose result lies beyond about 21 plies:
//! the iterated bounded prover redoes its last iterations with a table that no longer
//! holds everything. The full 720 x 720 matrix (518,400 setups, about 259,200 up to the
//! left-right mirror) is therefore not a job for this machine at this speed: at a mean of
//! even 10 s per setup it is about 720 CPU-hours. It needs the cluster job (Ray) or a
//! stronger prover for the tail (proof-number search with the same path-free facts), or
//! double oracle over the matrix so that only the entries it touches are solved.
//!
//! Double oracle was enough: 11,971 setups solved (about 2.3% of the matrix) certify that
//! gote wins and find all 24 of gote's winning arrangements
//! (tools/numbershogi_equilibrium.py, protocol/numbershogi-solved.md).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use super::mate::MateAnswer;
use crate::game::{Game, Outcome, Strategy};

/// The value of a position for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Loss,
    Draw,
}

impl From<Outcome> for Value {
    fn from(o: Outcome) -> Value {
        match o {
            Outcome::Win => Value::Win,
            Outcome::Loss => Value::Loss,
            Outcome::Draw => Value::Draw,
        }
    }
}

impl From<Value> for Outcome {
    fn from(v: Value) -> Outcome {
        match v {
            Value::Win => Outcome::Win,
            Value::Loss => Outcome::Loss,
            Value::Draw => Outcome::Draw,
        }
    }
}

impl Value {
    pub fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }
}

/// Limits of one solve. `None`: no limit (a drawn position with a big reachable space
/// then runs until memory runs out: give a limit).
#[derive(Clone, Debug, Default)]
pub struct Budget {
    /// Positions expanded (prover nodes plus retrograde positions).
    pub max_nodes: Option<u64>,
    pub max_ms: Option<u64>,
    /// A `stop` from the protocol (`go mate`): the solve ends as if out of budget.
    pub stop: Option<std::sync::Arc<super::Signals>>,
}

/// What `solve` found.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    /// `None`: the budget ran out first.
    pub value: Option<Value>,
    /// Plies to the end with best play (fastest win, slowest loss); 0 for a draw.
    pub plies: u32,
    /// A move that keeps the value; `None` at a finished position.
    pub bestmove: Option<M>,
    /// Positions expanded by the prover and the retrograde walk.
    pub nodes: u64,
    pub ms: u64,
}

/// When retrograde analysis is tried: after the prover has failed at this horizon
/// (plies), walking at most this many positions. A small early try answers small late
/// positions (and their draws) at once; a Number Shogi setup resolves before the late one.
pub const RETROGRADE_TRIES: [(u16, usize); 2] = [(16, 50_000), (40, 2_000_000)];

/// The default most entries of the prover's table (each about 100 bytes with the
/// position it holds): about 0.8 GB at most.
pub const TABLE_ENTRIES: usize = 8 << 20;

/// `key()` is already a well-mixed 64-bit hash: the maps use it as is.
#[derive(Default)]
pub struct KeyHasher(u64);
impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// What the table knows of one position (bounds of the monotone predicates).
#[derive(Clone)]
struct Entry<G: Game> {
    pos: G,
    /// `W(p, h)` is false for every `h <= win_no`.
    win_no: u16,
    /// `W(p, h)` is true for every `h >= win_yes`.
    win_yes: u16,
    /// `L(p, h)` is false for every `h <= loss_no`.
    loss_no: u16,
    /// `L(p, h)` is true for every `h >= loss_yes`.
    loss_yes: u16,
    /// The move that last proved a win or refuted a loss: tried first.
    best: Option<G::Move>,
}

impl<G: Game> Entry<G> {
    /// `(no, yes)` of `goal`: `win_no` and `win_yes` for a win, else the loss's.
    fn bounds(&self, goal: Outcome) -> (u16, u16) {
        if goal == Outcome::Win {
            (self.win_no, self.win_yes)
        } else {
            (self.loss_no, self.loss_yes)
        }
    }
}

/// The rule result of a position, if it has one (sum of seven, or no legal move).
/// Repetition is not a rule result here (see the module doc).
fn rule_end<G: Game>(p: &G, moves: &mut Vec<G::Move>) -> Option<Outcome> {
    if let Some(o) = p.result() {
        return Some(o);
    }
    moves.clear();
    p.legal_moves(moves);
    moves.is_empty().then(|| p.no_move_outcome())
}

/// The depth-bounded prover with its table.
struct Prover<G: Game> {
    table: KeyMap<Entry<G>>,
    /// The most entries kept; beyond it the entries of the smallest budgets go.
    cap: usize,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    /// The protocol's stop, for `go mate`.
    stop: Option<std::sync::Arc<super::Signals>>,
    aborted: bool,
    /// Move lists, one per recursion level.
    stack: Vec<Vec<G::Move>>,
}

impl<G: Game + Strategy + PartialEq> Prover<G> {
    fn new(budget: &Budget, start: Instant) -> Self {
        Prover {
            table: KeyMap::default(),
            cap: TABLE_ENTRIES,
            nodes: 0,
            max_nodes: budget.max_nodes.unwrap_or(u64::MAX),
            deadline: budget.max_ms.map(|ms| start + std::time::Duration::from_millis(ms)),
            stop: budget.stop.clone(),
            aborted: false,
            stack: Vec::new(),
        }
    }

    fn entry(&self, p: &G) -> Option<&Entry<G>> {
        self.table.get(&p.key()).filter(|e| e.pos == *p)
    }

    /// Updates the entry of `p` (a new one if absent; nothing if another position holds
    /// the key).
    fn update(&mut self, p: &G, f: impl FnOnce(&mut Entry<G>)) {
        if self.table.len() >= self.cap && !self.table.contains_key(&p.key()) {
            self.prune();
        }
        let e = self.table.entry(p.key()).or_insert_with(|| Entry {
            pos: p.clone(),
            win_no: 0,
            win_yes: u16::MAX,
            loss_no: 0,
            loss_yes: u16::MAX,
            best: None,
        });
        if e.pos == *p {
            f(e);
        }
    }

    /// Keeps at most half the cap: the entries whose facts concern the largest budgets
    /// (the costliest to find again). Any subset of true facts is still true: pruning
    /// costs time, never correctness.
    fn prune(&mut self) {
        let weight = |e: &Entry<G>| {
            let yes = |b: u16| if b == u16::MAX { 0 } else { b };
            e.win_no.max(e.loss_no).max(yes(e.win_yes)).max(yes(e.loss_yes)) as usize
        };
        let mut count = vec![0usize; u16::MAX as usize + 1];
        for e in self.table.values() {
            count[weight(e)] += 1;
        }
        // The smallest weight t such that the entries weighing more than t fit half the cap.
        let mut above = self.table.len();
        let mut t = 0;
        while t < count.len() && above > self.cap / 2 {
            above -= count[t];
            t += 1;
        }
        self.table.retain(|_, e| weight(e) >= t);
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.aborted = true;
        } else if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
            if self.stop.as_ref().is_some_and(|s| s.stop.load(std::sync::atomic::Ordering::Relaxed)) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The legal moves of `p` at recursion level `level`, the table's move first, then by
    /// the game's move ordering (captures that make seven first). Ordering never changes
    /// an answer: every move of an AND node is tried before it is proven.
    fn ordered(&mut self, p: &G, level: usize, best: Option<G::Move>) -> Vec<G::Move> {
        while self.stack.len() <= level {
            self.stack.push(Vec::with_capacity(128));
        }
        let mut moves = std::mem::take(&mut self.stack[level]);
        moves.clear();
        p.legal_moves(&mut moves);
        moves.sort_by_cached_key(|&m| (Some(m) != best, -p.order_score(m)));
        moves
    }

    /// The start of `W(p, h)` (`goal` a win) or `L(p, h)` (a loss): `Err` with the answer
    /// when the table knows it, the budget is out, or `p` has no move; else the moves to
    /// try, the table's best first.
    fn open(&mut self, p: &G, h: u16, level: usize, goal: Outcome) -> Result<Vec<G::Move>, bool> {
        let best = match self.entry(p) {
            Some(e) => {
                let (no, yes) = e.bounds(goal);
                if h >= yes {
                    return Err(true);
                }
                if h <= no {
                    return Err(false);
                }
                e.best
            }
            None => None,
        };
        if self.tick() {
            return Err(false);
        }
        let moves = self.ordered(p, level, best);
        if moves.is_empty() {
            self.stack[level] = moves;
            return Err(p.no_move_outcome() == goal);
        }
        Ok(moves)
    }

    /// Stores what the search of `goal` (a win: `W`, a loss: `L`) at `p` within `h` plies
    /// found: whether it `holds`, and the move that showed it (a proof or a refutation),
    /// tried first next time. Returns `holds`.
    fn settle(&mut self, p: &G, h: u16, goal: Outcome, holds: bool, shown_by: Option<G::Move>) -> bool {
        self.update(p, |e| {
            let (no, yes) =
                if goal == Outcome::Win { (&mut e.win_no, &mut e.win_yes) } else { (&mut e.loss_no, &mut e.loss_yes) };
            if holds {
                *yes = (*yes).min(h);
            } else {
                *no = (*no).max(h);
            }
            if shown_by.is_some() {
                e.best = shown_by;
            }
        });
        holds
    }

    /// `W(p, h)`. A `false` after `aborted` means nothing (and is never stored).
    fn wins(&mut self, p: &G, h: u16, level: usize) -> bool {
        if let Some(o) = p.result() {
            return o == Outcome::Win;
        }
        // A win takes an odd number of plies.
        let h = if h.is_multiple_of(2) { h.saturating_sub(1) } else { h };
        if h == 0 || self.aborted {
            return false;
        }
        let moves = match self.open(p, h, level, Outcome::Win) {
            Ok(moves) => moves,
            Err(known) => return known,
        };
        let mut proof = None;
        for &m in &moves {
            let mut c = p.clone();
            c.play(m);
            if self.loses(&c, h - 1, level + 1) {
                proof = Some(m);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.stack[level] = moves;
        if proof.is_none() && self.aborted {
            return false;
        }
        self.settle(p, h, Outcome::Win, proof.is_some(), proof)
    }

    /// `L(p, h)`. A `false` after `aborted` means nothing (and is never stored).
    fn loses(&mut self, p: &G, h: u16, level: usize) -> bool {
        if let Some(o) = p.result() {
            return o == Outcome::Loss;
        }
        // A loss takes an even number of plies.
        let h = h - h % 2;
        if self.aborted {
            return false;
        }
        let moves = match self.open(p, h, level, Outcome::Loss) {
            Ok(moves) => moves,
            Err(known) => return known,
        };
        if h == 0 {
            self.stack[level] = moves;
            return false;
        }
        let mut refutation = None;
        for &m in &moves {
            let mut c = p.clone();
            c.play(m);
            if !self.wins(&c, h - 1, level + 1) {
                refutation = Some(m);
                break;
            }
        }
        self.stack[level] = moves;
        if self.aborted {
            return false;
        }
        self.settle(p, h, Outcome::Loss, refutation.is_none(), refutation)
    }
}

/// Retrograde analysis over the whole reachable graph of `root`, if it has at most `cap`
/// positions: `Ok` with `nodes` the positions walked (`ms` left 0), or `Err(positions walked)` when
/// the cap or the deadline is hit first (or two positions share a key).
pub fn retrograde<G: Game + PartialEq>(
    root: &G,
    cap: usize,
    deadline: Option<Instant>,
) -> Result<Solution<G::Move>, u64> {
    // Walk: positions in discovery order, successors in CSR form.
    let mut pos: Vec<G> = vec![root.clone()];
    let mut index: KeyMap<u32> = KeyMap::default();
    index.insert(root.key(), 0);
    let mut succ: Vec<u32> = Vec::new();
    let mut first: Vec<u64> = vec![0];
    // 0 unknown, 1 win, 2 loss, 3 draw (rule draw); distance in plies.
    let mut status: Vec<u8> = Vec::new();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < pos.len() {
        if i & 4095 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(pos.len() as u64);
        }
        let p = pos[i].clone();
        i += 1;
        match rule_end(&p, &mut moves) {
            Some(o) => status.push(match o {
                Outcome::Win => 1,
                Outcome::Loss => 2,
                Outcome::Draw => 3,
            }),
            None => {
                status.push(0);
                for &m in moves.iter() {
                    let mut c = p.clone();
                    c.play(m);
                    let next = pos.len() as u32;
                    let at = *index.entry(c.key()).or_insert(next);
                    if at == next {
                        pos.push(c);
                        if pos.len() > cap {
                            return Err(pos.len() as u64);
                        }
                    } else if pos[at as usize] != c {
                        // A key collision: refuse rather than merge two positions.
                        return Err(pos.len() as u64);
                    }
                    succ.push(at);
                }
            }
        }
        first.push(succ.len() as u64);
    }
    let n = pos.len();
    drop(index);
    // Predecessors, and how many moves of each position are not yet known to lose.
    let mut remaining: Vec<u32> = (0..n).map(|i| (first[i + 1] - first[i]) as u32).collect();
    let mut pred_first = vec![0u64; n + 1];
    for &s in &succ {
        pred_first[s as usize + 1] += 1;
    }
    for i in 0..n {
        pred_first[i + 1] += pred_first[i];
    }
    let mut fill = pred_first.clone();
    let mut pred = vec![0u32; succ.len()];
    for p in 0..n {
        for &s in &succ[first[p] as usize..first[p + 1] as usize] {
            pred[fill[s as usize] as usize] = p as u32;
            fill[s as usize] += 1;
        }
    }
    drop(fill);
    // Propagate in order of distance (a FIFO queue keeps distances non-decreasing, so a
    // win is found at its fastest and a loss at its slowest).
    let mut dist = vec![0u32; n];
    let mut queue: Vec<u32> = (0..n as u32).filter(|&i| status[i as usize] == 1 || status[i as usize] == 2).collect();
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head] as usize;
        head += 1;
        for &p in &pred[pred_first[c] as usize..pred_first[c + 1] as usize] {
            let p = p as usize;
            if status[p] != 0 {
                continue;
            }
            if status[c] == 2 {
                status[p] = 1;
                dist[p] = dist[c] + 1;
                queue.push(p as u32);
            } else if status[c] == 1 {
                remaining[p] -= 1;
                if remaining[p] == 0 {
                    status[p] = 2;
                    dist[p] = dist[c] + 1;
                    queue.push(p as u32);
                }
            }
        }
    }
    let value = match status[0] {
        1 => Value::Win,
        2 => Value::Loss,
        _ => Value::Draw,
    };
    let plies = if value == Value::Draw { 0 } else { dist[0] };
    // The move that keeps the value: the first successor that is lost at plies - 1 (win),
    // won at plies - 1 (loss), or neither (draw).
    rule_end(root, &mut moves);
    let kids = &succ[first[0] as usize..first[1] as usize];
    let best = moves.iter().zip(kids).find(|(_, &k)| {
        let (s, d) = (status[k as usize], dist[k as usize]);
        match value {
            Value::Win => s == 2 && d + 1 == plies,
            Value::Loss => s == 1 && d + 1 == plies,
            Value::Draw => s == 0 || s == 3,
        }
    });
    Ok(Solution { value: Some(value), plies, bestmove: best.map(|(&m, _)| m), nodes: n as u64, ms: 0 })
}

/// Solves `root` as a game starting there (positions before it are not counted).
pub fn solve<G: Game + Strategy + PartialEq>(root: &G, budget: &Budget) -> Solution<G::Move> {
    Solver::new().solve(root, budget)
}

/// A solver whose table lives across positions: its facts hold wherever a position is
/// met, so solving many positions of one game (a proof walk, a game in progress) reuses
/// them. The table grows without bound: drop the solver to free it.
pub struct Solver<G: Game> {
    prover: Prover<G>,
}

impl<G: Game + Strategy + PartialEq> Default for Solver<G> {
    fn default() -> Self {
        Self::new()
    }
}

impl<G: Game + Strategy + PartialEq> Solver<G> {
    pub fn new() -> Self {
        Solver { prover: Prover::new(&Budget::default(), Instant::now()) }
    }

    /// A solver whose table keeps at most `entries` positions.
    pub fn with_table_entries(entries: usize) -> Self {
        let mut s = Self::new();
        s.prover.cap = entries.max(2);
        s
    }

    /// Positions in the table.
    pub fn table_len(&self) -> usize {
        self.prover.table.len()
    }

    /// `go mate`: a forced win of the side to move, proven, with its line (the fastest win
    /// against the slowest defence the table knows); `NoMate` when the position is proven
    /// lost or drawn; `Timeout` when the budget (a deadline, a stop) ends first.
    pub fn mate(&mut self, root: &G, budget: &Budget) -> MateAnswer<G::Move> {
        let s = self.solve(root, budget);
        let (Some(value), n) = (s.value, s.plies) else { return MateAnswer::Timeout };
        if value != Value::Win || n == 0 {
            return MateAnswer::NoMate;
        }
        let prover = &mut self.prover;
        // The facts are in the table: the line is read off it with the budget lifted.
        prover.max_nodes = u64::MAX;
        prover.deadline = None;
        prover.stop = None;
        prover.aborted = false;
        let (mut pv, mut p, mut h) = (Vec::new(), root.clone(), n as u16);
        let mut moves = Vec::new();
        while h >= 1 && rule_end(&p, &mut moves).is_none() {
            // The attacker: a move after which the defender loses within h - 1.
            let Some(m) = moves.iter().copied().find(|&m| {
                let mut c = p.clone();
                c.play(m);
                prover.loses(&c, h - 1, 1)
            }) else {
                break;
            };
            pv.push(m);
            p.play(m);
            if h < 3 || rule_end(&p, &mut moves).is_some() {
                break;
            }
            // The defender: a move the attacker cannot win within h - 3, if there is one.
            let d = moves
                .iter()
                .copied()
                .find(|&d| {
                    let mut c = p.clone();
                    c.play(d);
                    h < 5 || !prover.wins(&c, h - 4, 1)
                })
                .or(moves.first().copied());
            let Some(d) = d else { break };
            pv.push(d);
            p.play(d);
            h -= 2;
        }
        MateAnswer::Mate(pv)
    }

    /// Solves `root` as a game starting there (positions before it are not counted).
    pub fn solve(&mut self, root: &G, budget: &Budget) -> Solution<G::Move> {
        assert!(!G::PERPETUAL_CHECK_LOSES, "the solver treats every repetition as a draw");
        let start = Instant::now();
        let ms = || start.elapsed().as_millis() as u64;
        let mut moves = Vec::new();
        if let Some(o) = rule_end(root, &mut moves) {
            return Solution { value: Some(o.into()), plies: 0, bestmove: None, nodes: 0, ms: ms() };
        }
        let prover = &mut self.prover;
        let fresh = Prover::<G>::new(budget, start);
        prover.nodes = 0;
        prover.max_nodes = fresh.max_nodes;
        prover.deadline = fresh.deadline;
        prover.stop = fresh.stop;
        prover.aborted = false;
        let mut n: u16 = 1;
        loop {
            let proven = if !n.is_multiple_of(2) { prover.wins(root, n, 0) } else { prover.loses(root, n, 0) };
            if proven {
                let value = if !n.is_multiple_of(2) { Value::Win } else { Value::Loss };
                let best = best_move(prover, root, value, n);
                return Solution { value: Some(value), plies: n as u32, bestmove: best, nodes: prover.nodes, ms: ms() };
            }
            if prover.aborted || n == u16::MAX - 1 {
                return Solution { value: None, plies: 0, bestmove: None, nodes: prover.nodes, ms: ms() };
            }
            if let Some(&(_, cap)) = RETROGRADE_TRIES.iter().find(|t| t.0 == n) {
                let left = prover.max_nodes.saturating_sub(prover.nodes);
                let cap = cap.min(usize::try_from(left).unwrap_or(usize::MAX));
                match retrograde(root, cap, prover.deadline) {
                    Ok(s) => return Solution { nodes: prover.nodes + s.nodes, ms: ms(), ..s },
                    Err(walked) => prover.nodes += walked,
                }
            }
            n += 1;
        }
    }
}

/// A move that keeps a proven value: for a win in `n`, a move to a position lost within
/// `n - 1`; for a loss in `n`, a move to a position the opponent wins in exactly `n - 1`
/// (not within `n - 2`). Table facts make this cheap.
fn best_move<G: Game + Strategy + PartialEq>(
    prover: &mut Prover<G>,
    root: &G,
    value: Value,
    n: u16,
) -> Option<G::Move> {
    let mut moves = Vec::new();
    root.legal_moves(&mut moves);
    // The move that proved the value is in the table: tried first, it is answered at once
    // (a win's proof move; a loss's last refutation, which is lost exactly in n - 1).
    if let Some(best) = prover.entry(root).and_then(|e| e.best) {
        if let Some(i) = moves.iter().position(|&m| m == best) {
            moves[..=i].rotate_right(1);
        }
    }
    // Lift the budget: these questions are answered (or nearly) by the table.
    prover.max_nodes = u64::MAX;
    prover.deadline = None;
    moves.into_iter().find(|&m| {
        let mut c = root.clone();
        c.play(m);
        match value {
            Value::Win => prover.loses(&c, n - 1, 1),
            _ => n < 2 || !prover.wins(&c, n - 2, 1),
        }
    })
}
