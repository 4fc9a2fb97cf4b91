"""Stockfish 15.1 as Kokesu's teacher (issue 54): Debian's `stockfish` package, which ships
its NNUE net, plays legal Kokesu with free promotion when it is given a FEN without
castling rights or en-passant square and, at the root, `searchmoves` with koma's legal
moves (no en-passant capture; in its search en passant may still appear a few plies deep,
a small error for labels). The tools install it (`apt-get install -y stockfish`), the
engine never does.

A label is one of `eval` (the static evaluation, Stockfish's `eval` command: no search),
`depth:N` or `nodes:N` (a search, `ucinewgame` first so that the hash left by the last
position does not change it: the same label on any machine). Scores are centipawns in
Stockfish's scale, the side to move's view.
"""

import re

from tools.lib.engine import start_koma, start_uci
from tools.lib.fsf import from_fsf, to_fsf

DEFAULT_STOCKFISH = "/usr/games/stockfish"
INSTALL = "apt-get install -y stockfish"
# Far more than any label takes; only a hung engine waits it out.
TIMEOUT = 600

FINAL = re.compile(r"Final evaluation\s+([-+]?\d+(?:\.\d+)?)")


def parse_label(text):
    """`eval`, `depth:N` or `nodes:N` -> ("eval", 0) or (kind, N); ValueError otherwise."""
    if text == "eval":
        return "eval", 0
    kind, _, n = text.partition(":")
    if kind not in ("depth", "nodes") or not n.isdigit() or int(n) < 1:
        raise ValueError("a label is eval, depth:N or nodes:N (N at least 1), not %r" % text)
    return kind, int(n)


def start_stockfish(path, hash_mb=1, name="stockfish", timeout=60):
    """Stockfish after `uci`, one thread, `hash_mb` MiB of hash (cleared before each search:
    small is cheaper to clear) and `isready`."""
    return start_uci(path, [("Threads", "1"), ("Hash", str(hash_mb))], name, timeout)


def label(e, fen, how, searchmoves=None):
    """Stockfish's label of `fen` (a FEN; `how` from parse_label): (kind, value, best move)
    with kind `cp` (centipawns, side to move's view) or `mate` (moves, side to move's view),
    or (None, None, best) when it gives no score (`eval` in check; a position without
    moves). A search starts with `ucinewgame` (its hash cleared); `searchmoves` are the
    root moves it may choose from (UCI)."""
    kind, n = how
    if kind == "eval":
        e.send("position fen " + fen)
        e.send("eval")
        m = FINAL.search(e.until("Final evaluation", timeout=TIMEOUT)[-1])
        if not m:
            return None, None, None
        white = round(float(m.group(1)) * 100)
        return "cp", white if fen.split()[1] == "w" else -white, None
    e.send("ucinewgame")
    e.send("position fen " + fen)
    e.send("go %s %d%s" % (kind, n, " searchmoves " + " ".join(searchmoves) if searchmoves else ""))
    score = None, None
    lines = e.until("bestmove", timeout=TIMEOUT)
    for reply in lines:
        w = reply.split()
        if w[:1] == ["info"] and "score" in w:
            j = w.index("score")
            score = w[j + 1], int(w[j + 2])
    words = lines[-1].split()
    best = words[1] if len(words) > 1 and words[1] != "(none)" else None
    return score[0], score[1], best


def board_of(fen):
    """{(file 0-7, rank 0-7): piece letter} of a FEN (chess orientation, a1 = (0, 0))."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - i)] = ch
                f += 1
    return board


def is_capture_or_promotion(fen, uci):
    """A UCI move of a FEN's position that takes a piece or promotes (Kokesu has no en
    passant): not a quiet move."""
    to = (ord(uci[2]) - ord("a"), int(uci[3]) - 1)
    return to in board_of(fen) or len(uci) > 4


def sfen_of_fen(fen):
    """A Kokesu FEN (white = sente) as koma's SFEN."""
    f = fen.split()
    return "%s %s - 1" % (f[0], "b" if f[1] == "w" else "w")


class KokesuMoves:
    """koma's legal Kokesu moves (`KokesuPromotion free`) of a FEN, in UCI: the root moves
    Stockfish is allowed (`searchmoves`)."""

    def __init__(self, koma):
        self.e = start_koma(koma, "kokesu", [("KokesuPromotion", "free")], "koma-moves")

    def legal(self, fen):
        self.e.send("position sfen " + sfen_of_fen(fen))
        self.e.send("moves")
        line = self.e.until("", timeout=60)[-1]
        if line.startswith("info string error"):
            raise ValueError("koma cannot read %s: %s" % (fen, line))
        return [to_fsf(m, 8, 8) for m in line.split()]

    def close(self):
        self.e.close()


def koma_move(uci):
    """A UCI move as koma's Kokesu token."""
    return from_fsf(uci, 8, 8)
