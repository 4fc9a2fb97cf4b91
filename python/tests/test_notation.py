"""Row "notation" of issue 57: FEN in and out (the chess protocols' notation of the
games that have one, src/game/notation.rs)."""

import koma
import pytest
from conftest import random_game

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def test_notation_kokesu_fen_in_and_out():
    board = koma.Board("kokesu")
    assert board.fen() == START_FEN and koma.Board("kokesu", fen=START_FEN) == board
    board.push("4g4e")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"
    assert koma.Board("kokesu", fen=board.fen()) == board
    # Castling and en passant fields of a chess FEN are read and ignored (Kokesu has neither).
    chess = koma.Board("kokesu", fen="rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
    assert chess == board


@pytest.mark.parametrize("variant", ["kokesu", "shogi66", "numbershogi"])
def test_notation_fen_reads_back_along_games(variant):
    board = random_game(variant, 2, max_plies=60)
    while True:
        again = koma.Board(variant, fen=board.fen())
        assert again.sfen() == board.sfen(), board.fen()
        if not board.move_stack:
            break
        board.pop()


def test_notation_fen_errors():
    with pytest.raises(ValueError, match="kanishogi has no FEN"):
        koma.Board("kanishogi").fen()
    with pytest.raises(ValueError, match="kaninariebi has no FEN"):
        koma.Board("kaninariebi", fen="5/5/5/5/5 w - - 0 1")
    with pytest.raises(ValueError, match="not both"):
        koma.Board("kokesu", sfen=koma.Board("kokesu").sfen(), fen=START_FEN)
    with pytest.raises(koma.InvalidSfen, match="bad FEN"):
        koma.Board("kokesu", fen="rnbqkbnr/pppppppp x")
    assert "[" in koma.Board("shogi66").fen()  # holdings in brackets
