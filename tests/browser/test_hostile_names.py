"""Hostile names and variant names rendered in a real browser: the lobby and
the table page show them as text, and no element they describe is created
(issue 23: a seat named `<img onerror=...>` ran its script in every lobby)."""

from __future__ import annotations

import httpx
import pytest

# Each one would create an element (and run a script) if parsed as HTML.
PAYLOADS = [
    "<img src=x onerror=document.title=1337>",
    "<script>window.__pwned=1</script>",
    '"><svg onload=window.__pwned=2>',
    "<iframe src=javascript:window.__pwned=3>",
]
HOSTILE_RULES = "extends: rami51\nname: '<img src=y onerror=window.__pwned=4><b id=injected>x</b>'\n"


def _tables(server) -> list[dict]:
    made = []
    for i in range(0, len(PAYLOADS), 2):
        r = httpx.post(
            server.url + "/api/tables",
            json={"seats": ["human", "human"], "names": PAYLOADS[i : i + 2], "variant": "rami51", "seed": 4},
        )
        assert r.status_code == 201, r.text
        made.append(r.json())
    r = httpx.post(
        server.url + "/api/tables",
        json={
            "seats": ["human", "greedy"],
            "names": ["<b id=injected>n</b>"],
            "rules": HOSTILE_RULES,
            "seed": 4,
        },
    )
    assert r.status_code == 201, r.text
    made.append(r.json())
    return made


INJECTED = "() => document.querySelectorAll('main img, main script, main svg, main iframe, #injected').length"


def _no_injection(page) -> None:
    assert page.evaluate(INJECTED) == 0
    assert page.evaluate("() => window.__pwned === undefined")
    assert page.title() != "1337"


@pytest.mark.parametrize("lang", ["en", pytest.param("fr", marks=pytest.mark.slow)])
def test_the_lobby_shows_hostile_names_as_text(browser, server, lang):
    _tables(server)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + f"/?lang={lang}")
    page.wait_for_function("() => document.querySelectorAll('#tables li').length >= 3")
    page.wait_for_timeout(300)  # an onerror handler would have fired by now
    text = page.inner_text("#tables")
    for p in PAYLOADS:
        assert p in text
    assert "<b id=injected>" in text
    _no_injection(page)
    assert not errors, errors
    page.close()


def test_the_table_page_shows_hostile_names_as_text(browser, server):
    made = _tables(server)
    for out in (made[0], made[-1]):
        page = browser.new_page()
        page.goto(server.url + out["links"][0] + "&lang=en")
        page.wait_for_selector("#hand button.card")
        page.wait_for_timeout(300)
        assert PAYLOADS[0] in page.inner_text("#players") or "<b id=injected>" in page.inner_text("#players")
        _no_injection(page)
        page.close()


def test_the_lobby_links_carry_no_referrer(browser, server):
    """A player who follows the table page's link back to the lobby does not
    hand it the table URL (and its token) as the referrer."""
    out = _tables(server)[0]
    page = browser.new_page()
    page.goto(server.url + out["links"][0] + "&lang=en")
    page.wait_for_selector("#hand button.card")
    page.click("#home")
    page.wait_for_selector("#tables")
    assert page.url.rstrip("/") == server.url
    assert page.evaluate("() => document.referrer") == ""
    page.close()


@pytest.mark.parametrize(
    ("lang", "said"),
    [pytest.param("en", "hardly ever go out", marks=pytest.mark.slow), ("fr", "finit rarement")],
)
def test_the_lobby_shows_a_profiles_warnings(browser, server, lang, said):
    """A pasted profile in which hands hardly ever go out makes its table,
    and the lobby says why it may never end, located, in its language."""
    page = browser.new_page()
    page.goto(server.url + f"/?lang={lang}")
    page.fill("#rules", "extends: rami51\njokers:\n  min_naturals: 8\n")
    page.click("#create-btn")
    page.wait_for_selector("#links .warnings li")
    text = page.inner_text("#links .warnings")
    assert said in text and "rules:3:" in text
    assert page.locator("#links a.join").count() >= 1  # the table was made: its links are there
    page.close()


@pytest.mark.slow  # waits for the page to hear of the deletion; the deletion itself is tests/hostile/test_hostile_expiry.py's
@pytest.mark.parametrize(
    ("lang", "said"), [("en", "deleted by its creator"), ("fr", "supprimée par qui l'a créée")]
)
def test_a_deleted_tables_page_says_so(browser, server, lang, said):
    """Deleted by its creator while a player's page is open, and opened again
    afterwards: both pages say, in their language, that the table is gone."""
    out = httpx.post(
        server.url + "/api/tables", json={"variant": "rami51", "seats": ["human", "human"]}
    ).json()
    page = browser.new_page()
    page.goto(server.url + f"/t/{out['table']}?token={out['seats'][0]['token']}&lang={lang}")
    page.wait_for_selector("#hand")
    r = httpx.delete(server.url + f"/api/tables/{out['table']}?token={out['creator_token']}")
    assert r.status_code == 200
    page.wait_for_function(
        "(said) => document.getElementById('refusal').textContent.includes(said)", arg=said, timeout=15000
    )
    later = browser.new_page()
    later.goto(server.url + f"/t/{out['table']}?lang={lang}")
    gone = "n'existe pas" if lang == "fr" else "no table"
    later.wait_for_function(
        "(gone) => document.getElementById('refusal').textContent.includes(gone)", arg=gone, timeout=15000
    )
    page.close()
    later.close()
