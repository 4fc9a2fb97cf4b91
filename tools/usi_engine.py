"""An engine process spoken to line by line over pipes, as the tools/ scripts need it."""
import subprocess


class Engine:
    def __init__(self, argv, name="engine"):
        self.name = name
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        """The lines up to and including the first that starts with `prefix`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("%s closed its output" % self.name)
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


def start_koma(path, variant, options=(), name="koma"):
    """A koma process after `usi`, `USI_Variant`, `setoption name N value V` for each
    (N, V) of `options`, and `isready`."""
    e = Engine([path], name)
    e.send("usi")
    e.until("usiok")
    for n, v in [("USI_Variant", variant)] + list(options):
        e.send("setoption name %s value %s" % (n, v))
    e.send("isready")
    e.until("readyok")
    return e
