#!/usr/bin/env python3
"""Kokesu training data scored again by Fairy-Stockfish, farmed out on Ray (issue 34).

`koma nnue-data` scores its positions with a deeper koma search; Fairy-Stockfish plays
Kokesu far better than koma at equal time (docs/STRENGTH.md), so its search is the
better teacher. This reads data files of `koma nnue-data` (src/train/records.rs) and
writes files of the same format and the same positions, each position's score replaced by
a Fairy-Stockfish search of --nodes nodes (centipawns, side to move's view; the game
result stays). A position FSF scores as a mate is left out: the net is not taught mates.

Usage:
  python3 -m tools.fsf_relabel --fsf FSF --out-dir DIR [--nodes 5000] [--hash 1]
         [--address HOST:PORT|auto] [--cpus N] [--retries 2] DATA...

Each input file is one Ray task (one CPU, one FSF process, `Threads 1`, `ucinewgame`
before each position, a fixed node count: the same file on any machine); the result goes
to DIR/<the input's name> through a temporary file and a rename. A file already in DIR
is not done again, so a rerun resumes. A worker needs this repository at the same path
(the task uses tools/lib/) and FSF there (an absolute path): the native build of
tests/reference/kokesu_pyffish.py. The variant comes from tools/data/fsf_variants.ini, sent
to the workers with the task. A line after each file says how many positions were
scored and left out, and the rate per CPU second.

`koma nnue-train --eval-k K` then trains the net in koma's centipawns (FSF's are on
another scale: the trainer fits the data's own K for the targets).
"""

import argparse
import os
import sys

from tools.lib.paths import FSF_VARIANTS
from tools.lib.ray import EXIT_USAGE, run_status
from tools.lib.relabel import run_files


def relabel(fsf, data, nodes, ini_text, hash_mb=1):
    """The records of `data` (a data file's bytes) scored by FSF: (new bytes, scored,
    left out as mates, CPU seconds of FSF)."""
    import tempfile

    from tools.lib.engine import start_uci
    from tools.lib.fsf import search_score
    from tools.lib.relabel import check, children_cpu, rescore

    check(data)
    with tempfile.TemporaryDirectory(prefix="fsf-relabel-") as tmp:
        ini = os.path.join(tmp, "variants.ini")
        with open(ini, "w") as f:
            f.write(ini_text)
        before = os.times()
        e = start_uci(
            fsf,
            [("VariantPath", ini), ("UCI_Variant", "kokesu-free"), ("Threads", "1"), ("Hash", str(hash_mb))],
            "fsf",
            30,
        )

        def score_of(fen):
            e.send("ucinewgame")
            e.send("position fen " + fen)
            e.send("go nodes %d" % nodes)
            score = search_score(e)
            return score[1] if score and score[0] == "cp" else None

        try:
            out, scored, mates = rescore(data, score_of)
        finally:
            e.close()
        after = os.times()
    return out, scored, mates, children_cpu(before, after)


def run(files, out_dir, fsf, nodes, address=None, cpus=None, retries=2, hash_mb=1, progress=sys.stderr):
    fsf = os.path.abspath(fsf)
    if address is None and not os.path.isfile(fsf):
        raise FileNotFoundError("no Fairy-Stockfish at %s" % fsf)
    with open(FSF_VARIANTS) as f:
        ini_text = f.read()

    def args_of(path):
        with open(path, "rb") as f:
            return fsf, f.read(), nodes, ini_text, hash_mb

    return run_files(
        "fsf_relabel", relabel, files, out_dir, args_of, address, cpus, retries, "mates left out", progress
    )


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--fsf", required=True, help="the native Fairy-Stockfish binary")
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--hash", type=int, default=1, help="FSF's hash MiB (cleared before each position)")
    ap.add_argument("--address")
    ap.add_argument("--cpus", type=int)
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("data", nargs="+")
    args = ap.parse_args(argv)
    if args.nodes < 1 or args.retries < 0 or (args.cpus is not None and args.cpus < 1):
        print("fsf_relabel: --nodes and --cpus must be at least 1, --retries at least 0", file=sys.stderr)
        return EXIT_USAGE
    return run_status(
        "fsf_relabel",
        lambda: run(args.data, args.out_dir, args.fsf, args.nodes, args.address, args.cpus, args.retries, args.hash),
    )


if __name__ == "__main__":
    sys.exit(main())
