#!/usr/bin/env python3
"""`koma nnue-data` farmed out with Ray: a game's training data (Kokesu's, or 66 shogi's
with --variant shogi66) made by many seeds at once,
on this machine's cores or on a Ray cluster, one file a seed, kept as each seed finishes,
so that an interrupted run resumes where it stopped (issue 34). docs/NNUE.md says how the
data is used; docs/RAY.md how to run on a cluster.

Usage:
  python3 -m tools.ray_nnue_data --dir DATA --seeds 101-164 [--games 500]
         [--play-nodes 1000] [--score-nodes 5000] [--random-plies 4]
         [--variant kokesu|shogi66] [--koma PATH] [--address HOST:PORT|auto] [--cpus N] [--retries 2]
         [--progress-every 30]

Work: each seed is one Ray task (one CPU) that runs `KOMA nnue-data --games G --seed S
--play-nodes P --score-nodes Q --random-plies R` into a file of the worker's own and
returns its bytes; the driver writes them to DIR/VARIANT-sS.data (through a temporary file
and a rename: a file there is always whole). KOMA (--koma, default the repository's
target/release/koma) is made absolute and must exist at that path on every worker. A
seed's data is deterministic (fixed nodes, one thread): a seed run twice, here or on
another machine of the same build, gives the same file.

Resuming: a seed whose file is in DIR is not played again; the same command after Ctrl-C,
kill -9 or a lost machine plays only the missing seeds. Failures: a worker that dies is
retried by Ray (max_retries), a koma that fails by the driver, up to --retries more times;
a seed that keeps failing is reported and left for a later run (exit status 3).

Progress: a line on stderr every --progress-every seconds (seeds done, positions written,
positions per second and per CPU second, time left); a final `ray_nnue_data:` line.
`koma nnue-train DATA/VARIANT-s*.data` trains on the result (the files in the order given:
the last positions are held out).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

from tools.lib.paths import DEFAULT_KOMA
from tools.lib.ray import EXIT_INTERRUPTED, EXIT_USAGE, clock, files_on_ray, run_status, seed_list

# src/train/records.rs: the header and record bytes of data format versions 1 and 2.
SIZES = {1: (16, 32), 2: (24, 72)}


def data_path(directory, seed, variant="kokesu"):
    return os.path.join(directory, "%s-s%d.data" % (variant, seed))


def make_seed(koma, seed, options):
    """Runs koma nnue-data for one seed in a temporary directory; returns the file's bytes
    and the CPU seconds koma used."""
    with tempfile.TemporaryDirectory(prefix="koma-nnue-data-") as tmp:
        out = os.path.join(tmp, "seed.data")
        before = os.times()
        proc = subprocess.run(
            [koma, "nnue-data", "--seed", str(seed), "--out", out] + options,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        after = os.times()
        if proc.returncode != 0:
            raise RuntimeError(
                "koma nnue-data --seed %d exited with %d: %s" % (seed, proc.returncode, proc.stderr.strip()[-300:])
            )
        with open(out, "rb") as f:
            data = f.read()
    return data, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def positions_in(data):
    """The records in a data file's bytes (its header names the version)."""
    version = int.from_bytes(data[8:12], "little") if len(data) >= 12 else 1
    header, record = SIZES.get(version, SIZES[1])
    return max(0, (len(data) - header) // record)


def run(
    seeds,
    directory,
    koma=DEFAULT_KOMA,
    options=(),
    address=None,
    cpus=None,
    retries=2,
    progress=sys.stderr,
    progress_every=30.0,
    variant="kokesu",
):
    """Makes the data of `seeds` that DIR lacks. Returns (seeds made, seeds failed)."""
    koma = os.path.abspath(koma)
    if address is None and not os.path.isfile(koma):
        raise FileNotFoundError("no koma binary at %s (cargo build --release, or --koma PATH)" % koma)
    os.makedirs(directory, exist_ok=True)
    todo = [s for s in seeds if not os.path.exists(data_path(directory, s, variant))]
    say = (lambda text: print("ray_nnue_data: " + text, file=progress, flush=True)) if progress else (lambda text: None)
    if not todo:
        say("all %d seeds are in %s" % (len(seeds), directory))
        return [], []
    options = list(options) + (["--variant", variant] if variant != "kokesu" else [])
    totals = {"written": 0, "cpu": 0.0}
    start = time.monotonic()
    last = [start]

    def finished(seed, data, rest):
        totals["written"] += positions_in(data)
        totals["cpu"] += rest[0]

    def tick(made, failed, in_flight):
        now = time.monotonic()
        if now - last[0] < progress_every and in_flight:
            return
        last[0] = now
        elapsed, written, cpu_used = now - start, totals["written"], totals["cpu"]
        rate = written / elapsed if elapsed > 0 else 0.0
        left = (len(todo) - len(made) - len(failed)) * elapsed / len(made) if made else float("nan")
        say(
            "%d/%d seeds, %d positions, %.0f/s (%.0f per CPU second), %s elapsed, %s left%s"
            % (
                len(made),
                len(todo),
                written,
                rate,
                written / cpu_used if cpu_used else 0.0,
                clock(elapsed),
                clock(left) if in_flight else "0:00:00",
                ", %d failed" % len(failed) if failed else "",
            )
        )

    return files_on_ray(
        make_seed,
        todo,
        lambda seed: (koma, seed, options),
        lambda seed: data_path(directory, seed, variant),
        address,
        cpus,
        retries,
        say,
        label=lambda seed: "seed %d" % seed,
        finished=finished,
        tick=tick,
        every=max(0.1, progress_every),
    )


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--dir", required=True, help="where the data files go (VARIANT-sS.data)")
    ap.add_argument("--variant", default="kokesu", choices=["kokesu", "shogi66"])
    ap.add_argument("--seeds", required=True, help="seeds, e.g. 101-164 or 1,2,5-9")
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--play-nodes", type=int, default=1000)
    ap.add_argument("--score-nodes", type=int, default=5000)
    ap.add_argument("--random-plies", type=int, default=None)
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="CPUs of this machine to use (default all)")
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--progress-every", type=float, default=30.0)
    args = ap.parse_args(argv)
    try:
        seeds = seed_list(args.seeds)
    except ValueError as e:
        print("ray_nnue_data: --seeds: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    if args.games < 1 or args.retries < 0 or (args.cpus is not None and args.cpus < 1):
        print("ray_nnue_data: --games and --cpus must be at least 1, --retries at least 0", file=sys.stderr)
        return EXIT_USAGE
    options = ["--games", str(args.games), "--play-nodes", str(args.play_nodes), "--score-nodes", str(args.score_nodes)]
    if args.random_plies is not None:
        options += ["--random-plies", str(args.random_plies)]
    try:
        return run_status(
            "ray_nnue_data",
            lambda: run(
                seeds,
                args.dir,
                args.koma,
                options,
                args.address,
                args.cpus,
                args.retries,
                progress_every=args.progress_every,
                variant=args.variant,
            ),
        )
    except KeyboardInterrupt:
        print("ray_nnue_data: interrupted; the seeds written stay, a rerun makes the rest", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
