"""Public tables in a real browser: two people (two browser contexts) meet at
one table by "play now"; the name is asked once and kept; a person who left
finds the way back to their seat from the same browser; alone, bots take the
seats left after a visible countdown. Desktop and phone, French and English."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def lobby(browser, server, size: str, lang: str, errors: list[str]):
    ctx = browser.new_context(viewport=SIZES[size])
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("#offer option[value='rami51']", state="attached")
    return page


@pytest.mark.parametrize(
    ("size", "lang"), [("desktop", "fr"), pytest.param("phone", "en", marks=pytest.mark.slow)]
)
def test_two_people_meet_by_play_now(browser, server, size, lang):
    errors: list[str] = []
    anne = lobby(browser, server, size, lang, errors)
    luc = lobby(browser, server, size, lang, errors)
    # No name yet: it is asked for, and nothing is sent.
    anne.click("#play-now-btn")
    assert ("nom" if lang == "fr" else "name") in anne.inner_text("#play-now-error")
    assert anne.evaluate("() => document.activeElement.id") == "my-name"
    offers = {o["name"]: o for o in httpx.get(server.url + "/api/public").json()["offers"]}
    assert offers["rami51"]["waiting"] == {}
    for page, name in ((anne, "Anne"), (luc, "Luc")):
        page.fill("#my-name", name)
        page.select_option("#offer", "rami51")
        page.select_option("#size", "2")
    anne.click("#play-now-btn")
    anne.wait_for_selector("#play-now-wait:not([hidden])")
    assert "Anne" in anne.inner_text("#wait-text")
    assert int(anne.get_attribute("#wait-bots", "data-left")) > 20  # the countdown to the bots
    assert ("robots" if lang == "fr" else "Bots") in anne.inner_text("#wait-bots")
    luc.click("#play-now-btn")
    for page in (anne, luc):
        page.wait_for_url("**/t/*")
        page.wait_for_selector("#hand button.card")
    assert anne.url.split("/t/")[1].split("?")[0] == luc.url.split("/t/")[1].split("?")[0]
    you = "vous" if lang == "fr" else "you"
    assert "Anne" in luc.inner_text("#players") and f"Luc ({you})" in luc.inner_text("#players")
    assert f"Anne ({you})" in anne.inner_text("#players")
    tid = anne.url.split("/t/")[1].split("?")[0]
    assert httpx.get(f"{server.url}/api/tables/{tid}").json()["public"] is True
    hand = sorted(anne.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)"))
    # Anne leaves; the same browser finds its way back to the seat, the name kept.
    anne.goto(f"{server.url}/?lang={lang}")
    anne.wait_for_selector("a.back-to-seat")
    assert anne.input_value("#my-name") == "Anne"
    anne.click("a.back-to-seat")
    anne.wait_for_selector("#hand button.card")
    assert f"Anne ({you})" in anne.inner_text("#players")
    again = sorted(anne.eval_on_selector_all("#hand button.card", "els => els.map(e => e.dataset.card)"))
    assert again == hand or len(again) == len(hand) + 1  # the same seat (maybe a card drawn by the clock)
    assert not errors, errors
    for page in (anne, luc):
        page.context.close()


@pytest.mark.slow  # waits out the bots' countdown; the lobby and its seats are play_now's
def test_alone_bots_fill_the_table_after_the_countdown(browser, tmp_path: Path):
    from tests.server_support import ThreadServer

    with ThreadServer(tmp_path / "pub.sqlite", bot_delay=0.05, round_pause=1000, public_wait=2) as srv:
        errors: list[str] = []
        page = lobby(browser, srv, "desktop", "fr", errors)
        page.fill("#my-name", "Anne")
        page.select_option("#offer", "voleur")
        page.select_option("#size", "3")
        page.click("#play-now-btn")
        page.wait_for_selector("#play-now-wait:not([hidden])")
        page.wait_for_url("**/t/*", timeout=20000)
        page.wait_for_selector("#hand button.card")
        text = page.inner_text("#players")
        assert "Anne (vous)" in text and "robot glouton 2" in text and "robot glouton 3" in text
        assert not errors, errors
        page.context.close()
