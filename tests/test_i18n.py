"""The catalogue (rami_core.i18n): every message in English and French, every
refusal the engine can give read back into its key and written in French,
and numbers agreeing with their nouns."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from rami_core import errors
from rami_core.errors import ERROR_CODES, RuleError
from rami_core.i18n import CODES, LANGS, MESSAGES, REASONS, Messages, read_reason, refusal_text, write_reason

SCENARIOS = Path(__file__).parent / "scenarios"


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_message_has_both_texts_with_the_same_parameters():
    for key, en in MESSAGES["en"].items():
        assert key in MESSAGES["fr"], f"{key!r} has no French text"
        assert MESSAGES["fr"][key].strip(), f"{key!r}: empty French text"
        assert fields(MESSAGES["fr"][key]) <= fields(en) | {"rank"}, key
    assert set(MESSAGES["fr"]) == set(MESSAGES["en"]), "a French message with no English text"


def test_every_error_code_and_reason_has_both_texts():
    assert set(CODES) == set(ERROR_CODES)
    for code, texts in CODES.items():
        assert set(texts) == set(LANGS) and all(texts.values()), code
    keys = [k for k, _, _ in REASONS]
    assert len(keys) == len(set(keys))
    for key, en, fr in REASONS:
        assert fr.strip() and fields(fr) == fields(en), key


def _refusals_of_every_scenario(monkeypatch) -> list[tuple[str, str]]:
    """Every refusal the engine gives while the bundled scenarios run."""
    from rami_core.scenario import run_file, scenario_files

    seen: list[tuple[str, str]] = []
    original = RuleError.__init__

    def record(self, code, message=""):
        seen.append((code, message))
        original(self, code, message)

    monkeypatch.setattr(errors.RuleError, "__init__", record)
    for path in scenario_files([SCENARIOS]):
        run_file(path)
    return seen


def test_every_refusal_in_the_scenarios_is_read_and_written_in_french(monkeypatch):
    seen = _refusals_of_every_scenario(monkeypatch)
    assert len({code for code, _ in seen}) >= 10  # the scenarios cover most codes
    unread = sorted({m for code, m in seen if "." not in code and m and read_reason(m) is None})
    assert not unread, f"engine reasons no template reads: {unread}"
    for code, message in seen:
        if "." in code:
            continue
        fr = refusal_text(code, message, "fr")
        assert not re.search(r"\b(the|is|not|your|meld|card|turn|must)\b", fr), fr


def test_reasons_show_cards_in_the_players_notation_and_melds_from_one():
    def fr_ascii(code: str) -> str:
        from rami_core.cards import parse_card
        from rami_core.terminal.card_text import CardStyle

        return CardStyle("fr", ascii_only=True).name(parse_card(code))

    text = write_reason(
        "meld 2: [JC JC JS] repeats a suit: a set's cards are all of different suits", "fr", fr_ascii
    )
    assert (
        text
        == "combinaison 3 : [VT VT VP] répète une couleur : les cartes d'un brelan sont toutes de couleurs différentes"
    )
    assert write_reason("a plugin's own words", "fr") == "a plugin's own words"
    assert refusal_text("house.no_sevens", "no sevens", "fr").startswith("Refusé par une règle maison")


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
    from rami_core.engine import Game
    from rami_core.loader import load_profile
    from rami_core.terminal.card_text import CardStyle
    from rami_core.terminal.screen import Screen

    for lang in LANGS:
        game = Game.new(load_profile("rami51"), 2, seed=1)
        screen = Screen(game.rules, ["A", "B"], CardStyle(lang), Messages(lang))
        assert screen._count(1) in ("1 card", "1 carte") and screen._count(2) in ("2 cards", "2 cartes")
