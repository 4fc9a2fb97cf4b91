#!/usr/bin/env python3
"""A match between two koma builds (or any two USI engines speaking koma's notation) in
any of koma's games, at a fixed time per move: how a change to search or evaluation is
measured.

Usage:
  python3 tools/usi_match.py --variant shogi66 --a NEW_BINARY --b OLD_BINARY
         [--movetime MS] [--pairs N] [--random-plies K] [--seed S] [--option NAME=VALUE ...]

Each pair of games starts from the same opening, K random legal plies from the start
position (in 66 shogi and Number Shogi: a random placement), with colours swapped.
A third koma process (engine A's binary) is the referee: a side with no legal move has
lost (a finished game, such as a sum of seven, has no legal moves); the
REPETITION_LIMIT-th occurrence of a position (board, hands, side) is a draw; games longer
than --max-plies are drawn. Kokesu has stalemate and the 100-ply rule: use
tools/kokesu_match.py (its --opponent-usi plays koma against koma).
"""
import argparse
import random
import subprocess
import sys
import time

REPETITION = {"shogi66": 4, "numbershogi": 4, "kanishogi": 4, "kaninariebi": 4}


class Engine:
    def __init__(self, path, variant, options):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.until("usiok")
        self.send("setoption name USI_Variant value " + variant)
        for o in options:
            name, value = o.split("=", 1)
            self.send("setoption name %s value %s" % (name, value))
        self.send("isready")
        self.until("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def legal(self, moves):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send("moves")
        return self.p.stdout.readline().split()

    def sfen(self):
        self.send("d")
        return self.until("sfen ")[-1][5:]

    def best(self, moves, movetime):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send("go movetime %d" % movetime)
        return self.until("bestmove")[-1].split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait(timeout=10)


def play(engines, referee, opening, args):
    """engines[0] plays sente. Returns (0 sente won | 1 gote won | None draw, reason, plies)."""
    moves = list(opening)
    seen = {}
    limit = REPETITION.get(args.variant, 3)
    while True:
        legal = referee.legal(moves)
        key = " ".join(referee.sfen().split()[:3])
        seen[key] = seen.get(key, 0) + 1
        side = len(moves) % 2
        if not legal:
            return 1 - side, "no legal move", len(moves)
        if seen[key] >= limit:
            return None, "repetition", len(moves)
        if len(moves) >= args.max_plies:
            return None, "ply limit", len(moves)
        best = engines[side].best(moves, args.movetime)
        if best not in legal:
            return 1 - side, "illegal move " + best, len(moves)
        moves.append(best)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", required=True, choices=sorted(REPETITION))
    ap.add_argument("--a", required=True, help="engine A (the new build)")
    ap.add_argument("--b", required=True, help="engine B (the reference build)")
    ap.add_argument("--movetime", type=int, default=100)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--random-plies", type=int, default=None,
                    help="default: 12 (a random placement) in shogi66/numbershogi, 2 otherwise")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--option", action="append", default=[])
    args = ap.parse_args()
    plies = args.random_plies
    if plies is None:
        plies = 12 if args.variant in ("shogi66", "numbershogi") else 2
    rng = random.Random(args.seed)
    a = Engine(args.a, args.variant, args.option)
    b = Engine(args.b, args.variant, args.option)
    referee = Engine(args.a, args.variant, args.option)
    score, wins, draws, losses = 0.0, 0, 0, 0
    t0 = time.time()
    for pair in range(args.pairs):
        opening = []
        for _ in range(plies):
            legal = referee.legal(opening)
            if not legal:
                break
            opening.append(rng.choice(legal))
        for swap in (False, True):
            engines = [b, a] if swap else [a, b]
            for e in engines:
                e.send("usinewgame")
            winner, why, n = play(engines, referee, opening, args)
            a_side = 1 if swap else 0
            if winner is None:
                draws += 1
                score += 0.5
                r = "draw"
            elif winner == a_side:
                wins += 1
                score += 1
                r = "A wins"
            else:
                losses += 1
                r = "B wins"
            print("pair %2d %s: A plays %s, %s by %s in %d plies  [A %.1f / %d]"
                  % (pair + 1, "b" if swap else "a", "gote" if swap else "sente", r, why, n,
                     score, wins + draws + losses), flush=True)
    print("final: A +%d =%d -%d (%.1f%%) over %d games, %s, movetime %d ms, %.0f s"
          % (wins, draws, losses, 100.0 * score / max(1, wins + draws + losses),
             wins + draws + losses, args.variant, args.movetime, time.time() - t0))
    for e in (a, b, referee):
        e.quit()


if __name__ == "__main__":
    main()
