"""A damaged store costs one table, not the server (issue 23, item 4): every
row is read under its own table's guard, bytes that are not UTF-8 text
included, and the tables that read back keep their whole log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.server.app import create_app
from rami_core.server.store import Store


def _played(db: Path) -> tuple[str, str]:
    """Two tables, each one draw in: (the one to damage, the one to keep)."""
    with TestClient(create_app(db, bot_delay=0, round_pause=1000)) as c:
        ids = []
        for seed in (3, 4):
            out = c.post(
                "/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": seed}
            ).json()
            seat = c.app.state.hub.tables[out["table"]].game.state.turn
            r = c.post(
                f"/api/tables/{out['table']}/actions?token={out['seats'][seat]['token']}",
                json={"draw": "stock"},
            )
            assert r.status_code == 200
            ids.append(out["table"])
    return ids[0], ids[1]


DAMAGES = [
    "UPDATE actions SET action = CAST(X'7B22FF22' AS TEXT) WHERE table_id = :id",  # not UTF-8
    "UPDATE tables SET seats = CAST(X'5B22C3' AS TEXT) WHERE id = :id",  # cut inside a character
    "UPDATE tables SET profile = CAST(X'FFFE' AS TEXT) WHERE id = :id",
    "UPDATE tables SET variant = CAST(X'80' AS TEXT) WHERE id = :id",
    "UPDATE actions SET action = 5 WHERE table_id = :id",
    "UPDATE actions SET action = X'00FF' WHERE table_id = :id",  # a BLOB
    "UPDATE actions SET action = '" + "[" * 100_000 + "' WHERE table_id = :id",  # past any reader's depth
    'UPDATE actions SET action = \'{"draw": "sky"}\' WHERE table_id = :id',  # JSON, but no action
    "UPDATE tables SET players = 40 WHERE id = :id",
    'UPDATE tables SET seats = \'[{"kind": "nobody", "name": "x"}, 3]\' WHERE id = :id',
    "UPDATE tables SET created = 'yesterday' WHERE id = :id",
    'INSERT INTO actions VALUES (:id, 7, \'{"discard": "JK"}\')',  # a hole in the log
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_row_costs_its_table_only(tmp_path, damage, capfd):
    db = tmp_path / "rami.sqlite"
    bad, good = _played(db)
    with sqlite3.connect(db) as con:
        con.execute(damage, {"id": bad})
    with TestClient(create_app(db, bot_delay=0, round_pause=1000)) as c:
        tables = {t["table"]: t for t in c.get("/api/tables").json()}
        assert list(tables) == [good]
        assert tables[good]["actions"] == 1  # its log read back whole
    assert f"table {bad} left out" in capfd.readouterr().err


def test_an_id_that_is_not_text_is_left_out(tmp_path):
    db = tmp_path / "rami.sqlite"
    bad, good = _played(db)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE tables SET id = CAST(X'FF00' AS TEXT) WHERE id = ?", (bad,))
    store = Store(db)
    assert [(t.id, len(t.log)) for t in store.tables()] == [(good, 1)]
    assert len(store.damaged) == 1
    store.close()


def test_orphan_actions_are_ignored(tmp_path):
    db = tmp_path / "rami.sqlite"
    bad, good = _played(db)
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM tables WHERE id = ?", (bad,))
    store = Store(db)
    assert [(t.id, len(t.log)) for t in store.tables()] == [(good, 1)] and store.damaged == []
    store.close()


@pytest.mark.parametrize("export", [False, True])
def test_a_file_whose_table_list_is_garbled_is_one_line(tmp_path, export):
    """The page holding the list of tables overwritten (a disk fault): `rami
    serve` and `--export` say so in one line and exit 1, no traceback."""
    from tests.hostile.support import assert_refused, run_rami

    db = tmp_path / "rami.sqlite"
    bad, _ = _played(db)
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("PRAGMA journal_mode=DELETE")
    data = bytearray(db.read_bytes())
    data[4096:8192] = b"\xab" * 4096  # page 2: the root of `tables`, created first
    db.write_bytes(bytes(data))
    args = ["serve", "--db", str(db), "--port", "0"] + (["--export", bad] if export else [])
    out = assert_refused(run_rami(*args))
    assert "its list of tables cannot be read" in out and len(out.strip().splitlines()) == 1
