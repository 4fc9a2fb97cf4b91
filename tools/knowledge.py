#!/usr/bin/env python3
"""Kokesu's knowledge at equal nodes (issue 43): chess test suites scored by points per
theme, and an equal-node match, for koma against Fairy-Stockfish or an earlier build.

Usage:
  python3 -m tools.knowledge --fsf FSF --nodes 20000 [--jobs 2] SUITE.epd ...
  python3 -m tools.knowledge --fsf FSF --nodes 50000 --games 200 [--cpus 2]
  python3 -m tools.knowledge --koma NEW --base OLD --nodes 20000 SUITE.epd --games 400 --sprt 0,10

Fixed nodes make every figure independent of the machine and its load: each engine has
one thread and a fresh 16 MiB table for each position, so the same build answers the same
move wherever and however often it runs, and `--jobs N` (N positions at a time) only
makes it faster.

The suite (tools/lib/epd.py reads it; keep third-party suites outside the repository): each
position, castling rights and en-passant square stripped (Kokesu has neither; positions
whose best move needs them are left out, and so are other moves that do), goes to every
engine as `position fen ...` and `go nodes N`; the move it answers scores the points the
suite gives it (STS: `c8`/`c9`, 10 for the best move), 0 for any other. The report has a
row per theme (an `id` less its number): positions, the points available, each engine's
points and share of them, and the ratio of koma's points to the last engine's (FSF's,
else the base build's). `--out FILE` writes each answer as a JSON line.

The match runs tools/match.py (tools/ray_match.py with `--cpus` or `--address`) with the
same node limit, `KokesuPromotion=free` (Fairy-Stockfish's rules), koma as A and FSF (or
the base build) as B: that tool's openings, log and SPRT verdict.

Engines: `--koma` (default this checkout's target/release/koma) and `--base` are koma
builds spoken to in UCI with `UCI_Variant kokesu` and `KokesuPromotion free` (plus each
`--option NAME=VALUE`); `--fsf` is a native Fairy-Stockfish (tests/reference/kokesu_pyffish.py
says how to build it) playing `kokesu-free` from tools/data/fsf_variants.ini.
"""

import argparse
import json
import os
import subprocess
import sys
import threading

from tools.lib import epd
from tools.lib.engine import EngineError, start_uci
from tools.lib.paths import DEFAULT_KOMA, ROOT

HASH_MB = 16
# Far more than a node-limited search takes on any machine: only a hung engine waits it out.
MOVE_TIMEOUT = 600


class SuiteEngine:
    """One engine process answering `go nodes N` in suite positions."""

    def __init__(self, name, path, options=()):
        self.name = name
        if path.startswith("fsf:"):
            from tools.lib import fsf

            self.e = fsf.start_fsf(
                path[4:], "kokesu-free", [("Threads", "1"), ("Hash", str(HASH_MB))], name, timeout=60
            )
        else:
            opts = [
                ("UCI_Variant", "kokesu"),
                ("KokesuPromotion", "free"),
                ("Threads", "1"),
                ("Hash", str(HASH_MB)),
            ] + list(options)
            self.e = start_uci(path, opts, name, timeout=60)

    def best(self, fen, nodes):
        """(the move it answers, None), or (None, the error line it gave for the position)."""
        self.e.send("ucinewgame")
        self.e.send("position fen " + fen)
        self.e.send("isready")
        errors = [ln for ln in self.e.until("readyok", timeout=60) if ln.startswith("info string error")]
        if errors:
            return None, errors[0]
        self.e.send("go nodes %d" % nodes)
        return self.e.until("bestmove", timeout=MOVE_TIMEOUT)[-1].split()[1], None

    def close(self):
        self.e.close()


def run_suite(positions, engines, nodes, jobs=1, progress=None):
    """answers[i][name] = (move, error) for every position and engine (name, path, options),
    `jobs` positions at a time, each job with its own engine processes."""
    answers = [dict() for _ in positions]
    lock = threading.Lock()
    todo = iter(range(len(positions)))
    failures = []

    def work():
        started = []
        try:
            for name, path, options in engines:
                started.append(SuiteEngine(name, path, options))
            while True:
                with lock:
                    i = next(todo, None)
                if i is None:
                    return
                for eng in started:
                    answers[i][eng.name] = eng.best(positions[i].fen, nodes)
                if progress:
                    with lock:
                        progress(i)
        except (EngineError, OSError) as e:
            failures.append(str(e))
        finally:
            for eng in started:
                eng.close()

    threads = [threading.Thread(target=work) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failures:
        raise EngineError(failures[0])
    return answers


def tally(positions, answers, names):
    """{theme: {"positions", "max", name: points}} and the same over all ("all"); a position
    any engine refused is not counted."""
    rows = {}
    for pos, ans in zip(positions, answers):
        if len(ans) < len(names) or any(ans[n][0] is None for n in names):
            continue
        for key in (pos.theme, "all"):
            row = rows.setdefault(key, dict({"positions": 0, "max": 0}, **{n: 0 for n in names}))
            row["positions"] += 1
            row["max"] += pos.best
            for n in names:
                row[n] += pos.score(ans[n][0])
    return rows


def report(rows, names):
    """The table: a row per theme in the suite's order, then all of them."""
    width = max([len(k) for k in rows] + [5])
    head = "%-*s %9s %6s" % (width, "theme", "positions", "max") + "".join(" %14s" % n for n in names)
    ratio = len(names) > 1
    if ratio:
        head += " %10s" % ("%s/%s" % (names[0], names[-1]))
    lines = [head]
    for key in [k for k in rows if k != "all"] + ["all"]:
        r = rows[key]
        line = "%-*s %9d %6d" % (width, key, r["positions"], r["max"])
        line += "".join(" %7d %5.1f%%" % (r[n], 100.0 * r[n] / max(1, r["max"])) for n in names)
        if ratio:
            line += " %10s" % ("%.3f" % (r[names[0]] / r[names[-1]]) if r[names[-1]] else "-")
        lines.append(line)
    return "\n".join(lines)


def match_command(args):
    """tools/match.py's (or tools/ray_match.py's) argv for the equal-node match."""
    ray = args.cpus is not None or args.address is not None
    b = "fsf:" + args.fsf if args.fsf else args.base
    cmd = [
        sys.executable,
        "-m",
        "tools.ray_match" if ray else "tools.match",
        "--variant",
        "kokesu",
        "--a",
        args.koma,
        "--b",
        b,
        "--nodes",
        str(args.nodes),
        "--games",
        str(args.games),
        "--sprt",
        args.sprt,
        "--seed",
        str(args.seed),
        "--option",
        "KokesuPromotion=free",
    ]
    for o in args.option:
        cmd += ["--option-a", o] + ([] if args.fsf else ["--option-b", o])
    if args.cpus is not None:
        cmd += ["--cpus", str(args.cpus)]
    if args.address is not None:
        cmd += ["--address", args.address]
    return cmd


def parser():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("suites", nargs="*", metavar="EPD", help="EPD test suites to score (none: no suite)")
    ap.add_argument("--koma", default=DEFAULT_KOMA, help="the koma build measured")
    ap.add_argument("--base", help="an earlier koma build, measured beside it")
    ap.add_argument("--fsf", help="a native Fairy-Stockfish, measured beside it")
    ap.add_argument("--nodes", type=int, default=20000, help="go nodes N for every engine (default %(default)s)")
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE for koma and base (e.g. KokesuEval=nnue)")
    ap.add_argument("--jobs", type=int, default=1, help="suite positions at a time (default %(default)s)")
    ap.add_argument("--per-theme", type=int, help="only the first N positions of each theme")
    ap.add_argument("--out", help="append each answer to this file as a JSON line")
    m = ap.add_argument_group("match")
    m.add_argument("--games", type=int, default=0, help="an equal-node match of this many games (default none)")
    m.add_argument("--seed", type=int, default=1)
    m.add_argument("--sprt", default="off", help="elo0,elo1 or off (default %(default)s)")
    m.add_argument("--cpus", type=int, help="play the match on Ray with this many CPUs (tools/ray_match.py)")
    m.add_argument("--address", help="play the match on this Ray cluster")
    return ap


def engines_of(args):
    """[(name, path, options)] in report order: koma, base, fsf."""
    opts = [tuple(o.split("=", 1)) for o in args.option]
    engines = [("koma", args.koma, opts)]
    if args.base:
        engines.append(("base", args.base, opts))
    if args.fsf:
        engines.append(("fsf", "fsf:" + args.fsf, []))
    return engines


def check(args):
    """Exits with one message on options that cannot run."""
    if not args.suites and not args.games:
        sys.exit("nothing to do: give EPD suites, --games N, or both")
    if args.games and not (args.fsf or args.base):
        sys.exit("--games needs an opponent: --fsf or --base")
    if args.nodes <= 0:
        sys.exit("--nodes must be positive")
    for o in args.option:
        if "=" not in o:
            sys.exit("--option takes NAME=VALUE, not %r" % o)
    for attr in ("koma", "base", "fsf"):
        path = getattr(args, attr)
        if path is not None and not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit("not an executable: %s" % path)
        if path is not None:
            setattr(args, attr, os.path.abspath(path))  # the match runs from the repository root
    for path in args.suites:
        if not os.path.isfile(path):
            sys.exit("no such suite: %s" % path)


def first_of_each_theme(positions, n):
    """The first `n` positions of each theme, in their order."""
    count, kept = {}, []
    for p in positions:
        count[p.theme] = count.get(p.theme, 0) + 1
        if count[p.theme] <= n:
            kept.append(p)
    return kept


def suite(args):
    positions, dropped = epd.read_suite(args.suites)
    if args.per_theme:
        positions = first_of_each_theme(positions, args.per_theme)
    engines = engines_of(args)
    names = [e[0] for e in engines]
    print(
        "suite: %d positions (%s), go nodes %d, engines %s"
        % (
            len(positions),
            ", ".join("%d left out: %s" % (n, why) for why, n in sorted(dropped.items())) or "none left out",
            args.nodes,
            ", ".join("%s %s" % (n, p) for n, p, _ in engines),
        ),
        flush=True,
    )
    done = [0]

    def progress(_):
        done[0] += 1
        if done[0] % 100 == 0:
            print("  %d / %d" % (done[0], len(positions)), file=sys.stderr, flush=True)

    answers = run_suite(positions, engines, args.nodes, args.jobs, progress)
    if args.out:
        with open(args.out, "a") as f:
            for pos, ans in zip(positions, answers):
                for n in names:
                    move, err = ans[n]
                    f.write(
                        json.dumps(
                            {
                                "id": pos.id,
                                "theme": pos.theme,
                                "fen": pos.fen,
                                "engine": n,
                                "nodes": args.nodes,
                                "move": move,
                                "error": err,
                                "points": pos.score(move),
                                "max": pos.best,
                            }
                        )
                        + "\n"
                    )
    refused = sum(1 for ans in answers if any(ans[n][0] is None for n in names))
    if refused:
        print("suite: %d positions refused by an engine, not counted" % refused, flush=True)
    print(report(tally(positions, answers, names), names), flush=True)


def main(argv=None):
    args = parser().parse_args(argv)
    check(args)
    if args.suites:
        try:
            suite(args)
        except EngineError as e:
            sys.exit("suite stopped: %s" % e)
    if args.games:
        print("match: " + " ".join(match_command(args)[1:]), flush=True)
        return subprocess.call(match_command(args), cwd=ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
