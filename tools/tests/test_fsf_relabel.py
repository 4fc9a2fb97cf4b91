"""Unit tests of tools/fsf_relabel.py: python3 -m unittest discover -s tools/tests -t .

Records are made by the koma binary ($KOMA, else target/release/koma) or by hand; the
Fairy-Stockfish is a small fake UCI engine (the native build is not made in CI), so the
tests check the plumbing: the position FSF is given, the score kept, mates left out, the
rest of each record unchanged. The Ray test needs `ray` and is skipped without it."""

import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

from tools import fsf_relabel
from tools.lib.paths import FSF_VARIANTS
from tools.lib.ray import connect
from tools.lib.records import HEADER, fen_of_record
from tools.tests.support import HAVE_RAY, KOMA, NO_RAY

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def record(board, side, result, score, ply=7):
    """A record (src/train/records.rs) of a FEN board field."""
    squares = [None] * 64
    for i, rank in enumerate(board.split("/")):
        file = 0
        for ch in rank:
            if ch.isdigit():
                file += int(ch)
                continue
            code = "pnbrqk".index(ch.lower()) + (0 if ch.isupper() else 6)
            squares[(7 - i) * 8 + file] = code
            file += 1
    occupancy, nibbles = 0, bytearray(16)
    n = 0
    for sq, p in enumerate(squares):
        if p is not None:
            occupancy |= 1 << sq
            nibbles[n // 2] |= p << (4 * (n % 2))
            n += 1
    return (
        struct.pack("<Q", occupancy)
        + bytes(nibbles)
        + bytes([side, result])
        + struct.pack("<hH", score, ply)
        + bytes(2)
    )


def fake_fsf(path):
    """A UCI engine that logs each `position` line and scores a position `cp` its FEN's
    length, or `mate 3` when black has no queen."""
    with open(path, "w") as f:
        f.write(
            """#!%(python)s
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
    elif w[0] == "go":
        board = fen.split()[0]
        score = "mate 3" if "q" not in board else "cp %%d" %% len(fen)
        print("info depth 1 score %%s nodes 1\\nbestmove a2a3" %% score, flush=True)
    elif w[0] == "quit":
        break
"""
            % dict(python=sys.executable, me=path)
        )
    os.chmod(path, 0o755)
    return path


class Records(unittest.TestCase):
    def test_a_record_gives_its_fen_sente_white(self):
        self.assertEqual(fen_of_record(record(START, 0, 1, 0)), START + " w - - 0 1")
        board = "4k3/8/8/3p4/8/8/2Q5/4K3"
        self.assertEqual(fen_of_record(record(board, 1, 2, 0)), board + " b - - 0 1")

    def test_koma_records_give_legal_looking_fens(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "a.data")
            subprocess.run(
                [KOMA, "nnue-data", "--games", "2", "--play-nodes", "200", "--score-nodes", "300", "--out", out],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            with open(out, "rb") as f:
                data = f.read()
        self.assertEqual(data[:16], HEADER)
        for at in range(16, len(data), 32):
            fen = fen_of_record(data[at : at + 32])
            board = fen.split()[0]
            self.assertEqual(len(board.split("/")), 8, fen)
            self.assertEqual((board.count("K"), board.count("k")), (1, 1), fen)
            for rank in board.split("/"):
                self.assertEqual(sum(int(c) if c.isdigit() else 1 for c in rank), 8, fen)


class Relabel(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fsf_relabel_test_")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.fsf = fake_fsf(os.path.join(self.dir, "fsf"))
        with open(FSF_VARIANTS) as f:
            self.ini = f.read()
        self.boards = [START, "4k3/8/8/8/8/8/8/3QK3", "3qk3/8/8/8/8/8/8/4K3"]
        self.data = HEADER + b"".join(record(b, i % 2, i, -5 * i) for i, b in enumerate(self.boards))

    def test_scores_are_replaced_and_mates_left_out(self):
        out, scored, mates, _ = fsf_relabel.relabel(self.fsf, self.data, 100, self.ini)
        self.assertEqual((scored, mates), (2, 1))
        self.assertEqual(out[:16], HEADER)
        kept = [out[16:48], out[48:80]]
        for rec, (i, _board) in zip(kept, [(0, self.boards[0]), (2, self.boards[2])]):
            fen = fen_of_record(rec)
            self.assertEqual(struct.unpack("<h", rec[26:28])[0], len(fen))
            want = self.data[16 + 32 * i : 48 + 32 * i]
            self.assertEqual(rec[:26] + rec[28:], want[:26] + want[28:])
        with open(self.fsf + ".log") as f:
            self.assertEqual([line.split()[0] for line in f], self.boards)

    def test_a_file_that_is_not_data_is_refused(self):
        with self.assertRaises(ValueError):
            fsf_relabel.relabel(self.fsf, b"KOMANNUE" + bytes(8), 100, self.ini)

    @unittest.skipUnless(HAVE_RAY, NO_RAY)
    def test_files_are_done_on_ray_once(self):
        started = connect(cpus=2)
        try:
            src = os.path.join(self.dir, "a.data")
            with open(src, "wb") as f:
                f.write(self.data)
            out_dir = os.path.join(self.dir, "out")
            made, failed = fsf_relabel.run([src], out_dir, self.fsf, 100, progress=None)
            self.assertEqual((made, failed), ([src], []))
            with open(os.path.join(out_dir, "a.data"), "rb") as f:
                self.assertEqual(len(f.read()), 16 + 2 * 32)
            self.assertEqual(fsf_relabel.run([src], out_dir, self.fsf, 100, progress=None), ([], []))
        finally:
            if started:
                import ray

                ray.shutdown()


if __name__ == "__main__":
    unittest.main()
