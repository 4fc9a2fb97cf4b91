#!/usr/bin/env python3
"""Recomputes the Number Shogi perft fixture with Fairy-Stockfish (pyffish).

Usage: python3 tests/reference/numbershogi_pyffish.py [fixtures/perft/numbershogi.perft] [--max-nodes N]
       python3 tests/reference/numbershogi_pyffish.py --divide "<sfen>" DEPTH

Fairy-Stockfish plays the pieces (custom Betza pieces), drops, captures to hand and the
optional promotion on a move that starts or ends on the far rank. What it cannot express
is done here, in Python, around its move lists:
  * the sum-of-7 win: after each capture the captor's hand is read from the FEN and a
    position whose hand holds a subset summing to exactly 7 is not expanded (a leaf);
  * the placement phase: positions in rules.md section 0's placement phase are played in a
    second variant (`numbershogi-setup`) with mustDrop and drops confined to the mover's
    camp; the walk leaves it when both hands are empty.
Only the default direction table is expressible symmetrically for both sides (FSF mirrors
black's pieces top-bottom, we turn them half round; the two agree for left-right symmetric
tables, which every table in the fixture is). NumberShogiPromotion=off uses a third variant
with empty promotion regions (an "8" already on the board keeps its moves).

Exits 1 if any figure differs, 0 otherwise.
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
with open(VARIANTS_INI) as f:
    sf.load_variant_config(f.read())

VALUE = {ch: i + 1 for i, ch in enumerate("abcdef")}
VALUE.update({ch: i + 1 for i, ch in enumerate("ghijkl")})  # a promoted type, should it reach a hand


def sfen_to_fen(sfen):
    f = sfen.split()
    board, side, hand = f[0], f[1], f[2]
    h = ""
    if hand != "-":
        n = ""
        for ch in hand:
            if ch.isdigit():
                n += ch
            else:
                h += ch * (int(n) if n else 1)
                n = ""
    return f"{board}[{h}] {'w' if side == 'b' else 'b'} - - 0 1"


def parse_fen(fen):
    """(board cells list of (color, value, promoted) or None, hands[2][7], side index)."""
    board_part, rest = fen.split("[", 1)
    hand_part, rest = rest.split("]", 1)
    side = 0 if rest.split()[0] == "w" else 1
    hands = [[0] * 7, [0] * 7]
    for ch in hand_part:
        hands[0 if ch.isupper() else 1][VALUE[ch.lower()]] += 1
    cells = []
    for row in board_part.split("/"):
        prom = False
        for ch in row:
            if ch.isdigit():
                cells += [None] * int(ch)
            elif ch == "+":
                prom = True
            else:
                cells.append((0 if ch.isupper() else 1, VALUE[ch.lower()], prom))
                prom = False
    return cells, hands, side


def sums7(hand):
    reach = {0}
    for v in range(1, 7):
        for _ in range(hand[v]):
            reach |= {s + v for s in reach if s + v <= 7}
    return 7 in reach


def placement(cells, hands, side, ply):
    """rules.md section 0, the five conditions."""
    if ply > 12 or not any(any(h) for h in hands):
        return False
    placed = [0, 0]
    counts = [[0] * 7, [0] * 7]
    for sq, c in enumerate(cells):
        if c is None:
            continue
        color, v, prom = c
        row = sq // 3
        camp = row >= 3 if color == 0 else row <= 1
        if prom or not camp:
            return False
        placed[color] += 1
        counts[color][v] += 1
    for color in range(2):
        for v in range(1, 7):
            if counts[color][v] + hands[color][v] != 1:
                return False
    return placed[0] == placed[1] if side == 0 else placed[0] == placed[1] + 1


def to_token(m):
    def sq(s):
        return f"{3 - (ord(s[0]) - ord('a'))}{chr(ord('a') + 5 - int(s[1:]))}"

    if "@" in m:
        p, s = m.split("@")
        return f"{p.upper()}*{sq(s)}"
    promo = m.endswith("+")
    m = m.rstrip("+")
    return sq(m[:2]) + sq(m[2:4]) + ("+" if promo else "")


def square_index(s):
    """A Fairy-Stockfish square (a1 = bottom left) as an index of parse_fen's cells."""
    return (5 - int(s[1:])) * 3 + (ord(s[0]) - ord("a"))


class Walker:
    """perft over pyffish's move lists, with this game's own rules layered on top."""

    def __init__(self, promotion=True):
        self.play_variant = "numbershogi" if promotion else "numbershogi-nopromo"
        self.calls = 0
        # Transpositions (placement orders commute) are counted once: subtree figures
        # keyed by the FEN without its move counters, the phase and the depth.
        self.memo = {}

    def variant(self, placing):
        return "numbershogi-setup" if placing else self.play_variant

    def child_state(self, cells, hands, side, placing, ply, m):
        """(the capture won, the child is in the placement phase) after move m."""
        hands = [list(hands[0]), list(hands[1])]
        if "@" in m:
            hands[side][VALUE[m[0].lower()]] -= 1
            child_placing = placing and ply + 1 <= 12 and any(any(h) for h in hands)
            if placing and not child_placing:
                # leaving the phase with pieces still in hand (an SFEN whose ply ran ahead)
                return sums7(hands[side]) or sums7(hands[1 - side]), False
            return False, child_placing
        to = square_index(m.rstrip("+")[2:])
        captured = cells[to]
        if captured is not None and captured[0] != side:
            hands[side][captured[1]] += 1  # face up: a captured "8" counts by its face
            return sums7(hands[side]), False
        return False, False

    def perft(self, fen, placing, depth, ply=1):
        if depth == 0:
            return 1
        key = (fen.rsplit(" ", 2)[0], placing, depth)
        if key in self.memo:
            return self.memo[key]
        variant = self.variant(placing)
        self.calls += 1
        moves = sf.legal_moves(variant, fen, [])
        if depth == 1:
            total = len(moves)
        else:
            cells, hands, side = parse_fen(fen)
            total = 0
            for m in moves:
                won, child_placing = self.child_state(cells, hands, side, placing, ply, m)
                if won:
                    continue  # a finished position has no children (depth - 1 >= 1)
                if depth == 2:
                    # leaves of the child: one call, without reading the child's FEN
                    self.calls += 1
                    total += len(sf.legal_moves(self.variant(child_placing), fen, [m]))
                else:
                    child = sf.get_fen(variant, fen, [m])
                    total += self.perft(child, child_placing, depth - 1, ply + 1)
        self.memo[key] = total
        return total

    def divide(self, fen, placing, depth, ply=1):
        cells, hands, side = parse_fen(fen)
        variant = self.variant(placing)
        out = []
        for m in sf.legal_moves(variant, fen, []):
            won, child_placing = self.child_state(cells, hands, side, placing, ply, m)
            if won:
                n = 1 if depth == 1 else 0
            else:
                n = self.perft(sf.get_fen(variant, fen, [m]), child_placing, depth - 1, ply + 1)
            out.append((to_token(m), n))
        return sorted(out)


def root(sfen):
    f = sfen.split()
    ply = int(f[3]) if len(f) > 3 else 1
    fen = sfen_to_fen(sfen)
    cells, hands, side = parse_fen(fen)
    placing = placement(cells, hands, side, ply)
    over = (not placing) and (sums7(hands[0]) or sums7(hands[1]))
    return fen, placing, over, ply


def check_options(opts):
    promotion = True
    for k, v in opts:
        if k == "NumberShogiPromotion":
            promotion = v == "on"
        elif k == "NumberShogiPieceMoves":
            if v.split() != "1:N 2:NW,NE 3:N,NW,NE 4:NW,NE,SW,SE 5:N,NW,NE,SW,SE 6:N,NW,NE,W,E,S".split():
                return None
        else:
            return None
    return promotion


def parse_suite(path):
    cases, cur = [], None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                cases.append(cur)
            cur = None
            continue
        key, _, rest = line.partition(" ")
        cur = cur or {"id": "", "sfen": "", "options": [], "perft": []}
        if key == "id":
            cur["id"] = rest
        elif key == "sfen":
            cur["sfen"] = rest.strip()
        elif key == "option":
            k, _, v = rest.partition("=")
            cur["options"].append((k.strip(), v.strip()))
        elif key == "perft":
            d, n = rest.split()
            cur["perft"].append((int(d), int(n)))
    if cur:
        cases.append(cur)
    return cases


def main(argv):
    if len(argv) >= 2 and argv[1] == "--divide":
        sfen, depth = argv[2], int(argv[3])
        fen, placing, over, ply = root(sfen)
        if over:
            print("game over")
            return 0
        total = 0
        for token, n in Walker().divide(fen, placing, depth, ply):
            total += n
            print(token, n)
        print("total", total)
        return 0
    path = "fixtures/perft/numbershogi.perft"
    limit = None
    args = argv[1:]
    for flag in ("--max-nodes", "--max"):
        if flag in args:
            i = args.index(flag)
            limit = int(args[i + 1])
            del args[i : i + 2]
    if args:
        path = args[0]
    bad = 0
    checked = 0
    for case in parse_suite(path):
        promotion = check_options(case["options"])
        if promotion is None:
            print(f"skip {case['id']}: options not expressible in Fairy-Stockfish")
            continue
        fen, placing, over, ply = root(case["sfen"])
        w = Walker(promotion)
        for depth, want in case["perft"]:
            if limit is not None and want > limit:
                continue
            t = time.time()
            got = 0 if over else w.perft(fen, placing, depth, ply)
            dt = time.time() - t
            checked += 1
            status = "ok" if got == want else "MISMATCH"
            if got != want:
                bad += 1
            print(f"{status} {case['id']} perft {depth}: pyffish {got}, fixture {want} ({dt:.2f}s)")
    print(f"{checked} figures checked, {bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
