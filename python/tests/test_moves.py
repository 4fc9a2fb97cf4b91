"""Row "moves" of issue 57: `koma.Move` values, `board.legal_moves` as an object, push
and pop of Moves, in every game."""

import koma
import pytest
from conftest import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_legal_moves_is_iterable_sized_and_answers_in(variant):
    board = koma.Board(variant)
    legal = board.legal_moves
    moves = list(legal)
    assert len(legal) == len(moves) == legal.count() > 0 and bool(legal)
    assert all(isinstance(m, koma.Move) for m in moves)
    assert [m.usi() for m in moves] == legal.usi() == [str(m) for m in legal]
    assert len(set(moves)) == len(moves)
    assert all(m in legal and m.usi() in legal for m in moves)
    assert "9z9z" not in legal and 42 not in legal
    # Each move is the board's own: read back from its token, pushed, popped.
    for m in moves[:5]:
        assert koma.Move.from_usi(board, m.usi()) == m
        board.push(m)
        assert board.peek() == m and board.move_stack == [m]
        assert board.pop() == m
    assert board.push_usi(moves[0].usi()) == moves[0] and board.move_stack == [moves[0]]


def test_moves_parts_of_board_moves_drops_promotions_and_bonds():
    # A drop (66 shogi's placement), a board move.
    board = koma.Board("shogi66")
    drop = koma.Move.from_usi(board, "K*2f")
    assert (drop.from_square, drop.to_square, drop.drop, drop.promotion, drop.bond) == (
        None,
        koma.Square("2f"),
        "K",
        None,
        None,
    )
    # Kokesu's promotion letter.
    free = koma.Board("kokesu", sfen="k7/4P3/8/8/8/8/PPPP1PPP/RNBQKBNR b - 1", KokesuPromotion="free")
    q = koma.Move.from_usi(free, "4b4aq")
    assert (str(q.from_square), str(q.to_square), q.promotion, q.drop) == ("4b", "4a", "q", None)
    # Number Shogi's drop of a numbered piece and a promotion `+`.
    assert koma.Move.from_usi(koma.Board("numbershogi"), "D*2e").drop == "D"
    game = koma.Board("numbershogi", sfen="b1f/aEd/1c1/F1C/BDA b e 13")
    assert koma.Move.from_usi(game, "2b2a+").promotion == "+" and koma.Move.from_usi(game, "2b2a").promotion is None
    # A crab turn with a bond move: the second step is a Move of its own.
    crab = koma.Board("kanishogi", sfen="A1D1b/4c/K3k/C3d/Ba3 b - 3")
    turn = koma.Move.from_usi(crab, "3a4a,4a3e")
    assert (str(turn.from_square), str(turn.to_square)) == ("3a", "4a")
    assert turn.bond is not None and turn.bond.usi() == "4a3e" and str(turn.bond.from_square) == "4a"
    assert repr(turn) == "Move.from_usi('3a4a,4a3e')" and str(turn) == "3a4a,4a3e"
    assert hash(turn) == hash(koma.Move.from_usi(crab, "3a4a,4a3e"))


def test_moves_from_usi_checks_legality_and_push_takes_both_forms():
    board = koma.Board("kokesu")
    with pytest.raises(koma.IllegalMove, match="not a move token"):
        koma.Move.from_usi(board, "e2e4")
    with pytest.raises(koma.IllegalMove, match="not a legal move"):
        koma.Move.from_usi(board, "4g4d")
    m = koma.Move.from_usi(board, "4g4e")
    assert board.move_stack == []  # asking does not play
    board.push(m)
    board.push("4b4d")
    assert board.move_stack == [m, board.peek()] and board.peek().usi() == "4b4d"
    with pytest.raises(koma.IllegalMove):
        board.push(m)  # a Move of another position
    with pytest.raises(TypeError):
        board.push(42)
    assert board.is_legal("5h1d") and board.is_legal(koma.Move.from_usi(board, "5h1d"))
    assert [str(board.pop()), str(board.pop())] == ["4b4d", "4g4e"]
    with pytest.raises(IndexError):
        board.peek()


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_usi_lists_are_the_callers_own_and_tokens_are_equal_strings(variant):
    # The binding hands out the same Python strings for a token met again (issue 57's
    # speed); a list it returns is still a new list each time, and a token is a plain str.
    board = koma.Board(variant)
    first = board.legal_moves.usi()
    first.append("mine")
    first[0] = "changed"
    again = board.legal_moves.usi()
    assert "mine" not in again and "changed" not in again and again is not first
    assert again == [m.usi() for m in board.legal_moves]
    assert all(type(t) is str for t in again)
    board.push(again[0])
    board.pop()
    assert board.legal_moves.usi() == again
