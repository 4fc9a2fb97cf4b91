#!/usr/bin/env python3
"""Search speed of koma builds: the wall time each build takes to search a fixed number
of nodes on the same positions, and its nodes per second. For a change meant to make
the search faster without changing its moves (the same bench node count), this is the
figure that says how much faster; a match at equal time says what it is worth.

Usage:
  python3 -m tools.search_speed --variant kaninariebi BUILD [BUILD ...]
         [--nodes 1000000] [--repeat 3] [--position "startpos moves ..."]

Each repetition runs every build once on every position, builds alternating, each in a
fresh process (`USI_Hash 16`, Threads 1); the median of the repetitions is printed. Run
it on an idle machine: one search runs at a time, but a timing is only as good as the
cores it had. A search that ends early (a forced result) is timed all the same, so pick
positions where no build finds one within the nodes.
"""

import argparse
import os
import statistics
import time

from tools.lib.engine import last_info, start_koma

# `position` arguments: the start, six plies of koma at 20000 nodes a move from it, and
# a middlegame (66 shogi: after a placement, which `go` answers from its book; Number
# Shogi: none, its placement is answered at random).
POSITIONS = {
    "kaninariebi": [
        "startpos",
        "startpos moves 5c2c 1a3a 5b4b 1e2e 5e3e 1d2d",
        "sfen C1c2/1C1c1/c1C1C/2c2/C3c b - 11",
    ],
    "kanishogi": ["startpos"],
    "kokesu": ["startpos"],
    "shogi66": ["sfen lrnskg/pppppp/6/6/PPPPPP/GKSNRL b - 13"],
}


def nodes_of(lines):
    """The node count of the last `info` line that has one."""
    return last_info(lines, "nodes")


def think(build, variant, position, nodes):
    """(seconds from `go` to `bestmove`, nodes searched) of one fresh process."""
    e = start_koma(build, variant, [("USI_Hash", "16"), ("Threads", "1")])
    e.send("position " + position)
    e.send("isready")
    e.until("readyok", timeout=30)
    start = time.perf_counter()
    e.send("go nodes %d" % nodes)
    lines = e.until("bestmove", timeout=600)
    seconds = time.perf_counter() - start
    e.close()
    return seconds, nodes_of(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("builds", nargs="+", help="koma binaries, the first one the reference")
    ap.add_argument("--variant", required=True)
    ap.add_argument("--nodes", type=int, default=1000000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--position", action="append", help="a `position` argument (default: the variant's own)")
    args = ap.parse_args()
    positions = args.position or POSITIONS.get(args.variant)
    if not positions:
        ap.error("no default positions for %s: give --position" % args.variant)
    print(
        "| position | build | seconds (median of %d) | nodes (last info line) | nodes/s | time against the first |"
        % args.repeat
    )
    print("|---|---|---|---|---|---|")
    for position in positions:
        runs = {b: [] for b in args.builds}
        nodes = {}
        for _ in range(args.repeat):
            for b in args.builds:
                s, n = think(b, args.variant, position, args.nodes)
                runs[b].append(s)
                nodes[b] = n
        base = statistics.median(runs[args.builds[0]])
        for b in args.builds:
            med = statistics.median(runs[b])
            n = nodes[b] or 0
            print(
                "| %s | %s | %.2f | %d | %.0f | %.2f |" % (position, os.path.basename(b), med, n, n / med, med / base),
                flush=True,
            )


if __name__ == "__main__":
    main()
