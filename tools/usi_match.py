#!/usr/bin/env python3
"""Retired: tools/match.py does this and more (go nodes, an SPRT, Elo ± error, the
kokesu rules, Fairy-Stockfish). This keeps the old command line working:

  python3 tools/usi_match.py --variant V --a NEW --b OLD [--movetime MS] [--pairs N]
         [--random-plies K] [--seed S] [--max-plies P] [--option NAME=VALUE ...]

runs  tools/match.py --variant V --a NEW --b OLD --movetime MS --games 2N --sprt off ...
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True, choices=sorted(match.VARIANTS))
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--random-plies", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--option", action="append", default=[])
    a = ap.parse_args()
    argv = ["--variant", a.variant, "--a", a.a, "--b", a.b, "--movetime", str(a.movetime),
            "--games", str(2 * a.pairs), "--sprt", "off", "--seed", str(a.seed),
            "--max-plies", str(a.max_plies)]
    if a.random_plies is not None:
        argv += ["--random-plies", str(a.random_plies)]
    for o in a.option:
        argv += ["--option", o]
    print("usi_match.py is retired; running: tools/match.py " + " ".join(argv), flush=True)
    sys.argv = [sys.argv[0]] + argv
    match.main()


if __name__ == "__main__":
    main()
