"""The table page as a card table, in Debian's Chromium: the rules stated,
melds checked while they are edited, a voleur rearrangement by drag and drop
seen by the other seat, and the hand kept in sight on a phone."""

from __future__ import annotations

import httpx
import pytest

from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup

VOLEUR = {
    "hands": [["5S", "9D", "KC", "4H"], ["2H", "7D", "8C", "10S"]],
    "stock": ["QH", "4D", "6D", "JC", "3C"],
    "table": [
        {"cards": ["2S", "3S", "4S", "5S", "6S", "7S"], "owner": 1},
        {"cards": ["9H", "9C", "9S"], "owner": 0},
    ],
    "opened": [True, True],
}


def _table(server, variant: str, setup: dict | None = None) -> tuple[str, list[str]]:
    r = httpx.post(
        f"{server.url}/api/tables",
        json={"variant": variant, "seats": ["human", "human"], "names": ["Anne", "Luc"], "seed": 5},
    )
    r.raise_for_status()
    out = r.json()
    if setup is not None:
        server.hub.tables[out["table"]].game = build_setup(load_profile(variant), setup)
    return out["table"], out["links"]


@pytest.mark.parametrize("lang", ["fr", pytest.param("en", marks=pytest.mark.slow)])
def test_rules_panel_title_and_a_meld_checked_while_prepared(browser, server, lang):
    _, links = _table(server, "rami51")
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto(f"{server.url}{links[0]}&lang={lang}")
    page.wait_for_selector('#rules-box dd[data-topic="opening"]')
    opening = page.inner_text('#rules-box dd[data-topic="opening"]')
    assert "51" in opening and ("tierce franche" if lang == "fr" else "pure run") in opening
    assert page.inner_text("#variant").startswith("Rami 51 - ")  # the description, not "rami51"
    page.click("#stock")
    page.wait_for_selector("#b-stage:not([hidden])")
    hand = [el.get_attribute("data-card") for el in page.query_selector_all("#hand .card")]
    two = [c for c in hand if c != "JK"][:2]  # two cards are never a meld
    for c in two:
        page.click(f'#hand .card[data-card="{c}"]')
    page.click("#b-stage")
    page.wait_for_selector("#staged .meld.invalid")
    assert page.is_disabled("#b-lay")
    assert page.inner_text("#staged-why").startswith("Refusé" if lang == "fr" else "Refused")
    # the actions are on screen at 1280x800 without scrolling
    box = page.locator("#b-lay").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 800
    ctx.close()


def test_voleur_rearrangement_by_drag_and_drop_seen_by_the_other_seat(browser, server):
    _, links = _table(server, "voleur", VOLEUR)
    anne = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    luc = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    anne.goto(f"{server.url}{links[0]}&lang=fr")
    luc.goto(f"{server.url}{links[1]}&lang=fr")
    anne.wait_for_selector("#hand .card")
    luc.wait_for_selector("#melds .meld")
    assert not anne.is_visible("#discard")  # no discard pile in voleur
    anne.click("#stock")
    # the draw shown (the hand is drawn anew with the card taken) before the rearrangement starts
    anne.wait_for_function("() => document.querySelectorAll('#hand .card').length === 5")
    anne.click("#b-rearrange")
    # 6♠ 7♠ picked on Luc's run, then the hand's 5♠ dragged with the mouse onto a new meld
    anne.click('#work .meld[data-index="0"] .card[data-card="6S"]')
    anne.click('#work .meld[data-index="0"] .card[data-card="7S"]')
    anne.click("#new-meld")
    anne.wait_for_selector('#work .meld.invalid[data-index="2"]')  # 6♠ 7♠ alone: read by the server
    src = dst = None
    for _ in range(50):  # the boxes once both are drawn (a view arriving redraws the hand)
        src = anne.locator('#hand .card[data-card="5S"]').bounding_box()
        dst = anne.locator('#work .meld[data-index="2"]').bounding_box()
        if src and dst:
            break
        anne.wait_for_timeout(100)
    assert src and dst
    anne.mouse.move(src["x"] + 10, src["y"] + 10)
    anne.mouse.down()
    anne.mouse.move(src["x"] + 40, src["y"] - 20, steps=4)
    anne.mouse.move(dst["x"] + 20, dst["y"] + 20, steps=6)
    anne.mouse.up()
    # the server puts the run in order and finds the table valid
    anne.wait_for_selector("#rearrange-send:not([disabled])")
    cards = [
        e.get_attribute("data-card") for e in anne.query_selector_all('#work .meld[data-index="2"] .card')
    ]
    assert cards == ["5S", "6S", "7S"]
    anne.click("#rearrange-send")
    # Luc sees what was taken from his run, highlighted and in the log
    luc.wait_for_selector("#melds .meld.flash")
    luc.wait_for_selector("#log li:has-text('6♠ 7♠ de la combinaison 1')")
    anne.context.close()
    luc.context.close()


@pytest.mark.slow
def test_undo_this_rearrangement_puts_the_table_back(browser, server):
    _, links = _table(server, "voleur", VOLEUR)
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.goto(f"{server.url}{links[0]}&lang=fr")
    page.wait_for_selector("#hand .card")
    page.click("#stock")
    page.click("#b-rearrange")
    page.click('#work .meld[data-index="0"] .card[data-card="2S"]')
    page.click('#work .meld[data-index="1"] .move-here')
    page.wait_for_selector("#work .meld.invalid")
    assert page.is_disabled("#rearrange-send")
    page.click("#rearrange-reset")
    assert page.locator("#work .meld.invalid").count() == 0
    assert len(page.query_selector_all('#work .meld[data-index="0"] .card')) == 6
    page.context.close()


def test_phone_keeps_the_hand_and_actions_at_the_bottom(browser, server):
    _, links = _table(server, "rami51")
    page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True).new_page()
    page.goto(f"{server.url}{links[0]}&lang=fr")
    page.wait_for_selector("#hand .card")
    panel = page.locator("#hand-panel").bounding_box()
    assert panel is not None and abs(panel["y"] + panel["height"] - 844) < 2  # stuck to the bottom
    draw = page.locator("#b-draw-stock").bounding_box()
    assert draw is not None and draw["y"] + draw["height"] <= 844
    page.context.close()
