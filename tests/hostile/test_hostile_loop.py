"""No visitor-controlled work on the event loop (issue 44): a view's legal
move searches spend a counted state budget (inexact offers where it runs
out), a view is made once per (version, seat), and a view, an action, a
hint or a check runs in the hub's worker pool, bounded per client (429).

The loop's freedom is shown by counting, not timing: another visitor's
request is answered while an expensive view is still being thought (held
in its worker thread by an event)."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.game import actions as A
from rami_core.referee import legal as L
from rami_core.referee.engine import Game
from rami_core.server import client_view as views
from rami_core.server.app import create_app
from rami_core.server.lobby import profile_from_request
from rami_core.server.protocol import CreateTable

EXPENSIVE = """extends: rami51
deck: {decks: 4, jokers: 8}
deal: {hand_size: 30}
melds: {run_min: 2, set_min: 2, set_max: 8, set_distinct_suits: false}
opening: {points: 0, pure_run: false, required: false}
"""


def expensive_game(seed: int = 1) -> Game:
    _, profile = profile_from_request(
        CreateTable.model_validate({"seats": ["human"] * 2, "rules": EXPENSIVE})
    )
    g = Game.new(profile, 2, seed=seed)
    g.apply(A.Draw(g.state.turn, "stock"))
    return g


def test_a_view_budget_gives_the_same_answer_every_time():
    g = expensive_game()
    seat = g.state.turn
    one = L.legal_moves(g, seat, states=L.VIEW_STATES).to_json()
    assert one == L.legal_moves(g, seat, states=L.VIEW_STATES).to_json()
    assert one["kinds"]["meld"]["allowed"]


def test_a_meld_search_out_of_states_is_offered_inexact_without_an_example():
    g = expensive_game()
    seat = g.state.turn
    cut = L.legal_moves(g, seat, states=1)["meld"]
    assert cut.allowed and not cut.exact and cut.moves == ()
    full = L.legal_moves(g, seat)["meld"]  # no view budget: the search's own
    assert full.allowed and full.exact and full.moves


def test_a_meld_search_that_proves_no_lay_stays_exact():
    g = Game.new(
        profile_from_request(CreateTable.model_validate({"variant": "rami51", "seats": ["human"] * 2}))[1],
        2,
        seed=3,
    )
    seat = g.state.turn
    g.apply(A.Draw(seat, "stock"))
    offer = L.legal_moves(g, seat, states=L.VIEW_STATES)["meld"]
    assert offer.exact  # found, or proven absent, within the budget


class Peer:
    """ASGI wrapper: the client address from the `x-peer` header (one app, several visitors)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            for k, v in scope.get("headers", []):
                if k == b"x-peer":
                    scope = {**scope, "client": (v.decode(), 1)}
        await self.app(scope, receive, send)


@pytest.fixture
def server(tmp_path, monkeypatch):
    """An app with an expensive table and a plain one, and a gate holding the
    expensive table's legal-move searches in their worker thread."""
    a = create_app(tmp_path / "r.sqlite", bot_delay=1000, round_pause=1000)
    entered = threading.Event()
    release = threading.Event()
    searches: list[int] = []
    real = views.legal_moves
    gated: set[int] = set()

    def gate(game, seat, *args, **kw):
        searches.append(id(game))
        if id(game) in gated:
            entered.set()
            assert release.wait(30), "the test never released the search"
        return real(game, seat, *args, **kw)

    monkeypatch.setattr(views, "legal_moves", gate)
    with TestClient(Peer(a)) as c:
        big = c.post(
            "/api/tables",
            json={"seats": ["human", "human"], "rules": EXPENSIVE, "seed": 1},
            headers={"x-peer": "198.51.100.1"},
        ).json()
        small = c.post(
            "/api/tables",
            json={"seats": ["human", "human"], "variant": "rami51", "seed": 1},
            headers={"x-peer": "198.51.100.2"},
        ).json()
        gated.add(id(a.state.hub.get(big["table"]).game))
        yield a, c, big, small, entered, release, searches
        release.set()


def test_another_tables_view_is_answered_while_an_expensive_view_is_thought(server):
    _a, c, big, small, entered, release, _ = server
    answers: list[int] = []
    slow = threading.Thread(
        target=lambda: answers.append(
            c.get(
                f"/api/tables/{big['table']}/view?token={big['seats'][0]['token']}",
                headers={"x-peer": "198.51.100.1"},
            ).status_code
        )
    )
    slow.start()
    assert entered.wait(30)
    # The expensive view is held in its worker thread: the loop answers the rest.
    r = c.get(f"/api/tables/{small['table']}/view", headers={"x-peer": "198.51.100.2"})
    assert r.status_code == 200 and r.json()["table_id"] == small["table"]
    assert c.get("/api/meta").status_code == 200
    assert slow.is_alive() and not answers  # still thinking when the others were answered
    release.set()
    slow.join(30)
    assert answers == [200]


def test_a_client_over_its_queued_work_gets_429_and_nobody_else_waits(server):
    a, c, big, small, entered, release, _ = server
    a.state.hub.work.per_client = 1
    answers: list[int] = []
    slow = threading.Thread(
        target=lambda: answers.append(
            c.get(
                f"/api/tables/{big['table']}/view?token={big['seats'][0]['token']}",
                headers={"x-peer": "198.51.100.1"},
            ).status_code
        )
    )
    slow.start()
    assert entered.wait(30)
    # Its second view (another seat: not made yet) is beyond its bound.
    r = c.get(
        f"/api/tables/{big['table']}/view?token={big['seats'][1]['token']}",
        headers={"x-peer": "198.51.100.1"},
    )
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests"
    fr = c.get(
        f"/api/tables/{big['table']}/view?token={big['seats'][1]['token']}&lang=fr",
        headers={"x-peer": "198.51.100.1"},
    )
    assert fr.status_code == 429 and fr.json()["error"]["text"] != r.json()["error"]["message"]
    other = c.get(f"/api/tables/{small['table']}/view", headers={"x-peer": "198.51.100.2"})
    assert other.status_code == 200
    assert slow.is_alive() and not answers
    release.set()
    slow.join(30)
    assert answers == [200]
    assert a.state.hub.work.queued(client="198.51.100.1") == 0  # its place given back


def test_a_view_is_searched_once_per_version_and_seat(server):
    a, c, big, _small, _entered, release, searches = server
    release.set()
    t = a.state.hub.get(big["table"])
    url = f"/api/tables/{big['table']}/view?token={big['seats'][0]['token']}"
    first = c.get(url, headers={"x-peer": "198.51.100.1"}).json()
    n = searches.count(id(t.game))
    for _ in range(5):
        again = c.get(url, headers={"x-peer": "198.51.100.1"}).json()
        assert again["version"] == first["version"] and again["legal"] == first["legal"]
    # A reconnect (the seat comes and goes: new versions) searches nothing again either.
    for _ in range(3):
        with c.websocket_connect(f"/ws/tables/{big['table']}?token={big['seats'][0]['token']}") as ws:
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "view"
    assert searches.count(id(t.game)) == n
