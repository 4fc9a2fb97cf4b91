"""Unit tests of tools/ray_nnue_data.py: python3 -m unittest discover -s tools/tests -t .

The Ray tests need `ray` (pyproject.toml puts it in .venv) and are
skipped without it. Real data comes from the koma binary ($KOMA, else
target/release/koma) at fixed nodes (the same file whatever the machine's load); the
failures come from small fake koma scripts."""

import os
import subprocess
import sys
import tempfile
import unittest

from tools import ray_nnue_data
from tools.tests.support import FIRST_RUN, KOMA, WithRay

TINY = ["--games", "2", "--play-nodes", "200", "--score-nodes", "400"]


def fake_koma(path, before=""):
    """A stand-in for `koma nnue-data` that logs each call's seed (a line in PATH.calls),
    runs `before` (Python: may fail), and writes a data file of one record whose first
    byte is the seed."""
    with open(path, "w") as f:
        f.write(
            """#!%(python)s
import os, sys
me = %(me)r
args = sys.argv[1:]
seed = int(args[args.index("--seed") + 1])
out = args[args.index("--out") + 1]
with open(me + ".calls", "a") as f:
    f.write("%%d\\n" %% seed)
%(first)s%(before)s
with open(out, "wb") as f:
    f.write(b"KOMADATA" + bytes([1, 0, 0, 0, 32, 0, 0, 0]) + bytes([seed %% 256]) + bytes(31))
"""
            % dict(python=sys.executable, me=path, before=before, first=FIRST_RUN)
        )
    os.chmod(path, 0o755)
    return path


def calls(koma):
    try:
        with open(koma + ".calls") as f:
            return sorted(int(t) for t in f)
    except FileNotFoundError:
        return []


class Seeds(unittest.TestCase):
    def test_ranges_and_lists(self):
        self.assertEqual(ray_nnue_data.seed_list("3-5,1, 4,9-9"), [3, 4, 5, 1, 9])
        for bad in ("", "5-3", "x", "-1"):
            with self.assertRaises(ValueError):
                ray_nnue_data.seed_list(bad)

    def test_bad_options_exit_2_before_ray(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(ray_nnue_data.main(["--dir", d, "--seeds", "2-1"]), 2)
            self.assertEqual(ray_nnue_data.main(["--dir", d, "--seeds", "1", "--games", "0"]), 2)
            self.assertEqual(ray_nnue_data.main(["--dir", d, "--seeds", "1", "--koma", os.path.join(d, "none")]), 2)


class Run(WithRay):
    def test_each_seed_gives_the_file_koma_makes_for_it_alone(self):
        data = os.path.join(self.dir, "data")
        made, failed = ray_nnue_data.run([7, 8], data, KOMA, TINY, progress=None)
        self.assertEqual((sorted(made), failed), ([7, 8], []))
        for seed in (7, 8):
            alone = os.path.join(self.dir, "alone-%d.data" % seed)
            subprocess.run(
                [KOMA, "nnue-data", "--seed", str(seed), "--out", alone] + TINY,
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            with open(alone, "rb") as a, open(ray_nnue_data.data_path(data, seed), "rb") as b:
                want, got = a.read(), b.read()
            self.assertEqual(got, want)
            self.assertGreater(ray_nnue_data.positions_in(got), 0)
        self.assertEqual(sorted(os.listdir(data)), ["kokesu-s7.data", "kokesu-s8.data"])

    def test_a_rerun_makes_only_the_missing_seeds(self):
        koma = fake_koma(os.path.join(self.dir, "koma"))
        data = os.path.join(self.dir, "data")
        ray_nnue_data.run([1, 2, 3], data, koma, progress=None)
        self.assertEqual(calls(koma), [1, 2, 3])
        os.unlink(ray_nnue_data.data_path(data, 2))
        made, failed = ray_nnue_data.run([1, 2, 3], data, koma, progress=None)
        self.assertEqual((made, failed), ([2], []))
        self.assertEqual(calls(koma), [1, 2, 2, 3])
        with open(ray_nnue_data.data_path(data, 3), "rb") as f:
            self.assertEqual(f.read()[16], 3)

    def test_a_failing_koma_is_tried_again(self):
        koma = fake_koma(os.path.join(self.dir, "koma"), before="if first(): sys.exit(9)")
        data = os.path.join(self.dir, "data")
        made, failed = ray_nnue_data.run([5], data, koma, retries=2, progress=None)
        self.assertEqual((made, failed), ([5], []))
        self.assertEqual(calls(koma), [5, 5])

    def test_a_seed_that_keeps_failing_is_left_for_a_later_run(self):
        koma = fake_koma(os.path.join(self.dir, "koma"), before="if seed == 6: sys.exit(9)")
        data = os.path.join(self.dir, "data")
        made, failed = ray_nnue_data.run([4, 6], data, koma, retries=1, progress=None)
        self.assertEqual((made, failed), ([4], [6]))
        self.assertEqual(calls(koma), [4, 6, 6])
        self.assertEqual(os.listdir(data), ["kokesu-s4.data"])


if __name__ == "__main__":
    unittest.main()
