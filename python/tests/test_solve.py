"""koma.solve: Number Shogi's exact value, as `koma solve` gives it."""

import koma


def test_solve_gives_the_value_the_plies_and_a_move():
    board = koma.Board("numbershogi", sfen="bef/acd/3/FEC/BDA b - 13")
    s = koma.solve(board, max_nodes=20000)
    assert (s.value, s.plies, s.bestmove) == ("win", 7, "1d1c")
    assert s.nodes == 0, "the shipped table answers first, as the engine's proof does"
    board.push("1d1c")
    s = koma.solve(board, max_nodes=20000)
    assert (s.value, s.plies) == ("loss", 6)
    # The rest of the game, best play on both sides: the winner wins in the plies promised.
    while not board.is_game_over():
        board.push(koma.solve(board, max_nodes=20000).bestmove or "")
    assert len(board.move_stack) == 7
    result = board.result()
    assert result is not None and result.winner == "b"
    s = koma.solve(board)
    assert (s.value, s.plies, s.bestmove, s.nodes) == ("loss", 0, None, 0)


def test_a_budget_too_small_answers_unknown():
    s = koma.solve(koma.Board("numbershogi", sfen="cbf/ead/3/ABD/CFE b - 13"), max_nodes=20000)
    assert (s.value, s.plies, s.bestmove) == (None, None, None)
