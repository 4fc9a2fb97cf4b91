"""Unit tests of tools/match_combine.py: python3 -m unittest discover -s tools/tests -t ."""

import contextlib
import io
import os
import tempfile
import types
import unittest

from tools import match
from tools import match_combine as c
from tools.lib import stats


def log_lines(seed, pair_scores, variant="kokesu", limit="nodes 20000", tail=()):
    """A match.py log: its header, then two game lines per pair (A's scores)."""
    words = {1.0: "A wins by checkmate", 0.0: "B wins by checkmate", 0.5: "draw by repetition"}
    lines = ["match: %s, A /b/koma-new, B /b/koma-old, %s, up to 400 games, seed %d, SPRT off" % (variant, limit, seed)]
    g = 0
    for pair, scores in enumerate(pair_scores, 1):
        for side, s in zip(("first", "second"), scores):
            g += 1
            lines.append("game %d (pair %d): A plays %s, %s in %d plies" % (g, pair, side, words[s], 40 + g))
        lines.append("after %d games: A ..." % g)
    return lines + list(tail)


def tally_of(pair_scores):
    """match.py's own tally of the same games, to compare with."""
    t = match.Tally()
    for scores in pair_scores:
        for s in scores:
            t.add(s, "checkmate")
        t.add_pair(sum(scores))
    return t


class CombineTest(unittest.TestCase):
    A = [(1.0, 0.0), (1.0, 0.5), (1.0, 1.0), (0.5, 0.5), (0.0, 0.0), (1.0, 0.5)]
    B = [(1.0, 1.0), (0.5, 0.0), (1.0, 0.0), (1.0, 0.5)]

    def test_one_log_reads_as_match_py_counted_it(self):
        log = c.Log("a", log_lines(3, self.A))
        self.assertEqual((log.variant, log.seed, log.limit), ("kokesu", 3, "nodes 20000"))
        t = tally_of(self.A)
        self.assertEqual(log.wdl(), (t.w, t.d, t.l))
        self.assertEqual(log.pair_counts(), t.pairs)
        args = types.SimpleNamespace(sprt="0,10", elo0=0.0, elo1=10.0, lower=-2.94, upper=2.94)
        line, value = t.summary(args)
        text, value2 = c.summary(log.wdl(), log.pair_counts(), 0, 10)
        self.assertAlmostEqual(value, value2)
        # the same W/D/L, Elo and LOS as match.py prints
        self.assertEqual(text.split("  LLR")[0], line.split("  LLR")[0].replace("A ", "", 1))

    def test_combined_counts_are_the_sums_of_the_logs(self):
        logs = [c.Log("a", log_lines(3, self.A)), c.Log("b", log_lines(4, self.B))]
        out = c.combine(logs, 0, 10)
        self.assertEqual(len(out), 3)
        both = tally_of(self.A + self.B)
        text, value = c.summary((both.w, both.d, both.l), both.pairs, 0, 10)
        self.assertEqual(out[2], "combined: 2 logs, 10 pairs: %s; no SPRT decision, bounds (-2.94, 2.94)" % text)
        self.assertTrue(out[0].startswith("a: kokesu, seed 3, 6 pairs: +5 =4 -3 "))
        n, mu, var = stats.pentanomial(both.pairs)
        self.assertAlmostEqual(value, stats.llr(n, mu, var, 0, 10))

    def test_a_pair_cut_short_is_left_out(self):
        lines = log_lines(3, self.A)
        lines.append("game 13 (pair 7): A plays first, A wins by checkmate in 80 plies")
        log = c.Log("a", lines)
        self.assertEqual(sum(log.pair_counts()), 6)
        self.assertEqual(log.wdl(), c.Log("a", log_lines(3, self.A)).wdl())

    def test_same_seed_and_different_settings_are_reported(self):
        logs = [c.Log("a", log_lines(3, self.A)), c.Log("b", log_lines(3, self.B, limit="movetime 200"))]
        out = c.combine(logs, 0, 10)
        self.assertIn("warning: seed 3 appears in 2 logs: they played the same openings", out)
        self.assertIn("warning: the logs differ in limit: movetime 200, nodes 20000", out)
        self.assertTrue(out[-1].startswith("combined: 2 logs, 10 pairs: "))

    def test_a_file_that_is_not_a_match_log_is_skipped(self):
        logs = [c.Log("junk", ["hello", "game over"]), c.Log("a", log_lines(3, self.A))]
        out = c.combine(logs, 0, 10)
        self.assertEqual(out[0], "junk: no match.py header, skipped")
        self.assertTrue(out[-1].startswith("combined: 1 logs, 6 pairs: +5 =4 -3 "))

    def test_every_game_won_prints_as_match_py_does(self):
        won = [(1.0, 1.0)] * 3
        text, _ = c.summary(c.Log("a", log_lines(1, won)).wdl(), c.Log("a", log_lines(1, won)).pair_counts(), 0, 10)
        args = types.SimpleNamespace(sprt="off", elo0=0.0, elo1=10.0)
        self.assertEqual(text.split("  LLR")[0], tally_of(won).summary(args)[0][2:])
        self.assertIn("Elo +inf", text)

    def test_enough_won_pairs_accept_h1(self):
        won = [(1.0, 0.5)] * 60 + [(0.5, 0.5)] * 40
        out = c.combine([c.Log("a", log_lines(1, won)), c.Log("b", log_lines(2, won))], 0, 10)
        self.assertTrue(out[-1].endswith("H1 accepted (gain >= 10)"), out[-1])

    def test_command_line_reads_files(self):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for seed, pairs in ((3, self.A), (4, self.B)):
                paths.append(os.path.join(d, "s%d.log" % seed))
                with open(paths[-1], "w") as f:
                    f.write("\n".join(log_lines(seed, pairs)) + "\n")
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                c.main(paths + ["--sprt", "0,5"])
            lines = buf.getvalue().splitlines()
            self.assertEqual(len(lines), 3)
            self.assertIn("LLR", lines[2])
            self.assertIn("[0, 5]", lines[2])


if __name__ == "__main__":
    unittest.main()
