"""xboard_demo without its programs: one line saying what to install, not a traceback."""

import os
import subprocess
import sys
import unittest

from tools.lib.paths import ROOT


class MissingProgramsTest(unittest.TestCase):
    def test_without_xvfb_it_says_what_to_install(self):
        # An empty PATH: no Xvfb, xdotool or import; KOMA is any executable.
        env = dict(os.environ, PATH="", KOMA=sys.executable)
        out = subprocess.run(
            [sys.executable, "-m", "tools.xboard_demo", "kokesu"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertNotIn("Traceback", out.stderr)
        self.assertIn("Xvfb (package xvfb)", out.stderr)
        self.assertIn("apt-get install xboard xvfb xdotool imagemagick", out.stderr)
        self.assertEqual(len(out.stderr.strip().splitlines()), 1, out.stderr)


if __name__ == "__main__":
    unittest.main()
