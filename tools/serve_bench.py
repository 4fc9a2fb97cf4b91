#!/usr/bin/env python3
"""koma serve measured: a move's round trip beyond koma's thinking, and the memory of
fifty games at once. A benchmark, not a test: it prints figures and asserts nothing.

Usage:
  python3 -m tools.serve_bench [--koma target/release/koma] [--moves 40] [--games 50]

It starts `koma serve --port 0 --hash MIB` (`--hash`, 2 MiB by default as the server's), speaks to it over
its WebSocket (protocol/serve.md) with a small client of its own (the standard library
has none), and reports:
- echo: from sending a move until the `state` with that move arrives (what a click costs
  before the board shows it, the page's drawing aside);
- reply: from sending a move until the `state` with koma's answer arrives, less the time
  koma's last `info` says it searched (koma at depth 1, so the search itself is short);
- the server's resident memory (VmRSS, and its peak VmHWM) with `--games` games against
  koma, each having made five moves, beside the bound of the tables (games x MIB).
Time figures are medians and 90th percentiles over `--moves` moves.
"""

import argparse
import base64
import json
import os
import random
import socket
import statistics
import struct
import subprocess
import threading
import time


class WebSocket:
    """A minimal WebSocket client: text frames out (masked), text frames in."""

    def __init__(self, host, port, path="/ws"):
        self.sock = socket.create_connection((host, port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += self.sock.recv(4096)
        head, self.buf = buf.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(head.decode(errors="replace"))

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            head = struct.pack(">BB", 0x81, 0x80 | n)
        elif n < 65536:
            head = struct.pack(">BBH", 0x81, 0x80 | 126, n)
        else:
            head = struct.pack(">BBQ", 0x81, 0x80 | 127, n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            if b0 & 0x0F == 1:
                return json.loads(payload)
            if b0 & 0x0F == 8:
                raise EOFError("closed")

    def until(self, check):
        while True:
            m = self.recv()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if check(m):
                return m

    def close(self):
        self.sock.close()


def start_server(koma, hash_mib):
    proc = subprocess.Popen([koma, "serve", "--port", "0", "--hash", str(hash_mib)], stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip().rsplit(" ", 1)[-1]
    host, port = url[len("http://") :].rstrip("/").split(":")
    return proc, host, int(port)


def new_game(ws, variant, limit):
    ws.until(lambda m: m["type"] == "hello")
    ws.send({"type": "new", "variant": variant, "seats": {"b": "human", "w": "koma"}, "limit": limit})
    return ws.until(lambda m: m["type"] == "state")


def round_trips(host, port, moves, rng):
    echo, reply = [], []
    ws = WebSocket(host, port)
    st = new_game(ws, "kokesu", {"depth": 1})
    while len(echo) < moves:
        if st["state"].get("result"):
            st = new_game_again(ws)
            continue
        mv = rng.choice(st["legal"])
        n = len(st["moves"])
        t0 = time.perf_counter()
        ws.send({"type": "move", "move": mv})
        ws.until(lambda m, n=n: m["type"] == "state" and len(m["moves"]) == n + 1)
        t1 = time.perf_counter()
        searched = 0
        while True:
            m = ws.until(lambda m: m["type"] in ("state", "info"))
            if m["type"] == "info" and "time" in m:
                searched = m["time"]
            if m["type"] == "state" and (len(m["moves"]) >= n + 2 or m["state"].get("result")):
                break
        t2 = time.perf_counter()
        st = m
        echo.append((t1 - t0) * 1000)
        if len(m["moves"]) >= n + 2:
            reply.append((t2 - t0) * 1000 - searched)
    ws.close()
    return echo, reply


def new_game_again(ws):
    ws.send({"type": "new", "variant": "kokesu", "seats": {"b": "human", "w": "koma"}, "limit": {"depth": 1}})
    return ws.until(lambda m: m["type"] == "state" and not m["moves"])


def one_of_many(host, port, variant, errors):
    try:
        ws = WebSocket(host, port)
        st = new_game(ws, variant, {"nodes": 2000})
        for _ in range(5):
            while st["thinking"] or st["seats"][st["state"]["side"]] != "human":
                if st["state"].get("result"):
                    break
                st = ws.until(lambda m: m["type"] == "state")
            if st["state"].get("result"):
                break
            n = len(st["moves"])
            ws.send({"type": "move", "move": st["legal"][0]})
            st = ws.until(lambda m, n=n: m["type"] == "state" and len(m["moves"]) > n)
        return ws
    except Exception as e:  # noqa: BLE001 - every failure is counted and printed
        errors.append(f"{variant}: {e}")
        return None


def memory(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                k, v = line.split(":")
                out[k] = int(v.split()[0]) // 1024
    return out


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--koma", default="target/release/koma")
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hash", type=int, default=2, help="each game's table, MiB (koma serve's default)")
    a = ap.parse_args()
    proc, host, port = start_server(a.koma, a.hash)
    try:
        print(f"koma serve at {host}:{port}; idle: {memory(proc.pid)}")
        echo, reply = round_trips(host, port, a.moves, random.Random(a.seed))
        print(
            f"echo (move sent -> its state back): median {statistics.median(echo):.1f} ms, "
            f"90% {pct(echo, 0.9):.1f} ms over {len(echo)} moves"
        )
        print(
            f"reply beyond koma's search (move sent -> koma's answer, less its search time): "
            f"median {statistics.median(reply):.1f} ms, 90% {pct(reply, 0.9):.1f} ms over {len(reply)} moves"
        )
        variants = ["shogi66", "kokesu", "numbershogi", "kanishogi", "kaninariebi"]
        errors, sockets, threads = [], [], []
        for i in range(a.games):
            t = threading.Thread(target=lambda v=variants[i % 5]: sockets.append(one_of_many(host, port, v, errors)))
            t.start()
            threads.append(t)
        for t in threads:
            t.join()
        mem = memory(proc.pid)
        print(
            f"{a.games} games, five moves each, all followed: {len(errors)} errors; "
            f"VmRSS {mem['VmRSS']} MiB, peak {mem['VmHWM']} MiB (tables: {a.games} x {a.hash} = {a.games * a.hash} MiB)"
        )
        for e in errors[:5]:
            print("  error:", e)
        for s in sockets:
            if s:
                s.close()
    finally:
        proc.kill()
        proc.wait()


if __name__ == "__main__":
    main()
