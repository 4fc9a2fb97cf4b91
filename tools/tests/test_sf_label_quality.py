"""Unit tests of tools/sf_label_quality.py and tools/lib/stockfish.py: python3 -m unittest
discover -s tools/tests -t .

Stockfish is not installed in CI: a small fake UCI engine answers as Stockfish 15.1 does
(its `eval` table's last line, `info ... score` lines, `bestmove`), so the tests check what
the tools make of the answers: the side to move's view, mates and positions in check, the
root moves given, the hash cleared before each search, and the report's correlations."""

import contextlib
import io
import math
import os
import shutil
import sys
import tempfile
import unittest

from tools import sf_label_quality
from tools.lib import stockfish
from tools.lib.engine import start_uci
from tools.tests.support import KOMA

# Stockfish 15.1's `eval` ends so; a position in check gets `none (in check)` instead.
FAKE = """#!%(python)s
import sys
pos = ""
for line in sys.stdin:
    with open(%(me)r + ".log", "a") as log:
        log.write(line)
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        pos = line
    elif w[0] == "eval":
        if "K7" in pos:
            print("\\nFinal evaluation: none (in check)", flush=True)
        else:
            print("NNUE evaluation        +0.73 (white side)", flush=True)
            print("Final evaluation       +0.84 (white side) [with scaled NNUE, hybrid, ...]\\n", flush=True)
    elif w[0] == "go":
        if "k7" in pos:
            print("info depth 0 score mate 0\\nbestmove (none)", flush=True)
        else:
            print("info depth 1 score cp 31 nodes 20 pv e2e4", flush=True)
            print("info depth 2 score mate -3 nodes 90 pv e2e3", flush=True)
            print("bestmove e2e3 ponder e7e6", flush=True)
    elif w[0] == "quit":
        break
"""


class Labels(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sf_label_quality_test_")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.path = os.path.join(self.dir, "stockfish")
        with open(self.path, "w") as f:
            f.write(FAKE % dict(python=sys.executable, me=self.path))
        os.chmod(self.path, 0o755)
        self.e = start_uci(self.path, [], "fake", 30)
        self.addCleanup(self.e.close)

    def log(self):
        with open(self.path + ".log") as f:
            return [line.strip() for line in f]

    def test_eval_is_the_final_evaluation_from_the_side_to_move(self):
        white = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        self.assertEqual(stockfish.label(self.e, white, ("eval", 0)), ("cp", 84, None))
        self.assertEqual(stockfish.label(self.e, white.replace(" w ", " b "), ("eval", 0)), ("cp", -84, None))
        # In check: no score, and the next answer is still read in step.
        self.assertEqual(stockfish.label(self.e, "K7/8/8/8/8/8/8/7k w - - 0 1", ("eval", 0)), (None, None, None))
        self.assertEqual(stockfish.label(self.e, white, ("eval", 0)), ("cp", 84, None))
        self.assertNotIn("ucinewgame", self.log())

    def test_a_search_starts_afresh_on_the_root_moves_given_and_keeps_its_last_score(self):
        fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
        got = stockfish.label(self.e, fen, stockfish.parse_label("nodes:5000"), ["e2e3", "e2e4"])
        self.assertEqual(got, ("mate", -3, "e2e3"))
        self.assertEqual(stockfish.label(self.e, "k7/8/8/8/8/8/8/7K w - - 0 1", ("depth", 1)), ("mate", 0, None))
        log = self.log()
        self.assertEqual(
            log[-6:],
            [
                "ucinewgame",
                "position fen " + fen,
                "go nodes 5000 searchmoves e2e3 e2e4",
                "ucinewgame",
                "position fen k7/8/8/8/8/8/8/7K w - - 0 1",
                "go depth 1",
            ],
        )

    def test_labels_are_eval_depth_or_nodes(self):
        self.assertEqual(stockfish.parse_label("eval"), ("eval", 0))
        self.assertEqual(stockfish.parse_label("depth:16"), ("depth", 16))
        self.assertEqual(stockfish.parse_label("nodes:1000"), ("nodes", 1000))
        for bad in ("nodes", "nodes:0", "nodes:x", "movetime:10", "depth:-1", ""):
            with self.assertRaises(ValueError):
                stockfish.parse_label(bad)

    def test_a_missing_stockfish_is_one_line_and_status_2(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = sf_label_quality.main(["--stockfish", os.path.join(self.dir, "none"), "x.epd"])
        self.assertEqual(status, 2)
        self.assertEqual(len(err.getvalue().splitlines()), 1)
        self.assertIn("apt-get install -y stockfish", err.getvalue())


class KomaLabels(unittest.TestCase):
    """koma's own scores as labels, from this checkout's koma."""

    def test_koma_labels_are_searches_of_either_evaluation(self):
        self.assertEqual(sf_label_quality.parse_any("koma-classic:depth:1"), ("koma-classic", ("depth", 1)))
        self.assertEqual(sf_label_quality.parse_any("koma-nnue:nodes:50000"), ("koma-nnue", ("nodes", 50000)))
        self.assertEqual(sf_label_quality.parse_any("nodes:5000"), ("stockfish", ("nodes", 5000)))
        for bad in ("koma-classic:eval", "koma:depth:1", "koma-nnue:nodes:0", "fsf:nodes:10"):
            with self.assertRaises(ValueError):
                sf_label_quality.parse_any(bad)

    @unittest.skipUnless(os.access(KOMA, os.X_OK), "no koma binary (KOMA)")
    def test_koma_scores_from_the_side_to_move_and_names_a_legal_best_move(self):
        # White a queen up: good for White to move, bad for Black to move; koma's Kokesu
        # SFEN puts White (sente) first, so a side's sign must come out right both ways.
        white = "4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1"
        black = white.replace(" w ", " b ")
        for engine in sf_label_quality.KOMA_ENGINES:
            e = sf_label_quality.start_koma_scorer(KOMA, engine)
            try:
                kind, value, best = sf_label_quality.koma_label(e, white, ("depth", 3))
                self.assertEqual(kind, "cp", engine)
                self.assertGreater(value, 500, engine)
                kind, value, best_black = sf_label_quality.koma_label(e, black, ("nodes", 2000))
                self.assertEqual(kind, "cp", engine)
                self.assertLess(value, -500, engine)
            finally:
                e.close()
            rules = stockfish.KokesuMoves(KOMA)
            try:
                self.assertIn(best, rules.legal(white), engine)
                self.assertIn(best_black, rules.legal(black), engine)
            finally:
                rules.close()

    def test_the_truth_is_stockfishs(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            sf_label_quality.main(["--truth", "koma-nnue:depth:10", "x.epd"])
        self.assertIn("the truth is Stockfish's", err.getvalue())


class Report(unittest.TestCase):
    def test_pearson(self):
        self.assertAlmostEqual(sf_label_quality.pearson([1, 2, 3, 4], [2, 4, 6, 8]), 1.0)
        self.assertAlmostEqual(sf_label_quality.pearson([1, 2, 3, 4], [8, 6, 4, 2]), -1.0)
        self.assertAlmostEqual(sf_label_quality.pearson([1, 2, 3], [1, 3, 2]), 0.5)
        self.assertTrue(math.isnan(sf_label_quality.pearson([1, 2], [1, 2])))
        self.assertTrue(math.isnan(sf_label_quality.pearson([1, 1, 1], [1, 2, 3])))

    def test_the_table_counts_positions_every_label_scores_and_the_quiet_ones(self):
        fens = ["4k3/8/8/8/3p4/4P3/8/4K3 w - - 0 1"] * 6
        truth = [[k, v, "e3e4"] for k, v in (("cp", 10), ("cp", 20), ("cp", 30), ("cp", 40), ("mate", 2), ("cp", 50))]
        truth[1][2] = "e3d4"  # a capture: counted, but not quiet
        near = [["cp", v, None] for v in (11, 0, 29, 42, 9, 49)]
        far = [["cp", v, None] for v in (10, 20, 5000, 0, 9, -10)]
        results = {
            "depth:16": {"answers": truth, "cpu": 10.0, "wall": 20.0},
            "eval": {"answers": near, "cpu": 0.5, "wall": 1.0},
            "nodes:1000": {"answers": far, "cpu": 2.0, "wall": 4.0},
        }
        lines = sf_label_quality.table(fens, results, "depth:16", ["eval", "nodes:1000"])
        # The mate and the score beyond 3000 leave four positions, three of them quiet.
        self.assertEqual(
            lines[0], "6 positions, 4 counted (every label and depth:16 in centipawns within +-3000), 3 of them quiet"
        )
        r = sf_label_quality.pearson
        self.assertEqual(
            lines[3],
            "| eval | %.3f | %.3f | 0.5 | 12 | 6 |"
            % (r([11, 0, 42, 49], [10, 20, 40, 50]), r([11, 42, 49], [10, 40, 50])),
        )
        self.assertEqual(
            lines[4],
            "| nodes:1000 | %.3f | %.3f | 2.0 | 3 | 2 |"
            % (r([10, 20, 0, -10], [10, 20, 40, 50]), r([10, 0, -10], [10, 40, 50])),
        )
        self.assertEqual(lines[5], "| depth:16 | 1.000 | 1.000 | 10.0 | 1 | 0 |")


if __name__ == "__main__":
    unittest.main()
