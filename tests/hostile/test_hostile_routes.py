"""Every route of the server behind one guard (issue 44): each state-changing
route is found by walking the app's own routes, so a route added later is
attacked here too. Hostile bodies end in a located 4xx JSON error, never a
500 or a traceback; another site's page changes nothing (415, 403)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.requests import Request
from starlette.routing import Route
from starlette.testclient import TestClient

from rami_core.server.app import create_app

JSON = {"content-type": "application/json"}
CHANGING = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory):
    app = create_app(tmp_path_factory.mktemp("routes") / "rami.sqlite", bot_delay=0, round_pause=1000)
    with TestClient(app) as c:
        table = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"]}).json()
        puzzle = c.get("/api/puzzles/daily").json()["id"]
        yield app, c, table, puzzle


def changing_routes(app: Any, table: dict[str, Any], puzzle: str) -> list[tuple[str, str]]:
    """(method, url) of every state-changing route, its parameters filled with
    things that exist (a table and its seat's token, a puzzle), so the body is read."""
    out = []
    for route in app.routes:
        if not isinstance(route, Route):
            continue
        for method in sorted((route.methods or set()) & CHANGING):
            params = dict.fromkeys(route.param_convertors, "x")
            if "id" in params:
                params["id"] = puzzle if "puzzle" in route.path else table["table"]
            url = route.url_path_for(route.name, **params)
            out.append((method, f"{url}?token={table['seats'][0]['token']}"))
    return out


def test_the_routes_are_found(served):
    app, _, table, puzzle = served
    found = {url.split("?")[0] for _, url in changing_routes(app, table, puzzle)}
    assert "/api/tables" in found and "/api/public" in found and f"/api/puzzles/{puzzle}/try" in found
    assert f"/api/tables/{table['table']}/actions" in found


HOSTILE = {
    "deep_lists": "[" * 30_000 + "]" * 30_000,
    "deep_objects": '{"a":' * 10_000 + "1" + "}" * 10_000,
    "deep_under_the_stack": "[" * 500 + "]" * 500,
    "nan": '{"table": NaN, "seed": NaN}',
    "infinity": '{"seed": -Infinity}',
    "overflow": '{"seed": 1e400}',
    "duplicate_keys": '{"table": [], "table": [["7S","8S","9S"]], "seats": 1, "seats": 2}',
    "long_int": '{"seed": ' + "9" * 5000 + "}",
    "not_utf8": b"\xff\xfe{}",
    "not_json": "{nope",
}


def _assert_clean(r: Any) -> dict[str, Any]:
    assert r.status_code < 500, (r.status_code, r.text[:300])
    assert "Traceback" not in r.text and "RecursionError" not in r.text
    err = r.json()["error"]
    assert err["code"] and err["message"]
    return err


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_changing_route_refuses_hostile_json(served, name):
    app, c, table, puzzle = served
    for method, url in changing_routes(app, table, puzzle):
        if method == "DELETE":
            continue  # no body is read
        r = c.request(method, url, content=HOSTILE[name], headers=JSON)
        err = _assert_clean(r)
        assert r.status_code == 400 and err["code"] == "invalid_json", (method, url, r.text[:300])


def test_every_changing_route_refuses_a_huge_body(served):
    app, c, table, puzzle = served
    body = b'{"a": "' + b"x" * (3 * 1024 * 1024) + b'"}'
    for method, url in changing_routes(app, table, puzzle):
        if method == "DELETE":
            continue
        r = c.request(method, url, content=body, headers=JSON)
        err = _assert_clean(r)
        assert r.status_code == 413 and err["code"] == "too_large", (method, url)


@pytest.mark.parametrize(
    "kind", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_every_changing_route_wants_json(served, kind):
    app, c, table, puzzle = served
    for method, url in changing_routes(app, table, puzzle):
        headers = {} if kind is None else {"content-type": kind}
        if method == "DELETE" and kind is None:
            continue  # a bodiless DELETE declares no type (and no form can send one)
        r = c.request(method, url, content='{"table": []}', headers=headers)
        err = _assert_clean(r)
        assert r.status_code == 415 and err["code"] == "not_json", (method, url, kind)


@pytest.mark.parametrize(
    "headers",
    [
        {"origin": "https://evil.example"},
        {"origin": "http://testserver.evil.example"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"origin": "http://testserver", "sec-fetch-site": "cross-site"},
    ],
)
def test_every_changing_route_refuses_another_site(served, headers):
    app, c, table, puzzle = served
    for method, url in changing_routes(app, table, puzzle):
        r = c.request(method, url, content="{}", headers={**JSON, **headers})
        err = _assert_clean(r)
        assert r.status_code == 403 and err["code"] == "cross_site", (method, url, headers)
        fr = c.request(method, url + "&lang=fr", content="{}", headers={**JSON, **headers})
        assert "autre site" in fr.json()["error"]["text"]


def test_the_own_origin_and_same_site_pass(served):
    _, c, _, puzzle = served
    for headers in ({"origin": "http://testserver"}, {"sec-fetch-site": "same-origin"}, {}):
        r = c.post(f"/api/puzzles/{puzzle}/try", json={"table": []}, headers=headers)
        assert r.status_code == 200, r.text


def test_a_bodiless_delete_still_works(served):
    _, c, _, _ = served
    out = c.post("/api/tables", json={"variant": "rami51", "seats": ["human", "human"]}).json()
    r = c.delete(f"/api/tables/{out['table']}?token={out['creator_token']}")
    assert r.status_code == 200


def test_the_pages_send_json(served):
    """The browser pages' own fetches that change something declare JSON."""
    import re

    static = Path(__file__).resolve().parents[2] / "rami_core" / "server" / "static"
    for js in static.glob("*.js"):
        text = js.read_text()
        for call in re.finditer(r"fetch\([^;]*?method:\s*\"(POST|PUT|PATCH)\"[^;]*?\)", text, re.S):
            assert re.search(r"content-type\"?:\s*\"application/json\"", call.group(0), re.I), (js.name, call)


def test_an_unexpected_failure_is_a_json_500_without_traceback(tmp_path):
    def boom(request: Request):
        raise ZeroDivisionError("secret internals")

    app = create_app(tmp_path / "x.sqlite", bot_delay=0, round_pause=1000)
    app.router.routes.insert(0, Route("/api/boom", boom, methods=["GET", "POST"]))
    with TestClient(app) as c:
        for r in (c.get("/api/boom"), c.post("/api/boom", json={})):
            assert r.status_code == 500
            assert r.json()["error"]["code"] == "internal_error"
            assert "secret" not in r.text and "Traceback" not in r.text
            assert r.headers["x-content-type-options"] == "nosniff"


def test_unknown_routes_and_methods_answer_json(served):
    _, c, _, _ = served
    r = c.get("/api/nothing-here")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    r = c.put("/api/tables", json={})
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "headers",
    [{"origin": "http://evil.example"}, {"origin": "null"}, {"sec-fetch-site": "cross-site"}],
)
def test_a_websocket_from_another_site_is_refused_at_the_handshake(served, headers):
    """A WebSocket plays moves: another site's page may not open one (cross-site WebSocket hijacking)."""
    from starlette.websockets import WebSocketDisconnect

    _, c, table, _ = served
    with (
        pytest.raises(WebSocketDisconnect) as info,
        c.websocket_connect(
            f"/ws/tables/{table['table']}?token={table['seats'][0]['token']}", headers=headers
        ),
    ):
        pass
    assert info.value.code == 1008


def test_a_websocket_from_the_page_itself_opens(served):
    _, c, table, _ = served
    for headers in ({"origin": "http://testserver"}, {}):
        with c.websocket_connect(
            f"/ws/tables/{table['table']}?token={table['seats'][0]['token']}", headers=headers
        ) as ws:
            assert ws.receive_json()
