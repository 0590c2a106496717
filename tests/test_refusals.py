"""A refused action changes nothing: from random reachable states (a seeded
game played some random steps by the playout bot), random and mostly illegal
actions are applied; whenever the engine refuses one, the serialized state
is byte-identical, the log is unchanged and the error code is one of the
contract's. Accepted actions keep every card in play. After the round is
over, every action is refused with `wrong_phase`.

The hypothesis settings are the profile tests/conftest.py loads
(derandomized in CI).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from rami_core.cards import Card, build_deck
from rami_core.game import actions as A
from rami_core.game.actions import action_to_dict
from rami_core.game.state import DRAW, OVER
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.words.errors import ERROR_CODES, RuleError
from tests.support.playout import ALL_FACES, RandomBot, play_prefix

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
_PROFILES = {name: load_profile(name) for name in PRESETS}
_DECKS = {name: sorted(build_deck(p.deck.decks, p.deck.jokers)) for name, p in _PROFILES.items()}


def _counts(name: str) -> list[int]:
    p = _PROFILES[name]
    return [n for n in range(p.players.min, p.players.max + 1) if p.allows_players(n)]


TABLES = [(name, n) for name in PRESETS for n in _counts(name)]


@st.composite
def reachable_games(draw, max_steps: int = 150):
    preset, players = draw(st.sampled_from(TABLES))
    seed = draw(st.integers(0, 10_000))
    steps = draw(st.integers(0, max_steps))
    game = Game.new(_PROFILES[preset], players, seed=seed)
    play_prefix(game, random.Random(f"prefix:{seed}"), steps)
    if game.state.phase == DRAW and draw(st.integers(0, 3)):
        # Most refusals worth testing come after the draw: draw, as the bot would.
        play_prefix(game, random.Random(f"draw:{seed}"), 1)
    note(f"preset={preset} players={players} seed={seed} prefix steps={steps}")
    return preset, game


def _cards(data, pool: list[Card], lo: int, hi: int) -> tuple[Card, ...]:
    return tuple(data.draw(st.lists(st.sampled_from(pool), min_size=lo, max_size=hi)))


def random_action(data, game: Game) -> A.Action:
    """An action of any kind, mostly illegal: any seat (the seat to play more
    often), cards from the hand or anywhere, any meld index; or one of the
    bot's plausible candidates, so that refusals deep in the checks come up."""
    s = game.state
    n = s.players
    player = data.draw(st.one_of(st.just(s.turn), st.just(s.turn), st.integers(-1, n)), label="player")
    hand = [c.face_card for c in s.hands[s.turn]] if 0 <= s.turn < n else []
    pool = hand + ALL_FACES if hand else ALL_FACES
    meld_ix = st.integers(-1, len(s.table) + 1)
    kind = data.draw(
        st.sampled_from(
            ["draw", "meld", "layoff", "swap", "rearrange", "discard", "end_turn", "timeout"] + ["bot"] * 6
        ),
        label="kind",
    )
    if kind == "bot" and s.phase != OVER:
        bot = RandomBot(random.Random(data.draw(st.integers(0, 1000), label="bot seed")), noise=0.3, bad=0.5)
        cands = [a.action for a in bot.attempts(game, 0)][:40]
        if cands:
            return data.draw(st.sampled_from(cands), label="bot action")
        kind = "draw"
    if kind in ("draw", "bot"):
        return A.Draw(player, data.draw(st.sampled_from(["stock", "discard", "pile"])))
    if kind == "meld":
        melds = data.draw(
            st.lists(st.lists(st.sampled_from(pool), min_size=0, max_size=5), min_size=0, max_size=3)
        )
        return A.Meld(player, tuple(tuple(m) for m in melds))
    if kind == "layoff":
        items = data.draw(
            st.lists(
                st.builds(
                    A.LayOffItem,
                    st.sampled_from(pool),
                    meld_ix,
                    st.one_of(st.none(), st.sampled_from(ALL_FACES[:-1])),
                ),
                min_size=0,
                max_size=3,
            )
        )
        return A.LayOff(player, tuple(items))
    if kind == "swap":
        return A.Swap(player, _cards(data, pool, 0, 3), data.draw(meld_ix))
    if kind == "rearrange":
        table = [[c.face_card for c in m.cards] for m in s.table]
        how = data.draw(st.sampled_from(["add", "drop", "move", "random", "same"]))
        if how == "add" and table:
            i = data.draw(st.integers(0, len(table) - 1))
            table[i].append(data.draw(st.sampled_from(pool)))
        elif how == "drop" and table and table[0]:
            table[0].pop()
        elif how == "move" and len(table) >= 2 and table[0]:
            table[1].append(table[0].pop())
        elif how == "random":
            table = [
                list(m) for m in data.draw(st.lists(st.lists(st.sampled_from(pool), max_size=5), max_size=4))
            ]
        return A.Rearrange(player, tuple(tuple(m) for m in table))
    if kind == "discard":
        return A.Discard(player, data.draw(st.sampled_from(pool)))
    if kind == "end_turn":
        return A.EndTurn(player)
    return A.Timeout(player)


def _check_refusal(game: Game, action: A.Action, before: str, log: list) -> RuleError | None:
    try:
        game.apply(action)
    except RuleError as e:
        assert e.code in ERROR_CODES, f"{e.code} is not a contract error code"
        assert game.state.to_json() == before, (
            f"refused ({e.code}) {action_to_dict(action)} changed the state"
        )
        assert game.log == log, f"refused ({e.code}) {action_to_dict(action)} changed the log"
        return e
    return None


def _refused_action_changes_nothing(case, data) -> None:
    preset, game = case
    for _ in range(data.draw(st.integers(1, 8), label="actions")):
        action = random_action(data, game)
        note(f"action {action_to_dict(action)}")
        before = game.state.to_json()
        was_over = game.state.phase == OVER
        log = list(game.log)
        err = _check_refusal(game, action, before, log)
        event(f"{type(action).__name__}: {err.code if err else 'accepted'}")
        if was_over:
            assert err is not None and err.code == "wrong_phase", (
                "an action after the round was not refused with wrong_phase"
            )
        if err is None:
            assert sorted(game.state.all_cards()) == _DECKS[preset], (
                "an accepted action created or lost a card"
            )


_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
# 40 random games in the default run, 150 in the slow run (seconds each way).
test_refused_action_changes_nothing = settings(max_examples=40, suppress_health_check=_HEALTH)(
    given(reachable_games(), st.data())(_refused_action_changes_nothing)
)
test_refused_action_changes_nothing_in_many_games = pytest.mark.slow(
    settings(max_examples=150, suppress_health_check=_HEALTH)(
        given(reachable_games(), st.data())(_refused_action_changes_nothing)
    )
)


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(reachable_games(max_steps=2000), st.data())
def test_after_the_round_everything_is_wrong_phase(case, data) -> None:
    _preset, game = case
    play_prefix(game, random.Random(0), 3000)
    event(f"round over: {game.state.phase == OVER}")
    if game.state.phase != OVER:
        return  # a round that reached the step budget: nothing to check here
    for _ in range(5):
        action = random_action(data, game)
        before = game.state.to_json()
        err = _check_refusal(game, action, before, list(game.log))
        assert err is not None and err.code == "wrong_phase", (
            f"{action_to_dict(action)} after the round: {err}"
        )
