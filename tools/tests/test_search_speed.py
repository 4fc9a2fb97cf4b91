"""Unit tests of tools/search_speed.py: python3 -m unittest discover -s tools/tests -t .

The timed search needs a koma binary: $KOMA, else target/release/koma; it is skipped
without one. It searches a few thousand nodes."""

import os
import unittest

from tools import search_speed
from tools.lib.paths import koma_under_test

KOMA = koma_under_test()


class NodesOf(unittest.TestCase):
    def test_the_last_info_line_with_nodes_counts(self):
        lines = [
            "info depth 1 nodes 10 score cp 3",
            "info depth 2 nodes 250 nps 1000 score cp 5",
            "info string no nodes here",
            "bestmove 5c4c",
        ]
        self.assertEqual(search_speed.nodes_of(lines), 250)

    def test_no_info_line_gives_none(self):
        self.assertIsNone(search_speed.nodes_of(["bestmove 5c4c"]))


@unittest.skipUnless(os.path.exists(KOMA), "no koma binary")
class Think(unittest.TestCase):
    def test_every_default_position_is_searched_to_its_nodes(self):
        for variant, positions in search_speed.POSITIONS.items():
            for position in positions:
                seconds, nodes = search_speed.think(KOMA, variant, position, 3000)
                self.assertGreater(seconds, 0)
                # A default position must not end the search early by a forced result.
                self.assertIsNotNone(nodes, (variant, position))
                self.assertGreaterEqual(nodes, 1000, (variant, position))


if __name__ == "__main__":
    unittest.main()
