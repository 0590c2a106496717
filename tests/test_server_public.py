"""Public tables: "play now" seats the people who clicked the same offer and
size at one table; bots take the seats left when the wait ends; a person may
leave the waiting list; everything is bounded."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from click.testing import CliRunner
from starlette.testclient import TestClient

from rami_core.cli import main
from rami_core.server import public as public_module
from rami_core.server.app import create_app

HOUSE = "name: club_du_jeudi\ndescription: Rami 51 du club, 60 s par tour\nextends: rami51\nturn:\n  time_limit: 60\n"


@pytest.fixture
def house(tmp_path: Path) -> Path:
    p = tmp_path / "club.yaml"
    p.write_text(HOUSE, encoding="utf-8")
    return p


def app(tmp_path: Path, **options):
    options.setdefault("public_wait", 1000)
    return create_app(tmp_path / "p.sqlite", bot_delay=0, round_pause=1000, **options)


def test_offers_are_the_presets_and_the_operators_house_files(tmp_path, house):
    with TestClient(app(tmp_path, public_house=[house])) as c:
        listing = c.get("/api/public").json()
        offers = {o["name"]: o for o in listing["offers"]}
        assert {"rami51", "voleur", "club_du_jeudi"} <= set(offers)
        assert offers["rami51"]["players"][0] == 2 and offers["rami51"]["default"] == 2
        # A public table has a clock (a person who leaves is played by it).
        assert offers["rami51"]["turn_seconds"] == public_module.PUBLIC_TURN_SECONDS
        assert offers["club_du_jeudi"]["turn_seconds"] == 60
        assert offers["club_du_jeudi"]["description"].startswith("Rami 51 du club")
        # Each offer's line in every language, for the page's own.
        assert offers["club_du_jeudi"]["descriptions"]["fr"].startswith("Rami 51 du club")
        assert offers["rami51"]["descriptions"]["fr"].startswith("Rami 51 - quatre jokers")
        assert offers["rami51"]["description"].startswith("Rami 51 - four jokers")
        assert listing["wait"] == 1000


def test_two_people_meet_at_one_table(tmp_path):
    with TestClient(app(tmp_path)) as c:
        a = c.post("/api/public", json={"offer": "rami51", "name": "Anne", "lang": "fr"})
        assert a.status_code == 201, a.text
        assert a.json()["state"] == "waiting" and a.json()["names"] == ["Anne"]
        assert 990 < a.json()["bots_in"] <= 1000
        offers = {o["name"]: o for o in c.get("/api/public").json()["offers"]}
        assert offers["rami51"]["waiting"] == {"2": 1}
        b = c.post("/api/public", json={"offer": "rami51", "players": 2, "name": "Luc"})
        assert b.json()["state"] == "seated"  # the last seat taken: the table is made at once
        sa = c.get(f"/api/public/tickets/{a.json()['ticket']}").json()
        sb = b.json()
        assert sa["state"] == "seated" and sa["table"] == sb["table"]
        assert {sa["seat"], sb["seat"]} == {0, 1} and sa["token"] != sb["token"]
        tid = sa["table"]
        summary = c.get(f"/api/tables/{tid}").json()
        assert summary["public"] is True and [s["kind"] for s in summary["seats"]] == ["human", "human"]
        assert [s["name"] for s in summary["seats"]] == ["Anne", "Luc"]
        view = c.get(f"/api/tables/{tid}/view?token={sa['token']}").json()
        assert view["seat"] == sa["seat"] and view["clock"]["limit"] == public_module.PUBLIC_TURN_SECONDS
        assert sa["url"] == f"/t/{tid}?token={sa['token']}"
        # The next click starts the next table.
        n = c.post("/api/public", json={"offer": "rami51", "name": "Zoé"}).json()
        assert n["state"] == "waiting" and n["names"] == ["Zoé"]


def test_bots_take_the_seats_left_when_the_wait_ends(tmp_path):
    with TestClient(app(tmp_path, public_wait=0.3)) as c:
        a = c.post("/api/public", json={"offer": "voleur", "players": 3, "name": "Anne"}).json()
        assert a["state"] == "waiting" and a["bots_in"] <= 0.3
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            s = c.get(f"/api/public/tickets/{a['ticket']}").json()
            if s["state"] == "seated":
                break
            time.sleep(0.05)
        assert s["state"] == "seated" and s["seat"] == 0
        kinds = [x["kind"] for x in c.get(f"/api/tables/{s['table']}").json()["seats"]]
        assert kinds == ["human", public_module.PUBLIC_BOT, public_module.PUBLIC_BOT]


def test_leaving_the_waiting_list(tmp_path):
    with TestClient(app(tmp_path)) as c:
        a = c.post("/api/public", json={"offer": "rami51", "name": "Anne"}).json()
        r = c.delete(f"/api/public/tickets/{a['ticket']}")
        assert r.status_code == 200 and r.json()["state"] == "left"
        assert c.get(f"/api/public/tickets/{a['ticket']}").status_code == 404
        b = c.post("/api/public", json={"offer": "rami51", "name": "Luc"}).json()
        assert b["state"] == "waiting" and b["names"] == ["Luc"]  # Anne is no longer counted
        c.post("/api/public", json={"offer": "rami51", "name": "Zoé"})
        r = c.delete(f"/api/public/tickets/{b['ticket']}")
        assert r.status_code == 409 and r.json()["error"]["code"] == "already_seated"


def test_bad_clicks_are_refused_in_words(tmp_path):
    with TestClient(app(tmp_path)) as c:
        r = c.post("/api/public?lang=fr", json={"offer": "nosuch", "name": "Anne"})
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_offer"
        assert "pas de table publique" in r.json()["error"]["text"]
        r = c.post("/api/public", json={"offer": "rami71", "players": 3, "name": "Anne"})
        assert r.status_code == 400 and "players" in r.json()["error"]["message"]
        r = c.post("/api/public", json={"offer": "rami51", "name": " \u202e "})
        assert r.status_code == 400 and "name" in r.json()["error"]["message"]
        r = c.post("/api/public", json={"offer": "rami51", "name": "x" * 41})
        assert r.status_code == 400
        r = c.post("/api/public", json={"offer": "rami51", "name": "Anne", "seed": 3})
        assert r.status_code == 400  # no seed, no unknown key
        assert c.get("/api/public/tickets/nosuch").status_code == 404


def test_public_tables_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(public_module, "MAX_PUBLIC_TABLES", 2)
    with TestClient(app(tmp_path)) as c:
        for name in ("A", "B"):  # one public table in play
            assert c.post("/api/public", json={"offer": "rami51", "name": name}).status_code == 201
        # One waiting list more: the bound (a table in play or being gathered counts).
        assert c.post("/api/public", json={"offer": "voleur", "name": "C"}).status_code == 201
        r = c.post("/api/public", json={"offer": "simple", "name": "D"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "public_full"


def test_serve_refuses_a_bad_public_house_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: rami51\nopening:\n  pointz: 40\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite"), "--public-house", str(bad)])
    assert res.exit_code == 1
    assert "--public-house" in res.output and "pointz" in res.output and "Traceback" not in res.output
