"""Whole games through a live server (HTTP and WebSocket on 127.0.0.1): every
message each seat and a spectator receives is checked against the referee's
state, for leaks (another seat's cards, tokens, the seed) and for truth (the
seat's own hand, the public table)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the [server] extra is not installed")

import httpx
from websockets.sync.client import connect

from rami_core.players.bots import make_bot
from tests.server_support import ThreadServer, action_body, check_message, check_view_against


def drain(ws, seat, tokens, version: int, log: list) -> dict:
    """Read messages until the view of `version` (checking each); return that view."""
    deadline = time.monotonic() + 20
    while True:
        try:
            msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        except TimeoutError:
            raise AssertionError(f"seat {seat} waited for view {version}; last: {log[-1:]}") from None
        check_message(msg, seat, tokens)
        log.append(msg)
        if msg["type"] == "view" and msg["view"]["version"] >= version:
            return msg["view"]


@pytest.mark.parametrize(
    ("rules", "bot", "players", "seed"),
    [
        ("extends: rami51\ngame:\n  end: rounds\n  rounds: 2\n", "greedy", 2, 21),
        ("extends: voleur\nturn:\n  time_limit: null\ngame:\n  end: rounds\n  rounds: 1\n", "random", 3, 5),
        ("extends: rami71\ngame:\n  end: rounds\n  rounds: 1\n", "greedy", 4, 8),
    ],
)
def test_whole_game_messages_hold_nothing_hidden(tmp_path: Path, rules, bot, players, seed):
    with (
        ThreadServer(tmp_path / "g.sqlite", bot_delay=0, round_pause=1000, reproducible_seeds=True) as srv,
        httpx.Client(base_url=srv.url) as http,
    ):
        r = http.post("/api/tables", json={"rules": rules, "seats": ["human"] * players, "seed": seed})
        assert r.status_code == 201, r.text
        tid = r.json()["table"]
        tokens = [s["token"] for s in r.json()["seats"]]
        game = srv.hub.get(tid).game  # the referee: read only between requests, when nothing moves
        bots = [make_bot(bot, seed=i) for i in range(players)]
        watchers = [None, *range(players)]
        sockets = {
            w: connect(
                f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}"
                + (f"?token={tokens[w]}" if w is not None else ""),
                legacy=True,
            )
            for w in watchers
        }
        logs: dict = {w: [] for w in watchers}
        try:
            last = {w: drain(ws, w, tokens, 0, logs[w])["version"] for w, ws in sockets.items()}
            # Every socket's connection shows up as a change: wait until all have seen the last one.
            version = max(last.values())
            for w, ws in sockets.items():
                if last[w] < version:
                    drain(ws, w, tokens, version, logs[w])
            actions = 0
            while not game.state.game_over:
                s = game.state
                if s.phase == "over":  # every person continues; the last one's deals
                    seat, body = min(set(range(players)) - srv.hub.get(tid).ready), {"next_round": True}
                else:
                    seat = s.turn
                    body = action_body(bots[seat].choose(game.view(seat), game.rules))
                r = http.post(f"/api/tables/{tid}/actions?token={tokens[seat]}", json=body)
                assert r.status_code == 200, (body, r.text)
                check_message({"type": "view", "view": r.json()}, seat, tokens)
                check_view_against(r.json(), game, seat)
                version = r.json()["version"]
                for w, ws in sockets.items():
                    v = drain(ws, w, tokens, version, logs[w])
                    check_view_against(v, game, w)
                actions += 1
                assert actions < 3000
        finally:
            for ws in sockets.values():
                ws.close()
        # Each seat heard its own stock draws with the card, and nobody else's.
        for w in range(players):
            draws = [m["event"] for m in logs[w] if m["type"] == "event" and m["event"]["kind"] == "drawn"]
            own = [e for e in draws if e["seat"] == w and e["source"] == "stock"]
            assert own and all("card" in e for e in own if not e.get("undone"))
        spectator_draws = [
            m["event"] for m in logs[None] if m["type"] == "event" and m["event"]["kind"] == "drawn"
        ]
        assert spectator_draws and all("card" not in e for e in spectator_draws if e["source"] == "stock")
        assert any(m["type"] == "event" and m["event"]["kind"] == "game_over" for m in logs[None])


def test_bots_and_a_spectator_to_the_game_end(tmp_path: Path):
    """Bots play in the server; the spectator's stream alone must carry no hidden card."""
    with (
        ThreadServer(tmp_path / "b.sqlite", bot_delay=0, round_pause=0.05) as srv,
        httpx.Client(base_url=srv.url) as http,
    ):
        rules = "extends: rami51\ngame:\n  end: rounds\n  rounds: 2\n"
        r = http.post(
            "/api/tables", json={"rules": rules, "seats": ["greedy", "random", "greedy"], "seed": 13}
        )
        tid = r.json()["table"]
        seen = []
        with connect(f"ws://127.0.0.1:{srv.port}/ws/tables/{tid}") as ws:
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                msg = json.loads(ws.recv(timeout=30))
                check_message(msg, None, [])
                seen.append(msg)
                if msg["type"] == "event" and msg["event"]["kind"] == "game_over":
                    break
        assert seen[-1]["event"]["kind"] == "game_over"
        rounds = [m for m in seen if m["type"] == "event" and m["event"]["kind"] == "round_over"]
        assert len(rounds) == 2
        final = http.get(f"/api/tables/{tid}/view").json()
        assert final["game_over"] and len(final["score_sheet"]) == 2
        assert final["scores"] == final["score_sheet"][-1]["scores"]
