"""Legal moves of many positions through the Python binding against through a koma
process over USI (what tools/usi_engine.py's Referee asks: `position` and `moves`, one
round trip a position), with the answers compared.

    python3 -m tools.referee_speed [--positions 100000] [--koma target/release/koma] [--seed 1]

The positions come from random games through the binding, the five games in turn; each
is asked as an SFEN, so both sides parse it and list its moves. Prints each side's time
and rate and the ratio. Needs the binding (`.venv/bin/python`, made by the README's test
command) and a koma binary. A wall-clock figure: run it on an idle machine.
"""
import argparse
import random
import time

import koma

from tools.usi_engine import EngineError, start_koma


def positions(count, seed):
    """`count` (variant, SFEN) pairs of positions where the game goes on, from random games."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        for variant in koma.variants():
            board = koma.Board(variant)
            while not board.is_game_over() and len(out) < count:
                out.append((variant, board.sfen()))
                board.push(rng.choice(board.legal_moves()))
    return out


def through_binding(pairs):
    return [koma.Board(v, sfen=s).legal_moves() for v, s in pairs]


def through_usi(pairs, path):
    engines = {v: start_koma(path, v) for v in koma.variants()}
    try:
        out = []
        for v, s in pairs:
            e = engines[v]
            e.send("position sfen " + s)
            e.send("moves")
            line = e.until("", timeout=60)[-1]
            if line.startswith("info string"):
                raise EngineError(line)
            out.append(line.split())
        return out
    finally:
        for e in engines.values():
            e.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--positions", type=int, default=100_000)
    p.add_argument("--koma", default="target/release/koma")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    pairs = positions(args.positions, args.seed)
    t0 = time.perf_counter()
    mine = through_binding(pairs)
    t1 = time.perf_counter()
    usi = through_usi(pairs, args.koma)
    t2 = time.perf_counter()
    differ = sum(a != b for a, b in zip(mine, usi))
    n = len(pairs)
    print("%d positions (%s), %d answers differ" % (n, ", ".join(koma.variants()), differ))
    print("binding: %8.2f s  %9.0f positions/s" % (t1 - t0, n / (t1 - t0)))
    print("USI:     %8.2f s  %9.0f positions/s" % (t2 - t1, n / (t2 - t1)))
    print("binding / USI speed: %.1fx" % ((t2 - t1) / (t1 - t0)))
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
