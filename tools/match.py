#!/usr/bin/env python3
"""A match that judges a change: engine A (a new koma build) against engine B (an earlier
koma build, or Fairy-Stockfish) in any of koma's five games, paired openings with the
colours swapped, Elo with its 95% error bar, LOS, and an SPRT stop rule.

Usage:
  python3 -m tools.match --variant V --a NEW --b OLD [--nodes N | --movetime MS] [--depth D]
         [--games N] [--sprt ELO0,ELO1] [--seed S] [--option NAME=VALUE ...]
  python3 -m tools.match --variant kokesu --a NEW --b fsf:/work/fsf/fairy-stockfish --movetime 200
  python3 -m tools.match --variant kokesu --a NEW --b stockfish:/usr/games/stockfish --nodes 50000 \
         --option KokesuPromotion=free
  V: shogi66 kokesu numbershogi kanishogi kaninariebi (against fsf: shogi66 kokesu numbershogi)

A clock game instead (--tc BASE+INC, seconds): each side's clock starts at BASE, is charged
the wall time from `go` to `bestmove` and gains INC a move; `go btime wtime binc winc`
sends both; a side whose clock goes below zero loses on time. This judges time
management. koma's MinimumThinkingTime is 0 there (--minimum-thinking), as a short clock
would otherwise go on 100 ms moves. The final line adds each engine's mean time a move.

Limits: `go nodes N` (default for build against build: 20000 nodes, the same games on a
loaded machine as on an idle one), `go movetime MS` (default against Fairy-Stockfish: 200),
`go depth D`; given together they are sent together. Fixed nodes cannot see a change that
only makes the search faster: judge that with --movetime. With fixed nodes two builds
that search alike play each pair's two games as mirror images (one win each, or two
draws): no variance, and the SPRT accepts H0 at its 10th pair.

Openings (deterministic given --seed): pair k plays one opening twice, A first with the
first-player side (sente / white) and then with the second. 66 shogi and Number Shogi: a
random placement (the 12 placement plies chosen at random; --engine-setups: each engine
places its own, as in a real game); the crab games: 2 random
plies; kokesu: a shuffled list of balanced 2-4 ply openings (OPENINGS); --random-plies K
adds K random plies to any of them. No opening is played by two pairs: a repeat is drawn
again, with one more random ply after every 20 repeats (so kokesu's book lines get a
random ply once all of them have been played).

Stockfish 15.1 (`--a` or `--b stockfish:PATH`, Debian's `stockfish`): an anchor in kokesu
with KokesuPromotion=free only (tools/lib/stockfish.py: the start FEN without castling
rights, koma's legal root moves as `searchmoves`); the other engine must be koma.

Referee: koma's own referee judges every game: the Python binding (`import koma`, in .venv
from the README's test command) in this process, else a third koma process of A's binary
(tools/lib/engine.py's new_referee: `moves`, and `d`'s `result` line). It says which moves
are legal and when the game is over, who won and by which rule. The game's rules are koma's alone (checkmate,
stalemate and its switch, repetition, perpetual check, kokesu's 100 plies, sum of seven,
the crab games' captures); this script adds only what a match runner decides:
  * --max-plies reached: a draw adjudicated by the match runner, not a rule of any game;
  * an illegal move (one not in the referee's list), a crash, or no `bestmove` within
    --move-timeout loses for that engine, and the line says so (a crashed engine is
    restarted for the next game); in a clock game (--tc) a side whose clock runs out loses.

Statistics (tools/lib/stats.py): W/D/L and score from A's view, Elo ± 95% from the pair
scores (pentanomial) once there are pairs, LOS, and the GSPRT log-likelihood ratio for
--sprt elo0,elo1 (default 0,10, alpha = beta = 0.05) after every pair; the match stops when
the ratio leaves (-2.94, 2.94) after at least --sprt-min-pairs pairs (10), or after
--games games. One line per game, a progress line
per pair, and a final `match:` line to quote in a commit message. Several seeds' logs of
one change are added up, SPRT included, by tools/match_combine.py. tools/ray_match.py
plays the same match with its pairs spread over all cores or a Ray cluster.
"""

import argparse
import os
import random
import sys
import time

from tools.lib import stats
from tools.lib.engine import EngineError, new_referee, position_command, reported_ms, running, start_koma

VARIANTS = {
    # How a pair's opening is made (the game's rules are the referee's): the random
    # placement plies and the random plies after it.
    "shogi66": dict(placement=12, plies=0),
    "kokesu": dict(placement=0, plies=0),
    "numbershogi": dict(placement=12, plies=0),
    "kanishogi": dict(placement=0, plies=2),
    "kaninariebi": dict(placement=0, plies=2),
}

# Balanced kokesu openings in chess notation (white first). Kokesu has no castling, so
# lines that castle early are not here.
OPENINGS = [
    "e2e4 e7e5",
    "d2d4 d7d5",
    "e2e4 c7c5",
    "e2e4 e7e6",
    "e2e4 c7c6",
    "d2d4 g8f6",
    "c2c4 e7e5",
    "g1f3 d7d5",
    "c2c4 c7c5",
    "d2d4 f7f5",
    "g2g3 d7d5",
    "e2e4 d7d6",
    "g1f3 g8f6",
    "c2c4 g8f6",
    "e2e4 g7g6",
    "d2d4 e7e6",
    "e2e4 e7e5 g1f3",
    "d2d4 d7d5 c2c4",
    "e2e4 c7c5 g1f3",
    "d2d4 g8f6 c2c4",
    "e2e4 e7e6 d2d4",
    "e2e4 c7c6 d2d4",
    "c2c4 e7e5 b1c3",
    "g1f3 d7d5 g2g3",
    "e2e4 e7e5 g1f3 b8c6",
    "e2e4 c7c5 g1f3 d7d6",
    "d2d4 d7d5 c2c4 e7e6",
    "d2d4 d7d5 c2c4 c7c6",
    "d2d4 g8f6 c2c4 e7e6",
    "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5",
    "e2e4 c7c6 d2d4 d7d5",
    "c2c4 g8f6 b1c3 e7e5",
    "g1f3 g8f6 c2c4 c7c5",
    "e2e4 e7e5 b1c3 g8f6",
    "e2e4 e7e5 f1c4 g8f6",
    "d2d4 d7d5 g1f3 g8f6",
    "e2e4 c7c5 b1c3 b8c6",
    "d2d4 f7f5 g2g3 g8f6",
    "e2e4 d7d5 e4d5 d8d5",
    "e2e4 g8f6 e4e5 f6d5",
    "e2e4 e7e5 g1f3 g8f6",
]


def chess_to_koma(uci):
    """A chess square pair (e2e4, e7e8q) as a kokesu token: file 1 = h, rank a = 8."""

    def sq(s):
        return "%d%s" % (ord("h") - ord(s[0]) + 1, chr(ord("a") + 8 - int(s[1])))

    return sq(uci[0:2]) + sq(uci[2:4]) + uci[4:]


def koma_to_chess(tok):
    def sq(s):
        return "%s%d" % (chr(ord("h") - int(s[0]) + 1), 8 - (ord(s[1]) - ord("a")))

    return sq(tok[0:2]) + sq(tok[2:4]) + tok[4:]


class KomaPlayer:
    def __init__(self, path, variant, options, name, go, timeout):
        self.path, self.variant, self.options, self.name = path, variant, options, name
        self.go, self.timeout = go, timeout
        self.e = None

    def new_game(self, opening):
        self.e = running(self.e, lambda: start_koma(self.path, self.variant, self.options, self.name))
        self.e.new_game("usinewgame", self.timeout)

    def best(self, moves, legal, clock=None):
        """`clock`: (first player's ms, second player's ms, increment ms) for a clock game."""
        self.e.send(position_command(moves))
        if clock:
            self.e.send("go btime %d wtime %d binc %d winc %d" % (clock[0], clock[1], clock[2], clock[2]))
        else:
            self.e.send("go " + self.go)
        lines = self.e.until("bestmove", timeout=self.timeout)
        self.reported_ms = reported_ms(lines)  # a loss on time says where the time went
        return lines[-1].split()[1]

    def kill(self):
        """After a failure: the process goes; new_game starts another."""
        if self.e is not None:
            self.e.close(timeout=1)
        self.e = None

    close = kill


def now_ms():
    """The clock a clock game is charged by (tests replace it)."""
    return time.monotonic() * 1000


def timed_best(mover, moves, legal, clocks, side, args):
    """A clock game's move: `mover`'s choice, its wall time charged to `clocks[side]` and
    the increment added; None (with a line saying why) when the clock ran out."""
    started = now_ms()
    chosen = mover.best(moves, legal, (clocks[0], clocks[1], args.clock[1]))
    used = now_ms() - started
    spent = args.time_used[mover.name]
    spent[0] += used
    spent[1] += 1
    clocks[side] -= used
    if clocks[side] < 0:
        seen = getattr(mover, "reported_ms", None)
        print(
            "  %s lost on time: %.0f ms for a move with %.0f ms on its clock%s"
            % (mover.name, used, clocks[side] + used, "" if seen is None else "; its last info said time %d" % seen),
            flush=True,
        )
        return None
    clocks[side] += args.clock[1]
    return chosen


def play_game(players, referee, opening, args):
    """players[0] has the first player's side (sente / white). The opening's moves are
    played for them. The referee ends the game by its rules; the match runner adds the
    ply cap and the losses by failure. Returns (0 first player won | 1 second won | None
    draw, reason, moves)."""
    moves = []
    # --tc: each side's clock in ms, charged with the wall time from `go` to `bestmove`.
    clocks = [args.clock[0], args.clock[0]] if args.clock else None
    for p in players:
        try:
            p.new_game(opening)
        except EngineError:
            p.kill()  # one more try with a fresh process; a second failure stops the match
            p.new_game(opening)
    while True:
        legal, sfen, result = referee.state(moves)
        if result is not None:
            winner, reason = result
            return (None if winner is None else "bw".index(winner)), reason, moves
        if len(moves) >= args.max_plies:
            return None, "ply limit (adjudicated)", moves  # the match runner's cap, not a game rule
        side = 0 if sfen.split()[1] == "b" else 1
        if len(moves) < len(opening):
            chosen = opening[len(moves)]
        else:
            mover = players[side]
            try:
                if clocks:
                    chosen = timed_best(mover, moves, legal, clocks, side, args)
                    if chosen is None:
                        return 1 - side, "%s lost on time" % mover.name, moves
                else:
                    chosen = mover.best(moves, legal)
            except EngineError as e:
                mover.kill()
                return 1 - side, "%s failed: %s" % (mover.name, e), moves
            except (IndexError, ValueError):
                return 1 - side, "%s gave no move" % mover.name, moves
            if chosen not in legal:
                return 1 - side, "illegal move %s by %s" % (chosen, mover.name), moves
        moves.append(chosen)


def make_opening(referee, rng, args):
    """The opening of one pair: a book line (kokesu), the random placement, then random
    plies. No two pairs share an opening (with fixed nodes a repeated opening repeats its
    games): a repeat is drawn again, and after every 20 repeats one more random ply is
    added (kokesu's book lines get random plies once the book has been played through)."""
    rules = VARIANTS[args.variant]
    if getattr(args, "engine_setups", False):
        # Each engine places its own pieces (its book: a fixed or mixed arrangement); the
        # games differ only by the engines' own draws.
        return []
    line = []
    if args.variant == "kokesu":
        line = [chess_to_koma(m) for m in args.book[args.book_next % len(args.book)].split()]
        args.book_next += 1
    plies = rules["plies"] if args.random_plies is None else args.random_plies
    attempt = 0
    while True:
        moves = list(line)
        for _ in range(rules["placement"] + plies + attempt // 20):
            legal = referee.legal(moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        attempt += 1
        if tuple(moves) not in args.used and referee.legal(moves):
            args.used.add(tuple(moves))
            return moves


def go_command(args):
    if args.clock:
        return "clock %g+%g s (MinimumThinkingTime %d)" % (
            args.clock[0] / 1000,
            args.clock[1] / 1000,
            args.minimum_thinking,
        )
    parts = []
    if args.nodes:
        parts.append("nodes %d" % args.nodes)
    if args.movetime:
        parts.append("movetime %d" % args.movetime)
    if args.depth:
        parts.append("depth %d" % args.depth)
    return " ".join(parts)


class Tally:
    def __init__(self):
        self.w = self.d = self.l = 0
        self.pairs = [0] * 5  # pair totals 0, 0.5, 1, 1.5, 2 for A
        self.reasons = {}

    def add(self, score, reason):
        if score == 1:
            self.w += 1
        elif score == 0:
            self.l += 1
        else:
            self.d += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def add_pair(self, total):
        self.pairs[int(round(total * 2))] += 1

    @property
    def games(self):
        return self.w + self.d + self.l

    def sample(self, regularize=False):
        """(n, mean, variance): over pairs when there are any, else over games."""
        r = stats.regularize if regularize else tuple
        if sum(self.pairs):
            return stats.pentanomial(r(self.pairs))
        return stats.mean_var(r((self.l, self.d, self.w)), (0.0, 0.5, 1.0))

    def summary(self, args):
        n, mu, var = self.sample()
        e, err = stats.elo_interval(n, mu, var)
        if n < 2:
            err = float("inf")  # one sample has no spread to measure
        value = stats.llr(*self.sample(regularize=True), args.elo0, args.elo1)
        score = (self.w + self.d / 2) / max(1, self.games)
        line = "A +%d =%d -%d  %.1f%%  Elo %s  LOS %.1f%%" % (
            self.w,
            self.d,
            self.l,
            100 * score,
            stats.fmt_elo(e, err),
            100 * stats.los(self.w, self.l),
        )
        if args.sprt != "off":
            line += "  LLR %.2f (%.2f, %.2f) [%g, %g]" % (value + 0.0, args.lower, args.upper, args.elo0, args.elo1)
        return line, value


def parser():
    """match.py's options (tools/ray_match.py adds its own to them)."""
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    ap.add_argument("--a", required=True, help="engine A, the new koma build (or stockfish:PATH)")
    ap.add_argument("--b", required=True, help="engine B: an earlier koma build, fsf:PATH or stockfish:PATH")
    ap.add_argument("--nodes", type=int, help="go nodes N per move (default 20000 build against build)")
    ap.add_argument("--movetime", type=int, help="go movetime MS per move (default 200 against fsf)")
    ap.add_argument("--depth", type=int, help="go depth D per move")
    ap.add_argument(
        "--tc",
        help="a clock game instead: BASE+INC seconds for each side (e.g. 3+0.03); "
        "the script keeps the clocks and a side whose clock runs out loses",
    )
    ap.add_argument(
        "--minimum-thinking",
        type=int,
        default=0,
        help="koma's MinimumThinkingTime in a clock game, ms (default 0; koma's own is 100)",
    )
    ap.add_argument("--go-b", help="B's own go limits instead, e.g. 'nodes 5000' (odds, calibration)")
    ap.add_argument("--games", type=int, default=400, help="most games (rounded up to pairs)")
    ap.add_argument("--sprt", default="0,10", help="elo0,elo1 (logistic Elo), or 'off'")
    ap.add_argument(
        "--sprt-min-pairs",
        type=int,
        default=10,
        help="no SPRT decision before this many pairs (the normal approximation needs some)",
    )
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--beta", type=float, default=0.05)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--random-plies",
        type=int,
        default=None,
        help="random plies after the placement / book line (default 2 in the crab games, else 0)",
    )
    ap.add_argument(
        "--max-plies",
        type=int,
        default=400,
        help="the match runner adjudicates a draw after this many plies (no game's rule)",
    )
    ap.add_argument("--hash", type=int, default=16, help="hash MiB of each engine")
    ap.add_argument(
        "--engine-setups",
        action="store_true",
        help="66 shogi and Number Shogi: the engines place their own pieces (no random placement)",
    )
    ap.add_argument(
        "--move-overhead",
        type=int,
        default=10,
        help="ms of a movetime each engine keeps in hand (koma's default is 100)",
    )
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        help="NAME=VALUE for both koma engines and the referee (rules switches)",
    )
    ap.add_argument("--option-a", action="append", default=[], help="NAME=VALUE for engine A only")
    ap.add_argument("--option-b", action="append", default=[], help="NAME=VALUE for engine B only")
    ap.add_argument(
        "--move-timeout", type=float, default=None, help="seconds to wait for a bestmove (default 60 + 10 x movetime)"
    )
    ap.add_argument(
        "--fsf-option",
        action="append",
        default=[],
        help="NAME=VALUE for Fairy-Stockfish (e.g. UCI_LimitStrength=true, UCI_Elo=2850)",
    )
    ap.add_argument("--concurrency", type=int, default=1, choices=[1], help="games at a time (1 only)")
    ap.add_argument(
        "--moves",
        action="store_true",
        help="the moves of every game (default: only of a game lost by an illegal move or failure)",
    )
    return ap


def prepare(args, check_paths=True):
    """Checks the options and adds what the match derives from them: the go command, the
    SPRT bounds, the timeout, the engines' options, the number of pairs (args.pairs).
    `check_paths`: the engines must be executables here (a Ray cluster's workers may be
    the only machines that have them)."""
    args.kinds = [engine_kind(args.a), engine_kind(args.b)]
    args.fsf = args.kinds[1][0] == "fsf"
    if args.kinds[0][0] == "fsf":
        sys.exit("Fairy-Stockfish plays as B only: --b fsf:PATH")
    kokas = [path for kind, path in args.kinds if kind == "koma"]
    if not kokas:
        sys.exit("one engine must be koma: its binary is the referee")
    args.koma = kokas[0]  # the referee's binary (without the Python binding)
    for _, path in args.kinds:
        if check_paths and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit("not an executable: %s" % path)
    args.clock = None
    args.time_used = {"A": [0.0, 0], "B": [0.0, 0]}
    if args.tc:
        if args.nodes or args.movetime or args.depth or args.go_b:
            sys.exit("--tc replaces --nodes, --movetime, --depth and --go-b")
        try:
            base, inc = (float(x) for x in (args.tc.split("+") + ["0"])[:2])
        except ValueError:
            sys.exit("--tc: BASE+INC in seconds, e.g. 3+0.03")
        args.clock = (int(base * 1000), int(inc * 1000))
        args.move_timeout = args.move_timeout or 60 + base
    elif not (args.nodes or args.movetime or args.depth):
        if args.fsf:
            args.movetime = 200
        else:
            args.nodes = 20000
    if args.sprt == "off":
        args.elo0 = args.elo1 = 0.0
    else:
        args.elo0, args.elo1 = (float(x) for x in args.sprt.split(","))
    args.lower, args.upper = stats.sprt_bounds(args.alpha, args.beta)
    args.timeout = args.move_timeout or 60 + 10 * (args.movetime or 0) / 1000
    args.pairs = (args.games + 1) // 2

    def split(opts):
        return [tuple(o.split("=", 1)) for o in opts]

    args.rule_opts = split(args.option)
    args.rule_options = dict(args.rule_opts)
    # MoveOverhead: koma keeps 100 ms of each movetime in hand by default, for a GUI's
    # pipes; here that would halve a 200 ms move (Fairy-Stockfish keeps 10 ms).
    base = [("USI_Hash", str(args.hash)), ("MoveOverhead", str(args.move_overhead))] + args.rule_opts
    if args.clock:
        # MinimumThinkingTime (100 ms by default, against GUIs that race a fast reply)
        # would spend a short clock on the first moves; the script waits for bestmove.
        base.append(("MinimumThinkingTime", str(args.minimum_thinking)))
    args.options_a = base + split(args.option_a)
    args.options_b = base + split(args.option_b)
    args.go = go_command(args)
    if any(kind == "stockfish" for kind, _ in args.kinds):
        from tools.lib.stockfish import check_rules

        why = check_rules(args.variant, args.rule_options)
        if why:
            sys.exit(why)


def engine_kind(spec):
    """(kind, path) of an --a or --b engine: `fsf:PATH`, `stockfish:PATH` or a koma binary."""
    for kind in ("fsf", "stockfish"):
        if spec.startswith(kind + ":"):
            return kind, spec[len(kind) + 1 :]
    return "koma", spec


def make_player(args, side, referee):
    """The player of side 0 (A) or 1 (B): koma, Fairy-Stockfish or Stockfish."""
    kind, path = args.kinds[side]
    name = "AB"[side]
    go = args.go_b or args.go if side == 1 else args.go
    if kind == "fsf":
        from tools.lib import fsf  # pyffish only where it is needed

        return fsf.FsfPlayer(path, args, name, args.timeout, referee)
    if kind == "stockfish":
        from tools.lib.stockfish import StockfishPlayer

        return StockfishPlayer(path, args, name, go, args.timeout)
    return KomaPlayer(path, args.variant, (args.options_a, args.options_b)[side], name, go, args.timeout)


def start_engines(args):
    """The referee (the binding, or a koma process of A's binary) and the players A and B."""
    referee = new_referee(args.koma, args.variant, args.rule_opts)
    try:
        a = make_player(args, 0, referee)
        b = make_player(args, 1, referee)
    except BaseException:
        referee.close()
        raise
    return referee, a, b


def close_engines(*engines):
    for p in engines:
        try:
            p.close()
        except (EngineError, OSError):
            pass


def opening_source(args, referee):
    """The seeded generator of the openings (make_opening draws from it, pair after pair),
    with kokesu's book shuffled."""
    rng = random.Random(args.seed)
    args.used = set()
    if args.variant == "kokesu":
        args.book = [o for o in OPENINGS if referee.legal([chess_to_koma(m) for m in o.split()])]
        rng.shuffle(args.book)
        args.book_next = 0
    return rng


def print_header(args):
    go = args.go
    if args.go_b:
        go += " (B: %s)" % args.go_b
    sprt = (
        "SPRT off"
        if args.sprt == "off"
        else "SPRT [%g, %g] alpha %g beta %g" % (args.elo0, args.elo1, args.alpha, args.beta)
    )
    extra = "".join(" %s=%s" % o for o in args.rule_opts)
    for who, opts in (("A", args.option_a), ("B", args.option_b), ("fsf", args.fsf_option)):
        extra += "".join(" %s:%s" % (who, o) for o in opts)
    print(
        "match: %s, A %s, B %s, %s, up to %d games, seed %d, %s%s"
        % (args.variant, args.a, args.b, go, 2 * args.pairs, args.seed, sprt, extra),
        flush=True,
    )
    return go


def final_line(args, go, tally, decision, seconds, where=""):
    """The `match:` line that ends a match (`where`: after the seconds, e.g. on Ray)."""
    line, value = tally.summary(args)
    verdict = {
        "H1": "H1 accepted (gain >= %g)" % args.elo1,
        "H0": "H0 accepted (gain <= %g)" % args.elo0,
        "stopped": "stopped early",
        None: "no SPRT decision",
    }[decision]
    if args.sprt == "off":
        verdict = "stopped early" if decision == "stopped" else "no SPRT"
    ends = ", ".join("%s %d" % kv for kv in sorted(tally.reasons.items()))

    def name(path):
        kind, path = engine_kind(path)
        return kind if kind != "koma" else os.path.basename(path)

    if args.clock:
        ends += ". Mean time a move: " + ", ".join(
            "%s %.0f ms" % (who, ms / max(1, n)) for who, (ms, n) in sorted(args.time_used.items())
        )
    return "match: %s, A %s vs B %s, %s, %d games (%d pairs, seed %d): %s; %s. Ends: %s. %.0f s%s" % (
        args.variant,
        name(args.a),
        name(args.b),
        go,
        tally.games,
        sum(tally.pairs),
        args.seed,
        line,
        verdict,
        ends,
        seconds,
        where,
    )


def main():
    args = parser().parse_args()
    prepare(args)
    referee, a, b = start_engines(args)
    rng = opening_source(args, referee)
    go = print_header(args)
    tally = Tally()
    t0 = time.time()
    decision = None
    try:
        run(args, args.pairs, referee, a, b, rng, tally)
    except KeyboardInterrupt:
        print("interrupted: Elo and LLR count the whole pairs only", flush=True)
        decision = "stopped"
    except EngineError as e:  # the referee, or an engine that cannot even start a game
        print("match stopped: %s" % e, flush=True)
        decision = "stopped"
    decision = args.decision if decision is None else decision
    print(final_line(args, go, tally, decision, time.time() - t0), flush=True)
    close_engines(a, b, referee)


def play_pair(players, referee, opening, args):
    """The two games of one pair on one opening, A first with the first player's side and
    then with the second: yields (swap, A's score, reason, moves) after each game."""
    a, b = players
    for swap in (False, True):
        winner, why, moves = play_game([b, a] if swap else [a, b], referee, opening, args)
        a_side = 1 if swap else 0
        yield swap, 0.5 if winner is None else (1.0 if winner == a_side else 0.0), why, moves


def report_game(args, tally, pair, swap, score, why, moves):
    """Counts a game and prints its line (pair from 0)."""
    tally.add(score, why)
    print(
        "game %d (pair %d): A plays %s, %s by %s in %d plies"
        % (
            tally.games,
            pair + 1,
            "second" if swap else "first",
            {1.0: "A wins", 0.0: "B wins", 0.5: "draw"}[score],
            why,
            len(moves),
        ),
        flush=True,
    )
    if args.moves or why.startswith(("illegal", "A ", "B ")):
        print("  moves " + " ".join(moves), flush=True)


def report_pair(args, tally, total, seconds):
    """Counts a whole pair (A's total), prints the progress line and returns the SPRT's
    decision (H0, H1, or None to go on)."""
    tally.add_pair(total)
    line, value = tally.summary(args)
    print("after %d games: %s  %.0f s" % (tally.games, line, seconds), flush=True)
    if args.sprt != "off" and sum(tally.pairs) >= args.sprt_min_pairs:
        return stats.sprt_state(value, args.alpha, args.beta)
    return None


def run(args, pairs, referee, a, b, rng, tally):
    """Plays pair after pair until --games or an SPRT decision (args.decision)."""
    args.decision = None
    t0 = time.time()
    for pair in range(pairs):
        opening = make_opening(referee, rng, args)
        total = 0.0
        for swap, score, why, moves in play_pair((a, b), referee, opening, args):
            total += score
            report_game(args, tally, pair, swap, score, why, moves)
        args.decision = report_pair(args, tally, total, time.time() - t0)
        if args.decision:
            return


if __name__ == "__main__":
    main()
