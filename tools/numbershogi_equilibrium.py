"""Number Shogi's hidden-setup game, solved (issue 33; protocol/numbershogi-solved.md).

Each side arranges its six pieces on its six camp squares without seeing the other's:
a 720 x 720 matrix game whose entries are the exact values of the positions after the
setup, each proven by `koma solve`. This tool finds the game's value and optimal mixed
strategies without solving the whole matrix, and writes the engine's table
(src/games/numbershogi/solution.txt):

1. **Double oracle.** Solve the matrix game restricted to a few arrangements by linear
   programming (scipy's HiGHS), add each side's best response to the other's optimal mix
   (a full row or column of entries), and repeat until neither best response gains. The
   restricted game's value is then the whole game's value and its mixes are optimal in
   the whole game: exact, with only the entries it touched solved.
2. **Every optimal pure arrangement of the side that wins** (when the value is a win or
   a loss for sente). Gote's optimal mixes are then exactly the mixes over the gote
   arrangements that beat every sente arrangement; each candidate is tested against sente
   arrangements in batches, the ones that beat most candidates so far first, until one
   sente arrangement does not lose (refuted) or all 720 lose (proven). Likewise for sente
   when it is the winner.
3. **The losing side's choice.** Every mix of the losing side is optimal (it loses
   whatever it does); koma draws from the arrangements whose loss is slowest on average
   against the winner's mix: the most moves for the opponent to go wrong, the same rule
   koma follows in a lost position.

Entries are solved by `tools.ray_solve` on Ray: on this machine's cores, or on a cluster
with `--address` (docs/RAY.md). Solved entries are kept in `--store` as they arrive, so a
rerun resumes.

    python3 -m tools.numbershogi_equilibrium --store solve-store.jsonl \
        --write src/games/numbershogi/solution.txt
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

from tools.lib.paths import DEFAULT_KOMA

HEADER = "koma-numbershogi-solution 1"
PIECES = "1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S"
# Every arrangement: six digits, the owner's camp as the owner sees it (front rank left to
# right, then the back rank).
ARRANGEMENTS = ["".join(p) for p in itertools.permutations("123456")]
# Today's fixed arrangement (src/games/numbershogi/setup.rs), where the search starts.
STUDY = "653241"
PAYOFF = {"win": 1, "draw": 0, "loss": -1}


def mirror(a: str) -> str:
    return a[2::-1] + a[5:2:-1]


def setup_line(s: str, g: str) -> str:
    """The `koma solve` line of the position after sente's `s` and gote's `g`, sente to move."""

    def up(v):
        return "ABCDEF"[int(v) - 1]

    def lo(v):
        return up(v).lower()

    # SFEN ranks a..e, files 3..1; gote's camp seen turned round.
    ra = "".join(lo(g[i]) for i in (5, 4, 3))
    rb = "".join(lo(g[i]) for i in (2, 1, 0))
    rd = "".join(up(s[i]) for i in (0, 1, 2))
    re_ = "".join(up(s[i]) for i in (3, 4, 5))
    return f"numbershogi sfen {ra}/{rb}/3/{rd}/{re_} b - 13"


def canonical(s: str, g: str) -> tuple[str, str]:
    """One pair of each mirror pair: the two pairs have the same value."""
    return min((s, g), (mirror(s), mirror(g)))


class Matrix:
    """The entries solved so far, for sente: (value, plies, bestmove), keyed by canonical
    pair. `solve` asks the Ray driver for the missing ones."""

    def __init__(self, solver):
        self.solver = solver
        self.entries: dict[tuple[str, str], dict] = {}
        # Pairs the solver gave up on (within its budget).
        self.unknown: dict[tuple[str, str], dict | None] = {}
        self.solved_now = 0

    def solve(self, pairs, final: bool = False) -> None:
        """Solves the pairs not known yet: with the quick budget, or (`final`) the pairs
        left unknown by it again with the full one."""
        wanted = {canonical(s, g) for s, g in pairs}
        missing = sorted(wanted & self.unknown.keys() if final else wanted - self.entries.keys() - self.unknown.keys())
        if missing:
            lines = {setup_line(s, g): (s, g) for s, g in missing}
            answers = self.solver(list(lines), final)
            for line, pair in lines.items():
                a = answers.get(line)
                if a is not None and a.get("value") in PAYOFF:
                    self.entries[pair] = a
                    self.unknown.pop(pair, None)
                else:
                    self.unknown[pair] = a
            self.solved_now += len(missing)

    def get(self, s: str, g: str) -> dict | None:
        return self.entries.get(canonical(s, g))

    def value(self, s: str, g: str) -> str:
        a = self.get(s, g)
        return a["value"] if a else "unknown"

    def payoff(self, s: str, g: str) -> int:
        a = self.get(s, g)
        if a is None:
            self.solve([(s, g)], final=True)
            a = self.get(s, g)
        if a is None:
            raise SystemExit(f"not solved within the budget: {setup_line(s, g)}; rerun with a bigger --max-ms")
        return PAYOFF[a["value"]]


def matrix_game(rows: list[str], cols: list[str], m: Matrix):
    """Value and optimal mixes of the restricted game (rows sente, maximising)."""
    import numpy as np
    from scipy.optimize import linprog

    a = np.array([[m.payoff(s, g) for g in cols] for s in rows], dtype=float)

    def maximin(a):
        # max v  s.t.  sum_i x_i a_ij >= v for every column j, x a distribution.
        n, k = a.shape
        c = np.zeros(n + 1)
        c[-1] = -1
        a_ub = np.hstack([-a.T, np.ones((k, 1))])
        a_eq = np.hstack([np.ones((1, n)), np.zeros((1, 1))])
        r = linprog(
            c, A_ub=a_ub, b_ub=np.zeros(k), A_eq=a_eq, b_eq=[1], bounds=[(0, None)] * n + [(None, None)], method="highs"
        )
        if r.status != 0:
            raise SystemExit(f"the LP failed: {r.message}")
        return r.x[-1], r.x[:-1]

    v, x = maximin(a)
    w, y = maximin(-a.T)
    return v, x, -w, y


def double_oracle(m: Matrix, log) -> tuple[float, dict, dict]:
    rows, cols = [STUDY], [STUDY]
    while True:
        m.solve((s, g) for s in rows for g in cols)
        v, x, v2, y = matrix_game(rows, cols, m)
        xs = {s: p for s, p in zip(rows, x) if p > 1e-9}
        ys = {g: p for g, p in zip(cols, y) if p > 1e-9}
        # Best responses in the whole game. Payoffs lie in [-1, 1]: at a restricted value
        # of -1 no gote arrangement can do better for gote (nor sente's at +1), so that
        # side's best response needs no entries.
        if v > -1 + 1e-9:
            m.solve((s, g) for s in xs for g in ARRANGEMENTS)
            br_g = min(ARRANGEMENTS, key=lambda g: sum(p * m.payoff(s, g) for s, p in xs.items()))
            down = sum(p * m.payoff(s, br_g) for s, p in xs.items())
        else:
            br_g, down = cols[0], v
        if v < 1 - 1e-9:
            m.solve((s, g) for s in ARRANGEMENTS for g in ys)
            br_s = max(ARRANGEMENTS, key=lambda s: sum(p * m.payoff(s, g) for g, p in ys.items()))
            up = sum(p * m.payoff(br_s, g) for g, p in ys.items())
        else:
            br_s, up = rows[0], v
        log(
            f"double oracle: {len(rows)}x{len(cols)} restricted value {v:+.4f}; "
            f"sente's best response {br_s} gets {up:+.4f}, gote's {br_g} holds sente to {down:+.4f}"
        )
        if up <= v + 1e-9 and down >= v - 1e-9:
            return v, xs, ys
        if up > v + 1e-9 and br_s not in rows:
            rows.append(br_s)
        if down < v - 1e-9 and br_g not in cols:
            cols.append(br_g)


def winning_arrangements(m: Matrix, winner: str, batch: int, log) -> list[str]:
    """Every arrangement of `winner` ('sente' or 'gote') that wins against all 720 of the
    other side's: tested in batches, refuted at the first opponent arrangement that does
    not lose."""
    want = "win" if winner == "sente" else "loss"  # the value for sente
    # Seed the opponents' order with the study's arrangement, strong for either colour.

    def pair(mine, theirs):
        return (mine, theirs) if winner == "sente" else (theirs, mine)

    open_ = {a: 0 for a in ARRANGEMENTS}  # candidate -> how many opponents tried
    killers: dict[str, int] = {STUDY: 1}
    order: dict[str, list[str]] = {}
    undecided: dict[str, list[str]] = {}
    proven: list[str] = []
    unresolved: list[str] = []
    size = 1
    while open_:
        # Opponents that refuted candidates so far go first; the batch grows each round
        # (most candidates fall to the first few opponents).
        ranked = sorted(ARRANGEMENTS, key=lambda o: -killers.get(o, 0))
        todo = {}
        for a in open_:
            tried = set(order.setdefault(a, []))
            todo[a] = [o for o in ranked if o not in tried][:size]
        size = min(batch, size * 2)
        m.solve(pair(a, o) for a, rest in todo.items() for o in rest)
        for a, rest in todo.items():
            for o in rest:
                order[a].append(o)
                got = m.value(*pair(a, o))
                if got == "unknown":
                    undecided.setdefault(a, []).append(o)
                elif got != want:
                    killers[o] = killers.get(o, 0) + 1
                    del open_[a]
                    break
            else:
                if len(order[a]) == len(ARRANGEMENTS):
                    if a in undecided:
                        unresolved.append(a)
                    else:
                        proven.append(a)
                    del open_[a]
        log(
            f"{winner}'s winning arrangements: {len(proven)} proven, {len(open_)} open, "
            f"{len(ARRANGEMENTS) - len(proven) - len(open_) - len(unresolved)} refuted, "
            f"{len(unresolved)} undecided (entries out of budget)"
        )
    # Candidates that lost no game but have entries the quick budget left unknown: those
    # entries again with the full budget.
    for a in list(unresolved):
        m.solve((pair(a, o) for o in undecided[a]), final=True)
        got = {m.value(*pair(a, o)) for o in undecided[a]}
        if got == {want}:
            proven.append(a)
            unresolved.remove(a)
        elif got - {want, "unknown"}:
            unresolved.remove(a)
    log(f"{winner}'s winning arrangements: {len(proven)} proven, {len(unresolved)} undecided")
    if unresolved:
        raise SystemExit(f"not every candidate was decided ({unresolved}): rerun with a bigger --max-ms")
    return sorted(proven)


def fraction(p: float) -> Fraction:
    return Fraction(p).limit_denominator(999)


def write_table(path: Path, value: str, mixes: dict, m: Matrix) -> None:
    lines = [HEADER, f"pieces {PIECES}", "promotion on", f"value {value}"]
    for side in ("sente", "gote"):
        items = " ".join(f"{a}:{w.numerator}/{w.denominator}" for a, w in sorted(mixes[side].items()))
        lines.append(f"mix {side} {items}")
    for (s, g), a in sorted(m.entries.items()):
        letter = {"win": "W", "loss": "L", "draw": "D"}[a["value"]]
        lines.append(f"{s} {g} {letter}{a['plies']} {a['bestmove']}")
    body = "\n".join(lines) + "\n"
    h = 0xCBF29CE484222325
    for b in body.encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    path.write_text(body + f"end {len(m.entries)} {h:016x}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--store",
        type=Path,
        default=Path("numbershogi-solve.jsonl"),
        help="solved entries, kept as they arrive (a rerun resumes)",
    )
    ap.add_argument("--write", type=Path, help="write the engine's table here")
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--address", help="a Ray cluster (docs/RAY.md); default: this machine")
    ap.add_argument("--cpus", type=int, help="CPUs to use on this machine")
    ap.add_argument("--quick-ms", type=int, default=2_000, help="budget per entry, first pass")
    ap.add_argument("--max-ms", type=int, default=120_000, help="budget per entry left unknown by the first pass")
    ap.add_argument("--shard-size", type=int, default=16, help="entries per Ray task")
    ap.add_argument("--batch", type=int, default=24, help="opponents tried per candidate and round")
    ap.add_argument("--summary", type=Path, help="write the result as JSON here")
    args = ap.parse_args(argv)

    from tools import ray_solve

    start = time.time()

    def log(msg):
        print(f"[{time.time() - start:7.1f}s] {msg}", file=sys.stderr, flush=True)

    def solver(lines, final):
        return ray_solve.solve_lines(
            lines,
            args.store,
            koma=args.koma,
            address=args.address,
            cpus=args.cpus,
            shard_size=args.shard_size,
            max_ms=args.max_ms if final else args.quick_ms,
            retry_unknown=final,
        )

    m = Matrix(solver)
    v, xs, ys = double_oracle(m, log)
    value = "win" if v > 1 - 1e-9 else "loss" if v < -1 + 1e-9 else "draw" if abs(v) < 1e-9 else f"{v:+.6f}"
    log(f"the game's value for sente: {value}; entries solved: {len(m.entries)}")
    summary = {"value": value, "double_oracle": {"sente": xs, "gote": ys}}
    if value in ("win", "loss"):
        winner, loser = ("sente", "gote") if value == "win" else ("gote", "sente")
        best = winning_arrangements(m, winner, args.batch, log)
        mixes = {winner: {a: Fraction(1, len(best)) for a in best}}
        # The loser's slowest average loss against the winner's mix.
        pair = (lambda mine, theirs: (theirs, mine)) if winner == "sente" else (lambda mine, theirs: (mine, theirs))
        m.solve(pair(o, a) for o in ARRANGEMENTS for a in best)
        mean = {o: sum(m.get(*pair(o, a))["plies"] for a in best) / len(best) for o in ARRANGEMENTS}
        top = max(mean.values())
        slowest = sorted(o for o, p in mean.items() if p >= top - 1e-9)
        mixes[loser] = {o: Fraction(1, len(slowest)) for o in slowest}
        summary.update(
            {
                f"{winner}_winning": best,
                f"{loser}_slowest": slowest,
                "slowest_mean_plies": top,
                "study_as_gote_in_winning": STUDY in best if winner == "gote" else None,
            }
        )
        log(f"{winner} wins with {len(best)} arrangements; {loser}'s slowest loss: {slowest} ({top:.2f} plies)")
    else:
        mixes = {"sente": {a: fraction(p) for a, p in xs.items()}, "gote": {a: fraction(p) for a, p in ys.items()}}
    ms = [a.get("ms", 0) for a in m.entries.values()]
    nodes = [a.get("nodes", 0) for a in m.entries.values()]
    summary.update(
        {
            "entries": len(m.entries),
            "entries_solved_this_run": m.solved_now,
            "cpu_seconds": sum(ms) / 1000,
            "nodes": sum(nodes),
            "slowest_ms": max(ms, default=0),
            "wall_seconds": time.time() - start,
            "mix": {k: {a: str(w) for a, w in mm.items()} for k, mm in mixes.items()},
        }
    )
    if args.write:
        write_table(args.write, value, mixes, m)
        log(f"wrote {args.write} ({args.write.stat().st_size} bytes)")
    text = json.dumps(summary, indent=1, default=str)
    if args.summary:
        args.summary.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
