#!/usr/bin/env python3
"""Combine the logs of several tools/match.py runs into one result.

A change worth a few Elo needs more games than one match: play it again with other seeds
(`--seed S`, each seed its own openings) and combine the logs:

    python3 -m tools.match_combine m-s16.log m-s17.log m-s18.log [--sprt 0,10]

One line per log (its seed and result), then the combined one: W/D/L, Elo ± 95% from the
pair scores (pentanomial), LOS and the GSPRT log-likelihood ratio with its verdict, as
tools/match.py computes them (tools/lib/stats.py). The SPRT was made to be continued:
adding a seed's games to the earlier ones until the ratio leaves its bounds is the test
itself, not a second look at the same data. Only whole pairs count, as in an interrupted
match. Two logs with the same seed played the same openings: that is reported as a
warning (their pairs still count, but replayed openings say less than new ones).
"""

import argparse
import re
import sys

from tools.lib import stats

HEADER = re.compile(r"match: (\S+), A (\S+), B (\S+), (.*), up to \d+ games, seed (\d+),")
GAME = re.compile(r"game \d+ \(pair (\d+)\): A plays (first|second), (A wins|B wins|draw) by ")
SCORE = {"A wins": 1.0, "B wins": 0.0, "draw": 0.5}


class Log:
    """One match.py log: its header's variant, engines, limit and seed, and its games."""

    def __init__(self, name, lines):
        self.name = name
        self.variant = self.a = self.b = self.limit = None
        self.seed = None
        self.games = {}  # pair -> scores of A, in the order played
        for line in lines:
            m = HEADER.match(line)
            if m and self.variant is None:
                self.variant, self.a, self.b, self.limit = m.group(1, 2, 3, 4)
                self.seed = int(m.group(5))
                continue
            m = GAME.match(line)
            if m:
                self.games.setdefault(int(m.group(1)), []).append(SCORE[m.group(3)])

    def wdl(self):
        scores = [s for pair in self.whole_pairs() for s in pair]
        return scores.count(1.0), scores.count(0.5), scores.count(0.0)

    def whole_pairs(self):
        return [p for p in self.games.values() if len(p) == 2]

    def pair_counts(self):
        counts = [0] * 5
        for p in self.whole_pairs():
            counts[int(round(sum(p) * 2))] += 1
        return counts


def summary(wdl, counts, elo0, elo1):
    """(text, LLR) of a W/D/L and pentanomial counts, as match.py prints them."""
    w, d, l = wdl
    n, mu, var = stats.pentanomial(counts)
    e, err = stats.elo_interval(n, mu, var)
    if n < 2:
        err = float("inf")
    value = stats.llr(*stats.pentanomial(stats.regularize(counts)), elo0, elo1)
    games = w + d + l
    text = "+%d =%d -%d  %.1f%%  Elo %s  LOS %.1f%%  LLR %.2f [%g, %g]" % (
        w,
        d,
        l,
        100 * (w + d / 2) / max(1, games),
        stats.fmt_elo(e, err),
        100 * stats.los(w, l),
        value + 0.0,
        elo0,
        elo1,
    )
    return text, value


def combine(logs, elo0, elo1):
    """The report's lines: one per log, warnings, and the combined result."""
    out = []
    total = [0] * 5
    wdl = [0, 0, 0]
    for log in logs:
        if log.variant is None:
            out.append("%s: no match.py header, skipped" % log.name)
            continue
        counts = log.pair_counts()
        text, _ = summary(log.wdl(), counts, elo0, elo1)
        out.append("%s: %s, seed %d, %d pairs: %s" % (log.name, log.variant, log.seed, sum(counts), text))
        total = [t + c for t, c in zip(total, counts)]
        wdl = [t + c for t, c in zip(wdl, log.wdl())]
    used = [log for log in logs if log.variant is not None]
    seeds = [log.seed for log in used]
    for seed in sorted(set(s for s in seeds if seeds.count(s) > 1)):
        out.append("warning: seed %d appears in %d logs: they played the same openings" % (seed, seeds.count(seed)))
    for what, values in (("variant", {log.variant for log in used}), ("limit", {log.limit for log in used})):
        if len(values) > 1:
            out.append("warning: the logs differ in %s: %s" % (what, ", ".join(sorted(values))))
    text, value = summary(wdl, total, elo0, elo1)
    lower, upper = stats.sprt_bounds()
    verdict = {"H1": "H1 accepted (gain >= %g)" % elo1, "H0": "H0 accepted (gain <= %g)" % elo0}.get(
        stats.sprt_state(value), "no SPRT decision, bounds (%.2f, %.2f)" % (lower, upper)
    )
    out.append("combined: %d logs, %d pairs: %s; %s" % (len(used), sum(total), text, verdict))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("logs", nargs="+", help="match.py logs (its standard output)")
    ap.add_argument("--sprt", default="0,10", help="elo0,elo1 of the SPRT (default 0,10)")
    args = ap.parse_args(argv)
    try:
        elo0, elo1 = (float(x) for x in args.sprt.split(","))
    except ValueError:
        ap.error("--sprt wants elo0,elo1, e.g. 0,10")
    logs = []
    for path in args.logs:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                logs.append(Log(path, f))
        except OSError as e:
            ap.error("cannot read %s: %s" % (path, e.strerror))
    print("\n".join(combine(logs, elo0, elo1)))


if __name__ == "__main__":
    sys.exit(main())
