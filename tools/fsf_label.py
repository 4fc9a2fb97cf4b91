#!/usr/bin/env python3
"""Fairy-Stockfish's search scores for tuning positions (docs/TUNING.md).

Reads lines `RESULT SCORE SFEN` (examples/selfplay_data.rs) and writes `RESULT FSF SFEN`,
FSF the score of a Fairy-Stockfish search of --nodes nodes from that position (centipawns
in FSF's own scale, side to move's view). Positions FSF scores as a mate are left out.
The tuner (`examples/tune.rs --score-k fit`) fits the scale of these scores to the game
results on its own, so FSF's centipawns need not be koma's.

  python3 -m tools.fsf_label --variant shogi66 --fsf /work/fsf/fairy-stockfish --nodes 10000 \\
      --in target/tune/shogi66-1600.txt --out target/tune/shogi66-fsf.txt [--jobs 2]

Kokesu, and 66 shogi after the placement (the variants tools/lib/fsf.py plays).
Deterministic: one thread, `ucinewgame` before every position, a fixed node count;
`--jobs N` runs N Fairy-Stockfish processes side by side and keeps the input's order.
"""

import argparse
import sys
import time

from tools.lib.fsf import fen_of, search_score, start_fsf, variant_setup


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", required=True, choices=["kokesu", "shogi66"])
    ap.add_argument("--fsf", required=True, help="the Fairy-Stockfish binary")
    ap.add_argument("--nodes", type=int, default=10000)
    ap.add_argument("--in", dest="inp", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=1, help="Fairy-Stockfish processes side by side")
    ap.add_argument("--option", action="append", default=[], help="koma rules switch NAME=VALUE")
    args = ap.parse_args()
    rules = dict(o.split("=", 1) for o in args.option)
    fsf_variant, _ = variant_setup(args.variant, rules)
    engines = [
        start_fsf(args.fsf, fsf_variant, [("Threads", "1"), ("Hash", "16")], "fsf%d" % j, timeout=30)
        for j in range(args.jobs)
    ]
    t0 = time.time()
    done = kept = 0

    with open(args.inp) as src, open(args.out, "w") as out:
        rows = [line.split(None, 2) for line in src]
        rows = [(r[0], r[2].strip()) for r in rows if len(r) == 3]
        for b in range(0, len(rows), args.jobs):
            batch = rows[b : b + args.jobs]
            for e, (_, sfen) in zip(engines, batch):
                e.send("ucinewgame")
                e.send("position fen " + fen_of(args.variant, sfen))
                e.send("go nodes %d" % args.nodes)
            for e, (result, sfen) in zip(engines, batch):
                score = search_score(e)
                done += 1
                if score and score[0] == "cp":
                    out.write("%s %d %s\n" % (result, score[1], sfen))
                    kept += 1
                if done % 5000 == 0:
                    out.flush()
                    print("%d positions, %d kept, %.0f s" % (done, kept, time.time() - t0), file=sys.stderr, flush=True)
    for e in engines:
        e.close()
    print("%d positions, %d kept, %.0f s" % (done, kept, time.time() - t0), file=sys.stderr)


if __name__ == "__main__":
    main()
