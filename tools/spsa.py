#!/usr/bin/env python3
"""SPSA tuning of koma's search numbers at fixed nodes, the game pairs played as Ray tasks
on this machine's cores or a cluster (issue 43 item 4; docs/TUNING.md).

Usage:
  python3 -m tools.spsa --variant kokesu --koma KOMA_SPSA --params tools/data/spsa_kokesu.txt
         --pairs 2000 --nodes 10000 --state DIR/kokesu.json [--seed 1] [--cpus N]
         [--address HOST:PORT|auto]

KOMA_SPSA is a build with the `spsa` feature (`cargo build --release --features spsa`),
where the numbers of src/game/search_params.rs are options, `Spsa_<Name>`. The params file
has a line a number, `NAME START MIN MAX C_END` (# starts a comment), and START is the
game's value (`Strategy::SEARCH`) or where the run should begin.

The method is Fishtest's (Stockfish's tuning service): in iteration k (1..N, N = --pairs)
every number moves by +-c_k (a random sign each) for engine A and the other way for B;
A and B play a pair of games on one opening, colours swapped, and each number moves
toward A's side by R_k * c_k * (A's wins - A's losses). c_k = C_END * N^0.101 / k^0.101
and R_k = a_k / c_k^2 with a_k = R_END * C_END^2 * (A + N)^0.602 / (A + k)^0.602,
A = N / 10 (R_END: --r-end): steps start large and shrink to C_END and a learning
rate of R_END.

The pairs are played --cpus at a time (ray_match's task: tools/match.py's games); the
results are applied in iteration order, and iteration k is dispatched with the numbers as
they stand after iteration k - cpus, so a run is the same for a seed, a node count and a
number of CPUs, whatever the load. After each iteration the state file (JSON: the numbers,
the iteration, the games) is rewritten whole; a run given an existing state file goes on
from it (its params, seed and nodes; --pairs may be raised). Each 10 iterations, and at
the end, a line gives the numbers rounded: `Spsa_Name=value ...`, the options to give a
match (`--option-a`) or the values for the game's `Strategy::SEARCH`.
"""

import argparse
import json
import os
import random
import sys
import time

from tools import match, ray_match
from tools.lib import engine
from tools.lib.engine import EngineError
from tools.lib.ray import clock, driver, reason, write_whole

ALPHA, GAMMA = 0.602, 0.101
R_END = 0.002


def read_params(path):
    """[{name, start, min, max, c_end}] from a params file."""
    params = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            try:
                name, start, lo, hi, c_end = line[0], *map(float, line[1:5])
                if len(line) != 5 or not lo <= start <= hi or c_end <= 0:
                    raise ValueError
            except ValueError:
                sys.exit("%s:%d: expected NAME START MIN MAX C_END with MIN <= START <= MAX and C_END > 0" % (path, n))
            params.append(dict(name=name, start=start, min=lo, max=hi, c_end=c_end))
    if not params:
        sys.exit("%s: no params" % path)
    return params


def gains(param, k, n, r_end):
    """(c_k, R_k) of one number in iteration k of n."""
    big_a = n / 10
    c = param["c_end"] * n**GAMMA / k**GAMMA
    a = r_end * param["c_end"] ** 2 * (big_a + n) ** ALPHA / (big_a + k) ** ALPHA
    return c, a / c**2


def flips(seed, k, count):
    """The signs of iteration k: the same for a seed whatever the order of play."""
    rng = random.Random("%d/%d" % (seed, k))
    return [rng.choice((-1, 1)) for _ in range(count)]


def sides(params, theta, k, n, signs, r_end):
    """The options of A (theta + c_k * sign) and B (theta - c_k * sign), each rounded to
    a whole number within the bounds."""

    def at(p, v):
        return str(int(round(min(p["max"], max(p["min"], v)))))

    a, b = [], []
    for p, t, s in zip(params, theta, signs):
        c, _ = gains(p, k, n, r_end)
        a.append((p["name"], at(p, t + c * s)))
        b.append((p["name"], at(p, t - c * s)))
    return a, b


def update(params, theta, k, n, signs, result, r_end):
    """The numbers after iteration k, where A scored `result` = wins - losses (-2..2)."""
    out = []
    for p, t, s in zip(params, theta, signs):
        c, r = gains(p, k, n, r_end)
        out.append(min(p["max"], max(p["min"], t + r * c * result * s)))
    return out


def values_line(params, theta):
    return " ".join("%s=%d" % (p["name"], int(round(t))) for p, t in zip(params, theta))


def load_state(args, params):
    if os.path.exists(args.state):
        with open(args.state) as f:
            state = json.load(f)
        if [state[k] for k in ("params", "seed", "nodes", "r_end")] != [params, args.seed, args.nodes, args.r_end]:
            sys.exit("%s: a run with other params, seed, nodes or --r-end: give another --state" % args.state)
        if args.pairs < state["k"]:
            sys.exit("%s: already %d iterations, more than --pairs" % (args.state, state["k"]))
        if state["pairs"] != args.pairs:
            print("spsa: --pairs %d instead of %d: the gains follow the new N" % (args.pairs, state["pairs"]))
            state["pairs"] = args.pairs
        return state
    return dict(
        params=params,
        seed=args.seed,
        nodes=args.nodes,
        r_end=args.r_end,
        pairs=args.pairs,
        k=0,
        theta=[p["start"] for p in params],
        history=[],  # theta after each iteration
        score=[0, 0, 0],  # A's wins, draws, losses
    )


def run(args, ray, params):
    state = load_state(args, params)
    n = state["pairs"]
    base = match.parser().parse_args(
        ["--variant", args.variant, "--a", args.koma, "--b", args.koma, "--nodes", str(args.nodes)]
        + ["--games", "2", "--sprt", "off", "--seed", str(args.seed)]
        + (["--random-plies", str(args.random_plies)] if args.random_plies is not None else [])
        + sum((["--option", o] for o in args.option), [])
    )
    match.prepare(base)
    referee = engine.new_referee(base.a, base.variant, base.rule_opts)
    try:
        rng = match.opening_source(base, referee)
        # The openings of the iterations already played are drawn again, so a resumed run
        # goes on with the openings it would have had.
        for _ in range(state["k"]):
            match.make_opening(referee, rng, base)
        ray_match.ship_by_value()
        task = ray.remote(num_cpus=1, max_retries=args.retries)(ray_match.play_pairs)
        cpus = args.cpus or max(1, int(ray.cluster_resources().get("CPU", 1)))
        print(
            "spsa: %s, %d numbers, %d iterations (game pairs) at %d nodes, %d at a time, from iteration %d"
            % (args.variant, len(params), n, args.nodes, cpus, state["k"] + 1),
            flush=True,
        )
        in_flight, waiting = {}, {}
        dispatched = state["k"]
        start = state["k"]
        thetas = {start: list(state["theta"])}  # the numbers after iteration k
        t0 = time.time()
        while state["k"] < n:
            # Iteration k waits for the numbers after iteration k - cpus.
            while dispatched < n and len(in_flight) < cpus and dispatched + 1 - cpus <= state["k"]:
                k = dispatched + 1
                theta = thetas[max(start, k - cpus)]
                signs = flips(args.seed, k, len(params))
                a, b = sides(params, theta, k, n, signs, args.r_end)
                shipped = argparse.Namespace(**vars(base))
                shipped.used = None
                shipped.options_a = base.options_a + a
                shipped.options_b = base.options_b + b
                opening = match.make_opening(referee, rng, base)
                in_flight[task.remote(shipped, [(k, opening)])] = (k, signs)
                dispatched = k
            ready, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in ready:
                k, signs = in_flight.pop(ref)
                try:
                    (r,) = ray.get(ref)
                except (ray.exceptions.RayError, ValueError) as e:
                    sys.exit("spsa: iteration %d failed: %s" % (k, reason(e)))
                if r["error"] is not None:
                    sys.exit("spsa: iteration %d: %s" % (k, r["error"]))
                waiting[k] = (signs, [g[1] for g in r["games"]])
            while state["k"] + 1 in waiting:
                k = state["k"] + 1
                signs, scores = waiting.pop(k)
                wins, losses = scores.count(1.0), scores.count(0.0)
                state["score"][0] += wins
                state["score"][1] += len(scores) - wins - losses
                state["score"][2] += losses
                state["theta"] = update(params, state["theta"], k, n, signs, wins - losses, args.r_end)
                state["history"].append([round(t, 2) for t in state["theta"]])
                state["k"] = k
                thetas[k] = list(state["theta"])
                for old in [j for j in thetas if j < max(start, k + 1 - cpus)]:
                    del thetas[old]
                write_whole(args.state, json.dumps(state, indent=1).encode())
                if k % 10 == 0 or k == n:
                    w, d, lo = state["score"]
                    print(
                        "spsa: iteration %d/%d, %s elapsed, A +%d =%d -%d: %s"
                        % (k, n, clock(time.time() - t0), w, d, lo, values_line(params, state["theta"])),
                        flush=True,
                    )
        print("spsa: done: %s" % values_line(params, state["theta"]), flush=True)
    finally:
        match.close_engines(referee)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m tools.spsa",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--variant", required=True, choices=sorted(match.VARIANTS))
    ap.add_argument("--koma", required=True, help="a koma build with the spsa feature")
    ap.add_argument("--params", required=True, help="NAME START MIN MAX C_END a line")
    ap.add_argument("--pairs", type=int, required=True, help="iterations N, a game pair each")
    ap.add_argument("--nodes", type=int, default=10000, help="go nodes a move (default %(default)s)")
    ap.add_argument("--state", required=True, help="the run's state file (JSON), resumed if it exists")
    ap.add_argument(
        "--r-end",
        type=float,
        default=R_END,
        help="the last learning rate (default %(default)s, Fishtest's for runs of tens of thousands of "
        "games; a run of a few thousand pairs needs about ten times more to move at all)",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--random-plies", type=int, default=None, help="as tools/match.py")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE rules switches for both")
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="pairs in play at a time (default: all CPUs)")
    ap.add_argument("--retries", type=int, default=2)
    args = ap.parse_args(argv)
    if args.pairs < 1 or args.nodes < 1 or (args.cpus is not None and args.cpus < 1) or args.r_end <= 0:
        ap.error("--pairs, --nodes and --cpus must be at least 1, --r-end above 0")
    args.koma = os.path.abspath(args.koma)
    if not (os.path.isfile(args.koma) and os.access(args.koma, os.X_OK)):
        sys.exit("not an executable: %s" % args.koma)
    params = read_params(args.params)
    with driver("spsa", args.address, args.cpus) as ray:
        try:
            run(args, ray, params)
        except EngineError as e:
            sys.exit("spsa: %s" % e)
    return 0


if __name__ == "__main__":
    sys.exit(main())
