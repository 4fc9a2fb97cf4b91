"""Tests of tools/spsa.py: python3 -m unittest discover -s tools/tests -t .

The arithmetic is checked on its own; a run is checked end to end with the default koma
build (no `spsa` feature), tuning a spin option every build has, SkillLevel, in tiny
Kani Shogi games at a few hundred nodes, through a wrapper that records the options each
engine was given. The Ray test needs `ray` and a koma binary ($KOMA, else
target/release/koma)."""

import glob
import json
import os
import subprocess
import sys
import tempfile
import unittest

from tools import spsa
from tools.lib.paths import ROOT
from tools.tests.support import KOMA, WithRay

HAVE_KOMA = os.access(KOMA, os.X_OK)
DEADLINE = 300  # seconds: only a run that hangs reaches it
P = dict(name="X", start=100.0, min=0.0, max=200.0, c_end=10.0)


class Arithmetic(unittest.TestCase):
    def test_the_steps_shrink_to_c_end_and_the_last_rate_is_r_end(self):
        n = 1000
        c1, r1 = spsa.gains(P, 1, n, 0.002)
        cn, rn = spsa.gains(P, n, n, 0.002)
        self.assertAlmostEqual(cn, 10.0)
        self.assertAlmostEqual(rn * cn**2, 0.002 * 10.0**2)  # a_N = R_END * C_END^2
        self.assertGreater(c1, cn)
        self.assertGreater(r1, rn)

    def test_an_iteration_moves_toward_the_side_that_won_and_stays_in_bounds(self):
        params = [P, dict(P, name="Y")]
        up = spsa.update(params, [100.0, 100.0], 1, 100, [1, -1], 2, 0.002)
        self.assertGreater(up[0], 100.0)  # A had X higher and won
        self.assertLess(up[1], 100.0)  # A had Y lower and won
        down = spsa.update(params, [100.0, 100.0], 1, 100, [1, -1], -2, 0.002)
        self.assertAlmostEqual(down[0] - 100.0, 100.0 - up[0])
        self.assertEqual(spsa.update(params, [100.0, 100.0], 1, 100, [1, 1], 0, 0.002), [100.0, 100.0])
        self.assertEqual(spsa.update(params, [199.9, 0.1], 1, 100, [1, -1], 2, 1.0), [200.0, 0.0])

    def test_a_and_b_get_opposite_whole_values(self):
        a, b = spsa.sides([P, dict(P, name="Y")], [100.0, 100.0], 100, 100, [1, -1], 0.002)
        self.assertEqual(a, [("X", "110"), ("Y", "90")])
        self.assertEqual(b, [("X", "90"), ("Y", "110")])

    def test_the_signs_depend_only_on_the_seed_and_the_iteration(self):
        self.assertEqual(spsa.flips(1, 7, 20), spsa.flips(1, 7, 20))
        self.assertNotEqual(spsa.flips(1, 7, 20), spsa.flips(2, 7, 20))
        self.assertNotEqual(spsa.flips(1, 7, 20), spsa.flips(1, 8, 20))
        self.assertEqual(set(spsa.flips(3, 1, 50)), {-1, 1})

    def test_a_params_file_with_a_bad_line_is_refused(self):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("# a comment\nSpsa_A 10 0 20 2\nSpsa_B 30 0 20 2\n")
        self.addCleanup(os.unlink, f.name)
        with self.assertRaises(SystemExit) as e:
            spsa.read_params(f.name)
        self.assertIn(":3:", str(e.exception))


def recorder(dir):
    """koma behind a wrapper that appends each `setoption name SkillLevel` value it is
    given to DIR/skill.PID."""
    path = os.path.join(dir, "koma.py")
    with open(path, "w") as f:
        f.write(
            "#!%s\nimport os, subprocess, sys\n"
            "log = open(os.path.join(%r, 'skill.%%d' %% os.getpid()), 'a')\n"
            "koma = subprocess.Popen([%r], stdin=subprocess.PIPE, text=True, bufsize=1)\n"
            "for line in sys.stdin:\n"
            "    w = line.split()\n"
            "    if w[:3] == ['setoption', 'name', 'SkillLevel']:\n"
            "        log.write(w[-1] + '\\n'); log.flush()\n"
            "    koma.stdin.write(line); koma.stdin.flush()\n"
            "koma.stdin.close(); koma.wait()\n" % (sys.executable, dir, KOMA)
        )
    os.chmod(path, 0o755)
    return path


@unittest.skipUnless(HAVE_KOMA, "no koma binary at %s" % KOMA)
class Run(WithRay):
    def spsa(self, *argv):
        return subprocess.run(
            [sys.executable, "-m", "tools.spsa"] + list(argv),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
        )

    def test_a_run_plays_opposite_values_keeps_its_state_and_resumes(self):
        params = os.path.join(self.dir, "params.txt")
        with open(params, "w") as f:
            f.write("SkillLevel 10 0 20 2\n")
        koma = recorder(self.dir)
        state = os.path.join(self.dir, "state.json")
        common = ["--variant", "kanishogi", "--koma", koma, "--params", params, "--nodes", "300"]
        common += ["--state", state, "--cpus", "2", "--r-end", "0.5"]
        p = self.spsa(*common, "--pairs", "4")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("from iteration 1", p.stdout)
        self.assertRegex(p.stdout, r"spsa: done: SkillLevel=\d+")
        with open(state) as f:
            s = json.load(f)
        self.assertEqual((s["k"], len(s["history"]), sum(s["score"])), (4, 4, 8))
        self.assertTrue(0 <= s["theta"][0] <= 20)
        # Iterations 1 and 2 start from 10 with c_1 = 2 * 4^0.101 = 2.3: A and B play 12
        # and 8 (one each). The referees get no SkillLevel; every player process got one.
        seen = [open(p).read().split() for p in glob.glob(os.path.join(self.dir, "skill.*"))]
        seen = [v for v in seen if v]
        self.assertEqual(len(seen), 8)  # 4 pairs, 2 players each
        self.assertTrue(all(len(v) == 1 for v in seen))
        values = sorted(int(v[0]) for v in seen)
        self.assertGreaterEqual(values.count(12), 2)
        self.assertGreaterEqual(values.count(8), 2)
        self.assertTrue(all(0 <= v <= 20 for v in values))

        # Resumed with more iterations: it goes on from the fifth.
        p = self.spsa(*common, "--pairs", "6")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("from iteration 5", p.stdout)
        with open(state) as f:
            self.assertEqual(json.load(f)["k"], 6)
        # Another seed cannot go on from this state.
        p = self.spsa(*common, "--pairs", "8", "--seed", "2")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("another --state", p.stderr)


if __name__ == "__main__":
    unittest.main()
