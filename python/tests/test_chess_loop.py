"""Row "python-chess core loop" of issue 57: a script written for python-chess runs on a
Kokesu board with only its import changed (protocol/python.md names what still differs).

SCRIPT is python-chess code as its users write it: walking `board.legal_moves` with
`push` and `pop`, `is_checkmate`, `is_check`, `outcome`, `move_stack`, `peek`, `copy`,
`move in board.legal_moves`, `san` and `push_san`. The test runs it with `import chess` turned into
`import koma as chess`, and nothing else changed."""

import random

import koma

SCRIPT = """
import chess


def perft(board, depth):
    if depth == 0:
        return 1
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += perft(board, depth - 1)
        board.pop()
    return nodes


def mates_in_one(board):
    found = []
    for move in board.legal_moves:
        board.push(move)
        if board.is_checkmate():
            found.append(move)
        board.pop()
    return found


def checks(board):
    out = 0
    for move in list(board.legal_moves):
        board.push(move)
        out += board.is_check()
        board.pop()
    return out


def random_game(board, rng, max_plies):
    sans = []
    while not board.is_game_over() and len(board.move_stack) < max_plies:
        move = rng.choice(list(board.legal_moves))
        assert move in board.legal_moves
        sans.append(board.san(move))
        board.push(move)
        assert board.peek() == move
    return board.outcome(), sans


def replay_san(board, sans):
    for san in sans:
        board.push_san(san)
    return board


def replay(board):
    moves = list(board.move_stack)
    copy = board.copy()
    while copy.move_stack:
        copy.pop()
    for move in moves:
        copy.push(move)
    return copy
"""


def chess_script():
    """SCRIPT's functions, run with koma for chess."""
    names = {}
    exec(compile(SCRIPT.replace("import chess\n", "import koma as chess\n", 1), "chess_script", "exec"), names)
    return names


def scholars_mate_position():
    board = koma.Board("kokesu")
    for move in "4g4e 4b4d 3h6e 7a6c 5h1d 2a3c".split():  # e4 e5 Bc4 Nc6 Qh5 Nf6
        board.push(move)
    return board


def test_chess_loop_runs_a_python_chess_script_on_kokesu():
    script = chess_script()
    board = koma.Board("kokesu")
    # Perft by push and pop agrees with the engine's perft, and leaves the board as it was.
    assert script["perft"](board, 3) == board.perft(3) == 8902
    assert board.move_stack == [] and board == koma.Board("kokesu")
    mate = scholars_mate_position()
    assert [m.usi() for m in script["mates_in_one"](mate)] == ["1d3b"]  # Qxf7#
    assert script["checks"](mate) == 3  # Qxf7#, Bxf7+ and Qxe5+
    rng = random.Random(5)
    game = koma.Board("kokesu")
    outcome, sans = script["random_game"](game, rng, 300)
    assert outcome == game.result() and (outcome is None) == (not game.is_game_over())
    assert script["replay_san"](koma.Board("kokesu"), sans) == game and len(sans) == len(game.move_stack)
    assert [mate.san(m) for m in script["mates_in_one"](mate)] == ["Qxf7#"]
    again = script["replay"](game)
    assert again == game and again.move_stack == game.move_stack and again.outcome() == outcome
