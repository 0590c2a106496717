"""The table page says what the server says: the clock after a turn change,
meld numbers as shown, the round's end kept on screen, the log after a
reload (issue 25, item 1), at desktop and phone sizes."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import httpx
import pytest

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def find_run(hand: list[str]) -> list[str] | None:
    """A joker-free run of three of one suit in the hand, if any."""
    by_suit = defaultdict(set)
    for c in hand:
        if c != "JK":
            by_suit[c[-1]].add(RANKS.index(c[:-1]))
    for suit, ranks in by_suit.items():
        for r in sorted(ranks):
            if r + 1 in ranks and r + 2 in ranks:
                return [RANKS[r + i] + suit for i in range(3)]
    return None


@pytest.fixture
def scaled(tmp_path: Path):
    """A server whose clock runs ten times fast (120 s turns last 12 s)."""
    from tests.server_support import ThreadServer

    with ThreadServer(tmp_path / "scaled.sqlite", bot_delay=0.05, round_pause=1000, clock_scale=0.1) as srv:
        yield srv


def new_table(server, seats, **extra) -> dict:
    r = httpx.post(server.url + "/api/tables", json={"seats": seats, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def act(server, out, seat, body) -> dict:
    token = out["seats"][seat]["token"]
    r = httpx.post(f"{server.url}/api/tables/{out['table']}/actions?token={token}", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def view(server, out, seat) -> dict:
    token = out["seats"][seat]["token"]
    return httpx.get(f"{server.url}/api/tables/{out['table']}/view?token={token}").json()


def clock_seconds(page) -> int:
    m = re.search(r"(\d+)", page.inner_text("#clock"))
    assert m, page.inner_text("#clock")
    return int(m.group(1))


# One size of each test in the default run (the clock and the log at the
# desktop's, the meld numbers at the phone's), both in the slow run.
DESKTOP_FIRST = [DESKTOP, pytest.param(PHONE, marks=pytest.mark.slow)]
PHONE_FIRST = [pytest.param(DESKTOP, marks=pytest.mark.slow), PHONE]
BOTH_SLOW = [pytest.param(DESKTOP, marks=pytest.mark.slow), pytest.param(PHONE, marks=pytest.mark.slow)]


# Waits for the scaled clock to tick; the clock's numbers are test_server.py's in the default run.
@pytest.mark.parametrize("size", BOTH_SLOW, ids=["desktop", "phone"])
def test_the_clock_after_a_turn_change_is_the_servers(browser, scaled, size):
    out = new_table(scaled, ["human", "human", "human"], variant="voleur", seed=2)
    first = view(scaled, out, 0)["turn"]
    nxt = (first + 1) % 3
    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    page.goto(scaled.url + out["links"][nxt] + "&lang=fr")
    page.wait_for_selector("#hand button.card")
    page.wait_for_timeout(3000)  # 30 of the first seat's 120 s go by
    act(scaled, out, first, {"draw": "stock"})
    act(scaled, out, first, {"end_turn": True})
    page.wait_for_function(f"() => document.body.dataset.turn === '{nxt}'")
    page.wait_for_timeout(300)
    shown = clock_seconds(page)
    server_left = view(scaled, out, nxt)["clock"]["remaining"]
    assert shown > 105, (shown, server_left)  # the leftover would be about 90
    # The server's clock runs 10 times fast, the page's at its own pace: the
    # page may only be behind the server's remaining time, never ahead of the turn.
    assert shown >= server_left - 1, (shown, server_left)
    assert page.inner_text("#clock").startswith("Pendule :")
    ctx.close()


@pytest.mark.parametrize("size", BOTH_SLOW, ids=["desktop", "phone"])
def test_meld_numbers_are_the_ones_shown(browser, server, size):
    out = new_table(server, ["human", "human", "human"], variant="voleur", seed=6)
    seat = view(server, out, 0)["turn"]
    # The seat to play draws until it holds a pure run, then lays it (the opening).
    for _ in range(30):
        v = view(server, out, seat)
        run = find_run(v["hand"])
        if run:
            break
        act(server, out, seat, {"draw": "stock"})
        act(server, out, seat, {"end_turn": True})
        for other in range(3):
            if other != seat:
                act(server, out, other, {"draw": "stock"})
                act(server, out, other, {"end_turn": True})
    assert run, "no pure run came in 30 turns"
    act(server, out, seat, {"draw": "stock"})
    act(server, out, seat, {"meld": [run]})
    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    page.goto(server.url + out["links"][seat] + "&lang=fr")
    page.wait_for_selector("#melds .meld")
    page.click("#melds .meld[data-meld='0']")
    assert "Combinaison 1" in page.inner_text("#melds .meld[data-meld='0']")
    assert page.inner_text("#b-layoff").strip() == "Ajouter à la combinaison 1"
    ctx.close()


ENGLISH = re.compile(r"\b(draws|discards|lays|meld|round|stock|bot|presets|house|Scores|cards)\b")
CODES = re.compile(r"(?<![\w])(10|[2-9AJQK])[SHDC](?![\w])|\bJK\b")


@pytest.mark.parametrize("size", DESKTOP_FIRST, ids=["desktop", "phone"])
def test_the_log_is_rebuilt_after_a_reload_in_french(browser, server, size):
    """A bot that played before the page opened is in the log; after a reload
    the log is the same; every line is French, with cards as shown (no codes)."""
    out = new_table(server, ["greedy", "human"], variant="rami51", seed=5, names=["", "Luc"], lang="fr")
    # The bot plays first (or the person does, then the bot): wait for a bot move.
    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    v = view(server, out, 1)
    if v["turn"] == 1:
        act(server, out, 1, {"draw": "stock"})
        act(server, out, 1, {"discard": view(server, out, 1)["hand"][0]})
    for _ in range(100):
        if view(server, out, 1)["turn"] == 1:
            break
        page.wait_for_timeout(50)
    page.goto(server.url + out["links"][1] + "&lang=fr")
    page.wait_for_function("() => document.querySelectorAll('#log li').length >= 3")
    lines = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert lines[0].startswith("Manche 1 distribuée"), lines
    assert any("glouton" in line and "défausse" in line for line in lines), lines
    for line in lines:
        assert not ENGLISH.search(line), line
        assert not CODES.search(line), line
    page.reload()
    page.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {len(lines)}")
    again = page.eval_on_selector_all("#log li", "els => els.map(e => e.textContent)")
    assert again[: len(lines)] == lines
    # The page's own words are French too.
    body = page.inner_text("main")
    assert not re.search(r"\b(Scores|cards|bot|greedy)\b", body), body
    assert "Pendule" not in body or "Pendule :" in body
    assert not errors, errors
    ctx.close()


@pytest.mark.slow  # a reload: the log's French reload test in the default run
def test_prepared_melds_survive_a_reload(browser, server):
    out = new_table(server, ["human", "human"], variant="rami51", seed=12)
    seat = view(server, out, 0)["turn"]
    page = browser.new_page(viewport=DESKTOP)
    page.goto(server.url + out["links"][seat] + "&lang=en")
    page.wait_for_selector("#hand button.card")
    page.click("#stock")
    page.wait_for_selector("body[data-phase='lay']")
    cards = page.locator("#hand button.card")
    chosen = [cards.nth(i).get_attribute("data-card") for i in (0, 1)]
    cards.nth(0).click()
    page.locator("#hand button.card[aria-pressed='false']").nth(0).click()
    page.click("#b-stage")
    assert page.locator("#staged .card").count() == 2
    page.reload()
    page.wait_for_selector("#staged .card")
    staged = page.eval_on_selector_all("#staged .card", "els => els.map(e => e.dataset.card)")
    assert sorted(staged) == sorted(chosen)
    page.close()
