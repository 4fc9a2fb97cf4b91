"""Where things are in this repository, for the tools run from its root."""

import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_KOMA = os.path.join(ROOT, "target", "release", "koma")
DATA = os.path.join(ROOT, "tools", "data")
FSF_VARIANTS = os.path.join(DATA, "fsf_variants.ini")


def koma_under_test():
    """The koma binary a test runs: $KOMA (tests/tools.rs sets it to this build's), else
    target/release/koma; absolute, as the Ray tests hand it to other processes."""
    return os.path.abspath(os.environ.get("KOMA") or DEFAULT_KOMA)
