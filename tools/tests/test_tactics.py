"""Unit tests of tools/tactics.py: python3 -m unittest discover -s tools/tests -t .

The suites are small EPD files written here; SAN is read through pyffish (the tools'
dependency; the reading tests are skipped without it). The searches are a fake UCI engine
whose first pv move changes from a wrong one to the suite's answer at a node count given
to it, so the solved counts and nodes to solution are known in advance."""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

from tools import tactics
from tools.lib import fsf

HAVE_PYFFISH = fsf.load_pyffish() is not None

# Back-rank mate: bm Ra8# (a1a8), am Kf1 (g1f1) as a move to avoid; the fake's wrong move is h2h3.
MATE = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - -"
SUITE = (
    MATE + ' bm Ra8#; am Kf1; id "t.1";\n'
    "# a comment\n"
    'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm Kd1; id "t.2";\n'
    'rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w - d6 bm exd6; id "t.3";\n'
    '4k3/8/8/8/8/8/8/4K2R w - - bm O-O; id "t.4";\n'
) + (MATE + ' am Kf1; id "t.5";\n')

# The fake engine: `info` lines at 100, 1000, 10000 ... nodes up to the budget, the first
# pv move `right` from `switch` nodes on (`wrong` before), the last line's move the answer.
FAKE = """#!%(python)s
import sys
right, wrong, switch = %(right)r, %(wrong)r, %(switch)d
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "go":
        budget, n, move = int(w[2]), 100, wrong
        while n <= budget:
            move = right if n >= switch else wrong
            print("info depth 1 score cp 0 nodes %%d pv %%s h7h6" %% (n, move), flush=True)
            n *= 10
        print("bestmove " + move, flush=True)
    elif w[0] == "quit":
        break
"""


def tactic(bm=(), am=()):
    return tactics.Tactic("s", "t", MATE + " 0 1", set(bm), set(am))


class NodesToSolutionTest(unittest.TestCase):
    def test_the_first_line_from_which_the_answer_stays(self):
        t = tactic(bm=["a1a8"])
        trail = [(10, "h2h3"), (50, "a1a8"), (90, "g1f1"), (200, "a1a8"), (400, "a1a8")]
        self.assertEqual(tactics.nodes_to_solution(trail, "a1a8", t), 200)
        self.assertEqual(tactics.nodes_to_solution(trail[1:2], "a1a8", t), 50)

    def test_a_wrong_answer_has_none(self):
        t = tactic(bm=["a1a8"])
        self.assertIsNone(tactics.nodes_to_solution([(10, "a1a8")], "h2h3", t))
        self.assertIsNone(tactics.nodes_to_solution([(10, "a1a8")], None, t))

    def test_an_answer_no_line_showed_counts_from_the_last_line(self):
        t = tactic(bm=["a1a8"])
        self.assertEqual(tactics.nodes_to_solution([(10, "a1a8"), (70, "h2h3")], "a1a8", t), 70)
        self.assertEqual(tactics.nodes_to_solution([], "a1a8", t), 0)

    def test_avoid_moves(self):
        t = tactic(am=["g1f1"])
        self.assertTrue(t.solved_by("h2h3"))
        self.assertFalse(t.solved_by("g1f1"))
        self.assertEqual(tactics.nodes_to_solution([(10, "g1f1"), (20, "h2h3")], "h2h3", t), 20)


@unittest.skipUnless(HAVE_PYFFISH, "pyffish is not installed")
class SuiteTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="test_tactics_")
        self.addCleanup(self.dir.cleanup)
        self.suite = os.path.join(self.dir.name, "mini.epd")
        with open(self.suite, "w") as f:
            f.write(SUITE)

    def fake(self, name, right, switch, wrong="h2h3"):
        path = os.path.join(self.dir.name, name)
        with open(path, "w") as f:
            f.write(FAKE % dict(python=sys.executable, right=right, wrong=wrong, switch=switch))
        os.chmod(path, 0o755)
        return path

    def test_kokesu_positions_only_and_san_read(self):
        got, dropped = tactics.read_suites([self.suite])
        self.assertEqual(
            [(t.suite, t.id, t.bm, t.am) for t in got],
            [
                ("mini", "t.1", {"a1a8"}, {"g1f1"}),
                ("mini", "t.5", set(), {"g1f1"}),
            ],
        )
        self.assertEqual(got[0].fen, MATE + " 0 1")
        self.assertEqual(
            dropped,
            {"castling rights": 1, "en-passant square": 1, "a best move that is no Kokesu move (castling)": 1},
        )

    def run_tool(self, *argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(tactics.main(list(argv)), 0)
        return out.getvalue()

    def test_solved_counts_and_nodes_to_solution(self):
        # koma finds Ra8# from 1000 nodes on, "fsf" (a second fake) from 10000.
        koma = self.fake("koma", "a1a8", 1000)
        other = self.fake("fsf", "a1a8", 10000, wrong="g1f1")
        out_file = os.path.join(self.dir.name, "out.jsonl")
        # The fake FSF is spoken to as FSF (variant options it ignores).
        text = self.run_tool("--koma", koma, "--fsf", other, "--nodes", "500,5000,20000", "--out", out_file, self.suite)
        lines = text.splitlines()
        self.assertIn("tactics: 2 positions; left out: a best move that is no Kokesu move (castling) 1,", lines[0])
        # t.1: koma -++ (wrong at 500); fsf --+ (g1f1 until 10000). t.5 (avoid g1f1):
        # koma always solves; fsf only from 10000.
        self.assertIn("1/2 mini t.1: koma -++, fsf --+", lines)
        self.assertIn("2/2 mini t.5: koma +++, fsf --+", lines)
        rows = [ln.split() for ln in lines if ln.startswith("mini ")]
        self.assertEqual(rows[0], ["mini", "2", "500", "1", "50%", "0", "0%"])
        self.assertEqual(rows[1], ["mini", "2", "5000", "2", "100%", "0", "0%"])
        self.assertEqual(rows[2], ["mini", "2", "20000", "2", "100%", "2", "100%"])
        nts = [ln for ln in lines if ln.startswith("all ") and "median" in ln][0]
        self.assertIn("koma median 550, geometric mean 316", nts)  # 1000 (t.1) and 100 (t.5)
        self.assertIn("fsf median 10000, geometric mean 10000", nts)
        with open(out_file) as f:
            records = [json.loads(line) for line in f]
        self.assertEqual([r["id"] for r in records], ["t.1", "t.5"])
        self.assertEqual(records[0]["engines"]["koma"]["trail"], [[100, "h2h3"], [1000, "a1a8"], [10000, "a1a8"]])

        # A rerun searches nothing that is stored: engines that answer otherwise, the same table.
        broken = self.fake("broken", "zzzz", 1)
        again = self.run_tool(
            "--koma", broken, "--fsf", broken, "--nodes", "500,5000,20000", "--out", out_file, self.suite
        )
        self.assertNotIn("1/2", again)
        self.assertEqual(
            [ln for ln in again.splitlines() if ln.startswith(("mini", "all"))],
            [ln for ln in lines if ln.startswith(("mini", "all"))],
        )

    def test_bad_budgets(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            tactics.main(["--nodes", "1,x", self.suite])


if __name__ == "__main__":
    unittest.main()
