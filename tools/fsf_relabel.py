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
import time

from tools.lib.paths import FSF_VARIANTS
from tools.lib.ray import EXIT_USAGE, clock, files_on_ray, run_status
from tools.lib.records import HEADER, RECORD, fen_of_record, with_score


def relabel(fsf, data, nodes, ini_text, hash_mb=1):
    """The records of `data` (a data file's bytes) scored by FSF: (new bytes, scored,
    left out as mates, CPU seconds of FSF)."""
    import tempfile

    from tools.lib.engine import start_uci
    from tools.lib.fsf import search_score

    if data[:16] != HEADER or (len(data) - 16) % RECORD:
        raise ValueError("not a koma data file of version 1")
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
        out, scored, mates = [HEADER], 0, 0
        try:
            for at in range(16, len(data), RECORD):
                rec = data[at : at + RECORD]
                e.send("ucinewgame")
                e.send("position fen " + fen_of_record(rec))
                e.send("go nodes %d" % nodes)
                score = search_score(e)
                if score and score[0] == "cp":
                    out.append(with_score(rec, score[1]))
                    scored += 1
                else:
                    mates += 1
        finally:
            e.close()
        after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return b"".join(out), scored, mates, cpu


def run(files, out_dir, fsf, nodes, address=None, cpus=None, retries=2, hash_mb=1, progress=sys.stderr):
    fsf = os.path.abspath(fsf)
    if address is None and not os.path.isfile(fsf):
        raise FileNotFoundError("no Fairy-Stockfish at %s" % fsf)
    os.makedirs(out_dir, exist_ok=True)
    todo = [f for f in files if not os.path.exists(os.path.join(out_dir, os.path.basename(f)))]
    say = (lambda text: print("fsf_relabel: " + text, file=progress, flush=True)) if progress else (lambda text: None)
    if not todo:
        say("all %d files are in %s" % (len(files), out_dir))
        return [], []
    with open(FSF_VARIANTS) as f:
        ini_text = f.read()
    totals = {"scored": 0, "mates": 0, "cpu": 0.0}
    start = time.monotonic()

    def args_of(path):
        with open(path, "rb") as f:
            return fsf, f.read(), nodes, ini_text, hash_mb

    def finished(path, data, rest):
        for key, value in zip(("scored", "mates", "cpu"), rest):
            totals[key] += value

    def tick(made, failed, in_flight):
        say(
            "%d/%d files, %d positions scored, %d mates left out, %.0f per CPU second, %s elapsed"
            % (
                len(made),
                len(todo),
                totals["scored"],
                totals["mates"],
                totals["scored"] / totals["cpu"] if totals["cpu"] else 0.0,
                clock(time.monotonic() - start),
            )
        )

    return files_on_ray(
        relabel,
        todo,
        args_of,
        lambda path: os.path.join(out_dir, os.path.basename(path)),
        address,
        cpus,
        retries,
        say,
        finished=finished,
        tick=tick,
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
