#!/usr/bin/env python3
"""Plays one of koma's games to the end in a real xboard window, in a virtual X display.

    python3 -m tools.xboard_demo VARIANT [--mode human|machines] [--out DIR] [--depth N]

VARIANT is an xboard variant name koma lists (kokesu, rokurokushogi, numbershogi).

- `--mode human` (default): koma plays black in xboard (CECP). White is a "player" that
  types its moves into xboard's board window (xdotool), as a person would with the
  keyboard; xboard checks them and passes them to koma. The player's moves are chosen by
  a second koma spoken to in UCI (a shallow search, `go depth N`).
- `--mode machines`: koma against koma in xboard's two-machine mode.

Leaves in DIR: VARIANT-MODE.png (the board at the end of the game), VARIANT-MODE.pgn
(the game as xboard saved it) and VARIANT-MODE-debug.txt (xboard's log of every CECP line).
Needs: xboard, xvfb, xdotool and imagemagick's import (Debian: apt-get install xboard
xvfb xdotool imagemagick), and `cargo build --release` (or KOMA=/path/to/koma).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from tools.lib.engine import position_command, start_uci
from tools.lib.paths import DATA, DEFAULT_KOMA

KOMA = os.environ.get("KOMA", DEFAULT_KOMA)
XBOARD = shutil.which("xboard") or "/usr/games/xboard"
THEMES = "/usr/share/games/xboard/themes"

# koma's USI_Variant name for each xboard name (UCI uses koma's names).
UCI_NAME = {"kokesu": "kokesu", "rokurokushogi": "shogi66", "numbershogi": "numbershogi"}


def piece_options(variant, workdir):
    """xboard options that make the pieces look like the game's own."""
    if variant == "kokesu":
        return ["-testLegality", "true"]
    # xboard finds no king in Number Shogi, nor in 66 shogi's placement phase, and then
    # calls every move illegal (its check test needs a king): koma alone judges moves.
    opts = ["-testLegality", "false", "-flipBlack", "true"]
    pieces = os.path.join(workdir, "pieces")
    os.makedirs(pieces, exist_ok=True)
    if variant == "rokurokushogi":
        # xboard's shogi pieces; the king, which must be able to stand in the holdings for
        # the placement phase, is xboard's commoner piece: give it the king's picture.
        for f in os.listdir(os.path.join(THEMES, "shogi")):
            shutil.copy(os.path.join(THEMES, "shogi", f), pieces)
        for color in ("White", "Black"):
            shutil.copy(os.path.join(THEMES, "shogi", color + "King.svg"), os.path.join(pieces, color + "Commoner.svg"))
        return opts + ["-pieceImageDirectory", pieces, "-trueColors", "true"]
    # Number Shogi: blank pieces with the value written on them (8 on the promoted side),
    # as on the real pieces. Inscriptions go by xboard's piece order: A..F are its first
    # six types, their promoted sides the types 11..16.
    # (xboard takes its own picture of a piece before a tile, so every name is a tile.)
    names = {f[5:] for f in os.listdir(os.path.join(THEMES, "default")) if f.startswith("White")}
    for color in ("White", "Black"):
        for n in names | {"Tile.svg"}:
            shutil.copy(os.path.join(DATA, "xboard", "Tile.svg"), os.path.join(pieces, color + n))
    return opts + ["-pieceImageDirectory", pieces, "-inscriptions", "①②③④⑤⑥.....⑧⑧⑧⑧⑧⑧"]


# The programs the demo runs, and the Debian packages that hold them.
PROGRAMS = {"Xvfb": "xvfb", "xdotool": "xdotool", "import": "imagemagick"}
MISSING_MESSAGE = "xboard_demo needs %s: install them (Debian: sudo apt-get install xboard xvfb xdotool imagemagick)"


def missing_programs():
    """The programs the demo needs that are not installed, named with their packages."""
    missing = [] if os.access(XBOARD, os.X_OK) else ["xboard (package xboard)"]
    return missing + ["%s (package %s)" % (p, pkg) for p, pkg in PROGRAMS.items() if shutil.which(p) is None]


def start_display():
    for n in range(91, 120):
        if not os.path.exists("/tmp/.X11-unix/X%d" % n) and not os.path.exists("/tmp/.X%d-lock" % n):
            display = ":%d" % n
            proc = subprocess.Popen(
                ["Xvfb", display, "-screen", "0", "1024x768x24"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            time.sleep(1)
            return display, proc
    sys.exit("no free X display number")


class UciPlayer:
    """The human side's brain: koma in UCI, a shallow search."""

    def __init__(self, variant, depth):
        self.depth = depth
        self.e = start_uci(KOMA, [("UCI_Variant", UCI_NAME[variant])], "koma (UCI)")

    def move(self, moves):
        self.e.send(position_command(moves))
        self.e.send("go depth %d" % self.depth)
        best = self.e.until("bestmove")[-1].split()[1]
        return None if best == "(none)" else best

    def close(self):
        self.e.close(timeout=10)


MOVE_RE = re.compile(r">first : usermove \d+ >first : (\S+)|<first : move (\S+)|^GameEnds\(([1-9]\d*),")


def game_state(log):
    """(moves so far, whether the game has ended) from xboard's debug log."""
    moves, over = [], False
    try:
        text = open(log).read()
    except FileNotFoundError:
        return moves, over
    for line in text.splitlines():
        m = MOVE_RE.search(line)
        if m:
            if m.group(3):
                over = True
            else:
                moves.append(m.group(1) or m.group(2))
    return moves, over


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("variant", choices=sorted(UCI_NAME))
    ap.add_argument("--mode", choices=["human", "machines"], default="human")
    ap.add_argument("--out", default="xboard-demo")
    ap.add_argument("--depth", type=int, default=1, help="the UCI player's search depth")
    ap.add_argument("--engine-depth", type=int, default=4, help="koma's depth in xboard (sd)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds for the whole game")
    ap.add_argument(
        "--snapshot",
        type=int,
        action="append",
        default=[],
        help="also take a screenshot once this many plies are played (repeatable)",
    )
    args = ap.parse_args()
    if not os.access(KOMA, os.X_OK):
        sys.exit("no engine at %s (cargo build --release, or set KOMA)" % KOMA)
    missing = missing_programs()
    if missing:
        sys.exit(MISSING_MESSAGE % ", ".join(missing))
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    name = "%s-%s" % (args.variant, args.mode)
    log = os.path.join(out, name + "-debug.txt")
    for f in (log, os.path.join(out, name + ".pgn")):
        if os.path.exists(f):
            os.remove(f)

    display, xvfb = start_display()
    env = dict(os.environ, DISPLAY=display)
    work = tempfile.mkdtemp(prefix="koma-xboard-")
    cmd = [
        XBOARD,
        "-fcp",
        KOMA,
        "-fd",
        work,
        "-variant",
        args.variant,
        "-tc",
        "10",
        "-inc",
        "0",
        "-searchDepth",
        str(args.engine_depth),
        "-autoCallFlag",
        "false",
        "-debug",
        "-nameOfDebugFile",
        log,
        "-saveGameFile",
        os.path.join(out, name + ".pgn"),
        "-popupExitMessage",
        "false",
        "-boardSize",
        "Medium",
        # Nothing read from or saved to the user's ~/.xboardrc.
        "-settingsFile",
        os.path.join(work, "xboardrc"),
        "-saveSettingsFile",
        os.path.join(work, "xboardrc"),
        "-saveSettingsOnExit",
        "false",
    ] + piece_options(args.variant, work)
    if args.mode == "machines":
        cmd += ["-scp", KOMA, "-secondDirectory", work, "-mode", "TwoMachines"]
    xboard = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    player = UciPlayer(args.variant, args.depth) if args.mode == "human" else None
    deadline = time.time() + args.timeout
    result = "no result before the timeout"
    try:
        time.sleep(4)
        window = subprocess.run(
            ["xdotool", "search", "--name", "xboard"], env=env, capture_output=True, text=True
        ).stdout.split()
        typed = -1
        snapshots = sorted(args.snapshot)
        while time.time() < deadline:
            moves, over = game_state(log)
            if snapshots and len(moves) >= snapshots[0]:
                time.sleep(1)
                shot = os.path.join(out, "%s-ply%d.png" % (name, snapshots.pop(0)))
                subprocess.run(["import", "-window", "root", shot], env=env)
            if over:
                result = "game over"
                break
            # The player moves when it is white's turn and its last move has been answered.
            if player and len(moves) % 2 == 0 and len(moves) > typed:
                mv = player.move(moves)
                if mv is None:
                    time.sleep(2)
                    continue
                for w in window[-1:]:
                    subprocess.run(["xdotool", "type", "--window", w, "--delay", "40", mv], env=env)
                    subprocess.run(["xdotool", "key", "--window", w, "Return"], env=env)
                typed = len(moves)
            time.sleep(0.5)
        time.sleep(2)
        subprocess.run(["xdotool", "mousemove", "1000", "760"], env=env)
        time.sleep(1)
        png = os.path.join(out, name + ".png")
        subprocess.run(["import", "-window", "root", png], env=env)
        ends = [l for l in open(log).read().splitlines() if l.startswith("GameEnds(")]
        print(
            "%s: %s; %d plies; %s; screenshot %s"
            % (name, result, len(game_state(log)[0]), ends[-1] if ends else "-", png)
        )
    finally:
        if player:
            player.close()
        xboard.terminate()
        xboard.wait(timeout=10)
        xvfb.terminate()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
