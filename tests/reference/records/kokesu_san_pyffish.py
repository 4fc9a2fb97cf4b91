#!/usr/bin/env python3
"""Check koma's PGN SAN against pyffish's, move by move (tests/records.rs).

Usage: python3 tests/reference/records/kokesu_san_pyffish.py GAMES.jsonl
Each line of GAMES.jsonl is one Kokesu game from the start position:
{"uci": [chess-notation moves], "san": [koma's SAN of each]}. pyffish writes the SAN of
the same moves with the Kokesu definition of tools/data/fsf_variants.ini (kokesu-captured,
koma's default rules). Prints "N moves agree" and exits 0, or prints the first
disagreements and exits 1 (2 when pyffish is missing).
"""

import json
import os
import sys

try:
    import pyffish as sf
except ImportError:
    sys.exit(
        "pyffish is not installed: run `python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'`"
        " and use .venv/bin/python"
    )

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS_INI = os.path.join(HERE, "..", "..", "..", "tools", "data", "fsf_variants.ini")
VARIANT = "kokesu-captured"
# koma's start position as a FEN: no castling, no en passant.
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"


def main():
    with open(VARIANTS_INI) as f:
        sf.load_variant_config(f.read())
    moves = 0
    wrong = []
    with open(sys.argv[1]) as f:
        for n, line in enumerate(f, 1):
            game = json.loads(line)
            theirs = sf.get_san_moves(VARIANT, START, game["uci"])
            for i, (ours, fsf) in enumerate(zip(game["san"], theirs)):
                if ours != fsf:
                    wrong.append(
                        "game %d ply %d (%s after %s): koma %s, pyffish %s"
                        % (n, i + 1, game["uci"][i], " ".join(game["uci"][:i]), ours, fsf)
                    )
            if len(theirs) != len(game["san"]):
                wrong.append("game %d: pyffish wrote %d moves of %d" % (n, len(theirs), len(game["san"])))
            moves += len(game["san"])
    if wrong:
        print("\n".join(wrong[:20]))
        print("%d disagreements" % len(wrong))
        sys.exit(1)
    print("%d moves agree" % moves)


if __name__ == "__main__":
    main()
