"""The table server attacked as a hostile visitor would (issue 23): each case
ends in a clean, documented answer, never a 500, a traceback or a stall."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.server.app import create_app
from rami_core.server.protocol import plain_text


@pytest.fixture
def client(tmp_path: Path):
    app = create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        yield c


def create(client, **body) -> dict:
    body.setdefault("seats", ["human", "human"])
    if "rules" not in body:
        body.setdefault("variant", "rami51")
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return r.json()


# --------------------------------------------------------------------------- item 1: text stays text


@pytest.mark.parametrize("path", ["/", "/t/abc", "/api/meta", "/api/tables", "/static/lobby.js"])
def test_every_answer_carries_the_security_headers(client, path):
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["referrer-policy"] == "no-referrer"
    assert r.headers["x-content-type-options"] == "nosniff"


def test_the_pages_hold_no_inline_script(client):
    for path in ("/", "/t/abc"):
        html = client.get(path).text
        scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S)
        assert scripts and all(body.strip() == "" for body in scripts)  # modules from /static only
        tags = re.findall(r"<script[^>]*>", html)
        assert tags and all(re.search(r'\ssrc="/static/[a-z0-9_]+\.js"', tag) for tag in tags)
        assert not re.search(r"\son[a-z]+\s*=", html)  # no onload=, onclick=...


def test_the_lobby_script_never_parses_data_as_html(client):
    """lobby.js builds its DOM with textContent: no innerHTML, no outerHTML,
    no insertAdjacentHTML, no document.write."""
    text = client.get("/static/lobby.js").text
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write"):
        assert sink not in text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Ana\x1b[2J\x07", "Ana[2J"),
        ("\u202eevil", "evil"),
        ("a\x00b\r\nc", "ab c"),
        ("  spaced   out ", "spaced out"),
        ("x" * 500, "x" * 40),
    ],
)
def test_seat_names_are_plain_text(client, raw, shown):
    out = create(client, names=[raw[:40], "Bo"])
    assert out["seats"][0]["name"] == shown[:40] or out["seats"][0]["name"] == plain_text(raw[:40], 40)
    assert "\x1b" not in out["seats"][0]["name"] and "\x00" not in out["seats"][0]["name"]
    summary = client.get(f"/api/tables/{out['table']}").json()
    assert summary["seats"][0]["name"] == out["seats"][0]["name"]


def test_a_name_of_only_control_characters_gets_the_default(client):
    out = create(client, names=["\x1b\x07\u200b", ""])
    assert out["seats"][0]["name"] == "Player 1"


def test_a_long_or_escaped_variant_name_is_cut_and_cleaned(client):
    rules = 'extends: rami51\nname: "' + "\\e]0;owned\\a" + "N" * 80 + '"\n'
    out = create(client, rules=rules)
    summary = client.get(f"/api/tables/{out['table']}").json()
    assert "\x1b" not in summary["variant"] and "\x07" not in summary["variant"]
    assert len(summary["variant"]) <= 60
    view = client.get(f"/api/tables/{out['table']}/view").json()
    assert view["variant"] == summary["variant"]


# --------------------------------------------------------------------------- item 7: tokens, frames, integers


@pytest.mark.parametrize("token", ["%C3%A9", "%F0%9F%82%A1", "%ED%A0%80", "%00", "a" * 300])
def test_a_strange_token_is_a_403(client, token):
    out = create(client)
    r = client.get(f"/api/tables/{out['table']}/view?token={token}")
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad_token"


def test_a_strange_token_over_a_websocket_is_refused(client):
    out = create(client)
    with client.websocket_connect(f"/ws/tables/{out['table']}?token=%C3%A9") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "bad_token"


def test_a_binary_frame_is_answered_and_the_connection_lives(client):
    out = create(client)
    with client.websocket_connect(f"/ws/tables/{out['table']}?token={out['seats'][0]['token']}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_bytes(b'{"type": "ping"}')
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "invalid_message"
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json()["type"] == "view"


@pytest.mark.parametrize("digits", [400, 5000, 100_000])
def test_a_huge_integer_is_a_400(client, digits):
    body = '{"seats": ["human", "human"], "variant": "rami51", "seed": ' + "9" * digits + "}"
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"
    out = create(client)
    r = client.post(
        f"/api/tables/{out['table']}/actions?token={out['seats'][0]['token']}",
        content='{"player": ' + "1" * digits + ', "draw": "stock"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400


def test_a_huge_integer_over_a_websocket_is_answered(client):
    out = create(client)
    with client.websocket_connect(f"/ws/tables/{out['table']}?token={out['seats'][0]['token']}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_text('{"type": "action", "action": {"player": ' + "7" * 5000 + ', "draw": "stock"}}')
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["code"] == "invalid_message"


@pytest.mark.parametrize("body", ["NaN", '{"seed": Infinity}', "[" * 5000 + "]" * 5000])
def test_json_oddities_are_a_400(client, body):
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"


# --------------------------------------------------------------------------- item 2: profiles read off the loop, bounded


def test_a_megabyte_of_unknown_keys_is_refused_briefly(client):
    rules = "extends: rami51\n" + "".join(f"k{i:05d}: 1\n" for i in range(99_990))
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules[: (1 << 20) - 1]})
    assert r.status_code == 400
    err = r.json()["error"]
    assert err["code"] == "profile_invalid"
    assert "more than 4000 values" in err["message"] and err["message"].startswith("rules:")
    assert len(r.content) < 2000  # one located line, not 4 MB of suggestions


@pytest.mark.parametrize("n", [25, 3000])
def test_many_mistakes_are_counted_past_twenty(client, n):
    rules = "extends: rami51\n" + "".join(f"k{i:05d}: 1\n" for i in range(n))
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules})
    assert r.status_code == 400
    lines = r.json()["error"]["message"].splitlines()
    assert len(lines) == 21
    assert lines[-1].endswith(f"and {n - 20} more problems")
    assert all(line.startswith("rules:") for line in lines[:-1])


@pytest.mark.parametrize("n", [8, 100, 3000])
def test_a_list_longer_than_its_setting_can_use_is_refused(client, n):
    rules = "extends: rami51\nplayers:\n  counts: [" + ", ".join(["2"] * n) + "]\n"
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules})
    assert r.status_code == 400
    msg = r.json()["error"]["message"]
    assert msg.startswith("rules:3:") and "players.counts" in msg


def test_a_huge_name_is_refused_where_written(client):
    rules = "extends: rami51\nname: " + "N" * 5000 + "\n"
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": rules})
    assert r.status_code == 400
    assert r.json()["error"]["message"].startswith("rules:2:")


def test_the_loop_answers_while_a_profile_is_read(tmp_path, monkeypatch):
    """A pasted profile is read in a worker thread: a read that takes its time
    (held here by an event) leaves every other request answered at once."""
    import threading

    import httpx

    from rami_core.server import app as app_module
    from tests.server_support import ThreadServer

    held = threading.Event()
    entered = threading.Event()
    real = app_module.profile_and_warnings

    def slow(req):
        entered.set()
        assert held.wait(30)
        return real(req)

    monkeypatch.setattr(app_module, "profile_and_warnings", slow)
    with ThreadServer(tmp_path / "t.sqlite", bot_delay=0, round_pause=1000) as srv:
        answer: dict = {}

        def create() -> None:
            answer["r"] = httpx.post(
                srv.url + "/api/tables",
                json={"seats": ["human", "human"], "rules": "extends: rami51\n"},
                timeout=60,
            )

        th = threading.Thread(target=create)
        th.start()
        try:
            assert entered.wait(30)
            for _ in range(5):  # the loop is free: each of these is answered while the read is held
                assert httpx.get(srv.url + "/api/meta", timeout=10).status_code == 200
                assert httpx.get(srv.url + "/api/tables", timeout=10).json() == []
            assert th.is_alive()
        finally:
            held.set()
            th.join(timeout=30)
        assert answer["r"].status_code == 201


# --------------------------------------------------------------------------- item 4: a damaged store costs one table


def _two_tables(db: Path) -> list[str]:
    app = create_app(db, bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        ids = [create(c)["table"] for _ in range(2)]
        tok = c.get(f"/api/tables/{ids[0]}").json()  # both exist
        assert tok["table"] == ids[0]
    return ids


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE actions SET action = '{oops' WHERE table_id = ?",
        "UPDATE actions SET action = '[1, 2]' WHERE table_id = ?",
        "UPDATE tables SET seats = 'null' WHERE id = ?",
        "UPDATE tables SET options = '{' WHERE id = ?",
        "UPDATE tables SET seed = 'x' WHERE id = ?",
        "UPDATE tables SET profile = '\"rami51\"' WHERE id = ?",
    ],
)
def test_a_damaged_row_leaves_out_its_table_only(tmp_path, damage, capfd):
    import sqlite3

    db = tmp_path / "rami.sqlite"
    app = create_app(db, bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        a, b = create(c), create(c)
        for out in (a, b):
            r = c.post(
                f"/api/tables/{out['table']}/actions?token={out['seats'][0]['token']}", json={"draw": "stock"}
            )
            r = (
                r
                if r.status_code == 200
                else c.post(
                    f"/api/tables/{out['table']}/actions?token={out['seats'][1]['token']}",
                    json={"draw": "stock"},
                )
            )
            assert r.status_code == 200, r.text
    con = sqlite3.connect(db)
    con.execute(damage, (a["table"],))
    con.commit()
    con.close()
    app = create_app(db, bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        ids = [t["table"] for t in c.get("/api/tables").json()]
        assert ids == [b["table"]]
    assert f"table {a['table']} left out" in capfd.readouterr().err


# Each kind of file with both commands (in this process: a tenth of a second each).
NOT_A_DATABASE = [
    (kind, args)
    for kind in ["foreign", "text", "folder", "no_folder"]
    for args in [("--export", "abc"), ("--port", "1")]
]


def _serve_here(monkeypatch, *args: str):
    """`rami serve ARGS` in this process, for a file refused before the server
    would start: a server that started anyway fails the test instead of running."""
    import uvicorn

    from tests.hostile.support import run_rami_here

    def started(*_: object, **__: object) -> None:
        raise AssertionError(f"rami serve {' '.join(args)} started a server")

    monkeypatch.setattr(uvicorn, "run", started)
    return run_rami_here("serve", *args)


@pytest.mark.parametrize("kind, args", NOT_A_DATABASE, ids=lambda v: v if isinstance(v, str) else v[0][2:])
def test_a_file_that_is_not_a_rami_database_is_one_line(tmp_path, kind, args, monkeypatch):
    import sqlite3

    db = tmp_path / "other.sqlite"
    if kind == "foreign":
        con = sqlite3.connect(db)
        con.execute("CREATE TABLE tables (name TEXT)")
        con.execute("CREATE TABLE notes (body TEXT)")
        con.commit()
        con.close()
    elif kind == "text":
        db.write_text("root:x:0:0:root:/root:/bin/bash\n")
    elif kind == "folder":
        db.mkdir()
    else:
        db = tmp_path / "missing" / "rami.sqlite"
    before = db.read_bytes() if db.is_file() else None
    out = _serve_here(monkeypatch, "--db", str(db), *args)
    assert out.returncode == 1, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and str(db) in lines[0], out.stderr
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr
    if before is not None:
        assert db.read_bytes() == before  # refused untouched: no WAL, no tables added
        assert not Path(str(db) + "-wal").exists()


def test_an_export_writes_nothing(tmp_path, monkeypatch):
    db = tmp_path / "rami.sqlite"
    _two_tables(db)
    import sqlite3

    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    before = db.read_bytes()
    out = _serve_here(monkeypatch, "--db", str(db), "--export", "nope")
    assert out.returncode == 1 and "no table 'nope'" in out.stderr
    assert db.read_bytes() == before and not Path(str(db) + "-wal").exists()


# --------------------------------------------------------------------------- item 2: a store locked by another process


def test_a_locked_store_gives_busy_then_play_resumes(tmp_path):
    """An admin's sqlite3 session holds the write lock: actions get a clean
    503 busy (and the loop is not held), the bots wait; once the lock goes,
    everybody plays on."""
    import sqlite3

    db = tmp_path / "rami.sqlite"
    app = create_app(db, bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        people = create(c, seed=4)
        bots = create(c, seats=["greedy", "greedy"], seed=5)
        hub = c.app.state.hub
        seat = hub.tables[people["table"]].game.state.turn
        tok = people["seats"][seat]["token"]
        admin = sqlite3.connect(db, isolation_level=None)
        admin.execute("BEGIN IMMEDIATE")
        try:
            r = c.post(f"/api/tables/{people['table']}/actions?token={tok}", json={"draw": "stock"})
            assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
            assert hub.tables[people["table"]].game.state.phase == "draw"  # nothing changed
            r = c.post("/api/tables", json={"seats": ["human", "human"], "variant": "rami51"})
            assert r.status_code == 503 and r.json()["error"]["code"] == "busy"
            assert c.get("/api/meta").status_code == 200  # the rest answers
            # What is stored (the loop's own game may hold an action for the
            # moment its write waits, then takes it back).
            reader = sqlite3.connect(db)
            stored = "SELECT count(*) FROM actions WHERE table_id = ?"
            stuck = reader.execute(stored, (bots["table"],)).fetchone()[0]
            time.sleep(1.0)
            assert reader.execute(stored, (bots["table"],)).fetchone()[0] == stuck  # the bots wait...
            reader.close()
        finally:
            admin.execute("ROLLBACK")
            admin.close()
        r = c.post(f"/api/tables/{people['table']}/actions?token={tok}", json={"draw": "stock"})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 30
        while len(hub.tables[bots["table"]].game.log) <= stuck + 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(hub.tables[bots["table"]].game.log) > stuck + 3  # ...and play on, their tasks alive


def test_a_slow_store_holds_up_no_other_table(tmp_path, monkeypatch):
    """The disk stalls on one table's write (held here by an event): the
    loop never waits for it. Other tables' views, the lobby and a WebSocket
    answer meanwhile; nobody sees the held action before it is stored; once
    the write goes through, the action is told; a write queue that is full
    is a 503 busy at once, not a queue that grows."""
    import threading

    import httpx
    import websockets.sync.client as ws_client

    from rami_core.server import store as store_module
    from tests.server_support import ThreadServer

    monkeypatch.setattr(store_module, "WRITE_QUEUE", 1)
    held = threading.Event()
    entered = threading.Event()
    slow_table: list[str] = []
    real_append = store_module.Store.append

    def append(self, table_id, n, action):
        if table_id in slow_table:
            entered.set()
            assert held.wait(30)
        real_append(self, table_id, n, action)

    monkeypatch.setattr(store_module.Store, "append", append)
    with ThreadServer(tmp_path / "t.sqlite", bot_delay=0, round_pause=1000) as srv:

        def new_table(seed: int) -> dict:
            r = httpx.post(
                srv.url + "/api/tables", json={"seats": ["human", "human"], "variant": "rami51", "seed": seed}
            )
            assert r.status_code == 201, r.text
            return r.json()

        def to_play(t: dict) -> str:
            seat = srv.hub.tables[t["table"]].game.state.turn
            return t["seats"][seat]["token"]

        a, b, c = new_table(1), new_table(2), new_table(3)
        slow_table.append(a["table"])
        answers: dict = {}

        def post(key: str, t: dict) -> None:
            answers[key] = httpx.post(
                f"{srv.url}/api/tables/{t['table']}/actions?token={to_play(t)}",
                json={"draw": "stock"},
                timeout=60,
            )

        ta = threading.Thread(target=post, args=("a", a))
        ta.start()
        tb = None
        try:
            assert entered.wait(30)  # table a's write is on the disk, held
            with ws_client.connect(
                f"ws://127.0.0.1:{srv.port}/ws/tables/{b['table']}", open_timeout=10
            ) as sock:
                first = sock.recv(timeout=10)
                assert '"type":"view"' in first
            for _ in range(3):
                assert httpx.get(srv.url + "/api/meta", timeout=10).status_code == 200
                view = httpx.get(f"{srv.url}/api/tables/{b['table']}/view?token={to_play(b)}", timeout=10)
                assert view.status_code == 200 and view.json()["phase"] == "draw"
            assert len(httpx.get(srv.url + "/api/tables", timeout=10).json()) == 3
            # b's write waits its turn behind a's (one writer): the queue of one is full
            tb = threading.Thread(target=post, args=("b", b))
            tb.start()
            deadline = time.monotonic() + 30
            while srv.hub.writer._jobs.qsize() < 1 and time.monotonic() < deadline:
                time.sleep(0.02)
            post("c", c)
            assert answers["c"].status_code == 503 and answers["c"].json()["error"]["code"] == "busy"
            assert srv.hub.tables[c["table"]].game.state.phase == "draw"  # taken back
            assert ta.is_alive() and "a" not in answers
        finally:
            held.set()
            ta.join(timeout=30)
            if tb is not None:
                tb.join(timeout=30)
        assert answers["a"].status_code == 200 and answers["a"].json()["phase"] == "lay"
        assert answers["b"].status_code == 200 and answers["b"].json()["phase"] == "lay"
        post("c", c)
        assert answers["c"].status_code == 200


# --------------------------------------------------------------------------- item 3: a table that cannot end is stopped


def test_a_table_that_cannot_end_stops_and_says_why(tmp_path, monkeypatch):
    """An opening of 143 points (13 aces, or near) is in reach of no real
    hand (an opening out of any lay's reach is refused at creation): the
    table stops at the turn cap (shrunk here), as `rami play` and `rami
    simulate` stop such a round."""
    from rami_core.server import clocks

    monkeypatch.setattr(clocks, "TURN_CAP", 12)
    app = create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000)
    rules = "extends: rami51\nopening:\n  points: 143\n"
    with TestClient(app) as c:
        out = create(c, seats=["greedy", "human"], rules=rules, seed=3)
        deadline = time.monotonic() + 60
        summary = c.get(f"/api/tables/{out['table']}").json()
        tok = out["seats"][1]["token"]
        while summary["stopped"] is None and time.monotonic() < deadline:
            view = c.get(f"/api/tables/{out['table']}/view?token={tok}").json()
            if view["turn"] == 1 and view["phase"] != "over":
                action = {"draw": "stock"} if view["phase"] == "draw" else {"discard": view["hand"][-1]}
                c.post(f"/api/tables/{out['table']}/actions?token={tok}", json=action)
            summary = c.get(f"/api/tables/{out['table']}").json()
        assert summary["stopped"] and "12 turns" in summary["stopped"]
        n = summary["actions"]
        r = c.post(f"/api/tables/{out['table']}/actions?token={tok}", json={"draw": "stock"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "table_stopped"
        time.sleep(0.5)
        assert c.get(f"/api/tables/{out['table']}").json()["actions"] == n  # the bot stopped too


@pytest.mark.parametrize(
    ("rules", "where"),
    [
        ("deal:\n  hand_size: 1\n", "rules:3:"),
        ("deal:\n  hand_size: 2\n", "rules:3:"),
        ("jokers:\n  min_naturals: 8\ndeal:\n  hand_size: 5\n", "rules:"),
    ],
)
def test_a_profile_where_no_hand_goes_out_is_refused(client, rules, where):
    r = client.post("/api/tables", json={"seats": ["human", "human"], "rules": "extends: rami51\n" + rules})
    assert r.status_code == 400 and r.json()["error"]["code"] == "profile_invalid"
    msg = r.json()["error"]["message"]
    assert msg.startswith(where) and ("never go out" in msg or "no meld could be laid" in msg)


# --------------------------------------------------------------------------- item 3: limits per client and in all


def _limited(tmp_path: Path, **limits):
    return create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000, limits_options=limits)


def test_one_client_creates_only_so_many_tables(tmp_path):
    with TestClient(_limited(tmp_path, tables_per_client=3)) as c:
        for _ in range(3):
            create(c)
        r = c.post("/api/tables", json={"seats": ["human", "human"], "variant": "rami51"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
        assert "3 tables created from this address" in r.json()["error"]["message"]
        assert len(c.get("/api/tables").json()) == 3


def test_the_server_holds_only_so_many_tables(tmp_path):
    with TestClient(_limited(tmp_path, max_tables=2)) as c:
        create(c)
        create(c)
        r = c.post("/api/tables", json={"seats": ["human", "human"], "variant": "rami51"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "server_full"


def test_one_client_opens_only_so_many_sockets(tmp_path):
    with TestClient(_limited(tmp_path, sockets_per_client=2)) as c:
        tid = create(c)["table"]
        with c.websocket_connect(f"/ws/tables/{tid}") as a, c.websocket_connect(f"/ws/tables/{tid}") as b:
            assert a.receive_json()["type"] == "view" and b.receive_json()["type"] == "view"
            with c.websocket_connect(f"/ws/tables/{tid}") as third:
                msg = third.receive_json()
                assert msg["type"] == "error" and msg["code"] == "too_many_connections"
        with c.websocket_connect(f"/ws/tables/{tid}") as again:  # closed ones are given back
            assert again.receive_json()["type"] == "view"


def test_a_spectator_coming_or_going_tells_nobody_else(tmp_path):
    """No all-to-all resend on connect: a watcher gets its own view; the
    player's connection hears only of changes (its seat's presence is one)."""
    with TestClient(_limited(tmp_path)) as c:
        out = create(c, seed=4)
        tid = out["table"]
        hub = c.app.state.hub
        seat = hub.tables[tid].game.state.turn
        tok = out["seats"][seat]["token"]
        with c.websocket_connect(f"/ws/tables/{tid}?token={tok}") as player:
            assert player.receive_json()["view"]["seat"] == seat
            for _ in range(3):
                with c.websocket_connect(f"/ws/tables/{tid}") as watcher:
                    assert watcher.receive_json()["view"]["seat"] is None
            # Three watchers came and went: the player's next messages are its draw's, no views between.
            player.send_json({"type": "action", "action": {"draw": "stock"}})
            kinds = [player.receive_json()["type"] for _ in range(2)]
            assert kinds == ["event", "view"]
