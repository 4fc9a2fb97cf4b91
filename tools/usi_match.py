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
import time

from usi_engine import start_koma

REPETITION = {"shogi66": 4, "numbershogi": 4, "kanishogi": 4, "kaninariebi": 4}


def position(moves):
    return "position startpos moves " + " ".join(moves) if moves else "position startpos"


def legal(e, moves):
    """The legal moves after `moves` from the start, by koma's `moves` command."""
    e.send(position(moves))
    e.send("moves")
    return e.until("")[-1].split()


def sfen(e):
    e.send("d")
    return e.until("sfen ")[-1][5:]


def best(e, moves, movetime):
    e.send(position(moves))
    e.send("go movetime %d" % movetime)
    return e.until("bestmove")[-1].split()[1]


def play(engines, referee, opening, args):
    """engines[0] plays sente. Returns (0 sente won | 1 gote won | None draw, reason, plies)."""
    moves = list(opening)
    seen = {}
    limit = REPETITION.get(args.variant, 3)
    while True:
        moves_now = legal(referee, moves)
        key = " ".join(sfen(referee).split()[:3])
        seen[key] = seen.get(key, 0) + 1
        side = len(moves) % 2
        if not moves_now:
            return 1 - side, "no legal move", len(moves)
        if seen[key] >= limit:
            return None, "repetition", len(moves)
        if len(moves) >= args.max_plies:
            return None, "ply limit", len(moves)
        chosen = best(engines[side], moves, args.movetime)
        if chosen not in moves_now:
            return 1 - side, "illegal move " + chosen, len(moves)
        moves.append(chosen)


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
    options = [o.split("=", 1) for o in args.option]
    a = start_koma(args.a, args.variant, options, "A")
    b = start_koma(args.b, args.variant, options, "B")
    referee = start_koma(args.a, args.variant, options, "referee")
    score, wins, draws, losses = 0.0, 0, 0, 0
    t0 = time.time()
    for pair in range(args.pairs):
        opening = []
        for _ in range(plies):
            choices = legal(referee, opening)
            if not choices:
                break
            opening.append(rng.choice(choices))
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
        e.close()


if __name__ == "__main__":
    main()
