#!/usr/bin/env python3
"""Recomputes the figures of fixtures/perft/shogi66.perft independently of koma.

Play positions are counted by pyffish (Fairy-Stockfish), with 66 shogi defined in
tools/data/fsf_variants.ini as a variant derived from its built-in `shogi`. Fairy-Stockfish has no placement phase, so
placement plies are enumerated here by a small independent implementation of the
placement rules (rules.md §1: one reserve piece per ply onto an empty square of one's own
camp; placing R boxes B and vice versa); once both reserves are empty the position is
handed to pyffish for the remaining plies.

Usage: tests/reference/shogi66_pyffish.py [fixture] [--max-nodes N] [--jobs N]
       tests/reference/shogi66_pyffish.py --divide SFEN DEPTH
Figures up to --max-nodes (default 20000, about two minutes) are counted with pyffish,
except depth >= 4 play-phase figures, which are counted by the Fairy-Stockfish binary
(`--fsf PATH`, default /usr/games/fairy-stockfish when installed, `--no-fsf` to skip):
Fairy-Stockfish 11.1 as Debian ships it, `go perft`, one thread. It also accepts some
pawn-drop mates; such a drop has no children, so it inflates only the last ply, and the
suite holds only deep figures on which it agrees. Everything else above the cap is
skipped. Timings on a loaded 2-core machine: default about 2 minutes, `--max-nodes 200000`
about 4, the whole suite with pyffish alone (`--max-nodes 3000000
--no-fsf`) about 20, on one core; the figures are counted on every core (`--jobs N` to
choose how many processes). Exits non-zero on any mismatch. Needs pyffish 0.0.90
(pyproject.toml; the README's test command installs it in .venv).
"""

import multiprocessing
import os
import sys

try:
    import pyffish as sf
except ImportError:  # pragma: no cover
    sys.exit(
        "pyffish is not installed: run `python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'`"
        " and use .venv/bin/python"
    )

VARIANT = "shogi66"
# 66 shogi as Fairy-Stockfish sees it (section [shogi66:shogi] of the file): shogi's
# pieces and drop rules (nifu = dropNoDoubled p, uchifuzume = shogiPawnDropMateIllegal,
# no dead pieces = immobilityIllegal, all inherited from `shogi`) on a 6x6 board with a
# 2-rank zone. The one copy of the definitions, shared with tools/lib/fsf.py.
VARIANTS_INI = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "data", "fsf_variants.ini")


def variants_ini():
    with open(VARIANTS_INI) as f:
        return f.read()


def ini_fsf11():
    """The same variant for the Fairy-Stockfish 11.1 binary (Debian package
    fairy-stockfish), whose variant files name the zone by its first rank: the shared
    section with `promotionRegion*` replaced by `promotionRank = 5`."""
    section = variants_ini().split("[shogi66:shogi]", 1)[1].split("\n[", 1)[0]
    lines = [line for line in section.splitlines() if line.strip() and not line.startswith(("#", "promotionRegion"))]
    return "\n".join(["[shogi66:shogi]"] + lines + ["promotionRank = 5", ""])


ORDER = "KRBGSNLP"


def load_variant():
    sf.load_variant_config(variants_ini())
    if VARIANT not in sf.variants():
        sys.exit("could not define shogi66 in pyffish")


def ensure_variant():
    """Defines the variant in a process that does not have it yet (a pool worker)."""
    if VARIANT not in sf.variants():
        load_variant()


# ---------------------------------------------------------------- SFEN and placement


def parse_sfen(sfen):
    """-> (grid[6][6] of piece strings or '', side 'b'|'w', hands {0: {}, 1: {}}, ply)."""
    f = sfen.split()
    rows = f[0].split("/")
    grid = []
    for row in rows:
        cells = []
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                cells += [""] * int(ch)
            elif ch == "+":
                cells.append("+" + row[i + 1])
                i += 1
            else:
                cells.append(ch)
            i += 1
        assert len(cells) == 6, sfen
        grid.append(cells)
    hands = {0: {}, 1: {}}
    if f[2] != "-":
        n = ""
        for ch in f[2]:
            if ch.isdigit():
                n += ch
                continue
            c = 0 if ch.isupper() else 1
            hands[c][ch.upper()] = hands[c].get(ch.upper(), 0) + (int(n) if n else 1)
            n = ""
    ply = int(f[3]) if len(f) > 3 else 1
    return grid, f[1], hands, ply


def owner(p):
    return 0 if p.lstrip("+").isupper() else 1


def in_placement(grid, side, hands, ply):
    """The five conditions of rules.md §0."""
    if ply > 12:
        return False
    if not any(hands[0].values()) and not any(hands[1].values()):
        return False
    placed = [0, 0]
    for c in (0, 1):
        camp = (4, 5) if c == 0 else (0, 1)
        pawn_rank = 4 if c == 0 else 1
        board = {}
        for r in range(6):
            for x in range(6):
                p = grid[r][x]
                if not p or owner(p) != c:
                    continue
                if p.startswith("+") or r not in camp:
                    return False
                k = p.upper()
                if k == "P" and r != pawn_rank:
                    return False
                if k != "P":
                    placed[c] += 1
                board[k] = board.get(k, 0) + 1
        if board.get("P", 0) != 6 or hands[c].get("P", 0):
            return False
        tot = {k: board.get(k, 0) + hands[c].get(k, 0) for k in "KGSNLRB"}
        if any(tot[k] != 1 for k in "KGSNL"):
            return False
        if board.get("R"):
            ok = tot["R"] == 1 and tot["B"] == 0
        elif board.get("B"):
            ok = tot["B"] == 1 and tot["R"] == 0
        else:
            ok = tot["R"] == 1 and tot["B"] == 1
        if not ok:
            return False
    return placed[0] == placed[1] if side == "b" else placed[0] == placed[1] + 1


def placement_children(grid, side, hands):
    """Every placement drop: (token, child grid, child hands)."""
    c = 0 if side == "b" else 1
    camp = (4, 5) if c == 0 else (0, 1)
    out = []
    for k in ORDER:
        if not hands[c].get(k):
            continue
        for r in camp:
            for x in range(6):
                if grid[r][x]:
                    continue
                g = [row[:] for row in grid]
                g[r][x] = k if c == 0 else k.lower()
                h = {0: dict(hands[0]), 1: dict(hands[1])}
                h[c][k] -= 1
                if k == "R":
                    h[c]["B"] = 0
                if k == "B":
                    h[c]["R"] = 0
                token = "%s*%d%s" % (k, 6 - x, "abcdef"[r])
                out.append((token, g, h))
    return out


def to_fen(grid, side, hands):
    rows = []
    for row in grid:
        s, e = "", 0
        for p in row:
            if not p:
                e += 1
                continue
            if e:
                s += str(e)
                e = 0
            s += p
        if e:
            s += str(e)
        rows.append(s)
    hand = "".join(k * hands[0].get(k, 0) for k in ORDER) + "".join(k.lower() * hands[1].get(k, 0) for k in ORDER)
    # Fairy-Stockfish: the first player (sente, uppercase) is "w".
    return "%s[%s] %s 0 1" % ("/".join(rows), hand, "w" if side == "b" else "b")


# ---------------------------------------------------------------- perft


def ff_moves(fen, prefix=()):
    """pyffish's legal moves after the moves `prefix` from `fen`, less the pawn drops
    that mate.

    pyffish 0.0.90 lets through some pawn drops after which, by its own move generator,
    the opponent has no legal move (its game_result calls them mate), e.g. a pawn guarded
    only by the dropping side's king. Such drops are removed here using pyffish itself.
    """
    pre = list(prefix)
    moves = sf.legal_moves(VARIANT, fen, pre)
    return [
        m
        for m in moves
        if not (
            m.startswith("P@")
            and sf.gives_check(VARIANT, fen, pre + [m])
            and not sf.legal_moves(VARIANT, fen, pre + [m])
        )
    ]


def ff_perft(fen, depth):
    if depth == 0:
        return 1
    moves = ff_moves(fen)
    if depth == 1:
        return len(moves)
    if depth == 2:
        # One pyffish call per child instead of two (each call costs about a millisecond).
        return sum(len(ff_moves(fen, [m])) for m in moves)
    return sum(ff_perft(sf.get_fen(VARIANT, fen, [m]), depth - 1) for m in moves)


def perft(grid, side, hands, ply, depth):
    if depth == 0:
        return 1
    if in_placement(grid, side, hands, ply):
        kids = placement_children(grid, side, hands)
        if depth == 1:
            return len(kids)
        nxt = "w" if side == "b" else "b"
        return sum(perft(g, nxt, h, ply + 1, depth - 1) for _, g, h in kids)
    return ff_perft(to_fen(grid, side, hands), depth)


def fsf_perft(binary, fen, depth):
    """`go perft` of a Fairy-Stockfish binary (one thread) on a play-phase FEN."""
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
        f.write(ini_fsf11())
        path = f.name
    try:
        cmd = (
            "setoption name VariantPath value %s\nsetoption name UCI_Variant value %s\n"
            "position fen %s\ngo perft %d\nquit\n" % (path, VARIANT, fen, depth)
        )
        out = subprocess.run([binary], input=cmd, capture_output=True, text=True, timeout=3600).stdout
    finally:
        os.unlink(path)
    for line in out.splitlines():
        if line.startswith("Nodes searched:"):
            return int(line.split(":")[1])
    raise RuntimeError("no perft result from %s" % binary)


def ff_token(m):
    """A Fairy-Stockfish move (a1 = 6f) as a koma token."""

    def sq(s):
        return "%d%s" % (6 - (ord(s[0]) - ord("a")), "abcdef"[6 - int(s[1:])])

    if "@" in m:
        return m[0].upper() + "*" + sq(m[2:4])
    promo = "+" if m.endswith("+") else ""
    return sq(m[0:2]) + sq(m[2:4]) + promo


def divide(sfen, depth):
    grid, side, hands, ply = parse_sfen(sfen)
    if in_placement(grid, side, hands, ply):
        nxt = "w" if side == "b" else "b"
        rows = [(t, perft(g, nxt, h, ply + 1, depth - 1)) for t, g, h in placement_children(grid, side, hands)]
    else:
        fen = to_fen(grid, side, hands)
        rows = [(ff_token(m), ff_perft(sf.get_fen(VARIANT, fen, [m]), depth - 1)) for m in ff_moves(fen)]
    for t, n in sorted(rows):
        print("%s: %d" % (t, n))
    print("total", sum(n for _, n in rows))


def read_suite(path):
    cases, cur = [], {}
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        if line.startswith("#"):
            continue
        if not line:
            if cur:
                cases.append(cur)
            cur = {}
            continue
        key, _, rest = line.partition(" ")
        if key == "perft":
            d, n = rest.split()
            cur.setdefault("perft", []).append((int(d), int(n)))
        else:
            cur[key] = rest.strip()
    if cur:
        cases.append(cur)
    return cases


def count(job):
    """The perft figure of one fixture line, with pyffish or, for `deep` lines, the binary."""
    _, (grid, side, hands, ply), depth, _, binary = job
    if binary:
        return fsf_perft(binary, to_fen(grid, side, hands), depth)
    return perft(grid, side, hands, ply, depth)


def main():
    args = sys.argv[1:]
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "fixtures", "perft", "shogi66.perft")
    max_nodes = 20_000
    processes = os.cpu_count() or 1
    fsf = "/usr/games/fairy-stockfish" if os.path.exists("/usr/games/fairy-stockfish") else None
    load_variant()
    if args and args[0] == "--divide":
        divide(args[1], int(args[2]))
        return 0
    while args:
        a = args.pop(0)
        if a == "--max-nodes":
            max_nodes = int(args.pop(0))
        elif a == "--fsf":
            fsf = args.pop(0)
        elif a == "--no-fsf":
            fsf = None
        elif a == "--jobs":
            processes = max(1, int(args.pop(0)))
        else:
            path = a
    jobs = []
    bad = 0
    for case in read_suite(path):
        grid, side, hands, ply = parse_sfen(case["sfen"])
        if not in_placement(grid, side, hands, ply):
            fen = to_fen(grid, side, hands)
            if sf.validate_fen(fen, VARIANT) != sf.FEN_OK:
                print("%s: pyffish rejects %s" % (case["id"], fen))
                bad += 1
                continue
        play = not in_placement(grid, side, hands, ply)
        for depth, want in case.get("perft", []):
            # The binary only for depth >= 4: its pawn-drop-mate defect shows only on the last
            # ply (a drop that mates leaves no children), and the depth-4 lines were kept
            # where it agrees.
            deep = bool(fsf and play and depth >= 4)
            if want > max_nodes and not deep:
                continue
            jobs.append((case["id"], (grid, side, hands, ply), depth, want, fsf if deep else None))
    # The figures are independent: count them on every core, and print them in the fixture's
    # order. Each worker defines the variant itself, whatever the start method (fork, or
    # forkserver, the default from Python 3.14).
    checked = 0
    with multiprocessing.Pool(processes, initializer=ensure_variant) as pool:
        for (name, _, depth, want, _), got in zip(jobs, pool.imap(count, jobs)):
            checked += 1
            status = "ok" if got == want else "MISMATCH"
            if got != want:
                bad += 1
            print("%-32s perft %d = %d (fixture %d) %s" % (name, depth, got, want, status), flush=True)
    print("%d figures checked, %d mismatches" % (checked, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
