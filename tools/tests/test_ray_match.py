"""Unit tests of tools/ray_match.py: python3 -m unittest discover -s tools/tests -t .

The Ray tests need `ray` (pyproject.toml puts it in .venv) and a koma
binary ($KOMA, else target/release/koma); they are skipped without them. They share one
Ray on this machine (2 CPUs); the interrupted match is a second one, in a subprocess.
The games are tiny (kanishogi and Number Shogi at a few thousand nodes a move, a few
pairs), so that they are the same on a loaded machine as on an idle one; engines that
fail or hang are small fake scripts. Nothing waits on a clock except a generous deadline
for a run that hangs."""

import contextlib
import io
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from tools import match, match_combine, ray_match
from tools.lib.paths import ROOT
from tools.tests.support import HAVE_RAY, KOMA, NO_RAY, WithRay

HAVE_KOMA = os.access(KOMA, os.X_OK)
DEADLINE = 120  # seconds: only a run that hangs reaches it
SECONDS = re.compile(r" \d+ s( on Ray, \d+ CPUs?)?$")


def script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def fake_engine(path, on_go):
    """A USI engine that answers `usi` and `isready` and runs the Python line `on_go` at `go`."""
    return script(
        path,
        "#!%s\nimport sys, time\nfor line in sys.stdin:\n    c = line.split()\n"
        "    if not c: continue\n"
        "    if c[0] == 'usi': print('usiok', flush=True)\n"
        "    elif c[0] == 'isready': print('readyok', flush=True)\n"
        "    elif c[0] == 'go': %s\n" % (sys.executable, on_go),
    )


def openings(pairs, seed=1):
    """The openings of the first `pairs` pairs of a kanishogi match with `seed`, as the
    match draws them."""
    args = match.parser().parse_args(["--variant", "kanishogi", "--a", KOMA, "--b", KOMA, "--seed", str(seed)])
    match.prepare(args, check_paths=False)
    referee = match.new_referee(KOMA, "kanishogi", [])
    try:
        rng = match.opening_source(args, referee)
        return [match.make_opening(referee, rng, args) for _ in range(pairs)]
    finally:
        referee.close()


def gate(dir, koma):
    """A B that is koma in pairs 1 and 2 of a kanishogi match with seed 1 and hangs
    without a word at its first `go` in any later pair, writing its pid to DIR/hung.PID,
    until DEADLINE. It knows its pair by the opening of the positions it is sent, so Ray
    may start the tasks in any order. Pair 2 waits at its first `go` until an engine hangs:
    with two CPUs, pair 1 ends, pair 3 starts and hangs, and only then can pair 2 end (the
    SPRT decides then, with pair 3 in flight)."""
    with open(os.path.join(dir, "openings.txt"), "w") as f:
        f.writelines(" ".join(o) + "\n" for o in openings(2))
    return script(
        os.path.join(dir, "gate.py"),
        """#!%(python)s
import os, subprocess, sys, threading, time
dir, deadline = %(dir)r, time.monotonic() + %(deadline)d
first = [line.split() for line in open(os.path.join(dir, "openings.txt"))]
koma = subprocess.Popen([%(koma)r], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def relay():
    for line in koma.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
threading.Thread(target=relay, daemon=True).start()
pair = None
for line in sys.stdin:
    words = line.split()
    if words[:2] == ["position", "startpos"]:
        moves = words[3:]
        pair = next((k + 1 for k, o in enumerate(first) if moves[:len(o)] == o), 3)
    elif words[:1] == ["go"] and pair == 3:
        with open(os.path.join(dir, "hung.%%d" %% os.getpid()), "w") as f:
            f.write(str(os.getpid()))
        koma.kill()
        while time.monotonic() < deadline:
            time.sleep(0.2)
        sys.exit(0)
    elif words[:1] == ["go"] and pair == 2:
        while not any(n.startswith("hung.") for n in os.listdir(dir)) and time.monotonic() < deadline:
            time.sleep(0.05)
    koma.stdin.write(line)
    koma.stdin.flush()
"""
        % dict(python=sys.executable, dir=dir, koma=koma, deadline=DEADLINE),
    )


def read(path):
    with open(path) as f:
        return f.read()


def local(argv):
    """match.py's log of a match."""
    p = subprocess.run(
        [sys.executable, "-m", "tools.match"] + argv, cwd=ROOT, capture_output=True, text=True, timeout=DEADLINE
    )
    return p.stdout.splitlines()


def against(b, *options):
    """A Kani Shogi match's argv: KOMA at 1000 nodes a move against `b`, and `options`."""
    return ["--variant", "kanishogi", "--a", KOMA, "--b", b, "--nodes", "1000", *options]


def on_ray(argv):
    """ray_match's log of a match, on the Ray this process has started."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        ray_match.main(argv + ["--cpus", "2"])
    return out.getvalue().splitlines()


def comparable(lines):
    """A log without what differs between match.py and ray_match: the seconds, the mode
    and the `ray:` lines."""
    return [SECONDS.sub("", line) for line in lines if not line.startswith("ray: ")]


def gone(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


class InOrderTest(unittest.TestCase):
    """The driver's bookkeeping, without Ray: pairs that finish out of turn wait for theirs."""

    def args(self, *more):
        args = match.parser().parse_args(["--variant", "kanishogi", "--a", "A", "--b", "B"] + list(more))
        match.prepare(args, check_paths=False)
        return args

    def result(self, pair, scores, error=None):
        games = [(swap, s, "capture of the parent crab", ["m"] * 7, "") for swap, s in zip((False, True), scores)]
        return dict(pair=pair, games=games, time_used=None, error=error, tail="")

    def report(self, args, results):
        order = ray_match.InOrder(args, match.Tally(), time.time())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            for r in results:
                order.add(r)
        return order, out.getvalue().splitlines()

    def test_pairs_are_reported_in_their_order(self):
        order, lines = self.report(
            self.args(), [self.result(2, (1, 1)), self.result(0, (1, 0)), self.result(1, (0.5, 0.5))]
        )
        self.assertEqual(
            [line[:20] for line in lines if line.startswith("game")],
            [
                "game 1 (pair 1): A p",
                "game 2 (pair 1): A p",
                "game 3 (pair 2): A p",
                "game 4 (pair 2): A p",
                "game 5 (pair 3): A p",
                "game 6 (pair 3): A p",
            ],
        )
        self.assertEqual(
            [line.split(":")[0] for line in lines if line.startswith("after")],
            ["after 2 games", "after 4 games", "after 6 games"],
        )
        self.assertEqual((order.next, order.waiting, order.decision), (3, {}, None))

    def test_the_sprt_decides_in_pair_order_and_later_pairs_wait(self):
        args = self.args("--sprt-min-pairs", "2")
        order, lines = self.report(args, [self.result(2, (0, 0)), self.result(1, (1, 1)), self.result(0, (1, 1))])
        self.assertEqual(order.decision, "H1")
        self.assertEqual(sum(order.tally.pairs), 2)
        self.assertEqual(list(order.waiting), [2], "pair 3 finished but is not counted")

    def test_an_error_stops_at_its_pair(self):
        order, lines = self.report(self.args(), [self.result(1, (), "B closed its output"), self.result(0, (1, 1))])
        self.assertEqual(order.decision, "stopped")
        self.assertEqual(lines[-1], "match stopped: B closed its output")
        self.assertEqual(order.tally.games, 2)


@unittest.skipUnless(HAVE_RAY, NO_RAY)
@unittest.skipUnless(HAVE_KOMA, "no koma binary (set KOMA or build target/release/koma)")
class TaskTest(unittest.TestCase):
    def test_the_task_runs_where_the_tools_are_not(self):
        import ray.cloudpickle

        args = match.parser().parse_args(["--variant", "kanishogi", "--a", KOMA, "--b", KOMA, "--nodes", "300"])
        match.prepare(args)
        opening = ["9z9z"]  # not a move: the referee refuses it, and the task says so
        with tempfile.TemporaryDirectory(prefix="ray_match_test_") as d:
            ray_match.ship_by_value()
            task = os.path.join(d, "task.pickle")
            with open(task, "wb") as f:
                f.write(ray.cloudpickle.dumps((ray_match.play_pairs, args, [(0, []), (1, opening)])))
            # A Python started elsewhere, without this repository on its path, as a worker is.
            run = (
                "import pickle, sys; f, args, batch = pickle.load(open(sys.argv[1], 'rb'))\n"
                "for r in f(args, batch): print(r['pair'], [g[1:3] for g in r['games']], r['error'])"
            )
            p = subprocess.run(
                [sys.executable, "-I", "-c", run, task], cwd=d, capture_output=True, text=True, timeout=DEADLINE
            )
            self.assertEqual(p.returncode, 0, p.stderr)
        first, second = p.stdout.splitlines()
        self.assertRegex(first, r"^0 \[\(.*\), \(.*\)\] None$")
        # The referee's error: the binding's message, or a koma process's error line.
        self.assertRegex(second, r"^1 \[\] referee: ('9z9z' is not a move token|info string error)")


@unittest.skipUnless(HAVE_KOMA, "no koma binary (set KOMA or build target/release/koma)")
class OnRay(WithRay):
    def test_the_same_games_and_verdict_as_match_py(self):
        argv = [
            "--variant",
            "numbershogi",
            "--a",
            KOMA,
            "--b",
            KOMA,
            "--nodes",
            "3000",
            "--go-b",
            "nodes 1500",
            "--games",
            "8",
            "--seed",
            "7",
            "--moves",
        ]
        here, ray = local(argv), on_ray(argv)
        self.assertEqual(comparable(ray), comparable(here))
        self.assertEqual(len([line for line in here if line.startswith("game ")]), 8)
        self.assertRegex(
            here[-1],
            r"^match: numbershogi, .* 8 games \(4 pairs, seed 7\): .*; no SPRT decision\. "
            r"Ends: .*\. \d+ s$",
        )
        self.assertRegex(ray[-1], r"\. \d+ s on Ray, 2 CPUs$")
        self.assertEqual(ray[1], "ray: pairs played as Ray tasks on this machine, 2 CPUs, 1 pair a task")
        # match_combine reads the Ray log as it reads match.py's.
        logs = [match_combine.Log(name, lines) for name, lines in (("here", here), ("ray", ray))]
        self.assertEqual(logs[0].games, logs[1].games)
        self.assertEqual(sum(logs[1].pair_counts()), 4)
        self.assertEqual(
            (logs[1].variant, logs[1].seed, logs[1].limit), ("numbershogi", 7, "nodes 3000 (B: nodes 1500)")
        )

    def test_batches_of_pairs_play_the_same_games(self):
        argv = ["--variant", "kanishogi", "--a", KOMA, "--b", KOMA, "--nodes", "2000", "--games", "10", "--seed", "3"]
        self.assertEqual(comparable(on_ray(argv + ["--pairs-per-task", "2"])), comparable(local(argv)))

    def test_an_sprt_that_decides_cancels_the_pairs_in_flight(self):
        # B is koma for two pairs and then hangs (gate): the SPRT decides at pair 2 (A at 1000
        # nodes wins every game against 1 node) while pair 3 is in flight.
        b = gate(self.dir, KOMA)
        started = time.monotonic()
        # Only the cancel closes the hung engine in time.
        timeout = str(10 * DEADLINE)
        lines = on_ray(
            against(b, "--go-b", "nodes 1", "--games", "40", "--sprt-min-pairs", "2", "--move-timeout", timeout)
        )
        self.assertLess(time.monotonic() - started, DEADLINE / 2, "the hung pairs were waited for")
        self.assertEqual(len([line for line in lines if line.startswith("game ")]), 4)
        self.assertRegex(lines[-1], r"4 games \(2 pairs, seed 1\): A \+4 =0 -0 .*; H1 accepted \(gain >= 10\)\.")
        cancelled = [line for line in lines if line.startswith("ray: the SPRT accepted H1 after pair 2: ")]
        self.assertEqual(len(cancelled), 1, lines)
        self.assertRegex(cancelled[0], r"\b[1-9]\d* tasks? in flight cancelled \(pairs 3\b")
        # The hung engines are closed, not left running.
        hung = [int(read(os.path.join(self.dir, f))) for f in os.listdir(self.dir) if f.startswith("hung.")]
        self.assertTrue(hung)
        # A generous deadline: closing waits 5 s for a silent engine before killing it,
        # and a loaded machine (CI runs the Rust suite beside these) delays Ray's cancel.
        deadline = time.monotonic() + DEADLINE / 2
        while not all(gone(pid) for pid in hung) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertTrue(all(gone(pid) for pid in hung), hung)

    def test_a_failing_engine_loses_its_games_as_in_match_py(self):
        b = fake_engine(os.path.join(self.dir, "crash"), "sys.exit(3)")
        argv = ["--variant", "kanishogi", "--a", KOMA, "--b", b, "--nodes", "500", "--games", "6", "--sprt", "off"]
        here, ray = local(argv), on_ray(argv)
        self.assertEqual(comparable(ray), comparable(here))
        self.assertIn("B failed: B closed its output", ray[2])
        self.assertRegex(ray[-1], r"A \+6 =0 -0 .*; no SPRT\.")

    def test_an_engine_that_cannot_start_stops_the_match_as_in_match_py(self):
        b = script(os.path.join(self.dir, "broken"), "#!/bin/sh\nread line\nexit 1\n")  # after `usi`: no broken pipe
        argv = ["--variant", "kanishogi", "--a", KOMA, "--b", b, "--nodes", "500", "--games", "6"]
        here, ray = local(argv), on_ray(argv)
        self.assertEqual(comparable(ray), comparable(here))
        self.assertEqual(here[1], "match stopped: B closed its output")
        self.assertRegex(here[-1], r"0 games \(0 pairs, seed 1\): .*; stopped early\.")


@unittest.skipUnless(HAVE_RAY, NO_RAY)
@unittest.skipUnless(HAVE_KOMA, "no koma binary (set KOMA or build target/release/koma)")
class Interrupted(unittest.TestCase):
    def test_ctrl_c_counts_the_whole_pairs_reported(self):
        with tempfile.TemporaryDirectory(prefix="ray_match_test_") as d:
            b = gate(d, KOMA)
            log = os.path.join(d, "log.txt")
            with open(log, "w") as out:
                p = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "tools.ray_match",
                        *against(b, "--games", "20", "--sprt", "off", "--cpus", "2"),
                    ],
                    cwd=ROOT,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                try:
                    deadline = time.monotonic() + DEADLINE
                    while "after 4 games" not in read(log):
                        self.assertIsNone(p.poll(), "the match ended before its second pair")
                        self.assertLess(time.monotonic(), deadline, "no second pair")
                        time.sleep(0.1)
                    p.send_signal(signal.SIGINT)
                    p.wait(timeout=DEADLINE)
                finally:
                    if p.poll() is None:
                        os.killpg(p.pid, signal.SIGKILL)
                        p.wait()
            lines = read(log).splitlines()
        self.assertIn("interrupted: Elo and LLR count the whole pairs only", lines)
        self.assertTrue(any(line.startswith("ray: the match stopped after pair 2: ") for line in lines), lines)
        self.assertRegex(lines[-1], r"4 games \(2 pairs, seed 1\): .*; stopped early\. .* s on Ray, 2 CPUs$")


if __name__ == "__main__":
    unittest.main()
