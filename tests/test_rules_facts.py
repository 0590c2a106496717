"""One reader of the profile: `Rules`.

- every setting of a profile group is read by `Rules.build` (rami_core/rules.py)
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

from rami_core.profile import Profile

ROOT = Path(__file__).resolve().parents[1]
RULES_PY = (ROOT / "rami_core" / "rules.py").read_text()
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

# Modules that still read profile groups, and why.
ELSEWHERE = {
    "rami_core/loader": "loads and validates profiles",
    "rami_core/profile.py": "the profile schema and its cross-field checks",
    "rami_core/rules.py": "the one reader",
    "rami_core/scenario.py": "checks a scenario's setup against the deck before a game exists",
    "rami_core/cli/solve.py": "the solve command's own reading of the table rules (being moved to Rules with issue 12 item 5)",
    "rami_core/cli/play.py": "the player count's default, from profile.players",
    "rami_core/server/": "the table server's capability list and clock (owned by the server, to move to Rules)",
}

GROUP_READ = re.compile(
    r"\b(?:profile|p)\.(" + "|".join(GROUPS) + r")\.(\w+)|\bprofile\.(" + "|".join(GROUPS) + r")\b"
)


@pytest.mark.parametrize("group,name", settings(), ids=lambda x: x)
def test_every_setting_is_read_by_rules_and_documented(group: str, name: str) -> None:
    path = f"{group}.{name}"
    if (group, name) in BY_PROFILE:
        assert f"self.{path}" in inspect.getsource(Profile.allows_players)
    else:
        assert re.search(rf"\bp\.{group}\.{name}\b", RULES_PY), f"{path} is read by nothing in Rules.build"
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
