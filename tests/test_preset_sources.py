"""Every setting of a preset says where it comes from.

A preset follows the rules page it cites: each setting it writes carries a
comment that quotes the sentence of its source it follows (« ... »), or says
"not in the source: common practice" with the reason. The house files that
the presets' readings moved to (kaluki_common) and those whose readings were
checked against their page (rami51_atlas, voleur_002) are held to the same.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"
FILES = sorted(VARIANTS.glob("*.yaml")) + [
    VARIANTS / "house" / f"{stem}.yaml" for stem in ("kaluki_common", "rami51_atlas", "voleur_002")
]
SETTING = re.compile(r"^  (\w+):(?P<rest>.*)$")
NOT_IN_SOURCE = "not in the source: common practice"
TOP = re.compile(r"^(\w+):")
# Top-level keys whose lines say what the file is, not a rule of the game
# (the description's line per language).
NOT_SETTINGS = {"description"}


def settings_without_source(text: str) -> list[str]:
    """The settings lines (a key under a group) whose comment quotes no source."""
    bad = []
    group = None
    for n, line in enumerate(text.splitlines(), start=1):
        top = TOP.match(line)
        if top is not None:
            group = top.group(1)
        m = SETTING.match(line)
        if m is None or group in NOT_SETTINGS:
            continue
        _, _, comment = m.group("rest").partition("#")
        if "«" in comment and "»" in comment:
            continue
        if NOT_IN_SOURCE in comment and len(comment.split(NOT_IN_SOURCE, 1)[1].strip()) > 3:
            continue  # the reason follows
        bad.append(f"line {n}: {line.strip()}")
    return bad


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_setting_names_its_source(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert any(SETTING.match(x) for x in text.splitlines()), "a preset writes settings"
    assert settings_without_source(text) == []


def test_the_check_finds_a_setting_without_its_source() -> None:
    text = "deal:\n  upcard: true   # Rami en ligne: the first card\n  hand_size: 10  # « dix cartes »\n"
    assert settings_without_source(text) == ["line 2: upcard: true   # Rami en ligne: the first card"]
    assert settings_without_source("game:\n  target: 150  # not in the source: common practice\n") != []
    # A description's line per language is not a setting; a group after it is.
    text = "description:\n  en: Thursday\n  fr: Jeudi\ngame:\n  target: 150\n"
    assert settings_without_source(text) == ["line 5: target: 150"]
