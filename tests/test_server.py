"""The table server's protocol through Starlette's test client (no browser, no socket)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from click.testing import CliRunner
from starlette.testclient import TestClient

from rami_core.cli import main
from rami_core.game import actions as A
from rami_core.players.bots import make_bot
from rami_core.players.savegame import from_save
from rami_core.server.app import create_app
from rami_core.server.hub import Hub
from rami_core.server.protocol import schemas
from rami_core.server.store import Store
from tests.server_support import action_body, check_message, check_view_against

SHORT = "extends: rami51\ngame:\n  end: rounds\n  rounds: 1\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "rami.sqlite"


@pytest.fixture
def client(db: Path):
    app = create_app(db, bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        yield c


def create(client, **body) -> dict:
    body.setdefault("seats", ["human", "human"])
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def hub_of(client) -> Hub:
    return client.app.state.hub


# ------------------------------------------------------------------ creating tables


def test_create_answers_the_contract(client):
    out = create(client, variant="rami51", seats=["human", "greedy"], seed=7, names=["Ana"])
    assert out["url"] == f"/t/{out['table']}"
    assert out["seats"][0]["kind"] == "human" and len(out["seats"][0]["token"]) >= 20
    assert out["seats"][0]["name"] == "Ana"
    assert out["seats"][1]["kind"] == "greedy" and "token" not in out["seats"][1]
    listed = client.get("/api/tables").json()
    assert [t["table"] for t in listed] == [out["table"]]
    assert out["seats"][0]["token"] not in json.dumps(listed)
    assert listed[0]["variant"] == "rami51" and listed[0]["players"] == 2


def test_house_rules_text_errors_are_located_in_the_text(client):
    r = client.post(
        "/api/tables", json={"rules": "extends: rami51\nopening:\n  pointz: 40\n", "seats": ["human"] * 2}
    )
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "profile_invalid"
    assert err["message"].startswith("rules:3: opening.pointz: unknown key")
    assert "points" in err["message"]
    r = client.post("/api/tables", json={"rules": "extends: rami51\nopening: [\n", "seats": ["human"] * 2})
    assert r.json()["error"]["code"] == "profile_invalid" and r.json()["error"]["message"].startswith(
        "rules:"
    )


def test_house_rules_text_with_a_bundled_plugin(client):
    text = "extends: rami51\nplugins:\n  no_early_discard_draw: {}\n"
    assert client.post("/api/tables", json={"rules": text, "seats": ["human"] * 2}).status_code == 201
    bad = "extends: rami51\nplugins:\n  my_module.evil: {}\n"
    r = client.post("/api/tables", json={"rules": bad, "seats": ["human"] * 2})
    assert r.status_code == 400 and r.json()["error"]["code"] == "profile_invalid"
    assert r.json()["error"]["message"].startswith("rules:")


@pytest.mark.parametrize("variant", ["../../etc/passwd", "/etc/hosts", "variants/rami51.yaml", "nope"])
def test_variant_is_a_name_never_a_path(client, variant):
    r = client.post("/api/tables", json={"variant": variant, "seats": ["human"] * 2})
    assert r.status_code == 400 and r.json()["error"]["code"] == "profile_invalid"


def test_a_bundled_house_file_by_name(client):
    out = create(client, variant="voleur_002", seats=["human", "random", "random"])
    assert client.get(f"/api/tables/{out['table']}/view").json()["variant"] == "voleur_002"


@pytest.mark.parametrize(
    "body",
    [
        {"variant": "rami51", "seats": ["human"]},  # one player
        {"variant": "rami51", "seats": ["human", "cheater"]},
        {"variant": "rami51", "rules": "x: 1", "seats": ["human", "human"]},
        {"seats": ["human", "human"]},
        {"variant": "rami51", "seats": ["human", "human"], "extra": 1},
        {"variant": "rami51", "seats": ["human", "human"], "names": ["a", "b", "c"]},
        {"variant": "rami51", "seats": "human"},
        [1, 2],
    ],
)
def test_bad_creation_requests(client, body):
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "invalid_request", r.text


def test_body_that_is_not_json(client):
    r = client.post("/api/tables", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"


def test_the_pages_words_for_refusal_codes_are_the_catalogues(client):
    """The page keeps no French of its own for a refusal code: it loads the
    refusal catalogue's words (and the server's own codes') from /api/codes."""
    from rami_core.server.page_words import SERVER_FR
    from rami_core.words.refusals import CODES

    r = client.get("/api/codes")
    assert r.status_code == 200
    fr = r.json()["fr"]
    assert {code: w["fr"] for code, w in CODES.items()}.items() <= fr.items()
    assert fr["undo_forbidden"] == SERVER_FR["undo_forbidden"]
    assert "en" not in r.json()
    static = Path(__file__).resolve().parent.parent / "rami_core" / "server" / "static"
    for script in static.glob("*.js"):
        text = script.read_text(encoding="utf-8")
        assert "CODES_FR" not in text and CODES["not_your_turn"]["fr"] not in text.lower(), script.name


# ------------------------------------------------------------------ views and actions


def test_views_tokens_and_spectators(client):
    out = create(client, variant="rami51", seed=3)
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    game = hub_of(client).get(tid).game
    mine = client.get(f"/api/tables/{tid}/view?token={tok[0]}").json()
    check_message({"type": "view", "view": mine}, 0, tok)
    check_view_against(mine, game, 0)
    watcher = client.get(f"/api/tables/{tid}/view").json()
    check_message({"type": "view", "view": watcher}, None, tok)
    assert watcher["seat"] is None and watcher["hand"] is None
    assert client.get(f"/api/tables/{tid}/view?token=forged").json()["error"]["code"] == "bad_token"
    assert client.get(f"/api/tables/{tid}/view?token=forged").status_code == 403
    r = client.get("/api/tables/nosuch/view")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_table"


def test_actions_accepted_and_refused(client):
    out = create(client, variant="rami51", seed=3)
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    game = hub_of(client).get(tid).game
    url = f"/api/tables/{tid}/actions?token="
    first = game.state.turn
    other = 1 - first
    r = client.post(url + tok[other], json={"draw": "stock"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    r = client.post(url + tok[first], json={"draw": "stock"})
    assert r.status_code == 200 and r.json()["phase"] == "lay"
    check_view_against(r.json(), game, first)
    before = game.state.to_json()
    r = client.post(url + tok[first], json={"draw": "stock"})
    assert (r.status_code, r.json()["error"]["code"]) == (409, "wrong_phase")
    r = client.post(url + tok[first], json={"meld": [["2H", "3H"]]})
    assert r.status_code == 409 and r.json()["error"]["code"] in ("card_not_in_hand", "invalid_meld")
    assert game.state.to_json() == before
    for bad in (
        {"draw": "sky"},
        {"discard": "ZZ"},
        {"timeout": True},
        {"meld": []},
        {},
        {"player": other, "draw": "stock"},
    ):
        r = client.post(url + tok[first], json=bad)
        assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_action", (bad, r.text)
    r = client.post(f"/api/tables/{tid}/actions", json={"draw": "stock"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "spectator"
    assert game.state.to_json() == before
    card = r2 = client.get(f"/api/tables/{tid}/view?token={tok[first]}").json()["hand"][0]
    r2 = client.post(url + tok[first], json={"player": first, "discard": card})
    assert r2.status_code == 200 and r2.json()["turn"] == other and r2.json()["discard_top"] == card


def test_websocket_player_and_spectator(client):
    out = create(client, variant="rami51", seed=5)
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    game = hub_of(client).get(tid).game
    seat = game.state.turn
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={tok[seat]}") as ws,
        client.websocket_connect(f"/ws/tables/{tid}") as spy,
    ):
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["seat"] == seat
        ws.send_json({"type": "action", "action": {"draw": "stock"}})
        got = []
        while True:
            m = ws.receive_json()
            check_message(m, seat, tok)
            got.append(m)
            if m["type"] == "view" and m["view"]["phase"] == "lay":
                break
        drawn = [m["event"] for m in got if m["type"] == "event" and m["event"]["kind"] == "drawn"]
        assert drawn and "card" in drawn[0]
        seen = []
        while True:
            m = spy.receive_json()
            check_message(m, None, tok)
            seen.append(m)
            if m["type"] == "view" and m["view"]["phase"] == "lay":
                break
        assert any(m["type"] == "event" and m["event"]["kind"] == "drawn" for m in seen)
        ws.send_json({"type": "action", "action": {"draw": "stock"}})
        m = ws.receive_json()
        assert {k: m[k] for k in ("type", "code", "message")} == {
            "type": "error",
            "code": "wrong_phase",
            "message": "you have already drawn this turn",
        }
        assert isinstance(
            m.get("text", ""), str
        )  # the refusal in the seat's language, where the server gives it
        assert m["reason"] == "drawn_already" and m["params"] == {}
        assert m["messages"] == {
            "en": "you have already drawn this turn",
            "fr": "vous avez déjà pioché ce tour-ci",
        }
        ws.send_text("not json")
        assert ws.receive_json()["code"] == "invalid_message"
        ws.send_json({"type": "action", "action": {"draw": "stock", "meld": []}})
        assert ws.receive_json()["code"] == "invalid_message"
        spy.send_json({"type": "action", "action": {"draw": "stock"}})
        while (m := spy.receive_json())["type"] != "error":
            pass
        assert m["code"] == "spectator"


def test_websocket_bad_token_is_refused(client):
    out = create(client, variant="rami51")
    with client.websocket_connect(f"/ws/tables/{out['table']}?token=nope") as ws:
        assert ws.receive_json()["code"] == "bad_token"


def test_undo_takes_back_the_lays_not_the_draw(client, db):
    out = create(client, variant="rami51", seed=11, seats=["human", "human"])
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    hub = hub_of(client)
    game = hub.get(tid).game
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    for _ in range(400):
        s = game.state
        action = bots[s.turn].choose(game.view(s.turn), game.rules)
        if isinstance(action, A.Meld):
            break
        r = client.post(f"/api/tables/{tid}/actions?token={tok[s.turn]}", json=action_body(action))
        assert r.status_code == 200
    else:
        pytest.fail("greedy never laid a meld")
    seat = game.state.turn
    after_draw = client.get(f"/api/tables/{tid}/view?token={tok[seat]}").json()
    assert "undo" not in after_draw["may"]
    r = client.post(f"/api/tables/{tid}/actions?token={tok[seat]}", json=action_body(action))
    assert r.status_code == 200 and r.json()["undo_available"] and "undo" in r.json()["may"]
    assert (
        client.post(f"/api/tables/{tid}/actions?token={tok[1 - seat]}", json={"undo": True}).status_code
        == 409
    )
    r = client.post(f"/api/tables/{tid}/actions?token={tok[seat]}", json={"undo": True})
    assert r.status_code == 200
    assert r.json()["hand"] == after_draw["hand"] and r.json()["table"] == after_draw["table"]
    r = client.post(f"/api/tables/{tid}/actions?token={tok[seat]}", json={"undo": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "undo_forbidden"
    # The store forgot the undone meld: a server reading the file sees the same game.
    again = Hub(Store(db))
    again.load()
    assert again.get(tid).game.state.to_json() == game.state.to_json()


def test_the_clock_plays_the_timeout(db):
    app = create_app(db, bot_delay=0, round_pause=1000, clock_scale=0.02)  # 120 s become 2.4 s
    with TestClient(app) as c:
        out = create(c, variant="voleur", seats=["human", "human", "human"], seed=2)
        tid = out["table"]
        t0 = c.get(f"/api/tables/{tid}/view").json()
        assert t0["clock"]["limit"] == 120
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            v = c.get(f"/api/tables/{tid}/view").json()
            if v["turn"] != t0["turn"]:
                break
            time.sleep(0.1)
        assert v["turn"] != t0["turn"], "the clock did not end the turn"
        assert v["stock_size"] == t0["stock_size"] - 1  # the timeout drew for the seat
        assert app.state.hub.get(tid).game.log[0] == A.Timeout(t0["turn"])


def test_bot_tables_play_on_their_own(db):
    app = create_app(db, bot_delay=0, round_pause=0.01)
    with TestClient(app) as c:
        out = create(c, variant="rami51", seats=["greedy", "random"], seed=4)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            v = c.get(f"/api/tables/{out['table']}/view").json()
            if v["game_over"]:
                break
            time.sleep(0.05)
        # Only a long game outlasts the minute; it must at least have moved on.
        assert v["game_over"] or v["round_no"] > 1 or v["stock_size"] < 80
        if v["game_over"]:
            saved = c.get(f"/api/tables/{out['table']}/save").json()
            game = from_save(saved)
            assert game.state.game_over and game.state.scores == v["scores"]


def test_export_waits_for_the_game_end_and_replays(client, db, tmp_path):
    out = create(client, rules=SHORT, seats=["human", "human"], seed=9)
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    r = client.get(f"/api/tables/{tid}/save")
    assert r.status_code == 403 and r.json()["error"]["code"] == "game_not_over"
    game = hub_of(client).get(tid).game
    bots = [make_bot("greedy", seed=i) for i in range(2)]
    while not game.state.game_over:
        s = game.state
        action = bots[s.turn].choose(game.view(s.turn), game.rules)
        assert (
            client.post(
                f"/api/tables/{tid}/actions?token={tok[s.turn]}", json=action_body(action)
            ).status_code
            == 200
        )
    saved = client.get(f"/api/tables/{tid}/save").json()
    assert from_save(saved).state.to_json() == game.state.to_json()
    runner = CliRunner()
    res = runner.invoke(main, ["serve", "--db", str(db), "--export", tid])
    assert res.exit_code == 0, res.output
    path = tmp_path / "game.json"
    path.write_text(res.output)
    res = runner.invoke(main, ["replay", str(path)])
    assert res.exit_code == 0 and "replay matches the saved snapshot" in res.output
    res = runner.invoke(main, ["serve", "--db", str(db), "--export", "nosuch"])
    assert res.exit_code == 1


def test_schema_protocol_command():
    res = CliRunner().invoke(main, ["schema", "--protocol"])
    assert res.exit_code == 0
    data = json.loads(res.output)
    assert data == json.loads(json.dumps(schemas()))
    for name in ("action", "client_message", "server_message", "create_table", "view", "error"):
        assert name in data["messages"]
    view = data["messages"]["view"]
    for key in (
        "seat",
        "hand",
        "hand_sizes",
        "table",
        "discard_top",
        "stock_size",
        "turn",
        "phase",
        "scores",
        "round_no",
        "winner",
    ):
        assert key in view["properties"]


def test_pages_are_served(client):
    assert "lobby.js" in client.get("/").text
    assert "table.js" in client.get("/t/abc?token=x").text
    assert client.get("/static/table.js").status_code == 200
    meta = client.get("/api/meta").json()
    assert "rami51" in meta["presets"] and "greedy" in meta["bots"]


class _WaitingBot:
    """A bot that thinks until the test lets it go (or for ever, past any budget)."""

    name = "waiting"
    release = None  # a threading.Event set by the test

    def choose(self, view, rules):
        assert self.release is not None
        self.release.wait(timeout=20)
        return A.Draw(view.seat, "stock") if view.phase == "draw" else A.Timeout(view.seat)


def test_a_thinking_bot_blocks_no_other_table_and_its_budget_is_kept(db):
    import threading

    from rami_core.players.bots import register_bot

    bot = _WaitingBot()
    bot.release = threading.Event()
    register_bot("waiting", lambda rng: bot)
    try:
        app = create_app(db, bot_delay=0, round_pause=1000, think_budget=30)
        with TestClient(app) as c:
            slow = create(c, variant="rami51", seats=["waiting", "waiting"], seed=1)
            other = create(c, variant="rami51", seats=["human", "human"], seed=2)
            game = app.state.hub.get(other["table"]).game
            seat = game.state.turn
            tok = other["seats"][seat]["token"]
            # The bot table is thinking (its worker thread waits); this table still answers.
            r = c.post(f"/api/tables/{other['table']}/actions?token={tok}", json={"draw": "stock"})
            assert r.status_code == 200
            assert app.state.hub.get(slow["table"]).game.log == []
            bot.release.set()
            deadline = time.monotonic() + 20
            while not app.state.hub.get(slow["table"]).game.log and time.monotonic() < deadline:
                time.sleep(0.02)
            assert app.state.hub.get(slow["table"]).game.log
        # Over its think budget, the bot's turn gets the clock's default instead.
        bot.release = threading.Event()
        app = create_app(db.with_name("budget.sqlite"), bot_delay=0, round_pause=1000, think_budget=0.1)
        with TestClient(app) as c:
            slow = create(c, variant="rami51", seats=["waiting", "waiting"], seed=1)
            table = app.state.hub.get(slow["table"])
            deadline = time.monotonic() + 20
            while not table.game.log and time.monotonic() < deadline:
                time.sleep(0.02)
            assert isinstance(table.game.log[0], A.Timeout)
            bot.release.set()
    finally:
        bot.release.set()
        from rami_core.players.bots import base

        base._REGISTRY._factories.pop("waiting", None)  # other tests iterate over every bot


def test_a_reconnect_with_the_token_gets_the_seat_back(client):
    out = create(client, variant="rami51", seed=8)
    tid, tok = out["table"], [s["token"] for s in out["seats"]]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tok[1]}") as ws:
        first = ws.receive_json()["view"]
        assert first["seat"] == 1 and first["connected"] == [False, True]
    assert client.get(f"/api/tables/{tid}/view").json()["connected"] == [False, False]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tok[1]}") as ws:
        again = ws.receive_json()["view"]
        assert again["seat"] == 1 and again["hand"] == first["hand"] and again["connected"] == [False, True]
    listed = client.get("/api/tables").json()[0]
    assert listed["seats_taken"] == 0 and listed["humans"] == 2


def test_a_body_too_large_is_refused(client):
    r = client.post(
        "/api/tables", content=b"x" * (3 * 1024 * 1024), headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"


def test_a_turn_change_tells_the_next_seat_its_full_time(db):
    """The view sent when the turn passes carries the new turn's clock (it was
    the last turn's leftover), and the WebSocket and HTTP views agree."""
    app = create_app(db, bot_delay=0, round_pause=1000, clock_scale=0.05)  # 120 s become 6 s
    with TestClient(app) as c:
        out = create(c, variant="voleur", seats=["human", "human", "human"], seed=2)
        tid = out["table"]
        first = c.get(f"/api/tables/{tid}/view").json()["turn"]
        a, b = out["seats"][first]["token"], out["seats"][(first + 1) % 3]["token"]
        with c.websocket_connect(f"/ws/tables/{tid}?token={b}") as ws:
            ws.receive_json()
            time.sleep(2.0)  # 40 of A's 120 seconds go by
            assert c.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).status_code == 200
            r = c.post(f"/api/tables/{tid}/actions?token={a}", json={"end_turn": True})
            assert r.status_code == 200, r.text
            for _ in range(50):
                msg = ws.receive_json()
                if msg["type"] == "view" and msg["view"]["turn"] == (first + 1) % 3:
                    break
            received = time.monotonic()
            clock = msg["view"]["clock"]
            assert clock["remaining"] > 110, clock
            assert abs(clock["deadline"] - clock["server_time"] - clock["remaining"]) < 0.1
            got = c.get(f"/api/tables/{tid}/view?token={b}").json()["clock"]
            # The two views' deadlines agree up to the table's time that went by
            # between them: real seconds times 20 on this scaled clock, so a
            # loaded machine's pause is not read as a moved deadline.
            between = (time.monotonic() - received) / 0.05
            assert abs(got["deadline"] - clock["deadline"]) < 1.0 + between
            assert abs(got["remaining"] - clock["remaining"]) < 5
