"""Unit tests of tools/sf_relabel.py and tools/lib/relabel.py: python3 -m unittest
discover -s tools/tests -t .

Stockfish is not installed in CI: the relabelling is tested with a small fake UCI engine
whose `eval` prints a trace ending as Stockfish 15.1's does ("Final evaluation  +1.23
(white side) ...", or "Final evaluation: none (in check)"), so the tests check the
plumbing: the position Stockfish is given, its white-side pawns turned into centipawns
from the side to move's view, positions without an evaluation left out, the rest of each
record unchanged, the same output whenever a file is done, a rerun doing only the missing
files. With Debian's Stockfish installed (/usr/games/stockfish), one test reads its real
`eval`. The Ray test needs `ray` and is skipped without it."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from tools import sf_relabel
from tools.lib.records import HEADER, RECORD, fen_of_record, record_of
from tools.lib.stockfish import DEFAULT_STOCKFISH
from tools.tests.support import KOMA, WithRay

# A position's value in the fake: white's pieces minus black's, and a hundredth per file of
# white's king (so that two positions of the same material differ), in pawns, white's view.
FAKE = """#!%(python)s
import sys
fen = ""
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    if w[0] == "uci":
        print("id name fake\\nuciok", flush=True)
    elif w[0] == "isready":
        print("readyok", flush=True)
    elif w[0] == "position":
        fen = line.strip()[len("position fen "):]
        with open(%(me)r + ".log", "a") as log:
            log.write(fen + "\\n")
    elif w[0] == "eval":
        board = fen.split()[0]
        print(" NNUE derived piece values:\\n|   K   |\\n\\nClassical evaluation   +0.53 (white side)")
        if "q" not in board:
            print("Final evaluation: none (in check)", flush=True)
            continue
        row = [r for r in board.split("/") if "K" in r][0]
        file = 0
        for ch in row:
            if ch == "K":
                break
            file += int(ch) if ch.isdigit() else 1
        white = sum(ch.isupper() for ch in board) - sum(ch.islower() for ch in board) + file / 100
        print("NNUE evaluation        +9.99 (white side)")
        print("Final evaluation       %%+.2f (white side) [with scaled NNUE, hybrid, ...]" %% white, flush=True)
    elif w[0] == "quit":
        break
"""


def fake_stockfish(path):
    """The fake engine at `path`; it logs each position's FEN to `path`.log."""
    with open(path, "w") as f:
        f.write(FAKE % dict(python=sys.executable, me=path))
    os.chmod(path, 0o755)
    return path


def score(rec):
    return int.from_bytes(rec[26:28], "little", signed=True)


class Relabel(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sf_relabel_test_")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.sf = fake_stockfish(os.path.join(self.dir, "stockfish"))
        self.fens = [
            # white to move, a knight up: +1 piece, king on file e (4): +1.04
            "rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            # black to move, white without a rook and a bishop: -2 pieces, king on file f
            # (5): white -1.95, black +1.95
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KN1 b - - 0 1",
            # no black queen: the fake has no evaluation (as Stockfish in check)
            "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
            # black to move, white a rook up: +1 piece, king on file e (4): white +1.04
            "3qk3/8/8/8/8/8/8/2QRK3 b - - 0 1",
        ]
        self.data = HEADER + b"".join(record_of(fen, i % 3, -7 * i, 10 + i) for i, fen in enumerate(self.fens))

    def test_white_pawns_become_the_side_to_moves_centipawns(self):
        out, scored, left_out, _ = sf_relabel.relabel(self.sf, self.data)
        self.assertEqual((scored, left_out), (3, 1))
        self.assertEqual(out[:16], HEADER)
        kept = [out[at : at + RECORD] for at in range(16, len(out), RECORD)]
        self.assertEqual([score(r) for r in kept], [104, 195, -104])
        for rec, i in zip(kept, (0, 1, 3)):
            self.assertEqual(fen_of_record(rec), self.fens[i])
            want = self.data[16 + RECORD * i : 16 + RECORD * (i + 1)]
            self.assertEqual(rec[:26] + rec[28:], want[:26] + want[28:])
        with open(self.sf + ".log") as f:
            self.assertEqual([line.strip() for line in f], self.fens)

    def test_the_same_file_gives_the_same_output(self):
        self.assertEqual(sf_relabel.relabel(self.sf, self.data)[:3], sf_relabel.relabel(self.sf, self.data)[:3])

    def test_a_file_that_is_not_data_is_refused_before_stockfish_starts(self):
        for bad in (b"KOMANNUE" + bytes(8), self.data[:-1]):
            with self.assertRaises(ValueError):
                sf_relabel.relabel(self.sf, bad)
        self.assertFalse(os.path.exists(self.sf + ".log"))

    def test_koma_records_keep_their_positions(self):
        out = os.path.join(self.dir, "a.data")
        subprocess.run(
            [KOMA, "nnue-data", "--games", "2", "--play-nodes", "200", "--score-nodes", "1", "--out", out],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        with open(out, "rb") as f:
            data = f.read()
        new, scored, left_out, _ = sf_relabel.relabel(self.sf, data)
        old = [data[at : at + RECORD] for at in range(16, len(data), RECORD)]
        kept = [new[at : at + RECORD] for at in range(16, len(new), RECORD)]
        self.assertGreater(len(old), 0)
        self.assertEqual((scored + left_out, len(kept)), (len(old), scored))
        fens = [fen_of_record(r) for r in old]
        self.assertEqual(left_out, sum("q" not in fen.split()[0] for fen in fens))
        self.assertEqual([fen_of_record(r) for r in kept], [fen for fen in fens if "q" in fen.split()[0]])

    @unittest.skipUnless(os.path.isfile(DEFAULT_STOCKFISH), "no Stockfish at %s" % DEFAULT_STOCKFISH)
    def test_stockfish_scores_from_the_side_to_move(self):
        # White a queen up: Stockfish's static evaluation is far above 0 for white to move
        # and as far below for black to move; in check there is none.
        up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR %s - - 0 1"
        check = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1"
        data = HEADER + b"".join(record_of(fen, 1, 0, 9) for fen in (up % "w", up % "b", check))
        out, scored, left_out, _ = sf_relabel.relabel(DEFAULT_STOCKFISH, data)
        self.assertEqual((scored, left_out), (2, 1))
        white, black = score(out[16:48]), score(out[48:80])
        self.assertGreater(white, 500)
        self.assertLess(black, -500)


class Options(unittest.TestCase):
    def test_bad_options_exit_2(self):
        with tempfile.TemporaryDirectory() as d:
            for bad in (
                ["--cpus", "0", "x.data"],
                ["--retries", "-1", "x.data"],
                ["--stockfish", os.path.join(d, "none"), "x.data"],
            ):
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    self.assertEqual(sf_relabel.main(["--out-dir", d] + bad), 2, bad)
                self.assertEqual(len(err.getvalue().splitlines()), 1, err.getvalue())


class OnRay(WithRay):
    def test_files_are_done_once_and_a_rerun_does_only_the_missing(self):
        sf = fake_stockfish(os.path.join(self.dir, "stockfish"))
        fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "3qk3/8/8/8/8/8/8/2QRK3 b - - 0 1"]
        files = []
        for name, n in (("a.data", 1), ("b.data", 2)):
            files.append(os.path.join(self.dir, name))
            with open(files[-1], "wb") as f:
                f.write(HEADER + b"".join(record_of(fen, 1, 0, 9) for fen in fens[:n]))
        out_dir = os.path.join(self.dir, "out")
        made, failed = sf_relabel.run(files, out_dir, sf, progress=None)
        self.assertEqual((sorted(made), failed), (files, []))
        outputs = {}
        for path in files:
            with open(path, "rb") as f:
                want = sf_relabel.relabel(sf, f.read())[0]
            with open(os.path.join(out_dir, os.path.basename(path)), "rb") as f:
                outputs[path] = f.read()
            self.assertEqual(outputs[path], want)
        self.assertEqual([len(outputs[p]) for p in files], [16 + RECORD, 16 + 2 * RECORD])
        os.unlink(os.path.join(out_dir, "b.data"))
        self.assertEqual(sf_relabel.run(files, out_dir, sf, progress=None), ([files[1]], []))
        with open(os.path.join(out_dir, "b.data"), "rb") as f:
            self.assertEqual(f.read(), outputs[files[1]])
        self.assertEqual(sf_relabel.run(files, out_dir, sf, progress=None), ([], []))


if __name__ == "__main__":
    unittest.main()
