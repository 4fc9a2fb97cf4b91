#!/usr/bin/env python3
"""Stockfish 15.1's Kokesu labels, quality against cost (issue 54): each label's Pearson r
against a deep search's scores of chess test-suite positions, and positions per CPU
second. koma's own scores are labels too, so the same table says what koma's evaluation
and search know against the same truth (issue 54's r table).

Usage:
  python3 -m tools.sf_label_quality [--stockfish /usr/games/stockfish] [--koma KOMA]
         [--truth depth:16] [--labels eval,depth:1,nodes:1000,nodes:5000] [--per-theme 40]
         [--hash 1] [--truth-hash 16] [--cache FILE] [--koma-net NET] SUITE.epd ...

A label is Stockfish's `eval`, `depth:N` or `nodes:N`, or koma's search: `koma-classic:depth:N`,
`koma-classic:nodes:N` (`KokesuEval classic`) and `koma-nnue:depth:N`, `koma-nnue:nodes:N`
(`KokesuEval nnue`, the net built in or --koma-net's), all with `KokesuPromotion free`, a
fresh table (`usinewgame`, 16 MiB) before every position and one thread.

The suite (tools/lib/epd.py: castling rights and en-passant squares stripped; the first
--per-theme positions of each theme) goes to Stockfish (tools/lib/stockfish.py) once a
label, one process a label, one thread, `ucinewgame` before every search, the root moves
koma's legal Kokesu moves with free promotion (`searchmoves`). A position counts where
every label and the truth give centipawns within +-3000 (no mate, not in check for
`eval`). The table: per label, those positions' r against the truth, the same on the
quiet ones among them (the truth's best move neither a capture nor a promotion, as the
data generator keeps), Stockfish's CPU seconds (the process's user and system time after
its start, in clock ticks: what a loaded machine changes least) and positions per CPU
second and per wall second for all the suite's positions. --cache keeps every label's
answers (a JSON file): a rerun with the same suite computes only the labels missing from
it. koma's labels are never cached (they change with the binary and the net; they are
cheap).
"""

import argparse
import json
import os
import sys
import time

from tools.lib import epd
from tools.lib.engine import start_koma
from tools.lib.fsf import to_fsf
from tools.lib.paths import DEFAULT_KOMA
from tools.lib.stockfish import (
    DEFAULT_STOCKFISH,
    INSTALL,
    KokesuMoves,
    is_capture_or_promotion,
    label,
    parse_label,
    searched,
    sfen_of_fen,
    start_stockfish,
)

KOMA_ENGINES = ("koma-classic", "koma-nnue")

BOUND = 3000


def pearson(xs, ys):
    """Pearson's correlation of two equal-length lists of numbers (nan below 3 pairs or with
    no spread)."""
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx > 0 and syy > 0 else float("nan")


def cpu_seconds(pid):
    """A running process's user and system CPU seconds (Linux's /proc)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def parse_any(text):
    """A label's engine and search: ("stockfish", how) for Stockfish's labels (parse_label),
    (engine, how) for `koma-classic:...` and `koma-nnue:...` with a `depth:N` or `nodes:N` after
    it; ValueError otherwise."""
    engine, _, rest = text.partition(":")
    if engine not in KOMA_ENGINES:
        return "stockfish", parse_label(text)
    how = parse_label(rest)
    if how[0] == "eval":
        raise ValueError("koma's labels are searches, depth:N or nodes:N, not %r" % text)
    return engine, how


def start_koma_scorer(koma, engine, net=None):
    """koma for Kokesu with free promotion, one thread, 16 MiB, the evaluation `engine` names
    (`koma-nnue` with --koma-net's net, if given)."""
    options = [("KokesuPromotion", "free"), ("Threads", "1"), ("USI_Hash", "16")]
    options.append(("KokesuEval", "nnue" if engine == "koma-nnue" else "classic"))
    if engine == "koma-nnue":
        if net:
            options.append(("KokesuNetFile", net))
    return start_koma(koma, "kokesu", options, engine)


def koma_label(e, fen, how):
    """koma's score of `fen` (its search `how`, from an empty table), as `label`'s answer:
    (kind, value from the side to move's view, best move in UCI)."""
    e.send("usinewgame")
    e.send("position sfen " + sfen_of_fen(fen))
    e.send("go %s %d" % how)
    kind, value, best = searched(e.until("bestmove", timeout=600))
    return kind, value, to_fsf(best, 8, 8) if best else None


def run_label(stockfish, fens, moves, text, hash_mb, koma=None, net=None):
    """{"answers": [[kind, value, best] per fen], "cpu": the engine's CPU seconds, "wall": s},
    its start (loading the net) not counted."""
    engine, how = parse_any(text)
    e = start_stockfish(stockfish, hash_mb) if engine == "stockfish" else start_koma_scorer(koma, engine, net)
    try:
        cpu0, t0 = cpu_seconds(e.p.pid), time.monotonic()
        if engine == "stockfish":
            answers = [list(label(e, fen, how, legal)) for fen, legal in zip(fens, moves)]
        else:
            answers = [list(koma_label(e, fen, how)) for fen in fens]
        cpu, wall = cpu_seconds(e.p.pid) - cpu0, time.monotonic() - t0
    finally:
        e.close()
    return {"answers": answers, "cpu": cpu, "wall": wall}


def table(fens, results, truth, labels):
    """The report's lines: the positions counted, then a row per label: its r against the
    truth on them and on the quiet ones among them (the truth's best move neither a
    capture nor a promotion: what the data generator keeps), and its cost."""
    usable = [
        i
        for i in range(len(fens))
        if all(
            results[t]["answers"][i][0] == "cp" and abs(results[t]["answers"][i][1]) <= BOUND for t in [truth] + labels
        )
    ]
    best = [a[2] for a in results[truth]["answers"]]
    quiet = [i for i in usable if best[i] and not is_capture_or_promotion(fens[i], best[i])]
    lines = [
        "%d positions, %d counted (every label and %s in centipawns within +-%d), %d of them quiet"
        % (len(fens), len(usable), truth, BOUND, len(quiet)),
        "| label | r against %s | r, quiet ones | the engine's CPU s | positions per CPU second | per wall second |"
        % truth,
        "|---|---|---|---|---|---|",
    ]
    for t in labels + [truth]:
        r = [
            pearson([results[t]["answers"][i][1] for i in sel], [results[truth]["answers"][i][1] for i in sel])
            for sel in (usable, quiet)
        ]
        cpu, wall = results[t]["cpu"], results[t]["wall"]
        lines.append(
            "| %s | %.3f | %.3f | %.1f | %.0f | %.0f |"
            % (t, r[0], r[1], cpu, len(fens) / cpu if cpu else float("inf"), len(fens) / wall if wall else float("inf"))
        )
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("suites", nargs="+", metavar="EPD")
    ap.add_argument("--stockfish", default=DEFAULT_STOCKFISH)
    ap.add_argument("--koma", default=DEFAULT_KOMA, help="koma, for the legal root moves")
    ap.add_argument("--truth", default="depth:16")
    ap.add_argument("--labels", default="eval,depth:1,nodes:1000,nodes:5000")
    ap.add_argument("--per-theme", type=int, default=40, help="the first N positions of each theme (0: all)")
    ap.add_argument(
        "--hash", type=int, default=1, help="the labels' hash MiB, as the data generator's (default %(default)s)"
    )
    ap.add_argument("--truth-hash", type=int, default=16, help="the truth's hash MiB (default %(default)s)")
    ap.add_argument("--cache", help="a JSON file of the answers, read and written")
    ap.add_argument("--koma-net", help="the net of koma-nnue labels (KokesuNetFile; default: the built-in one)")
    args = ap.parse_args(argv)
    try:
        labels = args.labels.split(",")
        for t in labels + [args.truth]:
            parse_any(t)
        if parse_any(args.truth)[0] != "stockfish":
            raise ValueError("the truth is Stockfish's, not %r" % args.truth)
    except ValueError as e:
        ap.error(str(e))
    for path, what in ((args.stockfish, "Stockfish (%s)" % INSTALL), (args.koma, "koma")):
        if not os.path.isfile(path):
            print("sf_label_quality: no %s at %s" % (what, path), file=sys.stderr)
            return 2
    positions, _ = epd.read_suite(args.suites)
    if args.per_theme:
        count, kept = {}, []
        for p in positions:
            count[p.theme] = count.get(p.theme, 0) + 1
            if count[p.theme] <= args.per_theme:
                kept.append(p)
        positions = kept
    fens = [p.fen for p in positions]
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
        if cache.get("fens") != fens:
            cache = {}
    cache["fens"] = fens
    results = cache.setdefault("labels", {})
    rules = KokesuMoves(os.path.abspath(args.koma))
    try:
        moves = [rules.legal(fen) for fen in fens]
    finally:
        rules.close()
    koma = os.path.abspath(args.koma)
    net = os.path.abspath(args.koma_net) if args.koma_net else None
    answers = {}
    for t in [args.truth] + labels:
        ours = parse_any(t)[0] != "stockfish"
        if t in results and not ours:
            answers[t] = results[t]
            continue
        print("sf_label_quality: %s on %d positions ..." % (t, len(fens)), file=sys.stderr, flush=True)
        hash_mb = args.truth_hash if t == args.truth else args.hash
        answers[t] = run_label(args.stockfish, fens, moves, t, hash_mb, koma, net)
        if not ours:
            results[t] = answers[t]
            if args.cache:
                with open(args.cache, "w") as f:
                    json.dump(cache, f)
    print("\n".join(table(fens, answers, args.truth, labels)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
