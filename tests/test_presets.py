"""The presets say what the presets table of docs/settings.md decides, and every bundled
profile (preset or house-rule example) loads and validates.

Profiles are loaded through ``rami_core.profile.loader.load_profile(name_or_path)``,
which resolves ``extends:`` (a preset name or a path relative to the file).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rami_core.profile.loader import load_profile
from rami_core.profile.model import (
    AceRule,
    EmptyStock,
    GameEnd,
    JokerReplay,
    JokerSwap,
    PartnerOpening,
    Penalty,
    Profile,
    RamiSec,
    SetSwap,
    SwapWho,
    TargetOutcome,
)

REPO = Path(__file__).resolve().parent.parent
VARIANTS = REPO / "variants"
HOUSE = VARIANTS / "house"
PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]

HOUSE_FILES = sorted(HOUSE.glob("*.yaml"))


# ----------------------------------------------------------------- validation


def test_every_preset_is_present():
    assert sorted(p.stem for p in VARIANTS.glob("*.yaml")) == sorted(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_loads_by_name(name):
    profile = load_profile(name)
    assert isinstance(profile, Profile)
    assert profile.name == name
    assert profile.description and profile.source


@pytest.mark.parametrize("name", PRESETS)
def test_preset_loads_by_path(name):
    assert load_profile(VARIANTS / f"{name}.yaml") == load_profile(name)


@pytest.mark.parametrize("name", PRESETS)
def test_preset_file_is_self_contained(name):
    """A preset extends nothing and validates on its own; only rami51 switches a plugin on."""
    data = yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))
    assert "extends" not in data
    assert data.get("plugins", {}) == ({"no_playable_discard": {}} if name == "rami51" else {})
    Profile.model_validate(data)


def _is_default(data: dict[str, Any], model: type) -> list[str]:
    """Key paths in ``data`` whose value equals the model default."""
    found = []
    defaults = model().model_dump(mode="json")
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(defaults.get(key), dict) and key != "hand_size_by_players":
            for sub, subvalue in value.items():
                if defaults[key].get(sub) == subvalue:
                    found.append(f"{key}.{sub}")
        elif key not in ("name", "description", "source") and defaults.get(key) == value:
            found.append(key)
    return found


@pytest.mark.parametrize("name", PRESETS)
def test_preset_holds_only_settings_that_differ_from_defaults(name):
    data = yaml.safe_load((VARIANTS / f"{name}.yaml").read_text(encoding="utf-8"))
    assert _is_default(data, Profile) == []


@pytest.mark.parametrize("path", HOUSE_FILES, ids=lambda p: p.stem)
def test_house_file_loads(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["extends"] in PRESETS
    profile = load_profile(path)
    assert isinstance(profile, Profile)
    assert profile.name == path.stem


def test_house_examples_listed_in_the_brief_exist():
    expected = {
        "voleur_table",
        "voleur_002",
        "voleur_simple_game",
        "rami51_atlas",
        "rami51_no_discard_draw_before_opening",
        "kaluki_10",
        "kaluki_40",
        "classic_wrap_bonus",
        "classic_positive",
    }
    assert expected <= {p.stem for p in HOUSE_FILES}


# ----------------------------------------------------------------- the table
#
# One dict per preset column of the presets table; each key is a row:
# players, decks + jokers, hand size, draw, discard, keep a card to go out,
# discard pile at start, opening, after opening, joker swap, joker in a set,
# ace, joker penalty, rami sec, empty stock, game end, teams.

ROWS: dict[str, dict[str, Any]] = {
    "voleur": {
        "players": (2, 4),
        "deck": (2, 2),
        "hand": {2: 13, 3: 13, 4: 13},
        "draw": {"from_discard": False},
        "discard": {"enabled": False},
        "keep_last": False,
        "plugins": {},
        "upcard": False,
        "opening": {
            "required": True,
            "pure_run": True,
            "points": 0,
            "jokers": True,
            "run_and_set": False,
            "all_at_once": False,
            "go_out_below_points": False,
        },
        "after": {"new_melds": True, "lay_off": True, "rearrange": True},
        "swap": {"swap": JokerSwap.on_table},
        "set_swap": SetSwap.any,
        "ace": (AceRule.both, False),
        "joker_penalty": 50,
        "rami_sec": RamiSec.none,
        "empty_stock": EmptyStock.end_all_pay,
        "game": {"end": GameEnd.target, "target": 100, "target_outcome": TargetOutcome.lowest_wins},
        "teams": False,
    },
    "rami51": {
        "players": (2, 5),
        "deck": (2, 4),
        "hand": dict.fromkeys(range(2, 6), 13),
        "draw": {"from_discard": True, "discard_before_opening": True},
        "discard": {"enabled": True},
        "keep_last": True,
        "plugins": {"no_playable_discard": {}},
        "upcard": True,
        "opening": {
            "required": True,
            "pure_run": True,
            "points": 51,
            "jokers": True,
            "run_and_set": False,
            "all_at_once": False,
            "go_out_below_points": False,
        },
        "after": {"new_melds": True, "lay_off": True, "rearrange": False},
        "swap": {"swap": JokerSwap.to_hand, "replay": JokerReplay.same_turn, "who": SwapWho.opened},
        "set_swap": SetSwap.fourth_card,
        "ace": (AceRule.both, False),
        "joker_penalty": 20,
        "rami_sec": RamiSec.double,
        "empty_stock": EmptyStock.reshuffle,
        "game": {"end": GameEnd.target, "target": 500, "target_outcome": TargetOutcome.lowest_wins},
        "teams": False,
    },
    "rami71": {
        "players": (2, 4),
        "deck": (2, 2),
        "hand": {2: 13, 4: 13},
        "draw": {"from_discard": True, "discard_before_opening": True},
        "discard": {"enabled": True},
        "keep_last": True,
        "plugins": {},
        "upcard": False,
        "opening": {
            "required": True,
            "points": 71,
            "jokers": False,
            "run_and_set": True,
            "all_at_once": False,
            "go_out_below_points": True,
            "go_out_run_without_taken_discard": True,
        },
        "after": {"new_melds": True, "lay_off": True, "rearrange": False},
        "swap": {"swap": JokerSwap.to_hand, "replay": JokerReplay.any_time, "who": SwapWho.opened},
        "set_swap": SetSwap.fourth_card,
        "ace": (AceRule.both, False),
        "joker_penalty": 20,
        "rami_sec": RamiSec.none,
        "empty_stock": EmptyStock.reshuffle,
        "game": {
            "end": GameEnd.target,
            "target": 251,
            "team_target": 451,
            "target_outcome": TargetOutcome.reacher_loses,
        },
        "teams": True,
        "partner_opening": PartnerOpening.pure_run,
    },
    "simple": {
        "players": (2, 4),
        "deck": (2, 2),
        "hand": {2: 13, 4: 13},
        "draw": {"from_discard": True, "discard_before_opening": True},
        "discard": {"enabled": True},
        "keep_last": True,
        "plugins": {},
        "upcard": False,
        "opening": {
            "required": True,
            "points": 0,
            "run_and_set": True,
            "all_at_once": True,
            "go_out_below_points": False,
        },
        "after": {"new_melds": False, "lay_off": False, "rearrange": False},
        "swap": {"swap": JokerSwap.never},
        "ace": (AceRule.both, False),
        "rami_sec": RamiSec.none,
        "empty_stock": EmptyStock.reshuffle,
        "penalty": (Penalty.fixed, 100),
        "game": {
            "end": GameEnd.target,
            "target": 300,
            "team_target": 600,
            "target_outcome": TargetOutcome.reacher_loses,
        },
        "teams": True,
    },
    "kaluki": {
        "players": (2, 5),
        "deck": (2, 4),
        "hand": dict.fromkeys(range(2, 6), 13),
        "draw": {"from_discard": True, "discard_before_opening": True},
        "discard": {"enabled": True},
        "keep_last": False,
        "plugins": {},
        "upcard": True,
        "opening": {
            "required": True,
            "pure_run": False,
            "points": 51,
            "jokers": True,
            "run_and_set": False,
            "all_at_once": False,
            "go_out_below_points": False,
        },
        "after": {"new_melds": True, "lay_off": True, "rearrange": False},
        "swap": {"swap": JokerSwap.to_hand, "replay": JokerReplay.same_turn, "who": SwapWho.opened},
        "set_swap": SetSwap.fourth_card,
        "ace": (AceRule.both, False),
        "joker_penalty": 25,
        "rami_sec": RamiSec.none,
        "empty_stock": EmptyStock.turn_over,
        "game": {"end": GameEnd.target, "target": 150, "target_outcome": TargetOutcome.lowest_wins},
        "teams": False,
    },
    "classic": {
        "players": (2, 7),
        "deck": (1, 0),
        "hand": {2: 10, 3: 7, 4: 7, 5: 7, 6: 6, 7: 6},
        "draw": {"from_discard": True, "discard_before_opening": True},
        "discard": {"enabled": True},
        "keep_last": False,
        "plugins": {},
        "upcard": True,
        "opening": {
            "required": False,
            "pure_run": False,
            "points": 0,
            "run_and_set": False,
            "all_at_once": False,
        },
        "after": {"new_melds": True, "lay_off": True, "rearrange": False},
        "swap": {"swap": JokerSwap.never},
        "ace": (AceRule.low, False),
        "rami_sec": RamiSec.double,
        "empty_stock": EmptyStock.turn_over,
        "game": {"end": GameEnd.single_round, "end_on_empty_stock": False},
        "teams": False,
    },
}


def _check_row(p: Profile, row: dict[str, Any]) -> None:
    assert (p.players.min, p.players.max) == row["players"], "players"
    assert (p.deck.decks, p.deck.jokers) == row["deck"], "decks + jokers"
    for n, size in row["hand"].items():
        assert p.hand_size(n) == size, f"hand size at {n} players"
    assert not p.deal.dealer_extra_card, "hand size: nobody gets an extra card"
    for key, value in row["draw"].items():
        assert getattr(p.draw, key) == value, f"draw.{key}"
    assert not p.draw.taken_discard_must_be_laid, "draw: the discard taken need not be laid"
    for key, value in row["discard"].items():
        assert getattr(p.discard, key) == value, f"discard.{key}"
    assert p.discard.keep_last == row["keep_last"], "keep a card to discard when going out"
    assert p.active_plugins == row["plugins"], "discard restriction (a bundled plugin)"
    assert p.deal.upcard == row["upcard"], "discard pile at start"
    for key, value in row["opening"].items():
        assert getattr(p.opening, key) == value, f"opening.{key}"
    for key, value in row["after"].items():
        assert getattr(p.table, key) == value, f"table.{key}"
    for key, value in row["swap"].items():
        assert getattr(p.jokers, key) == value, f"jokers.{key}"
    if "set_swap" in row:
        assert p.jokers.set_swap == row["set_swap"], "joker in a set"
    assert (p.melds.ace, p.melds.wrap) == row["ace"], "ace in runs"
    if "joker_penalty" in row:
        assert p.jokers.penalty == row["joker_penalty"], "joker penalty"
    assert p.scoring.rami_sec == row["rami_sec"], "rami sec"
    assert p.scoring.penalty == row.get("penalty", (Penalty.hand, 100))[0], "penalty kind"
    if "penalty" in row:
        assert p.scoring.fixed_penalty == row["penalty"][1], "fixed penalty"
    assert not p.scoring.positive, "penalty scoring, lowest wins"
    assert p.draw.empty_stock == row["empty_stock"], "empty stock"
    for key, value in row["game"].items():
        assert getattr(p.game, key) == value, f"game.{key}"
    assert p.teams.enabled == row["teams"], "teams"
    if row["teams"]:
        assert p.teams_at(4) and not p.teams_at(2)
        assert p.teams.opponents_pay_only
        assert p.teams.partner_opening == row.get("partner_opening", PartnerOpening.free)
    # the melds every preset shares
    assert (p.melds.run_min, p.melds.set_min, p.melds.set_max) == (3, 3, 4)
    assert p.melds.set_distinct_suits
    assert (p.jokers.max_per_meld, p.jokers.min_naturals) == (None, 1)
    assert (p.scoring.ace_points, p.scoring.ace_low_points, p.scoring.court_points) == (11, 1, 10)


def test_voleur_row():
    p = load_profile("voleur")
    _check_row(p, ROWS["voleur"])
    assert p.table.in_opening_turn  # the preset allows rearranging in the opening turn
    assert p.turn.time_limit == 120  # Ramio public games


def test_rami51_row():
    p = load_profile("rami51")
    _check_row(p, ROWS["rami51"])
    assert p.turn.time_limit is None


def test_rami71_row():
    p = load_profile("rami71")
    _check_row(p, ROWS["rami71"])
    assert p.target_for(2) == 251 and p.target_for(4) == 451


def test_simple_row():
    p = load_profile("simple")
    _check_row(p, ROWS["simple"])
    assert p.target_for(2) == 300 and p.target_for(4) == 600


def test_kaluki_row():
    p = load_profile("kaluki")
    _check_row(p, ROWS["kaluki"])


def test_classic_row():
    p = load_profile("classic")
    _check_row(p, ROWS["classic"])


def test_every_preset_has_a_row():
    assert sorted(ROWS) == sorted(PRESETS)


# ----------------------------------------------------------------- house files


def _house(stem: str) -> Profile:
    return load_profile(HOUSE / f"{stem}.yaml")


def test_voleur_table():
    p = _house("voleur_table")
    assert p.discard.enabled and not p.draw.from_discard
    assert (p.opening.pure_run, p.opening.points) == (False, 30)
    assert p.jokers.max_per_meld == 1
    assert p.jokers.swap == JokerSwap.to_hand
    assert p.table.rearrange  # kept from voleur


def test_voleur_002():
    p = _house("voleur_002")
    assert p.jokers.penalty == 15 and p.game.target == 251  # "exceeds 250"
    assert (p.jokers.swap, p.jokers.replay, p.jokers.set_swap) == (
        JokerSwap.to_hand,
        JokerReplay.same_turn,
        SetSwap.fourth_card,
    )
    assert not p.discard.enabled and p.opening.pure_run  # kept from voleur


def test_rami51_atlas():
    p = _house("rami51_atlas")
    assert p.opening.go_out_below_points and p.opening.points == 51
    assert not p.opening.pure_run  # Atlas names the 51 points only
    assert p.scoring.rami_sec == RamiSec.none
    assert p.teams.enabled and p.target_for(4) == 351 and p.target_for(2) == 251
    assert p.game.target_outcome == TargetOutcome.reacher_loses
    assert not p.deal.upcard
    assert p.deck.jokers == 4  # kept from rami51


def test_kaluki_10():
    p = _house("kaluki_10")
    assert p.hand_size(2) == p.hand_size(5) == 10
    assert p.opening.points == 51


def test_kaluki_common():
    """The common Kalooki rules where the Rami en ligne page differs: a card kept to discard, a reshuffle."""
    p = _house("kaluki_common")
    assert p.discard.keep_last and p.draw.empty_stock == EmptyStock.reshuffle
    assert p.opening.points == 51 and p.deck.jokers == 4  # kept from kaluki


def test_kaluki_40():
    p = _house("kaluki_40")
    assert p.opening.points == 40 and p.melds.ace == AceRule.high


def test_classic_wrap_bonus():
    p = _house("classic_wrap_bonus")
    assert (p.melds.ace, p.melds.wrap) == (AceRule.both, True)
    assert (p.scoring.rami_sec, p.scoring.rami_sec_bonus) == (RamiSec.bonus, 10)
    assert p.hand_size(2) == 10  # the deal table merges through


def test_classic_positive():
    p = _house("classic_positive")
    assert p.scoring.positive
    assert p.game.end == GameEnd.target and p.game.target == 200


def test_voleur_simple_game():
    p = _house("voleur_simple_game")
    assert p.game.end == GameEnd.single_round
    assert p.draw.empty_stock == EmptyStock.replay


def test_rami51_no_discard_draw_before_opening():
    p = _house("rami51_no_discard_draw_before_opening")
    assert p.draw.from_discard and not p.draw.discard_before_opening
