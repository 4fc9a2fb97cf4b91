"""Row "notation" of issue 57: moves named and read in each game's notation (Kokesu's
SAN, the shogi games' KIF names and Western notation: koma::records::notation) and FEN in
and out (the chess protocols' notation of the games that have one, src/game/notation.rs)."""

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


def test_notation_kokesu_san_names_and_reads_moves():
    board = koma.Board("kokesu")
    assert [board.san(m) for m in list(board.legal_moves)[:3]] == ["a3", "a4", "b3"]
    for san in "e4 e5 Bc4 Nc6 Qh5 Nf6".split():
        move = board.push_san(san)
        assert isinstance(move, koma.Move)
    assert board.san("1d3b") == "Qxf7#" and board.san("6e3b") == "Bxf7+"
    assert board.parse_san("Qxf7#") == board.parse_move("Qxf7", "san") == koma.Move.from_usi(board, "1d3b")
    # Every legal move's SAN reads back as that move, along a game.
    game = random_game("kokesu", 4, max_plies=60)
    while game.move_stack:
        game.pop()
        for move in game.legal_moves:
            assert game.parse_san(game.san(move)) == move, (game.fen(), move)
    with pytest.raises(koma.IllegalMove, match="not a legal move"):
        board.push_san("Kxe8")
    with pytest.raises(koma.IllegalMove, match="not a legal move"):
        board.san("9z9z")


@pytest.mark.parametrize("variant", ["shogi66", "numbershogi"])
def test_notation_shogi_games_kif_and_western_both_ways(variant):
    board = random_game(variant, 6, max_plies=40)
    while board.move_stack:
        board.pop()
        for move in board.legal_moves:
            assert board.parse_move(board.kif(move), "kif") == move
            assert board.parse_move(board.western(move), "western") == move
    start = koma.Board("shogi66", sfen="lkgsnr/pppppp/6/6/PPPPPP/LNSGKR b - 13")
    assert (start.kif("6e6d"), start.western("6e6d")) == ("☗６四歩", "P-6d")
    assert koma.Board("numbershogi").western("A*3d") == "1*3d"


def test_notation_styles_a_game_has_not_are_errors():
    with pytest.raises(ValueError, match="kanishogi has no san notation"):
        koma.Board("kanishogi").san("5a4a")
    with pytest.raises(ValueError, match="kokesu has no kif notation"):
        koma.Board("kokesu").kif("4g4e")
    with pytest.raises(ValueError, match="not a notation style"):
        koma.Board("kokesu").parse_move("e4", "kanji")
    assert koma.Board("kaninariebi").parse_move("5a4a") == koma.Move.from_usi(koma.Board("kaninariebi"), "5a4a")
