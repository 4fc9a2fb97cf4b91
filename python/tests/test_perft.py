"""Perft through the binding equals the engine's figures (fixtures/perft/, which the
crate's perft suites check), up to a size the test can afford."""

import os

import koma
import pytest
from conftest import ROOT, VARIANTS
from kokesu_pyffish import parse_suite

MAX_NODES = 300_000


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_equals_the_fixture(variant):
    with open(os.path.join(ROOT, "fixtures", "perft", variant + ".perft")) as f:
        cases = parse_suite(f.read())
    checked = 0
    for case in cases:
        board = koma.Board(variant, sfen=case["sfen"], **case["options"])
        for depth, want in case["perft"]:
            if want <= MAX_NODES:
                assert board.perft(depth) == want, "%s perft %d" % (case["id"], depth)
                checked += 1
    assert checked >= 3


def test_perft_after_moves_counts_from_the_current_position():
    board = koma.Board("kokesu")
    board.push("5g5e")
    assert board.perft(1) == 20 and board.perft(0) == 1
