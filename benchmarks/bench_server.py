"""Load on the table server: N tables of bots and M WebSocket clients on loopback.

Starts `rami serve` as a child process on 127.0.0.1 with a fresh SQLite file,
then, for a fixed time:

- N tables where only bots sit (two greedy bots each) play in the server;
- M WebSocket clients: half watch the bot tables as spectators, half sit at
  their own table against a greedy bot and play by the protocol (draw from the
  stock, discard the card drawn), timing each action from the moment it is
  sent to the moment the view that shows it arrives;
- one HTTP client reads a view every 50 ms and times the answer.

It reports actions accepted per second (every table's stored log), p50/p99
latency of both kinds, and the server's memory (resident set) at the start and
the end. Every loop is bounded by the duration and a count; the server is
stopped at the end. Loopback only.

    pip install -e '.[server]'
    python benchmarks/bench_server.py                       # 20 tables, 40 clients, 20 s
    python benchmarks/bench_server.py --tables 50 --clients 100 --seconds 30 --sync full
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def player(url: str, ws_url: str, stop: float, latencies: list[float], errors: list[str]) -> int:
    """A person at a table against a bot, playing by the protocol as fast as it is let."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.post("/api/tables", json={"variant": "rami51", "seats": ["human", "greedy"]})
        out = r.json()
        token = out["seats"][0]["token"]
    played = 0
    async with websockets.connect(f"{ws_url}/ws/tables/{out['table']}?token={token}", max_size=1 << 22) as ws:
        view = None
        sent_at = None
        sent_version = -1
        drawn = None
        while time.monotonic() < stop and played < 100_000:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "event":
                e = msg["event"]
                if e["kind"] == "drawn" and e["seat"] == 0 and "card" in e:
                    drawn = e["card"]
                continue
            if msg["type"] == "error":
                errors.append(msg["code"])
                sent_at = None
                continue
            view = msg["view"]
            if sent_at is not None and view["version"] > sent_version:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if sent_at is not None or view["turn"] != 0 or view["phase"] == "over":
                continue
            if view["phase"] == "draw":
                action = {"draw": "stock"}
            else:
                card = drawn if drawn in view["hand"] else view["hand"][-1]
                action = {"discard": card}
            sent_at = time.perf_counter()
            sent_version = view["version"]
            await ws.send(json.dumps({"type": "action", "action": action}))
            played += 1
    return played


async def spectator(ws_url: str, table: str, stop: float) -> int:
    got = 0
    async with websockets.connect(f"{ws_url}/ws/tables/{table}", max_size=1 << 22) as ws:
        while time.monotonic() < stop and got < 10_000_000:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            got += 1
    return got


async def prober(url: str, table: str, stop: float, latencies: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while time.monotonic() < stop and len(latencies) < 100_000:
            t0 = time.perf_counter()
            await http.get(f"/api/tables/{table}/view")
            latencies.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)


async def run(args: argparse.Namespace, url: str, pid: int) -> dict:
    ws_url = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        tables = []
        for _ in range(args.tables):
            r = await http.post("/api/tables", json={"variant": "rami51", "seats": ["greedy", "greedy"]})
            tables.append(r.json()["table"])
    rss_start = rss_mib(pid)
    t0 = time.monotonic()
    stop = t0 + args.seconds
    action_lat: list[float] = []
    view_lat: list[float] = []
    errors: list[str] = []
    n_players = args.clients // 2
    n_watchers = args.clients - n_players
    tasks = [asyncio.create_task(player(url, ws_url, stop, action_lat, errors)) for _ in range(n_players)]
    tasks += [
        asyncio.create_task(spectator(ws_url, tables[i % len(tables)], stop))
        for i in range(n_watchers)
        if tables
    ]
    if tables:
        tasks.append(asyncio.create_task(prober(url, tables[0], stop, view_lat)))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    elapsed = time.monotonic() - t0
    failures = [r for r in results if isinstance(r, BaseException)]
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        listed = (await http.get("/api/tables")).json()
    actions = sum(t["actions"] for t in listed)
    return {
        "tables": len(listed),
        "bot_tables": args.tables,
        "clients": args.clients,
        "seconds": elapsed,
        "actions": actions,
        "actions_per_s": actions / elapsed,
        "ws_actions": len(action_lat),
        "action_p50_ms": pct(action_lat, 0.5) * 1000,
        "action_p99_ms": pct(action_lat, 0.99) * 1000,
        "view_p50_ms": pct(view_lat, 0.5) * 1000,
        "view_p99_ms": pct(view_lat, 0.99) * 1000,
        "rss_start_mib": rss_start,
        "rss_end_mib": rss_mib(pid),
        "refusals": len(errors),
        "client_failures": [repr(f) for f in failures[:3]],
        "mean_action_ms": statistics.fmean(action_lat) * 1000 if action_lat else float("nan"),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", type=int, default=20, help="tables where only bots play")
    ap.add_argument("--clients", type=int, default=40, help="WebSocket clients (half play, half watch)")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--sync", choices=["normal", "full"], default="normal")
    ap.add_argument("--bot-delay", type=float, default=0.0, help="the server's pause before each bot action")
    args = ap.parse_args()
    if args.seconds > 600 or args.tables > 2000 or args.clients > 2000:
        ap.error("keep it bounded: at most 600 s, 2000 tables, 2000 clients")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        cmd = [sys.executable, "-m", "rami_core.cli", "serve", "--host", HOST, "--port", str(port)]
        cmd += [
            "--db",
            str(db),
            "--sync",
            args.sync,
            "--bot-delay",
            str(args.bot_delay),
            "--round-pause",
            "0.2",
        ]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://{HOST}:{port}"
        try:
            for _ in range(300):
                try:
                    httpx.get(url + "/api/tables", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            out = asyncio.run(run(args, url, proc.pid))
            out["db_mib"] = sum(p.stat().st_size for p in Path(tmp).iterdir()) / 2**20
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    print(f"rami serve on {HOST}, sync={args.sync}, {os.cpu_count()} CPUs, {out['seconds']:.1f} s")
    print(f"{'bot tables':<28}{out['bot_tables']:>12}")
    print(f"{'tables (with players)':<28}{out['tables']:>12}")
    print(f"{'WebSocket clients':<28}{out['clients']:>12}")
    print(f"{'actions stored':<28}{out['actions']:>12}")
    print(f"{'actions/s':<28}{out['actions_per_s']:>12.0f}")
    print(
        f"{'WS action p50 / p99 (ms)':<28}{out['action_p50_ms']:>6.1f} / {out['action_p99_ms']:.1f}  ({out['ws_actions']} actions)"
    )
    print(f"{'HTTP view p50 / p99 (ms)':<28}{out['view_p50_ms']:>6.1f} / {out['view_p99_ms']:.1f}")
    print(f"{'server RSS start / end':<28}{out['rss_start_mib']:>6.0f} / {out['rss_end_mib']:.0f} MiB")
    print(f"{'SQLite file + WAL':<28}{out['db_mib']:>8.1f} MiB")
    if out["refusals"] or out["client_failures"]:
        print(f"refusals: {out['refusals']}, client failures: {out['client_failures']}")


if __name__ == "__main__":
    main()
