"""Profiles by name: presets, the bundled house files, and profiles an
installed package ships under the entry-point group `rami.profiles`."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.files.resources import house_names, installed_profiles, preset_names, profile_names
from rami_core.profile.loader import load_profile
from rami_core.words.errors import ProfileError
from tests.support.in_process import run_in_process

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rami-plugin-example"


def test_house_files_load_by_name():
    assert "rami51_atlas" in house_names()
    assert load_profile("rami51_atlas").name == "rami51_atlas"
    for name in house_names():
        assert load_profile(name).name  # every bundled file by its name


def test_unknown_names_suggest_a_house_file():
    with pytest.raises(ProfileError, match="did you mean 'rami51_atlas'"):
        load_profile("rami51_atlaz")
    with pytest.raises(ProfileError):
        load_profile("../variants/rami51")  # a name is never a path out of the folders


def test_variants_all_lists_presets_and_house_files_one_line_each():
    runner = CliRunner()
    r = runner.invoke(main, ["variants", "--all"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == len(preset_names()) + len(house_names()) + len(installed_profiles())
    assert any(line.startswith("rami51_atlas ") and "[house]" in line for line in lines)
    assert any(line.startswith("rami51 ") and "[preset]" in line for line in lines)
    plain = runner.invoke(main, ["variants"]).output.splitlines()
    assert len(plain) == len(preset_names())


def test_show_and_play_take_a_house_file_by_name():
    r = CliRunner().invoke(main, ["show", "rami51_atlas"])
    assert r.exit_code == 0 and "name: rami51_atlas" in r.output
    p = run_in_process("play", "--variant", "rami51_atlas", "--players", "4", "--seed", "1", input="")
    assert p.returncode == 0, p.stderr
    assert "rami51_atlas - round 1" in p.stdout


def test_an_installed_package_ships_a_profile(example_package):
    """The example package, made importable with its entry points as pip would
    install them (a dist-info folder on sys.path)."""
    found = installed_profiles()
    assert found["rami51_no_joker_discard"].name == "rami51_no_joker_discard.yaml"
    assert "rami51_no_joker_discard" in profile_names()
    profile = load_profile("rami51_no_joker_discard")
    assert "no_joker_discard" in profile.active_plugins
    r = CliRunner().invoke(main, ["variants", "--all"])
    assert any(
        line.startswith("rami51_no_joker_discard ") and "[installed]" in line
        for line in r.output.splitlines()
    )
    # The package's own pyproject declares the same entry point.
    assert '[project.entry-points."rami.profiles"]' in (EXAMPLE / "pyproject.toml").read_text()
