#!/usr/bin/env python3
"""tools/match.py with its game pairs played as Ray tasks, on this machine's cores or on
a Ray cluster, and still one SPRT verdict: a change tested on many machines, as fishtest
does for Stockfish (issue 34). docs/RAY.md says how to run it on a cluster and what it
measured.

Usage:
  python3 -m tools.ray_match MATCH-OPTIONS [--address HOST:PORT|auto] [--cpus N]
         [--pairs-per-task 1] [--retries 2]
  python3 -m tools.ray_match --variant kokesu --a NEW --b OLD --nodes 20000 --sprt 0,10 --cpus 2

MATCH-OPTIONS are tools/match.py's, with the same meaning and defaults; the log has the
same lines, so tools/match_combine.py reads it as it reads match.py's.

The same match: the driver draws the openings with its own referee (a koma process of
A's binary), pair after pair from --seed exactly as match.py does, so pair k plays the
opening it would play in match.py. Each task plays --pairs-per-task pairs (1) with its own
A, B and referee processes and returns the games. With a node or depth limit a game does
not depend on the machine, its load or the games played before it in the same process
(koma forgets them at `usinewgame`): the same seed gives the same games as match.py.

The same verdict: results are buffered and reported in pair order (the game lines, an
`after N games` line a pair, then the final `match:` line, where the seconds are followed
by `on Ray, N CPUs`), and the SPRT is applied after each pair in that order, exactly as
match.py applies it. Once it decides, the tasks still in flight are cancelled and the
pairs that finished out of turn are not counted; a `ray:` line says how many. A pair
whose engine cannot start a game (or whose task fails, after Ray's --retries for a lost
worker) stops the match at that pair (`match stopped: ...`), as in match.py. Ctrl-C: the
whole pairs reported so far count.

Where: without --address, Ray starts on this machine with all its cores or --cpus N
(about 5 s to start), its workers and so the engines at the driver's niceness, as in
match.py (Ray's own default is nice 15; RAY_worker_niceness in the environment wins).
With --address HOST:PORT (or `auto`) the driver joins a running cluster and --cpus, if
given, caps the tasks in flight (default: the cluster's CPUs). A task takes one CPU: one
engine thinks at a time. The engine paths are made absolute and run at that path on
whichever machine plays the pair: every worker needs the binaries there (both; koma's
also on the driver's machine, for the openings). The tasks go to the workers by value:
koma against koma needs only Ray and the binaries there; against Fairy-Stockfish
(fsf:PATH) or Stockfish (stockfish:PATH) a worker also needs this repository at the same
path (tools/lib/fsf.py and its variants file, tools/lib/stockfish.py). Ray's own logging is kept quiet.
"""

import contextlib
import io
import os
import sys
import time

from tools import match
from tools.lib import engine
from tools.lib.engine import EngineError
from tools.lib.paths import ROOT
from tools.lib.ray import driver, reason
from tools.lib.ray import ship_by_value as ship_modules


def play_pairs(args, batch):
    """One task: the pairs of `batch`, [(pair from 0, opening)], played with this task's
    own engines. Returns one dict a pair played, in order: `pair`, `games` [(swap, A's
    score, reason, moves, what the game printed)], `time_used` (a clock game's), and
    `error` (None, or why the match stops at this pair: an engine that cannot start a
    game, the referee) with `tail`, what was printed before it. The batch ends at an
    error. Runs on a worker: its modules go with it by value (ship_by_value)."""
    if any(kind != "koma" for kind, _ in args.kinds) and ROOT not in sys.path:
        sys.path.insert(0, ROOT)  # tools.lib.fsf or tools.lib.stockfish is imported there, by name
    results = []
    engines = []
    try:
        try:
            referee, a, b = match.start_engines(args)
        except EngineError as e:
            return [dict(pair=batch[0][0], games=[], time_used=None, error=str(e), tail="")]
        engines = [a, b, referee]
        for pair, opening in batch:
            args.time_used = {"A": [0.0, 0], "B": [0.0, 0]}
            r = dict(pair=pair, games=[], time_used=args.time_used, error=None, tail="")
            results.append(r)
            games = match.play_pair((a, b), referee, opening, args)
            while True:
                out = io.StringIO()
                try:
                    with contextlib.redirect_stdout(out):
                        game = next(games, None)
                except EngineError as e:
                    r["error"], r["tail"] = str(e), out.getvalue()
                    return results
                if game is None:
                    break
                r["games"].append(game + (out.getvalue(),))
        return results
    finally:
        match.close_engines(*engines)


def ship_by_value():
    """Has Ray send the task and the match modules it uses to the workers by value, so
    that a worker needs Ray and the binaries but not this repository's Python files."""
    ship_modules("tools.lib.engine", "tools.lib.stats", "tools.match", __name__)


class InOrder:
    """Pair results, in whatever order they finish, reported in pair order as match.py
    reports them: each game's line, the progress line and the SPRT after each pair.
    `decision`: None while the match goes on, else H0, H1, or `stopped` (an error)."""

    def __init__(self, args, tally, t0):
        self.args, self.tally, self.t0 = args, tally, t0
        self.next = 0  # the next pair to report
        self.waiting = {}  # pair -> result, finished before its turn
        self.decision = None

    def add(self, result):
        self.waiting[result["pair"]] = result
        while self.decision is None and self.next in self.waiting:
            self.report(self.waiting.pop(self.next))
        return self.decision

    def report(self, r):
        args, total = self.args, 0.0
        for swap, score, why, moves, printed in r["games"]:
            sys.stdout.write(printed)
            total += score
            match.report_game(args, self.tally, r["pair"], swap, score, why, moves)
        if r["time_used"]:
            for who, (ms, n) in r["time_used"].items():
                args.time_used[who][0] += ms
                args.time_used[who][1] += n
        if r["error"] is not None:
            sys.stdout.write(r["tail"])
            print("match stopped: %s" % r["error"], flush=True)
            self.decision = "stopped"
            return
        self.next += 1
        self.decision = match.report_pair(args, self.tally, total, time.time() - self.t0)


def plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def numbers(pairs):
    return ", ".join(str(p + 1) for p in sorted(pairs))


def drive(args, ray):
    """The match on an initialised Ray; prints its log and returns the decision."""
    referee = engine.new_referee(args.koma, args.variant, args.rule_opts)  # the openings, as match.py draws them
    try:
        return _drive(args, ray, referee)
    finally:
        match.close_engines(referee)


def _drive(args, ray, referee):
    rng = match.opening_source(args, referee)
    go = match.print_header(args)

    def cpus():
        return args.cpus or max(1, int(ray.cluster_resources().get("CPU", 1)))

    used = cpus()
    print(
        "ray: pairs played as Ray tasks on %s, %s, %s a task"
        % (
            "this machine" if args.address is None else "the cluster at " + args.address,
            plural(used, "CPU"),
            plural(args.pairs_per_task, "pair"),
        ),
        flush=True,
    )
    ship_by_value()
    task = ray.remote(num_cpus=1, max_retries=args.retries)(play_pairs)
    shipped = match.argparse.Namespace(**vars(args))
    shipped.used = None  # the driver's record of the openings drawn
    shipped = ray.put(shipped)

    tally = match.Tally()
    t0 = time.time()
    order = InOrder(args, tally, t0)
    in_flight = {}  # task -> its pairs
    submitted = 0
    decision = None
    try:
        while order.decision is None and order.next < args.pairs:
            used = cpus()
            while submitted < args.pairs and len(in_flight) < used:
                n = min(args.pairs_per_task, args.pairs - submitted)
                batch = [(k, match.make_opening(referee, rng, args)) for k in range(submitted, submitted + n)]
                in_flight[task.remote(shipped, batch)] = [k for k, _ in batch]
                submitted += n
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                pairs = in_flight.pop(ref)
                try:
                    results = ray.get(ref)
                except ray.exceptions.RayError as e:
                    results = [
                        dict(
                            pair=pairs[0], games=[], time_used=None, tail="", error="a Ray task failed: %s" % reason(e)
                        )
                    ]
                for r in results:
                    order.add(r)
    except KeyboardInterrupt:
        print("interrupted: Elo and LLR count the whole pairs only", flush=True)
        decision = "stopped"
    except EngineError as e:  # the driver's referee, drawing an opening
        print("match stopped: %s" % e, flush=True)
        decision = "stopped"
    decision = decision or order.decision
    cancel(ray, args, in_flight, order, decision)
    print(
        match.final_line(args, go, tally, decision, time.time() - t0, " on Ray, %s" % plural(used, "CPU")), flush=True
    )
    return decision


def cancel(ray, args, in_flight, order, decision):
    """Cancels the tasks in flight once the match is decided or stopped, and says so with
    the pairs that finished out of turn and are not counted."""
    if not in_flight and not order.waiting:
        return
    refs = list(in_flight)
    for ref in refs:
        ray.cancel(ref)
    why = {"H0": "the SPRT accepted H0", "H1": "the SPRT accepted H1"}.get(decision, "the match stopped")
    text = "ray: %s after pair %d: %s in flight cancelled" % (why, sum(order.tally.pairs), plural(len(refs), "task"))
    flying = [p for pairs in in_flight.values() for p in pairs]
    if flying:
        text += " (pairs %s)" % numbers(flying)
    text += ", %s finished out of turn not counted" % plural(len(order.waiting), "pair")
    if order.waiting:
        text += " (%s)" % numbers(order.waiting)
    print(text, flush=True)
    # The cancelled tasks close their engines (a KeyboardInterrupt within half a second).
    ray.wait(refs, num_returns=len(refs), timeout=10)


def absolute(spec):
    """An --a or --b engine with its path made absolute, its `fsf:` or `stockfish:` kept."""
    kind, path = match.engine_kind(spec)
    return ("" if kind == "koma" else kind + ":") + os.path.abspath(path)


def main(argv=None):
    ap = match.parser()
    ap.prog = "python3 -m tools.ray_match"
    ap.description = __doc__.split("\n\n")[0]
    ray_opts = ap.add_argument_group("Ray")
    ray_opts.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ray_opts.add_argument(
        "--cpus",
        type=int,
        help="CPUs to use, one pair in play on each (default: all of this machine's, or of the cluster)",
    )
    ray_opts.add_argument("--pairs-per-task", type=int, default=1, help="pairs a task plays (default: %(default)s)")
    ray_opts.add_argument(
        "--retries", type=int, default=2, help="Ray's retries of a task whose worker died (default: %(default)s)"
    )
    args = ap.parse_args(argv)
    if (args.cpus is not None and args.cpus < 1) or args.pairs_per_task < 1 or args.retries < 0:
        ap.error("--cpus and --pairs-per-task must be at least 1, --retries at least 0")
    # The tasks run the engines at these paths, on whichever machine plays the pair.
    args.a, args.b = (absolute(spec) for spec in (args.a, args.b))
    match.prepare(args, check_paths=args.address is None)
    if not (os.path.isfile(args.koma) and os.access(args.koma, os.X_OK)):
        sys.exit("not an executable: %s" % args.koma)  # the driver's referee runs it here
    if args.fsf:
        from tools.lib import fsf

        fsf.variant_setup(args.variant, args.rule_options)  # exits here if FSF cannot play them
    # A local Ray runs its workers at the driver's niceness, as match.py's games run.
    with driver("ray_match", args.address, args.cpus) as ray:
        drive(args, ray)
    return 0


if __name__ == "__main__":
    sys.exit(main())
