"""No visitor-controlled work without a bound (issue 44, class 4): every
repeatable request (a view, the events, a check, a hint, a WebSocket
connection or ping) is counted per client (a token bucket, 429
too_many_requests), and a view is built off the event loop."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.server.app import create_app
from rami_core.server.limits import Limits


def app(tmp_path, burst: int = 5):
    options = {"requests_burst": burst, "requests_per_second": 0.001}
    return create_app(tmp_path / "r.sqlite", bot_delay=1000, round_pause=1000, limits_options=options)


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/view"), ("GET", "/events"), ("GET", "/hint"), ("POST", "/check")],
)
def test_a_repeated_request_is_refused_past_the_bucket(tmp_path, method, path):
    a = app(tmp_path)
    with TestClient(a, client=("2001:db8:3:3::1", 1)) as c:
        out = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"]}).json()
        url = f"/api/tables/{out['table']}{path}?token={out['seats'][0]['token']}&lang=fr"
        codes = [c.request(method, url, json={"draw": "stock"}).status_code for _ in range(8)]
        assert codes[:5].count(429) == 0 and codes[5:] == [429] * 3, codes
        r = c.request(method, url, json={"draw": "stock"})
        assert r.json()["error"]["code"] == "too_many_requests" and "demandes" in r.json()["error"]["text"]
        # The same /64 is the same client; another client is served.
        same = TestClient(a, client=("2001:db8:3:3::9", 1))
        assert same.request(method, url, json={"draw": "stock"}).status_code == 429
        other = TestClient(a, client=("198.51.100.3", 1)).request(method, url, json={"draw": "stock"})
        assert other.status_code != 429


def test_pings_and_reconnections_count_too(tmp_path):
    a = app(tmp_path, burst=3)
    with TestClient(a, client=("198.51.100.61", 1)) as c:
        out = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"]}).json()
        url = f"/ws/tables/{out['table']}?token={out['seats'][0]['token']}"
        with c.websocket_connect(url) as ws:  # 1
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "ping"})  # 2
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "ping"})  # 3
            assert ws.receive_json()["type"] == "view"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["code"] == "too_many_requests"
        with c.websocket_connect(url) as ws:
            assert ws.receive_json()["code"] == "too_many_requests"


def test_the_bucket_refills_and_its_options_are_checked():
    import time

    from rami_core.server.protocol import ServerError

    limits = Limits(requests_burst=2, requests_per_second=100.0)
    limits.spend("x")
    limits.spend("x")
    with pytest.raises(ServerError):
        limits.spend("x")
    time.sleep(0.05)  # five tokens' time, the bucket holds two
    limits.spend("x")
    limits.spend("x")
    with pytest.raises(ValueError):
        Limits(requests_burst=0)
