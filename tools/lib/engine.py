"""An engine process spoken to line by line over pipes, as the tools/ scripts need it."""

import os
import selectors
import subprocess
import time

# The longest single wait for an engine's output (seconds); a longer wait is several.
WAIT_SLICE = 0.5


class EngineError(RuntimeError):
    """The engine closed its output (crashed or quit) or did not answer in time."""


class Engine:
    def __init__(self, argv, name="engine"):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._buf = b""
        self._sel = selectors.DefaultSelector()
        self._sel.register(self.p.stdout, selectors.EVENT_READ)

    def send(self, line):
        try:
            self.p.stdin.write((line + "\n").encode())
            self.p.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError("%s: cannot write (%s)" % (self.name, e)) from None

    def readline(self, timeout=None):
        """One line without its newline; EngineError at end of output or after `timeout`
        seconds (None: wait for ever)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buf:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise EngineError("%s did not answer in time" % self.name)
            # In slices: ray.cancel (tools/ray_match.py) stops a task with a KeyboardInterrupt
            # that Python only raises between two calls, not inside a select that waits on.
            if not self._sel.select(WAIT_SLICE if left is None else min(left, WAIT_SLICE)):
                continue
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                raise EngineError("%s closed its output" % self.name)
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode(errors="replace").rstrip("\r")

    def until(self, prefix, timeout=None):
        """The lines up to and including the first that starts with `prefix`; EngineError
        if that takes more than `timeout` seconds in all."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lines = []
        while True:
            line = self.readline(None if deadline is None else max(0.0, deadline - time.monotonic()))
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def alive(self):
        return self.p.poll() is None

    def new_game(self, command, timeout=None):
        """`command` (`usinewgame` or `ucinewgame`), then `isready` answered; EngineError
        after `timeout` seconds."""
        self.send(command)
        self.send("isready")
        self.until("readyok", timeout=timeout)

    def close(self, timeout=5):
        """`quit`, end of input, and a kill if the process is still there after `timeout`
        seconds."""
        try:
            self.send("quit")
        except EngineError:
            pass
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
        self._sel.close()
        self.p.stdout.close()


def running(e, start):
    """`e` if its process still runs, else a new engine from `start()` (`e`, when there
    is one, closed first)."""
    if e is not None and e.alive():
        return e
    if e is not None:
        e.close()
    return start()


def last_info(lines, field):
    """The whole-number value of `field` (e.g. `time`, `nodes`) on the last `info` line
    among an engine's `lines` that has one (USI and UCI alike; not `info string`, whose
    text is free), or None."""
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and words[1:2] != ["string"] and field in words[:-1]:
            value = words[words.index(field) + 1]
            if value.isdigit():
                return int(value)
    return None


def reported_ms(lines):
    """The `time` of the last `info` line that has one, or None."""
    return last_info(lines, "time")


def start(path, protocol, options=(), name="engine", timeout=None):
    """An engine process after `usi` or `uci` (`protocol`), `setoption name N value V` for
    each (N, V) of `options`, and `isready`; EngineError if a reply takes more than
    `timeout` seconds (None: wait for ever)."""
    e = Engine([path], name)
    try:
        e.send(protocol)
        e.until(protocol + "ok", timeout=timeout)
        for n, v in options:
            e.send("setoption name %s value %s" % (n, v))
        e.send("isready")
        e.until("readyok", timeout=timeout)
    except BaseException:
        e.close(timeout=1)  # not left running: a hung engine, or a task cancelled meanwhile
        raise
    return e


def start_koma(path, variant, options=(), name="koma"):
    """A koma process after `usi`, `USI_Variant`, `setoption name N value V` for each
    (N, V) of `options`, and `isready`."""
    return start(path, "usi", [("USI_Variant", variant)] + list(options), name)


def start_uci(path, options=(), name="engine", timeout=None):
    """A UCI engine (Fairy-Stockfish, or koma in UCI) after `uci`, the `options` and `isready`."""
    return start(path, "uci", options, name, timeout)


def position_command(moves):
    """`position startpos`, with ` moves ...` when there are any."""
    return "position startpos moves " + " ".join(moves) if moves else "position startpos"


def parse_result(lines):
    """The end of the game in the lines koma's `d` prints: None while it goes on, else
    (winner, reason) with winner `b` (the first player), `w`, or None for a draw.

    `d` names the players as the game does (`hands sente ...  gote ...`, `black`/`red` in
    the crab games) and ends, once the game is over, with `result sente wins: checkmate`
    or `result draw: repetition` before the `sfen` line (src/game/state.rs)."""
    names = None
    for line in lines:
        words = line.split()
        if words[:1] == ["hands"] and len(words) >= 5:
            names = (words[1], words[3])
        elif line.startswith("result "):
            text = line[len("result ") :]
            if text.startswith("draw: "):
                return None, text[len("draw: ") :]
            who, sep, reason = text.partition(" wins: ")
            if not sep or names is None or who not in names:
                raise EngineError("cannot read the result line %r" % line)
            return "bw"[names.index(who)], reason
    return None


class Referee:
    """A koma process that judges a game: which moves are legal (`moves`), the position's
    SFEN and, once the game is over, who won and by which rule (`d`'s `result` line).
    Every end-of-game rule (checkmate, stalemate, repetition, perpetual check, the
    move-count rule, sum of seven, the crab games' captures) is koma's own."""

    def __init__(self, path, variant, options=(), name="referee"):
        self.e = start_koma(path, variant, options, name)

    def legal(self, moves):
        """koma's legal moves after `moves` from the start; EngineError if koma rejects them."""
        self.e.send(position_command(moves))
        self.e.send("moves")
        line = self.e.until("", timeout=60)[-1]
        if line.startswith("info string error"):
            raise EngineError("referee: " + line)
        return line.split()

    def state(self, moves):
        """(legal moves, SFEN, result) after `moves`, with one `position`; result as
        parse_result gives it (None while the game goes on)."""
        legal = self.legal(moves)
        self.e.send("d")
        lines = self.e.until("sfen ", timeout=60)
        return legal, lines[-1][len("sfen ") :], parse_result(lines)

    def sfen(self, moves):
        return self.state(moves)[1]

    def close(self):
        self.e.close()


class BindingReferee:
    """Referee's answers from the Python binding (`import koma`, python/) in this process:
    the same rules and referee (the koma crate), without a process and a pipe round trip
    per question (tools/referee_speed.py measures the difference). The board follows the
    game: a question about the moves played so far plus some more only plays the new ones.
    `path` is not used: the rules are those of the installed module, built from this
    repository's sources."""

    def __init__(self, path, variant, options=(), name="referee"):
        import koma

        self.koma, self.variant, self.switches = koma, variant, dict(options)
        self.board = koma.Board(variant, **self.switches)

    def _board(self, moves):
        stack = [m.usi() for m in self.board.move_stack]
        if stack != list(moves[: len(stack)]):
            self.board = self.koma.Board(self.variant, **self.switches)
            stack = []
        try:
            for m in moves[len(stack) :]:
                self.board.push(m)
        except ValueError as e:
            raise EngineError("referee: %s" % e) from None
        return self.board

    def legal(self, moves):
        """The legal moves after `moves` (none once the game is over); EngineError if a
        move cannot be played."""
        return self._board(moves).legal_moves.usi()

    def state(self, moves):
        board = self._board(moves)
        r = board.result()
        return board.legal_moves.usi(), board.sfen(), None if r is None else (r.winner, r.reason)

    def sfen(self, moves):
        return self._board(moves).sfen()

    def close(self):
        pass


def new_referee(path, variant, options=(), name="referee"):
    """The binding's referee when `import koma` works (the README's test command installs
    it in .venv) and knows the options, else a koma process of the binary at `path`."""
    try:
        return BindingReferee(path, variant, options, name)
    except (ImportError, ValueError):  # no binding, or an option it does not know
        return Referee(path, variant, options, name)
