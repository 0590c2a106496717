"""The round's end in a real browser: it stays on screen (revealed hands, what
each paid, how the round ended in words, a countdown) until every person has
clicked "continue"; then the server deals, at both sizes and in both languages."""

from __future__ import annotations

import time

import httpx
import pytest

from rami_core.players.bots import make_bot
from tests.server_support import action_body

ONE_ROUND_EACH = "extends: rami51\ngame:\n  end: rounds\n  rounds: 2\n"
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def play_round_by_http(server, tid: str, tokens: list[str]) -> None:
    """Both seats played by greedy bots through the protocol, as two people would."""
    game = server.hub.get(tid).game
    bots = [make_bot("greedy", seed=i) for i in range(len(tokens))]
    deadline = time.monotonic() + 60
    while game.state.phase != "over":
        assert time.monotonic() < deadline, "the round did not end"
        s = game.state
        body = action_body(bots[s.turn].choose(game.view(s.turn), game.rules))
        r = httpx.post(f"{server.url}/api/tables/{tid}/actions?token={tokens[s.turn]}", json=body)
        assert r.status_code == 200, r.text


@pytest.mark.slow  # waits out the old page's 4 s deal on purpose; the round pause is tests/test_server_round_end.py's
@pytest.mark.parametrize(("size", "lang"), [("desktop", "fr"), ("phone", "en")])
def test_the_round_end_stays_until_everyone_continues(browser, server, size, lang):
    r = httpx.post(
        server.url + "/api/tables",
        json={"rules": ONE_ROUND_EACH, "seats": ["human", "human"], "names": ["Anne", "Luc"], "seed": 11},
    )
    out = r.json()
    tid, tokens = out["table"], [s["token"] for s in out["seats"]]
    pages = []
    errors: list[str] = []
    for link in out["links"]:
        ctx = browser.new_context(viewport=SIZES[size])
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}{link}&lang={lang}")
        page.wait_for_selector("#hand button.card")
        pages.append(page)
    a, b = pages
    assert a.is_hidden("#round-end")
    play_round_by_http(server, tid, tokens)
    view = httpx.get(f"{server.url}/api/tables/{tid}/view?token={tokens[0]}").json()
    for page in pages:
        page.wait_for_selector("#round-end:not([hidden])")
    a.wait_for_timeout(4500)  # the old page dealt after 4 s: the end must still be there
    for page in pages:
        assert page.is_visible("#round-end") and page.get_attribute("body", "data-round") == "1"
        box = page.locator("#round-end")
        box.scroll_into_view_if_needed()
        # What each paid, as the view says, and the revealed hands.
        paid = page.eval_on_selector_all(
            ".round-end-seats .paid", "els => els.map(e => Number(e.dataset.paid))"
        )
        assert paid == view["penalties"]
        shown = page.eval_on_selector_all(
            ".round-end-seats li",
            "lis => lis.map(li => [...li.querySelectorAll('.card')].map(c => c.dataset.card))",
        )
        assert [sorted(h) for h in shown] == [sorted(h) for h in view["revealed_hands"]]
        how = page.inner_text("#round-end-how")
        if view["round_end"] == "out":
            assert ("ferme" if lang == "fr" else " out.") in how  # "Anne ferme." or "Vous fermez."
            assert ("Rami sec" in how) == bool(view["rami_sec"])
        else:
            assert ("pioche" if lang == "fr" else "stock") in how
        countdown = page.inner_text("#round-end-countdown")
        assert countdown.startswith("Manche suivante dans" if lang == "fr" else "Next round in")
        assert int(page.get_attribute("#round-end-countdown", "data-left")) > 900
        assert page.is_visible("#b-continue")
    assert a.inner_text("#b-continue") == ("Continuer" if lang == "fr" else "Continue")
    a.click("#b-continue")
    # Anne continued: nothing is dealt; Luc's page says who is awaited.
    a.wait_for_selector("#round-end-done")
    b.wait_for_function(
        "() => { const n = document.querySelector('#round-end-waiting'); return n && !n.textContent.includes('Anne'); }"
    )
    assert "Luc" in a.inner_text("#round-end-waiting")
    assert b.get_attribute("body", "data-round") == "1" and b.is_visible("#round-end")
    b.click("#b-continue")
    for page in pages:
        page.wait_for_selector("body[data-round='2']")
        page.wait_for_selector("#round-end", state="hidden")
    assert not errors, errors
    for page in pages:
        page.context.close()
