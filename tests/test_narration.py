"""One narrator (rami_core.players.narration): every event kind is told, in both
languages, in the second and the third person, and `rami replay` tells a
saved game with it."""

from __future__ import annotations

import re

import pytest

from rami_core.game.events import Event, EventKind
from rami_core.players.narration import NARRATION, Teller, tell
from rami_core.words.messages import LANGS, MESSAGES, Messages
from tests.support.in_process import run_in_process

# One event of every kind, with the data the engine gives it.
SAMPLES: dict[EventKind, Event] = {
    EventKind.ROUND_DEALT: Event(
        EventKind.ROUND_DEALT,
        None,
        {"round": 1, "first_player": 0, "hand_sizes": [13, 13], "stock_size": 80, "discard_top": "7H"},
    ),
    EventKind.DRAWN: Event(EventKind.DRAWN, 0, {"source": "stock"}, {"card": "QS"}),
    EventKind.RESHUFFLED: Event(EventKind.RESHUFFLED, 0, {"stock_size": 40}),
    EventKind.OPENED: Event(EventKind.OPENED, 0),
    EventKind.LAID: Event(EventKind.LAID, 0, {"melds": [["7H", "8H", "9H"]]}),
    EventKind.LAID_OFF: Event(EventKind.LAID_OFF, 0, {"cards": [{"card": "10H", "to": 0}]}),
    EventKind.SWAPPED: Event(EventKind.SWAPPED, 0, {"given": ["8H"], "meld": 0}),
    EventKind.REARRANGED: Event(
        EventKind.REARRANGED,
        0,
        {"table": [["3C", "4C", "5C"], ["5C", "6C", "7C"]], "added": [{"to": 0, "cards": ["5C"]}]},
    ),
    EventKind.DISCARDED: Event(EventKind.DISCARDED, 0, {"card": "KD"}),
    EventKind.TURN_ENDED: Event(EventKind.TURN_ENDED, 0, {"next": 1}),
    EventKind.TIMED_OUT: Event(EventKind.TIMED_OUT, 0, {"undone": True}),
    EventKind.ROUND_OVER: Event(
        EventKind.ROUND_OVER,
        None,
        {
            "winner": 0,
            "how": "out",
            "rami_sec": True,
            "penalties": [0, 45],
            "scores": [0, 45],
            "hands": [[], ["KD"]],
        },
    ),
    EventKind.GAME_OVER: Event(EventKind.GAME_OVER, None, {"winner": 0, "scores": [0, 510]}),
    EventKind.UNDONE: Event(EventKind.UNDONE, 0),
}


def test_every_event_kind_has_a_narration():
    missing = [k for k in EventKind if k not in NARRATION]
    assert not missing, f"event kinds nobody narrates: {missing}"
    assert set(SAMPLES) == set(EventKind), "add a sample event for the new kind above"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("you", [0, None], ids=["you", "they"])
@pytest.mark.parametrize("kind", list(EventKind))
def test_every_kind_is_told_in_each_language_and_person(kind, lang, you, monkeypatch):
    # A key missing in this language must fail here, not fall back to English.
    monkeypatch.setitem(MESSAGES, "en", MESSAGES[lang] if lang != "en" else MESSAGES["en"])
    msg = Messages(lang)
    teller = Teller(msg, name=lambda s: ["Anne", "Luc"][s], you=you, discard_enabled=False, ends=True)
    text = tell(teller, SAMPLES[kind])
    assert text is not None and text.plain.strip()
    plain = text.plain
    assert "{" not in plain
    if lang == "fr":
        assert not re.search(r"\b(draws|lays|discards|goes|round|the|you|wins)\b", plain, re.I), plain


def test_second_person_is_grammatical():
    en = Teller(Messages("en"), name=lambda s: "X", you=0, discard_enabled=False, ends=True)
    told = " / ".join(tell(en, e).plain for e in SAMPLES.values() if tell(en, e) is not None)
    assert not re.search(
        r"\bYou (draws|opens|lays|gives|rearranges|discards|ends|runs|goes|adds)\b", told, re.I
    )
    assert "you go out" in told


def test_the_rearrangement_says_what_was_added_where():
    teller = Teller(Messages("en"), name=lambda s: "Luc")
    assert tell(teller, SAMPLES[EventKind.REARRANGED]).plain.startswith("Luc adds 5C on meld 1")


def play_some(game, moves: int) -> None:
    """A few moves by the random bot (a timeout where it errs)."""
    from rami_core.game import actions as A
    from rami_core.game.state import OVER
    from rami_core.players.bots import make_bot

    bots = [make_bot("random", seat) for seat in range(game.rules.players)]
    for _ in range(moves):
        s = game.state
        if s.phase == OVER:
            return
        try:
            game.apply(bots[s.turn].choose(game.view(s.turn), game.rules))
        except Exception:
            game.apply(A.Timeout(s.turn))


def test_replay_tells_a_saved_game_in_french(tmp_path):
    from rami_core.players.savegame import save
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    game = Game.new(load_profile("rami51"), 2, seed=4)
    play_some(game, 30)
    path = tmp_path / "g.json"
    save(game, path)
    r = run_in_process("replay", "--lang", "fr", str(path))
    assert r.returncode == 0, r.stderr
    assert "2 joueurs" in r.stdout and "Manche 1 distribuée" in r.stdout
    assert "la relecture correspond" in r.stdout
    assert not re.search(r"\b(draws|discards|round|seat)\b", r.stdout)
