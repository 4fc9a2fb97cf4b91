"""Fairy-Stockfish as an engine of the tools, and as engine B of tools/match.py (`--b fsf:PATH`): kokesu, 66 shogi after
the placement, Number Shogi after the setup.

FSF speaks UCI with its own variant definitions (tools/data/fsf_variants.ini, which the
cross-check scripts tests/reference/*_pyffish.py read too). Its squares are a..(files) from the
left and 1..(ranks) from the bottom; koma's are files numbered from the right and ranks
lettered from the top, so a token is translated square by square, `*` <-> `@` for drops;
`+` (shogi promotion) and `q r b n` (kokesu) are the same in both.

  * kokesu: `position startpos moves ...` in `kokesu-captured` or `kokesu-free` after
    --option KokesuPromotion (FSF's chess: 50-move rule, threefold repetition; stalemate a
    draw or, with KokesuStalemate=loss, a loss). With KokesuPromotion=free FSF plays
    exactly koma's rules.
  * shogi66 / numbershogi: FSF has no placement phase. The opening's placement is played
    by the match (random, paired, as between koma builds) and FSF gets the position after
    it: `position fen <that position> moves <the moves since>`. Number Shogi's
    sum-of-seven win is not expressible in FSF: it plays on not knowing it (the referee
    ends the game), so it only measures koma against a strong searcher of the same moves.
  * FSF's root moves are always restricted to koma's legal list (`searchmoves`): FSF 0.0.90
    lets through some pawn-drop mates in 66 shogi, and kokesu-captured also offers a plain
    pawn move to the last rank; its inner search may still consider such a move.
With pyffish installed (pyproject.toml), every position is also checked
move list against move list, and a koma move FSF does not know is reported once a game.
"""

import sys

from tools.lib.engine import reported_ms, running, start_uci
from tools.lib.paths import FSF_VARIANTS

try:
    import pyffish as sf
except ImportError:  # the cross-check is optional
    sf = None

SQUARES = {"kokesu": (8, 8), "shogi66": (6, 6), "numbershogi": (3, 5)}

# The variant definitions, shared with the cross-check scripts (tests/reference/*_pyffish.py).
VARIANTS_INI = FSF_VARIANTS

DEFAULT_TABLE = "1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S"


def variant_setup(variant, rules):
    """(FSF variant name in fsf_variants.ini, placement plies) for koma's variant and rules
    switches, or SystemExit when FSF cannot play them."""
    if variant == "kokesu":
        promo = rules.get("KokesuPromotion", "captured")
        stalemate = "-stalemateloss" if rules.get("KokesuStalemate") == "loss" else ""
        return "kokesu-" + promo + stalemate, 0
    if variant == "shogi66":
        return "shogi66", 12
    if variant == "numbershogi":
        if " ".join(rules.get("NumberShogiPieceMoves", DEFAULT_TABLE).split()) != DEFAULT_TABLE:
            sys.exit("Fairy-Stockfish plays Number Shogi with the default direction table only")
        off = rules.get("NumberShogiPromotion", "on") == "off"
        return ("numbershogi-nopromo" if off else "numbershogi"), 12
    sys.exit("Fairy-Stockfish does not play %s: use another koma build as B" % variant)


def load_pyffish():
    """pyffish with koma's variants defined (once), or None when it is not installed."""
    if sf is not None and "shogi66" not in sf.variants():
        with open(VARIANTS_INI) as f:
            sf.load_variant_config(f.read())
    return sf


def start_fsf(path, fsf_variant, options=(), name="fsf", timeout=30):
    """A Fairy-Stockfish process after `uci`, the variant file, `UCI_Variant`, each (N, V)
    of `options`, and `isready`."""
    return start_uci(path, [("VariantPath", VARIANTS_INI), ("UCI_Variant", fsf_variant)] + list(options), name, timeout)


def search_score(e, timeout=60):
    """The last `score` of a UCI engine's search, up to its `bestmove`: ("cp", N) or
    ("mate", N), or None."""
    score = None
    for reply in e.until("bestmove", timeout=timeout):
        w = reply.split()
        if w[:1] == ["info"] and "score" in w:
            j = w.index("score")
            score = (w[j + 1], int(w[j + 2]))
    return score


def to_fsf(token, files, ranks):
    """A koma token as FSF's UCI move."""

    def sq(s):
        return "%s%d" % (chr(ord("a") + files - int(s[0])), ranks - (ord(s[1]) - ord("a")))

    if "*" in token:
        return token[0] + "@" + sq(token[2:4])
    return sq(token[0:2]) + sq(token[2:4]) + token[4:]


def from_fsf(move, files, ranks):
    """FSF's UCI move as a koma token (the inverse of to_fsf)."""

    def sq(s):
        return "%d%s" % (files - (ord(s[0]) - ord("a")), chr(ord("a") + ranks - int(s[1:])))

    if "@" in move:
        piece, to = move.split("@")
        return piece.upper() + "*" + sq(to)
    i = 1
    while move[i].isdigit():
        i += 1
    j = i + 1
    while j < len(move) and move[j].isdigit():
        j += 1
    return sq(move[:i]) + sq(move[i:j]) + move[j:]


def sfen_to_fen(sfen):
    """koma SFEN -> FSF FEN: the same board text, the hand spelt out in brackets, sente
    (`b`, uppercase, first to move) is FSF's white."""
    f = sfen.split()
    hand, n = "", ""
    for ch in f[2] if len(f) > 2 else "-":
        if ch == "-":
            continue
        if ch.isdigit():
            n += ch
        else:
            hand += ch * (int(n) if n else 1)
            n = ""
    return "%s[%s] %s - - 0 1" % (f[0], hand, "w" if f[1] == "b" else "b")


def fen_of(variant, sfen):
    """A koma SFEN as FSF's FEN: kokesu has no hands (and no brackets), the shogi games'
    hands go in brackets."""
    if variant == "kokesu":
        f = sfen.split()
        return "%s %s - - 0 1" % (f[0], "w" if f[1] == "b" else "b")
    return sfen_to_fen(sfen)


class FsfPlayer:
    def __init__(self, path, args, name, timeout, referee):
        self.path, self.name, self.timeout, self.referee = path, name, timeout, referee
        self.variant = args.variant
        self.files, self.ranks = SQUARES[args.variant] if args.variant in SQUARES else (0, 0)
        self.fsf_variant, self.base = variant_setup(args.variant, args.rule_options)
        load_pyffish()
        self.options = [("Threads", "1"), ("Hash", str(args.hash)), ("Move Overhead", str(args.move_overhead))] + [
            tuple(o.split("=", 1)) for o in args.fsf_option
        ]
        self.go = args.go_b or args.go
        self.e = None
        self.fen = None
        self.warned = False

    def new_game(self, opening):
        self.e = running(self.e, lambda: start_fsf(self.path, self.fsf_variant, self.options, self.name))
        self.e.new_game("ucinewgame", self.timeout)
        self.fen = None
        if self.base:
            if len(opening) < self.base:
                sys.exit("Fairy-Stockfish starts after the placement: the opening must hold it")
            self.fen = sfen_to_fen(self.referee.sfen(opening[: self.base]))
            if sf is not None and sf.validate_fen(self.fen, self.fsf_variant) != sf.FEN_OK:
                sys.exit("pyffish rejects the position after the placement: " + self.fen)
        self.warned = False

    def best(self, moves, legal, clock=None):
        """`clock`: (first player's ms, second player's ms, increment ms); in UCI the first
        player is white."""
        conv = [to_fsf(m, self.files, self.ranks) for m in moves[self.base :]]
        root = "position fen " + self.fen if self.fen else "position startpos"
        self.e.send(root + (" moves " + " ".join(conv) if conv else ""))
        search = [to_fsf(m, self.files, self.ranks) for m in legal]
        if sf is not None and not self.warned:
            fen = self.fen or sf.start_fen(self.fsf_variant)
            unknown = set(search) - set(sf.legal_moves(self.fsf_variant, fen, conv))
            if unknown:
                print(
                    "  note: Fairy-Stockfish does not know koma's legal %s after %s"
                    % (" ".join(sorted(unknown)), " ".join(moves)),
                    flush=True,
                )
                self.warned = True
        go = self.go
        if clock:
            go = "wtime %d btime %d winc %d binc %d" % (clock[0], clock[1], clock[2], clock[2])
        self.e.send("go %s searchmoves %s" % (go, " ".join(search)))
        lines = self.e.until("bestmove", timeout=self.timeout)
        self.reported_ms = reported_ms(lines)
        move = lines[-1].split()[1]
        if move == "(none)":
            return move
        return from_fsf(move, self.files, self.ranks)

    def kill(self):
        if self.e is not None:
            self.e.close(timeout=1)
        self.e = None

    close = kill
