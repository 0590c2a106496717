"""Helpers for the table server's tests: a live server in a thread or a
process on 127.0.0.1, and the checks every message a client gets must pass."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from rami_core.cards import format_card
from rami_core.game.views import DERIVED_PUBLIC, PUBLIC_FIELDS
from rami_core.server.protocol import SERVER_ADAPTER, View

VIEW_KEYS = set(View.model_fields)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThreadServer:
    """uvicorn serving create_app() in a thread of this process, so a test can
    read the server's own game (the referee) between its requests."""

    def __init__(self, db: Path, **options: Any):
        import uvicorn

        from rami_core.server.app import create_app

        # A test's tables deal from the seed it names, two humans or not: the
        # pages' tests play known hands (tests/hostile/test_hostile_seeds.py
        # checks the server's own default, a seed mixed with its secret).
        options.setdefault("reproducible_seeds", True)
        self.app = create_app(db, **options)
        self.port = free_port()
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub(self):
        return self.app.state.hub

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class ProcessServer:
    """`rami serve` as a child process (so that it can be SIGKILLed)."""

    def __init__(self, db: Path, port: int | None = None, *extra: str):
        self.db = db
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ProcessServer:
        cmd = [sys.executable, "-m", "rami_core.cli", "serve", "--port", str(self.port), "--db", str(self.db)]
        self.proc = subprocess.Popen(
            [*cmd, *self.extra],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(self.url + "/api/tables", timeout=1)
                return self
            except httpx.HTTPError:
                if self.proc.poll() is not None:
                    raise RuntimeError("rami serve exited: " + self.proc.stderr.read().decode()) from None
                if time.monotonic() > deadline:
                    raise RuntimeError("rami serve did not start") from None
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()  # SIGKILL: no cleanup runs
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def faces(cards) -> list[str]:
    return sorted(format_card(c) for c in cards)


def check_message(
    msg: dict[str, Any], seat: int | None, tokens: list[str | None], seed: int | None = None
) -> None:
    """What no message to `seat` may hold: another seat's token (any token for a
    spectator), the seed, another seat's cards outside the round's end; and
    every message has the protocol's shape."""
    text = json.dumps(msg, ensure_ascii=False)
    for i, tok in enumerate(tokens):
        if tok is not None and i != seat:
            assert tok not in text, f"seat {seat} got seat {i}'s token"
    assert '"seed"' not in text
    SERVER_ADAPTER.validate_python(msg)
    if msg["type"] == "view":
        v = msg["view"]
        assert set(v) >= VIEW_KEYS, VIEW_KEYS - set(v)
        # Any key past the protocol's must be one the engine calls public.
        assert set(v) - VIEW_KEYS <= PUBLIC_FIELDS | DERIVED_PUBLIC, set(v) - VIEW_KEYS
        assert v["seat"] == seat
        if seat is None:
            assert v["hand"] is None
        if v["phase"] != "over":
            assert v["revealed_hands"] is None
    elif msg["type"] == "event":
        e = msg["event"]
        if e["kind"] == "drawn" and e["source"] == "stock" and e["seat"] != seat:
            assert "card" not in e, f"seat {seat} saw seat {e['seat']}'s stock draw"
        if e["kind"] != "round_over":
            assert "hands" not in e


def check_view_against(view: dict[str, Any], game, seat: int | None) -> None:
    """A current view against the referee's state: the seat's hand exactly, the public part."""
    s = game.state
    if seat is not None:
        assert sorted(view["hand"]) == faces(s.hands[seat])
    assert view["hand_sizes"] == [len(h) for h in s.hands]
    assert view["stock_size"] == len(s.stock)
    assert view["discard_top"] == (format_card(s.discard[-1]) if s.discard else None)
    assert [sorted(m) for m in view["table"]] == [faces(m.cards) for m in s.table]
    assert (view["turn"], view["phase"], view["round_no"]) == (s.turn, s.phase, s.round_no)
    assert view["scores"] == list(s.scores)
    assert view["winner"] == (s.winner if s.phase == "over" else None)


def action_body(action) -> dict[str, Any]:
    from rami_core.game.actions import action_to_dict

    d = action_to_dict(action)
    d.pop("player", None)
    return d


def counter(cards) -> Counter[str]:
    return Counter(cards)
