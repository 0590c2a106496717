"""A hint or a move check is thought off the event loop (issue 23, item 2):
the largest check the protocol lets through costs tenths of a second, and a
visitor may send many; meanwhile every other request is answered at once,
and what is checked is the game as stored, never one half-changed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

import httpx

from rami_core.server import app as app_module
from tests.server_support import ThreadServer


@pytest.mark.parametrize("what", ["check", "hint"])
def test_the_loop_answers_while_a_move_is_checked(tmp_path: Path, monkeypatch, what):
    held = threading.Event()
    entered = threading.Event()
    name = {"check": "check_action", "hint": "hint_of"}[what]
    real = getattr(app_module, name)

    def slow(*args):
        entered.set()
        assert held.wait(30)
        return real(*args)

    monkeypatch.setattr(app_module, name, slow)
    with ThreadServer(tmp_path / "t.sqlite", bot_delay=0, round_pause=1000) as srv:
        out = httpx.post(
            srv.url + "/api/tables", json={"seats": ["human", "human"], "variant": "rami51", "seed": 1}
        ).json()
        tid = out["table"]
        view = httpx.get(f"{srv.url}/api/tables/{tid}/view").json()
        token = out["seats"][view["turn"]]["token"]
        answer: dict = {}

        def ask() -> None:
            if what == "check":
                answer["r"] = httpx.post(
                    f"{srv.url}/api/tables/{tid}/check?token={token}", json={"draw": "stock"}, timeout=60
                )
            else:
                answer["r"] = httpx.get(f"{srv.url}/api/tables/{tid}/hint?token={token}", timeout=60)

        th = threading.Thread(target=ask)
        th.start()
        try:
            assert entered.wait(30)
            for _ in range(3):  # the loop is free while the move is thought
                assert httpx.get(srv.url + "/api/meta", timeout=10).status_code == 200
                assert httpx.get(f"{srv.url}/api/tables/{tid}", timeout=10).status_code == 200
            # a move is played meanwhile: the check goes on with the game it was asked of
            r = httpx.post(
                f"{srv.url}/api/tables/{tid}/actions?token={token}", json={"draw": "stock"}, timeout=10
            )
            assert r.status_code == 200
            assert th.is_alive()
        finally:
            held.set()
            th.join(timeout=30)
        assert answer["r"].status_code == 200, answer["r"].text
        if what == "check":
            assert answer["r"].json()["ok"] is True  # the draw was judged on the state before it


def test_moves_larger_than_any_deck_are_refused_and_the_largest_is_judged(tmp_path: Path):
    """A move naming more cards than the largest deck holds (216) is refused
    by the protocol before anyone reads a card (60 melds of 120 cards cost a
    third of a second to judge); the largest the protocol lets through is
    judged and answered, each meld read."""
    from starlette.testclient import TestClient

    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    cards = [r + s for s in "SHDC" for r in ranks] + ["JK"] * 4
    melds = [(cards * 3)[i : i + 120] for i in range(60)]
    with TestClient(app_module.create_app(tmp_path / "x.sqlite", bot_delay=0, round_pause=1000)) as c:
        out = c.post("/api/tables", json={"seats": ["human", "human"], "variant": "voleur", "seed": 2}).json()
        tid = out["table"]
        token = out["seats"][c.get(f"/api/tables/{tid}/view").json()["turn"]]["token"]
        c.post(f"/api/tables/{tid}/actions?token={token}", json={"draw": "stock"})
        for kind in ("rearrange", "meld"):
            for path in ("check", "actions"):
                r = c.post(f"/api/tables/{tid}/{path}?token={token}", json={kind: melds})
                assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_action"
                assert "cards in one action: no deck holds more than 216" in r.json()["error"]["message"]
        largest = [(cards * 5)[i * 12 : i * 12 + 12] for i in range(18)]  # 216 cards
        r = c.post(f"/api/tables/{tid}/check?token={token}", json={"rearrange": largest})
        assert r.status_code == 200
        body = r.json()
        assert body["ok"] is False and len(body["melds"]) == 18
