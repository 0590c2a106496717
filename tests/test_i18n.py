"""The catalogues (rami_core.words.messages, rami_core.words.refusals): every message and
every refusal in English and French with the same parameters, every refusal
the engine gives carrying its reason and parameters and written wholly in
French from them, and numbers agreeing with their nouns."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from rami_core.words import errors
from rami_core.words.errors import ERROR_CODES, RuleError
from rami_core.words.messages import LANGS, MESSAGES, Messages
from rami_core.words.refusals import (
    _REASONS,
    CODES,
    REFUSALS,
    REFUSED,
    Reason,
    refusal_detail,
    refusal_words,
    template_params,
)

SCENARIOS = Path(__file__).parent / "scenarios"


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_both_texts_with_the_same_parameters():
    for key, en in MESSAGES["en"].items():
        assert key in MESSAGES["fr"], f"{key!r} has no French text"
        assert MESSAGES["fr"][key].strip(), f"{key!r}: empty French text"
        assert fields(MESSAGES["fr"][key]) <= fields(en) | {"rank"}, key
    assert set(MESSAGES["fr"]) == set(MESSAGES["en"]), "a French message with no English text"


def test_every_error_code_and_reason_has_both_texts_with_the_same_parameters():
    """Codes x languages and reasons x languages: none missing, none empty, none
    left in English, and every language shows every parameter."""
    assert set(CODES) == set(ERROR_CODES)
    for code, texts in CODES.items():
        assert set(texts) == set(LANGS) and all(t.strip() for t in texts.values()), code
    keys = [k for k, _, _ in _REASONS]
    assert len(keys) == len(set(keys)), "a reason written twice"
    for key, texts in REFUSALS.items():
        assert set(texts) == set(LANGS), key
        for lang in LANGS:
            assert texts[lang].strip(), (key, lang)
            assert template_params(texts[lang]) == template_params(texts["en"]), (key, lang)
        assert texts["fr"] != texts["en"], f"{key!r}: the French text is the English one"
    for lang in LANGS:
        assert set(REFUSED[lang]) == {"refused", "refused_plugin"}


def _refusals_of_every_scenario(monkeypatch) -> list[RuleError]:
    """Every refusal the engine gives while the bundled scenarios run."""
    from rami_core.conformance.scenario import run_file, scenario_files

    # One record per distinct refusal, detached from the raised exception: the
    # bots' probes raise many thousands of refusals, and an exception kept
    # alive keeps its traceback's frames (whole game states) alive with it.
    seen: dict[tuple[str, str, str], RuleError] = {}
    original = RuleError.__init__

    def record(self, code, message="", **kw):
        original(self, code, message, **kw)
        key = (code, str(self.message), repr(sorted(self.to_json().items())))
        if key not in seen:
            copy = RuleError.__new__(RuleError)
            copy.__dict__.update(self.__dict__)
            copy.args = self.args
            seen[key] = copy

    monkeypatch.setattr(errors.RuleError, "__init__", record)
    for path in scenario_files([SCENARIOS]):
        run_file(path)
    return list(seen.values())


ENGLISH = re.compile(r"\b(the|is|not|your|meld|card|turn|must)\b")


def test_every_refusal_in_the_scenarios_is_data_written_wholly_in_french(monkeypatch):
    seen = _refusals_of_every_scenario(monkeypatch)
    assert len({e.code for e in seen}) >= 10  # the scenarios cover most codes
    no_reason = sorted({(e.code, e.message) for e in seen if e.reason is None})
    assert not no_reason, f"refusals without a catalogue reason: {no_reason}"
    for e in seen:
        shown = template_params(REFUSALS[e.reason]["en"])
        assert set(e.params) == shown, (e.reason, e.params)
        fr = refusal_words(e.code, e.reason, e.params, "fr")
        assert not ENGLISH.search(fr), fr
        again = RuleError(e.code, reason=e.to_json()["reason"], params=e.to_json()["params"])
        assert refusal_words(again.code, again.reason, again.params, "fr") == fr  # JSON round trip


def test_reasons_show_cards_in_the_players_notation_and_melds_from_one():
    def fr_ascii(code: str) -> str:
        from rami_core.cards import parse_card
        from rami_core.cards.text import CardStyle

        return CardStyle("fr", ascii_only=True).name(parse_card(code))

    why = Reason("meld_reason", meld=2, reason=Reason("set_suits", cards="JC JC JS"))
    assert str(why) == "meld 2: [JC JC JS] repeats a suit: a set's cards are all of different suits"
    assert (
        why.words("fr", fr_ascii)
        == "combinaison 3 : [VT VT VP] répète une couleur : les cartes d'un brelan sont toutes de couleurs différentes"
    )
    assert refusal_words("house.no_sevens", None, None, "fr", message="no sevens").startswith(
        "Refusé par une règle maison"
    )
    own = {"fr": "pas de {card}"}
    assert refusal_detail("house.x", None, {"card": "7H"}, "fr", texts=own) == "pas de 7H"
    assert refusal_detail("house.x", None, {"card": "7H"}, "en", message="no 7H", texts=own) == "no 7H"


def test_no_regular_expression_reads_a_refusal():
    """Refusals are translated from their key and parameters: the catalogues
    import no regular expressions."""
    root = Path(__file__).resolve().parent.parent / "rami_core" / "words"
    for name in ("messages.py", "refusals.py", "errors.py"):
        text = (root / name).read_text(encoding="utf-8")
        assert "import re\n" not in text and "re.compile" not in text, name


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_renders_with_one_and_with_several(lang):
    """Each message formatted with n = 1 and n = 3 (and the counted keys through
    Messages.count): no "1 players", no "3 card"."""
    msg = Messages(lang)
    bad_one = re.compile(r"\b1 (players|cards|bots|entries|joueurs|cartes|robots|coups)\b")
    bad_many = re.compile(r"\b3 (player|card|bot|entry|joueur|carte|robot|coup)\b")
    for n in (1, 3):
        for key, template in MESSAGES[lang].items():
            if key.endswith("_one" if n != 1 else "_many"):
                continue  # Messages.count picks these by the number
            kw = {
                name: (n if name in ("n", "left", "limit", "round", "points", "total") else "X")
                for name in fields(template)
            }
            text = template.format(**kw)
            assert not bad_one.search(text) and not bad_many.search(text), (key, text)
        for base in ("players", "bots", "entries", "cards"):
            text = msg.count(base, n)
            assert not bad_one.search(text) and not bad_many.search(text), text
    assert msg.count("players", 1) in ("1 player", "1 joueur")
    assert msg.count("players", 3) in ("3 players", "3 joueurs")


def test_cards_counted_on_the_screen_agree():
    from rami_core.cards.text import CardStyle
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game
    from rami_core.terminal.screen import Screen

    for lang in LANGS:
        game = Game.new(load_profile("rami51"), 2, seed=1)
        screen = Screen(game.rules, ["A", "B"], CardStyle(lang), Messages(lang))
        assert screen._count(1) in ("1 card", "1 carte") and screen._count(2) in ("2 cards", "2 cartes")
