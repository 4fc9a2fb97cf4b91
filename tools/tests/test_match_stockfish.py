"""Unit tests of Stockfish as a player of tools/match.py (`--a`/`--b stockfish:PATH`,
tools/lib/stockfish.py): python3 -m unittest discover -s tools/tests -t .

Stockfish is not installed in CI: the games are played against a small fake UCI engine
that logs what it is sent and answers as told (the first of its root moves, a move koma
does not allow, or `(none)`), with the real koma ($KOMA, else target/release/koma) as the
other player and the referee. Each match is a few games of a few dozen plies."""

import os
import subprocess
import sys
import tempfile
import unittest

from tools.lib.engine import Referee
from tools.lib.fsf import from_fsf, to_fsf
from tools.lib.paths import ROOT
from tools.lib.stockfish import START_FEN, check_rules
from tools.tests.support import KOMA

# The fake's answer to `go`: the first root move it is given, or a fixed text.
FAKE = """#!%(python)s
import sys
me, answer = %(me)r, %(answer)r
with open(me + ".log", "a") as log:
    for line in sys.stdin:
        log.write(line)
        log.flush()
        w = line.split()
        if not w:
            continue
        if w[0] == "uci":
            print("id name fake\\nuciok", flush=True)
        elif w[0] == "isready":
            print("readyok", flush=True)
        elif w[0] == "go":
            roots = w[w.index("searchmoves") + 1:]
            print("info depth 1 score cp 0 nodes 1\\nbestmove %%s" %% (answer or roots[0]), flush=True)
        elif w[0] == "quit":
            break
"""


@unittest.skipUnless(os.path.exists(KOMA), "no koma binary at %s" % KOMA)
class StockfishPlayerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="test_match_stockfish_")
        self.addCleanup(self.dir.cleanup)

    def fake(self, answer=None):
        path = os.path.join(self.dir.name, "stockfish")
        with open(path, "w") as f:
            f.write(FAKE % dict(python=sys.executable, me=path, answer=answer))
        os.chmod(path, 0o755)
        return path

    def match(self, a, b, *extra, rules=("--option", "KokesuPromotion=free")):
        argv = [sys.executable, "-m", "tools.match", "--variant", "kokesu", "--a", a, "--b", b, "--nodes", "200"]
        argv += ["--games", "2", "--sprt", "off", "--max-plies", "30", *rules, *extra]
        return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)

    def sent(self, path):
        with open(path + ".log") as f:
            return [line.split() for line in f]

    def test_it_plays_from_a_start_without_castling_and_only_komas_root_moves(self):
        sf = self.fake()
        run = self.match(KOMA, "stockfish:" + sf)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("A %s vs B stockfish" % os.path.basename(KOMA), run.stdout)
        self.assertIn("2 games (1 pairs, seed 1)", run.stdout)
        self.assertNotIn("illegal", run.stdout)
        lines = self.sent(sf)
        positions = [w for w in lines if w[:1] == ["position"]]
        gos = [w for w in lines if w[:1] == ["go"]]
        self.assertGreater(len(gos), 10)
        self.assertEqual(len(positions), len(gos))
        for w in positions:
            self.assertEqual(" ".join(w[:8]), "position fen " + START_FEN)
        for w in gos:
            self.assertEqual(w[1:4], ["nodes", "200", "searchmoves"])
        # Every search's root moves are exactly koma's legal moves of its position.
        referee = Referee(KOMA, "kokesu", [("KokesuPromotion", "free")])
        self.addCleanup(referee.close)
        for p, w in zip(positions, gos):
            played = [from_fsf(m, 8, 8) for m in p[9:]]
            self.assertEqual(sorted(w[4:]), sorted(to_fsf(m, 8, 8) for m in referee.legal(played)))
        # Each game starts with `ucinewgame`, no search does (the hash is kept in a game).
        self.assertEqual(sum(w == ["ucinewgame"] for w in lines), 2)

    def test_stockfish_plays_as_a_too(self):
        sf = self.fake()
        run = self.match("stockfish:" + sf, KOMA)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("A stockfish vs B %s" % os.path.basename(KOMA), run.stdout)
        self.assertNotIn("illegal", run.stdout)

    def test_a_move_koma_does_not_allow_loses_and_is_reported(self):
        for answer, reported in (("e1g1", "illegal move 4h2h by B"), ("(none)", "illegal move (none) by B")):
            with self.subTest(answer=answer):
                sf = self.fake(answer)
                run = self.match(KOMA, "stockfish:" + sf)
                self.assertEqual(run.returncode, 0, run.stderr)
                self.assertIn("A +2 =0 -0", run.stdout)
                self.assertIn("Ends: %s 2." % reported, run.stdout)
                self.assertIn("  moves ", run.stdout)  # the game's moves, to replay it

    def test_rules_stockfish_cannot_play_are_refused(self):
        sf = self.fake()
        for rules, why in (
            ((), "free promotion only"),
            (("--option", "KokesuPromotion=captured"), "free promotion only"),
            (("--option", "KokesuPromotion=free", "--option", "KokesuStalemate=loss"), "stalemate is a draw"),
        ):
            with self.subTest(rules=rules):
                run = self.match(KOMA, "stockfish:" + sf, rules=rules)
                self.assertNotEqual(run.returncode, 0)
                self.assertIn(why, run.stderr)
        run = self.match("stockfish:" + sf, "stockfish:" + sf)
        self.assertIn("one engine must be koma", run.stderr)
        self.assertFalse(os.path.exists(sf + ".log"))  # refused before any engine started

    def test_only_kokesu(self):
        self.assertIn("only kokesu", check_rules("shogi66", {}))
        self.assertIsNone(check_rules("kokesu", {"KokesuPromotion": "free"}))


if __name__ == "__main__":
    unittest.main()
