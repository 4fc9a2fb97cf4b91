"""Unit tests of tools/report_stability.py: python3 -m unittest tools.tests.test_report_stability"""

import json
import os
import subprocess
import tempfile
import unittest

from tools import report_stability as rs
from tools.tests.support import KOMA


def line(ply, mark=None, book=False):
    m = {"ply": ply, "move": "x", "loss": 0.0}
    if mark:
        m["mark"] = mark
    if book:
        m["book"] = True
    return json.dumps(m)


class Stability(unittest.TestCase):
    def test_marks_reads_the_marked_plies_and_book_moves_marked(self):
        lines = [line(1, book=True), line(2, "blunder"), line(3), line(4, "mistake", book=True), '{"totals": []}']
        self.assertEqual(rs.marks(lines), ({2: "blunder", 4: "mistake"}, [4]))

    def test_compare_counts_either_both_and_same(self):
        a = {2: "blunder", 5: "mistake", 9: "inaccuracy"}
        b = {2: "blunder", 5: "blunder", 11: "mistake"}
        self.assertEqual(rs.compare(a, b), (4, 2, 1))
        self.assertEqual(rs.compare({}, {}), (0, 0, 0))
        self.assertEqual(rs.percent(0, 0), 100.0)

    def test_generated_games_differ_in_their_node_counts(self):
        self.assertEqual(rs.game_nodes(0), (5000, 5000))
        self.assertEqual(len({rs.game_nodes(k) for k in range(20)}), 20)

    @unittest.skipUnless(os.path.exists(KOMA), "no koma binary")
    def test_a_record_it_writes_is_reported_with_marks(self):
        # Four placement drops of koma's book: read back, reported, none marked.
        text = rs.koma_record(["K*5f", "K*2a", "G*6f", "G*1a"])
        self.assertTrue(text.startswith("# koma record\nvariant shogi66\nstart startpos\nmove K*5f\n"))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "g.koma")
            with open(path, "w") as f:
                f.write(text)
            marked, book_marked = rs.marks(rs.report(KOMA, path, 500))
            self.assertEqual(book_marked, [])
            out = subprocess.run([KOMA, "analyse", "--game", path, "--nodes", "500"], capture_output=True, text=True)
            books = [json.loads(x).get("book") for x in out.stdout.splitlines()[:4]]
            self.assertEqual(books, [True] * 4)


if __name__ == "__main__":
    unittest.main()
