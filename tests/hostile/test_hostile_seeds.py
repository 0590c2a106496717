"""Hidden cards hidden from every seat, the creator included (issue 44,
class 3): a seed chosen for a table of several people is mixed with the
server's secret and the table's id; a table of one person (or none) keeps
it; the store keeps the seed dealt, so a restart replays the same game; no
answer before the game's end holds the seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.server.app import create_app


def app(db: Path, **options):
    return create_app(db, bot_delay=1000, round_pause=1000, **options)


def offline_hand(variant: str, players: int, seed: int, seat: int) -> list:
    return list(Game.new(load_profile(variant), players, seed=seed).view(seat).to_dict()["hand"])


@pytest.mark.parametrize(("variant", "seats"), [("rami51", 2), ("voleur", 3), ("rami71", 4)])
def test_the_creator_cannot_rebuild_another_seats_hand(tmp_path, variant, seats):
    with TestClient(app(tmp_path / "s.sqlite")) as c:
        body = {"variant": variant, "seats": ["human"] * seats, "seed": 12345}
        first, second = c.post("/api/tables", json=body).json(), c.post("/api/tables", json=body).json()
        hands = []
        for out in (first, second):
            token = out["seats"][1]["token"]
            hands.append(c.get(f"/api/tables/{out['table']}/view?token={token}").json()["hand"])
            assert c.app.state.hub.get(out["table"]).seed != 12345
        assert hands[0] != offline_hand(variant, seats, 12345, 1)
        assert hands[0] != hands[1]  # two tables of one seed are not dealt alike either


@pytest.mark.parametrize("seats", [["human", "greedy"], ["greedy", "random"], ["human"] * 1 + ["expert"] * 2])
def test_a_table_of_one_person_keeps_its_seed(tmp_path, seats):
    with TestClient(app(tmp_path / "s.sqlite")) as c:
        variant = "rami51" if len(seats) == 2 else "voleur"
        out = c.post("/api/tables", json={"variant": variant, "seats": seats, "seed": 99}).json()
        assert c.app.state.hub.get(out["table"]).seed == 99


def test_a_restart_replays_the_mixed_deal(tmp_path):
    db = tmp_path / "s.sqlite"
    with TestClient(app(db)) as c:
        out = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": 7}).json()
        tid, tokens = out["table"], [s["token"] for s in out["seats"]]
        before = [c.get(f"/api/tables/{tid}/view?token={t}").json()["hand"] for t in tokens]
        turn = c.get(f"/api/tables/{tid}/view").json()["turn"]
        assert (
            c.post(f"/api/tables/{tid}/actions?token={tokens[turn]}", json={"draw": "stock"}).status_code
            == 200
        )
        after_draw = c.get(f"/api/tables/{tid}/view?token={tokens[turn]}").json()["hand"]
    with TestClient(app(db)) as c:  # another process's secret: the stored deal is replayed
        assert c.get(f"/api/tables/{tid}/view?token={tokens[turn]}").json()["hand"] == after_draw
        other = 1 - turn
        assert c.get(f"/api/tables/{tid}/view?token={tokens[other]}").json()["hand"] == before[other]


def test_no_answer_before_the_end_holds_the_seed(tmp_path):
    with TestClient(app(tmp_path / "s.sqlite")) as c:
        out = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": 5}).json()
        tid, tokens = out["table"], [s["token"] for s in out["seats"]]
        seed = str(c.app.state.hub.get(tid).seed)
        assert "seed" not in json.dumps(out) and seed not in json.dumps(out)
        token = f"?token={tokens[0]}"
        for path in ["", "/view", "/events", "/rules", "/hint"]:
            r = c.get(f"/api/tables/{tid}{path}{token}")
            assert (
                seed not in r.text and '"seed"' not in r.text and '"stock":[' not in r.text.replace(" ", "")
            )
        assert seed not in c.get("/api/tables").text
        r = c.get(f"/api/tables/{tid}/save{token}")
        assert r.status_code == 403 and seed not in r.text
        with c.websocket_connect(f"/ws/tables/{tid}{token}") as ws:
            msg = ws.receive_text()
            assert seed not in msg and '"seed"' not in msg
