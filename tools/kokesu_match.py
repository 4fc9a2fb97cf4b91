#!/usr/bin/env python3
"""Retired: tools/match.py plays kokesu against Fairy-Stockfish (and the other games, and
build against build) with the same referee rules, Elo ± error and an SPRT. This keeps the
old command line working:

  python3 tools/kokesu_match.py --fsf PATH [--koma PATH] [--movetime MS]
         [--promotion captured|free] [--games N] [--fsf-option NAME=VALUE ...]
  python3 tools/kokesu_match.py --koma NEW --opponent-usi OLD ...   (koma against koma)

runs  tools/match.py --variant kokesu --a KOMA --b fsf:PATH (or OLD) --movetime MS
      --option KokesuPromotion=P --games N --sprt off ...
"""
import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import match  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--koma", default=os.path.join(HERE, "..", "target", "release", "koma"))
    ap.add_argument("--fsf")
    ap.add_argument("--opponent-usi")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--promotion", choices=["captured", "free"], default="captured")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--fsf-option", action="append", default=[])
    a = ap.parse_args()
    if not (a.fsf or a.opponent_usi):
        sys.exit("give --fsf or --opponent-usi")
    argv = ["--variant", "kokesu", "--a", a.koma, "--b", a.opponent_usi or "fsf:" + a.fsf,
            "--movetime", str(a.movetime), "--option", "KokesuPromotion=" + a.promotion,
            "--games", str(a.games), "--sprt", "off", "--max-plies", str(a.max_plies),
            "--hash", str(a.hash)]
    for o in a.fsf_option:
        argv += ["--fsf-option", o]
    print("kokesu_match.py is retired; running: tools/match.py " + " ".join(argv), flush=True)
    sys.argv = [sys.argv[0]] + argv
    match.main()


if __name__ == "__main__":
    main()
