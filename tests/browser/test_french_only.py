"""A French page says nothing in English, and an English page nothing in French: the text a person reads (the
`innerText` of the page, and its title) in every state of the lobby and of a
table (the draw, melds being prepared, a rearrangement, the hint, the rules
panel, the discard history, another seat's turn, the round's end), the
"play now" wait and the puzzle page, for rami51, a pasted house file and
voleur, at 1280x800 and 390x844.

English is recognised by the English catalogues themselves (the page's
scripts and the server's), so the list cannot go stale: a word of an English
text that no French text of rami uses (catalogues, the presets' French
descriptions) is English. Card codes ("AH", "JK") and the words a French page
once showed ("presets", "house", "bot") are English too."""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from rami_core.files.resources import house_dir, house_names, preset_names
from rami_core.profile.loader import load_profile
from rami_core.referee.position import build_setup
from rami_core.words import messages as i18n
from rami_core.words import problems, refusals
from tests.browser.test_club_table import MOVES as RAMI_SEC_MOVES
from tests.browser.test_club_table import ONE_ROUND, RAMI_SEC
from tests.browser.test_round_end import play_round_by_http

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
HOUSE_NAME = "club_du_jeudi"
HOUSE = (
    f"extends: rami51\nname: {HOUSE_NAME}\n"
    "description:\n  en: Thursday club rami, opening at 40\n  fr: Le rami du club du jeudi, ouverture à 40\n"
    "opening:\n  points: 40\n"
)
# Words a French page once showed in English, whatever the catalogues hold.
ONCE_SHOWN = {"presets", "house", "bot", "bots", "greedy", "random", "team", "new", "meld", "short"}
# The players' names the scans give (French names, on any page).
FRENCH_NAMES = {"anne", "luc", "marc", "zoé"}
CARD_CODE = re.compile(r"(?<![\w♠♥♦♣])(?:10|[2-9AJQK])[SHDC](?!\w)|(?<!\w)JK(?!\w)")
WORD = re.compile(r"[^\W\d_]{3,}")

# A short round: seat 0 holds a run to prepare and draws first; the stock is small.
RAMI51 = {
    "hands": [
        ["7H", "8H", "9H", "KS", "KC", "2C", "5D", "QS", "3S", "4C", "6H", "JD", "AD"],
        ["2H", "7D", "8C", "9S", "4H", "6C", "QD", "10C", "5S", "3H", "6S", "JS", "AS"],
    ],
    "stock": ["3C", "9D", "KH", "4S", "QC", "2D", "8D", "10S", "5H", "AC", "7S", "JH"],
    "discard": ["4D", "10H"],
    "table": [],
}
VOLEUR = {
    "hands": [["5S", "9D", "KC", "4H", "5H", "6H", "8S"], ["2H", "7D", "8C", "10S"]],
    "stock": ["QH", "4D", "6D", "JC", "3C", "9C"],
    "table": [
        {"cards": ["2S", "3S", "4S", "5S", "6S", "7S"], "owner": 1},
        {"cards": ["9H", "9C", "9S"], "owner": 0},
    ],
    "opened": [True, True],
}
PREPARED = {"rami51": ["7H", "8H", "9H"], "house": ["7H", "8H", "9H"], "voleur": ["4H", "5H", "6H"]}

# The words of each language the page's scripts hold, read from the modules
# themselves (functions by their source: their template's words).
CATALOGUES_JS = """
async (modules) => {
  const out = { en: [], fr: [] };
  const walk = (o, lang) => {
    if (typeof o === "string" || typeof o === "function") {
      if (lang) out[lang].push(String(o));
    } else if (o && typeof o === "object") {
      for (const [k, v] of Object.entries(o)) walk(v, k === "en" || k === "fr" ? k : lang);
    }
  };
  for (const m of modules) {
    const mod = await import(m);
    for (const [name, value] of Object.entries(mod)) walk(value, name.endsWith("_FR") ? "fr" : null);
  }
  return out;
}
"""

# What the person reads: the rendered text, the language menus left out (each
# language is named in itself there, "English" included, as everywhere).
READ_JS = """
() => {
  const menus = [...document.querySelectorAll("#lang, #p-lang")];
  const kept = menus.map((m) => m.style.display);
  menus.forEach((m) => (m.style.display = "none"));
  const text = document.body.innerText;
  menus.forEach((m, i) => (m.style.display = kept[i]));
  return document.title + "\\n" + text;
}
"""


def _words(texts: list[str]) -> set[str]:
    return {w for t in texts for w in WORD.findall(t.lower())}


# Names inside French texts: placeholders, code, setting keys, options,
# commands ("rami play", "r move 7Co 1 2").
CODE = re.compile(r"\{[^{}]*\}|`[^`]*`|\b\w+(?:[._]\w+)+\b|--[\w-]+|\brami [a-z]+|\b[a-z]+(?= \d)")
LITERAL = re.compile(r'"([^"]*)"|\'([^\']*)\'|`([^`]*)`')


def _spoken(text: str, source: bool) -> str:
    """What a French text says, without what it names: placeholders
    (``{card}``), code in backquotes, setting keys (``players.min``) and, for
    a function's source, the code around its strings (``d.melds.map``) and
    inside its templates (``${d.source}``): English names the French reader
    never sees must not excuse English words."""
    if source:
        kept, depth, i = [], 0, 0
        while i < len(text):
            if text.startswith("${", i):
                depth, i = depth + 1, i + 2
                continue
            if depth and text[i] == "{":
                depth += 1
            elif depth and text[i] == "}":
                depth -= 1
            elif not depth:
                kept.append(text[i])
            i += 1
        text = " ".join("".join(g) for g in LITERAL.findall("".join(kept)))
    return CODE.sub(" ", text)


def _server_catalogues() -> dict[str, list[str]]:
    # "en_shown": English a page shows that is no catalogue's (the profiles'
    # descriptions, the bots' names): it excuses words on an English page,
    # and accuses none on a French one.
    out: dict[str, list[str]] = {"en": [], "fr": [], "en_shown": []}

    def walk(o: Any, lang: str | None) -> None:
        if isinstance(o, dict):
            for k, v in o.items():
                walk(v, k if k in ("en", "fr") else lang)
        elif isinstance(o, (list, tuple)):
            for v in o:
                walk(v, lang)
        elif isinstance(o, str) and lang:
            out[lang].append(o)

    for catalogue in (i18n.MESSAGES, refusals.REFUSALS, refusals.REFUSED, refusals.CODES, refusals.RANKS):
        walk(catalogue, None)
    # The problems of a file name its keys in French too ("players : ..."):
    # their English words count, their French ones excuse nothing.
    french = list(out["fr"])
    walk(problems.PROBLEMS, None)
    walk(problems.FRAME, None)
    out["fr"] = french
    # The pages' own text before their scripts put it in the page's language.
    for page in ("index.html", "table.html", "puzzle.html"):
        out["en"].append(_html_text((STATIC / page).read_text(encoding="utf-8")))
    for name in [*preset_names(), *house_names()]:
        p = load_profile(name if name in preset_names() else house_dir() / f"{name}.yaml")
        out["fr"].append(p.description_in("fr"))
        out["en_shown"].append(p.description_in("en"))
    # The bots' names, shown as they are on an English page ("bot expert").
    out["en_shown"].append("expert greedy random")
    return out


STATIC = Path(i18n.__file__).parents[1] / "server" / "static"


def _html_text(html: str) -> str:
    from html.parser import HTMLParser

    parts: list[str] = []

    class Text(HTMLParser):
        skip = 0

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.skip += tag in ("script", "style")

        def handle_endtag(self, tag: str) -> None:
            self.skip -= tag in ("script", "style")

        def handle_data(self, data: str) -> None:
            if not self.skip:
                parts.append(data)

    Text().feed(html)
    return " ".join(parts)


class Reader:
    """The English words, and what every state of the pages said."""

    def __init__(self) -> None:
        self.en: list[str] = []
        self.fr: list[str] = []
        server = _server_catalogues()
        self.en += server["en"]
        self.en_shown = server["en_shown"]
        self.fr += [_spoken(t, source=False) for t in server["fr"]] + [
            "Le rami du club du jeudi, ouverture à 40"
        ]
        self.seen: list[tuple[str, str]] = []

    def catalogues(self, page, modules: list[str]) -> None:
        found = page.evaluate(CATALOGUES_JS, modules)
        self.en += found["en"]
        self.fr += [_spoken(t, source="=>" in t or "function" in t) for t in found["fr"]]

    def read(self, page, state: str) -> None:
        self.seen.append((state, page.evaluate(READ_JS)))

    def french(self) -> list[str]:
        """What an English page said in French: words of the French texts that no English text uses."""
        french = _words(self.fr) - _words(self.en + self.en_shown) - FRENCH_NAMES
        bad = []
        for state, text in self.seen:
            for line in text.splitlines():
                found = sorted({w for w in WORD.findall(line.lower()) if w in french})
                if found:
                    bad.append(f"{state}: {found} in {line.strip()[:120]!r}")
        return bad

    def english(self) -> list[str]:
        english = (_words(self.en) - _words(self.fr)) | ONCE_SHOWN
        bad = []
        for state, text in self.seen:
            for line in text.splitlines():
                found = sorted({w for w in WORD.findall(line.lower()) if w in english})
                codes = CARD_CODE.findall(line)
                if found or codes:
                    bad.append(f"{state}: {found + codes} in {line.strip()[:120]!r}")
        return bad


@contextmanager
def _server(tmp_path_factory: pytest.TempPathFactory, name: str):
    from tests.server_support import ThreadServer

    folder = Path(tmp_path_factory.mktemp(name))
    (folder / "club.yaml").write_text(HOUSE, encoding="utf-8")
    with ThreadServer(
        folder / f"{name}.sqlite",
        bot_delay=0.05,
        round_pause=1000,
        public_wait=1000,
        public_house=[folder / "club.yaml"],
    ) as s:
        yield s


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory):
    with _server(tmp_path_factory, "french") as s:
        yield s


@pytest.fixture(scope="module")
def srv_en(tmp_path_factory: pytest.TempPathFactory):
    """A server of its own for the English scans: the French scans' tables
    (their seats named "Joueur 1", rightly) are not in its lobby."""
    with _server(tmp_path_factory, "english") as s:
        yield s


def _table(srv, kind: str, lang: str = "fr") -> dict:
    body: dict[str, Any] = {"seats": ["human", "human"], "names": ["Anne", "Luc"], "seed": 5, "lang": lang}
    if kind == "house":
        body["rules"] = HOUSE
    else:
        body["variant"] = kind
    r = httpx.post(f"{srv.url}/api/tables", json=body)
    assert r.status_code == 201, r.text
    out = r.json()
    t = srv.hub.tables[out["table"]]
    t.game = build_setup(t.game.rules.profile, VOLEUR if kind == "voleur" else RAMI51)
    return out


def _scan(browser, srv, kind: str, size: str, lang: str = "fr") -> None:
    reader = Reader()
    errors: list[str] = []
    ctx = browser.new_context(
        viewport=SIZES[size], locale="fr-FR" if lang == "fr" else "en-GB", has_touch=size == "phone"
    )
    page = ctx.new_page()
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e.stack or e}"))

    # The lobby, the variant chosen or the house file pasted.
    page.goto(f"{srv.url}/?lang={lang}")
    page.wait_for_selector("#offer option[value='rami51']", state="attached")
    page.wait_for_function("() => document.querySelector('#variant-description').textContent !== ''")
    reader.catalogues(
        page, ["/static/i18n.js", "/static/public.js", "/static/feel.js", "/static/roundend.js"]
    )
    reader.read(page, "lobby")
    # The menus' long lines are cut to the screen, not the page widened.
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    if kind == "house":
        page.fill("#rules", HOUSE)
    else:
        page.select_option("#variant", kind)
    page.select_option("select.kind[data-i='1']", "human")
    page.click("#create-btn")
    # The creator is seated at once; the other seat's code is on their page.
    page.wait_for_selector("#invite:not([hidden]) .invite-code")
    page.wait_for_selector("#hand button.card")
    reader.read(page, "table, the creator seated, the invite panel")
    page.goto(f"{srv.url}/?lang={lang}&join=unknown")
    page.wait_for_selector("#offer option[value='rami51']", state="attached")
    page.wait_for_function("() => document.querySelector('#join-error').textContent !== ''")
    reader.read(page, "lobby, a wrong seat code")

    # "Play now": waiting for a second person (the wait is long: bots come after 1000 s).
    page.fill("#my-name", "Anne")
    page.select_option("#offer", HOUSE_NAME if kind == "house" else kind)
    page.click("#play-now-btn")
    page.wait_for_selector("#play-now-wait:not([hidden])")
    page.wait_for_function("() => document.querySelector('#wait-text').textContent !== ''")
    reader.read(page, "play now, waiting")
    page.click("#wait-leave")

    # A table: seat 0's turn, from the draw to another seat's turn, then the round's end.
    out = _table(srv, kind, lang)
    tid, tokens = out["table"], [s["token"] for s in out["seats"]]
    page.goto(f"{srv.url}{out['links'][0]}&lang={lang}")
    page.wait_for_selector("body[data-phase='draw'][data-turn='0'] #hand button.card")
    page.wait_for_function("() => document.querySelector('#rules-box').textContent !== ''")
    reader.read(page, "table, draw")
    page.click("#stock")
    page.wait_for_selector("body[data-phase='lay'][data-turn='0']")
    for card in PREPARED[kind]:
        page.locator(f'#hand button.card[data-card="{card}"][aria-pressed="false"]').first.click()
    reader.read(page, "table, cards chosen")
    page.click("#b-stage")
    page.wait_for_selector("#b-lay:not([disabled]), #staged-why:not(:empty)")
    page.click("#b-hint")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent !== ''")
    if page.is_visible("#discard-history"):
        page.click("#h-discard-history")
    reader.read(page, "table, a meld prepared, the hint, the discard history")
    if kind == "voleur":
        page.click("#b-clear")
        page.click("#b-rearrange")
        page.wait_for_selector("#rearrange-box:not([hidden])")
        reader.read(page, "table, a rearrangement")
        page.click("#rearrange-cancel")
    # Seat 0 ends its turn as a person would (a discard, or the end of the turn).
    r = httpx.post(
        f"{srv.url}/api/tables/{tid}/actions?token={tokens[0]}",
        json={"end_turn": True} if kind == "voleur" else {"discard": "AD"},
    )
    assert r.status_code == 200, r.text
    page.wait_for_selector("body[data-turn='1']")
    reader.read(page, "table, the other seat's turn")
    page.click("#talk button[data-phrase='again']")
    page.wait_for_selector("#log li.talk-line")
    reader.read(page, "table, a quick message")
    play_round_by_http(srv, tid, tokens)
    page.wait_for_selector("#round-end:not([hidden])")
    reader.read(page, "round end")

    if kind == "rami51":
        page.goto(f"{srv.url}/puzzle?lang={lang}")
        page.wait_for_selector("#p-hand .card")
        reader.catalogues(page, ["/static/puzzle.js", "/static/puzzles.js"])
        reader.read(page, "puzzle")
        # a hint (cards in ♠♥♦♣), then a refused table: a new meld of one card
        page.click("#p-hint")
        page.wait_for_selector("#p-hints li")
        page.click("#p-hand .card >> nth=0")
        page.click("#p-new-meld")
        page.click("#p-send")
        page.wait_for_selector("#p-error:not(:empty)")
        reader.read(page, "puzzle, a hint, a refusal")
        page.goto(f"{srv.url}/puzzles?lang={lang}")
        page.wait_for_selector(".puzzle-item.daily")
        reader.read(page, "puzzles, the list")

        # A rami sec with a joker left: the round end says why, and "Rejouer".
        r = httpx.post(
            f"{srv.url}/api/tables",
            json={"rules": ONE_ROUND, "seats": ["human", "human"], "names": ["Anne", "Luc"]},
        )
        sec = r.json()
        t = srv.hub.get(sec["table"])
        t.game = build_setup(t.game.rules.profile, RAMI_SEC)
        page.goto(f"{srv.url}{sec['links'][1]}&lang={lang}")
        page.wait_for_selector("#hand button.card")
        for move in RAMI_SEC_MOVES:
            httpx.post(
                f"{srv.url}/api/tables/{sec['table']}/actions?token={sec['seats'][0]['token']}", json=move
            )
        page.wait_for_selector("#round-end:not([hidden]) .why-paid")
        page.wait_for_selector("#b-again")
        reader.read(page, "round end, a rami sec and a joker left, play again")

        # A rami71 table of four: two teams on the score sheet.
        r = httpx.post(
            f"{srv.url}/api/tables",
            json={
                "variant": "rami71",
                "seats": ["human"] * 4,
                "names": ["Anne", "Luc", "Marc", "Zoé"],
                "lang": lang,
            },
        )
        assert r.status_code == 201, r.text
        page.goto(f"{srv.url}{r.json()['links'][0]}&lang={lang}")
        page.wait_for_selector("#sheet thead th >> nth=2")
        reader.read(page, "table, rami71 in teams")

        # The lobby's way back to a public seat: the game in words, no identifier.
        page.goto(f"{srv.url}/?lang={lang}")
        page.evaluate(
            "([table, token]) => localStorage.setItem('rami-public-seats', JSON.stringify([{table, token, offer: 'rami51', at: Date.now()}]))",
            [tid, tokens[0]],
        )
        page.reload()
        page.wait_for_selector("a.back-to-seat")
        page.wait_for_function(
            "() => !document.querySelector('a.back-to-seat').textContent.includes('rami51')"
        )
        back = page.text_content("a.back-to-seat")
        assert tid not in back and "rami51" not in back, back
        reader.read(page, "lobby, back to a public seat")

    ctx.close()
    assert not errors, errors
    if lang == "fr":
        bad = reader.english()
        assert not bad, "English on a French page:\n" + "\n".join(bad)
    else:
        bad = reader.french()
        assert not bad, "French on an English page:\n" + "\n".join(bad)


def test_french_page_rami51_desktop(browser, srv):
    _scan(browser, srv, "rami51", "desktop")


def test_the_english_lobby_is_caught(browser, srv):
    """The reader sees English where there is English: the same lobby in English."""
    page = browser.new_page(viewport=SIZES["desktop"])
    page.goto(f"{srv.url}/?lang=en")
    page.wait_for_selector("#offer option[value='rami51']", state="attached")
    reader = Reader()
    reader.catalogues(page, ["/static/i18n.js", "/static/public.js"])
    reader.read(page, "English lobby")
    bad = reader.english()
    page.close()
    for said in ("New table", "Play now", "Create the table"):
        assert any(said in line for line in bad), (said, bad)


def test_english_page_rami51_phone(browser, srv_en):
    """And the other way: an English page says nothing in French."""
    _scan(browser, srv_en, "rami51", "phone", "en")


@pytest.mark.slow
@pytest.mark.parametrize(("kind", "size"), [("voleur", "desktop"), ("house", "phone")])
def test_english_page(browser, srv_en, kind, size):
    _scan(browser, srv_en, kind, size, "en")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "size"),
    [
        ("rami51", "phone"),
        ("house", "desktop"),
        ("house", "phone"),
        ("voleur", "desktop"),
        ("voleur", "phone"),
    ],
)
def test_french_page(browser, srv, kind, size):
    _scan(browser, srv, kind, size)
