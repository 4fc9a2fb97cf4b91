"""Unit tests of tools/lib/stats.py: python3 -m unittest discover -s tools/tests -t ."""

import math
import unittest

from tools.lib import stats as m


def penta(ll, ld, wl_dd, wd, ww):
    return m.pentanomial((ll, ld, wl_dd, wd, ww))


class EloTest(unittest.TestCase):
    def test_elo_of_a_score(self):
        self.assertEqual(m.elo(0.5), 0.0)
        # 3 to 1: 400 log10(3)
        self.assertAlmostEqual(m.elo(0.75), 190.8485, places=3)
        self.assertAlmostEqual(m.elo(0.25), -190.8485, places=3)
        # the usual table: 64% is about +100
        self.assertAlmostEqual(m.elo(0.64), 99.96, places=1)
        for e in (-300, -10, 0, 35, 250):
            self.assertAlmostEqual(m.elo(m.score_of(e)), e, places=9)

    def test_error_bar_by_hand(self):
        # +10 =5 -5: mean 0.625, population variance 3.4375 / 20 = 0.171875, standard
        # error sqrt(0.171875 / 20) = 0.092702; 1.959964 of them each side gives the
        # scores 0.443305 .. 0.806695, i.e. Elo -39.54 .. 248.20: 88.74 +- 143.87.
        n, mu, var = m.trinomial(10, 5, 5)
        self.assertEqual((n, mu), (20, 0.625))
        self.assertAlmostEqual(var, 0.171875)
        centre, err = m.elo_interval(n, mu, var)
        self.assertAlmostEqual(centre, 88.74, places=2)
        self.assertAlmostEqual(err, 143.87, places=2)

    def test_error_bar_shrinks_as_sqrt_n(self):
        _, e1 = m.elo_interval(*m.trinomial(100, 100, 100))
        _, e4 = m.elo_interval(*m.trinomial(400, 400, 400))
        self.assertAlmostEqual(e1 / e4, 2.0, places=1)

    def test_unbounded_error_bar(self):
        self.assertEqual(m.elo_interval(*m.trinomial(2, 0, 0))[1], math.inf)
        self.assertEqual(m.elo_interval(0, 0.0, 0.0), (0.0, math.inf))

    def test_pentanomial_variance_of_pairs(self):
        # Four pairs, each one win and one loss: every pair scores 1/2, no variance at
        # all, where the same games counted one by one have the largest variance.
        self.assertEqual(penta(0, 0, 4, 0, 0), (4, 0.5, 0.0))
        self.assertEqual(m.trinomial(4, 0, 4), (8, 0.5, 0.25))
        # pair means 0.25, 0.75, 0.75, 1: mean 0.6875, variance 0.296875 / 4
        n, mu, var = penta(0, 1, 0, 2, 1)
        self.assertEqual((n, mu), (4, 0.6875))
        self.assertAlmostEqual(var, 0.07421875)

    def test_los(self):
        self.assertEqual(m.los(7, 7), 0.5)
        self.assertEqual(m.los(0, 0), 0.5)
        # 60 wins, 40 losses: Phi(20 / 10) = Phi(2)
        self.assertAlmostEqual(m.los(60, 40), 0.97725, places=5)
        self.assertAlmostEqual(m.los(40, 60), 1 - 0.97725, places=5)


class SprtTest(unittest.TestCase):
    def test_bounds(self):
        lower, upper = m.sprt_bounds(0.05, 0.05)
        self.assertAlmostEqual(upper, math.log(19), places=12)  # 2.944
        self.assertAlmostEqual(lower, -math.log(19), places=12)
        self.assertEqual(m.sprt_state(3.0), "H1")
        self.assertEqual(m.sprt_state(-3.0), "H0")
        self.assertIsNone(m.sprt_state(2.9))

    def test_llr_by_hand(self):
        # +10 =5 -5 for [0, 10]: s0 = 0.5, s1 = 0.514387; 20 (0.014387) (1.25 - 1.014387)
        # / (2 * 0.171875) = 0.19724
        s1 = 1 / (1 + 10 ** (-10 / 400))
        want = 20 * (s1 - 0.5) * (2 * 0.625 - 0.5 - s1) / (2 * 0.171875)
        self.assertAlmostEqual(want, 0.19724, places=4)
        self.assertAlmostEqual(m.llr(*m.trinomial(10, 5, 5), 0, 10), want, places=12)
        # At the midpoint of the bounds the ratio is 0, and it is odd about it.
        mid = (m.score_of(0) + m.score_of(10)) / 2
        self.assertAlmostEqual(m.llr(100, mid, 0.2, 0, 10), 0.0, places=12)
        self.assertAlmostEqual(m.llr(100, mid + 0.01, 0.2, 0, 10), -m.llr(100, mid - 0.01, 0.2, 0, 10), places=12)
        self.assertEqual(m.llr(0, 0.0, 0.0, 0, 10), 0.0)

    def test_regularized_one_sided_match_ends(self):
        # Ten pairs all lost: no variance, so the raw ratio is 0; with fastchess's 1e-3
        # per empty class it is far below the lower bound.
        self.assertEqual(m.llr(*penta(10, 0, 0, 0, 0), 0, 10), 0.0)
        self.assertEqual(m.regularize((10, 0, 3)), (10, 1e-3, 3))
        self.assertLess(m.llr(*penta(*m.regularize((10, 0, 0, 0, 0))), 0, 10), -2.95)
        self.assertGreater(m.llr(*penta(*m.regularize((0, 0, 0, 0, 10))), 0, 10), 2.95)

    # Published values: the SPRT tests of fastchess (tests/sprt_test.cpp, logistic
    # bounds), which computes the exact GSPRT maximum-likelihood ratio; the normal
    # approximation agrees to their two decimals on matches this long.
    def test_llr_trinomial_fastchess(self):
        self.assertAlmostEqual(m.llr(*m.trinomial(21404, 40708, 21184), 0.5, 2.5), -1.57, delta=0.01)
        self.assertAlmostEqual(m.llr(*m.trinomial(57433, 106593, 57030), 0, 2), -2.59, delta=0.01)

    def test_llr_pentanomial_fastchess(self):
        # fastchess's Stats(LL, LD, WL, DD, WD, WW): WL and DD both total 1.
        self.assertAlmostEqual(m.llr(*penta(223, 9863, 20279 + 1000, 10037, 246), 0.5, 2.5), -3.07, delta=0.01)
        self.assertAlmostEqual(m.llr(*penta(871, 26175, 55003 + 980, 26678, 821), 0, 2), -4.98, delta=0.01)


if __name__ == "__main__":
    unittest.main()
