#!/usr/bin/env python3
"""Kokesu training data scored again by Stockfish 15.1's static evaluation, farmed out on
Ray (issue 54).

tools/fsf_relabel.py replaces each score of `koma nnue-data`'s positions by a
Fairy-Stockfish search; this replaces it by Stockfish 15.1's static evaluation (its NNUE
and classical hybrid, no search: the `eval` command, tools/lib/stockfish.py), in
Stockfish's centipawns from the side to move's view; the game's result and the rest of
each record stay. On 600 chess test-suite positions the static evaluation is nearer
Stockfish at depth 16 (r 0.72) than koma after 50 000 nodes (0.60), and it costs no
search (docs/STRENGTH.md, "Issue 54: Stockfish 15.1 as the teacher"). A position
Stockfish gives no evaluation (in check; `koma nnue-data` keeps none) is left out.

**The labels are for free promotion** (`KokesuPromotion free`): Stockfish knows only
chess's promotion. Positions near a promotion, where the captured-piece rule would not
offer all four kinds, are kept all the same (tools/ray_sf_data.py leaves them out): a net
taught here is for, and played with, free promotion, and `koma nnue-data`'s positions are
quiet ones (the move played neither a capture nor a promotion).

Usage:
  python3 -m tools.sf_relabel --out-dir DIR [--stockfish /usr/games/stockfish]
         [--address HOST:PORT|auto] [--cpus N] [--retries 2] DATA...

Each input file is one Ray task (one CPU, one Stockfish process, `Threads 1`; the static
evaluation has no search and no hash, so a file gives the same output on any machine
with the same Stockfish); the result goes to DIR/<the input's name> through a temporary
file and a rename. A file already in DIR is not done again, so a rerun resumes. A worker
needs this repository at the same path (the task uses tools/lib/) and Stockfish there
(`apt-get install -y stockfish`; the tools install nothing). A line after each file says
how many positions were scored and left out, and the rate per CPU second of Stockfish.

`koma nnue-train --eval-k K` then trains the net in koma's centipawns (Stockfish's are on
another scale: the trainer fits the data's own K for the targets).
"""

import argparse
import os
import sys

from tools.lib.ray import EXIT_USAGE, run_status
from tools.lib.relabel import run_files
from tools.lib.stockfish import DEFAULT_STOCKFISH, INSTALL


def relabel(stockfish, data):
    """The records of `data` (a data file's bytes) scored by Stockfish's static
    evaluation: (new bytes, scored, left out without an evaluation, CPU seconds of
    Stockfish)."""
    from tools.lib.relabel import check, children_cpu, rescore
    from tools.lib.stockfish import label, parse_label, start_stockfish

    check(data)
    how = parse_label("eval")
    before = os.times()
    e = start_stockfish(stockfish, 1, "stockfish")

    def score_of(fen):
        kind, value, _ = label(e, fen, how)
        return value if kind == "cp" else None

    try:
        out, scored, left_out = rescore(data, score_of)
    finally:
        e.close()
    after = os.times()
    return out, scored, left_out, children_cpu(before, after)


def run(files, out_dir, stockfish=DEFAULT_STOCKFISH, address=None, cpus=None, retries=2, progress=sys.stderr):
    stockfish = os.path.abspath(stockfish)
    if address is None and not os.path.isfile(stockfish):
        raise FileNotFoundError("no Stockfish at %s (%s)" % (stockfish, INSTALL))

    def args_of(path):
        with open(path, "rb") as f:
            return stockfish, f.read()

    return run_files(
        "sf_relabel", relabel, files, out_dir, args_of, address, cpus, retries, "left out unevaluated", progress
    )


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--stockfish", default=DEFAULT_STOCKFISH, help="Stockfish 15.1 (default %(default)s)")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="CPUs of this machine to use (default all)")
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("data", nargs="+")
    args = ap.parse_args(argv)
    if args.retries < 0 or (args.cpus is not None and args.cpus < 1):
        print("sf_relabel: --cpus must be at least 1, --retries at least 0", file=sys.stderr)
        return EXIT_USAGE
    return run_status(
        "sf_relabel", lambda: run(args.data, args.out_dir, args.stockfish, args.address, args.cpus, args.retries)
    )


if __name__ == "__main__":
    sys.exit(main())
