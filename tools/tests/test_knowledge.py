"""Unit tests of tools/knowledge.py and tools/lib/epd.py: python3 -m unittest discover -s tools/tests -t .

The suite is a tiny EPD file made here (third-party suites stay outside the repository);
the end-to-end test runs this checkout's koma (KOMA, as tests/tools.rs sets it) as both
the measured build and the base build."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from tools import knowledge
from tools.lib import epd
from tools.lib.paths import koma_under_test

try:
    import pyffish as sf
except ImportError:
    sf = None

KOMA = koma_under_test()

# Theme "Mate": white mates in one with Ra8# (a1a8: 10 points); Ra7 (a1a7) gives 3.
# Theme "Capture": the black queen on d4 hangs to the knight and the queen (f3d4, d1d4).
# Theme "Castle": the best move is castling: left out. "Passant": the best move is a
# plain push, the en-passant capture scores 5 and is dropped. "Empty": no points at all.
SUITE = """\
# a comment, then a blank line

6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; id "Mate.001"; c8 "10 3"; c9 "a1a8 a1a7";
r1b1k2r/ppp2ppp/8/8/3q4/5N2/PPP2PPP/R1BQK2R w KQkq - bm Nxd4; id "Capture.001"; c8 "10 10"; c9 "f3d4 d1d4";
4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id "Castle.001"; c8 "10 2"; c9 "e1g1 h1h7";
4k3/8/8/3pP3/8/8/8/4K3 w - d6 bm Kd2; id "Passant.001"; c8 "10 5"; c9 "e1d2 e5d6";
4k3/8/8/8/8/8/8/4K3 w - - id "Empty.001"; c8 "0"; c9 "e1d2";
"""


def write_suite(directory, text=SUITE):
    path = os.path.join(directory, "tiny.epd")
    with open(path, "w") as f:
        f.write(text)
    return path


class ReadEpd(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.positions, self.dropped = epd.read_suite([write_suite(self.dir.name)])
        self.by_id = {p.id: p for p in self.positions}

    def tearDown(self):
        self.dir.cleanup()

    def test_operations_keep_quoted_operands(self):
        ops = epd.operations(' bm Qh7# Qf8; id "A; b.001"; c8 "10 3";')
        self.assertEqual(ops, {"bm": ["Qh7#", "Qf8"], "id": ["A; b.001"], "c8": ["10 3"]})

    def test_castling_and_en_passant_are_stripped(self):
        self.assertEqual(self.by_id["Capture.001"].fen, "r1b1k2r/ppp2ppp/8/8/3q4/5N2/PPP2PPP/R1BQK2R w - - 0 1")
        self.assertEqual(self.by_id["Passant.001"].fen, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1")

    def test_a_best_move_that_needs_castling_leaves_the_position_out(self):
        self.assertNotIn("Castle.001", self.by_id)
        self.assertEqual(self.dropped, {"best move needs castling or en passant": 1, "no move scores a point": 1})

    def test_an_en_passant_alternative_is_dropped_and_the_position_kept(self):
        self.assertEqual(self.by_id["Passant.001"].points, {"e1d2": 10})

    def test_points_and_themes(self):
        mate = self.by_id["Mate.001"]
        self.assertEqual((mate.theme, mate.best), ("Mate", 10))
        self.assertEqual((mate.score("a1a8"), mate.score("a1a7"), mate.score("g1f1")), (10, 3, 0))

    def test_castling_and_en_passant_moves_are_recognised(self):
        board = epd.board_of("r3k2r/8/8/3pP3/8/8/8/R3K2R")
        for move in ("e1g1", "e1c1", "e8g8", "e5d6"):
            self.assertTrue(epd.needs_castling_or_ep(board, move), move)
        for move in ("e1f1", "e5e6", "a1a8", "h8h1", "d5d4"):
            self.assertFalse(epd.needs_castling_or_ep(board, move), move)

    def test_ids_that_begin_alike_are_one_theme(self):
        with tempfile.TemporaryDirectory() as d:
            text = SUITE.replace('"Capture.001"', '"Mate again.002"')
            positions, _ = epd.read_suite([write_suite(d, text)])
        self.assertEqual(sorted({p.theme for p in positions}), ["Mate", "Passant"])

    def test_unreadable_points_are_one_reason(self):
        pos, why = epd.read_line('6k1/8/8/8/8/8/8/6K1 w - - id "X.1"; c8 "ten"; c9 "g1f1";', "x")
        self.assertEqual((pos, why), (None, "c8 is not a number for each move of c9"))
        self.assertEqual(epd.read_line("not an epd line at all", "x"), (None, "not an EPD line"))

    @unittest.skipIf(sf is None, "pyffish is not installed")
    def test_san_best_moves_and_c0_points_through_pyffish(self):
        pos, why = epd.read_line('6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - bm Ra8#; c0 "Ra7=4"; id "S.1";', "x")
        self.assertIsNone(why)
        self.assertEqual(pos.points, {"a1a8": 10, "a1a7": 4})
        pos, why = epd.read_line('4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id "S.2";', "x")
        self.assertEqual((pos, why), (None, "best move O-O is not a Kokesu move here"))


class Report(unittest.TestCase):
    def test_rows_per_theme_and_the_ratio(self):
        mate = epd.Position("f", "Mate", "Mate.1", {"a": 10, "b": 3})
        grab = epd.Position("f", "Grab", "Grab.1", {"c": 10})
        answers = [{"koma": ("b", None), "fsf": ("a", None)}, {"koma": ("c", None), "fsf": ("c", None)}]
        rows = knowledge.tally([mate, grab], answers, ["koma", "fsf"])
        self.assertEqual(rows["Mate"], {"positions": 1, "max": 10, "koma": 3, "fsf": 10})
        self.assertEqual(rows["all"], {"positions": 2, "max": 20, "koma": 13, "fsf": 20})
        text = knowledge.report(rows, ["koma", "fsf"])
        self.assertIn("koma/fsf", text)
        self.assertRegex(text, r"Mate +1 +10 +3 +30.0% +10 100.0% +0.300")
        self.assertRegex(text.splitlines()[-1], r"^all +2 +20 +13 +65.0% +20 100.0% +0.650$")

    def test_a_refused_position_is_not_counted(self):
        pos = epd.Position("f", "T", "T.1", {"a": 10})
        rows = knowledge.tally([pos], [{"koma": (None, "info string error: x"), "fsf": ("a", None)}], ["koma", "fsf"])
        self.assertEqual(rows, {})

    def test_the_match_is_tools_match_at_the_same_nodes(self):
        args = knowledge.parser().parse_args(["--koma", "/k", "--fsf", "/f", "--nodes", "50000", "--games", "200"])
        cmd = knowledge.match_command(args)
        self.assertEqual(cmd[1:3], ["-m", "tools.match"])
        self.assertEqual(
            cmd[3:],
            [
                "--variant",
                "kokesu",
                "--a",
                "/k",
                "--b",
                "fsf:/f",
                "--nodes",
                "50000",
                "--games",
                "200",
                "--sprt",
                "off",
                "--seed",
                "1",
                "--option",
                "KokesuPromotion=free",
            ],
        )
        args = knowledge.parser().parse_args(
            ["--koma", "/k", "--base", "/o", "--games", "4", "--cpus", "2", "--option", "KokesuEval=nnue"]
        )
        cmd = knowledge.match_command(args)
        self.assertEqual(cmd[2], "tools.ray_match")
        self.assertIn("/o", cmd)
        self.assertNotIn("fsf", " ".join(cmd))
        self.assertEqual(cmd[-6:], ["--option-a", "KokesuEval=nnue", "--option-b", "KokesuEval=nnue", "--cpus", "2"])

    def test_bad_options_get_one_message(self):
        for argv, message in [
            ([], "nothing to do"),
            (["--games", "2"], "needs an opponent"),
            (["--nodes", "0", "x.epd"], "--nodes must be positive"),
            (["--option", "KokesuEval", "x.epd"], "NAME=VALUE"),
            (["--koma", "/no/such/koma", "x.epd"], "not an executable"),
        ]:
            with self.assertRaises(SystemExit) as e:
                knowledge.check(knowledge.parser().parse_args(argv))
            self.assertIn(message, str(e.exception))


@unittest.skipUnless(os.access(KOMA, os.X_OK), "no koma binary (KOMA)")
class EndToEnd(unittest.TestCase):
    def test_koma_scores_the_tiny_suite(self):
        with tempfile.TemporaryDirectory() as d:
            suite = write_suite(d, SUITE + '8/8/8/8/8/8/8/8 w - - id "Nothing.001"; c8 "10"; c9 "a1a2";\n')
            out = os.path.join(d, "answers.jsonl")
            stdout = io.StringIO()
            with contextlib.redirect_stdout(stdout):
                status = knowledge.main(
                    ["--koma", KOMA, "--base", KOMA, "--nodes", "3000", "--jobs", "2", "--out", out, suite]
                )
            text = stdout.getvalue()
            with open(out) as f:
                answers = [json.loads(line) for line in f]
        self.assertEqual(status, 0)
        self.assertIn(
            "suite: 4 positions (1 left out: best move needs castling or en passant, "
            "1 left out: no move scores a point)",
            text,
        )
        # A board without kings is refused by koma: its position is not counted.
        self.assertIn("suite: 1 positions refused by an engine, not counted", text)
        self.assertEqual(len(answers), 8)
        moves = {(a["id"], a["engine"]): a["move"] for a in answers}
        self.assertEqual(moves[("Mate.001", "koma")], "a1a8")
        # f3d4 and d1d4 take the hanging queen; Qe2+ (d1e2) wins it a move later, as every
        # answer to the check leaves it (or the piece that blocks) en prise (Stockfish 15.1
        # at depth 18: d1e2 +892 cp, f3d4 +941 cp).
        self.assertIn(moves[("Capture.001", "base")], ("f3d4", "d1d4", "d1e2"))
        # The same build at the same nodes answers the same moves.
        self.assertEqual(
            {i: m for (i, e), m in moves.items() if e == "koma"}, {i: m for (i, e), m in moves.items() if e == "base"}
        )
        last = text.strip().splitlines()[-1].split()
        self.assertEqual(last[:3], ["all", "3", "30"])
        self.assertEqual(last[-1], "1.000")


if __name__ == "__main__":
    unittest.main()
