"""What the table page asks besides playing: the rules panel, the hint, the
check of a move being prepared, and what a seat still owes this turn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [server] extra is not installed")

from starlette.testclient import TestClient

from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup
from rami_core.server.app import create_app

VOLEUR = {
    "hands": [["5S", "9D", "KC"], ["2H", "7D", "8C"]],
    "stock": ["QH", "4H", "6D"],
    "table": [
        {"cards": ["2S", "3S", "4S", "5S", "6S", "7S"], "owner": 1},
        {"cards": ["3S", "4S", "JK"], "owner": 1},
    ],
    "opened": [True, True],
}


@pytest.fixture
def client(tmp_path: Path):
    # The tests below know the deal of seed 3 (who plays first, a hand).
    app = create_app(tmp_path / "rami.sqlite", bot_delay=0, round_pause=1000, reproducible_seeds=True)
    with TestClient(app) as c:
        yield c


def _table(client, variant: str, setup: dict | None = None) -> tuple[str, str, str]:
    r = client.post("/api/tables", json={"variant": variant, "seats": ["human", "human"], "seed": 3})
    assert r.status_code == 201, r.text
    out = r.json()
    if setup is not None:
        t = client.app.state.hub.tables[out["table"]]
        t.game = build_setup(load_profile(variant), setup)
    return out["table"], out["seats"][0]["token"], out["seats"][1]["token"]


def test_rules_panel_says_the_opening_in_the_pages_language(client):
    tid, _, _ = _table(client, "rami51")
    fr = client.get(f"/api/tables/{tid}/rules?lang=fr").json()
    assert fr["title"].startswith("Rami 51")  # the description, not the identifier
    topics = {x["topic"]: x["text"] for x in fr["rules"]}
    assert set(topics) == {"opening", "after_opening", "joker", "discard", "scoring", "game_end"}
    assert "51 points" in topics["opening"] and "tierce franche" in topics["opening"]
    assert "500" in topics["game_end"]
    en = client.get(f"/api/tables/{tid}/rules?lang=en").json()
    assert "pure run" in {x["topic"]: x["text"] for x in en["rules"]}["opening"]


def test_the_title_and_the_lobby_say_the_description_in_the_pages_language(client):
    tid, _, _ = _table(client, "rami51")
    described = load_profile("rami51").description
    assert client.get(f"/api/tables/{tid}/rules?lang=fr").json()["title"] == described.fr
    assert client.get(f"/api/tables/{tid}/rules?lang=en").json()["title"] == described.en
    meta = client.get("/api/meta").json()
    assert set(meta["descriptions"]) == set(meta["presets"]) | set(meta["house"])
    assert meta["descriptions"]["rami51"] == {"en": described.en, "fr": described.fr}
    assert all(d["fr"] and d["en"] != d["fr"] for d in meta["descriptions"].values())
    # The lobby's list of tables names each by its line too, not its identifier.
    (listed,) = [x for x in client.get("/api/tables").json() if x["table"] == tid]
    assert listed["descriptions"] == {"en": described.en, "fr": described.fr}


def test_a_pasted_files_description_is_made_plain_in_each_language(client):
    rules = (
        'extends: rami51\ndescription:\n  en: "Thursday\\u001b[31m rami"\n  fr: "Le   rami\\u202e du jeudi"\n'
    )
    r = client.post("/api/tables", json={"rules": rules, "seats": ["human", "human"]})
    assert r.status_code == 201, r.text
    tid = r.json()["table"]
    assert client.get(f"/api/tables/{tid}/rules?lang=fr").json()["title"] == "Le rami du jeudi"
    assert client.get(f"/api/tables/{tid}/rules?lang=en").json()["title"] == "Thursday[31m rami"


def test_rules_panel_of_voleur_says_no_discard(client):
    tid, _, _ = _table(client, "voleur")
    topics = {x["topic"]: x["text"] for x in client.get(f"/api/tables/{tid}/rules?lang=fr").json()["rules"]}
    assert topics["discard"].startswith("Pas de défausse")
    assert "réorganiser" in topics["after_opening"]


def test_hint_is_the_terminals_in_french(client):
    tid, a, b = _table(client, "rami51")
    r = client.get(f"/api/tables/{tid}/hint?token={a}&lang=fr")
    assert r.status_code == 200, r.text
    assert r.json()["text"].startswith("Conseil : ")
    # not the seat to play: refused, in words
    r = client.get(f"/api/tables/{tid}/hint?token={b}&lang=fr")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_your_turn"
    assert client.get(f"/api/tables/{tid}/hint").status_code == 403  # a spectator


RAMI51_OPENING = {
    "hands": [
        ["7H", "8H", "9H", "10H", "JH", "QH", "KH", "2C", "3C", "4C", "KS", "KD", "KC", "5D"],
        ["2D", "4D", "6D", "8D", "10D", "QD", "AS", "3S", "5S", "7S", "9S", "JS", "QS"],
    ],
    "stock": ["9C", "6S", "AH", "AD"],
    "discard": ["2H"],
}
# What a terminal player types; a page player has no command line to type it in.
COMMANDS = re.compile(r"(^|[ :,])[mlsrx] |\((d|dd|e|x [^)]*)\)")


@pytest.mark.parametrize(("variant", "setup"), [("rami51", RAMI51_OPENING), ("voleur", VOLEUR)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pages_hint_says_the_move_not_the_command(client, variant, setup, lang):
    tid, a, _ = _table(client, variant, setup)
    drew = client.get(f"/api/tables/{tid}/hint?token={a}&lang={lang}").json()["text"]
    assert not COMMANDS.search(drew), drew
    client.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).raise_for_status()
    text = client.get(f"/api/tables/{tid}/hint?token={a}&lang={lang}").json()["text"]
    assert not COMMANDS.search(text), text
    if variant == "rami51":
        lay, then = (
            ("Conseil : posez [", "puis défaussez") if lang == "fr" else ("Hint: lay [", "then discard")
        )
        assert text.startswith(lay) and then in text and "[7♥ 8♥ 9♥ 10♥]" in text, text


def test_check_reads_each_meld_and_orders_a_run(client):
    tid, a, _ = _table(client, "voleur", VOLEUR)
    client.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).raise_for_status()
    table = [["2S", "3S", "4S"], ["7S", "5S", "6S"], ["3S", "4S", "JK", "5S"]]
    r = client.post(f"/api/tables/{tid}/check?token={a}&lang=fr", json={"rearrange": table})
    out = r.json()
    assert r.status_code == 200, r.text
    assert out["ok"] is True and out["error"] is None
    assert out["melds"][1] == {"ok": True, "cards": ["5S", "6S", "7S"], "kind": "run", "text": ""}
    before = client.get(f"/api/tables/{tid}/view?token={a}").json()
    assert before["melds"][0]["cards"] == ["2S", "3S", "4S", "5S", "6S", "7S"]  # nothing changed


def test_check_marks_an_invalid_meld_with_its_number_as_shown(client):
    tid, a, _ = _table(client, "voleur", VOLEUR)
    client.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).raise_for_status()
    table = [["2S", "3S", "4S", "6S"], ["5S", "7S"], ["3S", "4S", "JK", "5S"]]
    out = client.post(f"/api/tables/{tid}/check?token={a}&lang=fr", json={"rearrange": table}).json()
    assert out["ok"] is False
    assert [m["ok"] for m in out["melds"]] == [False, False, True]
    assert "combinaison 1" in out["melds"][0]["text"]
    assert "combinaison 1" in out["error"]["text"]  # the engine's refusal, numbered from 1


def test_rearrangement_tells_what_was_taken_from_whose_meld(client):
    tid, a, b = _table(client, "voleur", VOLEUR)
    client.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).raise_for_status()
    table = [["2S", "3S", "4S"], ["5S", "6S", "7S"], ["3S", "4S", "5S", "JK"]]
    r = client.post(f"/api/tables/{tid}/actions?token={a}", json={"rearrange": table})
    assert r.status_code == 200, r.text
    events = client.get(f"/api/tables/{tid}/events?token={b}&lang=fr").json()["events"]
    last = next(e for e in reversed(events) if e["event"]["kind"] == "rearranged")
    assert last["event"]["moved"] == [{"from": 0, "to": 1, "cards": ["5S", "6S", "7S"]}]
    assert "5♠ 6♠ 7♠ de la combinaison 1 à la 2" in last["text"]
    # the untouched run 3 4 JK+5 is new; 2 3 4 and 5 6 7 are cut from Bea's run: the old owner stays on neither
    view = r.json()
    assert view["melds"][2]["owner"] == 0


def test_owes_a_joker_won_back_in_rami51(client):
    setup = {
        "hands": [["7H", "2C", "9D", "KC"], ["2H", "7D", "8C"]],
        "stock": ["QH", "4H", "6D"],
        "table": [{"cards": ["5H", "6H", "JK"], "owner": 1}],
        "opened": [True, True],
    }
    tid, a, b = _table(client, "rami51", setup)
    client.post(f"/api/tables/{tid}/actions?token={a}", json={"draw": "stock"}).raise_for_status()
    r = client.post(f"/api/tables/{tid}/actions?token={a}", json={"swap": {"card": "7H", "meld": 0}})
    assert r.status_code == 200, r.text
    assert r.json()["owes"]["jokers"] == ["JK"]
    assert r.json()["owes"]["keep_for_discard"] is True
    # the other seat owes nothing
    assert client.get(f"/api/tables/{tid}/view?token={b}").json()["owes"]["jokers"] == []
