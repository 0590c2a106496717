"""The table server under the hardening issue's heavy attacks (issue 23), as figures.

    python benchmarks/bench_hostile.py [--checkout DIR]

Starts `rami serve` from DIR (default: this checkout) on a free 127.0.0.1
port and measures:

- profile: the time to refuse a pasted 1 MB house file of 99,990 unknown keys,
  and the slowest `GET /api/meta` answered while it is being read (the loop
  stall a visitor causes);
- slow readers: the server's RSS after 40 WebSockets that never read have
  watched a bots-only table for `--seconds` seconds;
- check flood: 8 clients sending the largest move checks the protocol lets
  through (60 melds of 120 cards, `POST /api/tables/ID/check`) for
  `--seconds` seconds, and the slowest `GET /api/meta` meanwhile.

With `--memory`, only the memory of pasted profiles (issue 44): the
server's RSS growth over 30 hostile pastes (nested aliases, merge keys) to
the create route, each refused, under 60 s in all.

Run it once against a checkout from before the hardening and once after to
get the before and after figures (docs/server.md quotes them). Every loop is
bounded by a count and a deadline.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(checkout: Path, db: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONUNBUFFERED": "1"}
    cmd = [sys.executable, "-m", "rami_core.cli", "serve", "--port", str(port), "--db", str(db), *extra]
    proc = subprocess.Popen(cmd, cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/meta", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("rami serve did not start")


def profile_attack(url: str) -> dict[str, float]:
    rules = "extends: rami51\n" + "".join(f"k{i:05d}: 1\n" for i in range(99_990))
    body = {"seats": ["human", "human"], "rules": rules[: (1 << 20) - 1]}
    result: dict[str, float] = {}

    def post() -> None:
        t0 = time.perf_counter()
        try:
            r = httpx.post(url + "/api/tables", json=body, timeout=120)
        except httpx.HTTPError:  # no answer in 120 s: the figure is "more than 120"
            result["refuse_s"] = float("inf")
            return
        result["refuse_s"] = time.perf_counter() - t0
        result["status"] = r.status_code
        result["body_bytes"] = len(r.content)

    th = threading.Thread(target=post)
    th.start()
    worst = 0.0
    for _ in range(600):  # at most 600 probes
        if not th.is_alive():
            break
        t0 = time.perf_counter()
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(url + "/api/meta", timeout=120)
        worst = max(worst, time.perf_counter() - t0)
        time.sleep(0.05)
    th.join(timeout=150)
    result["meta_worst_s"] = worst
    return result


def slow_readers(url: str, pid: int, seconds: float) -> dict[str, float]:
    r = httpx.post(
        url + "/api/tables", json={"seats": ["greedy", "greedy"], "variant": "rami51"}, timeout=300
    )
    table = r.json()["table"]
    before = rss_mib(pid)
    socks = []
    host, port = url.split("//")[1].split(":")
    for _ in range(40):
        s = socket.create_connection((host, int(port)), timeout=5)
        s.sendall(
            (
                f"GET /ws/tables/{table} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        socks.append(s)  # never read from again
    time.sleep(seconds)
    after = rss_mib(pid)
    t0 = time.perf_counter()
    httpx.get(url + "/api/meta", timeout=60)
    meta = time.perf_counter() - t0
    for s in socks:
        s.close()
    return {"rss_before_mib": before, "rss_after_mib": after, "meta_s": meta}


def check_flood(url: str, seconds: float) -> dict[str, float]:
    r = httpx.post(url + "/api/tables", json={"seats": ["human", "human"], "variant": "rami51", "seed": 1})
    out = r.json()
    table = out["table"]
    view = httpx.get(f"{url}/api/tables/{table}/view").json()
    token = out["seats"][view["turn"]]["token"]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    cards = [r + s for s in "SHDC" for r in ranks] + ["JK"] * 4
    melds = [(cards * 3)[i : i + 120] for i in range(60)]
    stop = time.monotonic() + seconds
    sent = [0]

    def flood() -> None:
        with httpx.Client(timeout=60) as c:
            while time.monotonic() < stop:
                with contextlib.suppress(httpx.HTTPError):
                    c.post(f"{url}/api/tables/{table}/check?token={token}", json={"rearrange": melds})
                    sent[0] += 1

    threads = [threading.Thread(target=flood) for _ in range(8)]
    for th in threads:
        th.start()
    worst = 0.0
    for _ in range(10_000):
        if time.monotonic() >= stop:
            break
        t0 = time.perf_counter()
        with contextlib.suppress(httpx.HTTPError):
            httpx.get(url + "/api/meta", timeout=60)
        worst = max(worst, time.perf_counter() - t0)
        time.sleep(0.05)
    for th in threads:
        th.join(timeout=120)
    return {"checks": sent[0], "meta_worst_s": worst}


def _nested(levels: int, fan: int = 9) -> str:
    names = "abcdefghij"
    lines = [f"{names[0]}: &{names[0]} [" + ",".join(["x"] * fan) + "]"]
    for i in range(1, levels):
        lines.append(f"{names[i]}: &{names[i]} [" + ",".join([f"*{names[i - 1]}"] * fan) + "]")
    return "\n".join(lines) + "\n"


HOSTILE_PASTES = [
    _nested(5),
    "extends: rami51\n" + _nested(4),
    _nested(3, fan=20),
    "m0: &m0 {a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8}\n"
    "m1: &m1 [*m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0, *m0]\n"
    "m2: &m2 [*m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1, *m1]\n"
    "opening:\n  <<: [*m2, *m2, *m2, *m2, *m2]\n",
]


def memory_attack(url: str, pid: int, pastes: int = 30) -> dict[str, float]:
    """RSS before and after `pastes` hostile pastes to the create route (each unique)."""
    httpx.post(url + "/api/tables", json={"seats": ["human", "human"], "variant": "rami51"}, timeout=30)
    before = rss_mib(pid)
    statuses: dict[str, int] = {}
    deadline = time.monotonic() + 45
    for i in range(pastes):
        if time.monotonic() > deadline:
            break
        text = HOSTILE_PASTES[i % len(HOSTILE_PASTES)] + f"# paste {i}\n"
        with contextlib.suppress(httpx.HTTPError):
            r = httpx.post(url + "/api/tables", json={"seats": ["human", "human"], "rules": text}, timeout=30)
            statuses[str(r.status_code)] = statuses.get(str(r.status_code), 0) + 1
    after = rss_mib(pid)
    return {"rss_before_mib": before, "rss_after_mib": after, "growth_mib": after - before, **statuses}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--memory", action="store_true", help="only the hostile pastes' RSS growth")
    args = ap.parse_args()
    if args.memory:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            proc = start(args.checkout.resolve(), Path(tmp) / "bench.sqlite", port)
            try:
                out = {"memory": memory_attack(f"http://127.0.0.1:{port}", proc.pid)}
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        print(json.dumps(out, indent=2))
        return
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start(args.checkout.resolve(), Path(tmp) / "bench.sqlite", port, "--bot-delay", "0")
        url = f"http://127.0.0.1:{port}"
        try:
            # The slow readers first, on a fresh server: memory freed after
            # the profile attack would hide what the sockets pin.
            out = {"slow_readers": slow_readers(url, proc.pid, args.seconds)}
            out["profile"] = profile_attack(url)
            out["check_flood"] = check_flood(url, args.seconds)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
