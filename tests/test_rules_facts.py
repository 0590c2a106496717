"""One reader of the profile: `Rules`.

- every setting of a profile group is read by `Rules.read` (rami_core/profile/rules.py)
  and documented in docs/settings.md: a setting nobody reads, or nobody can
  find, fails here;
- no other module reads a profile group (`profile.opening`, `.table`, ...):
  they ask `Rules`. The few modules listed in ELSEWHERE still do, each for a
  stated reason.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from rami_core.profile.model import Profile

ROOT = Path(__file__).resolve().parents[1]
RULES_PY = (ROOT / "rami_core" / "profile" / "rules.py").read_text()
SETTINGS_MD = (ROOT / "docs" / "settings.md").read_text()

GROUPS = [
    name
    for name, f in Profile.model_fields.items()
    if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel)
]


def settings() -> list[tuple[str, str]]:
    out = []
    for g in GROUPS:
        model = Profile.model_fields[g].annotation
        for name in model.model_fields:
            out.append((g, name))
    return out


# Read by a method of the Profile model itself (the schema), not by Rules.
BY_PROFILE = {("players", "min"), ("players", "max"), ("players", "counts")}
# Decided once, by a Profile method that the schema's own checks need too,
# and that Rules.read calls: the setting is read there, and only there.
THROUGH_PROFILE = {
    ("teams", "enabled"): Profile.teams_at,
    ("game", "team_target"): Profile.target_for,
    ("game", "target"): Profile.target_for,
    ("deal", "hand_size"): Profile.hand_size,
    ("deal", "hand_size_by_players"): Profile.hand_size,
}

# Modules that still read profile groups, and why.
ELSEWHERE = {
    "rami_core/profile/loader": "loads and validates profiles",
    "rami_core/profile/model.py": "the profile schema and its cross-field checks",
    "rami_core/profile/going_out.py": "the schema's sense check: whether a profile's hands can ever go out",
    "rami_core/profile/rules.py": "the one reader",
}

GROUP_READ = re.compile(
    r"\b(?:profile|p)\.(" + "|".join(GROUPS) + r")\.(\w+)|\bprofile\.(" + "|".join(GROUPS) + r")\b"
)


@pytest.mark.parametrize("group,name", settings(), ids=lambda x: x)
def test_every_setting_is_read_by_rules_and_documented(group: str, name: str) -> None:
    path = f"{group}.{name}"
    if (group, name) in BY_PROFILE:
        assert f"self.{path}" in inspect.getsource(Profile.allows_players)
    elif (group, name) in THROUGH_PROFILE:
        method = THROUGH_PROFILE[(group, name)]
        assert f"self.{path}" in inspect.getsource(method), f"{path} is not read by Profile.{method.__name__}"
        assert re.search(rf"\bp\.{method.__name__}\(", RULES_PY), (
            f"Rules.read does not call {method.__name__}"
        )
    else:
        assert re.search(rf"\bp\.{group}\.{name}\b", RULES_PY), f"{path} is read by nothing in Rules.read"
    assert re.search(rf"`{group}\.{name}\b", SETTINGS_MD) or re.search(
        rf"\b{group}\.{name}\b", SETTINGS_MD
    ), f"{path} is missing from docs/settings.md"


def test_no_module_but_rules_reads_profile_groups() -> None:
    offenders = []
    files = [
        *(ROOT / "rami_core").rglob("*.py"),
        *(ROOT / "plugins").glob("*.py"),
        *(ROOT / "tests" / "support").glob("*.py"),
    ]
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        if any(rel.startswith(prefix) for prefix in ELSEWHERE):
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if GROUP_READ.search(line) and not line.lstrip().startswith("#"):
                offenders.append(f"{rel}:{i}: {line.strip()}")
    assert not offenders, "ask Rules instead:\n" + "\n".join(offenders)


def test_the_guard_sees_a_group_read() -> None:
    assert GROUP_READ.search("if rules.profile.table.lay_off:")
    assert GROUP_READ.search("op = profile.opening")
    assert not GROUP_READ.search("if rules.may_lay_off:")


# --------------------------------------------------------------------------- a few facts, by example


def test_opening_need_follows_the_partner_rule() -> None:
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    game = Game.new(load_profile("rami71"), 4, seed=1)
    rules, s = game.rules, game.state.copy()
    s.opened = [False] * 4
    alone = rules.opening_need(s, 0)
    assert alone.points == 71 and alone.run_and_set and not alone.partner
    s.opened[2] = True  # the partner of seat 0
    need = rules.opening_need(s, 0)
    assert need.partner and need.pure_run and need.points == 0 and not need.run_and_set
    assert rules.opening_need(s, 1) == alone  # seat 1's partner is seat 3


def test_game_winner_under_reacher_loses() -> None:
    from rami_core.profile.loader import load_profile
    from rami_core.profile.resolve import rules_for

    lowest = rules_for(load_profile("rami51"), 3)
    reacher = rules_for(load_profile("rami71"), 2)
    assert lowest.target_outcome.value == "lowest_wins"
    assert reacher.target_outcome.value == "reacher_loses"
    assert lowest.game_winner([120, 40, 510]) == 1
    # The side at or past the target has lost; the lowest of the others wins.
    assert reacher.game_winner([reacher.target + 5, 10]) == 1
    assert reacher.game_winner([30, 30]) is None  # a tie


def test_could_join_is_the_engine_lay_off() -> None:
    from rami_core.cards import parse_card
    from rami_core.cards.melds import read_meld
    from rami_core.profile.loader import load_profile
    from rami_core.profile.resolve import rules_for

    rules = rules_for(load_profile("rami51"), 2)
    run = read_meld([parse_card(x) for x in ("5H", "6H", "7H")], rules.melds)
    assert run is not None
    assert rules.could_join(run, parse_card("8H")) and rules.could_join(run, parse_card("4H"))
    assert not rules.could_join(run, parse_card("8S")) and not rules.could_join(run, parse_card("10H"))
