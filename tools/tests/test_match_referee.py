"""Unit tests of tools/match.py's referee and notation: python3 -m unittest discover -s tools/tests -t .

The referee is koma itself (`moves`, and `d`'s `result` line): the games against it need
a koma binary, $KOMA (tests/tools.rs sets it), else target/release/koma; they are skipped
without one. Each takes a few milliseconds."""

import os
import sys
import tempfile
import types
import unittest

from tools import match
from tools.lib import engine, fsf
from tools.lib.paths import koma_under_test

KOMA = koma_under_test()


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
    return types.SimpleNamespace(
        variant=variant, max_plies=max_plies, rule_options=rules, clock=clock, time_used={"A": [0.0, 0], "B": [0.0, 0]}
    )


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
        self.assertEqual(fsf.to_fsf("4g4e", 8, 8), "e2e4")
        self.assertEqual(fsf.to_fsf("P*3d", 6, 6), "P@d3")
        self.assertEqual(fsf.to_fsf("1b1a+", 6, 6), "f5f6+")
        self.assertEqual(fsf.to_fsf("A*3e", 3, 5), "A@a1")
        for tok, files, ranks in (
            ("8b8aq", 8, 8),
            ("6f1a+", 6, 6),
            ("G*2c", 6, 6),
            ("3e2d", 3, 5),
            ("C*1a", 3, 5),
            ("2b2a+", 3, 5),
        ):
            self.assertEqual(fsf.from_fsf(fsf.to_fsf(tok, files, ranks), files, ranks), tok)

    def test_sfen_to_fen(self):
        self.assertEqual(fsf.sfen_to_fen("3/3/3/3/3 b ABCDEFabcdef 1"), "3/3/3/3/3[ABCDEFabcdef] w - - 0 1")
        self.assertEqual(
            fsf.sfen_to_fen("l1k1r1/pppppp/6/6/PPPPPP/LGKSN1 w 2Pp 13"),
            "l1k1r1/pppppp/6/6/PPPPPP/LGKSN1[PPp] b - - 0 1",
        )


class ResultLineTest(unittest.TestCase):
    """`d`'s lines as koma prints them (src/game/state.rs): the winner by the players' names."""

    def lines(self, hands, result=None):
        return (
            ["side x (b)", hands, "ply 9", "phase over" if result else "phase play"]
            + (["result " + result] if result else [])
            + ["sfen 3/3/3/3/3 b - 9"]
        )

    def test_shogi_names(self):
        hands = "hands sente -  gote AF"
        self.assertIsNone(engine.parse_result(self.lines(hands)))
        self.assertEqual(engine.parse_result(self.lines(hands, "gote wins: sum of seven")), ("w", "sum of seven"))
        self.assertEqual(engine.parse_result(self.lines(hands, "sente wins: checkmate")), ("b", "checkmate"))
        self.assertEqual(engine.parse_result(self.lines(hands, "draw: repetition")), (None, "repetition"))

    def test_crab_names(self):
        hands = "hands black -  red -"
        self.assertEqual(engine.parse_result(self.lines(hands, "red wins: three children")), ("w", "three children"))
        self.assertEqual(engine.parse_result(self.lines(hands, "black wins: no legal move")), ("b", "no legal move"))

    def test_an_unknown_name_is_an_error(self):
        with self.assertRaises(engine.EngineError):
            engine.parse_result(self.lines("hands sente -  gote -", "white wins: checkmate"))


class FakeReferee:
    """Any move legal; the game ends by `result` once `end` plies are played."""

    def __init__(self, end=1000, result=(None, "repetition")):
        self.end, self.result = end, result

    def state(self, moves):
        sfen = "p%d %s - %d" % (len(moves), "bw"[len(moves) % 2], len(moves) + 1)
        return ["m"], sfen, (self.result if len(moves) >= self.end else None)


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
        winner, why, moves = match.play_game([a, b], FakeReferee(), [], args_for("shogi66", clock=(1000, 100)))
        self.assertEqual((winner, why, len(moves)), (0, "B lost on time", 7))
        # Each side is sent both clocks (first player's, second's) and the increment.
        self.assertEqual(b.sent[:3], [(1090, 1000, 100), (1180, 700, 100), (1270, 400, 100)])
        self.assertEqual(a.sent[0], (1000, 1000, 100))

    def test_the_engines_reported_time_is_the_last_info_lines(self):
        lines = [
            "info depth 1 time 3 nodes 20 pv 7g7f",
            "info depth 2 seldepth 4 time 15 nodes 90 pv 7g7f",
            "info string time is short",
            "bestmove 7g7f",
        ]
        self.assertEqual(engine.reported_ms(lines), 15)
        self.assertIsNone(engine.reported_ms(["bestmove 7g7f"]))

    def test_without_a_clock_the_players_are_sent_none(self):
        a, b = Thinker("A", 10_000, self.now), Thinker("B", 10_000, self.now)
        winner, why, moves = match.play_game([a, b], FakeReferee(end=8), [], args_for("shogi66"))
        self.assertEqual((winner, why, len(moves)), (None, "repetition", 8))
        self.assertEqual(set(a.sent + b.sent), {None})


class RefereeDecidesTest(unittest.TestCase):
    def test_the_referees_result_ends_the_game(self):
        players = [Script("A", ["m"] * 20), Script("B", ["m"] * 20)]
        self.assertEqual(
            match.play_game(players, FakeReferee(12, ("w", "perpetual check")), [], args_for("shogi66")),
            (1, "perpetual check", ["m"] * 12),
        )

    def test_the_ply_cap_is_the_match_runners(self):
        players = [Script("A", ["m"] * 20), Script("B", ["m"] * 20)]
        self.assertEqual(
            match.play_game(players, FakeReferee(), [], args_for("shogi66", max_plies=5))[:2],
            (None, "ply limit (adjudicated)"),
        )


@unittest.skipUnless(os.access(KOMA, os.X_OK), "no koma binary (set KOMA or build target/release/koma)")
class KokesuRefereeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ref = {}

    def referee(self, **rules):
        key = tuple(sorted(rules.items()))
        if key not in self.ref:
            self.ref[key] = engine.Referee(KOMA, "kokesu", list(rules.items()))
        return self.ref[key]

    @classmethod
    def tearDownClass(cls):
        for r in cls.ref.values():
            r.close()

    def test_fools_mate(self):
        line = "f2f3 e7e5 g2g4 d8h4"
        self.assertEqual(match.play_game(scripted(line), self.referee(), [], args_for("kokesu"))[:2], (1, "checkmate"))

    def test_opening_then_players(self):
        opening = [match.chess_to_koma(m) for m in "f2f3 e7e5".split()]
        players = [Script("A", [match.chess_to_koma("g2g4")]), Script("B", [match.chess_to_koma("d8h4")])]
        winner, why, moves = match.play_game(players, self.referee(), opening, args_for("kokesu"))
        self.assertEqual((winner, why, len(moves)), (1, "checkmate", 4))

    def fake(self, on_go):
        """A KomaPlayer on a fake USI engine whose `go` runs the Python line `on_go`."""
        src = (
            "import sys, time\n"
            "for line in sys.stdin:\n"
            "    c = line.split()\n"
            "    if not c: continue\n"
            "    if c[0] == 'usi': print('usiok', flush=True)\n"
            "    elif c[0] == 'isready': print('readyok', flush=True)\n"
            "    elif c[0] == 'go': %s\n" % on_go
        )
        fd, path = tempfile.mkstemp(suffix=".py")
        with os.fdopen(fd, "w") as f:
            f.write("#!%s\n%s" % (sys.executable, src))
        os.chmod(path, 0o755)
        self.addCleanup(os.unlink, path)
        return match.KomaPlayer(path, "kokesu", [], "A", "nodes 1", 1.0)

    def test_crash_hang_and_nonsense_lose(self):
        for on_go, why in (
            ("sys.exit(3)", "A failed: A closed its output"),
            ("time.sleep(5)", "A failed: A did not answer in time"),
            ("print('bestmove 9z9z', flush=True)", "illegal move 9z9z by A"),
            ("print('bestmove', flush=True)", "A gave no move"),
        ):
            a = self.fake(on_go)
            players = [a, Script("B", [])]
            winner, reason, _ = match.play_game(players, self.referee(), [], args_for("kokesu"))
            a.close()
            self.assertEqual((winner, reason), (1, why))

    def test_openings_distinct_and_seeded(self):
        def openings(seed, n=60):
            a = types.SimpleNamespace(
                variant="kokesu", random_plies=None, used=set(), book=list(match.OPENINGS), book_next=0
            )
            rng = match.random.Random(seed)
            return [tuple(match.make_opening(self.referee(), rng, a)) for _ in range(n)]

        first = openings(5)
        self.assertEqual(len(set(first)), 60)  # more pairs than book lines
        self.assertEqual(first, openings(5))

    # Sam Loyd's stalemate in ten moves: black to move after 10. Qe6 has no move.
    LOYD = "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6"

    def test_stalemate_draws(self):
        self.assertEqual(
            match.play_game(scripted(self.LOYD), self.referee(), [], args_for("kokesu"))[:2], (None, "stalemate")
        )

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
        self.assertEqual(
            match.play_game(scripted(line), self.referee(), [], args_for("kokesu", max_plies=3))[:2],
            (None, "ply limit (adjudicated)"),
        )


class RandomPlayer(Script):
    """A player that picks any legal move (seeded)."""

    def __init__(self, name, rng):
        self.name, self.rng = name, rng

    def best(self, moves, legal, clock=None):
        return self.rng.choice(legal)


def hand_sums_to_seven(sfen, side):
    """Number Shogi, for the test's own check: whether `side`'s (b, w) hand in `sfen`
    holds pieces worth exactly 7 (A..F are 1..6)."""
    values, n = [], ""
    for ch in sfen.split()[2]:
        if ch.isdigit():
            n += ch
        elif ch != "-":
            if ch.isupper() == (side == "b"):
                values += [ord(ch.upper()) - ord("A") + 1] * int(n or 1)
            n = ""
    sums = {0}
    for v in values:
        sums |= {x + v for x in sums}
    return 7 in sums


@unittest.skipUnless(os.access(KOMA, os.X_OK), "no koma binary (set KOMA or build target/release/koma)")
class EveryGameRefereeTest(unittest.TestCase):
    """Random games of every game to their end, judged by koma's `d`: the winner read
    from the `result` line agrees with the final position."""

    def test_random_games_end_by_the_games_rules(self):
        seen = set()
        for variant in sorted(match.VARIANTS):
            referee = engine.Referee(KOMA, variant)
            try:
                rng = match.random.Random(1)
                for _ in range(2):
                    players = [RandomPlayer("A", rng), RandomPlayer("B", rng)]
                    winner, why, moves = match.play_game(players, referee, [], args_for(variant, max_plies=1000))
                    legal, sfen, result = referee.state(moves)
                    self.assertEqual(result, (None if winner is None else "bw"[winner], why), (variant, moves))
                    loser_to_move = sfen.split()[1] == "bw"[1 - winner] if winner is not None else None
                    if why in ("checkmate", "no legal move"):
                        self.assertEqual(legal, [], (variant, moves))
                        self.assertTrue(loser_to_move, (variant, why, sfen))
                    if why == "sum of seven":
                        self.assertTrue(hand_sums_to_seven(sfen, "bw"[winner]), sfen)
                    seen.add((variant, why))
            finally:
                referee.close()
        # Seed 1 reaches these ends (among others): each side letter is read both ways.
        for end in (
            ("numbershogi", "sum of seven"),
            ("shogi66", "checkmate"),
            ("kokesu", "the move-count rule"),
            ("kanishogi", "capture of the parent crab"),
        ):
            self.assertIn(end, seen)


if __name__ == "__main__":
    unittest.main()


class BindingRefereeTest(unittest.TestCase):
    """engine.BindingReferee (the Python binding, in this process) answers as the koma
    process does, along a game, after a line that leaves it, and on a bad move."""

    def test_same_answers_as_the_process(self):
        try:
            import koma  # noqa: F401
        except ImportError:
            self.skipTest("the binding is not installed (the README's test command installs it in .venv)")
        if not os.path.exists(KOMA):
            self.skipTest("no koma binary")
        process = engine.Referee(KOMA, "kokesu", [("KokesuPromotion", "free")])
        try:
            binding = engine.new_referee(KOMA, "kokesu", [("KokesuPromotion", "free")])
            self.assertIsInstance(binding, engine.BindingReferee)
            fools = [match.chess_to_koma(m) for m in "f2f3 e7e5 g2g4 d8h4".split()]
            other = [match.chess_to_koma(m) for m in "e2e4 e7e5".split()]
            for moves in [fools[:i] for i in range(5)] + [other, fools[:1]]:
                self.assertEqual(binding.state(moves), process.state(moves), moves)
            self.assertEqual(binding.state(fools)[2], ("w", "checkmate"))
            with self.assertRaises(engine.EngineError):
                binding.legal(["e2e5"])
            # An option the binding's Board does not take: the process judges.
            fallback = engine.new_referee(KOMA, "kokesu", [("KokesuEval", "linear")])
            fallback.close()
            self.assertIsInstance(fallback, engine.Referee)
        finally:
            process.close()
