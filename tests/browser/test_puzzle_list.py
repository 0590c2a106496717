"""Issue 47: the bundled puzzles in the browser. The puzzles page lists the
collection by grade, the day's puzzle highlighted; a puzzle opens by its id;
the player's progress (solved, tried) is kept by the browser across reloads;
"Next puzzle" goes to one not solved yet. A refusal on the puzzle page is in
the page's language, its melds numbered as the page numbers them, its cards
as the page shows them."""

from __future__ import annotations

import re

import httpx
import pytest

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory):
    from tests.server_support import ThreadServer

    db = tmp_path_factory.mktemp("puzzles") / "puzzles.sqlite"
    with ThreadServer(db, bot_delay=0.05, round_pause=1000) as s:
        yield s


def _one_of_grade(listing: dict, grade: int) -> str:
    return next(p["id"] for p in listing["puzzles"] if p["difficulty"] == grade)


def _solve_by_taps(page, srv, pid: str) -> None:
    """The solution built as a player builds it: each card picked (from the
    hand, else from a meld of the position), then "New meld" or "here"."""
    puzzle = httpx.get(f"{srv.url}/api/puzzles/{pid}").json()
    target = httpx.get(f"{srv.url}/api/puzzles/{pid}/solution").json()["table"]
    first_new = len(puzzle["table"])
    for j, meld in enumerate(target):
        for k, card in enumerate(meld):
            src = page.locator(f'#p-hand .card[data-card="{card}"]')
            if not src.count():
                olds = ", ".join(
                    f'#p-work .meld[data-meld="{m + 1}"] .card[data-card="{card}"]' for m in range(first_new)
                )
                src = page.locator(olds)
            src.first.click()
            if k == 0:
                page.click("#p-new-meld")
            else:
                page.click(f'#p-work .meld[data-meld="{first_new + j + 1}"] .move-here')
            page.wait_for_selector(f'#p-work .meld[data-meld="{first_new + j + 1}"] .card >> nth={k}')
    page.click("#p-send")
    page.wait_for_selector("body[data-solved='true']")


def test_the_collection_by_grade_with_progress_kept(browser, srv):
    listing = httpx.get(f"{srv.url}/api/puzzles").json()
    assert len(listing["puzzles"]) > 1000
    grades = sorted({p["difficulty"] for p in listing["puzzles"]})
    assert grades[0] == 1 and grades[-1] == 10
    ctx = browser.new_context(viewport=PHONE, has_touch=True, locale="fr-FR")
    page = ctx.new_page()
    page.goto(f"{srv.url}/puzzles?lang=fr")
    page.wait_for_selector(".puzzle-item.daily")
    assert page.locator("details.grade").count() == len(grades)
    assert listing["daily"] in page.text_content(".puzzle-item.daily")
    assert listing["daily"] in page.text_content("#l-daily")

    # Grades 1 and 3 solved, grade 6 tried (a refused table), each opened by its id.
    for grade in (1, 3):
        pid = _one_of_grade(listing, grade)
        page.goto(f"{srv.url}/puzzle?id={pid}&lang=fr")
        page.wait_for_selector("#p-hand .card")
        assert pid in page.text_content("#p-title")
        _solve_by_taps(page, srv, pid)
        page.wait_for_selector("body[data-progress='solved']")
    pid = _one_of_grade(listing, 6)
    page.goto(f"{srv.url}/puzzle?id={pid}&lang=fr")
    page.wait_for_selector("#p-hand .card")
    shown = page.locator("#p-work .meld").count()
    page.click("#p-hand .card >> nth=0")
    page.click("#p-new-meld")
    page.wait_for_selector(f'#p-work .meld[data-meld="{shown + 1}"]')
    # the hint in the page's notation
    page.click("#p-hint")
    page.wait_for_selector("#p-hints li")
    hint = page.text_content("#p-hints li")
    assert re.search(r"[♠♥♦♣]|🃏", hint) and not re.search(r"\b(?:10|[2-9AJQK])[SHDC]\b", hint), hint
    page.click("#p-send")
    page.wait_for_selector("#p-error:not(:empty)")
    error = page.text_content("#p-error")
    # a new meld of one card: refused in French, numbered as the page numbers it
    assert f"nouvelle combinaison {shown + 1} " in error, error
    assert "too short" not in error and not re.search(r"\b(?:10|[2-9AJQK])[SHDC]\b", error), error
    page.wait_for_selector("body[data-progress='tried']")

    # The list, reloaded: the progress kept.
    page.goto(f"{srv.url}/puzzles?lang=fr")
    page.wait_for_selector(".puzzle-item")
    page.reload()
    page.wait_for_selector(".puzzle-item")
    assert page.text_content("#l-count").startswith("2 résolus, 1 essayés")
    for grade, state in ((1, "solved"), (3, "solved"), (6, "tried")):
        pid = _one_of_grade(listing, grade)
        det = page.locator(f'details.grade[data-grade="{grade}"]')
        if det.get_attribute("open") is None:
            det.locator("summary").click()
        item = page.locator(f'.puzzle-item[data-id="{pid}"]')
        assert state in (item.get_attribute("class") or ""), (grade, item.get_attribute("class"))
        assert ("résolu" if state == "solved" else "essayé") in item.text_content()
    # "Next puzzle": after the last opened (grade 6), one of grade 6 not solved.
    page.click("#l-next")
    page.wait_for_selector("#p-hand .card")
    nxt = re.search(r"id=([^&]+)", page.url)
    assert nxt is not None
    nid = nxt.group(1)
    assert nid != pid and next(p for p in listing["puzzles"] if p["id"] == nid)["difficulty"] == 6
    # and the puzzle page's own button goes on from there
    page.wait_for_selector("#p-next:not([disabled])")
    page.click("#p-next")
    page.wait_for_function(f"() => !location.search.includes('{nid}')")
    ctx.close()
