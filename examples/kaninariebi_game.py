#!/usr/bin/env python3
"""koma against koma at Kani Nari Ebi, printed move by move (the Python binding).

    python3 -m venv .venv && .venv/bin/pip install ./python
    .venv/bin/python examples/kaninariebi_game.py [--nodes N] [--seed S]

Both sides are the same in-process engine searching a fixed number of nodes per move, so
the game is the same on every machine; `--seed` varies the first two moves (random legal
moves) to see another game. The board, the engine's score and its principal variation
are printed after each move, and the referee's result at the end.
"""

import argparse
import random

import koma


def play(nodes: int, seed: int, max_plies: int) -> koma.Board:
    engine = koma.Engine("kaninariebi")
    board = koma.Board("kaninariebi")
    rng = random.Random(seed)
    print(board, "\n")
    while not board.is_game_over() and len(board.move_stack) < max_plies:
        side = "black" if board.turn == "b" else "red"
        if len(board.move_stack) < 2:
            move, note = rng.choice(board.legal_moves.usi()), "(random opening move)"
        else:
            a = engine.analyse(board, nodes=nodes)
            assert a.bestmove is not None, "a game that is not over has a legal move"
            move = a.bestmove
            score = (
                "mate %d" % a.score.mate
                if a.score and a.score.mate is not None
                else "%+d cp" % (a.score.cp if a.score and a.score.cp is not None else 0)
            )
            note = "score %s, depth %d, pv %s" % (score, a.depth, " ".join(a.pv[:6]))
        board.push(move)
        print("%3d. %-5s %-10s %s" % (len(board.move_stack), side, move, note))
        print(board, "\n")
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--nodes", type=int, default=20000, help="nodes searched per move (default 20000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the two random opening moves")
    parser.add_argument("--max-plies", type=int, default=300, help="stop after this many plies (default 300)")
    args = parser.parse_args()
    board = play(args.nodes, args.seed, args.max_plies)
    result = board.result()
    print("result:", result.text if result else "unfinished after %d plies" % len(board.move_stack))
    print("moves:", " ".join(m.usi() for m in board.move_stack))


if __name__ == "__main__":
    main()
