"""The hidden-setup equilibrium tool on made-up matrices with known answers (no koma, no
Ray): the LP, the double oracle's certificate, the enumeration of a winner's arrangements
and the table it writes (read back by the engine's format rules)."""

import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

try:
    import scipy  # noqa: F401

    HAVE_SCIPY = True
except ImportError:
    HAVE_SCIPY = False

from tools import numbershogi_equilibrium as eq


def arrangements_of(line: str) -> tuple[str, str]:
    """Inverts `setup_line`."""
    board = line.split()[2].split("/")

    def digit(ch):
        return str("abcdef".index(ch.lower()) + 1)

    ra, rb, rd, re_ = board[0], board[1], board[3], board[4]
    s = "".join(digit(c) for c in rd + re_)
    g_slots = {5: ra[0], 4: ra[1], 3: ra[2], 2: rb[0], 1: rb[1], 0: rb[2]}
    g = "".join(digit(g_slots[i]) for i in range(6))
    return s, g


def fake_solver(value_of, hard=lambda s, g: False):
    """A solver answering every line from `value_of(s, g) -> (value, plies)`; `hard`
    pairs are `unknown` to the quick pass and answered by the final one."""
    calls = []

    def solve(lines, final=False):
        calls.append(len(lines))
        out = {}
        for line in lines:
            s, g = arrangements_of(line)
            if hard(s, g) and not final:
                out[line] = {"input": line, "value": "unknown", "nodes": 1, "ms": 0}
                continue
            v, plies = value_of(s, g)
            out[line] = {"input": line, "value": v, "plies": plies, "bestmove": "3d3c", "nodes": 1, "ms": 0}
        return out

    solve.calls = calls
    return solve


def front(a):
    return sum(int(d) for d in a[:3])


class SetupLines(unittest.TestCase):
    def test_lines_invert_and_mirror_pairs_share_a_value(self):
        self.assertEqual(eq.setup_line("653241", "653241"), "numbershogi sfen adb/cef/3/FEC/BDA b - 13")
        for s, g in [("123456", "654321"), ("653241", "356142")]:
            self.assertEqual(arrangements_of(eq.setup_line(s, g)), (s, g))
        self.assertEqual(eq.canonical("653241", "123456"), eq.canonical("356142", "321654"))


@unittest.skipUnless(HAVE_SCIPY, "scipy is installed by .ci/run")
class DoubleOracle(unittest.TestCase):
    def test_a_symmetric_game_has_value_zero_and_certifies_from_few_entries(self):
        # Whoever has the bigger front rank wins; equal is a draw. Value 0: keep 6, 5, 4 in front.
        def value(s, g):
            d = front(s) - front(g)
            return ("win", 9) if d > 0 else ("loss", 8) if d < 0 else ("draw", 0)

        m = eq.Matrix(fake_solver(value))
        v, xs, ys = eq.double_oracle(m, lambda _: None)
        self.assertAlmostEqual(v, 0.0)
        self.assertTrue(all(front(a) == 15 for a in xs) and all(front(a) == 15 for a in ys), (xs, ys))
        self.assertLess(len(m.entries), 720 * 720 // 4)

    def test_the_winners_arrangements_are_exactly_those_that_beat_everything(self):
        # Sente wins only with a front sum more than 3 above gote's: gote wins with 12 or more.
        def value(s, g):
            return ("win", 11) if front(s) > front(g) + 3 else ("loss", 20 - front(s) + front(g) % 2)

        # Some entries only the full budget decides, among them whole winning columns.
        def hard(s, g):
            return s.startswith("1") and g.endswith("1")

        m = eq.Matrix(fake_solver(value, hard))
        v, xs, ys = eq.double_oracle(m, lambda _: None)
        self.assertAlmostEqual(v, -1.0)
        best = eq.winning_arrangements(m, "gote", 24, lambda _: None)
        self.assertEqual(best, sorted(a for a in eq.ARRANGEMENTS if front(a) >= 12))

    def test_the_written_table_has_the_engines_format(self):
        m = eq.Matrix(fake_solver(lambda s, g: ("loss", 10)))
        m.solve([("653241", "653241"), ("123456", "653241")])
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "solution.txt"
            eq.write_table(
                path,
                "loss",
                {"sente": {"123456": Fraction(1)}, "gote": {"653241": Fraction(1, 2), "356142": Fraction(1, 2)}},
                m,
            )
            lines = path.read_text().splitlines()
        self.assertEqual(lines[0], eq.HEADER)
        self.assertEqual(lines[5], "mix gote 356142:1/2 653241:1/2")
        self.assertIn("123456 653241 L10 3d3c", lines)
        self.assertTrue(lines[-1].startswith("end 2 "), lines[-1])


if __name__ == "__main__":
    unittest.main()
