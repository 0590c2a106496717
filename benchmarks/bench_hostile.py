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

With `--latency`, latency under attack (issue 44, "no visitor-controlled
work on the event loop"): an innocent visitor at a plain Rami 51 table
times its requests (GET its view, POST an action: draw, then discard) while
an attacker, from other addresses, loops each costly route with the
expensive pasted profile (EXPENSIVE: 4 decks, 8 jokers, 30 cards a hand,
two-card melds): views (and actions, so the views change), WebSocket
reconnects and pings, checks, hints, creations; `--seconds` in all (at most
60). Prints a table: per route the attacker's requests and answers, and the
innocent's p50, p95 and worst. Each actor is its own client through
`X-Forwarded-For` (uvicorn trusts it from 127.0.0.1).

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


EXPENSIVE = """extends: rami51
deck: {decks: 4, jokers: 8}
deal: {hand_size: 30}
melds: {run_min: 2, set_min: 2, set_max: 8, set_distinct_suits: false}
opening: {points: 0, pure_run: false, required: false}
"""


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def latency_attack(url: str, seconds: float) -> dict[str, object]:
    """The innocent's p50/p95/worst per request while the attacker loops every costly route."""
    seconds = min(seconds, 60.0)
    ws_url = url.replace("http://", "ws://")

    def as_client(n: int) -> dict[str, str]:
        return {"x-forwarded-for": f"10.0.{n // 250}.{n % 250 + 1}"}

    # The attacker's tables (4 of them, two seats each), made before the clock starts.
    setup = httpx.Client(timeout=120, headers=as_client(900))
    tables = []
    for i in range(4):
        r = setup.post(url + "/api/tables", json={"seats": ["human", "human"], "rules": EXPENSIVE, "seed": i})
        r.raise_for_status()
        out = r.json()
        tables.append((out["table"], [s["token"] for s in out["seats"]]))
    innocent_h = {"x-forwarded-for": "192.0.2.77"}
    ok = httpx.post(
        url + "/api/tables",
        json={"seats": ["human", "human"], "variant": "rami51", "seed": 5},
        headers=innocent_h,
    ).json()
    mine, my_tokens = ok["table"], [s["token"] for s in ok["seats"]]
    stop = time.monotonic() + seconds
    counts: dict[str, dict[str, int]] = {}
    lock = threading.Lock()

    def tally(route: str, status: object) -> None:
        with lock:
            d = counts.setdefault(route, {})
            d[str(status)] = d.get(str(status), 0) + 1

    def play(c: httpx.Client, table: str, tokens: list[str], route: str = "action") -> None:
        """One move at `table` by the seat to play: draw, else discard its first card."""
        v = c.get(f"{url}/api/tables/{table}/view").json()
        tok = tokens[v["turn"]]
        mine_v = c.get(f"{url}/api/tables/{table}/view?token={tok}").json()
        allowed = mine_v.get("legal", {}).get("allowed", [])
        body: dict[str, object] = (
            {"draw": "stock"} if "draw_stock" in allowed else {"discard": mine_v["hand"][0]}
        )
        r = c.post(f"{url}/api/tables/{table}/actions?token={tok}", json=body)
        tally(route, r.status_code)

    def attack_views(n: int) -> None:
        table, tokens = tables[n % len(tables)]
        with httpx.Client(timeout=60, headers=as_client(n)) as c:
            while time.monotonic() < stop:
                with contextlib.suppress(httpx.HTTPError, KeyError, IndexError, ValueError):
                    for tok in tokens:
                        tally("view", c.get(f"{url}/api/tables/{table}/view?token={tok}").status_code)
                    play(c, table, tokens)  # a new version: the next views are new work

    def attack_ws(n: int) -> None:
        from websockets.sync.client import connect

        table, tokens = tables[n % len(tables)]
        i = 0
        while time.monotonic() < stop:
            i += 1
            try:
                with connect(
                    f"{ws_url}/ws/tables/{table}?token={tokens[i % 2]}",
                    additional_headers=as_client(n),
                    open_timeout=30,
                    close_timeout=2,
                ) as ws:
                    ws.recv(timeout=30)
                    for _ in range(3):
                        ws.send(json.dumps({"type": "ping"}))
                        ws.recv(timeout=30)
                tally("ws reconnect+ping", "ok")
            except Exception as e:  # refused (429 close), timed out: counted by kind
                tally("ws reconnect+ping", type(e).__name__)

    def attack_check(n: int) -> None:
        table, tokens = tables[n % len(tables)]
        with httpx.Client(timeout=60, headers=as_client(n)) as c:
            while time.monotonic() < stop:
                with contextlib.suppress(httpx.HTTPError):
                    for tok in tokens:
                        r = c.post(
                            f"{url}/api/tables/{table}/check?token={tok}",
                            json={"meld": [["2H", "3H"], ["5S", "5D"]]},
                        )
                        tally("check", r.status_code)

    def attack_hint(n: int) -> None:
        table, tokens = tables[n % len(tables)]
        with httpx.Client(timeout=60, headers=as_client(n)) as c:
            while time.monotonic() < stop:
                with contextlib.suppress(httpx.HTTPError):
                    for tok in tokens:
                        tally("hint", c.get(f"{url}/api/tables/{table}/hint?token={tok}").status_code)

    def attack_create(n: int) -> None:
        with httpx.Client(timeout=60, headers=as_client(n)) as c:
            while time.monotonic() < stop:
                with contextlib.suppress(httpx.HTTPError):
                    r = c.post(url + "/api/tables", json={"seats": ["human", "human"], "rules": EXPENSIVE})
                    tally("create", r.status_code)

    attackers = [
        *(threading.Thread(target=attack_views, args=(k,)) for k in range(4)),
        *(threading.Thread(target=attack_ws, args=(k,)) for k in range(10, 12)),
        *(threading.Thread(target=attack_check, args=(k,)) for k in range(20, 22)),
        *(threading.Thread(target=attack_hint, args=(k,)) for k in range(30, 32)),
        *(threading.Thread(target=attack_create, args=(k,)) for k in range(40, 42)),
    ]
    for th in attackers:
        th.start()
    time.sleep(min(2.0, seconds / 4))  # the attack under way
    gets: list[float] = []
    posts: list[float] = []
    with httpx.Client(timeout=120, headers=innocent_h) as c:
        for _ in range(100_000):
            if time.monotonic() >= stop:
                break
            try:
                t0 = time.perf_counter()
                v = c.get(f"{url}/api/tables/{mine}/view").json()
                tok = my_tokens[v["turn"]]
                t1 = time.perf_counter()
                mv = c.get(f"{url}/api/tables/{mine}/view?token={tok}").json()
                gets.append(time.perf_counter() - t1)
                gets.append(t1 - t0)
                allowed = mv["legal"]["allowed"]
                if "next_round" in allowed or not allowed:
                    break
                body = {"draw": "stock"} if "draw_stock" in allowed else {"discard": mv["hand"][0]}
                t0 = time.perf_counter()
                r = c.post(f"{url}/api/tables/{mine}/actions?token={tok}", json=body)
                posts.append(time.perf_counter() - t0)
                tally("innocent action", r.status_code)
            except (httpx.HTTPError, KeyError, IndexError, ValueError) as e:
                tally("innocent error", type(e).__name__)
            time.sleep(0.05)
    for th in attackers:
        th.join(timeout=120)
    setup.close()
    return {
        "seconds": seconds,
        "attacker": counts,
        "innocent_get": {
            "n": len(gets),
            "p50": _pct(gets, 0.5),
            "p95": _pct(gets, 0.95),
            "max": max(gets or [0]),
        },
        "innocent_post": {
            "n": len(posts),
            "p50": _pct(posts, 0.5),
            "p95": _pct(posts, 0.95),
            "max": max(posts or [0]),
        },
    }


def print_latency(out: dict[str, object]) -> None:
    attacker = out["attacker"]
    assert isinstance(attacker, dict)
    print(f"attack of {out['seconds']:g} s; attacker's requests by answer:")
    for route, answers in sorted(attacker.items()):
        print(f"  {route:<20} " + ", ".join(f"{k}: {v}" for k, v in sorted(answers.items())))
    print(f"{'innocent':<14}{'n':>6}{'p50 s':>9}{'p95 s':>9}{'max s':>9}")
    for name in ("innocent_get", "innocent_post"):
        d = out[name]
        assert isinstance(d, dict)
        print(
            f"{name[9:] + ' ' + ('view' if name.endswith('get') else 'action'):<14}{d['n']:>6}"
            f"{d['p50']:>9.3f}{d['p95']:>9.3f}{d['max']:>9.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--memory", action="store_true", help="only the hostile pastes' RSS growth")
    ap.add_argument("--latency", action="store_true", help="only the innocent's latency under attack")
    args = ap.parse_args()
    if args.latency:
        with tempfile.TemporaryDirectory() as tmp:
            port = free_port()
            proc = start(args.checkout.resolve(), Path(tmp) / "bench.sqlite", port)
            try:
                out = latency_attack(f"http://127.0.0.1:{port}", args.seconds)
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
        print_latency(out)
        print(json.dumps(out))
        return
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
