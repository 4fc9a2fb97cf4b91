#!/usr/bin/env python3
"""Perft speed of koma beside Fairy-Stockfish on the same positions, one thread each.

Usage:
  python3 -m tools.perft_speed --fsf PATH --game kokesu|numbershogi|shogi66 CASE:DEPTH ...

CASE is an `id` of fixtures/perft/<game>.perft (its sfen and `option` lines are used).
Both engines run as processes already started; the time is measured from sending
`go perft` to reading `Nodes searched`, so start-up is not counted. Prints both node
counts (they differ where Fairy-Stockfish cannot express a rule: Number Shogi's sum of
seven ends the game in koma only) and both speeds.

The Fairy-Stockfish variant definitions are tools/data/fsf_variants.ini (the cross-check
scripts' too) and the SFEN -> FEN conversion tools/lib/fsf.py's; a current
Fairy-Stockfish is built from the pyffish source release as
tests/reference/kokesu_pyffish.py explains.
"""

import argparse
import os
import time

from tools.lib.engine import start_koma
from tools.lib.fsf import fen_of, start_fsf, variant_setup
from tools.lib.paths import DEFAULT_KOMA, ROOT


def read_cases(game):
    cases, cur = {}, None
    with open(os.path.join(ROOT, "fixtures", "perft", game + ".perft")) as f:
        for line in f:
            line = line.strip()
            if line.startswith("id "):
                cur = cases.setdefault(line[3:], {"options": {}})
            elif line.startswith("sfen ") and cur is not None:
                cur["sfen"] = line[5:]
            elif line.startswith("option ") and cur is not None:
                k, v = line[7:].split("=", 1)
                cur["options"][k] = v
    return cases


def perft(engine, depth):
    """(leaf count, seconds) of `go perft depth`, timed from the command to its total."""
    engine.send("isready")
    engine.until("readyok")
    t0 = time.perf_counter()
    engine.send("go perft %d" % depth)
    line = engine.until("Nodes searched")[-1]
    return int(line.split(":")[1]), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--fsf", required=True)
    ap.add_argument("--game", required=True)
    ap.add_argument("cases", nargs="+", help="fixture id:depth")
    args = ap.parse_args()
    cases = read_cases(args.game)
    print("%-34s %5s %14s %9s %14s %9s" % ("case", "depth", "koma nodes", "koma Mn/s", "fsf nodes", "fsf Mn/s"))
    for spec in args.cases:
        cid, depth = spec.rsplit(":", 1)
        case = cases[cid]
        variant, _ = variant_setup(args.game, case["options"])
        koma = start_koma(args.koma, args.game, case["options"].items())
        koma.send("position sfen " + case["sfen"])
        kn, kt = perft(koma, int(depth))
        koma.close()
        fsf = start_fsf(args.fsf, variant)
        fsf.send("position fen " + fen_of(args.game, case["sfen"]))
        fn, ft = perft(fsf, int(depth))
        fsf.close()
        print("%-34s %5s %14d %9.1f %14d %9.1f" % (cid, depth, kn, kn / kt / 1e6, fn, fn / ft / 1e6), flush=True)


if __name__ == "__main__":
    main()
