"""Bad input raises one clear Python exception and never takes the interpreter down."""

import subprocess
import sys
import textwrap

import koma
import pytest


def test_unknown_variant_and_switches():
    with pytest.raises(ValueError, match="no variant 'chess'.*kokesu"):
        koma.Board("chess")
    with pytest.raises(ValueError, match="KokesuPromotion"):
        koma.Board("kokesu", KokesuPromotion="sometimes")
    with pytest.raises(ValueError, match="not a rules switch of kokesu"):
        koma.Board("kokesu", Nonsense="1")
    with pytest.raises(ValueError, match="an evaluation or engine switch: give it to koma.Engine"):
        koma.Board("kokesu", KokesuEval="nnue")


def test_a_switch_for_a_game_without_rules_switches_says_so():
    # Issue 57's errors row: not "(its switches: )".
    with pytest.raises(ValueError, match=r"^option KokesuPromotion: shogi66 has no rules switches$"):
        koma.Board("shogi66", KokesuPromotion="free")


@pytest.mark.parametrize("sfen", ["", "x", "k5/6/6/6/6/5K q - 1", "k5/6/6/6/6/5K b - 0", "\u00e9" * 200])
def test_bad_sfen_raises_invalid_sfen(sfen):
    with pytest.raises(koma.InvalidSfen):
        koma.Board("shogi66", sfen=sfen)
    assert issubclass(koma.InvalidSfen, ValueError)


@pytest.mark.parametrize("move", ["", "7g7f", "e2e4", "P*9z", "1a1a", "\x00", "5e5d" * 50])
def test_bad_moves_raise_illegal_move_and_change_nothing(move):
    board = koma.Board("shogi66", sfen="lkgsnr/pppppp/6/6/PPPPPP/LNSGKR b - 13")
    before = board.sfen()
    assert not board.is_legal(move)
    with pytest.raises(koma.IllegalMove):
        board.push(move)
    assert board.sfen() == before and board.move_stack == []
    assert issubclass(koma.IllegalMove, ValueError)


def test_wrong_types_and_limits():
    board = koma.Board("kokesu")
    with pytest.raises(TypeError):
        board.push(7)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="depth 65"):
        board.perft(65)
    with pytest.raises(OverflowError):
        board.perft(-1)


def test_engine_rejects_bad_options_and_requests():
    with pytest.raises(ValueError, match="no variant"):
        koma.Engine("go")
    with pytest.raises(ValueError, match="unknown option 'Nonsense'"):
        koma.Engine("kokesu", Nonsense=1)
    with pytest.raises(ValueError, match="Threads"):
        koma.Engine("kokesu", threads=0)
    engine = koma.Engine("kokesu")
    with pytest.raises(ValueError, match="KokesuEval"):
        engine.setoption("KokesuEval", "sometimes")
    with pytest.raises(ValueError, match="needs a limit"):
        engine.analyse(koma.Board("kokesu"))
    with pytest.raises(ValueError, match="the board is shogi66"):
        engine.analyse(koma.Board("shogi66"), depth=1)
    with pytest.raises(ValueError, match="MultiPV"):
        engine.analyse(koma.Board("kokesu"), depth=1, multipv=0)
    over = koma.Board("kokesu", sfen="k7/1Q6/1K6/8/8/8/8/8 w - 1")
    assert over.is_game_over()
    with pytest.raises(ValueError, match="the game is over"):
        engine.analyse(over, depth=1)
    # The engine still works after each error.
    assert engine.play(koma.Board("kokesu"), depth=1) in koma.Board("kokesu").legal_moves


def test_solve_rejects_other_games_and_placement():
    with pytest.raises(ValueError, match=r"only in numbershogi, kanishogi, kaninariebi, not kokesu"):
        koma.solve(koma.Board("kokesu"), max_ms=100)
    with pytest.raises(ValueError, match="placement"):
        koma.solve(koma.Board("numbershogi"), max_ms=100)


def test_solve_works_in_every_game_the_engine_solves():
    # Issue 57's solve row: the crab games are solved by `go mate` and the page's explorer,
    # and now by koma.solve too (a small budget: the value may stay unknown).
    for variant in ("kanishogi", "kaninariebi"):
        s = koma.solve(koma.Board(variant), max_nodes=2000)
        assert s.value in (None, "win", "loss", "draw")
        assert s.nodes > 0


def test_row7_number_shogi_positions_no_game_reaches_are_invalid():
    with pytest.raises(koma.InvalidSfen, match="both hands already sum to seven"):
        koma.Board("numbershogi", sfen="bce/d2/3/BC1/DE1 b AFaf 13")
    with pytest.raises(koma.InvalidSfen, match="would run past ply 12"):
        koma.Board("numbershogi", sfen="3/3/3/3/3 b ABCDEFabcdef 7")
    won = koma.Board("numbershogi", sfen="bce/d2/3/BC1/DE1 w AFFa 13")
    assert won.is_game_over()


def test_row14_the_engines_variant_is_not_switched_by_an_option():
    engine = koma.Engine("kokesu")
    for name in ("USI_Variant", "uci_variant"):
        with pytest.raises(ValueError, match="the variant is chosen when the Engine is made"):
            engine.setoption(name, "kanishogi")
    assert engine.variant == "kokesu"
    assert engine.play(koma.Board("kokesu"), depth=1) in koma.Board("kokesu").legal_moves
    with pytest.raises(ValueError, match="the board is kanishogi"):
        engine.analyse(koma.Board("kanishogi"), depth=1)
    with pytest.raises(ValueError, match="the variant is chosen when the Engine is made"):
        koma.Engine("kokesu", USI_Variant="kanishogi")


def test_row16_search_limits_have_the_command_lines_ranges():
    engine, board = koma.Engine("kokesu"), koma.Board("kokesu")
    for limits, why in [
        ({"depth": 10**9}, "depth 1000000000: from 1 to 127"),
        ({"depth": 0}, "depth 0: from 1 to 127"),
        ({"nodes": 0}, "nodes 0: at least 1"),
        ({"movetime": 0}, "movetime 0: at least 1 ms"),
        ({"depth": 1, "multipv": 65}, "MultiPV 65: from 1 to 64"),
    ]:
        with pytest.raises(ValueError, match=why):
            engine.analyse(board, **limits)
    assert engine.analyse(board, depth=127, nodes=2000).bestmove in board.legal_moves


def test_row13_memory_that_cannot_be_had_is_a_memory_error_and_the_engine_goes_on():
    # In a child interpreter whose address space ends at 2 GiB: a 4 GiB table cannot be had.
    script = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
        import koma
        try:
            koma.Engine("kokesu", hash_mb=4096)
        except MemoryError as e:
            print("ctor", e)
        engine = koma.Engine("kokesu")
        try:
            engine.setoption("USI_Hash", 4096)
        except MemoryError as e:
            print("setoption", e)
        print("move", engine.play(koma.Board("kokesu"), depth=2))
        engines = []
        try:
            for _ in range(200):
                engines.append(koma.Engine("kokesu", hash_mb=64))
        except MemoryError as e:
            print("many", len(engines), e)
        """
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "ctor option USI_Hash: cannot allocate 4096 MiB (out of memory): the table stays at 16 MiB"
    assert lines[1] == "setoption option USI_Hash: cannot allocate 4096 MiB (out of memory): the table stays at 16 MiB"
    assert lines[2].split()[0] == "move" and lines[2].split()[1] in koma.Board("kokesu").legal_moves
    assert lines[3].startswith("many ") and "out of memory" in lines[3], lines[3]
    assert 5 < int(lines[3].split()[1]) < 200, lines[3]
