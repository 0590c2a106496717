"""One codec for actions (rami_core.game.actions): the server parses an action
once, and the protocol's published JSON Schema for an action agrees with
what the codec accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.cards import CardError
from rami_core.game import actions as A
from rami_core.server import hub as hub_module
from rami_core.server import protocol as P
from rami_core.server.app import create_app


class Counting:
    """Counts the calls to a function or to an adapter's validate_python."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.calls = 0

    def __call__(self, *args: Any, **kw: Any) -> Any:
        self.calls += 1
        return self.inner(*args, **kw)

    def validate_python(self, *args: Any, **kw: Any) -> Any:
        self.calls += 1
        return self.inner.validate_python(*args, **kw)


@pytest.fixture
def client(tmp_path: Path):
    with TestClient(create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000)) as c:
        yield c


@pytest.fixture
def counted(monkeypatch):
    counts = {
        "parts": Counting(A.action_from_parts),
        "dict": Counting(A.action_from_dict),
        "action_adapter": Counting(hub_module.ACTION_ADAPTER),
    }
    monkeypatch.setattr(A, "action_from_parts", counts["parts"])
    monkeypatch.setattr(A, "action_from_dict", counts["dict"])
    monkeypatch.setattr(hub_module, "ACTION_ADAPTER", counts["action_adapter"])
    return counts


def _table(client) -> tuple[str, str]:
    out = client.post(
        "/api/tables", json={"variant": "rami51", "seats": ["human", "human"], "seed": 3}
    ).json()
    tid = out["table"]
    turn = client.app.state.hub.get(tid).game.state.turn
    return tid, out["seats"][turn]["token"]


def test_a_posted_action_is_parsed_once(client, counted):
    tid, token = _table(client)
    r = client.post(f"/api/tables/{tid}/actions?token={token}", json={"draw": "stock"})
    assert r.status_code == 200 and r.json()["phase"] == "lay"
    assert counted["action_adapter"].calls == 1  # the body's shape, checked once
    assert counted["parts"].calls == 1  # its cards read once, by the codec
    assert counted["dict"].calls == 0  # no dict form in between
    # a refusal takes the same one path
    r = client.post(f"/api/tables/{tid}/actions?token={token}", json={"discard": "ZZ"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_action"
    assert (counted["action_adapter"].calls, counted["parts"].calls, counted["dict"].calls) == (2, 2, 0)


def test_a_websocket_action_is_parsed_once(client, counted, monkeypatch):
    from rami_core.server import app as app_module

    client_adapter = Counting(app_module.CLIENT_ADAPTER)
    monkeypatch.setattr(app_module, "CLIENT_ADAPTER", client_adapter)
    tid, token = _table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "action", "action": {"draw": "stock"}})
        while (m := ws.receive_json())["type"] != "view" or m["view"]["phase"] != "lay":
            assert m["type"] != "error", m
    assert client_adapter.calls == 1  # the message, action included, validated once
    assert counted["action_adapter"].calls == 0  # and not again as an action
    assert counted["parts"].calls == 1 and counted["dict"].calls == 0


# ------------------------------------------------------------------ the schema and the codec agree


def _check(schema: dict[str, Any], value: Any, defs: dict[str, Any]) -> bool:
    """Whether `value` is valid under `schema`: the part of JSON Schema that
    pydantic writes for the action models (no validator library needed)."""
    if "$ref" in schema:
        return _check(defs[schema["$ref"].rsplit("/", 1)[1]], value, defs)
    if "anyOf" in schema:
        return any(_check(s, value, defs) for s in schema["anyOf"])
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            return False
        props = schema.get("properties", {})
        if schema.get("additionalProperties") is False and set(value) - set(props):
            return False
        if set(schema.get("required", ())) - set(value):
            return False
        return all(_check(props[k], v, defs) for k, v in value.items() if k in props)
    if kind == "array":
        if not isinstance(value, list):
            return False
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return False
        return all(_check(schema["items"], v, defs) for v in value)
    if kind == "string":
        return isinstance(value, str) and schema.get("minLength", 0) <= len(value) <= schema.get(
            "maxLength", 1 << 30
        )
    if kind == "integer":
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and schema.get("minimum", value) <= value <= schema.get("maximum", value)
        )
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    return kind is None


def _schema_accepts(body: Any) -> bool:
    schema = P.schemas()["messages"]["action"]
    return _check(schema, body, schema.get("$defs", {}))


def _codec_accepts(body: dict[str, Any]) -> bool:
    try:
        A.action_from_dict({"player": 0, **body})
    except (A.ActionFormatError, CardError):
        return False
    return True


VALID = [
    {"draw": "stock"},
    {"draw": "discard", "player": 1},
    {"meld": [["7H", "8H", "9H"], ["QS", "QD", "QC"]]},
    {"layoff": [{"card": "JK", "to": 0, "as": "7H"}, {"card": "9C", "to": 2}]},
    {"swap": {"card": "7H", "meld": 1}},
    {"swap": {"cards": ["7H", "7D"], "meld": 0}},
    {"rearrange": [["7H", "8H", "9H", "10H"]]},
    {"discard": "10♦"},
    {"end_turn": True},
]
INVALID = [
    {"draw": "sky"},
    {"draw": 1},
    {"meld": "7H 8H 9H"},
    {"meld": [["7H", 8]]},
    {"layoff": [{"card": "7H"}]},
    {"layoff": [{"card": "7H", "to": 0, "with": "8H"}]},
    {"layoff": [{"card": "7H", "to": True}]},
    {"swap": {"card": "7H"}},
    {"swap": {"cards": "7H", "meld": 0}},
    {"discard": ["7H"]},
    {"draw": "stock", "discard": "7H"},
    {},
]


@pytest.mark.parametrize("body", VALID, ids=repr)
def test_the_schema_and_the_codec_accept_the_same_action(body):
    assert _schema_accepts(body)
    assert _codec_accepts(body)
    key = next(k for k in A.ACTION_KEYS if k in body)
    assert P.wire_parts(P.ACTION_ADAPTER.validate_python(body))[0] == key


@pytest.mark.parametrize("body", INVALID, ids=repr)
def test_the_schema_and_the_codec_refuse_the_same_action(body):
    assert not _schema_accepts(body)
    assert not _codec_accepts(body)


def test_the_schema_names_the_codecs_kinds_and_piles():
    schema = P.schemas()["messages"]["action"]
    defs = schema["$defs"]
    keys = [next(k for k in defs[s["$ref"].rsplit("/", 1)[1]]["required"]) for s in schema["anyOf"]]
    assert keys == [k for k in A.ACTION_KEYS if k != "timeout"] + ["undo", "next_round"]
    assert defs["DrawAction"]["properties"]["draw"]["enum"] == list(A.DRAW_PILES)
    assert set(defs["LayOffItem"]["properties"]) == set(A.LAYOFF_ITEM_KEYS)


def test_card_xor_cards_is_the_codecs_rule_on_both_paths(monkeypatch):
    # The one rule a JSON Schema (as pydantic writes it) does not say: the
    # protocol's model checks it by calling the codec's own.
    both = {"swap": {"card": "7H", "cards": ["8H"], "meld": 0}}
    for body in (both, {"swap": {"meld": 0}}):
        assert not _codec_accepts(body)
        with pytest.raises(ValueError):
            P.ACTION_ADAPTER.validate_python(body)
    monkeypatch.setattr(A, "one_swap_form", lambda has_card, has_cards: True)  # the one rule, lifted
    P.ACTION_ADAPTER.validate_python(both)
    A.action_from_dict({"player": 0, **both})
