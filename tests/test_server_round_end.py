"""The round's end at the table server: it stays until every person at the
table has clicked "continue" (bots never wait) or the round pause ends; the
server alone decides when the next round is dealt."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.game import actions as A
from rami_core.players.bots import make_bot
from rami_core.server.app import create_app
from tests.server_support import action_body, check_message

TWO_ROUNDS = "extends: rami51\ngame:\n  end: rounds\n  rounds: 2\n"
SEATS = ["human", "human", "greedy"]


def play_to_round_end(c: TestClient, tid: str, tokens: list[str | None]) -> dict:
    """Play the people's turns with greedy bots until the round is over; the
    table's own bot plays by itself."""
    hub = c.app.state.hub
    game = hub.get(tid).game
    players = [make_bot("greedy", seed=i) for i in range(len(tokens))]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        s = game.state
        if s.phase == "over":
            return c.get(f"/api/tables/{tid}/view?token={tokens[0]}").json()
        tok = tokens[s.turn]
        if tok is None:
            time.sleep(0.01)  # the bot's turn: it plays on the server's loop
            continue
        body = action_body(players[s.turn].choose(game.view(s.turn), game.rules))
        r = c.post(f"/api/tables/{tid}/actions?token={tok}", json=body)
        assert r.status_code == 200, r.text
    raise AssertionError("the round did not end")


def new_table(c: TestClient, seed: int = 3) -> tuple[str, list[str | None]]:
    r = c.post("/api/tables", json={"rules": TWO_ROUNDS, "seats": SEATS, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()["table"], [s.get("token") for s in r.json()["seats"]]


def test_the_round_end_waits_for_every_person(tmp_path: Path):
    with TestClient(create_app(tmp_path / "r.sqlite", bot_delay=0, round_pause=1000)) as c:
        tid, tokens = new_table(c)
        v = play_to_round_end(c, tid, tokens)
        check_message({"type": "view", "view": v}, 0, tokens)
        assert v["phase"] == "over" and v["round_no"] == 1
        assert v["revealed_hands"] is not None and len(v["penalties"]) == 3
        assert 990 < v["next_round_in"] <= 1000
        assert v["ready"] == [False, False, True]  # the bot never keeps the table waiting
        assert "next_round" in v["may"]
        # The first person continues: nothing is dealt, the others see who did.
        r = c.post(f"/api/tables/{tid}/actions?token={tokens[0]}", json={"next_round": True})
        assert r.status_code == 200
        v = r.json()
        assert v["phase"] == "over" and v["round_no"] == 1
        assert v["ready"] == [True, False, True] and "next_round" not in v["may"]
        other = c.get(f"/api/tables/{tid}/view?token={tokens[1]}").json()
        assert other["ready"] == [True, False, True] and "next_round" in other["may"]
        # Asking twice changes nothing; a spectator cannot ask.
        again = c.post(f"/api/tables/{tid}/actions?token={tokens[0]}", json={"next_round": True})
        assert again.status_code == 200 and again.json()["round_no"] == 1
        assert again.json()["version"] == v["version"]
        spectator = c.post(f"/api/tables/{tid}/actions", json={"next_round": True})
        assert spectator.status_code == 403
        # The last person continues: the server deals.
        r = c.post(f"/api/tables/{tid}/actions?token={tokens[1]}", json={"next_round": True})
        v = r.json()
        assert v["round_no"] == 2 and v["phase"] != "over"
        assert v["next_round_in"] is None and v["ready"] == [False, False, False]
        log = c.app.state.hub.get(tid).game.log
        assert sum(isinstance(a, A.NextRound) for a in log) == 1  # one deal, however many clicks


def test_the_round_pause_deals_without_the_late_ones(tmp_path: Path):
    with TestClient(create_app(tmp_path / "p.sqlite", bot_delay=0, round_pause=1.0)) as c:
        tid, tokens = new_table(c, seed=5)
        v = play_to_round_end(c, tid, tokens)
        assert v["phase"] == "over" and 0 <= v["next_round_in"] <= 1.0
        c.post(f"/api/tables/{tid}/actions?token={tokens[0]}", json={"next_round": True})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            v = c.get(f"/api/tables/{tid}/view?token={tokens[1]}").json()
            if v["round_no"] == 2:
                break
            time.sleep(0.05)
        assert v["round_no"] == 2, "the round pause did not deal the next round"
