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

from tools.lib.engine import reported_ms, running, start_koma, start_uci
from tools.lib.fsf import from_fsf, to_fsf

DEFAULT_STOCKFISH = "/usr/games/stockfish"
# Kokesu's start for Stockfish: chess's, without castling rights (`startpos` has them, and
# Stockfish's search would castle beyond the root moves it is given).
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
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
    return searched(e.until("bestmove", timeout=TIMEOUT))


def searched(lines):
    """A search's answer from its lines up to `bestmove` (UCI or USI): (kind, value, best
    move) with the last `info ... score` line's kind and value (None, None without one) and
    the best move (None for `(none)` or `resign`)."""
    score = None, None
    for reply in lines:
        w = reply.split()
        if w[:1] == ["info"] and "score" in w:
            j = w.index("score")
            score = w[j + 1], int(w[j + 2])
    words = lines[-1].split()
    best = words[1] if len(words) > 1 and words[1] not in ("(none)", "resign") else None
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


def check_rules(variant, rules):
    """None when Stockfish plays `variant` with the rules switches `rules` exactly (Kokesu
    with free promotion, stalemate a draw), else why not."""
    if variant != "kokesu":
        return "Stockfish plays only kokesu, not %s" % variant
    if rules.get("KokesuPromotion") != "free":
        return "Stockfish plays kokesu with free promotion only: --option KokesuPromotion=free"
    if rules.get("KokesuStalemate", "draw") != "draw":
        return "Stockfish's stalemate is a draw: leave KokesuStalemate at draw"
    return None


class StockfishPlayer:
    """Stockfish 15.1 as a player of tools/match.py (`--a` or `--b stockfish:PATH`): the
    game from START_FEN (no castling rights) with its moves, and `searchmoves` with koma's
    legal root moves (so no castling and no en-passant capture at the root); one thread,
    the match's hash, its hash cleared at each new game only. The match checks the move
    it returns against koma's legal list, as any engine's."""

    def __init__(self, path, args, name, go, timeout):
        self.path, self.name, self.go, self.timeout = path, name, go, timeout
        self.options = [("Threads", "1"), ("Hash", str(args.hash)), ("Move Overhead", str(args.move_overhead))]
        self.e = None

    def new_game(self, opening):
        self.e = running(self.e, lambda: start_uci(self.path, self.options, self.name, self.timeout))
        self.e.new_game("ucinewgame", self.timeout)

    def best(self, moves, legal, clock=None):
        """`clock`: (first player's ms, second player's ms, increment ms); the first player
        is white. Returns koma's token of the move, or `(none)` as Stockfish gave it."""
        uci = [to_fsf(m, 8, 8) for m in moves]
        self.e.send("position fen " + START_FEN + (" moves " + " ".join(uci) if uci else ""))
        go = self.go
        if clock:
            go = "wtime %d btime %d winc %d binc %d" % (clock[0], clock[1], clock[2], clock[2])
        self.e.send("go %s searchmoves %s" % (go, " ".join(to_fsf(m, 8, 8) for m in legal)))
        lines = self.e.until("bestmove", timeout=self.timeout)
        self.reported_ms = reported_ms(lines)
        move = lines[-1].split()[1]
        return move if move == "(none)" else from_fsf(move, 8, 8)

    def kill(self):
        if self.e is not None:
            self.e.close(timeout=1)
        self.e = None

    close = kill
