"""The table a club chooses (issue 47) in a real browser, two people at
390x844: the creator seated in one tap and never "absent", the other seat
joined by its short code and a share button; a round end that says why
(a rami sec's doubling, a joker left in hand, teams' totals); quick messages
seen by every seat; "play again" seating the same people at a new table."""

from __future__ import annotations

from pathlib import Path

import httpx

from rami_core.referee.position import build_setup

PHONE = {"width": 390, "height": 844}
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
ONE_ROUND = "extends: rami51\ngame:\n  end: single_round\n"
# Seat 0 opens and goes out at once (a rami sec, doubled in rami51); seat 1
# keeps 3♠ 4♠ 9♦ and a joker: (3 + 4 + 9 + 20) x 2 = 72.
RAMI_SEC = {
    "hands": [["9H", "10H", "JH", "KS", "KH", "KC"], ["3S", "4S", "JK", "9D"]],
    "stock": ["QD"],
    "discard": ["6C"],
}
MOVES = [{"draw": "stock"}, {"meld": [["9H", "10H", "JH"], ["KS", "KH", "KC"]]}, {"discard": "QD"}]
NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"


def _phone(browser, *, share: bool = False):
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1)
    if not share:
        ctx.add_init_script(NO_SHARE)
    else:  # the Web Share API, recorded
        ctx.add_init_script("navigator.share = async (d) => { window.shared = d; };")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, errors


def _own_seat_flags(page) -> str:
    return page.inner_text("#players .player[data-seat='0'] .muted")


def test_seated_in_one_tap_and_joined_by_code(browser, server):
    anne, errors = _phone(browser)
    anne.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    anne.goto(f"{server.url}/?lang=fr")
    anne.wait_for_selector("#variant option[value='rami51']", state="attached")
    anne.select_option("select.kind[data-i='1']", "human")
    anne.fill("input.name[data-i='0']", "Anne")
    anne.fill("input.name[data-i='1']", "Luc")
    anne.click("#create-btn")
    # Straight to her seat: no link to open, and never "absent" once connected.
    anne.wait_for_selector("#hand button.card")
    assert "token=" in anne.url
    for _ in range(6):
        assert "absent" not in _own_seat_flags(anne)
        anne.wait_for_timeout(100)
    assert "Anne (vous)" in anne.inner_text("#players")
    # The other seat's code, to share.
    anne.wait_for_selector("#invite:not([hidden]) .invite-code")
    code = anne.inner_text("#invite-list li[data-seat='1'] .invite-code").replace(" ", "")
    assert len(code) == 8
    assert anne.inner_text("#invite-list li[data-seat='1'] .invite-state") == "pas encore là"
    anne.click("#invite-list li[data-seat='1'] button.share")
    anne.wait_for_function("() => document.querySelector('#invite-list .copied').textContent !== ''")
    assert anne.inner_text("#invite-list .copied") == "Lien copié : collez-le dans un message"
    copied = anne.evaluate("() => navigator.clipboard.readText()")
    assert copied.endswith(f"/j/{code}?lang=fr") and "Luc" in copied
    SHOTS.mkdir(exist_ok=True)
    anne.screenshot(path=str(SHOTS / "club-created-390x844.png"))

    # Luc types the code in the lobby (any case, a dash): his seat opens.
    luc, luc_errors = _phone(browser)
    luc.goto(f"{server.url}/?lang=fr")
    luc.fill("#join-code", f"{code[:4].lower()}-{code[4:]}")
    luc.click("#join-btn")
    luc.wait_for_selector("#hand button.card")
    assert "Luc (vous)" in luc.inner_text("#players")
    assert "absent" not in luc.inner_text("#players .player[data-seat='1'] .muted")
    anne.wait_for_selector("#invite-list li[data-seat='1'][data-seated='1']")
    assert anne.inner_text("#invite-list li[data-seat='1'] .invite-state") == "assis"
    # A wrong code says so, in the lobby's words.
    luc.goto(f"{server.url}/j/ZZZZ2222?lang=fr")
    luc.wait_for_function("() => document.querySelector('#join-error').textContent !== ''")
    assert luc.inner_text("#join-error").startswith("Aucune place n'a ce code")
    assert not errors and not luc_errors, errors + luc_errors
    anne.context.close()
    luc.context.close()


def test_the_share_button_uses_the_web_share_api(browser, server):
    out = httpx.post(
        server.url + "/api/tables",
        json={"variant": "rami51", "seats": ["human", "human"], "names": ["Anne", "Luc"]},
    ).json()
    page, errors = _phone(browser, share=True)
    page.goto(f"{server.url}/?lang=en")
    page.evaluate(
        """(d) => localStorage.setItem(`rami-invites:${d.table}`,
             JSON.stringify({ token: d.seats[0].token, seats: [{ seat: 1, name: "Luc", code: d.seats[1].code }] }))""",
        out,
    )
    page.goto(f"{server.url}{out['links'][0]}&lang=en")
    page.click("#invite-list li[data-seat='1'] button.share")
    page.wait_for_function("() => window.shared !== undefined")
    shared = page.evaluate("() => window.shared")
    assert shared["url"].endswith(f"/j/{out['seats'][1]['code']}?lang=en") and "Luc" in shared["text"]
    assert not errors, errors
    page.context.close()


def _two_pages(browser, server, rules: str = ONE_ROUND):
    out = httpx.post(
        server.url + "/api/tables",
        json={"rules": rules, "seats": ["human", "human"], "names": ["Anne", "Luc"]},
    ).json()
    t = server.hub.get(out["table"])
    t.game = build_setup(t.game.rules.profile, RAMI_SEC)
    pages = []
    for link in out["links"]:
        page, errors = _phone(browser)
        page.goto(f"{server.url}{link}&lang=fr")
        page.wait_for_selector("#hand button.card")
        pages.append((page, errors))
    # Each page shows the other seat connected: both sockets are open, so a
    # quick message sent now reaches the other seat (a page sends one only
    # on an open socket, and a seat hears only what comes after it joined).
    for page, seat in ((pages[0][0], 1), (pages[1][0], 0)):
        page.wait_for_function(
            "(s) => { const m = document.querySelector(`#players .player[data-seat='${s}'] .muted`);"
            " return m !== null && !m.textContent.includes('absent'); }",
            arg=seat,
        )
    return out, pages


def test_the_round_end_says_why_and_play_again(browser, server):
    out, pages = _two_pages(browser, server)
    (anne, anne_errors), (luc, luc_errors) = pages
    tokens = [s["token"] for s in out["seats"]]
    # Table talk: Anne's "Bravo" reaches Luc, for a few seconds.
    anne.click("#talk button[data-phrase='well_played']")
    luc.wait_for_selector("#log li.talk-line")
    assert luc.inner_text("#log li.talk-line") == "Anne : Bien joué !"
    assert luc.inner_text("#talk-shown") == "Anne : Bien joué !"
    anne.wait_for_selector("#log li.talk-line")
    for move in MOVES:
        r = httpx.post(f"{server.url}/api/tables/{out['table']}/actions?token={tokens[0]}", json=move)
        assert r.status_code == 200, r.text
    for page in (anne, luc):
        page.wait_for_selector("#round-end:not([hidden])")
        how = page.inner_text("#round-end-how")
        assert "Rami sec" in how and "Le rami sec double chaque paiement." in how
        why = page.inner_text(".round-end-seats li[data-seat='1'] .why-paid")
        assert (
            "le rami sec double les 36 points de la main" in why
            and "1 joker resté en main : 20 points" in why
        )
        assert (
            page.inner_text(".round-end-seats li[data-seat='1'] .paid").strip().startswith("paie 72 points")
        )
        log = page.inner_text("#log")
        assert (
            "le rami sec double chaque paiement" in log and "Luc : 1 joker resté en main (20 points)" in log
        )
    luc.locator("#round-end").scroll_into_view_if_needed()
    luc.screenshot(path=str(SHOTS / "round-end-rami-sec-390x844.png"))
    # The talk line goes after a few seconds.
    luc.wait_for_selector("#log li.talk-line", state="detached", timeout=12000)
    # Play again: each person who clicks is taken to their seat at one new table.
    assert luc.inner_text("#b-again") == "Rejouer"
    luc.click("#b-again")
    luc.wait_for_url(lambda u: out["table"] not in u)
    luc.wait_for_selector("#hand button.card")
    anne.wait_for_function("() => document.querySelector('#b-again').textContent.includes('prête')")
    anne.click("#b-again")
    anne.wait_for_url(lambda u: out["table"] not in u)
    anne.wait_for_selector("#hand button.card")
    assert anne.url.split("/t/")[1].split("?")[0] == luc.url.split("/t/")[1].split("?")[0]
    assert "Anne (vous)" in anne.inner_text("#players") and "Luc (vous)" in luc.inner_text("#players")
    assert not anne_errors and not luc_errors, anne_errors + luc_errors
    for page in (anne, luc):
        page.context.close()


def test_a_team_round_end_gives_the_teams_totals(browser, server):
    r = httpx.post(
        server.url + "/api/tables",
        json={
            "variant": "rami71",
            "seats": ["human", "greedy", "greedy", "greedy"],
            "names": ["Anne"],
            "seed": 4,
        },
    )
    out = r.json()
    page, errors = _phone(browser)
    page.goto(f"{server.url}{out['links'][0]}&lang=fr")
    page.wait_for_selector("#hand button.card")
    from rami_core.players.bots import make_bot
    from tests.server_support import action_body

    game = server.hub.get(out["table"]).game
    bot = make_bot("greedy", seed=9)
    for _ in range(2000):
        s = game.state
        if s.phase == "over":
            break
        if s.turn == 0:
            body = action_body(bot.choose(game.view(0), game.rules))
            httpx.post(
                f"{server.url}/api/tables/{out['table']}/actions?token={out['seats'][0]['token']}", json=body
            )
        else:
            page.wait_for_timeout(20)
    page.wait_for_selector("#round-end:not([hidden]) .round-end-teams li")
    teams = page.eval_on_selector_all(".round-end-teams li", "els => els.map(e => e.textContent)")
    assert len(teams) == 2 and teams[0].startswith("Anne (vous) et ")
    view = httpx.get(f"{server.url}/api/tables/{out['table']}/view").json()
    assert [t.rsplit(" : ", 1)[1] for t in teams] == [str(x) for x in view["scores"]]
    assert not errors, errors
    page.context.close()
