"""A card dragged to the window's edge scrolls the page, so that a meld off
screen is reached without letting go: a mouse at 1280x800 and a finger at
390x844, each laying a card off on a meld that was out of sight when the drag
began."""

from __future__ import annotations

import httpx
import pytest

from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup
from tests.browser.test_phone_layout import _box

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
TARGET = '#melds .meld[data-meld="0"]'  # Q♥ Q♦ Q♣: the hand's Q♠ goes there
# A table long enough that at 1280x800 its first meld is out of sight at the
# page's bottom: every 2 to 10 of both decks in runs of three.
RUNS = [
    [f"{r}{s}" for r in ranks]
    for s in "SHDC"
    for ranks in (["2", "3", "4"], ["5", "6", "7"], ["8", "9", "10"])
]
LONG = {
    "hands": [
        ["QS", "KS", "KH", "AS", "JK", "JS", "JD", "KD", "KC"],
        ["JC", "JH", "KS", "KH", "JS", "AH", "AD", "KC"],
    ],
    "stock": ["QC", "JC", "AC", "AS", "KD", "QH", "QD", "JD"],
    "discard": ["JH"],
    "table": [{"cards": m, "owner": 1} for m in [["QH", "QD", "QC"], *RUNS, *RUNS, ["AH", "AD", "AC"]]],
    "opened": [True, True],
    "phase": "lay",
}


def _open(browser, srv, size: str):
    r = httpx.post(
        f"{srv.url}/api/tables",
        json={"variant": "rami51", "seats": ["human", "human"], "names": ["Anne", "Luc"], "seed": 5},
    )
    r.raise_for_status()
    out = r.json()
    srv.hub.tables[out["table"]].game = build_setup(load_profile("rami51"), LONG)
    links = out["links"]
    ctx = browser.new_context(viewport=SIZES[size], has_touch=size == "phone", locale="fr-FR")
    page = ctx.new_page()
    page.goto(f"{srv.url}{links[0]}&lang=fr")
    page.wait_for_selector('#hand .card[data-card="QS"]')
    # The page is taller than the window; at its bottom the table is out of sight.
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function("() => window.scrollY > 0")
    top = page.evaluate("() => window.scrollY")
    out = page.eval_on_selector(TARGET, "el => el.getBoundingClientRect().bottom")
    assert out < 0, "the meld must start out of sight"
    return page, top


def _in_sight(page) -> bool:
    return page.eval_on_selector(TARGET, "el => el.getBoundingClientRect().top >= 0")


@pytest.mark.parametrize("size", ["desktop", pytest.param("phone", marks=pytest.mark.slow)])
def test_a_drag_at_the_edge_scrolls_to_a_meld_out_of_sight(browser, server, size):
    page, _ = _open(browser, server, size)
    card = _box(page, '#hand .card[data-card="QS"]')
    x0, y0 = card["x"] + card["width"] / 2, card["y"] + card["height"] / 2
    if size == "desktop":
        page.mouse.move(x0, y0)
        page.mouse.down()
        page.mouse.move(x0, y0 - 30, steps=3)
        page.mouse.move(x0, 8, steps=6)  # held at the top edge: the page scrolls under it
        page.wait_for_function("() => window.scrollY === 0", timeout=8000)  # the page's top reached
        assert _in_sight(page)
        zone = _box(page, TARGET)
        page.mouse.move(zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2, steps=6)
        page.mouse.up()
    else:
        cdp = page.context.new_cdp_session(page)

        def touch(kind: str, x: float, y: float) -> None:
            points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        touch("touchStart", x0, y0)
        for i in range(1, 5):
            touch("touchMove", x0, y0 - 40 * i / 4)  # up first: sideways would scroll the hand's row
        for i in range(1, 7):
            touch("touchMove", x0, (y0 - 40) * (1 - i / 6) + 8 * i / 6)
        page.wait_for_function("() => window.scrollY === 0", timeout=8000)
        assert _in_sight(page)
        zone = _box(page, TARGET)
        x1, y1 = zone["x"] + zone["width"] / 2, zone["y"] + zone["height"] / 2
        for i in range(1, 7):
            touch("touchMove", x0 + (x1 - x0) * i / 6, 8 + (y1 - 8) * i / 6)
        for _ in range(3):
            touch("touchMove", x1, y1)
        touch("touchEnd", x1, y1)
        cdp.detach()
    page.wait_for_selector(f'{TARGET} .card[data-card="QS"]')
    assert page.locator('#hand .card[data-card="QS"]').count() == 0
    page.context.close()
