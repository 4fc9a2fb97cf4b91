#!/usr/bin/env python3
"""Games of strong play for the evaluation's tuning data (issue 43, docs/TUNING.md):
Fairy-Stockfish against itself, or against koma, at fixed nodes, farmed out with Ray, one
file of games a seed, kept as each seed finishes (an interrupted run resumes where it
stopped). Kokesu, and 66 shogi after a random placement (the variants tools/lib/fsf.py
plays).

Usage:
  python3 -m tools.ray_fsf_games --fsf PATH --dir GAMES --seeds 1-40 [--games 25]
         [--pairing fsf|koma] [--nodes 3000] [--koma-nodes 3000] [--random-plies 2]
         [--variant kokesu|shogi66] [--koma PATH] [--option NAME=VALUE ...]
         [--address HOST:PORT|auto] [--cpus N] [--retries 2]

Each seed is one Ray task (one CPU) that plays --games games through tools/match.py's
machinery (its openings, its referee: koma's rules end every game, and its ply cap,
--max-plies 300, a draw):
  * --pairing fsf: Fairy-Stockfish against Fairy-Stockfish (two processes, a hash each),
    --nodes a move; every game has an opening of its own (at fixed nodes the same opening
    with the colours swapped would repeat the game);
  * --pairing koma: Fairy-Stockfish (--nodes) against koma (--koma-nodes), each opening
    played twice with the colours swapped, as a match does.
Openings: kokesu's book lines of tools/match.py, shuffled by the seed, then
--random-plies random plies; 66 shogi's random placement, then --random-plies more. A
seed's games are deterministic (fixed nodes, one thread each).

Output: DIR/VARIANT-PAIRING-sSEED.games (written whole, through a rename), one game a line:
`RESULT OPENING MOVE...`, RESULT sente's result (1, 0.5, 0), OPENING the number of
opening plies (the book line, placement and random plies), then every move from the start
position in koma's notation. A game lost by a failing engine is left out. The positions
come out of these files with
  cargo run --release --example selfplay_data -- --variant kokesu --replay GAMES_FILE
(quiet positions after the opening, each once), and tools/fsf_label.py scores them.

Resuming: a seed whose file is in DIR is not played again. Failures: a worker that dies
is retried by Ray, a task that fails by the driver, up to --retries more times; a seed
that keeps failing is reported and left for a later run (exit status 3).
"""

import argparse
import contextlib
import io
import os
import sys
import time

from tools import match
from tools.lib import fsf
from tools.lib.paths import DEFAULT_KOMA, ROOT
from tools.lib.ray import EXIT_INTERRUPTED, EXIT_USAGE, clock, files_on_ray, run_status, ship_by_value
from tools.ray_nnue_data import seed_list

MAX_PLIES = 300
FAILED = ("illegal move", "A failed", "B failed", "A gave", "B gave", "F failed", "F gave")


def games_path(directory, variant, pairing, seed):
    return os.path.join(directory, "%s-%s-s%d.games" % (variant, pairing, seed))


def match_args(fsf_path, koma, variant, seed, nodes, koma_nodes, random_plies, options, max_plies):
    """tools/match.py's options for a seed's games: koma is engine A, Fairy-Stockfish B."""
    argv = ["--variant", variant, "--a", koma, "--b", "fsf:" + fsf_path, "--seed", str(seed)]
    argv += ["--nodes", str(koma_nodes), "--go-b", "nodes %d" % nodes, "--sprt", "off"]
    argv += ["--random-plies", str(random_plies), "--max-plies", str(max_plies)]
    for o in options:
        argv += ["--option", o]
    args = match.parser().parse_args(argv)
    match.prepare(args, check_paths=False)
    return args


def play_seed(fsf_path, koma, variant, seed, games, pairing, nodes, koma_nodes, random_plies, options, max_plies):
    """One task: a seed's games. Returns (the file's bytes, {how a game ended: count}).
    Runs on a worker: its modules go with it by value."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)  # match.start_engines imports tools.lib.fsf by name

    args = match_args(fsf_path, koma, variant, seed, nodes, koma_nodes, random_plies, options, max_plies)
    referee, a, b = match.start_engines(args)
    players = (b, fsf.FsfPlayer(fsf_path, args, "F", args.timeout, referee)) if pairing == "fsf" else (a, b)
    lines, ends = [], {}
    try:
        rng = match.opening_source(args, referee)
        opening = None
        for g in range(games):
            if pairing == "fsf" or g % 2 == 0:
                opening = match.make_opening(referee, rng, args)
            order = list(players) if g % 2 == 0 else list(reversed(players))
            with contextlib.redirect_stdout(io.StringIO()):  # FsfPlayer's notes
                winner, why, moves = match.play_game(order, referee, opening, args)
            ends[why] = ends.get(why, 0) + 1
            if why.startswith(FAILED):
                continue
            result = 0.5 if winner is None else 1.0 - winner
            lines.append("%g %d %s\n" % (result, len(opening), " ".join(moves)))
    finally:
        match.close_engines(*players, a, referee)
    return "".join(lines).encode(), ends


def run(
    seeds,
    directory,
    fsf_path,
    koma=DEFAULT_KOMA,
    variant="kokesu",
    games=25,
    pairing="fsf",
    nodes=3000,
    koma_nodes=3000,
    random_plies=2,
    options=(),
    address=None,
    cpus=None,
    retries=2,
    progress=sys.stderr,
    max_plies=MAX_PLIES,
):
    """Plays the seeds that DIR lacks (a game still going after `max_plies` is a draw).
    Returns (seeds made, seeds failed)."""
    koma, fsf_path = os.path.abspath(koma), os.path.abspath(fsf_path)
    for path in (koma, fsf_path):
        if address is None and not os.path.isfile(path):
            raise FileNotFoundError("no engine binary at %s" % path)
    os.makedirs(directory, exist_ok=True)
    todo = [s for s in seeds if not os.path.exists(games_path(directory, variant, pairing, s))]
    say = (lambda text: print("ray_fsf_games: " + text, file=progress, flush=True)) if progress else (lambda t: None)
    if not todo:
        say("all %d seeds are in %s" % (len(seeds), directory))
        return [], []
    ship_by_value("tools.lib.engine", "tools.lib.stats", "tools.match", "tools.lib.fsf", __name__)
    start, totals = time.monotonic(), {"games": 0, "ends": {}}

    def finished(seed, data, rest):
        totals["games"] += data.count(b"\n")
        for why, n in rest[0].items():
            totals["ends"][why] = totals["ends"].get(why, 0) + n
        elapsed = time.monotonic() - start
        say("seed %d: %d games in all, %s elapsed" % (seed, totals["games"], clock(elapsed)))

    made, failed = files_on_ray(
        play_seed,
        todo,
        lambda seed: (
            fsf_path,
            koma,
            variant,
            seed,
            games,
            pairing,
            nodes,
            koma_nodes,
            random_plies,
            list(options),
            max_plies,
        ),
        lambda seed: games_path(directory, variant, pairing, seed),
        address,
        cpus,
        retries,
        say,
        label=lambda seed: "seed %d" % seed,
        finished=finished,
    )
    ends = ", ".join("%s %d" % kv for kv in sorted(totals["ends"].items(), key=lambda kv: -kv[1]))
    say("%d seeds, %d games kept; ends: %s" % (len(made), totals["games"], ends or "none"))
    return made, failed


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--fsf", required=True, help="the Fairy-Stockfish binary")
    ap.add_argument("--dir", required=True, help="where the games files go (VARIANT-PAIRING-sSEED.games)")
    ap.add_argument("--seeds", required=True, help="seeds, e.g. 1-40 or 1,2,5-9")
    ap.add_argument("--variant", default="kokesu", choices=["kokesu", "shogi66"])
    ap.add_argument("--pairing", default="fsf", choices=["fsf", "koma"], help="Fairy-Stockfish's opponent")
    ap.add_argument("--games", type=int, default=25, help="games a seed")
    ap.add_argument("--nodes", type=int, default=3000, help="Fairy-Stockfish's nodes a move")
    ap.add_argument("--koma-nodes", type=int, default=3000, help="koma's nodes a move (--pairing koma)")
    ap.add_argument("--random-plies", type=int, default=2)
    ap.add_argument("--option", action="append", default=[], help="NAME=VALUE: koma's rules switches")
    ap.add_argument("--koma", default=DEFAULT_KOMA, help="koma: the referee, and the player of --pairing koma")
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="CPUs of this machine to use (default all)")
    ap.add_argument("--retries", type=int, default=2)
    args = ap.parse_args(argv)
    try:
        seeds = seed_list(args.seeds)
    except ValueError as e:
        print("ray_fsf_games: --seeds: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    if min(args.games, args.nodes, args.koma_nodes) < 1 or args.random_plies < 0 or args.retries < 0:
        print("ray_fsf_games: --games and the node counts must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    try:
        return run_status(
            "ray_fsf_games",
            lambda: run(
                seeds,
                args.dir,
                args.fsf,
                args.koma,
                args.variant,
                args.games,
                args.pairing,
                args.nodes,
                args.koma_nodes,
                args.random_plies,
                args.option,
                args.address,
                args.cpus,
                args.retries,
            ),
        )
    except KeyboardInterrupt:
        print("ray_fsf_games: interrupted; the seeds written are kept", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
