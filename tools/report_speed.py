"""How `koma analyse --game` grows with the game's length (issue 55): a random 66-shogi
game that goes on for N plies (each move chosen among those after which the game is not
over, fixed seed), written as a koma record, reported at depth 1; the wall time of each
length and its ratio to the shortest. A wall-clock figure: run on an idle machine.

    python -m tools.report_speed --plies 100 400 1600 --koma target/release/koma
"""

import argparse
import os
import random
import subprocess
import tempfile
import time

import koma


def game(plies, seed):
    rng = random.Random(seed)
    board = koma.Board("shogi66")
    while len(board.move_stack) < plies:
        moves = board.legal_moves.usi()
        rng.shuffle(moves)
        for mv in moves:
            board.push(mv)
            if not board.is_game_over():
                break
            board.pop()
        else:
            raise SystemExit("no move keeps the game going at ply %d" % len(board.move_stack))
    return [m.usi() for m in board.move_stack]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plies", type=int, nargs="+", default=[100, 400, 1600])
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--koma", default="target/release/koma")
    args = ap.parse_args()
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.plies:
            path = os.path.join(tmp, "g%d.koma" % n)
            with open(path, "w") as f:
                f.write("# koma record\nvariant shogi66\nstart startpos\n")
                f.writelines("move %s\n" % m for m in game(n, args.seed))
            t = time.perf_counter()
            subprocess.run(
                [args.koma, "analyse", "--game", path, "--depth", str(args.depth)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            s = time.perf_counter() - t
            first = first or (n, s)
            print(
                "%5d plies: %6.2f s  (%.1fx the time of %d plies, %.1fx the plies)"
                % (n, s, s / first[1], first[0], n / first[0])
            )


if __name__ == "__main__":
    main()
