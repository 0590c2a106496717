"""The problem catalogue (rami_core.words.problems): every profile and scenario
problem code in every language with every parameter shown, every problem
rami makes naming a code of the catalogue (never an English sentence), and
the French words reaching `rami validate --lang fr`, `rami show`, `rami
play` and the lobby of the table server, located by file and line."""

from __future__ import annotations

import ast
import functools
import pickle
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.profile.loader import load_profile
from rami_core.words.errors import Problem, ProfileError
from rami_core.words.problems import (
    _KINDS,
    _PROBLEMS,
    FRAME,
    LANGS,
    PROBLEMS,
    PYDANTIC_TYPES,
    VERBATIM,
    YAML_PHRASES,
    Said,
    from_validation,
    template_params,
)

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.yaml"))

# Words that would betray English left in a French line (parameters quoted
# in the golden cases hold none of them).
ENGLISH = re.compile(r"\b(the|is|not|should|got|must|unknown|expected|input|valid|file|mean|refused|than)\b")


def test_every_code_has_both_texts_with_the_same_parameters():
    codes = [code for code, _, _ in _PROBLEMS]
    assert len(codes) == len(set(codes)), "a code written twice"
    for code, texts in PROBLEMS.items():
        assert set(texts) == set(LANGS), code
        for lang in LANGS:
            assert texts[lang].strip(), (code, lang)
            assert template_params(texts[lang]) == template_params(texts["en"]), (code, lang)
        if code not in VERBATIM:
            assert texts["fr"] != texts["en"], f"{code!r}: the French text is the English one"
    assert set(FRAME) == set(LANGS)
    for lang in LANGS:
        assert template_params(FRAME[lang]["suggest"]) == {"suggestion"}
    assert all(phrase != french for phrase, french in YAML_PHRASES.items())


@pytest.mark.parametrize("code", sorted(PROBLEMS))
@pytest.mark.parametrize("lang", LANGS)
def test_every_template_shows_every_parameter(code, lang):
    """Each parameter given a distinct marker value appears in the words."""
    params = {name: f"<{name}-{i}>" for i, name in enumerate(sorted(template_params(PROBLEMS[code]["en"])))}
    text = Said(code, **params).words(lang)
    for value in params.values():
        assert value in text, (code, lang, value)


def _source_files() -> list[Path]:
    return sorted((ROOT / "rami_core").rglob("*.py"))


@functools.cache
def _source_calls() -> tuple[tuple[Path, str | None, ast.Call], ...]:
    """Every call in rami_core's sources with the name it calls, parsed once
    for the three checks that read them (the tree is read, never changed)."""
    calls = []
    for path in _source_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                calls.append(
                    (path, func.id if isinstance(func, ast.Name) else getattr(func, "attr", None), node)
                )
    return tuple(calls)


def _calls(name: str):
    for path, called, node in _source_calls():
        if called == name:
            yield path, node


def test_every_said_names_a_code_of_the_catalogue_and_every_code_is_said():
    used: set[str] = set()
    for path, node in _calls("Said"):
        first = node.args[0] if node.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            assert first.value in PROBLEMS, f"{path.name}:{node.lineno}: unknown code {first.value!r}"
            used.add(first.value)
        elif isinstance(first, ast.IfExp):  # Said("a" if ... else "b")
            for branch in (first.body, first.orelse):
                assert isinstance(branch, ast.Constant) and branch.value in PROBLEMS, path.name
                used.add(branch.value)
    # pydantic's types are said from the error's type, the kinds a union expects from _KINDS
    said_elsewhere = PYDANTIC_TYPES | set(_KINDS.values()) | VERBATIM | {"yaml_detail"}
    assert set(PROBLEMS) - used <= said_elsewhere, "a code nothing says"


@pytest.mark.parametrize("kind", sorted(PYDANTIC_TYPES))
def test_each_pydantic_type_is_said_by_its_own_code(kind):
    ctx = {"ge": 1, "gt": 1, "le": 1, "lt": 1, "max_length": 1, "min_length": 1, "actual_length": 2}
    # a text where a strict int or bool is expected is said as the text it is (int_parsing, int_got_text)
    given = [1] if kind in ("int_type", "bool_type") else "x"
    said = from_validation({"type": kind, "ctx": ctx, "input": given})
    assert said.code == kind
    assert "Input should" not in said.words("fr") and said.words("fr") != said.words("en")


@pytest.mark.parametrize(
    ("kind", "given", "code"),
    [
        ("int_type", True, "int_got_bool"),
        ("int_type", 51.0, "int_got_float"),
        ("int_type", "51", "int_got_text"),
        ("int_type", "lots", "int_parsing"),
        ("bool_type", "true", "bool_got_text"),
        ("bool_type", "ture", "bool_parsing"),
    ],
)
def test_a_strict_type_error_says_what_was_given(kind, given, code):
    said = from_validation({"type": kind, "input": given})
    assert said.code == code and said.words("fr") != said.words("en")


def test_no_problem_is_made_from_english_text():
    """A Problem's message and a ProfileError's argument in rami_core are never
    a literal sentence or an f-string: they are a Said (or a problem passed on)."""
    for path, node in list(_calls("Problem")) + list(_calls("ProfileError")):
        args = node.args
        message = args[4] if len(args) > 4 else (args[0] if args and len(args) == 1 else None)
        assert not isinstance(message, ast.JoinedStr | ast.Constant), (
            f"{path.relative_to(ROOT)}:{node.lineno}: a problem written as English text"
        )


def test_no_regular_expression_reads_a_message_to_translate_it():
    for name in (
        "rami_core/words/messages.py",
        "rami_core/profile/loader/translate.py",
        "rami_core/server/lobby.py",
        "rami_core/server/page_words.py",
        "rami_core/words/problems.py",
        "rami_core/cli/common.py",
    ):
        text = (ROOT / name).read_text(encoding="utf-8")
        assert "import re\n" not in text and "re.sub(" not in text, name


@pytest.mark.parametrize("case", CASES)
def test_validate_in_french_speaks_french_with_the_location(case, monkeypatch):
    monkeypatch.chdir(GOLDEN)
    result = CliRunner().invoke(main, ["validate", "--lang", "fr", f"{case}.yaml"])
    assert result.exit_code == 1
    expected = (GOLDEN / "fr" / f"{case}.txt").read_text(encoding="utf-8").rstrip("\n")
    assert result.stderr.rstrip("\n") == expected
    for line in result.stderr.splitlines():
        assert re.match(r"^[\w/.]+\.yaml:\d+: ", line), line
        quoted = re.sub(r"'[^']*'|«[^»]*»|\b[\w]+(\.[\w]+)+\b|[\w]+\.yaml", "", line.split(": ", 1)[1])
        assert not ENGLISH.search(quoted), line


def test_validate_in_english_is_unchanged(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    result = CliRunner().invoke(main, ["validate", "unknown_key.yaml"])
    assert result.stderr.strip() == (GOLDEN / "unknown_key.txt").read_text(encoding="utf-8").strip()


def _bad_profile(tmp_path: Path) -> Path:
    bad = tmp_path / "maison.yaml"
    bad.write_text("extends: rami51\nopening:\n  points: -3\n  pure_run: peut-être\n", encoding="utf-8")
    return bad


def test_show_and_play_report_a_refused_profile_in_their_language(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _bad_profile(tmp_path)
    shown = CliRunner().invoke(main, ["show", "--lang", "fr", "maison.yaml"])
    played = CliRunner().invoke(main, ["play", "--lang", "fr", "--rules", "maison.yaml"], input="q\n")
    for result in (shown, played):
        assert result.exit_code == 1, result.output
        assert result.stderr.splitlines() == [
            "maison.yaml:3: opening.points: attendu un nombre d'au moins 0, reçu -3",
            "maison.yaml:4: opening.pure_run: attendu un booléen (true ou false), "
            "ce texte n'en est pas un : 'peut-être'",
        ]
    english = CliRunner().invoke(main, ["show", "maison.yaml"])
    assert english.stderr.startswith(
        "maison.yaml:3: opening.points: input should be greater than or equal to 0"
    )


def test_a_problem_is_data(tmp_path):
    with pytest.raises(ProfileError) as info:
        load_profile(_bad_profile(tmp_path))
    first = info.value.problems[0]
    assert (first.code, first.params) == ("greater_than_equal", {"limit": 0, "value": "-3"})
    data = first.to_json()
    assert data["code"] == "greater_than_equal" and data["line"] == 3 and data["key_path"] == "opening.points"
    assert data["messages"]["fr"].endswith("attendu un nombre d'au moins 0, reçu -3")
    again = pickle.loads(pickle.dumps(info.value.problems))
    assert [p.format("fr") for p in again] == [p.format("fr") for p in info.value.problems]


def test_plain_text_stays_as_written_in_every_language():
    """A plugin's own ProfileError text has no code of ours: shown as written."""
    problem = ProfileError("a plugin's own words").problems[0]
    assert problem.code == "text" and problem.format("fr") == "<profile>: a plugin's own words"


def test_an_unmapped_pydantic_error_is_still_french():
    said = from_validation({"type": "multiple_of", "ctx": {"multiple_of": 5}, "input": 7})
    assert said.code == "invalid_value" and "valeur refusée" in said.words("fr")
    assert Problem("f.yaml", 1, 1, "k", said, "x").format("fr").endswith("(vouliez-vous dire « x » ?)")


def test_the_lobby_refuses_a_pasted_profile_in_french(tmp_path):
    pytest.importorskip("starlette", reason="the [server] extra is not installed")
    from starlette.testclient import TestClient

    from rami_core.server.app import create_app

    with TestClient(create_app(tmp_path / "rami.sqlite", bot_delay=0)) as client:
        body = {"rules": "extends: rami51\nopening:\n  pointz: 40\n", "seats": ["human"] * 2, "lang": "fr"}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400
        err = r.json()["error"]
        assert err["code"] == "profile_invalid"
        assert err["message"] == "rules:3: opening.pointz: unknown key (did you mean 'points'?)"
        assert (
            err["messages"]["fr"] == "rules:3: opening.pointz: clé inconnue (vouliez-vous dire « points » ?)"
        )
        assert (
            err["text"] == "Refusé : rules:3: opening.pointz: clé inconnue (vouliez-vous dire « points » ?)"
        )
        assert err["problems"][0]["code"] == "unknown_key" and err["problems"][0]["line"] == 3
        r = client.post("/api/tables", json={**body, "rules": "extends: rami51\nopening: [\n"})
        assert r.json()["error"]["messages"]["fr"].startswith("rules:3: YAML invalide : ")
        r = client.post("/api/tables", json={"variant": "rami5", "seats": ["human"] * 2, "lang": "fr"})
        assert r.json()["error"]["messages"]["fr"].startswith("variant: aucune variante nommée 'rami5'")
        r = client.post("/api/tables?lang=fr", json={**body, "lang": "en", "rules": "extends: ./up/x.yaml\n"})
        assert "fichier introuvable" in r.json()["error"]["text"]
        assert "rami-rules-" not in r.text


def test_every_code_is_documented():
    doc = (ROOT / "docs" / "api" / "errors.md").read_text(encoding="utf-8")
    for code in PROBLEMS:
        assert f"| `{code}` |" in doc, f"{code} missing from docs/api/errors.md"


BAD_SCENARIOS = """\
name: a card written wrong
variant: rami51
setup:
  hands:
    - [9H, 10H, JH, KS, KH, KC, 2C, 5D]
    - [3S, 4S, 8D, 8C, QD]
  stock: [QD, 4C, 7S]
steps:
  - {player: 0, draw: stock}
  - {player: 0, meld: [[9H, 10H, XX]]}
  - expect: {turn: 0}
---
name: a refused opening
variant: rami51
setup:
  hands:
    - [9H, 10H, JH, KS, KH, KC, 2C, 5D]
    - [3S, 4S, 8D, 8C, QD]
  stock: [QD, 4C, 7S]
steps:
  - {player: 0, draw: stock}
  - {player: 0, meld: [[9H, 10H, JH]]}
  - expect: {turn: 0}
---
name: an unknown setup key
variant: rami51
setup:
  hands: [[9H, KS], [3S]]
  tabel: []
steps:
  - expect: {turn: 0}
"""


def test_rami_check_speaks_french_located_by_file_and_line(tmp_path):
    """`rami check --lang fr`: every failure in French, from the catalogues
    (the engine's refusal included, with its parameters), at its file and line."""
    from click.testing import CliRunner

    from rami_core.cli import main

    path = tmp_path / "bad.yaml"
    path.write_text(BAD_SCENARIOS, encoding="utf-8")
    fr = CliRunner().invoke(main, ["check", "--lang", "fr", str(path)])
    assert fr.exit_code == 1
    lines = fr.output.splitlines()
    assert f"{path}:10" in lines[0] and lines[1].strip().startswith("étape 2 : action mal écrite : meld : ")
    assert "ce n'est pas une carte : 'XX' (il manque la couleur" in lines[1]
    refused = next(line for line in lines if "opening_requirement" in line)
    assert (
        "refusé avec opening_requirement : une ouverture demande 51 points ; ces combinaisons en font 29"
        in (refused)
    )
    assert any(f"{path}:27" in line for line in lines)  # the setup of the third scenario
    assert "clé inconnue 'tabel' (vouliez-vous dire `table` ?)" in fr.output
    for english in ("not a card", "refused with", "unknown key", "bad action", "an opening needs"):
        assert english not in fr.output
    en = CliRunner().invoke(main, ["check", str(path)])
    assert "step 2: bad action: meld: not a card: 'XX'" in en.output
    assert "refused with opening_requirement: an opening needs 51 points; these melds make 29" in en.output
    assert lines[-1] == en.output.splitlines()[-1] == "0 passed, 3 failed"


def test_rami_check_json_carries_line_code_and_the_language(tmp_path):
    import json

    from click.testing import CliRunner

    from rami_core.cli import main

    path = tmp_path / "bad.yaml"
    path.write_text(BAD_SCENARIOS, encoding="utf-8")
    out = CliRunner().invoke(main, ["check", "--json", "--lang", "fr", str(path)])
    results = json.loads(out.stdout)
    assert [r["line"] for r in results] == [10, 22, 27]
    assert [r["code"] for r in results] == [
        "scenario_bad_action",
        "scenario_refused",
        "scenario_setup_invalid",
    ]
    assert results[1]["message"].startswith("refusé avec opening_requirement : ")


@pytest.mark.parametrize(
    ("damage", "fr", "en"),
    [
        (
            lambda d: {**d, "format": "other"},
            "ce n'est pas une partie enregistrée : le format est",
            "format is",
        ),
        (lambda d: {**d, "version": 99}, "la version 99 du format", "format version 99"),
        (lambda d: {**d, "seed": d["seed"] + 1}, "sa somme de contrôle ne correspond pas", "checksum"),
        (lambda d: [d], "un objet JSON est attendu", "expected a JSON object"),
    ],
)
def test_damaged_saves_say_why_in_french(tmp_path, damage, fr, en):
    """`rami play --resume` and `rami replay` of a damaged, foreign or too-new
    save: the reason in the language of --lang, from the save_* codes."""
    import json

    from click.testing import CliRunner

    from rami_core.cli import main
    from rami_core.players.savegame import to_save
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    data = damage(to_save(Game.new(load_profile("rami51"), 2, seed=3)))
    path = tmp_path / "save.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    for command in (["play", "--resume", str(path)], ["replay", str(path)]):
        said_fr = CliRunner().invoke(main, [*command, "--lang", "fr"])
        assert said_fr.exit_code == 1 and fr in said_fr.output, said_fr.output
        assert en not in said_fr.output and "Traceback" not in said_fr.output
        said_en = CliRunner().invoke(main, command)
        assert said_en.exit_code == 1 and en in said_en.output, said_en.output


def test_a_save_refused_on_replay_names_the_refusal_in_french(tmp_path):
    import json

    from rami_core.players.savegame import SaveError, _digest, from_save, to_save
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game

    data = to_save(Game.new(load_profile("rami51"), 2, seed=3))
    body = {k: v for k, v in data.items() if k != "sha256"}
    body["log"] = [{"player": 0, "discard": "JK"}]
    with pytest.raises(SaveError) as e:
        from_save(json.loads(json.dumps({**body, "sha256": _digest(body)})))
    words = e.value.said.words("fr")
    assert words.startswith("l'action 1 de la partie enregistrée (") and "refusée à la relecture" in words
    assert "piochez une carte avant de défausser" in words
