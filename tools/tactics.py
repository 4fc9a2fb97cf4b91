#!/usr/bin/env python3
"""Tactical suites at equal nodes (issue 54): koma beside Fairy-Stockfish on public chess
suites (WAC, ECM, Arasan ...) as Kokesu positions: which positions each solves at each
node budget, and how many nodes each needs to find the solution and keep it.

Usage:
  python3 -m tools.tactics --koma KOMA --fsf FSF --nodes 10000,50000,200000 \\
         [--out FILE.jsonl] [--limit N] SUITE.epd ...

The suites (keep them outside the repository): an EPD line is a FEN's first four fields
and operations; `bm` (the best moves) and `am` (the moves to avoid) are in SAN, read
through pyffish (tools/lib/epd.py's SanReader). Kokesu is chess without castling and en
passant, so a position is left out when its FEN has castling rights or an en-passant
square, or when a move of its `bm` is not a Kokesu move there (castling); the line
`left out:` counts each reason. A position needs a `bm` or an `am`.

Each engine searches each position once per budget, one thread, a fresh 16 MiB table
(`ucinewgame`), `go nodes N`: the position is **solved** at that budget when the move it
answers is one of `bm` (any move, without a `bm`) and none of `am`. **Nodes to solution**,
from the largest budget's search: the `nodes` of the first `info ... pv` line from which
every later one's first move, and the answer, solve it (none when the answer does not).
Fixed nodes make every figure the same on any machine and under any load.

Engines: `--koma` (default target/release/koma) in UCI with `UCI_Variant kokesu` and
`KokesuPromotion free`; `--fsf` a native Fairy-Stockfish playing `kokesu-free` of
tools/data/fsf_variants.ini (tests/reference/kokesu_pyffish.py says how to build it).

The report: a row per suite and budget, each engine's solved count, and the positions
both solved within the largest budget with the median and geometric mean of each one's
nodes to solution there. `--out FILE` keeps each position's answers as a JSON line and
makes a rerun resumable: positions already in it are not searched again.
"""

import argparse
import json
import math
import os
import re
import statistics
import sys

from tools.lib import epd
from tools.lib.engine import EngineError, start_uci
from tools.lib.paths import DEFAULT_KOMA

HASH_MB = 16
# Far more than a node-limited search takes on any machine: only a hung engine waits it out.
MOVE_TIMEOUT = 900


class Rejected(Exception):
    """An engine refused a position (its `info string error` line)."""


class Tactic:
    """A suite position: `suite` (its file's name), `id`, `fen` (Kokesu's: no castling
    rights, no en-passant square), `bm` and `am` (sets of UCI moves)."""

    def __init__(self, suite, ident, fen, bm, am):
        self.suite, self.id, self.fen, self.bm, self.am = suite, ident, fen, bm, am

    def solved_by(self, move):
        return move is not None and (move in self.bm or not self.bm) and move not in self.am


# The square a SAN move goes to (none for castling), promotion and marks after it.
TARGET = re.compile(r"([a-h][1-8])(?:=?[QRBNqrbn])?[+#!?]*$")


def san_table(san, fen, move):
    """{SAN: UCI} of the legal moves of `fen` that go where the SAN `move` goes: pyffish
    builds a position for each SAN it writes, so only those are written."""
    m = TARGET.search(move)
    if m is None or san.sf is None:
        return {} if m is None else san.table(fen)
    sf = san.sf
    targets = [u for u in sf.legal_moves(san.VARIANT, fen, []) if u[2:4] == m.group(1)]
    return {epd.san_key(sf.get_san(san.VARIANT, fen, u)): u for u in targets}


def read_line(line, suite, san):
    """(Tactic, None), (None, why it is left out), or (None, None) for a blank line or a
    comment. `san`: an epd.SanReader."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None, None
    fields = line.split(None, 4)
    if len(fields) < 4 or fields[1] not in ("w", "b"):
        return None, "not an EPD line"
    if fields[2] != "-":
        return None, "castling rights"
    if fields[3] != "-":
        return None, "en-passant square"
    ops = epd.operations(fields[4] if len(fields) > 4 else "")
    if "bm" not in ops and "am" not in ops:
        return None, "no bm or am"
    fen = "%s %s - - 0 1" % (fields[0], fields[1])
    moves = {}
    for op in ("bm", "am"):
        moves[op] = set()
        for m in ops.get(op, []):
            table = san_table(san, fen, m)
            if epd.san_key(m) not in table:
                if op == "bm":
                    return None, "a best move that is no Kokesu move (castling)"
                continue  # a move to avoid that Kokesu does not have is avoided anyway
            moves[op].add(table[epd.san_key(m)])
    ident = (ops.get("id") or ["%s:%d" % (suite, 0)])[0]
    return Tactic(suite, ident, fen, moves["bm"], moves["am"]), None


def read_suites(paths, san=None):
    """(tactics, {reason: count} of the lines left out) of the EPD files `paths`."""
    san = san or epd.SanReader()
    tactics, dropped = [], {}
    for path in paths:
        suite = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            for line in f:
                t, why = read_line(line, suite, san)
                if t is not None:
                    tactics.append(t)
                elif why:
                    dropped[why] = dropped.get(why, 0) + 1
    return tactics, dropped


def nodes_to_solution(trail, answer, tactic):
    """The nodes of the first (nodes, first pv move) of `trail` from which every later one
    and the `answer` solve `tactic`; None when the answer does not. An answer that no pv
    line showed (the search changed its mind silently) counts from the last line's nodes."""
    if not tactic.solved_by(answer):
        return None
    start = len(trail)
    while start > 0 and tactic.solved_by(trail[start - 1][1]):
        start -= 1
    if start < len(trail):
        return trail[start][0]
    return trail[-1][0] if trail else 0


class Searcher:
    """One engine process answering `go nodes N` from a fresh table."""

    def __init__(self, name, path):
        self.name = name
        if name == "fsf":
            from tools.lib import fsf

            self.e = fsf.start_fsf(path, "kokesu-free", [("Threads", "1"), ("Hash", str(HASH_MB))], name, timeout=60)
        else:
            opts = [("UCI_Variant", "kokesu"), ("KokesuPromotion", "free"), ("Threads", "1"), ("Hash", str(HASH_MB))]
            self.e = start_uci(path, opts, name, timeout=60)

    def search(self, fen, nodes):
        """(answer, [(nodes, first pv move)] of its info lines in order); Rejected when
        the engine refuses the position."""
        self.e.send("ucinewgame")
        self.e.send("position fen " + fen)
        self.e.send("isready")
        errors = [ln for ln in self.e.until("readyok", timeout=60) if ln.startswith("info string error")]
        if errors:
            raise Rejected("%s: %s" % (self.name, errors[0]))
        self.e.send("go nodes %d" % nodes)
        trail = []
        lines = self.e.until("bestmove", timeout=MOVE_TIMEOUT)
        for line in lines[:-1]:
            w = line.split()
            if w[:1] == ["info"] and "pv" in w[:-1] and "nodes" in w[:-1]:
                n = w[w.index("nodes") + 1]
                if n.isdigit():
                    trail.append((int(n), w[w.index("pv") + 1]))
        answer = lines[-1].split()[1:2]
        return (answer[0] if answer and answer[0] != "(none)" else None), trail

    def close(self):
        self.e.close()


def answer_position(tactic, searchers, budgets):
    """One position's record: {engine: {"moves": {budget: answer}, "nts": nodes to
    solution at the largest budget, "trail": that search's (nodes, first pv move)}} with
    the position's id, suite and fen."""
    record = dict(suite=tactic.suite, id=tactic.id, fen=tactic.fen, engines={})
    for s in searchers:
        moves, nts, top = {}, None, []
        for n in budgets:
            answer, trail = s.search(tactic.fen, n)
            moves[str(n)] = answer
            if n == max(budgets):
                nts, top = nodes_to_solution(trail, answer, tactic), trail
        record["engines"][s.name] = dict(moves=moves, nts=nts, trail=top)
    return record


def key(tactic):
    return "%s %s %s" % (tactic.suite, tactic.id, tactic.fen)


def complete(record, names, budgets):
    """Whether a stored record has every engine's answer at every budget."""
    engines = record["engines"]
    return all(n in engines and all(str(b) in engines[n]["moves"] for b in budgets) for n in names)


def load_records(path):
    """{key: record} of an --out file (none when it does not exist yet)."""
    records = {}
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    records["%s %s %s" % (r["suite"], r["id"], r["fen"])] = r
    return records


def summary(tactics, records, names, budgets):
    """The report's lines: a row per suite (and all) and budget with each engine's solved
    count, then nodes to solution over the positions every engine solved at the largest."""
    suites = list(dict.fromkeys(t.suite for t in tactics)) + ["all"]
    head = "%-14s %9s %8s" % ("suite", "positions", "nodes") + "".join(" %10s" % ("%s solved" % n) for n in names)
    lines = [head]
    top = str(max(budgets))
    for suite in suites:
        done = [(t, records[key(t)]) for t in tactics if key(t) in records and suite in ("all", t.suite)]
        for n in budgets:
            row = "%-14s %9d %8d" % (suite, len(done), n)
            for name in names:
                solved = sum(t.solved_by(r["engines"][name]["moves"][str(n)]) for t, r in done)
                row += " %10s" % ("%d %3.0f%%" % (solved, 100.0 * solved / max(1, len(done))))
            lines.append(row)
    lines.append("nodes to solution, positions every engine solved at %s nodes:" % top)
    for suite in suites:
        done = [records[key(t)] for t in tactics if key(t) in records and suite in ("all", t.suite)]
        both = [r for r in done if all(r["engines"][n]["nts"] is not None for n in names)]
        row = "%-14s %9d" % (suite, len(both))
        for name in names:
            nts = [max(1, r["engines"][name]["nts"]) for r in both]
            if nts:
                geo = math.exp(sum(math.log(x) for x in nts) / len(nts))
                row += "  %s median %d, geometric mean %.0f" % (name, statistics.median(nts), geo)
        lines.append(row)
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("suites", nargs="+", metavar="SUITE.epd")
    ap.add_argument("--koma", default=DEFAULT_KOMA, help="koma binary (default: target/release/koma)")
    ap.add_argument("--fsf", help="a native Fairy-Stockfish beside koma")
    ap.add_argument("--nodes", default="10000,50000,200000", help="node budgets, comma-separated")
    ap.add_argument("--limit", type=int, help="only each suite's first N usable positions")
    ap.add_argument("--out", help="a JSON line per position; a rerun searches only what it lacks")
    args = ap.parse_args(argv)
    try:
        budgets = sorted({int(n) for n in args.nodes.split(",")})
    except ValueError:
        ap.error("--nodes: whole numbers, comma-separated")
    if not budgets or budgets[0] < 1:
        ap.error("--nodes: at least one budget, each at least 1")
    engines = [("koma", args.koma)] + ([("fsf", args.fsf)] if args.fsf else [])
    for _, path in engines:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            sys.exit("not an executable: %s" % path)
    tactics, dropped = read_suites(args.suites)
    if args.limit is not None:
        kept, seen = [], {}
        for t in tactics:
            seen[t.suite] = seen.get(t.suite, 0) + 1
            if seen[t.suite] <= args.limit:
                kept.append(t)
        tactics = kept
    print(
        "tactics: %d positions; left out: %s"
        % (len(tactics), ", ".join("%s %d" % kv for kv in sorted(dropped.items())) or "none"),
        flush=True,
    )
    records = load_records(args.out)
    names = [n for n, _ in engines]
    todo = [t for t in tactics if key(t) not in records or not complete(records[key(t)], names, budgets)]
    searchers = []
    try:
        searchers = [Searcher(n, p) for n, p in engines]
        for i, t in enumerate(todo):
            try:
                r = answer_position(t, searchers, budgets)
            except Rejected as e:
                print("%d/%d %s %s: left out, %s" % (i + 1, len(todo), t.suite, t.id, e), flush=True)
                continue
            records[key(t)] = r
            if args.out:
                with open(args.out, "a") as f:
                    f.write(json.dumps(r) + "\n")
            print(
                "%d/%d %s %s: %s"
                % (
                    i + 1,
                    len(todo),
                    t.suite,
                    t.id,
                    ", ".join(
                        "%s %s"
                        % (n, "".join("+" if t.solved_by(m) else "-" for m in r["engines"][n]["moves"].values()))
                        for n in names
                    ),
                ),
                flush=True,
            )
    except EngineError as e:
        print("tactics stopped: %s" % e, flush=True)
    finally:
        for s in searchers:
            s.close()
    # A stored record without every engine and budget of this run (another run's) is not reported.
    usable = {k: r for k, r in records.items() if complete(r, names, budgets)}
    for line in summary(tactics, usable, names, budgets):
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
