"""Unit tests of tools/eval_disagree.py: python3 -m unittest discover -s tools -t ."""

import unittest

from tools import eval_disagree

TABLE = """\
|   Material |  ----  ---- |  ----  ---- |  4.84  4.67 |
|      Pawns | -0.08 -0.19 |  0.00  0.00 | -0.08 -0.19 |
|King safety | -0.15 -0.06 | -0.21 -0.42 |  0.06  0.37 |
|      Total |  ----  ---- |  ----  ---- |  4.21  2.23 |
Final evaluation       +2.15 (white side)
"""


class EvalDisagreeTest(unittest.TestCase):
    def test_reads_the_total_columns_of_named_terms(self):
        terms = eval_disagree.fsf_terms(TABLE.splitlines())
        self.assertEqual(terms, {"Material": (4.84, 4.67), "Pawns": (-0.08, -0.19), "King safety": (0.06, 0.37)})

    def test_a_term_koma_lacks_correlates_negatively_with_what_the_fit_leaves(self):
        # koma = FSF less the king-safety term: what the fit leaves follows -king safety.
        rows = []
        for i in range(40):
            king = (i * 7 % 11) / 10.0
            fsf = (i % 9) * 20 - 80 + 100 * king
            rows.append(("A" if i % 2 else "B", fsf - 100 * king, fsf, {"King safety": (king, 0.0)}))
        text = eval_disagree.report(rows)
        self.assertEqual(next(ln for ln in text.splitlines() if ln.startswith("all")).split()[1], "40")
        line = next(ln for ln in text.splitlines() if ln.strip().startswith("King safety  mg"))
        self.assertLess(float(line.split()[-1]), -0.5)


if __name__ == "__main__":
    unittest.main()
