#!/usr/bin/env python3
"""Where koma's and Fairy-Stockfish's Kokesu evaluations disagree (issue 43): each suite
position's depth-1 score from both engines, per theme, and the disagreement against the
terms of Fairy-Stockfish's classical evaluation (its `eval` command).

Usage:
  python3 -m tools.eval_disagree --koma KOMA --fsf FSF SUITE.epd ...

Per theme: positions, the mean of koma minus FSF (centipawns, the side to move's view),
its mean size and the correlation of the two scores. Then koma's scores fitted as
`a * FSF + b` over all positions, and for each FSF term (middlegame and endgame, FSF
pawns, the side to move's view) its correlation with what that fit leaves: a term koma
lacks or undervalues correlates negatively. Depth 1 (with each engine's quiescence
search) rather than a static evaluation, since koma has no `eval` command; suite
positions are quiet. Scores beyond 3000 cp (either engine) are left out. Needs numpy.
"""

import argparse
import re

import numpy as np

from tools.knowledge import SuiteEngine
from tools.lib import epd

TERMS = [
    "Material",
    "Imbalance",
    "Pawns",
    "Knights",
    "Bishops",
    "Rooks",
    "Queens",
    "Mobility",
    "King safety",
    "Threats",
    "Passed",
    "Space",
    "Winnable",
]
TERM_ROW = re.compile(r"\|\s*([A-Za-z ]+?)\s*\|.*\|\s*(-?[\d.]+)\s+(-?[\d.]+)\s*\|\s*$")


def fsf_terms(lines):
    """{term: (mg, eg)} from the total columns of Fairy-Stockfish's `eval` table."""
    terms = {}
    for line in lines:
        m = TERM_ROW.match(line)
        if m and m.group(1) in TERMS:
            terms[m.group(1)] = (float(m.group(2)), float(m.group(3)))
    return terms


def depth1_cp(engine, fen):
    """The engine's depth-1 score in centipawns (None for a mate or no score)."""
    engine.send("position fen " + fen)
    engine.send("go depth 1")
    cp = None
    for line in engine.until("bestmove", timeout=60):
        m = re.search(r"score cp (-?\d+)", line)
        if m:
            cp = int(m.group(1))
    return cp


def report(rows):
    """The text report of rows (theme, koma cp, FSF cp, {term: (mg, eg)} side to move's view)."""
    out = ["%-45s %5s %7s %7s %6s" % ("theme", "n", "mean d", "mean|d|", "corr")]
    themes = list(dict.fromkeys(r[0] for r in rows))
    for theme in themes + ["all"]:
        sel = [r for r in rows if theme in ("all", r[0])]
        k, s = np.array([r[1] for r in sel], float), np.array([r[2] for r in sel], float)
        corr = np.corrcoef(k, s)[0, 1] if len(sel) > 2 else float("nan")
        out.append("%-45s %5d %7.1f %7.1f %6.2f" % (theme, len(sel), (k - s).mean(), abs(k - s).mean(), corr))
    k, s = np.array([r[1] for r in rows], float), np.array([r[2] for r in rows], float)
    a, b = np.polyfit(s, k, 1)
    left = k - (a * s + b)
    out.append("koma = %.2f * FSF %+.1f; what is left against FSF's terms (correlation):" % (a, b))
    for term in TERMS:
        for i, phase in enumerate(["mg", "eg"]):
            x = np.array([r[3].get(term, (0, 0))[i] for r in rows], float)
            if x.std() > 0:
                out.append("  %-12s %s %6.2f" % (term, phase, np.corrcoef(left, x)[0, 1]))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="+", metavar="EPD")
    ap.add_argument("--koma", required=True)
    ap.add_argument("--fsf", required=True)
    args = ap.parse_args(argv)
    koma, fsf = SuiteEngine("koma", args.koma).e, SuiteEngine("fsf", "fsf:" + args.fsf).e
    rows = []
    positions, _ = epd.read_suite(args.suites)
    for pos in positions:
        fsf.send("position fen " + pos.fen)
        fsf.send("eval")
        terms = fsf_terms(fsf.until("Final evaluation", timeout=60))
        k, s = depth1_cp(koma, pos.fen), depth1_cp(fsf, pos.fen)
        if k is None or s is None or max(abs(k), abs(s)) > 3000:
            continue
        sign = 1 if pos.fen.split()[1] == "w" else -1
        rows.append((pos.theme, k, s, {t: (sign * v[0], sign * v[1]) for t, v in terms.items()}))
    print(report(rows))


if __name__ == "__main__":
    main()
