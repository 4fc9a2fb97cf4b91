#!/usr/bin/env python3
"""Wall-clock measurements of koma's time use and responsiveness.
Tests check the time logic on a hand-moved clock; this script measures what a GUI sees.

Usage:
  python3 -m tools.gui_clock [--koma target/release/koma] [--part all|gui|stop|isready|hash]
         [--games N] [--max-plies P] [--byoyomi MS ...] [--samples S] [--no-load]

Parts:
  gui      RokuRokuGUI-style games: a new koma process for every move (`usi`, `isready`,
           `position startpos moves ...`, `go btime 0 wtime 0 byoyomi N`, `quit`), timed
           as the GUI times it, from before the process is started to the `bestmove`
           line, while one busy process per core keeps the machine loaded. A move over
           the byoyomi is a time loss. Reports losses and the slowest moves.
  stop     `stop` -> final line latency in every game, for `go infinite`, `go ponder`,
           `go mate infinite` and `go perft`, on the machine as it is (run it quiet).
  isready  `isready` -> `readyok` latency while idle, searching, in perft and in bench.
  hash     `USI_Hash 4096`, `isready`, then the first `go btime 0 wtime 0 byoyomi 300`:
           the time from `go` to `bestmove`.
"""

import argparse
import multiprocessing
import os
import random
import time

from tools.lib.engine import Engine, Referee, position_command, start, start_koma

GAMES = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"]


def burn():
    while True:
        pass


def load(on):
    """One busy process per core, or none."""
    if not on:
        return []
    procs = [multiprocessing.Process(target=burn, daemon=True) for _ in range(os.cpu_count() or 2)]
    for p in procs:
        p.start()
    return procs


def percentile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = min(len(xs) - 1, max(0, int(round(q / 100.0 * len(xs) + 0.5)) - 1))
    return xs[i]


def summary(name, ms):
    return "%-28s n=%4d  median %6.1f  p99 %6.1f  max %6.1f ms" % (
        name,
        len(ms),
        percentile(ms, 50),
        percentile(ms, 99),
        max(ms) if ms else float("nan"),
    )


def gui_move(koma, moves, byoyomi):
    """One move the RokuRokuGUI way; returns (ms as the GUI clocks it, bestmove)."""
    t0 = time.perf_counter()
    e = start(koma, "usi", name="koma")
    e.send(position_command(moves))
    e.send("go btime 0 wtime 0 byoyomi %d" % byoyomi)
    best = e.until("bestmove")[-1].split()[1]
    ms = (time.perf_counter() - t0) * 1000
    e.close()
    return ms, best


def part_gui(args):
    referee = Referee(args.koma, "shogi66")
    procs = load(not args.no_load)
    try:
        for byo in args.byoyomi:
            times, losses, slow = [], 0, []
            for g in range(args.games):
                moves = []
                for ply in range(args.max_plies):
                    legal, _, result = referee.state(moves)
                    if result is not None:
                        break
                    ms, best = gui_move(args.koma, moves, byo)
                    assert best in legal, (best, moves)
                    times.append(ms)
                    if ms > byo:
                        losses += 1
                        slow.append((round(ms), g, ply))
                    moves.append(best)
            print(summary("gui byoyomi %d (process start to bestmove)" % byo, times))
            print("  moves %d, games %d, time losses %d %s" % (len(times), args.games, losses, slow[:10]))
    finally:
        for p in procs:
            p.terminate()
        referee.close()


def timed(e, line, prefix):
    t0 = time.perf_counter()
    e.send(line)
    lines = e.until(prefix)
    return (time.perf_counter() - t0) * 1000, lines


def setup_position(e, variant):
    """A position a few random plies in (66 shogi: after the placement)."""
    e.send("position startpos")
    moves = []
    rnd = random.Random(11)
    for _ in range(14 if variant in ("shogi66", "numbershogi") else 4):
        e.send(position_command(moves))
        e.send("moves")
        legal = e.until("")[-1].split()
        if not legal:
            break
        moves.append(rnd.choice(legal))
    e.send(position_command(moves))


def part_stop(args):
    for variant in GAMES:
        e = start_koma(args.koma, variant)
        setup_position(e, variant)
        for kind, go, final in [
            ("search", "go infinite", "bestmove"),
            ("ponder", "go ponder btime 0 wtime 0 byoyomi 1000", "bestmove"),
            ("mate", "go mate infinite", "checkmate"),
            ("perft", "go perft 9", "Nodes searched"),
        ]:
            ms = []
            for _ in range(args.samples):
                e.send(go)
                time.sleep(random.uniform(0.03, 0.12))
                t, lines = timed(e, "stop", final)
                e.send("isready")
                e.until("readyok")
                ms.append(t)
            print(summary("stop %s %s" % (variant, kind), ms))
        e.close()


def part_isready(args):
    e = start_koma(args.koma, "shogi66")
    setup_position(e, "shogi66")
    for kind, begin, end, final in [
        ("idle", None, None, None),
        ("search", "go infinite", "stop", "bestmove"),
        ("perft", "go perft 9", "stop", "Nodes searched"),
        ("bench", "bench 30", "stop", "Nodes/second"),
    ]:
        ms = []
        if begin:
            e.send(begin)
        for _ in range(args.samples * 2):
            time.sleep(random.uniform(0.005, 0.03))
            t, _ = timed(e, "isready", "readyok")
            ms.append(t)
        if end:
            e.send(end)
            e.until(final)
        print(summary("isready during %s" % kind, ms))
    e.close()


def part_hash(args):
    worst = []
    for _ in range(3):
        e = Engine([args.koma], "koma")
        e.send("usi")
        e.until("usiok")
        e.send("setoption name USI_Hash value 4096")
        t_ready, _ = timed(e, "isready", "readyok")  # timed: not start()'s isready
        e.send("position startpos moves K*2f K*5a R*1f R*1a G*3f G*4a S*4f S*3a N*5f N*2a L*6f L*6a")
        t_go, _ = timed(e, "go btime 0 wtime 0 byoyomi 300", "bestmove")
        worst.append(t_go)
        print("USI_Hash 4096: isready %.0f ms, first go byoyomi 300 answered in %.1f ms" % (t_ready, t_go))
        e.close()
    print("hash: slowest first move %.1f ms (target 300)" % max(worst))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--part", default="all", choices=["all", "gui", "stop", "isready", "hash"])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--max-plies", type=int, default=200)
    ap.add_argument("--byoyomi", type=int, nargs="+", default=[1000, 200])
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--no-load", action="store_true", help="no busy processes during the gui part")
    args = ap.parse_args()
    random.seed(11)
    print("machine: %d cores, load average %s" % (os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
    if args.part in ("all", "hash"):
        part_hash(args)
    if args.part in ("all", "stop"):
        part_stop(args)
    if args.part in ("all", "isready"):
        part_isready(args)
    if args.part in ("all", "gui"):
        part_gui(args)


if __name__ == "__main__":
    main()
