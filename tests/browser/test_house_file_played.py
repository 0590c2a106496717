"""A pasted house file played through in a real browser, two people in two
contexts: the file pasted in the lobby, each seat's page titled by the file's
own French description, an opening at the file's 40 points (below rami51's
51) laid by clicks, a lay off, a few turns each, the round's end seen by both
and the next round dealt once both continue. Desktop and phone, both `slow`."""

from __future__ import annotations

import pytest

from rami_core.referee.position import build_setup

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
HOUSE = (
    "extends: rami51\nname: club_du_jeudi\n"
    "description:\n  en: Thursday club rami, opening at 40\n  fr: Le rami du club du jeudi, ouverture à 40\n"
    "opening:\n  points: 40\n"
)
# Anne opens with 7♥ 8♥ 9♥ (a pure run) and 6♠ 6♣ 6♦: 42 points, enough at
# the file's 40, short of rami51's 51. She then lays 10♥ and V♥ off on her run
# and goes out by discarding her last card, in her third turn.
SETUP = {
    "hands": [
        ["7H", "8H", "9H", "6S", "6C", "6D", "2C", "5D"],
        ["2H", "7D", "8C", "9S", "4H", "6H", "QD", "10C", "5S", "3H", "JS", "JD", "AS"],
    ],
    "stock": ["10H", "4C", "KH", "9C", "JH", "2D", "8D", "10S", "5H", "AD", "7S", "3C"],
    "discard": ["4D"],
    "table": [],
}
OPENING = [["7H", "8H", "9H"], ["6S", "6C", "6D"]]  # 24 + 18 = 42: enough at 40, short of 51


def _tap(page, sel: str) -> None:
    page.locator(sel).first.click()


def _choose(page, cards: list[str]) -> None:
    for c in cards:
        _tap(page, f'#hand button.card[data-card="{c}"][aria-pressed="false"]')


def _target(page, meld: int) -> None:
    """The table meld chosen for a lay off: none is chosen at a turn's start
    (a choice left from the seat's last turn could name another meld now)."""
    sel = f'#melds .meld[data-meld="{meld}"]'
    assert page.get_attribute(sel, "aria-pressed") == "false"
    _tap(page, sel)
    page.wait_for_selector(f'{sel}[aria-pressed="true"]')


def _my_turn(page, seat: int, phase: str) -> None:
    page.wait_for_selector(f"body[data-turn='{seat}'][data-phase='{phase}']", timeout=15000)


def _discard(page, seat: int, card: str) -> None:
    _choose(page, [card])
    _tap(page, "#b-discard")
    page.wait_for_function(
        f"() => document.body.dataset.turn !== '{seat}' || document.body.dataset.phase === 'over'"
    )


@pytest.mark.slow
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_pasted_house_file_played_to_the_rounds_end(browser, server, size):
    errors: list[str] = []
    anne_ctx = browser.new_context(viewport=SIZES[size], locale="fr-FR")
    luc_ctx = browser.new_context(viewport=SIZES[size], locale="fr-FR")
    anne, luc = anne_ctx.new_page(), luc_ctx.new_page()
    for page in (anne, luc):
        page.on("pageerror", lambda e: errors.append(str(e)))

    # The lobby: the file pasted, two people.
    anne.goto(f"{server.url}/?lang=fr")
    anne.wait_for_selector("#variant option[value='rami51']", state="attached")
    anne.fill("#rules", HOUSE)
    anne.select_option("select.kind[data-i='1']", "human")
    anne.fill("input.name[data-i='0']", "Anne")
    anne.fill("input.name[data-i='1']", "Luc")
    anne.click("#create-btn")
    anne.wait_for_selector("#invite-list a.join[data-seat='1']")  # Anne seated at once, Luc's code to share
    tid = anne.url.split("/t/")[1].split("?")[0]
    t = server.hub.tables[tid]
    links = [f"/t/{tid}?token={s.token}&lang=fr" for s in t.seats]
    assert t.game.rules.profile.name == "club_du_jeudi" and t.game.rules.opening.points == 40
    t.game = build_setup(t.game.rules.profile, SETUP)  # a known deal, under the file's rules
    t.view_cache.clear()  # Anne's page saw the first deal already: no view of it is kept
    t.legal_cache.clear()
    anne.goto(f"{server.url}{links[0]}")
    luc.goto(f"{server.url}{links[1]}")
    for page in (anne, luc):
        page.wait_for_selector("#hand button.card")
        page.wait_for_function("() => document.querySelector('#variant').textContent !== ''")
        assert page.inner_text("#variant") == "Le rami du club du jeudi, ouverture à 40"
        assert "40 points" in page.inner_text("#rules-box")

    # Anne: draws 10♥, opens at 42 points (the file's 40), discards.
    _my_turn(anne, 0, "draw")
    _tap(anne, "#stock")
    _my_turn(anne, 0, "lay")
    for meld in OPENING:
        _choose(anne, meld)
        _tap(anne, "#b-stage")
    anne.wait_for_selector("#b-lay:not([disabled])")
    _tap(anne, "#b-lay")
    anne.wait_for_selector('#melds .meld[data-meld="1"]')
    _discard(anne, 0, "2C")

    # Luc: draws from the stock, discards.
    _my_turn(luc, 1, "draw")
    luc.wait_for_selector("#log li:has-text('Anne ouvre')")
    _tap(luc, "#stock")
    _my_turn(luc, 1, "lay")
    _discard(luc, 1, "AS")

    # Anne: lays 10♥ off on her run (shown as meld 1), discards 5♦.
    _my_turn(anne, 0, "draw")
    _tap(anne, "#stock")
    _my_turn(anne, 0, "lay")
    _choose(anne, ["10H"])
    _target(anne, 0)
    assert anne.inner_text("#b-layoff").strip() == "Ajouter à la combinaison 1"
    _tap(anne, "#b-layoff")
    anne.wait_for_selector('#melds .meld[data-meld="0"] .card[data-card="10H"]')
    _discard(anne, 0, "5D")

    # Luc draws and discards; Anne lays V♥ off and goes out by discarding R♥.
    _my_turn(luc, 1, "draw")
    _tap(luc, "#stock")
    _my_turn(luc, 1, "lay")
    _discard(luc, 1, "9C")
    _my_turn(anne, 0, "draw")
    _tap(anne, "#stock")
    _my_turn(anne, 0, "lay")
    _choose(anne, ["JH"])
    _target(anne, 0)
    _tap(anne, "#b-layoff")
    anne.wait_for_selector('#melds .meld[data-meld="0"] .card[data-card="JH"]')
    _discard(anne, 0, "KH")
    # The game's referee says how the round stands; the pages show it.
    assert t.game.state.phase == "over" and not t.game.state.hands[0]
    for page in (anne, luc):
        page.wait_for_selector("#round-end:not([hidden])")
        assert "Fin de la manche 1" in page.inner_text("#round-end")
    _tap(anne, "#b-continue")
    _tap(luc, "#b-continue")
    for page in (anne, luc):
        page.wait_for_selector("body[data-round='2']")
    assert not errors, errors
    anne_ctx.close()
    luc_ctx.close()
