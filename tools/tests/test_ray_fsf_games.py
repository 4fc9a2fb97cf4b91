"""Tests of tools/ray_fsf_games.py (games of Fairy-Stockfish against itself or koma, for
the tuning data) and of `selfplay_data --replay`, which takes their quiet positions:
python3 -m unittest discover -s tools/tests -t .

Fairy-Stockfish is replaced by a small UCI script that plays one of the `searchmoves` it
is given (chosen by the position, so games differ); koma's referee judges the games as in
a match. Each game line must replay from the start position to the result it states."""

import os
import subprocess
import sys
import unittest

from tools import ray_fsf_games
from tools.tests.support import KOMA, WithRay

try:
    import koma
except ImportError:  # the binding (README's test command installs it)
    koma = None

# The games are cut short (a draw) here: the fake plays at random.
PLIES = 80
REPLAY = os.path.join(os.path.dirname(KOMA), "examples", "selfplay_data")

FAKE_FSF = (
    """#!%s
import sys, zlib
position = ""
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake-fsf\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        position = line
    elif w[0] == "go":
        moves = w[w.index("searchmoves") + 1 :]
        print("info depth 1 score cp 0 nodes 1", flush=True)
        print("bestmove " + moves[zlib.crc32(position.encode()) %% len(moves)], flush=True)
    elif w[0] == "quit":
        break
"""
    % sys.executable
)


def game_lines(path):
    with open(path) as f:
        return [line.split() for line in f]


@unittest.skipIf(koma is None, "the koma binding is not installed")
class FsfGames(WithRay):
    def setUp(self):
        super().setUp()
        self.fsf = os.path.join(self.dir, "fake-fsf")
        with open(self.fsf, "w") as f:
            f.write(FAKE_FSF)
        os.chmod(self.fsf, 0o755)
        self.games = os.path.join(self.dir, "games")

    def play(self, seeds, pairing="fsf", games=3):
        return ray_fsf_games.run(
            seeds,
            self.games,
            self.fsf,
            KOMA,
            games=games,
            pairing=pairing,
            nodes=1,
            koma_nodes=50,
            progress=None,
            max_plies=PLIES,
        )

    def check_games(self, path):
        """Every line replays legally from the start to the result it states (or to the
        ply cap, a draw); returns the lines."""
        lines = game_lines(path)
        for w in lines:
            result, opening, moves = float(w[0]), int(w[1]), w[2:]
            self.assertIn(result, (0.0, 0.5, 1.0))
            self.assertLessEqual(opening, len(moves))
            board = koma.Board("kokesu")
            for m in moves:
                self.assertTrue(board.is_legal(m), (m, board.sfen()))
                board.push(m)
            end = board.result()
            if end is None:
                self.assertEqual((len(moves), result), (PLIES, 0.5))
            else:
                self.assertEqual(result, {"b": 1.0, "w": 0.0, None: 0.5}[end.winner], board.sfen())
        return lines

    def test_fsf_against_itself_plays_a_new_opening_every_game(self):
        made, failed = self.play([1, 2])
        self.assertEqual((sorted(made), failed), ([1, 2], []))
        openings = set()
        for seed in (1, 2):
            lines = self.check_games(ray_fsf_games.games_path(self.games, "kokesu", "fsf", seed))
            self.assertEqual(len(lines), 3)
            openings |= {tuple(w[2 : 2 + int(w[1])]) for w in lines}
        self.assertEqual(len(openings), 6)

    def test_fsf_against_koma_plays_each_opening_with_both_colours(self):
        self.play([5], pairing="koma", games=4)
        lines = self.check_games(ray_fsf_games.games_path(self.games, "kokesu", "koma", 5))
        self.assertEqual(len(lines), 4)
        first, second = (tuple(w[2 : 2 + int(w[1])]) for w in lines[:2])
        self.assertEqual(first, second)
        self.assertNotEqual(lines[0][2:], lines[1][2:])

    def test_a_second_run_keeps_the_seeds_written(self):
        self.play([3])
        path = ray_fsf_games.games_path(self.games, "kokesu", "fsf", 3)
        before = os.stat(path).st_mtime_ns
        self.assertEqual(self.play([3]), ([], []))
        self.assertEqual(os.stat(path).st_mtime_ns, before)

    @unittest.skipUnless(os.path.exists(REPLAY), "the selfplay_data example is not built")
    def test_replay_writes_each_quiet_position_once_with_its_result(self):
        self.play([4], games=3)
        path = ray_fsf_games.games_path(self.games, "kokesu", "fsf", 4)
        games = game_lines(path)
        out = subprocess.run(
            [REPLAY, "--variant", "kokesu", "--replay", path], capture_output=True, text=True, check=True
        ).stdout
        rows = [line.split(" ", 2) for line in out.splitlines()]
        self.assertTrue(rows)
        sfens = [r[2] for r in rows]
        self.assertEqual(len(sfens), len(set(sfens)))
        # Where each game's positions are: its quiet positions after the opening, sente's
        # result turned to the side to move's.
        expected = {}
        for w in games:
            result, opening, moves = float(w[0]), int(w[1]), w[2:]
            board = koma.Board("kokesu")
            for ply, m in enumerate(moves):
                before = board.sfen()
                pieces = sum(c.isalpha() for c in before.split()[0])
                board.push(m)
                capture = sum(c.isalpha() for c in board.sfen().split()[0]) < pieces
                if ply >= opening and not capture and len(m) == 4:
                    mover = result if before.split()[1] == "b" else 1 - result
                    expected.setdefault(before, mover)
        for r, score, sfen in rows:
            self.assertEqual(score, "0")
            self.assertIn(sfen, expected)
            self.assertEqual(float(r), expected[sfen], sfen)


if __name__ == "__main__":
    unittest.main()
