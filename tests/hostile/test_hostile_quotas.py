"""Quotas per client on every creation route (issue 44, class 2): tables,
public tickets and sockets are counted per client, an IPv6 address by its
/64 (limits.client_key, the one mapping); a public table whose seats nobody
opens, or nobody holds any more, ends and frees its slot."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.server import public as public_module
from rami_core.server.app import create_app
from rami_core.server.limits import PUBLIC_TICKETS_PER_CLIENT, client_key


def app(tmp_path: Path, **options):
    options.setdefault("public_wait", 1000)
    return create_app(tmp_path / "q.sqlite", bot_delay=0, round_pause=1000, **options)


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::ffff]", "2001:db8:1:2::/64"),
        ("fe80::1%eth0", "fe80::/64"),
        ("::ffff:198.51.100.4", "198.51.100.4"),
        ("", ""),
        ("testclient", "testclient"),
    ],
)
def test_an_address_is_a_client_and_an_ipv6_one_by_its_64(host, key):
    assert client_key(host) == key


def at(a, host: str) -> TestClient:
    """Requests from `host` to an app already started by another client."""
    return TestClient(a, client=(host, 1))


def test_ipv6_addresses_of_one_64_share_the_table_quota(tmp_path):
    a = app(tmp_path, limits_options={"tables_per_client": 2})
    body = {"seats": ["human", "human"], "variant": "rami51"}
    with TestClient(a):
        assert at(a, "2001:db8:7:7::1").post("/api/tables", json=body).status_code == 201
        assert at(a, "2001:db8:7:7:ffff::2").post("/api/tables", json=body).status_code == 201
        r = at(a, "2001:db8:7:7:1234:5678:9abc:def0").post("/api/tables?lang=fr", json=body)
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tables"
        assert "adresse" in r.json()["error"]["text"]
        # The next /64 is another client.
        assert at(a, "2001:db8:7:8::1").post("/api/tables", json=body).status_code == 201


def test_one_client_holds_a_few_public_seats_not_every_slot(tmp_path):
    a = app(tmp_path)
    with TestClient(a, client=("2001:db8:9:9::1", 1)) as c:
        made = []
        for i in range(PUBLIC_TICKETS_PER_CLIENT + 3):
            r = c.post("/api/public?lang=fr", json={"offer": "rami51", "name": f"p{i}", "players": 2})
            if r.status_code == 201:
                made.append(r.json())
            else:
                assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tickets"
                assert "adresse" in r.json()["error"]["text"]
        assert len(made) == PUBLIC_TICKETS_PER_CLIENT
        # Another address of the same /64 is the same client; another client is not held back.
        assert (
            at(a, "2001:db8:9:9:5::5").post("/api/public", json={"offer": "voleur", "name": "x"}).status_code
            == 429
        )
        other = at(a, "198.51.100.20").post("/api/public", json={"offer": "voleur", "name": "y"})
        assert other.status_code == 201
        # Leaving a waiting ticket gives its place back ...
        assert c.delete(f"/api/public/tickets/{other.json()['ticket']}").status_code == 200
        # ... and a table whose seats nobody opened ends, and its tickets count no more.
        a.state.hub.public_unseen = 0.0
        assert c.portal.call(a.state.hub.sweep) == PUBLIC_TICKETS_PER_CLIENT // 2
        assert c.post("/api/public", json={"offer": "rami51", "name": "again"}).status_code == 201


def test_the_public_clicks_are_counted_in_a_window(tmp_path):
    a = app(tmp_path, limits_options={"public_joins_per_client": 3, "public_tickets_per_client": 10})
    with TestClient(a, client=("198.51.100.30", 1)) as c:
        for i in range(3):
            r = c.post("/api/public", json={"offer": "rami51", "name": f"n{i}"})
            assert r.status_code == 201
            c.delete(f"/api/public/tickets/{r.json()['ticket']}")
        r = c.post("/api/public", json={"offer": "rami51", "name": "n3"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_tickets"


def test_sockets_of_one_64_share_the_socket_quota(tmp_path):
    a = app(tmp_path, limits_options={"sockets_per_client": 1})
    with TestClient(a, client=("2001:db8:5:5::1", 1)) as c:
        tid = c.post("/api/tables", json={"seats": ["greedy", "greedy"], "variant": "rami51"}).json()["table"]
        with c.websocket_connect(f"/ws/tables/{tid}") as ws1:
            ws1.receive_json()
            with at(a, "2001:db8:5:5::2").websocket_connect(f"/ws/tables/{tid}") as ws2:
                msg = ws2.receive_json()
                assert msg["code"] == "too_many_connections"


def test_a_public_table_nobody_opens_ends_and_frees_its_slot(tmp_path, monkeypatch):
    monkeypatch.setattr(public_module, "MAX_PUBLIC_TABLES", 1)
    a = app(tmp_path)
    with TestClient(a, client=("198.51.100.40", 1)) as c:
        hub = a.state.hub
        r1 = c.post("/api/public", json={"offer": "rami51", "name": "a", "players": 2})
        r2 = c.post("/api/public", json={"offer": "rami51", "name": "b", "players": 2})
        assert r2.json()["state"] == "seated", r2.text
        tid = r2.json()["table"]
        assert c.post("/api/public", json={"offer": "voleur", "name": "c"}).status_code == 503
        assert c.portal.call(hub.sweep) == 0  # within the wait for its people
        hub.public_unseen = 0.0
        assert c.portal.call(hub.sweep) == 1 and tid not in hub.tables
        assert c.get(f"/api/public/tickets/{r1.json()['ticket']}").status_code in (200, 404)
        assert c.post("/api/public", json={"offer": "voleur", "name": "c"}).status_code == 201


def test_a_public_table_ends_once_nobody_holds_a_seat(tmp_path):
    a = app(tmp_path)
    with TestClient(a, client=("198.51.100.50", 1)) as c:
        hub = a.state.hub
        hub.public_unseen = 0.0
        c.post("/api/public", json={"offer": "rami51", "name": "a", "players": 2})
        seated = c.post("/api/public", json={"offer": "rami51", "name": "b", "players": 2}).json()
        tid, token = seated["table"], seated["token"]
        with c.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            ws.receive_json()
            assert c.portal.call(hub.sweep) == 0  # held: nothing ends
            with c.websocket_connect(f"/ws/tables/{tid}") as spectator:  # a spectator holds nothing
                spectator.receive_json()
        hub.public_alone = 1000.0
        assert c.portal.call(hub.sweep) == 0 and tid in hub.tables  # left just now: it may come back
        hub.public_alone = 0.0
        assert c.portal.call(hub.sweep) == 1 and tid not in hub.tables
        # A table made by hand is never ended for that.
        mine = c.post("/api/tables", json={"seats": ["human", "greedy"], "variant": "rami51"}).json()
        assert c.portal.call(hub.sweep) == 0 and mine["table"] in hub.tables
