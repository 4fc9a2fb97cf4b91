"""Unit tests of tools/ray_sf_data.py and tools/lib/records.py: python3 -m unittest
discover -s tools/tests -t .

Stockfish is not installed in CI: the shards' tests play with a small fake UCI engine
(deterministic moves and scores drawn from the position's text, the root moves it is
given) beside the real koma ($KOMA, else target/release/koma) as player and referee, so
they check the plumbing: a shard is the same file whenever it is made, a rerun makes only
the missing shards, the records are the positions and labels the rules keep. The Ray
tests need `ray` and are skipped without it."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

from tools import ray_sf_data
from tools.lib.records import RECORD, fen_of_record, record_of
from tools.lib.stockfish import parse_label
from tools.tests.support import KOMA, WithRay


def fake_stockfish(path):
    """A UCI engine that logs each `go` line, answers one of the root moves it is given
    (chosen by the CRC of the position and the go line) with a score from the same CRC,
    `mate 2` for about one search in eight, and no checkers for `d`."""
    with open(path, "w") as f:
        f.write(
            """#!%(python)s
import sys, zlib
me = %(me)r
pos = ""
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        pos = line.strip()
        with open(me + ".positions", "a") as log:
            log.write(line)
    elif w[0] == "d":
        print("Fen: x\\nKey: 0\\nCheckers: ", flush=True)
    elif w[0] == "go":
        with open(%(me)r + ".log", "a") as log:
            log.write(line)
        moves = w[w.index("searchmoves") + 1:]
        crc = zlib.crc32((pos + line).encode())
        score = "mate 2" if crc %% 8 == 0 else "cp %%d" %% (crc %% 601 - 300)
        print("info depth 1 score %%s nodes 1\\nbestmove %%s" %% (score, moves[crc %% len(moves)]), flush=True)
    elif w[0] == "quit":
        break
"""
            % dict(python=sys.executable, me=path)
        )
    os.chmod(path, 0o755)
    return path


def calls(stockfish):
    try:
        with open(stockfish + ".log") as f:
            return len(f.readlines())
    except FileNotFoundError:
        return 0


TINY = dict(games=2, label="nodes:100", play_nodes=50, random_plies=4, sample=0.5)


class Filters(unittest.TestCase):
    def test_a_pawn_on_its_seventh_is_left_out_unless_both_rules_promote_alike(self):
        # White's pawn on the seventh, white with every kind of its start: captured-piece
        # rule has no choice where free promotion has four.
        self.assertTrue(ray_sf_data.near_promotion("4k3/P7/8/8/8/8/8/RNBQKBNR w - - 0 1"))
        # Black's pawn on its seventh (rank 2), black with its queen: its choices differ too.
        self.assertTrue(ray_sf_data.near_promotion("3qk3/8/8/8/8/8/p7/4K3 b - - 0 1"))
        # White has lost its queen, a rook, a bishop and a knight: all four are open.
        self.assertFalse(ray_sf_data.near_promotion("4k3/P7/8/8/8/8/8/RN2KB2 w - - 0 1"))
        # No pawn on a seventh rank: far from a promotion.
        self.assertFalse(ray_sf_data.near_promotion("rnbqkbnr/8/P7/8/8/p7/8/RNBQKBNR w - - 0 1"))

    def test_captures_and_promotions_are_not_quiet(self):
        fen = "4k3/P7/8/8/3p4/4P3/8/4K3 w - - 0 1"
        self.assertTrue(ray_sf_data.is_capture_or_promotion(fen, "e3d4"))
        self.assertTrue(ray_sf_data.is_capture_or_promotion(fen, "a7a8q"))
        self.assertFalse(ray_sf_data.is_capture_or_promotion(fen, "e3e4"))
        self.assertFalse(ray_sf_data.is_capture_or_promotion(fen, "e1d2"))

    def test_a_record_is_the_fen_it_was_made_of(self):
        for fen, side in (
            ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1", 1),
            ("4k3/P7/8/8/3p4/4P3/8/4K3 w - - 0 1", 0),
        ):
            rec = record_of(fen, 2, -123, 70000)
            self.assertEqual(len(rec), RECORD)
            self.assertEqual(fen_of_record(rec), fen)
            self.assertEqual((rec[24], rec[25]), (side, 2))
            self.assertEqual(int.from_bytes(rec[26:28], "little", signed=True), -123)
            self.assertEqual(int.from_bytes(rec[28:30], "little"), 65535)
        self.assertEqual(
            int.from_bytes(record_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 1, 99999, 1)[26:28], "little"), 32767
        )


class Options(unittest.TestCase):
    def test_bad_options_exit_2_before_ray(self):
        with tempfile.TemporaryDirectory() as d:
            for bad in (
                ["--seeds", "2-1"],
                ["--seeds", "1", "--games", "0"],
                ["--seeds", "1", "--label", "nodes:0"],
                ["--seeds", "1", "--label", "movetime:10"],
                ["--seeds", "1", "--sample", "0"],
                ["--seeds", "1", "--stockfish", os.path.join(d, "none")],
                ["--seeds", "1", "--koma", os.path.join(d, "none")],
            ):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    self.assertEqual(ray_sf_data.main(["--dir", d] + bad), 2, bad)
                self.assertEqual(len(err.getvalue().splitlines()), 1, err.getvalue())


class Shards(WithRay):
    def test_a_shard_is_the_same_file_whenever_it_is_made_and_a_rerun_makes_only_the_missing(self):
        sf = fake_stockfish(os.path.join(self.dir, "stockfish"))
        data = os.path.join(self.dir, "data")
        made, failed = ray_sf_data.run([1, 2, 3], data, sf, KOMA, progress=None, **TINY)
        self.assertEqual((sorted(made), failed), ([1, 2, 3], []))
        first = {}
        for seed in (1, 2, 3):
            with open(ray_sf_data.shard_path(data, seed), "rb") as f:
                first[seed] = f.read()
        self.assertNotEqual(first[1], first[2])
        searches = calls(sf)
        os.unlink(ray_sf_data.shard_path(data, 2))
        made, failed = ray_sf_data.run([1, 2, 3], data, sf, KOMA, progress=None, **TINY)
        self.assertEqual((made, failed), ([2], []))
        with open(ray_sf_data.shard_path(data, 2), "rb") as f:
            self.assertEqual(f.read(), first[2])
        # Only shard 2 was played again: its searches, no more.
        self.assertLess(calls(sf), 2 * searches)
        self.assertGreater(calls(sf), searches)
        made, failed = ray_sf_data.run([1, 2, 3], data, sf, KOMA, progress=None, **TINY)
        self.assertEqual((made, failed), ([], []))
        # Stockfish plays from Kokesu's start: no castling rights, whatever its search.
        with open(sf + ".positions") as f:
            played = [line for line in f if "moves" in line or " w - - 0 1" in line]
        self.assertTrue(played)
        self.assertEqual([line for line in played if "startpos" in line or "KQkq" in line][:1], [])

    def test_the_records_are_kept_positions_with_their_labels(self):
        sf = fake_stockfish(os.path.join(self.dir, "stockfish"))
        data, counts, _ = ray_sf_data.make_shard(sf, KOMA, 5, 2, parse_label("nodes:100"), 50, 4, 0.5)
        records = [data[at : at + RECORD] for at in range(16, len(data), RECORD)]
        self.assertEqual(len(records), counts["kept"])
        self.assertGreater(counts["kept"], 0)
        self.assertGreater(counts["mate or no score"] + counts["not quiet"], 0)
        self.assertEqual(counts["drawn"], counts["kept"] + sum(counts[r] for r in ray_sf_data.REASONS))
        fens = [fen_of_record(r) for r in records]
        self.assertEqual(len(set(fens)), len(fens))
        for fen, rec in zip(fens, records):
            self.assertFalse(ray_sf_data.near_promotion(fen))
            self.assertLessEqual(abs(int.from_bytes(rec[26:28], "little", signed=True)), 300)
            self.assertIn(rec[25], (0, 1, 2))
            self.assertGreaterEqual(int.from_bytes(rec[28:30], "little"), ray_sf_data.MIN_PLY)


if __name__ == "__main__":
    unittest.main()
