"""Ray for the tools that farm `koma` (or Fairy-Stockfish) out to this machine's cores or
a cluster (tools/ray_solve.py, ray_match.py, ray_nnue_data.py, fsf_relabel.py,
sf_relabel.py, ray_sf_data.py; docs/RAY.md): Ray started quietly or joined, the tools'
shared exit statuses, seed lists, a task's error in one line, a wall-clock duration, and a
loop that writes each task's file whole as it arrives."""

import contextlib
import math
import os
import sys
import tempfile

EXIT_OK, EXIT_LINE_ERRORS, EXIT_USAGE, EXIT_UNANSWERED, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
SETUP = ".venv/bin/python -m pip install -e '.[test]'"


def seed_list(text):
    """`1-8,12,20-21` -> [1, ..., 8, 12, 20, 21], each once, in order."""
    seeds = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        lo, _, hi = part.partition("-")
        lo = int(lo)
        hi = int(hi) if hi else lo
        if hi < lo or lo < 0:
            raise ValueError("bad seed range %r" % part)
        seeds += [s for s in range(lo, hi + 1) if s not in seeds]
    if not seeds:
        raise ValueError("no seeds")
    return seeds


def run_status(tool, work):
    """The exit status of a run: `work()` returns (what was made, whether some task was
    left unanswered); a missing binary (FileNotFoundError) is a usage error, said on
    stderr in one line."""
    try:
        _, failed = work()
    except FileNotFoundError as e:
        print("%s: %s" % (tool, e), file=sys.stderr)
        return EXIT_USAGE
    return EXIT_UNANSWERED if failed else EXIT_OK


def need_ray(tool="this tool"):
    """The `ray` module, or ImportError saying how to install it."""
    try:
        import ray
    except ImportError as e:
        raise ImportError("%s needs Ray: %s (%s)" % (tool, SETUP, e)) from e
    return ray


def connect(address=None, cpus=None):
    """Starts Ray on this machine (address None; `cpus` CPUs, default all) or joins the
    cluster at `address`, quietly; an already initialised Ray is used as it is. Returns
    whether this call started it."""
    ray = need_ray()
    if ray.is_initialized():
        return False
    import logging
    import signal
    import threading

    # A process started in the background of a shell without job control (`cmd &` in a
    # script, as CI may run the tests) inherits SIGINT ignored, and so would Ray's
    # workers: then neither Ctrl-C nor ray.cancel (a KeyboardInterrupt in the task) gets
    # through. The default handler is put back before Ray starts its processes.
    if threading.current_thread() is threading.main_thread() and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)

    kwargs = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    if address is None:
        # "local": a new Ray of this process's own, even where `ray start` runs a cluster.
        ray.init(address="local", num_cpus=cpus, **kwargs)
    else:
        ray.init(address=address, **kwargs)
    return True


@contextlib.contextmanager
def driver(tool, address=None, cpus=None):
    """Ray for a driver that plays games: the `ray` module (or exit, saying how to install
    it), started on this machine with `cpus` CPUs and its workers at the driver's niceness
    (Ray's own default is nice 15: on a shared machine the games would get less CPU than a
    local run's; RAY_worker_niceness in the environment wins), or joined at `address`;
    shut down after, if this call started it."""
    try:
        ray = need_ray(tool)
    except ImportError as e:
        sys.exit(str(e))
    if address is None:
        os.environ.setdefault("RAY_worker_niceness", str(os.nice(0)))
    started = connect(address, cpus)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def ship_by_value(*names):
    """Has Ray send the named modules (a task's and those it uses) to the workers by value,
    so that a worker needs Ray and the binaries but not this repository's Python files (a
    worker imports them by name otherwise, and Ray puts only the driver's directory on its
    path). A module run as `__main__` goes by value anyway."""
    ray = need_ray()
    for name in names:
        if name != "__main__":
            ray.cloudpickle.register_pickle_by_value(sys.modules[name])


def reason(e):
    """The last line of a task's error: the exception the task raised, or Ray's own."""
    lines = [line for line in str(e).strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(e).__name__


def clock(seconds):
    """`H:MM:SS`, or `?` for a duration not known."""
    if seconds is None or not math.isfinite(seconds):
        return "?"
    s = int(round(seconds))
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def write_whole(path, data):
    """Writes `data` to `path` through a temporary file in the same directory and a rename."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", prefix=".partial-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def files_on_ray(
    fn,
    items,
    args_of,
    path_of,
    address=None,
    cpus=None,
    retries=2,
    say=lambda text: None,
    label=str,
    finished=None,
    tick=None,
    every=None,
):
    """Runs the Ray task `fn(*args_of(item))` (one CPU; it returns the file's bytes and
    anything else) for each item and writes the bytes whole to `path_of(item)` as each task
    finishes. A worker that dies is retried by Ray, a task that fails by this loop, up to
    `retries` more times; an item that keeps failing is reported and left out.
    `finished(item, data, rest)` after each file; `tick(made, failed, in_flight)` after each
    wait (at most `every` seconds; None: a wait for the next task). Returns (made,
    failed). `fn`'s module goes to the workers by value (they need Ray, not these files)."""
    ray = need_ray()
    connect(address, cpus)
    ship_by_value(fn.__module__)
    task = ray.remote(num_cpus=1, max_retries=retries)(fn)
    in_flight = {task.remote(*args_of(item)): (item, 0) for item in items}
    made, failed = [], []
    while in_flight:
        ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=every)
        for ref in ready:
            item, tries = in_flight.pop(ref)
            try:
                data, *rest = ray.get(ref)
            except ray.exceptions.RayError as e:
                if tries < retries:
                    say("%s failed (%s); retry %d of %d" % (label(item), reason(e), tries + 1, retries))
                    in_flight[task.remote(*args_of(item))] = (item, tries + 1)
                else:
                    say("%s failed %d times, left for a later run: %s" % (label(item), tries + 1, reason(e)))
                    failed.append(item)
                continue
            write_whole(path_of(item), data)
            made.append(item)
            if finished:
                finished(item, data, rest)
        if tick:
            tick(made, failed, len(in_flight))
    return made, failed
