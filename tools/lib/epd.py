"""Chess EPD test suites as Kokesu positions (tools/knowledge.py reads them through this).

An EPD line is a FEN's first four fields (board, side, castling, en passant) and then
operations `opcode operand...;`. Scored suites such as the Strategic Test Suite (STS) give
every good move its points: `c9` the moves in UCI, `c8` their points, in the same order.
Other suites give `bm` (the best moves, in SAN) and maybe `c0 "Nf3=10, e4=5"`; those are
read through pyffish (pyproject.toml), which writes each legal move's
SAN in the position, so no SAN parser of ours is needed.

Kokesu is chess without castling and en passant: each position loses its castling rights
and en-passant square, a scored move that needs either is dropped, and a position whose
best move (the most points) needs one is left out, with that reason.
"""

import re

# A trailing `.NNN` (or ` NNN`) of an `id` numbers the position within its theme.
THEME_NUMBER = re.compile(r"[ .]\d+$")


class Position:
    """One usable position: `fen` (castling and en passant stripped), `theme`, `id`,
    `points` {UCI move: points}, `best` (the most points)."""

    def __init__(self, fen, theme, ident, points):
        self.fen, self.theme, self.id, self.points = fen, theme, ident, points
        self.best = max(points.values())

    def score(self, move):
        return self.points.get(move, 0)


def operations(text):
    """{opcode: [operands]} of an EPD line's operations (quoted operands keep their spaces
    and semicolons)."""
    ops = {}
    for m in re.finditer(r'\s*([A-Za-z][A-Za-z0-9_]*)((?:\s+(?:"[^"]*"|[^";\s]+))*)\s*;', text):
        ops[m.group(1)] = [a.strip('"') for a in re.findall(r'"[^"]*"|[^"\s]+', m.group(2))]
    return ops


def board_of(field):
    """{square 'e4': piece letter} of a FEN board field."""
    board = {}
    for i, row in enumerate(field.split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board["%s%d" % ("abcdefgh"[f], 8 - i)] = ch
                f += 1
    return board


def needs_castling_or_ep(board, move):
    """A UCI move that only castling (the king two files across) or an en-passant capture
    (a pawn moving aside onto an empty square) can make."""
    piece = board.get(move[:2], ".")
    if piece in "Kk" and abs(ord(move[0]) - ord(move[2])) == 2:
        return True
    return piece in "Pp" and move[0] != move[2] and move[2:4] not in board


def san_key(san):
    """A SAN move without check marks and annotations, for comparing `bm` with pyffish's."""
    return san.rstrip("+#!?")


class SanReader:
    """SAN -> UCI in a Kokesu position, by pyffish's SAN of every legal move there."""

    VARIANT = "kokesu-free"

    def __init__(self):
        from tools.lib import fsf  # pyffish only where a suite needs SAN

        self.sf = fsf.load_pyffish()

    def table(self, fen):
        if self.sf is None:
            raise LookupError("its moves are SAN only, and pyffish (pyproject.toml) is not installed")
        return {san_key(self.sf.get_san(self.VARIANT, fen, m)): m for m in self.sf.legal_moves(self.VARIANT, fen, [])}


def scored_moves(ops, fen, san):
    """{UCI move: points} of a position's operations, before Kokesu's rules drop any:
    `c9`/`c8` when given, else `c0`'s `SAN=points` and `bm` (10 points, STS's scale) read
    through `san` (a SanReader, or None). LookupError: nothing to score, or unreadable."""
    if "c9" in ops and "c8" in ops:
        # Each a list in one quoted operand, or in several.
        moves, pts = " ".join(ops["c9"]).split(), " ".join(ops["c8"]).split()
        if len(moves) != len(pts) or not all(p.lstrip("-").isdigit() for p in pts):
            raise LookupError("c8 is not a number for each move of c9")
        return {m: int(p) for m, p in zip(moves, pts)}
    if "bm" not in ops:
        raise LookupError("no bm, nor c8/c9 points")
    table = (san or SanReader()).table(fen)
    points = {}
    for item in " ".join(ops.get("c0", [])).split(","):
        if "=" in item:
            mv, p = item.split("=", 1)
            if san_key(mv.strip()) in table and p.strip().isdigit():
                points[table[san_key(mv.strip())]] = int(p)
    for mv in ops["bm"]:
        if san_key(mv) not in table:
            raise LookupError("best move %s is not a Kokesu move here" % mv)
        points[table[san_key(mv)]] = max(points.get(table[san_key(mv)], 0), 10)
    return points


def read_line(line, source, san=None):
    """(Position, None), or (None, why it is left out), or (None, None) for a blank line or
    a comment."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None, None
    fields = line.split(None, 4)
    if len(fields) < 4 or fields[1] not in ("w", "b"):
        return None, "not an EPD line"
    board_field, side, castling, ep = fields[:4]
    ops = operations(fields[4] if len(fields) > 4 else "")
    ident = (ops.get("id") or [source])[0]
    theme = THEME_NUMBER.sub("", ident) or source
    fen = "%s %s - - 0 1" % (board_field, side)
    try:
        points = scored_moves(ops, fen, san)
    except LookupError as e:
        return None, str(e)
    if not points or max(points.values()) <= 0:
        return None, "no move scores a point"
    board = board_of(board_field)
    best = max(points.values())
    if any(needs_castling_or_ep(board, m) for m, p in points.items() if p == best):
        return None, "best move needs castling or en passant"
    kept = {m: p for m, p in points.items() if not needs_castling_or_ep(board, m)}
    return Position(fen, theme, ident, kept), None


def read_suite(paths, san=None):
    """(positions, {reason: count} of the lines left out) of the EPD files `paths`. A
    position's theme is its `id` less the number; ids that begin with the same word share
    the first such theme."""
    positions, dropped, labels = [], {}, {}
    for path in paths:
        with open(path) as f:
            for line in f:
                pos, why = read_line(line, path, san)
                if pos is not None:
                    # One theme a first word (STS's ids spell one theme's name two ways).
                    pos.theme = labels.setdefault(pos.theme.split()[0], pos.theme)
                    positions.append(pos)
                elif why:
                    dropped[why] = dropped.get(why, 0) + 1
    return positions, dropped
