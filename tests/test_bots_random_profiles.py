"""Held-back runs of the bots on random valid house profiles
(tests/support/random_profiles.py): whatever the house settings, every
action a bot returns is accepted by the engine, no bot raises, and no bot
gives its turn up to the clock (the engine's legality is the truth)."""

from __future__ import annotations

import pytest

from rami_core.players.bot_games import SimConfig, play_game
from tests.support.random_profiles import RandomProfile, random_profiles

BOT_SEATS = (("greedy", "random"), ("expert", "greedy"), ("random", "expert"))


def _faults(rp: RandomProfile, bots: tuple[str, ...], index: int, turn_cap: int) -> dict:
    record = play_game(
        SimConfig(rp.profile, players=2, bots=bots, games=1, round_cap=1, turn_cap=turn_cap), index
    )
    return {k: record[k] for k in ("refused", "refusal_codes", "timeouts", "bot_errors", "stuck")} | {
        "plugin_error": record.get("plugin_error")
    }


CLEAN = {"refused": 0, "refusal_codes": {}, "timeouts": 0, "bot_errors": 0, "stuck": 0, "plugin_error": None}


@pytest.mark.parametrize("n", range(3))
def test_bots_play_random_profiles_without_a_fault(n: int) -> None:
    (rp,) = random_profiles(1, seed=n)
    bots = BOT_SEATS[n % len(BOT_SEATS)]
    assert _faults(rp, bots, n, turn_cap=30) == CLEAN, f"{bots} on {rp}"


@pytest.mark.slow
@pytest.mark.parametrize("n", range(40))
def test_bots_play_many_random_profiles_without_a_fault(n: int) -> None:
    (rp,) = random_profiles(1, seed=1000 + n)
    for bots in BOT_SEATS:
        assert _faults(rp, bots, n, turn_cap=200) == CLEAN, f"{bots} on {rp}"
