#!/usr/bin/env python3
"""Recompute every figure of fixtures/perft/kokesu.perft with pyffish (Fairy-Stockfish).

Usage: python3 tests/reference/kokesu_pyffish.py [--max-nodes N] [fixture]
Exits 1 on any mismatch (2 when pyffish is missing or a case cannot be read).

pyffish builds a whole Position for every call (about 3 ms each here), so this walks
only ~300 nodes/s: the default --max-nodes 200000 checks every figure up to that size in
about a minute or two; `--max-nodes 10000000` checks all of them (about half an hour). CI
runs it with the smaller cap of tests/crosscheck.rs.

How kokesu is expressed in Fairy-Stockfish (tools/data/fsf_variants.ini, shared with the match
tools):
- Both switches: chess with `castling = false` and `enPassantRegion = -` (double steps
  kept); FSF's draw rules stay (perft never stops on a move count or a repetition).
- KokesuPromotion=free: FIDE promotion (q r b n, compulsory) is exactly FSF's default.
- KokesuPromotion=captured: FSF's `promotionLimit = q:1 r:2 b:2 n:2` offers a type only
  while the mover has fewer of it on the board than that limit, as in kokesu. Kokesu
  differs where no type is available: the pawn still moves to the last rank (plain token)
  and is stuck there. FSF with `mandatoryPawnPromotion = false` generates a plain move to
  the last rank in addition to the promotions; we keep it only when FSF offers no
  promotion for the same from/to (legality of the plain move and of a promotion on the
  same path is the same, the occupancy after the move being identical). A pawn standing
  on its last rank has no moves in FSF either.
A native Fairy-Stockfish (for `go perft` speed and matches) builds from the same
release: `pip download pyffish==0.0.90 --no-binary :all: --no-deps`, unpack, then in it
`g++ -O2 -w -std=c++17 -DNDEBUG -DIS_64BIT -DUSE_POPCNT -mpopcnt -DNNUE_EMBEDDING_OFF
-DLARGEBOARDS -DPRECOMPUTED_MAGICS -pthread src/*.cpp src/syzygy/*.cpp src/nnue/*.cpp
src/nnue/features/*.cpp` leaving out src/pyffish.cpp and src/ffishjs.cpp (about 5 minutes
on one core; the defines are pyffish's own, and 66 shogi needs LARGEBOARDS for its
`shogi` template; a build without them died in 4 of 30 kokesu match games, in endgame
searches); load the variants with `setoption name VariantPath value
tools/data/fsf_variants.ini` and `setoption name UCI_Variant value kokesu-free`.
SFEN -> FEN: the board field is the same text (file 8..1 = chess a..h, rank a = rank 8);
`b` (sente, uppercase) -> `w`; castling and en-passant fields `-`.
"""

import os
import sys
import time

try:
    import pyffish as sf
except ImportError:
    sys.exit(
        "pyffish is not installed: run `python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'`"
        " and use .venv/bin/python"
    )

# koma's games as Fairy-Stockfish variants: the one copy, shared with tools/lib/fsf.py.
VARIANTS_INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "data", "fsf_variants.ini")


def sfen_to_fen(sfen):
    f = sfen.split()
    board, side = f[0], f[1]
    ply = int(f[3]) if len(f) > 3 else 1
    return "%s %s - - 0 %d" % (board, "w" if side == "b" else "b", (ply + 1) // 2)


def kokesu_filter(moves):
    """Drop a plain move to the last rank when a promotion on the same path exists."""
    s = set(moves)
    return [m for m in moves if len(m) != 4 or not any(m + p in s for p in "qrbn")]


def make_perft(variant, captured):
    legal = (
        (lambda fen, ms: kokesu_filter(sf.legal_moves(variant, fen, ms)))
        if captured
        else (lambda fen, ms: sf.legal_moves(variant, fen, ms))
    )

    def perft(fen, depth):
        moves = legal(fen, [])
        if depth == 1:
            return len(moves)
        if depth == 2:
            return sum(len(legal(fen, [m])) for m in moves)
        return sum(perft(sf.get_fen(variant, fen, [m]), depth - 1) for m in moves)

    return perft


def parse_suite(text):
    cases, cur = [], {}
    for raw in text.splitlines() + [""]:
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                cases.append(cur)
            cur = {}
            continue
        key, _, rest = line.partition(" ")
        rest = rest.strip()
        cur.setdefault("options", {})
        cur.setdefault("perft", [])
        if key == "id":
            cur["id"] = rest
        elif key == "sfen":
            cur["sfen"] = rest
        elif key == "option":
            k, _, v = rest.partition("=")
            cur["options"][k.strip()] = v.strip()
        elif key == "perft":
            d, n = rest.split()
            cur["perft"].append((int(d), int(n)))
        else:
            raise ValueError("unknown key " + key)
    return cases


def main():
    args = sys.argv[1:]
    max_nodes = 200_000
    if "--max-nodes" in args:
        i = args.index("--max-nodes")
        max_nodes = int(args[i + 1])
        del args[i : i + 2]
    path = args[0] if args else "fixtures/perft/kokesu.perft"
    with open(VARIANTS_INI) as f:
        sf.load_variant_config(f.read())
    cases = parse_suite(open(path).read())
    bad = checked = 0
    for case in cases:
        promo = case["options"].get("KokesuPromotion", "captured")
        captured = promo == "captured"
        variant = "kokesu-captured" if captured else "kokesu-free"
        fen = sfen_to_fen(case["sfen"])
        if sf.validate_fen(fen, variant) != sf.FEN_OK:
            print("%s: pyffish rejects %s" % (case["id"], fen))
            bad += 1
            continue
        perft = make_perft(variant, captured)
        for depth, want in case["perft"]:
            if want > max_nodes:
                print("%-28s perft %d skipped (%d > --max-nodes)" % (case["id"], depth, want))
                continue
            t0 = time.time()
            got = perft(fen, depth)
            secs = max(time.time() - t0, 1e-9)
            checked += 1
            ok = got == want
            bad += not ok
            print(
                "%-32s perft %d = %9d %-8s %8.2f s %10.0f leaves/s"
                % (case["id"], depth, got, "ok" if ok else "MISMATCH, fixture says %d" % want, secs, got / secs),
                flush=True,
            )
    print("%d figures checked, %d mismatches" % (checked, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
