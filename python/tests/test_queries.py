"""Row "queries" of issue 57: squares and pieces, pieces on the board and in hand, check,
attackers, the outcome and repetitions, answered by the engine in every game."""

import random

import koma
import pytest
from conftest import VARIANTS


def squares(names):
    return sorted(koma.Square(n) for n in names.split()) if names else []


def names(sqs):
    return sorted(str(s) for s in sqs)


def test_queries_squares_and_pieces_are_small_named_values():
    sq = koma.Square("2f")
    assert (sq.file, sq.rank, sq.name, str(sq), repr(sq)) == (2, 6, "2f", "2f", "Square('2f')")
    assert sq == koma.Square("2f") and hash(sq) == hash(koma.Square("2f")) and sq != koma.Square("2e")
    p = koma.Piece("+p")
    assert (p.kind, p.side, p.promoted, p.symbol(), repr(p)) == ("P", "w", True, "+p", "Piece('+p')")
    assert koma.Piece("K") == koma.Piece("K") and koma.Piece("K") != koma.Piece("k")
    for bad in ["", "f2", "2", "22"]:
        with pytest.raises(ValueError, match="not a square name"):
            koma.Square(bad)
    for bad in ["", "+", "PP", "*"]:
        with pytest.raises(ValueError, match="not a piece symbol"):
            koma.Piece(bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_queries_piece_map_agrees_with_the_sfen(variant):
    board = koma.Board(variant)
    rng = random.Random(7)
    for _ in range(30):
        if board.is_game_over():
            break
        board.push(rng.choice(list(board.legal_moves)))
    rows = board.sfen().split()[0].split("/")
    files = len(str(board).splitlines()[0].split()) if variant != "kokesu" else 8
    count = sum(c.isalpha() for c in board.sfen().split()[0])
    assert len(board.piece_map()) == count
    for square, piece in board.piece_map():
        assert board.piece_at(square) == piece and board.piece_at(square.name) == piece
        assert square in board.pieces(piece.kind, piece.side)
        assert piece.symbol() in rows[square.rank - 1]
    with pytest.raises(ValueError, match="is not a square of"):
        board.piece_at("%d%s" % (files + 1, "a"))


def test_queries_kokesu_check_checkers_attackers_and_checkmate():
    board = koma.Board("kokesu", sfen="4k3/8/8/8/1b6/8/3P4/r3K2R b - 1")
    assert board.is_check() and board.checkers() == [koma.Square("8h")]
    assert board.attackers("w", "5g") == [koma.Square("7e")]
    assert board.attackers("b", "5g") == [koma.Square("4h")]  # a defender counts
    assert board.attackers("b", "8h") == []  # the king stands between
    assert board.piece_at("4h") == koma.Piece("K") and board.piece_at("4f") is None
    assert names(board.pieces("R", "b")) == ["1h"] and names(board.pieces("r", "w")) == ["8h"]
    assert not board.is_checkmate() and board.outcome() is None
    mate = koma.Board("kokesu")
    for mv in "4g4e 4b4d 3h6e 7a6c 5h1d 2a3c 1d3b".split():
        mate.push(mv)
    assert mate.is_check() and mate.is_checkmate() and mate.checkers() == [koma.Square("3b")]
    assert mate.outcome() == mate.result() and (mate.outcome().winner, mate.outcome().reason) == ("b", "checkmate")
    assert board.hand("b") == {} and board.hand("w") == {}
    with pytest.raises(ValueError, match="not a side"):
        board.hand("white")


def test_queries_shogi66_hands_drops_and_checks():
    board = koma.Board("shogi66", sfen="k5/6/2n3/6/2K3/6 b P 40")
    assert board.hand("b") == {"P": 1} and board.hand("w") == {}
    assert not board.is_check() and board.checkers() == []
    assert board.attackers("w", "3e") == [koma.Square("4c")] and board.attackers("w", "4e") == []
    assert board.attackers("b", "3d") == [koma.Square("4e")]  # the pawn in hand is no attacker
    mate = koma.Board("shogi66", sfen="k5/G5/6/6/6/L4K w - 1")
    assert mate.is_checkmate() and names(mate.checkers()) == ["6b"]
    assert names(mate.attackers("b", "6b")) == ["6f"]
    two = koma.Board("shogi66", sfen="k5/6/6/6/6/5K b 2P3pg 40")
    assert two.hand("b") == {"P": 2} and two.hand("w") == {"G": 1, "P": 3}


def test_queries_number_shogi_attacks_follow_the_piece_moves():
    board = koma.Board("numbershogi", sfen="bef/acd/3/FEC/BDA b - 13")
    # Sente's 6 (3d: forward, sideways, diagonally forward), 5 and 3 reach 2c; gote's 3
    # (2b) and 4 (1b, diagonals) do; gote's 1 (3b) only steps straight.
    assert names(board.attackers("b", "2c")) == ["1d", "2d", "3d"]
    assert names(board.attackers("w", "2c")) == ["1b", "2b"]
    assert names(board.attackers("w", "3c")) == ["2b", "3b"]
    assert not board.is_check() and board.checkers() == [] and not board.is_checkmate()
    start = koma.Board("numbershogi")
    assert start.hand("b") == {k: 1 for k in "ABCDEF"} and start.piece_map() == []


def capturing_piece(board, square):
    """The crab games' attackers worked out through the public API: the pieces whose turn
    changes what stands on `square` (the bond's piece when only the bond does)."""
    out = set()
    before = board.piece_at(square)
    changes = set()
    for m in board.legal_moves:
        after = board.copy()
        after.push(m)
        if after.piece_at(square) != before:
            changes.add(m.usi())
    for token in changes:
        m = koma.Move.from_usi(board, token)
        first = token.split(",")[0]
        if m.bond is None or first in changes:
            out.add(m.from_square)
        elif m.bond.from_square == m.to_square:
            out.add(m.from_square)
        else:
            out.add(m.bond.from_square)
    return out


@pytest.mark.parametrize("variant", ["kanishogi", "kaninariebi"])
def test_queries_crab_attackers_are_the_pieces_whose_turn_captures(variant):
    if variant == "kanishogi":
        board = koma.Board(variant, sfen="A1D1b/4c/K3k/C3d/Ba3 b - 3")
        # The parent into the river, drifting to 3e, sandwiches 4e; so do two bond moves.
        assert names(board.attackers("b", "4e")) == ["3a", "5a", "5c", "5d"]
        assert board.attackers("w", "5e") == []
    found = 0
    rng = random.Random(3)
    board = koma.Board(variant)
    while not board.is_game_over() and len(board.move_stack) < 60:
        side = board.turn
        for square, piece in board.piece_map():
            if piece.side != side:
                mine = set(board.attackers(side, square))
                assert mine == capturing_piece(board, square), (board.sfen(), square)
                found += bool(mine)
        board.push(rng.choice(list(board.legal_moves)))
    assert found > 0
    assert not board.is_check() and board.checkers() == []


def test_queries_repetitions_count_the_current_position():
    board = koma.Board("kokesu", sfen="k7/p7/8/8/8/8/7P/7K b - 1")
    assert board.repetitions() == 1 and not board.is_repetition()
    for mv in ["1h2h", "8a7a", "2h1h", "7a8a"]:
        board.push(mv)
    assert board.repetitions() == 2 and board.is_repetition(2) and not board.is_repetition()
    for mv in ["1h2h", "8a7a", "2h1h", "7a8a"]:
        board.push(mv)
    assert board.repetitions() == 3 and board.is_repetition()
    assert board.outcome() is not None and board.outcome().reason == "repetition"
    board.pop()
    assert board.repetitions() == 2 and board.outcome() is None
