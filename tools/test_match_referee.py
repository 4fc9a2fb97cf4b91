"""Unit tests of tools/match.py's referee and notation: python3 -m unittest discover -s tools -t .

The games against koma's own referee need a koma binary: $KOMA, else target/release/koma;
they are skipped without one. Each takes a few milliseconds."""
import os
import sys
import tempfile
import types
import unittest

from tools import match, match_fsf, usi_engine

HERE = os.path.dirname(os.path.abspath(__file__))
KOMA = os.environ.get("KOMA") or os.path.join(HERE, "..", "target", "release", "koma")


class Script:
    """A player that plays a fixed list of moves."""

    def __init__(self, name, moves):
        self.name, self.moves = name, moves

    def new_game(self, opening):
        self.i = 0

    def best(self, moves, legal, clock=None):
        self.i += 1
        return self.moves[self.i - 1]

    def kill(self):
        pass


def args_for(variant, max_plies=400, clock=None, **rules):
    return types.SimpleNamespace(variant=variant, max_plies=max_plies, rule_options=rules, clock=clock,
                                 time_used={"A": [0.0, 0], "B": [0.0, 0]})


def scripted(line):
    """Two players alternating the moves of `line` (chess notation for kokesu)."""
    ms = [match.chess_to_koma(m) for m in line.split()]
    return [Script("A", ms[0::2] + ["1a1a"]), Script("B", ms[1::2] + ["1a1a"])]


class NotationTest(unittest.TestCase):
    def test_chess_squares(self):
        self.assertEqual(match.chess_to_koma("e2e4"), "4g4e")
        self.assertEqual(match.chess_to_koma("a7a8q"), "8b8aq")
        self.assertEqual(match.koma_to_chess("8b8aq"), "a7a8q")

    def test_fsf_squares(self):
        self.assertEqual(match_fsf.to_fsf("4g4e", 8, 8), "e2e4")
        self.assertEqual(match_fsf.to_fsf("P*3d", 6, 6), "P@d3")
        self.assertEqual(match_fsf.to_fsf("1b1a+", 6, 6), "f5f6+")
        self.assertEqual(match_fsf.to_fsf("A*3e", 3, 5), "A@a1")
        for tok, files, ranks in (("8b8aq", 8, 8), ("6f1a+", 6, 6), ("G*2c", 6, 6), ("3e2d", 3, 5),
                                  ("C*1a", 3, 5), ("2b2a+", 3, 5)):
            self.assertEqual(match_fsf.from_fsf(match_fsf.to_fsf(tok, files, ranks), files, ranks), tok)

    def test_sfen_to_fen(self):
        self.assertEqual(match_fsf.sfen_to_fen("3/3/3/3/3 b ABCDEFabcdef 1"),
                         "3/3/3/3/3[ABCDEFabcdef] w - - 0 1")
        self.assertEqual(match_fsf.sfen_to_fen("l1k1r1/pppppp/6/6/PPPPPP/LGKSN1 w 2Pp 13"),
                         "l1k1r1/pppppp/6/6/PPPPPP/LGKSN1[PPp] b - - 0 1")

    def test_quiet_move(self):
        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1"
        self.assertTrue(match.quiet_move(start, match.chess_to_koma("g1f3")))
        self.assertFalse(match.quiet_move(start, match.chess_to_koma("e2e4")))
        self.assertFalse(match.quiet_move("4k3/8/8/8/8/8/3q4/3QK3 b - 1", match.chess_to_koma("d1d2")))

    def test_sum_of_seven(self):
        self.assertTrue(match.sum_of_seven("3/3/3/3/3 w AF 13", 0))
        self.assertFalse(match.sum_of_seven("3/3/3/3/3 w AF 13", 1))
        self.assertFalse(match.sum_of_seven("3/3/3/3/3 b B2Ec 13", 1))
        self.assertFalse(match.sum_of_seven("3/3/3/3/3 b 2Bc 13", 0))
        self.assertTrue(match.sum_of_seven("3/3/3/3/3 b 2BC 13", 0))

    def test_board_cells(self):
        cells = match.board_cells("A3b/D3c/K3k/C3+d/B3a b - 1")
        self.assertEqual(cells[(5, "a")], "A")
        self.assertEqual(cells[(1, "a")], "b")
        self.assertEqual(cells[(1, "d")], "+d")
        self.assertEqual(len(cells), 10)


class KaniShogiOutcomeTest(unittest.TestCase):
    def test_rules_in_order(self):
        o = match.kanishogi_outcome
        self.assertIsNone(o("A3b/D3c/K3k/C3d/B3a b - 1"))
        self.assertEqual(o("A3b/D3c/5/C3d/B3a b - 1"), -1)          # my parent gone
        self.assertEqual(o("A3b/D3c/K4/C3d/B3a b - 1"), 1)          # theirs gone
        self.assertEqual(o("5/4c/K3k/4d/B3a b - 1"), -1)            # I lost A C D
        # two each: I lost A and B (3), they lost c and d (7): I win
        self.assertEqual(o("5/D3a/K3k/C3b/5 b - 1"), 1)
        self.assertEqual(o("5/D3a/K3k/C3b/5 w - 1"), -1)
        # equal sums: I lost A and D (5), they lost b and c (5): the larger pip, mine, loses
        self.assertEqual(o("5/4a/K3k/+C3d/B4 b - 1"), -1)
        # the same pips lost: play on
        self.assertIsNone(o("5/D3c/K3k/C3d/5 b - 1"))


class FakeReferee:
    """Positions cycling through `cycle` (sente to move at even plies), `checks` the set
    of those in which the side to move is in check."""

    def __init__(self, cycle, checks):
        self.cycle, self.checks = cycle, checks

    def legal(self, moves):
        return ["m"]

    def sfen(self, moves):
        return "%s %s - %d" % (self.cycle[len(moves) % len(self.cycle)], "bw"[len(moves) % 2], len(moves) + 1)

    def state(self, moves):
        return self.legal(moves), self.sfen(moves)

    def in_check(self, sfen):
        return sfen.split()[0] in self.checks


class Thinker(Script):
    """A player that thinks `ms` a move on a clock the test keeps, and records the clocks
    it was sent."""

    def __init__(self, name, ms, clock):
        super().__init__(name, ["m"] * 100)
        self.ms, self.clock, self.sent = ms, clock, []

    def best(self, moves, legal, clock=None):
        self.sent.append(clock)
        self.clock[0] += self.ms
        return super().best(moves, legal)


class ClockGameTest(unittest.TestCase):
    def setUp(self):
        self.now = [0.0]
        self.saved, match.now_ms = match.now_ms, lambda: self.now[0]

    def tearDown(self):
        match.now_ms = self.saved

    def test_a_side_whose_clock_runs_out_loses_on_time(self):
        # 1 s + 0.1 s a move: B spends 400 ms a move, so after its third move it has
        # 1000 - 3 * 300 = 100 ms left and its fourth move takes it below zero.
        a, b = Thinker("A", 10, self.now), Thinker("B", 400, self.now)
        cycle = ["p%d" % i for i in range(50)]
        winner, why, moves = match.play_game([a, b], FakeReferee(cycle, set()), [], args_for("shogi66", clock=(1000, 100)))
        self.assertEqual((winner, why, len(moves)), (0, "B lost on time", 7))
        # Each side is sent both clocks (first player's, second's) and the increment.
        self.assertEqual(b.sent[:3], [(1090, 1000, 100), (1180, 700, 100), (1270, 400, 100)])
        self.assertEqual(a.sent[0], (1000, 1000, 100))

    def test_the_engines_reported_time_is_the_last_info_lines(self):
        lines = ["info depth 1 time 3 nodes 20 pv 7g7f", "info depth 2 seldepth 4 time 15 nodes 90 pv 7g7f",
                 "info string time is short", "bestmove 7g7f"]
        self.assertEqual(usi_engine.reported_ms(lines), 15)
        self.assertIsNone(usi_engine.reported_ms(["bestmove 7g7f"]))

    def test_without_a_clock_the_players_are_sent_none(self):
        a, b = Thinker("A", 10_000, self.now), Thinker("B", 10_000, self.now)
        winner, why, moves = match.play_game([a, b], FakeReferee(["p0", "p1", "p2", "p3"], set()), [], args_for("shogi66"))
        self.assertEqual(why, "repetition")
        self.assertEqual(set(a.sent + b.sent), {None})


class PerpetualCheckTest(unittest.TestCase):
    def play(self, checks):
        players = [Script("A", ["m"] * 20), Script("B", ["m"] * 20)]
        return match.play_game(players, FakeReferee(["p0", "p1", "p2", "p3"], checks), [], args_for("shogi66"))

    def test_sente_checks_throughout(self):
        winner, why, moves = self.play({"p1", "p3"})
        self.assertEqual((winner, why, len(moves)), (1, "perpetual check", 12))

    def test_gote_checks_throughout(self):
        winner, why, _ = self.play({"p0", "p2"})
        self.assertEqual((winner, why), (0, "perpetual check"))

    def test_not_every_move_a_check(self):
        winner, why, _ = self.play({"p1"})
        self.assertEqual((winner, why), (None, "repetition"))


@unittest.skipUnless(os.access(KOMA, os.X_OK), "no koma binary (set KOMA or build target/release/koma)")
class KokesuRefereeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ref = {}

    def referee(self, **rules):
        key = tuple(sorted(rules.items()))
        if key not in self.ref:
            self.ref[key] = match.Referee(KOMA, "kokesu", list(rules.items()))
        return self.ref[key]

    @classmethod
    def tearDownClass(cls):
        for r in cls.ref.values():
            r.close()

    def test_in_check(self):
        r = self.referee()
        self.assertTrue(r.in_check("7k/6Q1/6K1/8/8/8/8/8 w - 1"))
        self.assertFalse(r.in_check("7k/5Q2/6K1/8/8/8/8/8 w - 1"))

    def test_in_check_66_shogi(self):
        r = match.Referee(KOMA, "shogi66", [])
        try:
            self.assertTrue(r.in_check("5k/4G1/6/6/6/K5 w - 13"))
            self.assertFalse(r.in_check("5k/6/4G1/6/6/K5 w - 13"))
        finally:
            r.close()

    def test_fools_mate(self):
        line = "f2f3 e7e5 g2g4 d8h4"
        self.assertEqual(match.play_game(scripted(line), self.referee(), [], args_for("kokesu"))[:2],
                         (1, "checkmate"))

    def test_opening_then_players(self):
        opening = [match.chess_to_koma(m) for m in "f2f3 e7e5".split()]
        players = [Script("A", [match.chess_to_koma("g2g4")]), Script("B", [match.chess_to_koma("d8h4")])]
        winner, why, moves = match.play_game(players, self.referee(), opening, args_for("kokesu"))
        self.assertEqual((winner, why, len(moves)), (1, "checkmate", 4))

    def fake(self, on_go):
        """A KomaPlayer on a fake USI engine whose `go` runs the Python line `on_go`."""
        src = ("import sys, time\n"
               "for line in sys.stdin:\n"
               "    c = line.split()\n"
               "    if not c: continue\n"
               "    if c[0] == 'usi': print('usiok', flush=True)\n"
               "    elif c[0] == 'isready': print('readyok', flush=True)\n"
               "    elif c[0] == 'go': %s\n" % on_go)
        fd, path = tempfile.mkstemp(suffix=".py")
        with os.fdopen(fd, "w") as f:
            f.write("#!%s\n%s" % (sys.executable, src))
        os.chmod(path, 0o755)
        self.addCleanup(os.unlink, path)
        return match.KomaPlayer(path, "kokesu", [], "A", "nodes 1", 1.0)

    def test_crash_hang_and_nonsense_lose(self):
        for on_go, why in (("sys.exit(3)", "A failed: A closed its output"),
                           ("time.sleep(5)", "A failed: A did not answer in time"),
                           ("print('bestmove 9z9z', flush=True)", "illegal move 9z9z by A"),
                           ("print('bestmove', flush=True)", "A gave no move")):
            a = self.fake(on_go)
            players = [a, Script("B", [])]
            winner, reason, _ = match.play_game(players, self.referee(), [], args_for("kokesu"))
            a.close()
            self.assertEqual((winner, reason), (1, why))

    def test_openings_distinct_and_seeded(self):
        def openings(seed, n=60):
            a = types.SimpleNamespace(variant="kokesu", random_plies=None, used=set(),
                                      book=list(match.OPENINGS), book_next=0)
            rng = match.random.Random(seed)
            return [tuple(match.make_opening(self.referee(), rng, a)) for _ in range(n)]
        first = openings(5)
        self.assertEqual(len(set(first)), 60)  # more pairs than book lines
        self.assertEqual(first, openings(5))

    # Sam Loyd's stalemate in ten moves: black to move after 10. Qe6 has no move.
    LOYD = "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6"

    def test_stalemate_draws(self):
        self.assertEqual(match.play_game(scripted(self.LOYD), self.referee(), [], args_for("kokesu"))[:2],
                         (None, "stalemate"))

    def test_stalemate_loses_with_the_switch(self):
        r = self.referee(KokesuStalemate="loss")
        a = args_for("kokesu", KokesuStalemate="loss")
        self.assertEqual(match.play_game(scripted(self.LOYD), r, [], a)[:2], (0, "stalemate"))

    def test_threefold_repetition(self):
        line = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"
        winner, why, moves = match.play_game(scripted(line), self.referee(), [], args_for("kokesu"))
        self.assertEqual((winner, why, len(moves)), (None, "repetition", 8))

    def test_illegal_move_loses(self):
        winner, why, _ = match.play_game(scripted("e2e4 e7e4"), self.referee(), [], args_for("kokesu"))
        self.assertEqual((winner, why), (0, "illegal move 4b4e by B"))

    def test_ply_limit(self):
        line = "g1f3 g8f6 f3g1 f6g8"
        self.assertEqual(match.play_game(scripted(line), self.referee(), [], args_for("kokesu", max_plies=3))[:2],
                         (None, "ply limit (adjudicated)"))


if __name__ == "__main__":
    unittest.main()
