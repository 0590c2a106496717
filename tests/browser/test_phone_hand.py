"""Issue 47, the phone table a club chooses: on every phone (360 to 430 px
wide, upright, and a phone on its side) a 26-card voleur hand is in sight
whole, without sideways scrolling, each card's visible strip wide enough for
a finger; no text overflows its card or button on the table, the lobby or the
puzzles page; no page is wider than the screen. The hand's order (by suit or
by rank) is kept by the browser.

One server and one browser for the module."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup

SIZES = {
    "360x740": {"width": 360, "height": 740},
    "390x844": {"width": 390, "height": 844},
    "430x932": {"width": 430, "height": 932},
    "844x390": {"width": 844, "height": 390},
}
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
# 26 cards: every heart and spade but two, the clubs' tens, and both jokers.
HAND26 = [r + s for s in "SH" for r in RANKS][:22] + ["10C", "10D", "JK", "JK"]
VOLEUR26 = {
    "hands": [HAND26, ["2C", "7D", "8C", "9C"]],
    "stock": ["QD", "4D", "6D", "JC", "3C", "9D"],
    "table": [
        {"cards": ["5C", "6C", "7C"], "owner": 1},
        {"cards": ["JD", "QD", "KD"], "owner": 1},
    ],
    "opened": [True, True],
}

# The hand: every card inside the screen sideways, each card's strip in sight.
HAND_JS = """
() => {
  const cards = [...document.querySelectorAll("#hand .card")];
  const boxes = cards.map((c) => c.getBoundingClientRect());
  const strips = [];
  boxes.forEach((r, i) => {
    const next = boxes[i + 1];
    const sameRow = next && Math.abs(next.top - r.top) < r.height / 2;
    strips.push(sameRow ? Math.min(r.width, next.left - r.left) : r.width);
  });
  return {
    n: cards.length,
    outside: boxes.filter((r) => r.left < -0.5 || r.right > innerWidth + 0.5).length,
    minStrip: Math.min(...strips),
    scroll: document.scrollingElement.scrollWidth,
    inner: innerWidth,
    handScroll: document.getElementById("hand").scrollWidth - document.getElementById("hand").clientWidth,
    bottom: Math.max(...boxes.map((r) => r.bottom)),
  };
}
"""

# Text wider than its element (a card, a button, a link, a label...): an
# element whose content is wider than its box, scrolling boxes left out.
OVERFLOW_JS = """
() => {
  const bad = [];
  for (const el of document.querySelectorAll(".card, button, a, label, select, summary, h1, h2, h3, p, li, td, th, .meld")) {
    if (!el.getClientRects().length || el.closest(".sr-only")) continue;  // not shown, or for a screen reader
    const cs = getComputedStyle(el);
    if (["auto", "scroll"].includes(cs.overflowX) || cs.textOverflow === "ellipsis") continue;
    if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      bad.push(`${el.tagName}.${el.className} ${el.id || el.dataset.card || ""}: ${el.scrollWidth} > ${el.clientWidth} (${el.textContent.trim().slice(0, 40)})`);
    }
  }
  return bad;
}
"""

CARD_JS = """
(nth) => {
  const cards = [...document.querySelectorAll("#hand .card")];
  const el = nth === "last" ? cards[cards.length - 1] : cards[nth];
  const r = el.getBoundingClientRect();
  return [el.dataset.card, { x: r.x, y: r.y, width: r.width, height: r.height }];
}
"""

PAGE_WIDTH_JS = "() => [document.scrollingElement.scrollWidth, innerWidth]"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory):
    from tests.server_support import ThreadServer

    db = Path(tmp_path_factory.mktemp("hand")) / "hand.sqlite"
    with ThreadServer(db, bot_delay=0.05, round_pause=1000, public_wait=1000) as s:
        yield s


def _voleur26(srv) -> list[str]:
    r = httpx.post(
        f"{srv.url}/api/tables",
        json={"variant": "voleur", "seats": ["human", "human"], "names": ["Anne", "Luc"], "seed": 5},
    )
    r.raise_for_status()
    out = r.json()
    srv.hub.tables[out["table"]].game = build_setup(load_profile("voleur"), VOLEUR26)
    return out["links"]


def _phone(browser, size: str, lang: str = "fr"):
    ctx = browser.new_context(
        viewport=SIZES[size], has_touch=True, locale="fr-FR" if lang == "fr" else "en-GB"
    )
    return ctx.new_page()


def _no_overflow(page, where: str) -> None:
    bad = page.evaluate(OVERFLOW_JS)
    assert bad == [], f"{where}: {bad}"
    width, inner = page.evaluate(PAGE_WIDTH_JS)
    assert width <= inner, f"{where}: the page is {width} px wide in {inner}"


def _whole_hand(page, size: str) -> None:
    out = page.evaluate(HAND_JS)
    assert out["n"] == 26, out
    assert out["outside"] == 0, out
    assert out["scroll"] <= out["inner"], out
    assert out["handScroll"] <= 0, out
    assert out["minStrip"] >= 24, out


@pytest.mark.parametrize("size", list(SIZES))
def test_the_whole_voleur_hand_in_sight(browser, srv, size):
    links = _voleur26(srv)
    page = _phone(browser, size)
    page.goto(f"{srv.url}{links[0]}&lang=fr")
    page.wait_for_selector("#hand .card")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 26")
    _whole_hand(page, size)
    _no_overflow(page, f"table {size}")
    # drawn, then rearranging: "Déplacer ici" beside the joker of a meld
    page.tap("#stock")
    page.wait_for_selector("#b-rearrange:not([hidden])")
    page.tap("#b-rearrange")
    page.wait_for_selector("#work .meld .move-here")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 27")
    out = page.evaluate(HAND_JS)
    assert out["outside"] == 0 and out["scroll"] <= out["inner"] and out["minStrip"] >= 24, out
    _no_overflow(page, f"table rearranging {size}")
    # the last card of the hand, then a card under its neighbour (by its strip): a tap chooses each
    for nth, dx in (("last", lambda b: b["width"] - 6), (1, lambda b: 6)):
        page.wait_for_timeout(200)  # the page redraws after each view
        code, box = page.evaluate(CARD_JS, nth)
        page.touchscreen.tap(box["x"] + dx(box), box["y"] + box["height"] / 2)
        page.wait_for_selector(f'#hand .card.picked[data-card="{code}"]')
    page.context.close()


def test_sorting_is_kept_by_the_browser(browser, srv):
    links = _voleur26(srv)
    page = _phone(browser, "390x844")
    page.goto(f"{srv.url}{links[0]}&lang=fr")
    page.wait_for_selector("#hand .card")
    order = lambda: [e.get_attribute("data-card") for e in page.query_selector_all("#hand .card")]  # noqa: E731
    by_suit = order()
    assert by_suit[:2] == ["AS", "2S"], by_suit
    page.tap("#sort")
    page.wait_for_function(
        "() => document.querySelector('#hand .card').dataset.card !== 'AS' || document.querySelectorAll('#hand .card')[1].dataset.card !== '2S'"
    )
    by_rank = order()
    assert by_rank[:2] == ["AS", "AH"], by_rank
    page.reload()
    page.wait_for_selector("#hand .card")
    assert order() == by_rank
    assert page.text_content("#sort") == "Trier par couleur"
    page.tap("#sort")
    page.reload()
    page.wait_for_selector("#hand .card")
    assert order() == by_suit
    page.context.close()


@pytest.mark.parametrize("size", ["360x740", "390x844"])
def test_the_lobby_fits_the_phone(browser, srv, size):
    page = _phone(browser, size)
    page.goto(f"{srv.url}/?lang=fr")
    page.wait_for_selector("#offer option[value='rami51']", state="attached")
    _no_overflow(page, "lobby")
    page.select_option("#variant", "rami51")
    page.select_option("select.kind[data-i='1']", "human")
    page.click("#create-btn")
    page.wait_for_selector("#invite-list a.join")  # the creator's seat, the other seat's code
    _no_overflow(page, "table, the invite panel")
    for link in page.query_selector_all("#invite-list a.join, #invite-list button.share"):
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_puzzles_page_fits(browser, srv, size):
    page = _phone(browser, size)
    page.goto(f"{srv.url}/puzzles?lang=fr")
    page.wait_for_selector(".puzzle-item")
    _no_overflow(page, "puzzles")
    page.goto(f"{srv.url}/puzzle?lang=fr")
    page.wait_for_selector("#p-hand .card")
    _no_overflow(page, "puzzle")
    page.context.close()
