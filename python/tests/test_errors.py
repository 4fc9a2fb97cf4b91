"""Bad input raises one clear Python exception and never takes the interpreter down."""

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
    assert engine.play(koma.Board("kokesu"), depth=1) in koma.Board("kokesu").legal_moves()


def test_solve_rejects_other_games_and_placement():
    with pytest.raises(ValueError, match="only numbershogi"):
        koma.solve(koma.Board("kokesu"), max_ms=100)
    with pytest.raises(ValueError, match="placement"):
        koma.solve(koma.Board("numbershogi"), max_ms=100)
