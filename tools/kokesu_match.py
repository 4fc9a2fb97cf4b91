#!/usr/bin/env python3
"""A Kokesu match: koma (USI) against Fairy-Stockfish (UCI) at a fixed time per move.

Usage:
  python3 tools/kokesu_match.py --fsf PATH [--koma PATH] [--movetime MS]
         [--promotion captured|free] [--games N] [--fsf-option NAME=VALUE ...]
  python3 tools/kokesu_match.py --koma NEW --opponent-usi OLD ...   (koma against koma)

koma is the referee: a move is legal when it is in koma's `moves` list, and pyffish
(tests/reference/requirements.txt) cross-checks every move and tells check from
stalemate. The script keeps the draw rules itself: threefold repetition (board and side
to move) and 100 plies without capture or pawn move; games longer than --max-plies are
adjudicated drawn.

Fairy-Stockfish plays the same rules: chess with castling and en passant off, and for
KokesuPromotion=captured `promotionLimit = q:1 r:2 b:2 n:2` with
`mandatoryPawnPromotion = false`. That FSF rule also allows a plain (non-promoting) move
to the last rank when a type is available, which kokesu forbids, so FSF's root moves are
restricted with `searchmoves` to koma's legal list (its inner search may still consider
such a move). Openings: each line of OPENINGS is played twice, colours swapped.

Notation: koma square <file 1-8><rank a-h>, file 1 = chess h-file, rank a = chess rank 8.
"""
import argparse
import os
import sys
import time

try:
    import pyffish as sf
except ImportError:
    sys.exit("pyffish is not installed: pip install -r tests/reference/requirements.txt")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "reference"))
from kokesu_pyffish import INI  # the cross-check's own variant definitions  # noqa: E402
from usi_engine import Engine, start_koma  # noqa: E402

# Two-ply openings in chess notation (white, black); each is played with both colours.
OPENINGS = [
    "e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "e2e4 e7e6", "e2e4 c7c6",
    "d2d4 g8f6", "c2c4 e7e5", "g1f3 d7d5", "c2c4 c7c5", "d2d4 f7f5",
    "g2g3 d7d5", "b2b3 e7e5", "f2f4 d7d5", "e2e4 d7d6", "g1f3 g8f6",
]


def to_koma(uci):
    sq = lambda s: "%d%s" % (ord("h") - ord(s[0]) + 1, chr(ord("a") + 8 - int(s[1])))
    return sq(uci[0:2]) + sq(uci[2:4]) + uci[4:]


def to_uci(tok):
    sq = lambda s: "%s%d" % (chr(ord("h") - int(s[0]) + 1), 8 - (ord(s[1]) - ord("a")))
    return sq(tok[0:2]) + sq(tok[2:4]) + tok[4:]


def board_of(sfen):
    """{(file, rank_index): piece letter} from the board field of a kokesu SFEN."""
    cells = {}
    for r, row in enumerate(sfen.split()[0].split("/")):
        f = 8
        for c in row:
            if c.isdigit():
                f -= int(c)
            else:
                cells[(f, r)] = c
                f -= 1
    return cells


def play_game(koma, fsf, moves, koma_is_sente, args, variant):
    """Plays on from the opening in `moves` (extended in place)."""
    seen = {}
    quiet = 0
    fen0 = sf.start_fen(variant)
    while True:
        koma.send("position startpos moves " + " ".join(moves))
        koma.send("moves")
        legal = koma.until("")[-1].split()
        koma.send("d")
        sfen = koma.until("sfen ")[-1][5:]
        key = " ".join(sfen.split()[:2])
        seen[key] = seen.get(key, 0) + 1
        uci_moves = [to_uci(m) for m in moves]
        fsf_legal = set(sf.legal_moves(variant, fen0, uci_moves))
        extra = {to_koma(m) for m in fsf_legal} - set(legal)
        # FSF's only extra moves may be plain moves to the last rank (see the docstring).
        assert all(len(m) == 4 for m in extra), (moves, extra)
        assert {to_uci(m) for m in legal} <= fsf_legal, (moves, legal)
        sente_to_move = sfen.split()[1] == "b"
        if not legal:
            if sf.gives_check(variant, fen0, uci_moves):
                return ("0-1" if sente_to_move else "1-0"), "checkmate", moves
            return "1/2", "stalemate", moves
        if seen[key] >= 3:
            return "1/2", "threefold repetition", moves
        if quiet >= 100:
            return "1/2", "100 plies", moves
        if len(moves) >= args.max_plies:
            return "1/2", "ply limit", moves
        koma_to_move = sente_to_move == koma_is_sente
        if koma_to_move:
            koma.send("go movetime %d" % args.movetime)
            best = koma.until("bestmove")[-1].split()[1]
        elif args.opponent_usi:
            fsf.send("position startpos moves " + " ".join(moves))
            fsf.send("go movetime %d" % args.movetime)
            best = fsf.until("bestmove")[-1].split()[1]
        else:
            fsf.send("position startpos moves " + " ".join(uci_moves))
            fsf.send("go movetime %d searchmoves %s" % (args.movetime, " ".join(to_uci(m) for m in legal)))
            best = to_koma(fsf.until("bestmove")[-1].split()[1])
        if best not in legal:
            loser = "koma" if koma_to_move else "fsf"
            return ("0-1" if sente_to_move else "1-0"), "illegal move %s by %s" % (best, loser), moves
        cells = board_of(sfen)
        frm = (int(best[0]), ord(best[1]) - ord("a"))
        to = (int(best[2]), ord(best[3]) - ord("a"))
        quiet = 0 if to in cells or cells.get(frm, "").lower() == "p" else quiet + 1
        moves.append(best)


def koma_options(args):
    return [("KokesuPromotion", args.promotion), ("USI_Hash", args.hash)]


def start_opponent(args, ini, variant):
    if args.opponent_usi:
        return start_koma(args.opponent_usi, "kokesu", koma_options(args), "opponent")
    if not args.fsf:
        sys.exit("give --fsf or --opponent-usi")
    e = Engine([args.fsf], "fsf")
    e.send("uci")
    e.until("uciok")
    for o in ["VariantPath value " + ini, "UCI_Variant value " + variant, "Threads value 1",
              "Hash value %d" % args.hash] + [o.replace("=", " value ", 1) for o in args.fsf_option]:
        e.send("setoption name " + o)
    e.send("isready")
    e.until("readyok")
    return e


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--koma", default=os.path.join(here, "..", "target", "release", "koma"))
    ap.add_argument("--fsf")
    ap.add_argument("--opponent-usi", help="another koma binary instead of Fairy-Stockfish")
    ap.add_argument("--movetime", type=int, default=200)
    ap.add_argument("--promotion", choices=["captured", "free"], default="captured")
    ap.add_argument("--games", type=int, default=2 * len(OPENINGS))
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--fsf-option", action="append", default=[])
    ap.add_argument("--first", type=int, default=1, help="start at this game number")
    args = ap.parse_args()

    variant = "kokesu-" + args.promotion
    sf.load_variant_config(INI)
    ini = os.path.abspath("kokesu_match.ini")
    with open(ini, "w") as f:
        f.write(INI)

    koma = start_koma(args.koma, "kokesu", koma_options(args))
    fsf = start_opponent(args, ini, variant)

    score = {"koma": 0.0, "fsf": 0.0}
    tally = {}
    t0 = time.time()
    for g in range(args.first - 1, args.games):
        opening = OPENINGS[(g // 2) % len(OPENINGS)]
        koma_is_sente = g % 2 == 0
        for e, cmd in ((koma, "usinewgame"), (fsf, "ucinewgame")):
            e.send(cmd)
            e.send("isready")
            e.until("readyok")
        moves = [to_koma(m) for m in opening.split()]
        try:
            result, why, moves = play_game(koma, fsf, moves, koma_is_sente, args, variant)
        except (RuntimeError, OSError) as e:
            if koma.p.poll() is not None:
                raise
            # The opponent died: the game is not scored; it is shown for a bug report.
            print("game %2d  %s after %d plies, not scored: position startpos moves %s"
                  % (g + 1, e, len(moves), " ".join(to_uci(m) for m in moves)), flush=True)
            tally["opponent crash"] = tally.get("opponent crash", 0) + 1
            fsf = start_opponent(args, ini, variant)
            continue
        other = "koma-b" if args.opponent_usi else "fsf"
        sente, gote = ("koma", other) if koma_is_sente else (other, "koma")
        if result == "1-0":
            score["koma" if koma_is_sente else "fsf"] += 1
        elif result == "0-1":
            score["fsf" if koma_is_sente else "koma"] += 1
        else:
            score["koma"] += 0.5
            score["fsf"] += 0.5
        tally[why] = tally.get(why, 0) + 1
        print("game %2d  %s (sente) vs %s: %s by %s in %d plies  [koma %.1f - %s %.1f]"
              % (g + 1, sente, gote, result, why, len(moves), score["koma"], other, score["fsf"]))
        print("         moves " + " ".join(moves), flush=True)
    played = sum(n for why, n in tally.items() if why != "opponent crash")
    print("final: koma %.1f - opponent %.1f over %d games (%s), movetime %d ms, %.0f s"
          % (score["koma"], score["fsf"], played, ", ".join("%s %d" % kv for kv in sorted(tally.items())),
             args.movetime, time.time() - t0))
    koma.close()
    fsf.close()


if __name__ == "__main__":
    main()
