"""What the tools' tests share: the koma binary they run, and a test class with one Ray
on this machine (2 CPUs) for the class and a temporary folder for each test."""

import importlib.util
import shutil
import tempfile
import unittest

from tools.lib.paths import koma_under_test
from tools.lib.ray import SETUP, connect

KOMA = koma_under_test()
HAVE_RAY = importlib.util.find_spec("ray") is not None
NO_RAY = "ray is not installed (%s)" % SETUP

# A fake engine script's helper (its text; the script sets `me`, its own path, and imports
# os): `first()` is true on the script's first run only.
FIRST_RUN = """def first():
    try:
        os.mkdir(me + ".first")
        return True
    except FileExistsError:
        return False
"""


@unittest.skipUnless(HAVE_RAY, NO_RAY)
class WithRay(unittest.TestCase):
    """Ray started for the class (and shut down after it, if the class started it);
    `self.dir`, a folder removed after each test."""

    @classmethod
    def setUpClass(cls):
        cls.started = connect(cpus=2)

    @classmethod
    def tearDownClass(cls):
        if cls.started:
            import ray

            ray.shutdown()

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="%s_test_" % type(self).__module__.rsplit(".", 1)[-1])
        self.addCleanup(shutil.rmtree, self.dir, True)
