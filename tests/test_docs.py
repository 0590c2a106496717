"""The docs stand alone: every link in README.md and docs/*.md resolves inside
the repository, no page sends the reader to files that are not in it, and the
scenario example of docs/scenarios.md passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# What a reader of the repository cannot open: the brief's folder and files.
OUTSIDE = re.compile(r"shared/|DESIGN\.md|\bRULES\.md|STYLE\.md|seeds/|(?i:seed files?\b|\bseed 0\d\d\b)")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_resolves_inside_the_repository(page):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+://|mailto:", target):
            continue
        path = target.split("#", 1)[0]
        if not path:
            continue
        resolved = (page.parent / path).resolve()
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_refers_to_files_outside_the_repository(page):
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        assert not OUTSIDE.search(line), f"{page.name}:{n}: {line.strip()}"


def test_the_messages_refer_to_nothing_outside():
    from rami_core.i18n import MESSAGES
    from rami_core.refusals import REFUSALS

    texts = [t for lang in MESSAGES.values() for t in lang.values()] + [
        t for texts in REFUSALS.values() for t in texts.values()
    ]
    assert not [t for t in texts if OUTSIDE.search(t)]


def test_the_scenario_examples_pass(tmp_path):
    """Every YAML example of the format's page is a scenario that passes."""
    from rami_core.scenario import run_file

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    for i, block in enumerate(blocks):
        path = tmp_path / f"example{i}.yaml"
        path.write_text(block, encoding="utf-8")
        results = run_file(path)
        assert results and all(r.passed for r in results), (i, results)


def test_rules_cover_every_preset_in_both_languages():
    from rami_core.resources import preset_names

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in preset_names():
        assert f"`{name}`" in text, name
    assert "## English" in text and "## Français" in text
