"""tools/levels_ladder.py: a rung's gap from its score, and the match line it reads."""

import unittest

from tools.levels_ladder import RESULT, gap


class LevelsLadderTest(unittest.TestCase):
    def test_an_even_rung_is_no_gap_and_a_rung_lost_whole_a_finite_lower_bound(self):
        self.assertAlmostEqual(gap(5, 0, 5)[0], 0.0)
        g, whole = gap(0, 0, 20)
        self.assertTrue(whole)
        self.assertAlmostEqual(g, 400 * 1.6127, delta=1)  # 0.5 / 21: 40:1 odds
        self.assertFalse(gap(4, 3, 13)[1])
        self.assertGreater(gap(1, 0, 9)[0], gap(3, 0, 7)[0])

    def test_the_match_line_gives_the_result_and_its_error_bar(self):
        line = (
            "match: kokesu, A koma vs B koma, nodes 10000, 20 games (10 pairs, seed 42): "
            "A +4 =3 -13  27.5%  Elo -168.4 ± 156.7  LOS 1.5%; no SPRT. Ends: checkmate 17. 13 s"
        )
        m = RESULT.search(line)
        self.assertEqual(m.group(1, 2, 3, 5), ("4", "3", "13", "156.7"))
        m = RESULT.search("A +0 =0 -20  0.0%  Elo -inf  LOS 0.0%; no SPRT.")
        self.assertEqual((m.group(1), m.group(5)), ("0", None))


if __name__ == "__main__":
    unittest.main()
