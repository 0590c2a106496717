"""The casse-tête page in a real browser: the lobby's link, a puzzle solved by
clicks with the table editor, a refused table told in French, hints."""

from __future__ import annotations

import httpx
import pytest

from rami_core.puzzles import collection


def build(page, target: list[list[str]], first_new: int) -> None:
    """Click the target table together: each meld a new one, its cards taken
    from the hand or from the melds as they lay (numbered below first_new)."""
    for meld in target:
        for k, card in enumerate(meld):
            hand = page.locator(f'#p-hand button.card[data-card="{card}"]')
            if hand.count():
                hand.first.click()
            else:
                for m in range(1, first_new):
                    here = page.locator(f'#p-work .meld[data-meld="{m}"] button.card[data-card="{card}"]')
                    if here.count():
                        here.first.click()
                        break
                else:
                    raise AssertionError(f"{card} is nowhere to take")
            if k == 0:
                page.click("#p-new-meld")
            else:
                page.locator("#p-work .meld").last.locator("button.move-here").click()


def test_a_puzzle_is_solved_by_clicks(browser, server):
    pz = collection.bundled()[0]
    page = browser.new_page()
    page.goto(server.url + "/?lang=en")
    page.wait_for_selector("#daily-puzzle")
    assert "Casse-tête du jour" in page.text_content("#daily-puzzle")
    page.goto(server.url + f"/puzzle?id={pz.id}&lang=en")
    page.wait_for_function("() => document.querySelectorAll('#p-work .meld').length > 0")
    assert pz.id in page.text_content("#p-title")
    target = httpx.get(server.url + f"/api/puzzles/{pz.id}/solution").json()["table"]
    build(page, target, len(pz.table) + 1)
    page.click("#p-send")
    page.wait_for_function("() => document.body.dataset.solved === 'true'")
    assert "Solved" in page.text_content("#p-status")
    page.close()


@pytest.mark.slow  # the puzzle page: solved by clicks in the default run
def test_a_refused_table_and_hints_in_french(browser, server):
    pz = collection.bundled()[0]
    page = browser.new_page()
    page.goto(server.url + f"/puzzle?id={pz.id}&lang=fr")
    page.wait_for_function("() => document.querySelectorAll('#p-work .meld').length > 0")
    assert "difficulté" in page.text_content("#p-title")
    # the hand card alone as a new meld: the referee refuses the table
    page.locator("#p-hand button.card").first.click()
    page.click("#p-new-meld")
    page.click("#p-send")
    page.wait_for_function("() => document.getElementById('p-error').textContent.length > 0")
    assert "Solved" not in page.text_content("#p-status")
    page.click("#p-hint")
    page.wait_for_function("() => document.querySelectorAll('#p-hints li').length === 1")
    assert page.text_content("#p-hints li").startswith("Indice 1 sur")
    page.click("#p-reset")
    assert page.locator("#p-hand button.card").count() == len(pz.hand.split())
    page.close()


def test_the_api_hides_the_witness_and_checks_input(server):
    daily = httpx.get(server.url + "/api/puzzles/daily").json()
    assert "proof" not in daily and "witness" not in str(daily)
    r = httpx.post(
        server.url + f"/api/puzzles/{daily['id']}/try",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_json"
    r = httpx.post(server.url + f"/api/puzzles/{daily['id']}/try", json={"table": [["ZZ"]]})
    assert r.status_code == 400
    assert httpx.get(server.url + "/api/puzzles/nope").status_code == 404
