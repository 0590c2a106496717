"""The profile commands of the CLI: variants, show, validate, schema."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.profile.model import Profile

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
GOLDEN = Path(__file__).parent / "golden"


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def rami_executable() -> str | None:
    """The installed ``rami`` script: beside this interpreter first, then on PATH."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "rami"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("rami")


# --------------------------------------------------------------------------- variants


def test_variants_lists_the_presets():
    result = run("variants")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    names = [line.split()[0] for line in lines]
    assert names == sorted(names)
    assert set(PRESETS) <= set(names)
    for line in lines:
        assert len(line.split(None, 1)) == 2, f"no description: {line!r}"


# --------------------------------------------------------------------------- show


@pytest.mark.parametrize("name", PRESETS)
def test_show_round_trips_through_validate(name, tmp_path):
    result = run("show", name)
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.stdout)
    assert data["name"]
    path = tmp_path / f"{name}.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    checked = run("validate", str(path))
    assert checked.exit_code == 0, checked.output
    assert checked.stdout == f"ok {path}\n"
    assert Profile.model_validate(data) == Profile.model_validate(
        yaml.safe_load(run("show", str(path)).stdout)
    )


def test_show_file_with_set(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("house.yaml").write_text("name: house\nopening:\n  points: 51\n", encoding="utf-8")
    result = run("show", "house.yaml", "--set", "opening.points=71", "--set", "game.target=500")
    assert result.exit_code == 0, result.output
    data = yaml.safe_load(result.stdout)
    assert (data["name"], data["opening"]["points"], data["game"]["target"]) == ("house", 71, 500)
    assert list(data)[:2] == ["format", "name"]  # model order, not sorted


def test_show_bad_profile_is_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("bad.yaml").write_text("name: x\nopenning: {}\n", encoding="utf-8")
    result = run("show", "bad.yaml")
    assert result.exit_code == 1
    assert result.stderr.strip() == "bad.yaml:2: openning: unknown key (did you mean 'opening'?)"
    assert "Traceback" not in result.output


def test_show_unknown_preset():
    result = run("show", "rami5")
    assert result.exit_code == 1
    assert "unknown preset 'rami5' (did you mean 'rami51'?)" in result.stderr


def test_show_bad_set_is_a_usage_error():
    result = run("show", "rami51", "--set", "opening.points")
    assert result.exit_code == 2
    assert "KEY.PATH=VALUE" in result.stderr


# --------------------------------------------------------------------------- validate


def test_validate_reports_every_file(tmp_path, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    result = run("validate", "parts/valid.yaml", "unknown_key.yaml", "enum_typo.yaml")
    assert result.exit_code == 1
    assert result.stdout == "ok parts/valid.yaml\n"
    expected = (GOLDEN / "unknown_key.txt").read_text() + (GOLDEN / "enum_typo.txt").read_text()
    assert result.stderr == expected


def test_validate_house_examples():
    from rami_core.files.resources import house_dir

    files = sorted(str(p) for p in house_dir().glob("*.yaml"))
    assert files
    result = run("validate", *files)
    assert result.exit_code == 0, result.output


def test_validate_needs_a_file():
    assert run("validate").exit_code == 2


def test_hostile_file_gives_a_clean_error():
    Path("/tmp/pwned_x").unlink(missing_ok=True)
    result = run("validate", str(GOLDEN / "python_tag.yaml"))
    assert result.exit_code == 1
    assert "unsupported YAML tag '!!python/object/apply:os.system'" in result.stderr
    assert "Traceback" not in result.output
    assert not Path("/tmp/pwned_x").exists()


# --------------------------------------------------------------------------- schema


def test_schema_is_the_profile_schema():
    result = run("schema")
    assert result.exit_code == 0
    schema = json.loads(result.stdout)
    from rami_core.cli import add_plugin_schemas

    expected = Profile.model_json_schema()
    add_plugin_schemas(expected)  # each plugin's settings, under $defs and `plugins`
    assert schema == json.loads(json.dumps(expected))
    assert {"opening", "draw", "jokers", "plugins"} <= set(schema["properties"])


# --------------------------------------------------------------------------- extension points


def test_commands_can_be_added_from_other_modules():
    @click.command("hello")
    def hello() -> None:
        click.echo("hello")

    main.add_command(hello)
    try:
        assert run("hello").stdout == "hello\n"
    finally:
        main.commands.pop("hello")


def test_version():
    assert run("--version").stdout.strip().endswith("0.1.0")


# --------------------------------------------------------------------------- a real process


def test_rami_on_path_runs_from_another_folder(tmp_path):
    exe = rami_executable()
    if exe is None:
        pytest.skip("the rami script is not installed (pip install -e '.[dev]')")
    result = subprocess.run([exe, "variants"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert set(PRESETS) <= {line.split()[0] for line in result.stdout.splitlines()}

    (tmp_path / "bad.yaml").write_text("draw:\n  empty_stock: reshufle\n", encoding="utf-8")
    result = subprocess.run(
        [exe, "validate", "bad.yaml"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 1
    assert result.stderr.startswith("bad.yaml:2: draw.empty_stock: 'reshufle' is not one of")
    assert "Traceback" not in result.stderr

    result = subprocess.run(
        [exe, "show", "rami51", "--set", "nope"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
