#!/usr/bin/env python3
"""The playing levels' calibration (issue 42): a ladder of matches between neighbouring
levels of one koma build (tools/match.py, paired openings, colours swapped), each level
against the next one up, the top one being full strength (SkillLevel 20). Prints a
markdown row a rung and the rows of src/engine/levels.txt.

  python3 -m tools.levels_ladder --koma KOMA --variant kokesu [--nodes 10000] [--games 20]

Elo of a rung: from the score, with half a win and half a loss added (so a rung won or
lost whole still gives a finite, clearly marked lower bound of the gap, "≥"); its 95%
error bar is match.py's. A level's Elo is the anchor plus the rungs below it; the anchor
(`--base-elo`, the weakest level's Elo) is a convention where no outside measurement sets
it (docs/STRENGTH.md, "Levels").
"""

import argparse
import math
import re
import subprocess
import sys

from tools.lib.stats import elo

NAMES = {0: "Beginner", 1: "Novice", 2: "Casual", 4: "Club", 7: "Intermediate", 11: "Advanced", 20: "Full strength"}
RESULT = re.compile(r"A \+(\d+) =(\d+) -(\d+)\s+[\d.]+%\s+Elo (\S+)(?: ± (\S+))?")


def rung(args, low, high):
    """(wins, draws, losses of `low` against `high`, match.py's error bar, the match line)."""
    cmd = [
        sys.executable,
        "-m",
        "tools.match",
        "--variant",
        args.variant,
        "--a",
        args.koma,
        "--b",
        args.koma,
        "--nodes",
        str(args.nodes),
        "--games",
        str(args.games),
        "--sprt",
        "off",
        "--seed",
        str(args.seed),
        "--option-a",
        "SkillLevel=%d" % low,
        "--option-b",
        "SkillLevel=%d" % high,
    ] + args.extra
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.startswith("match:")][-1]
    m = RESULT.search(line)
    err = m.group(5)
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), (float(err) if err and err != "inf" else None), line


def gap(w, d, l):
    """The Elo of the upper level over the lower, from the lower's score, half a game added each way."""
    n = w + d + l
    return -elo((w + d / 2 + 0.5) / (n + 1)), w + d / 2 in (0, n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--koma", required=True)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--levels", default="0,1,2,4,7,11,20")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--base-elo", type=float, default=800, help="the weakest level's Elo (the anchor)")
    ap.add_argument("extra", nargs="*", help="more tools.match options after --")
    args = ap.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    elos, var = [args.base_elo], [0.0]
    for low, high in zip(levels, levels[1:]):
        w, d, l, err, line = rung(args, low, high)
        g, whole = gap(w, d, l)
        elos.append(elos[-1] + max(g, 0.0))  # a gap measured below zero counts as none
        var.append(var[-1] + ((err or 400) / 1.96) ** 2)
        print(
            "| %s | %d vs %d | +%d =%d -%d | %s%.0f%s |"
            % (args.variant, low, high, w, d, l, "≥ " if whole else "", g, "" if err is None else " ± %.0f" % err),
            flush=True,
        )
        print("  " + line, flush=True)
    for lv, e, v in zip(levels, elos, var):
        print("level %d: Elo %.0f ± %.0f (the rungs' error bars below it added up)" % (lv, e, 1.96 * math.sqrt(v)))
    for lv, e in zip(levels, elos):
        print("%s %d %d %s" % (args.variant, lv, round(e), NAMES.get(lv, "Level %d" % lv)))


if __name__ == "__main__":
    main()
