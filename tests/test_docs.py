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
    from rami_core.words.messages import MESSAGES
    from rami_core.words.refusals import REFUSALS

    texts = [t for lang in MESSAGES.values() for t in lang.values()] + [
        t for texts in REFUSALS.values() for t in texts.values()
    ]
    assert not [t for t in texts if OUTSIDE.search(t)]


def test_the_scenario_examples_pass(tmp_path):
    """Every YAML example of the format's page is a scenario that passes."""
    from rami_core.conformance.scenario import run_file

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    for i, block in enumerate(blocks):
        path = tmp_path / f"example{i}.yaml"
        path.write_text(block, encoding="utf-8")
        results = run_file(path)
        assert results and all(r.passed for r in results), (i, results)


def test_rules_cover_every_preset_in_both_languages():
    from rami_core.files.resources import preset_names

    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for name in preset_names():
        assert f"`{name}`" in text, name
    assert "## English" in text and "## Français" in text


def _console_blocks(page: str) -> list[list[tuple[str, list[str]]]]:
    """A page's console blocks: each a list of (command, the lines it prints)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    blocks = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        runs: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                runs.append((line[2:], []))
            else:
                runs[-1][1].append(line)
        blocks.append(runs)
    return blocks


@pytest.mark.parametrize("block", range(5))
def test_the_diff_page_shows_what_rami_diff_prints(block, tmp_path, monkeypatch, example_package):
    """docs/diff.md's examples, run: each prints exactly what the page shows."""
    import shlex

    from click.testing import CliRunner

    from rami_core.cli import main

    blocks = _console_blocks("diff.md")
    assert len(blocks) == 5
    monkeypatch.chdir(tmp_path)
    for command, shown in blocks[block]:
        args = shlex.split(command)
        assert args[0] == "rami"
        result = CliRunner().invoke(main, args[1:], catch_exceptions=False)
        printed = result.output.rstrip("\n").splitlines()
        if args[1] == "check":  # the file's folder is the reader's own
            printed = [line.replace(str(tmp_path) + "/", "") for line in printed]
        assert result.exit_code == 0, command
        if shown or args[1] != "diff":  # the page leaves out the report a --scenarios run prints
            assert printed == shown, command


def test_the_settings_page_says_what_each_preset_keeps_to_discard():
    """docs/settings.md's row of `discard.keep_last` per preset (voleur / rami51 /
    rami71 / simple / kaluki / classic) is what the presets set."""
    from rami_core.profile.loader import load_profile

    text = (Path(__file__).resolve().parents[1] / "docs" / "settings.md").read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| must keep a card to discard"))
    values = row.split("|")[3].split(" / ")
    said = [v.strip().split()[0].rstrip(":") for v in values]
    presets = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
    want = [str(load_profile(p).discard.keep_last).lower() for p in presets]
    assert [("false" if s == "n/a" else s) for s in said] == want
    for p in presets:
        stock = load_profile(p).draw.empty_stock.value
        assert any(f"`draw.empty_stock: {stock}`" in line and p in line for line in text.splitlines()), p
