#!/usr/bin/env python3
"""`koma solve` farmed out with Ray: many Number Shogi positions solved on this machine's
cores or on a Ray cluster, the answers kept on disk as they arrive, so that an interrupted
run resumes where it stopped (issue 33). docs/RAY.md says how to set up a cluster and what
it measured.

Usage:
  python3 -m tools.ray_solve --out results.jsonl [--koma PATH] [--address HOST:PORT|auto]
         [--cpus N] [--shard-size 64] [--max-ms MS] [--max-nodes N] [--variant numbershogi]
         [--retries 2] [--retry-unknown] [--progress-every 5] [--random-setups N [--seed S]]
         [FILE...]

Input: one position a line, as `koma solve` reads them (`numbershogi sfen
adb/cef/3/FEC/BDA b - 13`), from the FILEs or stdin (none, or `-`); blank lines and `#`
comments are skipped, a line is trimmed, and a line given twice is solved once.
--random-setups N adds N distinct random setups (each side's pieces shuffled over its
camp, sente to move), the same ones for the same --seed; stdin is then read only as `-`.

Work: the lines still to answer are cut into shards of --shard-size lines; each shard is
one Ray task (one CPU) that runs `KOMA solve [--variant V] [--max-ms MS] [--max-nodes N]`
with the lines on stdin and returns koma's answers. KOMA (--koma, default the repository's
target/release/koma) is made absolute here and run at that path on whichever machine
runs the task: every worker machine needs the binary there. Without --address, Ray
starts on this machine (all its cores, or --cpus N); with --address HOST:PORT (or `auto`)
the driver joins a running cluster and --cpus, if given, caps the shards in flight.

Output: --out is a JSON-lines file of koma's answers (`input`, `value` win / loss / draw /
unknown, `plies`, `bestmove`, `nodes`, `ms`, or `error`), appended, flushed and synced
after each finished shard: an interruption (Ctrl-C, kill -9, a lost machine) loses at
most the shards in flight. A rerun with the same --out resumes: a line whose answer is
there (a value, or an error: an unreadable line stays unreadable) is not solved again; an
`unknown` one is solved again only with --retry-unknown (a bigger budget, say), and when
the file is read the later answer of a line wins.

Failures: a task whose worker dies is retried by Ray (its max_retries = --retries); a
task whose koma fails (a non-zero exit other than koma's 1 for a line with an error, a
crash, a signal, answers that do not match the lines, a hang well past --max-ms) is
submitted again, up to --retries more times. A shard that still fails is reported on
stderr and its lines are left unanswered, for a later run to pick up.

Progress: one line on stderr every --progress-every seconds: positions answered / total,
the rate of this run (per second, and per second per CPU), the elapsed time and an
estimate of the time left; a final `ray_solve:` line sums up. Ray's own logging is kept
quiet (no dashboard, workers' output not forwarded); a worker that dies is still
reported by Ray on stdout.

Exit status: 0 when every line is answered (`unknown` included), 1 when some answer is an
error (a line koma could not read), 2 for bad options, 3 when some lines were left
unanswered by failing shards, 130 when interrupted.

From another tool: `solve_lines(lines, out, ...)` returns {line: answer} for the given
lines (those answered before, in `out`, included) and `read_results(out)` reads a file.
"""

import argparse
import json
import os
import sys
import time
from collections import deque

from tools.lib.paths import DEFAULT_KOMA
from tools.lib.ray import (
    EXIT_INTERRUPTED,
    EXIT_LINE_ERRORS,
    EXIT_OK,
    EXIT_UNANSWERED,
    EXIT_USAGE,
    clock,
    connect,
    need_ray,
    reason,
)
from tools.lib.ray import ship_by_value as ship_modules

SOLVED = ("win", "loss", "draw")


def positions(lines):
    """The lines that hold a position, as koma reads them: trimmed, blank lines and `#`
    comments left out, each one once, in their first order."""
    seen = {}
    for line in lines:
        line = line.strip()
        if line and not line.startswith("#"):
            seen.setdefault(line, None)
    return list(seen)


def random_setups(n, seed=0):
    """`n` distinct random Number Shogi setups (placement done, sente to move), as
    `koma solve` lines: each side's six pieces shuffled over its camp's six squares,
    gote's lowercase `a`-`f` on ranks a-b, sente's uppercase on d-e (`numbershogi sfen
    adb/cef/3/FEC/BDA b - 13`). The same `seed` gives the same lines."""
    import random

    if n > 720 * 720:
        raise ValueError("there are only 518400 setups")
    rng = random.Random(seed)
    lines = {}
    while len(lines) < n:
        w, b = list("abcdef"), list("ABCDEF")
        rng.shuffle(w)
        rng.shuffle(b)
        w, b = "".join(w), "".join(b)
        lines.setdefault("numbershogi sfen %s/%s/3/%s/%s b - 13" % (w[:3], w[3:], b[:3], b[3:]), None)
    return list(lines)


def read_results(out):
    """{input line: answer} from a results file; a later answer of a line wins over an
    earlier one. A line that is not a whole JSON object (the torn last line of a run that
    was killed mid-write) is skipped. A missing file reads as no answers."""
    answers = {}
    try:
        f = open(out, encoding="utf-8")
    except FileNotFoundError:
        return answers
    with f:
        for text in f:
            try:
                a = json.loads(text)
            except ValueError:
                continue
            if isinstance(a, dict) and isinstance(a.get("input"), str):
                answers[a["input"]] = a
    return answers


def is_final(answer, retry_unknown=False):
    """Whether a stored answer stands: a value (win, loss, draw), an error (the line is
    unreadable: solving it again says the same), or `unknown` unless retried."""
    if answer is None:
        return False
    if "error" in answer or answer.get("value") in SOLVED:
        return True
    return not retry_unknown


def shards(lines, size):
    return [lines[i : i + size] for i in range(0, len(lines), size)]


def solve_shard(koma, lines, options, timeout):
    """One task: `koma solve OPTIONS` with `lines` on stdin. Returns koma's answer lines
    (JSON text), one per input line in order, and the CPU seconds koma used; raises
    RuntimeError saying what went wrong. Runs on a worker: it uses nothing but the
    standard library."""
    import json as json_
    import resource
    import subprocess

    def cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    text = "".join(line + "\n" for line in lines)
    start = cpu()
    try:
        p = subprocess.run([koma, "solve", *options], input=text, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise RuntimeError("koma solve took more than %.0f s on %d lines" % (timeout, len(lines))) from None
    except OSError as e:
        raise RuntimeError("cannot run %s: %s" % (koma, e)) from e
    err = p.stderr.strip().splitlines()
    why = (": " + err[-1]) if err else ""
    if p.returncode < 0:
        raise RuntimeError("koma solve was killed by signal %d%s" % (-p.returncode, why))
    if p.returncode not in (0, 1):
        raise RuntimeError("koma solve exited with status %d%s" % (p.returncode, why))
    out = [t for t in p.stdout.splitlines() if t.strip()]
    if len(out) != len(lines):
        raise RuntimeError(
            "koma solve gave %d answers for %d lines (status %d)%s" % (len(out), len(lines), p.returncode, why)
        )
    errors = 0
    for line, t in zip(lines, out):
        try:
            a = json_.loads(t)
        except ValueError:
            raise RuntimeError("koma solve wrote a line that is not JSON: %r" % t[:200]) from None
        if not isinstance(a, dict) or a.get("input") != line:
            raise RuntimeError("koma solve answered %r for the line %r" % (t[:200], line))
        errors += "error" in a
    if p.returncode == 1 and not errors:
        raise RuntimeError("koma solve exited with status 1 without an error answer%s" % why)
    return out, cpu() - start


def ship_by_value():
    """Has Ray send this module's functions (the task) to the workers by value."""
    ship_modules(__name__)


class Run:
    """What `run` did. `answers`: {line: answer} for the lines asked, those already in
    the results file included; `unanswered`: lines of shards that kept failing;
    `failures`: one message for each such shard; `solved`: answers got in this run;
    `cpu`: the CPU seconds their koma processes used; `seconds`: the wall time from Ray's
    start to the last answer."""

    def __init__(self):
        self.answers, self.unanswered, self.failures, self.solved, self.cpu, self.seconds = {}, [], [], 0, 0.0, 0.0

    def exit_status(self):
        if self.unanswered:
            return EXIT_UNANSWERED
        if any("error" in a for a in self.answers.values()):
            return EXIT_LINE_ERRORS
        return EXIT_OK


class Progress:
    """The progress line: answered / total, rate, elapsed, time left."""

    def __init__(self, stream, every, total, before):
        self.stream, self.every, self.total, self.before = stream, every, total, before
        self.start = self.last = time.monotonic()

    def due(self):
        return self.stream is not None and time.monotonic() - self.last >= self.every

    def line(self, done, cpus, in_flight, failed, final=False, cpu=None):
        now = time.monotonic()
        self.last = now
        elapsed = now - self.start
        rate = done / elapsed if elapsed > 0 else 0.0
        left = self.total - self.before - done
        eta = left / rate if rate > 0 else (0 if left == 0 else float("inf"))
        text = "ray_solve: %d/%d positions answered (%d this run), %.2f/s, %.3f/s per CPU on %d CPUs, elapsed %s" % (
            self.before + done,
            self.total,
            done,
            rate,
            rate / max(cpus, 1),
            cpus,
            clock(elapsed),
        )
        if not final:
            text += ", left ~%s, %d shard%s in flight" % (clock(eta), in_flight, "s" * (in_flight != 1))
        if failed:
            text += ", %d shard%s failed" % (failed, "s" * (failed != 1))
        if cpu:
            text += "; koma used %.1f CPU-s, %.3f positions per CPU-second" % (cpu, done / cpu)
        if self.stream is not None:
            print(text, file=self.stream, flush=True)
        return text


def _append(path):
    """The results file opened for appending, after a newline if its last line is torn."""
    f = open(path, "a+", encoding="utf-8")
    if f.tell() > 0:
        f.seek(f.tell() - 1)
        if f.read(1) != "\n":
            f.write("\n")
    return f


def run(
    lines,
    out,
    koma=DEFAULT_KOMA,
    address=None,
    cpus=None,
    shard_size=64,
    max_ms=None,
    max_nodes=None,
    retries=2,
    retry_unknown=False,
    variant=None,
    progress=None,
    progress_every=5.0,
):
    """Solves `lines` (see `solve_lines`) and returns a `Run`. `progress`: a stream for the
    progress lines and the failures (None: silent)."""
    if shard_size < 1 or retries < 0 or (cpus is not None and cpus < 1):
        raise ValueError("shard_size and cpus must be at least 1, retries at least 0")
    koma = os.path.abspath(koma)
    if address is None and not os.path.isfile(koma):
        raise FileNotFoundError("no koma binary at %s (cargo build --release, or --koma PATH)" % koma)
    wanted = positions(lines)
    stored = read_results(out)
    result = Run()
    todo = []
    for line in wanted:
        if is_final(stored.get(line), retry_unknown):
            result.answers[line] = stored[line]
        else:
            todo.append(line)
    if not todo:
        _say(progress, "ray_solve: all %d positions are answered in %s" % (len(wanted), out))
        return result

    ray = need_ray("ray_solve")
    connect(address, cpus)
    report = Progress(progress, progress_every, len(wanted), len(wanted) - len(todo))
    ship_by_value()
    task = ray.remote(num_cpus=1, max_retries=retries)(solve_shard)
    options = []
    if variant:
        options += ["--variant", variant]
    if max_ms is not None:
        options += ["--max-ms", str(max_ms)]
    if max_nodes is not None:
        options += ["--max-nodes", str(max_nodes)]

    def cluster_cpus():
        return int(ray.cluster_resources().get("CPU", 1)) or 1

    def timeout(n):
        # A hang, not a slow line: koma keeps to --max-ms itself.
        return None if max_ms is None else 60 + 2 * n * max_ms / 1000

    queue = deque((s, 0) for s in shards(todo, shard_size))
    in_flight = {}
    used = cpus or cluster_cpus()
    with _append(out) as f:
        while queue or in_flight:
            cap = cpus or 2 * used
            while queue and len(in_flight) < cap:
                s, tries = queue.popleft()
                in_flight[task.remote(koma, s, options, timeout(len(s)))] = (s, tries)
            wait = max(0.1, progress_every - (time.monotonic() - report.last)) if progress else None
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=wait)
            for ref in ready:
                s, tries = in_flight.pop(ref)
                try:
                    texts, cpu = ray.get(ref)
                except ray.exceptions.RayError as e:
                    why = reason(e)
                    if tries < retries:
                        _say(
                            progress,
                            "ray_solve: a shard of %d lines failed (%s); retry %d of %d"
                            % (len(s), why, tries + 1, retries),
                        )
                        queue.appendleft((s, tries + 1))
                    else:
                        msg = "a shard of %d lines (first: %s) failed %d times, left unanswered: %s" % (
                            len(s),
                            s[0],
                            tries + 1,
                            why,
                        )
                        _say(progress, "ray_solve: " + msg)
                        result.failures.append(msg)
                        result.unanswered += s
                    continue
                f.write("".join(t + "\n" for t in texts))
                f.flush()
                os.fsync(f.fileno())
                for line, t in zip(s, texts):
                    result.answers[line] = json.loads(t)
                result.solved += len(s)
                result.cpu += cpu
            if report.due():
                if cpus is None:
                    used = cluster_cpus()
                report.line(result.solved, used, len(in_flight), len(result.failures))
    result.seconds = time.monotonic() - report.start
    report.line(result.solved, used, 0, len(result.failures), final=True, cpu=result.cpu)
    return result


def _say(stream, text):
    if stream is not None:
        print(text, file=stream, flush=True)


def solve_lines(lines, out, **options):
    """Solves Number Shogi positions (`koma solve` lines) with Ray and returns
    {line: koma's answer} for each of them (trimmed; blank and `#` lines left out),
    the ones answered by an earlier run into `out` included; the new answers are appended
    to `out` as they arrive. A line missing from the result was left unanswered by a shard
    that kept failing (see `run` for the reasons). Ray is started on this machine (`cpus`
    CPUs) or joined at `address` unless it is already initialised, and left running for
    the next call. `options`: `run`'s (`koma`, `address`, `cpus`, `shard_size`, `max_ms`,
    `max_nodes`, `retries`, `retry_unknown`, `variant`, `progress`: a stream for the
    progress lines, None: silent, `progress_every`)."""
    return run(lines, out, **options).answers


def read_inputs(files):
    lines = []
    for name in files:
        if name == "-":
            lines += sys.stdin.read().splitlines()
        else:
            with open(name, encoding="utf-8", errors="replace") as f:
                lines += f.read().splitlines()
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="python3 -m tools.ray_solve",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument(
        "files", nargs="*", metavar="FILE", help="positions, one a line (stdin: -, or no FILE and no --random-setups)"
    )
    ap.add_argument("--out", required=True, help="the results file (JSON lines), appended to and resumed from")
    ap.add_argument(
        "--koma", default=DEFAULT_KOMA, help="the koma binary, at the same path on every worker (default: %(default)s)"
    )
    ap.add_argument("--address", help="a Ray cluster to join (HOST:PORT or auto); default: Ray on this machine")
    ap.add_argument("--cpus", type=int, help="CPUs to use (default: all of this machine's, or of the cluster)")
    ap.add_argument("--shard-size", type=int, default=64, help="lines per task (default: %(default)s)")
    ap.add_argument("--max-ms", type=int, help="koma solve --max-ms: give up on a position after MS ms")
    ap.add_argument("--max-nodes", type=int, help="koma solve --max-nodes")
    ap.add_argument("--variant", help="koma solve --variant, for lines that do not name one")
    ap.add_argument("--retries", type=int, default=2, help="retries of a failing shard (default: %(default)s)")
    ap.add_argument("--retry-unknown", action="store_true", help="solve again the lines answered unknown")
    ap.add_argument("--random-setups", type=int, metavar="N", help="solve N random setups too (see --seed)")
    ap.add_argument("--seed", type=int, default=0, help="the seed of --random-setups (default: %(default)s)")
    ap.add_argument("--progress-every", type=float, default=5.0, help="seconds between progress lines")
    args = ap.parse_args(argv)
    if args.shard_size < 1 or args.retries < 0 or (args.cpus is not None and args.cpus < 1):
        ap.error("--shard-size and --cpus must be at least 1, --retries at least 0")
    koma = os.path.abspath(args.koma)
    if not os.path.isfile(koma):
        if args.address is None:
            ap.error("no koma binary at %s (cargo build --release, or --koma PATH)" % koma)
        print("ray_solve: no koma binary at %s on this machine: the workers must have it there" % koma, file=sys.stderr)
    lines = read_inputs(args.files or ([] if args.random_setups else ["-"]))
    if args.random_setups:
        lines += random_setups(args.random_setups, args.seed)
    try:
        r = run(
            lines,
            args.out,
            koma=koma,
            address=args.address,
            cpus=args.cpus,
            shard_size=args.shard_size,
            max_ms=args.max_ms,
            max_nodes=args.max_nodes,
            retries=args.retries,
            retry_unknown=args.retry_unknown,
            variant=args.variant,
            progress=sys.stderr,
            progress_every=args.progress_every,
        )
    except ImportError as e:
        print("ray_solve: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(
            "ray_solve: interrupted; the answers so far are in %s: run the same command again to resume" % args.out,
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    values = {}
    for a in r.answers.values():
        k = a.get("value", "error" if "error" in a else "?")
        values[k] = values.get(k, 0) + 1
    print(
        "ray_solve: %d positions: %s; %d left unanswered%s"
        % (
            len(positions(lines)),
            ", ".join("%s %d" % kv for kv in sorted(values.items())) or "none answered",
            len(r.unanswered),
            " (run again to retry them)" if r.unanswered else "",
        ),
        file=sys.stderr,
    )
    return r.exit_status()


if __name__ == "__main__":
    sys.exit(main())
