"""Tables that end, or that nobody plays, do not stay for good (issue 23,
item 3): a table unchanged for `--expire-after` seconds is deleted, and its
creator may delete it at any time with the creation answer's
`creator_token`. A deleted table is gone from the lobby's list, from the
file, and its page and sockets are told so in their language."""

from __future__ import annotations

import math
import sqlite3
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from click.testing import CliRunner
from starlette.testclient import TestClient

from rami_core.cli import main
from rami_core.server.app import create_app
from rami_core.server.limits import Limits


def _app(tmp_path: Path, **options):
    return create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000, **options)


def _create(c: TestClient, **body) -> dict:
    body.setdefault("seats", ["human", "human"])
    body.setdefault("variant", "rami51")
    r = c.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _rows(db: Path, table_id: str) -> tuple[int, int]:
    with sqlite3.connect(db) as con:
        tables = con.execute("SELECT count(*) FROM tables WHERE id = ?", (table_id,)).fetchone()[0]
        actions = con.execute("SELECT count(*) FROM actions WHERE table_id = ?", (table_id,)).fetchone()[0]
    return tables, actions


def test_the_creator_deletes_a_table_and_nothing_of_it_stays(tmp_path):
    with TestClient(_app(tmp_path)) as c:
        out = _create(c, seed=5)
        tid, creator = out["table"], out["creator_token"]
        seat = c.app.state.hub.tables[tid].game.state.turn
        tok = out["seats"][seat]["token"]
        assert c.post(f"/api/tables/{tid}/actions?token={tok}", json={"draw": "stock"}).status_code == 200
        assert _rows(tmp_path / "rami.sqlite", tid) == (1, 1)
        with c.websocket_connect(f"/ws/tables/{tid}?token={tok}&lang=fr") as ws:
            assert ws.receive_json()["type"] == "view"
            r = c.delete(f"/api/tables/{tid}?token={creator}")
            assert r.status_code == 200 and r.json() == {"table": tid, "deleted": True}
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["code"] == "no_such_table"
            assert "supprimée" in msg["text"]  # the page's language
        assert _rows(tmp_path / "rami.sqlite", tid) == (0, 0)
        assert all(t["table"] != tid for t in c.get("/api/tables").json())
        for path in ("", "/view", "/events", "/rules"):
            r = c.get(f"/api/tables/{tid}{path}?lang=fr")
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_such_table"
        r = c.post(f"/api/tables/{tid}/actions?token={tok}&lang=fr", json={"discard": "JK"})
        assert r.status_code == 404 and "n'existe pas" in r.json()["error"]["text"]
        with c.websocket_connect(f"/ws/tables/{tid}?lang=fr") as late:
            msg = late.receive_json()
            assert msg["code"] == "no_such_table" and "n'existe pas" in msg["text"]
    with TestClient(_app(tmp_path)) as c:  # and a restart does not bring it back
        assert all(t["table"] != tid for t in c.get("/api/tables").json())


@pytest.mark.parametrize("which", ["seat", "none", "other_table", "garbage", "non_ascii"])
def test_only_the_creators_token_deletes(tmp_path, which):
    with TestClient(_app(tmp_path)) as c:
        out = _create(c)
        other = _create(c)
        token = {
            "seat": out["seats"][0]["token"],
            "none": "",
            "other_table": other["creator_token"],
            "garbage": "x" * 500,
            "non_ascii": "%C3%A9%00",
        }[which]
        r = c.delete(f"/api/tables/{out['table']}?token={token}")
        assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"
        assert c.get(f"/api/tables/{out['table']}").status_code == 200


def test_a_public_table_has_no_creator_to_delete_it(tmp_path):
    with TestClient(_app(tmp_path, public_wait=0)) as c:
        r = c.post("/api/public", json={"offer": "rami51", "players": 2, "name": "Ana"})
        ticket = r.json()["ticket"]
        for _ in range(200):
            status = c.get(f"/api/public/tickets/{ticket}").json()
            if status["state"] == "seated":
                break
            time.sleep(0.02)
        assert status["state"] == "seated"
        assert c.app.state.hub.tables[status["table"]].creator is None
        r = c.delete(f"/api/tables/{status['table']}?token={status['token']}")
        assert r.status_code == 403


def test_an_unchanged_table_expires_and_a_played_one_does_not(tmp_path):
    with TestClient(_app(tmp_path, expire_after=3600)) as c:
        hub = c.app.state.hub
        idle = _create(c)["table"]
        played = _create(c, seed=6)
        busy_id = played["table"]
        seat = hub.tables[busy_id].game.state.turn
        hub.tables[idle].touched -= 3601
        hub.tables[busy_id].touched -= 3601
        tok = played["seats"][seat]["token"]
        assert c.post(f"/api/tables/{busy_id}/actions?token={tok}", json={"draw": "stock"}).status_code == 200
        with c.websocket_connect(f"/ws/tables/{idle}") as watcher:
            assert watcher.receive_json()["type"] == "view"
            assert c.portal.call(hub.sweep) == 1
            msg = watcher.receive_json()
            assert msg["code"] == "no_such_table" and "expired" in msg["message"]
        ids = {t["table"] for t in c.get("/api/tables").json()}
        assert idle not in ids and busy_id in ids
        assert _rows(tmp_path / "rami.sqlite", idle) == (0, 0)


def test_the_sweeper_runs_by_itself(tmp_path):
    with TestClient(_app(tmp_path, expire_after=0.2)) as c:
        tid = _create(c)["table"]
        for _ in range(200):
            if tid not in c.app.state.hub.tables:
                break
            time.sleep(0.02)
        assert c.get(f"/api/tables/{tid}").status_code == 404


def test_no_expiry_keeps_tables(tmp_path):
    with TestClient(_app(tmp_path, expire_after=None)) as c:
        hub = c.app.state.hub
        tid = _create(c)["table"]
        hub.tables[tid].touched -= 10**9
        assert c.portal.call(hub.sweep) == 0 and tid in hub.tables


@pytest.mark.parametrize(
    "bad",
    [
        {"max_tables": 0},
        {"max_tables": -5},
        {"tables_per_client": 2.5},
        {"sockets_per_client": True},
        {"sockets_per_table": "10"},
        {"tables_window": math.nan},
        {"tables_window": math.inf},
        {"tables_window": -1.0},
        {"tables_window": 0},
    ],
)
def test_limits_refuse_nonsense(bad):
    with pytest.raises(ValueError, match=next(iter(bad))):
        Limits(**bad)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--expire-after", "nan"),
        ("--expire-after", "inf"),
        ("--expire-after", "-1"),
        ("--expire-after", "0"),
        ("--max-tables", "0"),
        ("--max-tables", "-3"),
        ("--tables-per-client", "nan"),
        ("--tables-window", "-inf"),
        ("--sockets-per-client", "1e9x"),
        ("--sockets-per-table", "0"),
    ],
)
def test_serve_refuses_nonsense_limits(tmp_path, option, value):
    r = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "x.sqlite"), option, value])
    assert r.exit_code == 2 and "Traceback" not in r.output
    assert option in r.output
    assert not (tmp_path / "x.sqlite").exists()


def test_serve_passes_its_limits_to_the_app(tmp_path, monkeypatch):
    seen = {}
    import rami_core.server.app as app_module

    def fake_create_app(db, **options):
        seen.update(options)
        raise SystemExit(0)

    monkeypatch.setattr(app_module, "create_app", fake_create_app)
    args = ["serve", "--db", str(tmp_path / "x.sqlite"), "--expire-after", "90", "--max-tables", "7"]
    args += ["--tables-per-client", "2", "--tables-window", "30", "--sockets-per-client", "3"]
    args += ["--sockets-per-table", "4"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert seen["expire_after"] == 90
    assert seen["limits_options"] == {
        "max_tables": 7,
        "tables_per_client": 2,
        "tables_window": 30,
        "sockets_per_client": 3,
        "sockets_per_table": 4,
    }
