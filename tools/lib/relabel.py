"""Kokesu training data scored again by another engine, one Ray task a file (what
tools/fsf_relabel.py, Fairy-Stockfish's search, and tools/sf_relabel.py, Stockfish 15.1's
static evaluation, share): the records of a data file with their scores replaced, and the
driver that farms the files out, resumable (a file already in the output folder is not
done again) and written whole."""

import os
import sys
import time

from tools.lib.ray import clock, files_on_ray
from tools.lib.records import HEADER, RECORD, fen_of_record, with_score


def check(data):
    """ValueError unless `data` is a koma data file of version 1 (its header, whole records)."""
    if data[:16] != HEADER or (len(data) - 16) % RECORD:
        raise ValueError("not a koma data file of version 1")


def rescore(data, score_of):
    """The records of `data` (a koma data file's bytes, version 1), each with its score
    replaced by `score_of(fen)` (centipawns, side to move's view; the rest of the record,
    the game's result included, unchanged), or left out where that is None: (the new
    file's bytes, records scored, records left out). ValueError for bytes that are not
    such a file."""
    check(data)
    out, scored, left_out = [HEADER], 0, 0
    for at in range(16, len(data), RECORD):
        rec = data[at : at + RECORD]
        score = score_of(fen_of_record(rec))
        if score is None:
            left_out += 1
        else:
            out.append(with_score(rec, score))
            scored += 1
    return b"".join(out), scored, left_out


def children_cpu(before, after):
    """CPU seconds (user and system) of the waited-for child processes between two
    `os.times()`: the engine's, once it has been closed."""
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def run_files(
    tool, task, files, out_dir, args_of, address=None, cpus=None, retries=2, left_out="left out", progress=sys.stderr
):
    """Runs `task(*args_of(path))` on Ray for each of `files` not yet in `out_dir` (one
    task a file; the task returns (bytes, scored, left out, CPU seconds)) and writes each
    result whole to `out_dir`/<the input's name>. A line on `progress` after each file:
    files, positions scored and `left_out`, positions per CPU second of the engine.
    Returns (made, failed)."""
    os.makedirs(out_dir, exist_ok=True)
    todo = [f for f in files if not os.path.exists(os.path.join(out_dir, os.path.basename(f)))]
    say = (lambda text: print("%s: %s" % (tool, text), file=progress, flush=True)) if progress else (lambda text: None)
    if not todo:
        say("all %d files are in %s" % (len(files), out_dir))
        return [], []
    totals = {"scored": 0, "left": 0, "cpu": 0.0}
    start = time.monotonic()

    def finished(path, data, rest):
        for key, value in zip(("scored", "left", "cpu"), rest):
            totals[key] += value

    def tick(made, failed, in_flight):
        say(
            "%d/%d files, %d positions scored, %d %s, %.0f per CPU second, %s elapsed"
            % (
                len(made),
                len(todo),
                totals["scored"],
                totals["left"],
                left_out,
                totals["scored"] / totals["cpu"] if totals["cpu"] else 0.0,
                clock(time.monotonic() - start),
            )
        )

    return files_on_ray(
        task,
        todo,
        args_of,
        lambda path: os.path.join(out_dir, os.path.basename(path)),
        address,
        cpus,
        retries,
        say,
        finished=finished,
        tick=tick,
    )
