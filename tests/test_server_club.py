"""The table a club chooses (issue 47), at the server: each seat's short code
(`/j/CODE`) and its guessing bound, why a round's payments are what they are
(the `round_over` event and the view's `round_detail`), quick messages by id
over the WebSocket, and "play again"."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.players.narration import Teller, tell
from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup
from rami_core.server.app import create_app
from rami_core.server.table import CODE_ALPHABET, CODE_LENGTH
from rami_core.words.messages import Messages
from tests.server_support import check_message
from tests.test_server_round_end import play_to_round_end

ONE_ROUND = "extends: rami51\ngame:\n  end: single_round\n"
# Seat 0 opens and goes out in one turn (a rami sec: rami51 doubles); seat 1
# keeps 3♠ 4♠ 9♦ and a joker: (3 + 4 + 9 + 20) x 2 = 72.
RAMI_SEC = {
    "hands": [["9H", "10H", "JH", "KS", "KH", "KC"], ["3S", "4S", "JK", "9D"]],
    "stock": ["QD"],
    "discard": ["6C"],
}
RAMI_SEC_MOVES = [{"draw": "stock"}, {"meld": [["9H", "10H", "JH"], ["KS", "KH", "KC"]]}, {"discard": "QD"}]


def _create(c: TestClient, **extra) -> dict:
    body = {"variant": "rami51", "seats": ["human", "human", "greedy"], "names": ["Anne", "Luc"], **extra}
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _rami_sec_table(c: TestClient, rules: str = ONE_ROUND) -> tuple[str, list[str]]:
    r = c.post("/api/tables", json={"rules": rules, "seats": ["human", "human"], "names": ["Anne", "Luc"]})
    out = r.json()
    t = c.app.state.hub.get(out["table"])
    t.game = build_setup(t.game.rules.profile, RAMI_SEC)
    return out["table"], [s["token"] for s in out["seats"]]


def test_every_human_seat_has_a_code_that_opens_it(tmp_path: Path):
    db = tmp_path / "codes.sqlite"
    with TestClient(create_app(db)) as c:
        out = _create(c)
        assert out["creator_seat"] == 0
        codes = [s.get("code") for s in out["seats"]]
        assert codes[2] is None and out["joins"][2] is None  # a bot has none
        for i in (0, 1):
            assert len(codes[i]) == CODE_LENGTH and set(codes[i]) <= set(CODE_ALPHABET)
            assert out["joins"][i] == f"/j/{codes[i]}"
            r = c.get(f"/j/{codes[i]}?lang=fr", follow_redirects=False)
            assert r.status_code == 303
            assert r.headers["location"] == f"{out['links'][i]}&lang=fr"
        # Typed on a phone: any case, a dash or spaces between the groups.
        typed = f"{codes[1][:4].lower()}-{codes[1][4:]}"
        assert c.get(f"/j/{typed}", follow_redirects=False).headers["location"].startswith(out["links"][1])
        # Never listed: the summary and the views hold no code.
        assert codes[0] not in c.get("/api/tables").text
        assert codes[0] not in c.get(f"/api/tables/{out['table']}/view?token={out['seats'][1]['token']}").text
    with TestClient(create_app(db)) as c:  # a restart keeps them
        assert c.get(f"/j/{codes[1]}", follow_redirects=False).headers["location"].startswith(out["links"][1])


def test_wrong_codes_are_counted_per_client(tmp_path: Path):
    with TestClient(create_app(tmp_path / "w.sqlite", limits_options={"wrong_codes_per_client": 3})) as c:
        out = _create(c)
        for _ in range(3):
            r = c.get("/j/ZZZZZZZZ?lang=fr", follow_redirects=False)
            assert r.headers["location"] == "/?lang=fr&join=unknown"
        # Past the bound even the right code is refused: guessing stops there.
        r = c.get(f"/j/{out['seats'][0]['code']}", follow_redirects=False)
        assert r.headers["location"] == "/?lang=en&join=limited"


def test_a_deleted_table_forgets_its_codes(tmp_path: Path):
    with TestClient(create_app(tmp_path / "d.sqlite")) as c:
        out = _create(c)
        r = c.delete(f"/api/tables/{out['table']}?token={out['creator_token']}")
        assert r.status_code == 200
        assert c.app.state.hub.codes == {}
        r = c.get(f"/j/{out['seats'][1]['code']}", follow_redirects=False)
        assert r.headers["location"].endswith("join=unknown")


def test_the_round_end_says_why_each_paid(tmp_path: Path):
    with TestClient(create_app(tmp_path / "s.sqlite", bot_delay=0)) as c:
        tid, tokens = _rami_sec_table(c)
        with c.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}&lang=fr") as ws:
            ws.receive_json()
            for move in RAMI_SEC_MOVES:
                r = c.post(f"/api/tables/{tid}/actions?token={tokens[0]}", json=move)
                assert r.status_code == 200, r.text
            msgs = []
            while not (msgs and msgs[-1]["type"] == "view" and msgs[-1]["view"]["phase"] == "over"):
                msgs.append(ws.receive_json())
        for m in msgs:
            check_message(m, 1, tokens)
        over = next(m for m in msgs if m["type"] == "event" and m["event"]["kind"] == "round_over")
        e = over["event"]
        assert e["rami_sec"] and e["rami_sec_rule"] == "double"
        assert e["penalties"] == [0, 72] and e["hand_values"] == [0, 36]
        assert e["jokers_left"] == [0, 1] and e["joker_cost"] == 20 and e["sides"] is None
        assert "le rami sec double chaque paiement" in over["text"]
        assert "Luc : 1 joker resté en main (20 points)" in over["text"]
        v = msgs[-1]["view"]
        assert v["round_detail"]["hand_values"] == [0, 36] and v["round_detail"]["rami_sec_rule"] == "double"
        r = c.get(f"/api/tables/{tid}/view?token={tokens[0]}").json()
        assert r["round_detail"] == v["round_detail"]


def test_a_bonus_rami_sec_and_team_totals_are_told():
    names = ["Anne", "Luc", "Marc", "Zoé"]
    d = {
        "winner": 0,
        "how": "out",
        "rami_sec": True,
        "penalties": [0, 52, 0, 17],
        "scores": [0, 69],
        "rami_sec_rule": "bonus",
        "rami_sec_bonus": 10,
        "hand_values": [0, 42, 30, 7],
        "jokers_left": [0, 0, 0, 0],
        "joker_cost": 25,
        "sides": [[0, 2], [1, 3]],
    }
    from rami_core.game.events import Event, EventKind

    text = str(
        tell(Teller(Messages("en"), lambda s: names[s], ends=True), Event(EventKind.ROUND_OVER, None, d))
    )
    assert "the rami sec adds 10 to every payment" in text
    assert "teams: Anne and Marc 0, Luc and Zoé 69" in text


def test_a_team_games_round_over_names_its_sides():
    from rami_core.players.bots import make_bot
    from rami_core.referee.engine import Game

    g = Game.new(load_profile("rami71"), 4, seed=0)
    bots = [make_bot("greedy", seed=i) for i in range(4)]
    while g.state.phase != "over":
        g.apply(bots[g.state.turn].choose(g.view(g.state.turn), g.rules))
    e = next(e for e in g.events if e.kind == "round_over")
    assert e.data["sides"] == [[0, 2], [1, 3]] and len(e.data["scores"]) == 2


def test_quick_messages_go_to_every_seat_by_id(tmp_path: Path):
    limits = {"talk_burst": 2}
    with TestClient(create_app(tmp_path / "t.sqlite", limits_options=limits)) as c:
        out = _create(c)
        tid, tokens = out["table"], [s.get("token") for s in out["seats"]]
        with (
            c.websocket_connect(f"/ws/tables/{tid}?token={tokens[0]}") as a,
            c.websocket_connect(f"/ws/tables/{tid}?token={tokens[1]}") as b,
            c.websocket_connect(f"/ws/tables/{tid}") as spectator,
        ):
            for ws in (a, b, spectator):
                while ws.receive_json()["type"] != "view":
                    pass
            a.send_json({"type": "talk", "phrase": "bravo"})
            for ws, seat in ((a, 0), (b, 1), (spectator, None)):
                m = ws.receive_json()
                while m["type"] != "talk":
                    m = ws.receive_json()
                assert m == {"type": "talk", "seat": 0, "phrase": "bravo"}
                check_message(m, seat, tokens)
            # Never free text, and never from a spectator.
            a.send_json({"type": "talk", "phrase": "you cheat"})
            assert a.receive_json()["code"] == "invalid_message"
            spectator.send_json({"type": "talk", "phrase": "thanks"})
            assert spectator.receive_json()["code"] == "spectator"
            # A few a seat: the third at once is refused (the burst is 2 here).
            a.send_json({"type": "talk", "phrase": "hurry"})
            assert a.receive_json()["phrase"] == "hurry"
            a.send_json({"type": "talk", "phrase": "hurry"})
            refused = a.receive_json()
            assert refused["code"] == "too_many_messages"


def test_play_again_seats_the_same_people_at_a_new_table(tmp_path: Path):
    db = tmp_path / "again.sqlite"
    with TestClient(create_app(db, bot_delay=0)) as c:
        r = c.post(
            "/api/tables",
            json={
                "rules": ONE_ROUND,
                "seats": ["human", "human", "greedy"],
                "names": ["Anne", "Luc"],
                "seed": 5,
            },
        )
        tid, tokens = r.json()["table"], [s.get("token") for s in r.json()["seats"]]
        r = c.post(f"/api/tables/{tid}/rematch?token={tokens[1]}", json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
        assert play_to_round_end(c, tid, tokens)["game_over"]
        assert c.post(f"/api/tables/{tid}/rematch", json={}).json()["error"]["code"] == "spectator"
        luc = c.post(f"/api/tables/{tid}/rematch?token={tokens[1]}", json={}).json()
        anne = c.post(f"/api/tables/{tid}/rematch?token={tokens[0]}", json={}).json()
        assert luc["table"] == anne["table"] != tid
        assert (luc["seat"], anne["seat"]) == (1, 0) and luc["token"] != anne["token"]
        new = c.get(f"/api/tables/{luc['table']}/view?token={luc['token']}").json()
        assert new["names"][:2] == ["Anne", "Luc"] and new["kinds"] == ["human", "human", "greedy"]
        assert new["seat"] == 1 and new["round_no"] == 1
        assert c.get(f"/api/tables/{tid}/view").json()["rematch"] == luc["table"]
    with TestClient(create_app(db, bot_delay=0)) as c:  # a restart keeps the way to it
        again = c.post(f"/api/tables/{tid}/rematch?token={tokens[1]}", json={}).json()
        assert again["table"] == luc["table"] and again["token"] == luc["token"]
