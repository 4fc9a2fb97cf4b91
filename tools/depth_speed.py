#!/usr/bin/env python3
"""Depth at equal time: koma and Fairy-Stockfish think for the same time on the same
positions; prints each one's last completed depth, nodes and nodes/s.

Usage:
  python3 -m tools.depth_speed --koma target/release/koma --fsf FSF [--ms 5000]
         [--threads 1] [--only NAME]

The positions (koma SFEN, given to FSF as its FEN with tools/lib/fsf.py's
translation) are fixed below: kokesu's start and Kiwipete without castling, 66 shogi
just after a placement and a middlegame with hands (the bench positions). Run it on an idle machine: one
engine thinks at a time, but a timing is only as good as the cores it had.
"""

import argparse

from tools.lib.engine import start_koma
from tools.lib.fsf import fen_of, start_fsf, variant_setup
from tools.lib.paths import DEFAULT_KOMA

POSITIONS = [
    ("kokesu-start", "kokesu", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - 1"),
    ("kokesu-kiwipete", "kokesu", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b - 1"),
    ("shogi66-after-placement", "shogi66", "lrnskg/pppppp/6/6/PPPPPP/GKSNRL b - 13"),
    ("shogi66-middlegame-hands", "shogi66", "1sb1l1/1pp1pk/2g3/pG1K2/PP2PS/RL4 b N2Pn3p 43"),
]


def last_info(lines):
    """(depth, nodes, nps) of the last `info depth` line."""
    for line in reversed(lines):
        w = line.split()
        if w[:2] == ["info", "depth"] and "nodes" in w:
            return tuple(int(w[w.index(k) + 1]) if k in w else 0 for k in ("depth", "nodes", "nps"))
    return 0, 0, 0


def koma_think(path, variant, sfen, ms, threads):
    e = start_koma(path, variant, [("Threads", str(threads)), ("USI_Hash", "64")])
    e.send("position sfen " + sfen)
    e.send("go movetime %d" % ms)
    r = last_info(e.until("bestmove", timeout=ms / 1000 + 30))
    e.close()
    return r


def fsf_think(path, variant, sfen, ms, threads):
    name, _ = variant_setup(variant, {"KokesuPromotion": "free"})
    e = start_fsf(path, name, [("Threads", str(threads)), ("Hash", "64"), ("Move Overhead", "0")])
    e.send("position fen " + fen_of(variant, sfen))
    e.send("go movetime %d" % ms)
    r = last_info(e.until("bestmove", timeout=ms / 1000 + 30))
    e.close()
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--fsf")
    ap.add_argument("--ms", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only")
    args = ap.parse_args()
    print("| position | koma depth | koma nodes/s | FSF depth | FSF nodes/s |")
    print("|---|---|---|---|---|")
    for name, variant, sfen in POSITIONS:
        if args.only and args.only not in name:
            continue
        kd, _, kn = koma_think(args.koma, variant, sfen, args.ms, args.threads)
        fd, fn = ("-", "-")
        if args.fsf:
            d, _, n = fsf_think(args.fsf, variant, sfen, args.ms, args.threads)
            fd, fn = d, "%.2fM" % (n / 1e6)
        print("| %s | %d | %.2fM | %s | %s |" % (name, kd, kn / 1e6, fd, fn), flush=True)


if __name__ == "__main__":
    main()
