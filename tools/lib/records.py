"""Kokesu's training records as `koma nnue-data` writes them and `koma nnue-train` reads
them (src/train/records.rs, data format version 1): a 16-byte header, then 32-byte
records of the board, the side to move, the game's result, a score and the ply."""

import struct

HEADER = b"KOMADATA" + struct.pack("<II", 1, 32)
RECORD = 32
KINDS = "pnbrqk"


def squares_of(rec):
    """The 64 squares (piece code or None) of a 32-byte record."""
    occupancy = int.from_bytes(rec[:8], "little")
    squares = [None] * 64
    n = 0
    for sq in range(64):
        if occupancy >> sq & 1:
            squares[sq] = (rec[8 + n // 2] >> (4 * (n % 2))) & 15
            n += 1
    return squares


def fen_of_record(rec):
    """The FEN (white = sente, uppercase) of a record's position."""
    squares = squares_of(rec)
    ranks = []
    for rank in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            p = squares[rank * 8 + file]
            if p is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            letter = KINDS[p % 6]
            text += letter.upper() if p < 6 else letter
        ranks.append(text + (str(empty) if empty else ""))
    return "%s %s - - 0 1" % ("/".join(ranks), "w" if rec[24] == 0 else "b")


def with_score(rec, score):
    """The record with its score replaced (saturated to 16 bits)."""
    score = max(-32768, min(32767, score))
    return rec[:26] + struct.pack("<h", score) + rec[28:]


def record_of(fen, result, score, ply):
    """The record of a FEN's position: `result` for the side to move (0 loss, 1 draw, 2
    win), `score` centipawns (the side to move's view; saturated to 16 bits), `ply` its
    ply in the game (saturated)."""
    board, side = fen.split()[:2]
    codes = {}
    for i, row in enumerate(board.split("/")):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            codes[(7 - i) * 8 + file] = KINDS.index(ch.lower()) + (0 if ch.isupper() else 6)
            file += 1
    occupancy, nibbles = 0, bytearray(16)
    for n, sq in enumerate(sorted(codes)):
        occupancy |= 1 << sq
        nibbles[n // 2] |= codes[sq] << (4 * (n % 2))
    return with_score(
        struct.pack("<Q", occupancy)
        + bytes(nibbles)
        + bytes([0 if side == "w" else 1, result])
        + bytes(2)
        + struct.pack("<H", min(ply, 65535))
        + bytes(2),
        score,
    )
