"""Row "equality and copies" of issue 57: boards equal by position as python-chess's are
(the position with its move counters, not the moves that led there), hashing alike, and
copies with or without their moves."""

import copy

import koma
import pytest
from conftest import VARIANTS, random_game


@pytest.mark.parametrize("variant", VARIANTS)
def test_equality_copies_are_equal_and_hash_alike(variant):
    board = random_game(variant, 5, max_plies=20)
    for other in (board.copy(), copy.copy(board), copy.deepcopy(board), board.copy(stack=False)):
        assert other == board and hash(other) == hash(board) and other is not board
    assert board.copy().move_stack == board.move_stack
    flat = board.copy(stack=False)
    assert flat.move_stack == [] and flat.root_sfen == board.sfen() and flat.sfen() == board.sfen()
    if board.legal_moves:
        moved = board.copy()
        moved.push(list(moved.legal_moves)[0])
        assert moved != board and len(board.move_stack) + 1 == len(moved.move_stack)
    assert board != board.sfen() and board != koma.Board("kokesu" if variant != "kokesu" else "shogi66")


def test_equality_is_by_position_not_by_the_moves_that_led_there():
    a, b = koma.Board("kokesu"), koma.Board("kokesu")
    for mv in "7h6f 7a6c 2h3f".split():  # Nc3 Nc6 Nf3
        a.push(mv)
    for mv in "2h3f 7a6c 7h6f".split():  # Nf3 Nc6 Nc3
        b.push(mv)
    assert a == b and hash(a) == hash(b) and a.move_stack != b.move_stack
    assert len({a, b, a.copy(stack=False)}) == 1
    # The same board a ply later (the SFEN's ply, python-chess's move counters) differs.
    later = koma.Board("kokesu", sfen=a.sfen().rsplit(" ", 1)[0] + " 9")
    assert later != a
    # Another rules switch is another game.
    free = koma.Board("kokesu", sfen=a.sfen(), KokesuPromotion="free")
    assert free != koma.Board("kokesu", sfen=a.sfen()) and koma.Board("kokesu", sfen=a.sfen()) == a


def test_equality_copy_without_stack_forgets_the_history():
    board = koma.Board("kokesu", sfen="k7/p7/8/8/8/8/7P/7K b - 1")
    for mv in ["1h2h", "8a7a", "2h1h", "7a8a"]:
        board.push(mv)
    assert board.repetitions() == 2
    flat = board.copy(stack=False)
    assert flat.repetitions() == 1 and flat == board
    with pytest.raises(IndexError):
        flat.pop()
