"""A profile's description in each language: the old one-text form loads
unchanged, the mapping form is checked like any setting, a child replaces its
parent's description whole, and every bundled profile says itself in French."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.files.resources import house_dir, house_names, preset_names
from rami_core.profile.loader import load_profile
from rami_core.profile.model import Descriptions, Profile
from rami_core.words.errors import ProfileError

BUNDLED = [*preset_names(), *house_names()]


def _file(tmp_path: Path, text: str, name: str = "house.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _bundled(name: str) -> Profile:
    return load_profile(name if name in preset_names() else house_dir() / f"{name}.yaml")


@pytest.mark.parametrize("name", BUNDLED)
def test_every_bundled_profile_says_itself_in_both_languages(name):
    p = _bundled(name)
    assert isinstance(p.description, Descriptions), f"{name}: one text only"
    en, fr = p.description_in("en"), p.description_in("fr")
    assert en and fr and en != fr, f"{name}: {en!r} / {fr!r}"


def test_a_single_text_is_the_line_in_every_language(tmp_path):
    p = load_profile(_file(tmp_path, "extends: rami51\ndescription: Le rami du jeudi\n"))
    assert p.description == "Le rami du jeudi"
    assert p.description_in("fr") == p.description_in("en") == "Le rami du jeudi"


def test_a_language_left_out_is_said_in_english_then_in_the_other(tmp_path):
    p = load_profile(_file(tmp_path, "extends: rami51\ndescription: {en: Thursday's rami}\n"))
    assert p.description_in("fr") == "Thursday's rami"
    p = load_profile(_file(tmp_path, "extends: rami51\ndescription: {fr: Le rami du jeudi}\n"))
    assert p.description_in("en") == "Le rami du jeudi"
    assert Profile().description_in("fr") == ""


def test_a_child_replaces_its_parents_description_whole(tmp_path):
    # rami51 has a French line; a child writing only English must not keep it.
    p = load_profile(_file(tmp_path, "extends: rami51\ndescription: {en: Thursday's rami}\n"))
    assert p.description == Descriptions(en="Thursday's rami")
    p = load_profile(_file(tmp_path, "extends: rami51\ndescription: Thursday's rami\n"))
    assert p.description == "Thursday's rami"
    # ...and a mapping over a text, a text over a mapping, through two files.
    _file(tmp_path, "extends: rami51\ndescription: One text\n", "parent.yaml")
    p = load_profile(_file(tmp_path, "extends: parent.yaml\ndescription: {fr: Un texte}\n"))
    assert p.description == Descriptions(fr="Un texte")
    # A --set of one language replaces the whole line too.
    p = load_profile("rami51", ["description.fr=Le 51"])
    assert p.description == Descriptions(fr="Le 51")


def test_a_child_that_says_nothing_keeps_its_parents_lines(tmp_path):
    p = load_profile(_file(tmp_path, "extends: rami51\nopening:\n  points: 40\n"))
    assert p.description == load_profile("rami51").description


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("description: {de: Unser Rami}\n", "house.yaml:2: description.de: unknown key"),
        ("description: {frr: Le rami}\n", "house.yaml:2: description.frr: unknown key (did you mean 'fr'?)"),
        ("description:\n  fr: 3\n", "house.yaml:3: description.fr: input should be a valid string, got 3"),
        (
            "description: 3\n",
            "house.yaml:2: description: input should be a valid string or a valid dictionary, got 3",
        ),
        (
            f"description: {'x' * 2001}\n",
            "house.yaml:2: description: string should have at most 2000 characters",
        ),
        (
            f"description: {{fr: {'x' * 2001}}}\n",
            "house.yaml:2: description.fr: string should have at most 2000 characters",
        ),
    ],
)
def test_a_bad_description_is_one_located_problem(tmp_path, monkeypatch, text, expected):
    _file(tmp_path, "extends: rami51\n" + text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProfileError) as info:
        load_profile("house.yaml")
    (problem,) = info.value.problems
    assert str(info.value).startswith(expected), str(info.value)
    assert problem.key_path == expected.split(": ")[1]


def test_rami_variants_speaks_the_language_asked():
    fr = CliRunner().invoke(main, ["variants", "--lang", "fr"])
    en = CliRunner().invoke(main, ["variants"])
    assert fr.exit_code == en.exit_code == 0
    line = {ln.split()[0]: ln for ln in fr.output.splitlines()}["rami51"]
    assert line.split(None, 1)[1] == load_profile("rami51").description_in("fr")
    assert "quatre jokers" in line and "four jokers" in en.output


def test_the_schema_offers_a_text_or_a_mapping_of_languages():
    import json

    result = CliRunner().invoke(main, ["schema"])
    schema = json.loads(result.output)
    found = schema["properties"]["description"]
    kinds = {a.get("type") or a.get("$ref", "").rsplit("/", 1)[-1] for a in found["anyOf"]}
    assert kinds == {"string", "Descriptions"}
    assert set(schema["$defs"]["Descriptions"]["properties"]) == {"en", "fr"}
