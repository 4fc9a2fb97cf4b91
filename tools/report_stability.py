"""How stable the game report's marks are (issue 56): each game is reported by `koma analyse
--game` at a limit and at a limit 4x as deep (nodes), and the moves marked by either are
compared: the share that both mark (whatever the mark), the share with the same mark, and
any book move marked (there must be none). Games: the shipped RokuRokuGUI game and
koma-against-koma 66-shogi games at fixed nodes (game k: sente searches 5000 + 997k
nodes a move, gote 5000 + 1499k, placement from koma's book; deterministic), written as
koma records into --games-dir (reused when there).

    python -m tools.report_stability --games 20 --nodes 40000 --koma target/release/koma

Node counts, not time: the figures are the same on a loaded machine as on an idle one.
"""

import argparse
import json
import os
import subprocess
import sys

from tools.lib.paths import DEFAULT_KOMA, ROOT

FIXTURE = os.path.join(ROOT, "fixtures", "records", "rokuroku_20261128_123456.txt")


def game_nodes(k):
    """Nodes a move for sente and gote in generated game k."""
    return 5000 + 997 * k, 5000 + 1499 * k


def play_game(k, max_plies=200):
    """Generated game k: its moves (koma against itself at game_nodes(k))."""
    import koma

    board = koma.Board("shogi66")
    engine = koma.Engine("shogi66")
    nodes = game_nodes(k)
    while not board.is_game_over() and len(board.move_stack) < max_plies:
        board.push(engine.play(board, nodes=nodes[len(board.move_stack) % 2]))
    return board.move_stack


def koma_record(moves):
    """A 66-shogi game as a koma record (protocol/records.md)."""
    return "# koma record\nvariant shogi66\nstart startpos\n" + "".join("move %s\n" % m for m in moves)


def marks(report_lines):
    """{ply: mark} of a report's output (JSON lines), and the plies of book moves marked."""
    marked, book_marked = {}, []
    for line in report_lines:
        m = json.loads(line)
        if "ply" not in m or "mark" not in m:
            continue
        marked[m["ply"]] = m["mark"]
        if m.get("book"):
            book_marked.append(m["ply"])
    return marked, book_marked


def compare(a, b):
    """Two {ply: mark}: (moves marked by either, marked by both, with the same mark)."""
    either = set(a) | set(b)
    both = set(a) & set(b)
    return len(either), len(both), sum(1 for p in both if a[p] == b[p])


def report(koma, path, nodes):
    out = subprocess.run(
        [koma, "analyse", "--game", path, "--nodes", str(nodes)], check=True, capture_output=True, text=True
    )
    return out.stdout.splitlines()


def percent(part, whole):
    return 100.0 * part / whole if whole else 100.0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="generated games (besides the shipped one)")
    ap.add_argument("--nodes", type=int, default=40000, help="the report's limit (the other is 4x)")
    ap.add_argument("--koma", default=DEFAULT_KOMA)
    ap.add_argument("--games-dir", default="/tmp/koma-report-games")
    args = ap.parse_args(argv)
    os.makedirs(args.games_dir, exist_ok=True)
    paths = [FIXTURE]
    for k in range(args.games):
        path = os.path.join(args.games_dir, "game%02d.koma" % k)
        if not os.path.exists(path):
            with open(path + ".part", "w") as f:
                f.write(koma_record(play_game(k)))
            os.replace(path + ".part", path)
        paths.append(path)
    totals = [0, 0, 0]
    all_book = []
    for path in paths:
        a, book_a = marks(report(args.koma, path, args.nodes))
        b, book_b = marks(report(args.koma, path, 4 * args.nodes))
        either, both, same = compare(a, b)
        totals = [t + x for t, x in zip(totals, (either, both, same))]
        all_book += ["%s:%d" % (os.path.basename(path), p) for p in book_a + book_b]
        print(
            "%-32s marked %2d / %2d, by either %2d, by both %2d (%.0f%%), same mark %2d"
            % (os.path.basename(path), len(a), len(b), either, both, percent(both, either), same),
            flush=True,
        )
    either, both, same = totals
    print(
        "all %d games, nodes %d against %d: marked by either %d, by both %d (%.1f%%), with the same mark %d (%.1f%%);"
        " book moves marked: %s"
        % (
            len(paths),
            args.nodes,
            4 * args.nodes,
            either,
            both,
            percent(both, either),
            same,
            percent(same, either),
            ", ".join(all_book) or "none",
        )
    )
    return 0 if not all_book else 1


if __name__ == "__main__":
    sys.exit(main())
