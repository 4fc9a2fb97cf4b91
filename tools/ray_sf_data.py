#!/usr/bin/env python3
"""Kokesu training data labelled by Stockfish 15.1, made in shards on Ray (issue 54): a
shard is a seed, one file a shard, deterministic and resumable.

Usage:
  python3 -m tools.ray_sf_data --dir /work/data/kokesu-sf --seeds 1-1000 [--games 50]
         [--label nodes:5000] [--play-nodes 1000] [--random-plies 6] [--sample 0.25]
         [--stockfish /usr/games/stockfish] [--koma KOMA] [--address HOST:PORT|auto]
         [--cpus N] [--retries 2] [--progress-every 30]

A shard (one Ray task, one CPU) plays --games games of Kokesu with free promotion from
random openings (--random-plies plus 0 to 6 more random legal moves), each side played by
Stockfish (`go nodes --play-nodes`, the root moves koma's legal ones) or by koma (`go
nodes --play-nodes`), drawn for each game: Stockfish's games, koma's games and games of
the two against each other. koma is the referee (legal moves, the end of the game); a
game also ends when the side to move has been ahead by 1000 cp or more (either engine's
scale, or a mate) on each of the last 8 plies (a win for it), or at 400 plies (a draw).

Positions: each position of the game from ply 8 on (the random opening included) is
drawn with probability --sample and kept when it is

- new in the shard (board and side to move; `koma nnue-train` deduplicates across files);
- not in check, and its label's best move is neither a capture nor a promotion (quiet;
  `--label eval` has no best move, so there only the check is tested);
- not near a promotion where the rules differ: a side with a pawn on its seventh rank
  whose promotion choices under `KokesuPromotion captured` (only the kinds it has fewer of
  on the board than at the start) are not all four is left out. Stockfish knows only free
  promotion, so its labels there are for another game than the default's;
- labelled in centipawns (a mate is left out).

The label (--label: `eval`, `depth:N` or `nodes:N`; docs/NNUE.md says which and why) is
Stockfish's score of the position (tools/lib/stockfish.py: `ucinewgame` first, the root
moves koma's legal ones), in Stockfish's centipawns, the side to move's view; the record
also holds the game's result for the side to move (src/train/records.rs, version 1, what
`koma nnue-train` reads).

Every search is at fixed nodes with one thread, the random draws come from the seed, and
koma and Stockfish start afresh for each shard: a seed gives the same file on any
machine with the same two binaries. The file, DIR/kokesu-sf-sS.data, is written whole
(through a temporary file and a rename); a seed whose file is there is not made again, so
a rerun after Ctrl-C, kill -9 or a lost machine makes only the missing shards. A task
that fails is tried again (--retries); one that keeps failing is reported and left for a
later run (exit status 3). Each shard writes DIR/kokesu-sf-sS.json beside it: its counts
(games, positions drawn, left out by each rule, kept) and CPU seconds.

Workers need Ray, this repository at the same path (the task uses tools/lib/), koma at
--koma's path and Stockfish at --stockfish's; with the Python module `koma` installed
(python/), the referee is it instead of a koma process. Ray runs its workers at nice 15.
"""

import argparse
import json
import os
import random
import sys
import time

from tools.lib.paths import DEFAULT_KOMA
from tools.lib.ray import EXIT_INTERRUPTED, EXIT_USAGE, clock, files_on_ray, run_status, seed_list, write_whole
from tools.lib.stockfish import DEFAULT_STOCKFISH, INSTALL, START_FEN, board_of, is_capture_or_promotion, parse_label

START = {"Q": 1, "R": 2, "B": 2, "N": 2}
MIN_PLY = 8
EXTRA_RANDOM = 6
MAX_PLIES = 400
ADJUDICATE_CP, ADJUDICATE_PLIES = 1000, 8
REASONS = ("repeated", "in check", "near a promotion", "mate or no score", "not quiet")


def shard_path(directory, seed):
    return os.path.join(directory, "kokesu-sf-s%d.data" % seed)


def near_promotion(fen):
    """Whether a side has a pawn on its seventh rank and, under the captured-piece rule,
    not all four promotion kinds (a kind is open when the side has fewer of it on the
    board than at the start): there the two rules give different games."""
    board = board_of(fen)
    for white, seventh in ((True, 6), (False, 1)):
        pawn = "P" if white else "p"
        if not any(board.get((f, seventh)) == pawn for f in range(8)):
            continue
        pieces = [p for p in board.values() if p.isupper() == white]
        if any(pieces.count(k if white else k.lower()) >= n for k, n in START.items()):
            return True
    return False


def in_check(e, fen):
    """Whether the side to move is in check: Stockfish's `d` names the checkers."""
    e.send("position fen " + fen)
    e.send("d")
    line = e.until("Checkers:", timeout=60)[-1]
    return bool(line[len("Checkers:") :].strip())


class Players:
    """Stockfish and koma as the games' players, and Stockfish as the labeller."""

    def __init__(self, stockfish, koma, play_nodes):
        from tools.lib.engine import start_koma
        from tools.lib.stockfish import start_stockfish

        self.nodes = play_nodes
        self.sf = start_stockfish(stockfish, 1, "stockfish")
        self.koma = start_koma(
            koma, "kokesu", [("KokesuPromotion", "free"), ("Threads", "1"), ("USI_Hash", "16")], "koma"
        )

    def new_game(self):
        self.koma.new_game("usinewgame", 60)

    def move(self, who, moves, legal):
        """(koma's token of the move `who` chooses, its score from the mover's view in
        centipawns, a mate as +-100000)."""
        from tools.lib.fsf import from_fsf, to_fsf

        if who == "sf":
            e = self.sf
            e.send("ucinewgame")
            uci = [to_fsf(m, 8, 8) for m in moves]
            e.send("position fen " + START_FEN + (" moves " + " ".join(uci) if uci else ""))
            e.send("go nodes %d searchmoves %s" % (self.nodes, " ".join(to_fsf(m, 8, 8) for m in legal)))
        else:
            e = self.koma
            e.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
            e.send("go nodes %d" % self.nodes)
        lines = e.until("bestmove", timeout=600)
        score = 0
        for reply in lines:
            w = reply.split()
            if w[:1] == ["info"] and "score" in w and w[0:2] != ["info", "string"]:
                j = w.index("score")
                value = int(w[j + 2])
                score = value if w[j + 1] == "cp" else (100000 if value > 0 else -100000)
        best = lines[-1].split()[1]
        return (from_fsf(best, 8, 8) if who == "sf" else best), score

    def close(self):
        self.sf.close()
        self.koma.close()


def make_shard(stockfish, koma, seed, games, how, play_nodes, random_plies, sample):
    """The shard of `seed`: (the data file's bytes, its counts, CPU seconds of this process
    and its engines)."""
    from tools.lib.engine import new_referee
    from tools.lib.fsf import fen_of, to_fsf
    from tools.lib.records import HEADER, record_of
    from tools.lib.stockfish import label

    before = os.times()
    rng = random.Random(seed)
    referee = new_referee(koma, "kokesu", [("KokesuPromotion", "free")])
    players = Players(stockfish, koma, play_nodes)
    counts = dict({r: 0 for r in REASONS}, games=0, plies=0, drawn=0, kept=0)
    counts["by pairing"] = {}
    seen, records = set(), []
    try:
        for _ in range(games):
            pairing = (rng.choice(("sf", "koma")), rng.choice(("sf", "koma")))
            key = "-".join(pairing)
            counts["by pairing"][key] = counts["by pairing"].get(key, 0) + 1
            opening = random_plies + rng.randint(0, EXTRA_RANDOM)
            players.new_game()
            moves, kept, ahead = [], [], []
            legal, sfen, result = referee.state(moves)
            while result is None and len(moves) < MAX_PLIES:
                ply = len(moves)
                if ply >= MIN_PLY and rng.random() < sample:
                    counts["drawn"] += 1
                    fen = fen_of("kokesu", sfen)
                    why = None
                    if " ".join(fen.split()[:2]) in seen:
                        why = "repeated"
                    else:
                        seen.add(" ".join(fen.split()[:2]))
                        if in_check(players.sf, fen):
                            why = "in check"
                        elif near_promotion(fen):
                            why = "near a promotion"
                        else:
                            kind, value, best = label(players.sf, fen, how, [to_fsf(m, 8, 8) for m in legal])
                            if kind != "cp":
                                why = "mate or no score"
                            elif best is not None and is_capture_or_promotion(fen, best):
                                why = "not quiet"
                            else:
                                kept.append((fen, value, ply))
                    if why:
                        counts[why] += 1
                if ply < opening:
                    move = rng.choice(sorted(legal))
                else:
                    move, score = players.move(pairing[ply % 2], moves, legal)
                    ahead = (ahead + [score if ply % 2 == 0 else -score])[-ADJUDICATE_PLIES:]
                moves.append(move)
                legal, sfen, result = referee.state(moves)
                if result is None and len(ahead) == ADJUDICATE_PLIES:
                    if all(s >= ADJUDICATE_CP for s in ahead):
                        result = ("b", "adjudicated")
                    elif all(s <= -ADJUDICATE_CP for s in ahead):
                        result = ("w", "adjudicated")
            winner = result[0] if result else None
            for fen, value, ply in kept:
                mover = "b" if fen.split()[1] == "w" else "w"
                outcome = 1 if winner is None else (2 if winner == mover else 0)
                records.append(record_of(fen, outcome, value, ply))
            counts["games"] += 1
            counts["plies"] += len(moves)
            counts["kept"] += len(kept)
    finally:
        players.close()
        referee.close()
    after = os.times()
    cpu = sum(after[i] - before[i] for i in range(4))
    return HEADER + b"".join(records), counts, cpu


def run(
    seeds,
    directory,
    stockfish=DEFAULT_STOCKFISH,
    koma=DEFAULT_KOMA,
    games=50,
    label="nodes:5000",
    play_nodes=1000,
    random_plies=6,
    sample=0.25,
    address=None,
    cpus=None,
    retries=2,
    progress=sys.stderr,
    progress_every=30.0,
):
    """Makes the shards of `seeds` that DIR lacks. Returns (seeds made, seeds failed)."""
    how = parse_label(label)
    koma, stockfish = os.path.abspath(koma), os.path.abspath(stockfish)
    if address is None:
        for path, what in ((koma, "koma binary (cargo build --release, or --koma PATH)"), (stockfish, "Stockfish")):
            if not os.path.isfile(path):
                raise FileNotFoundError(
                    "no %s at %s%s" % (what, path, " (%s)" % INSTALL if what == "Stockfish" else "")
                )
    os.makedirs(directory, exist_ok=True)
    todo = [s for s in seeds if not os.path.exists(shard_path(directory, s))]
    say = (lambda text: print("ray_sf_data: " + text, file=progress, flush=True)) if progress else (lambda text: None)
    if not todo:
        say("all %d shards are in %s" % (len(seeds), directory))
        return [], []
    totals = {"kept": 0, "cpu": 0.0}
    start = time.monotonic()
    last = [start]

    def finished(seed, data, rest):
        counts, cpu = rest
        write_whole(
            shard_path(directory, seed)[: -len(".data")] + ".json",
            json.dumps(dict(counts, cpu=round(cpu, 2), seed=seed), sort_keys=True).encode() + b"\n",
        )
        totals["kept"] += counts["kept"]
        totals["cpu"] += cpu

    def tick(made, failed, in_flight):
        now = time.monotonic()
        if now - last[0] < progress_every and in_flight:
            return
        last[0] = now
        elapsed = now - start
        left = (len(todo) - len(made) - len(failed)) * elapsed / len(made) if made else float("nan")
        say(
            "%d/%d shards, %d positions, %.1f/s (%.1f per CPU second), %s elapsed, %s left%s"
            % (
                len(made),
                len(todo),
                totals["kept"],
                totals["kept"] / elapsed if elapsed > 0 else 0.0,
                totals["kept"] / totals["cpu"] if totals["cpu"] else 0.0,
                clock(elapsed),
                clock(left) if in_flight else "0:00:00",
                ", %d failed" % len(failed) if failed else "",
            )
        )

    return files_on_ray(
        make_shard,
        todo,
        lambda seed: (stockfish, koma, seed, games, how, play_nodes, random_plies, sample),
        lambda seed: shard_path(directory, seed),
        address,
        cpus,
        retries,
        say,
        label=lambda seed: "shard %d" % seed,
        finished=finished,
        tick=tick,
        every=max(0.1, progress_every),
    )


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--dir", required=True, help="where the shards go (kokesu-sf-sS.data and .json)")
    ap.add_argument("--seeds", required=True, help="shards, e.g. 1-1000 or 1,2,5-9")
    ap.add_argument("--games", type=int, default=50, help="games a shard (default %(default)s)")
    ap.add_argument("--label", default="nodes:5000", help="eval, depth:N or nodes:N (default %(default)s)")
    ap.add_argument("--play-nodes", type=int, default=1000, help="nodes a move in the games (default %(default)s)")
    ap.add_argument("--random-plies", type=int, default=6, help="random plies first, plus 0 to 6 (default 6)")
    ap.add_argument("--sample", type=float, default=0.25, help="share of the positions drawn (default 0.25)")
    ap.add_argument("--stockfish", default=DEFAULT_STOCKFISH)
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="CPUs of this machine to use (default all)")
    ap.add_argument("--retries", type=int, default=2)
    ap.add_argument("--progress-every", type=float, default=30.0)
    args = ap.parse_args(argv)
    try:
        seeds = seed_list(args.seeds)
        parse_label(args.label)
    except ValueError as e:
        print("ray_sf_data: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    if (
        args.games < 1
        or args.play_nodes < 1
        or not 0 <= args.random_plies <= 100
        or not 0 < args.sample <= 1
        or args.retries < 0
        or (args.cpus is not None and args.cpus < 1)
    ):
        print(
            "ray_sf_data: --games, --play-nodes and --cpus must be at least 1, --random-plies 0 to 100, "
            "--sample above 0 and at most 1, --retries at least 0",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        return run_status(
            "ray_sf_data",
            lambda: run(
                seeds,
                args.dir,
                args.stockfish,
                args.koma,
                args.games,
                args.label,
                args.play_nodes,
                args.random_plies,
                args.sample,
                args.address,
                args.cpus,
                args.retries,
                progress_every=args.progress_every,
            ),
        )
    except KeyboardInterrupt:
        print("ray_sf_data: interrupted; the shards written stay, a rerun makes the rest", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
