"""Legal moves of many positions through the Python binding against through a koma
process over USI, with the answers compared, in two ways:

- games: as the match referee asks (tools/lib/engine.py: Referee against BindingReferee),
  the legal moves at every ply of random games: over USI `position startpos moves ...`
  (the game so far) and `moves`, one round trip a position; through the binding one
  `push` and `legal_moves.usi()`;
- sfens: each position asked alone as an SFEN (`position sfen ...` and `moves`, against
  `koma.Board(variant, sfen=...).legal_moves.usi()`), so both sides parse it and list its moves.

    python3 -m tools.referee_speed [--positions 100000] [--koma target/release/koma] [--seed 1]

The games are random games through the binding, the five games in turn. Prints each
side's time and rate and the ratios. Needs the binding (`.venv/bin/python`, made by the
README's test command) and a koma binary. Wall-clock figures: run it on an idle machine.
"""

import argparse
import random
import resource
import time

import koma

from tools.lib.engine import EngineError, start_koma


def games(count, seed):
    """Random games through the binding, (variant, SFENs, moves) each, with `count`
    positions in all where the game goes on."""
    rng = random.Random(seed)
    out, n = [], 0
    while n < count:
        for variant in koma.variants():
            board, sfens = koma.Board(variant), []
            while not board.is_game_over() and n < count:
                sfens.append(board.sfen())
                n += 1
                board.push(rng.choice(board.legal_moves.usi()))
            out.append((variant, sfens, [m.usi() for m in board.move_stack]))
    return out


def binding_sfens(games):
    return [koma.Board(v, sfen=s).legal_moves.usi() for v, sfens, _ in games for s in sfens]


def binding_games(games):
    out = []
    for v, sfens, moves in games:
        board = koma.Board(v)
        for i in range(len(sfens)):
            out.append(board.legal_moves.usi())
            board.push(moves[i])
    return out


def usi_sfens(games, path):
    return usi(path, (("sfen " + s, v) for v, sfens, _ in games for s in sfens))


def usi_games(games, path):
    return usi(
        path, (("startpos moves " + " ".join(moves[:i]), v) for v, sfens, moves in games for i in range(len(sfens)))
    )


def usi(path, questions):
    """`position Q` and `moves` for each (Q, variant), to one koma process a variant."""
    engines = {v: start_koma(path, v) for v in koma.variants()}
    try:
        out = []
        for q, v in questions:
            e = engines[v]
            e.send("position " + q)
            e.send("moves")
            line = e.until("", timeout=60)[-1]
            if line.startswith("info string"):
                raise EngineError(line)
            out.append(line.split())
        return out
    finally:
        for e in engines.values():
            e.close()


def cpu():
    """CPU seconds used by this process and its finished children (the koma processes)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--positions", type=int, default=100_000)
    p.add_argument("--koma", default="target/release/koma")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    played = games(args.positions, args.seed)
    print("%d positions of %d random games (%s)" % (args.positions, len(played), ", ".join(koma.variants())))
    print("wall-clock seconds, and CPU seconds (this process, and the koma processes for USI)")
    differ = 0
    for name, mine, theirs in (("games", binding_games, usi_games), ("sfens", binding_sfens, usi_sfens)):
        t0, c0 = time.perf_counter(), cpu()
        a = mine(played)
        t1, c1 = time.perf_counter(), cpu()
        b = theirs(played, args.koma)
        t2, c2 = time.perf_counter(), cpu()
        bad = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
        differ += bad
        print(
            "%s: binding %6.2f s wall %6.2f s CPU; USI %6.2f s wall %6.2f s CPU; USI / binding: %.1fx wall, "
            "%.1fx CPU; %d answers differ"
            % (name, t1 - t0, c1 - c0, t2 - t1, c2 - c1, (t2 - t1) / (t1 - t0), (c2 - c1) / (c1 - c0), bad)
        )
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
