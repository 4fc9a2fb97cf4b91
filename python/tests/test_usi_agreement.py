"""Random games played through the binding agree, move for move, with koma over USI
(tools/lib/engine.py's Referee: `moves` and `d`): the legal moves, the SFEN and the
result at every ply."""

import koma
import pytest
from conftest import VARIANTS, random_game

from tools.lib.engine import Referee

GAMES = 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_games_agree_with_usi(variant, koma_binary):
    switches = {"kokesu": {"KokesuPromotion": "free"}, "kanishogi": {"KaniShogiGrownMove": "diagonal"}}.get(variant, {})
    referee = Referee(koma_binary, variant, list(switches.items()))
    try:
        for seed in range(GAMES):
            game = random_game(variant, 100 + seed, max_plies=400, **switches)
            board = koma.Board(variant, **switches)
            for ply in range(len(game.move_stack) + 1):
                moves = [m.usi() for m in game.move_stack[:ply]]
                legal, sfen, result = referee.state(moves)
                mine = board.result()
                assert (board.sfen(), sorted(board.legal_moves.usi() if mine is None else legal)) == (
                    sfen,
                    sorted(legal),
                ), "after %s" % moves
                assert (None if mine is None else (mine.winner, mine.reason)) == result, "after %s" % moves
                if ply < len(game.move_stack):
                    board.push(game.move_stack[ply])
            assert result is not None or len(game.move_stack) == 400, "the game ended or reached the cap"
    finally:
        referee.close()
