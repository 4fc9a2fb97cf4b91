"""Unit tests of tools/ray_solve.py: python3 -m unittest discover -s tools/tests -t .

The Ray tests need `ray` (pyproject.toml puts it in .venv) and are
skipped without it. They share one Ray on this machine (2 CPUs); the interrupted run is a
second one, in a subprocess. Real Number Shogi setups are solved by the koma binary ($KOMA,
else target/release/koma) within a node budget, so that the answers do not depend on the
machine's load; the failures come from small fake koma scripts. Nothing waits on a clock
except a generous deadline for a run that hangs."""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from tools import ray_solve
from tools.lib.paths import ROOT
from tools.tests.support import FIRST_RUN, HAVE_RAY, KOMA, NO_RAY, WithRay

NODES = 300000  # a budget that solves some of the setups below and not others
DEADLINE = 180  # seconds: only a run that hangs reaches it


def script(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def fake_koma(path, before=""):
    """A stand-in for `koma solve` that logs each call's lines (one JSON list a line in
    PATH.calls), runs `before` (Python: may fail, may exit) and answers every line `win`,
    or the value written in PATH.value if there is one."""
    return script(
        path,
        """#!%(python)s
import json, os, signal, sys
me = %(me)r
lines = [l.strip() for l in sys.stdin if l.strip()]
with open(me + ".calls", "a") as f:
    f.write(json.dumps(lines) + "\\n")
%(first)s%(before)s
value = open(me + ".value").read().strip() if os.path.exists(me + ".value") else "win"
for l in lines:
    print(json.dumps({"input": l, "value": value, "plies": 1, "bestmove": None, "nodes": 1, "ms": 0}))
"""
        % dict(python=sys.executable, me=path, before=before, first=FIRST_RUN),
    )


def calls(koma):
    try:
        with open(koma + ".calls") as f:
            return [json.loads(t) for t in f]
    except FileNotFoundError:
        return []


def out_lines(out):
    with open(out) as f:
        return [json.loads(t) for t in f]


class Positions(unittest.TestCase):
    def test_lines_are_trimmed_deduplicated_and_comments_skipped(self):
        got = ray_solve.positions([" a ", "", "# note", "b", "a", "  ", "c\r"])
        self.assertEqual(got, ["a", "b", "c"])

    def test_random_setups_are_distinct_legal_looking_and_repeatable(self):
        lines = ray_solve.random_setups(50, seed=7)
        self.assertEqual(lines, ray_solve.random_setups(50, seed=7))
        self.assertEqual(len(set(lines)), 50)
        for line in lines:
            variant, sfen, board, side, hand, ply = line.split()
            self.assertEqual((variant, sfen, side, hand, ply), ("numbershogi", "sfen", "b", "-", "13"))
            ranks = board.split("/")
            self.assertEqual(ranks[2], "3")
            self.assertEqual(sorted(ranks[0] + ranks[1]), list("abcdef"))
            self.assertEqual(sorted(ranks[3] + ranks[4]), list("ABCDEF"))

    def test_shards_cover_the_lines_in_order(self):
        self.assertEqual(ray_solve.shards(list("abcde"), 2), [["a", "b"], ["c", "d"], ["e"]])


class ReadResults(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ray_solve_test_")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def test_a_later_answer_wins_and_a_torn_last_line_is_skipped(self):
        out = os.path.join(self.dir, "r.jsonl")
        with open(out, "w") as f:
            f.write('{"input": "a", "value": "unknown"}\n{"input": "b", "value": "win"}\n')
            f.write('{"input": "a", "value": "loss"}\n{"input": "c", "val')
        got = ray_solve.read_results(out)
        self.assertEqual(got, {"a": {"input": "a", "value": "loss"}, "b": {"input": "b", "value": "win"}})

    def test_a_missing_file_has_no_answers(self):
        self.assertEqual(ray_solve.read_results(os.path.join(self.dir, "none.jsonl")), {})

    def test_appending_after_a_torn_line_starts_a_new_line(self):
        out = os.path.join(self.dir, "r.jsonl")
        with open(out, "w") as f:
            f.write('{"input": "a", "value": "win"}\n{"inp')
        with ray_solve._append(out) as f:
            f.write('{"input": "b", "value": "win"}\n')
        self.assertEqual(sorted(ray_solve.read_results(out)), ["a", "b"])

    def test_what_is_final(self):
        self.assertTrue(ray_solve.is_final({"value": "draw"}, retry_unknown=True))
        self.assertTrue(ray_solve.is_final({"error": "bad sfen"}, retry_unknown=True))
        self.assertTrue(ray_solve.is_final({"value": "unknown"}))
        self.assertFalse(ray_solve.is_final({"value": "unknown"}, retry_unknown=True))
        self.assertFalse(ray_solve.is_final(None))

    def test_nothing_left_to_do_needs_no_ray(self):
        out = os.path.join(self.dir, "r.jsonl")
        with open(out, "w") as f:
            f.write('{"input": "a", "value": "win"}\n{"input": "b", "error": "bad"}\n')
        koma = fake_koma(os.path.join(self.dir, "koma"))
        self.assertEqual(
            ray_solve.solve_lines(["a", "b", "a"], out, koma=koma),
            {"a": {"input": "a", "value": "win"}, "b": {"input": "b", "error": "bad"}},
        )
        self.assertEqual(calls(koma), [])


@unittest.skipUnless(HAVE_RAY, NO_RAY)
class Task(unittest.TestCase):
    def test_the_task_runs_where_the_tools_are_not(self):
        import ray.cloudpickle

        with tempfile.TemporaryDirectory(prefix="ray_solve_test_") as d:
            ray_solve.ship_by_value()
            task = os.path.join(d, "task.pickle")
            with open(task, "wb") as f:
                f.write(ray.cloudpickle.dumps(ray_solve.solve_shard))
            koma = fake_koma(os.path.join(d, "koma"))
            # A Python started elsewhere, without this repository on its path, as a worker is.
            run = "import pickle, sys; print(pickle.load(open(sys.argv[1], 'rb'))(sys.argv[2], ['a', 'b'], [], 60)[0])"
            env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
            p = subprocess.run([sys.executable, "-c", run, task, koma], cwd=d, env=env, capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn('"input": "b"', p.stdout)

    def test_a_koma_that_answers_the_wrong_lines_fails_the_task(self):
        with tempfile.TemporaryDirectory(prefix="ray_solve_test_") as d:
            koma = fake_koma(os.path.join(d, "koma"), "lines = lines[1:]")
            with self.assertRaisesRegex(RuntimeError, "1 answers for 2 lines"):
                ray_solve.solve_shard(koma, ["a", "b"], [], 60)
            with self.assertRaisesRegex(RuntimeError, "cannot run"):
                ray_solve.solve_shard(os.path.join(d, "none"), ["a"], [], 60)


class Solve(WithRay):
    def setUp(self):
        super().setUp()
        self.out = os.path.join(self.dir, "results.jsonl")

    def test_an_interrupted_run_resumes_without_solving_a_line_twice(self):
        if not os.path.exists(KOMA):
            self.skipTest("no koma binary at %s" % KOMA)
        lines = ray_solve.random_setups(10, seed=33)
        given = os.path.join(self.dir, "setups.txt")
        with open(given, "w") as f:
            f.write("# ten setups, two of them twice\n" + "\n".join(lines + lines[3:5]) + "\n")
        # The first call solves its shard; the others hang until the run is killed.
        gate = script(
            os.path.join(self.dir, "gate.sh"),
            """#!/bin/sh
if mkdir '%(dir)s/first' 2>/dev/null; then exec '%(koma)s' "$@"; fi
i=0; while [ $i -lt %(ticks)d ]; do sleep 0.2; i=$((i+1)); done; exit 1
"""
            % dict(dir=self.dir, koma=KOMA, ticks=DEADLINE * 5),
        )
        with open(os.path.join(self.dir, "stderr.txt"), "w") as err:
            p = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tools.ray_solve",
                    "--out",
                    self.out,
                    "--koma",
                    gate,
                    "--cpus",
                    "2",
                    "--shard-size",
                    "2",
                    "--max-nodes",
                    str(NODES),
                    given,
                ],
                cwd=ROOT,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=err,
                start_new_session=True,
            )
            try:
                deadline = time.monotonic() + DEADLINE
                while not (os.path.exists(self.out) and len(out_lines(self.out)) >= 2):
                    self.assertIsNone(p.poll(), "the run ended before its first shard was stored")
                    self.assertLess(time.monotonic(), deadline, "no shard stored")
                    time.sleep(0.1)
            finally:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        first = {a["input"]: a for a in out_lines(self.out)}
        self.assertEqual(len(first), 2)
        self.assertLessEqual(set(first), set(lines))

        # The rerun, through the API, solves the other eight lines, each once.
        logged = script(
            os.path.join(self.dir, "logged.sh"), "#!/bin/sh\ntee -a '%s/stdin.log' | '%s' \"$@\"\n" % (self.dir, KOMA)
        )
        got = ray_solve.solve_lines(lines + lines[:2], self.out, koma=logged, cpus=2, shard_size=2, max_nodes=NODES)
        with open(os.path.join(self.dir, "stdin.log")) as f:
            solved_again = f.read().splitlines()
        self.assertEqual(sorted(solved_again), sorted(set(lines) - set(first)))
        stored = out_lines(self.out)
        self.assertEqual(sorted(a["input"] for a in stored), sorted(lines))
        self.assertEqual(set(got), set(lines))
        for line, a in first.items():
            self.assertEqual(got[line], a)
        for a in got.values():
            self.assertIn(a.get("value"), ("win", "loss", "draw", "unknown"), a)
            self.assertLessEqual(a["nodes"], NODES + 1, a)
        self.assertEqual(ray_solve.read_results(self.out), got)
        # Real setups: within the budget some are proved.
        self.assertTrue(any(a["value"] in ("win", "loss") for a in got.values()), got)

    def test_a_failing_koma_is_tried_again(self):
        koma = fake_koma(os.path.join(self.dir, "koma"), "if first():\n    sys.exit(101)")
        lines = ["line %d" % i for i in range(5)]
        r = ray_solve.run(lines, self.out, koma=koma, shard_size=2, retries=2, progress=None)
        self.assertEqual(r.exit_status(), 0)
        self.assertEqual(set(r.answers), set(lines))
        self.assertEqual(len(calls(koma)), 4, "three shards and one retry")
        self.assertEqual(sorted(a["input"] for a in out_lines(self.out)), lines)

    def test_a_dead_worker_is_retried_by_ray(self):
        koma = fake_koma(
            os.path.join(self.dir, "koma"), "if first():\n    os.kill(os.getppid(), signal.SIGKILL)\n    sys.exit(1)"
        )
        lines = ["line %d" % i for i in range(3)]
        r = ray_solve.run(lines, self.out, koma=koma, shard_size=3, retries=1, progress=None)
        self.assertEqual((r.exit_status(), set(r.answers)), (0, set(lines)))
        self.assertEqual(len(calls(koma)), 2)

    def test_a_shard_that_keeps_failing_is_left_unanswered_for_a_later_run(self):
        koma = fake_koma(
            os.path.join(self.dir, "koma"),
            "if any('poison' in l for l in lines):\n"
            "    print('thread main panicked', file=sys.stderr)\n    sys.exit(101)",
        )
        given = os.path.join(self.dir, "in.txt")
        lines = ["line 0", "line 1", "poison 2", "line 3", "line 4"]
        with open(given, "w") as f:
            f.write("\n".join(lines) + "\n")
        argv = ["--out", self.out, "--koma", koma, "--shard-size", "2", "--retries", "1", given]
        self.assertEqual(ray_solve.main(argv), ray_solve.EXIT_UNANSWERED)
        self.assertEqual(sorted(a["input"] for a in out_lines(self.out)), ["line 0", "line 1", "line 4"])
        self.assertEqual(sum("poison 2" in c for c in calls(koma)), 2, "tried twice")
        # A later run with a koma that works picks up only those lines.
        well = fake_koma(os.path.join(self.dir, "well"))
        self.assertEqual(ray_solve.main(argv[:3] + [well] + argv[4:]), 0)
        self.assertEqual(calls(well), [["poison 2", "line 3"]])
        self.assertEqual(sorted(a["input"] for a in out_lines(self.out)), sorted(lines))

    def test_unknown_answers_are_solved_again_only_when_asked(self):
        koma = fake_koma(os.path.join(self.dir, "koma"))
        with open(koma + ".value", "w") as f:
            f.write("unknown")
        lines = ["line %d" % i for i in range(3)]
        self.assertEqual({a["value"] for a in ray_solve.solve_lines(lines, self.out, koma=koma).values()}, {"unknown"})
        ray_solve.solve_lines(lines, self.out, koma=koma)
        self.assertEqual(len(calls(koma)), 1, "unknown answers stand without --retry-unknown")
        with open(koma + ".value", "w") as f:
            f.write("loss")
        got = ray_solve.solve_lines(lines, self.out, koma=koma, retry_unknown=True)
        self.assertEqual({a["value"] for a in got.values()}, {"loss"})
        self.assertEqual(len(calls(koma)), 2)
        self.assertEqual(len(out_lines(self.out)), 6)
        self.assertEqual(ray_solve.read_results(self.out), got, "the newer answer wins")
        ray_solve.solve_lines(lines, self.out, koma=koma, retry_unknown=True)
        self.assertEqual(len(calls(koma)), 2, "solved lines are not redone")

    def test_an_error_line_is_an_answer_and_the_exit_status_says_so(self):
        if not os.path.exists(KOMA):
            self.skipTest("no koma binary at %s" % KOMA)
        given = os.path.join(self.dir, "in.txt")
        with open(given, "w") as f:
            f.write("numbershogi sfen not-a-position\nnumbershogi sfen abc/def/3/ABC/DEF w - 13\n")
        self.assertEqual(
            ray_solve.main(["--out", self.out, "--koma", KOMA, "--max-nodes", "1000", given]),
            ray_solve.EXIT_LINE_ERRORS,
        )
        got = ray_solve.read_results(self.out)
        self.assertIn("error", got["numbershogi sfen not-a-position"])
        self.assertIn(got["numbershogi sfen abc/def/3/ABC/DEF w - 13"]["value"], ("win", "loss", "draw", "unknown"))


if __name__ == "__main__":
    unittest.main()
