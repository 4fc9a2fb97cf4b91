"""Shared helpers of the binding's tests: the repository's paths, the koma binary for
the USI comparisons, and random games played through the binding."""

import os
import random
import signal
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# tools.lib.engine (the USI referee) and the pyffish reference scripts.
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "reference"))

import koma  # noqa: E402

# A run started in the background of a shell without job control (`cmd &` in a script, as
# CI may run the suite) inherits SIGINT ignored, and Python then installs no handler of its
# own: `_thread.interrupt_main` does nothing, and the Ctrl-C tests would wait out their
# searches' whole movetime. The default handler is put back, as tools/lib/ray.py does.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

VARIANTS = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"]


@pytest.fixture(scope="session")
def koma_binary():
    """The engine binary: $KOMA (tests/python.rs sets it), else the release build."""
    path = os.environ.get("KOMA") or os.path.join(ROOT, "target", "release", "koma")
    if not os.path.exists(path):
        pytest.fail("no koma binary at %s: run `cargo build --release` or set KOMA" % path)
    return path


def random_game(variant, seed, max_plies=300, **switches):
    """A game of random legal moves through the binding, to its end or `max_plies`."""
    rng = random.Random(seed)
    board = koma.Board(variant, **switches)
    while not board.is_game_over() and len(board.move_stack) < max_plies:
        board.push(rng.choice(list(board.legal_moves)))
    return board
