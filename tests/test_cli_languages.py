"""Every command of ``rami`` says its errors in the language of ``--lang``.

Each command that reads a user's profile, file or arguments is run in
process (click's CliRunner: the default run stays quick) with a bad profile,
a bad file or a bad argument, in English and in French. The French output
must hold no English sentence of the catalogues (rami_core.words.problems,
rami_core.words.messages, rami_core.words.refusals), none of click's English frame
("Usage:", "Error:", "Invalid value for"), and no traceback; the English
output must say the same refusal in English (another text, the same exit
code). A command added to ``rami`` without a case here fails the test.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from rami_core.cli import RamiGroup, lang_asked, main
from rami_core.cli.common import lang_option
from rami_core.puzzles import PuzzleError
from rami_core.words.errors import InternalError, RuleError
from rami_core.words.messages import MESSAGES
from rami_core.words.problems import PROBLEMS, VERBATIM, Said
from rami_core.words.refusals import CODES, REFUSALS, Reason

# Commands that take nothing a user could get wrong but click's own usage:
# they list what is installed, in English, and have no --lang.
NO_INPUT = {
    "schema": "prints JSON schemas; no file, no profile",
}

BAD_PROFILE = "extends: rami51\nopening:\n  pointz: 3\nscoring: {court_points: many}\n"
BAD_SCENARIO = (
    "name: bad\nvariant: rami5\nsetup:\n  hands: [[5C], [3D]]\nsteps:\n  - {player: 0, draw: stock}\n"
)


def _cases(tmp: Path) -> dict[str, list[list[str]]]:
    """Per command (its path of names), the bad invocations, without --lang."""
    bad = tmp / "bad.yaml"
    bad.write_text(BAD_PROFILE, encoding="utf-8")
    scenario = tmp / "scenario.yaml"
    scenario.write_text(BAD_SCENARIO, encoding="utf-8")
    not_json = tmp / "notjson.jsonl"
    not_json.write_text("{not json\n", encoding="utf-8")
    bad_puzzle = tmp / "badpuzzle.jsonl"
    bad_puzzle.write_text(
        '{"id": "p", "table": ["3C 4X"], "hand": "5C", "difficulty": 1}\n', encoding="utf-8"
    )
    missing = str(tmp / "missing.json")
    return {
        "variants": [["--nosuch"]],
        "plugins": [["--nosuch"]],
        "show": [["nosuch"], [str(bad)]],
        "validate": [[str(bad)], [missing]],
        "check": [[str(scenario)]],
        "diff": [["rami51", str(bad)], ["rami51", "nosuch"]],
        "replay": [[str(not_json)], [missing]],
        "simulate": [["--rules", str(bad)], ["--bots", "foo"], ["--variant", "nosuch"], ["--players", "8"]],
        "play": [["--rules", str(bad)], ["--bots", "foo"], ["--resume", missing]],
        "solve": [
            ["--table", "3X"],
            ["--rules", str(bad)],
            ["--variant", "rami51", "--table", "3C 4C 5C"],
            ["--batch", missing],
            ["--variant", "voleur", "--table", "3C 4C"],
        ],
        "puzzle new": [["--variant", "nosuch"], ["--variant", "rami51"]],
        "puzzle check": [[str(not_json)], [str(bad_puzzle)], [missing]],
        "puzzle collection": [["--out", str(tmp / "c.jsonl"), "--variant", "rami51"]],
        "puzzle play": [[str(not_json)], ["--id", "nosuch"], ["--daily", "-d", "3"], [str(bad_puzzle)]],
        "serve": [
            ["--db", str(tmp / "s.sqlite"), "--public-house", str(bad)],
            ["--db", str(tmp)],  # a folder: refused before the server starts
            ["--db", missing, "--export", "x"],
            ["--bot-delay", "nan"],
        ],
    }


def _leaves(group: click.Group, prefix: str = "") -> list[str]:
    out = []
    for name, cmd in sorted(group.commands.items()):
        path = f"{prefix}{name}"
        out += _leaves(cmd, path + " ") if isinstance(cmd, click.Group) else [path]
    return out


def _fragments(template: str) -> list[str]:
    """The literal stretches of a template long enough to betray a language."""
    literals = [lit for lit, _name, _spec, _conv in string.Formatter().parse(template)]
    return [f.strip() for f in literals if len(f.strip()) >= 12 and f.strip().count(" ") >= 2]


def _english_sentences() -> set[str]:
    """The English stretches of every catalogue entry. A stretch its own
    French keeps (a command line, a file name) betrays nothing, unless the
    French is the English itself: an entry left untranslated."""
    pairs: list[tuple[str, str]] = [(t["en"], t["fr"]) for c, t in PROBLEMS.items() if c not in VERBATIM]
    pairs += [(en, MESSAGES["fr"].get(key, en)) for key, en in MESSAGES["en"].items()]
    for table in (REFUSALS, CODES):
        pairs += [(t["en"], t["fr"]) for t in table.values()]
    return {f for en, fr in pairs for f in _fragments(en) if fr == en or f not in fr}


ENGLISH = _english_sentences()
CLICK_FRAME = re.compile(r"^(Usage:|Error:|Try ')|Invalid value for|Missing argument|No such option", re.M)


def _run(args: list[str], tmp: Path) -> tuple[int, str]:
    runner = CliRunner()
    result = runner.invoke(main, args, prog_name="rami", catch_exceptions=True, env={"RAMI_DEBUG": "0"})
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"{args}: {exc!r}"
    return result.exit_code, result.output


def test_every_command_has_its_cases(tmp_path):
    names = set(_leaves(main))
    assert names - set(NO_INPUT) == set(_cases(tmp_path)), (
        "a command without a case (or a case for no command)"
    )


@pytest.mark.parametrize("command", sorted(set(_leaves(main)) - set(NO_INPUT)))
def test_errors_are_said_in_the_language_asked(command, tmp_path):
    for n, case in enumerate(_cases(tmp_path)[command]):
        words = command.split()
        runs = {}
        for lang in ("en", "fr"):
            runs[lang] = _run([*words, "--lang", lang, *case], tmp_path)
        (code_en, out_en), (code_fr, out_fr) = runs["en"], runs["fr"]
        where = f"rami {command} {' '.join(case)} (case {n})"
        assert code_fr == code_en and code_fr in (1, 2), (where, code_en, code_fr, out_fr)
        assert "Traceback" not in out_fr and "internal error" not in out_fr, (where, out_fr)
        assert "erreur interne" not in out_fr, (where, out_fr)
        assert not CLICK_FRAME.search(out_fr), (where, out_fr)
        left = sorted(f for f in ENGLISH if f in out_fr)
        assert not left, (where, left, out_fr)
        assert out_fr.strip() and out_fr != out_en, (where, out_fr)


def test_a_misspelt_option_is_told_in_the_language_of_the_command_line():
    """Click refuses an unknown option before any option is read: the
    language is taken from the command line as given."""
    assert lang_asked(["play", "--nosuch", "--lang=fr"]) == "fr"
    assert lang_asked(["play", "--lang", "fr"]) == "fr"
    assert lang_asked(["play", "--lang", "de"]) == "en"
    assert lang_asked(["play", "--lang"]) == "en"
    code, out = _run(["play", "--nosuch", "--lang", "fr"], Path("."))
    assert code == 2 and "Option inconnue : --nosuch" in out and "Utilisation : rami play" in out


def test_the_english_frame_is_clicks_own():
    """Without --lang fr the usage errors are click's, unchanged."""
    code, out = _run(["play", "--nosuch"], Path("."))
    assert code == 2 and "No such option" in out and out.startswith("Usage: rami play")


def test_rami_solve_says_its_answer_in_french():
    args = ["solve", "--table", "3C 4C 5C | 8S 8H 8D", "--hand", "6C 8C", "--max-states", "1000"]
    code, out = _run([*args, "--lang", "fr"], Path("."))
    assert code == 0 and out.splitlines()[0] == "2 cartes de la main posées : 6C 8C"
    assert "ajouté à la combinaison 1 : 6C" in out and "laid off" not in out
    code, out = _run(args, Path("."))
    assert code == 0 and out.splitlines()[0] == "2 hand card(s) laid: 6C 8C"


@pytest.mark.parametrize(
    ("raised", "code", "french", "english"),
    [
        (
            lambda: PuzzleError(Said("puzzle_hand_empty")),
            1,
            "erreur : la main est vide",
            "error: the hand is empty",
        ),
        (
            lambda: InternalError("a bug"),
            3,
            "erreur interne (un défaut de rami",
            "internal error (a bug in rami",
        ),
        (
            lambda: RuntimeError("boom"),
            3,
            "lancez avec --debug ou RAMI_DEBUG=1",
            "run with --debug or RAMI_DEBUG=1",
        ),
        (
            lambda: RuleError("wrong_phase", Reason("draw_first", what="lay")),
            1,
            "erreur : refusé (wrong_phase) : ",
            "error: refused (wrong_phase): ",
        ),
    ],
)
def test_the_error_line_is_framed_in_the_language_asked(raised, code, french, english):
    """The first words of the one-line report of a refused input, an internal
    error and an unexpected exception follow --lang; the exit codes do not."""
    group = RamiGroup("rami")

    @group.command("boom")
    @lang_option
    def boom(lang: str) -> None:
        raise raised()

    for lang, words in (("fr", french), ("en", english)):
        result = CliRunner().invoke(group, ["boom", "--lang", lang], env={"RAMI_DEBUG": "0"})
        assert result.exit_code == code, result.output
        assert words in result.output and "Traceback" not in result.output, result.output


# The command line's own messages (rami_core.words.messages): each shows, in French,
# every parameter its English shows.
CLI_KEYS = ("cli_", "seconds_", "set_syntax", "simulate_", "serve_", "solve_", "puzzle_check_", "plugin_")
CLI_KEYS += ("puzzle_described", "puzzle_attempt", "sim_")


@pytest.mark.parametrize("key", sorted(k for k in MESSAGES["en"] if k.startswith(CLI_KEYS)))
def test_every_message_of_the_command_line_shows_every_parameter_in_french(key):
    def names(template: str) -> set[str]:
        return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}

    english, french = MESSAGES["en"][key], MESSAGES["fr"][key]
    assert french != english, key
    assert names(french) == names(english), key


def test_rami_simulate_prints_its_tables_in_french():
    code, out = _run(
        ["simulate", "--games", "1", "--lang", "fr", "--turn-cap", "30", "--round-cap", "2"], Path(".")
    )
    assert code == 0, out
    assert "victoires par place" in out and "taux de victoire" in out and "parties par seconde" in out
    assert "wins per seat" not in out and "games per second" not in out


@pytest.mark.skipif(
    not hasattr(click.exceptions, "NoSuchCommand"), reason="click before 8.4 names no unknown command"
)
def test_a_misspelt_command_is_told_in_french():
    code, out = _run(["plya", "--lang", "fr"], Path("."))
    assert code == 2 and "Commande inconnue 'plya' (vouliez-vous dire play" in out, out
    assert not CLICK_FRAME.search(out), out


def _typed_options(group: click.Group, prefix: str = ""):
    for name, cmd in sorted(group.commands.items()):
        words = f"{prefix} {name}".strip()
        if isinstance(cmd, click.Group):
            yield from _typed_options(cmd, words)
            continue
        for p in cmd.params:
            if isinstance(p, click.Option) and not p.is_flag and p.name != "lang":
                yield words, p


CLICK_TYPES = (click.IntRange, click.FloatRange, click.Choice, click.Path, click.File, click.DateTime)


def test_every_typed_option_is_refused_in_french_not_in_clicks_words(tmp_path):
    """click words what its types refuse in English; every option of every
    command uses rami's types (rami_core.cli.types), which say it in the
    language asked. Each option gets a value its type refuses."""
    from rami_core.cli import types

    # Click's own sentences for a refused value (click 8.x).
    clicks = re.compile(r"is not a valid|is not in the range|does not exist|is not one of|is a directory")
    tried = 0
    for command, p in _typed_options(main):
        if isinstance(p.type, CLICK_TYPES):
            assert isinstance(p.type, (types.IntRange, types.Choice, types.Path)), (command, p.name, p.type)
        if isinstance(p.type, click.IntRange):
            bad = "abc"
        elif isinstance(p.type, click.Choice):
            bad = "nosuch-choice"
        elif isinstance(p.type, click.Path) and p.type.exists:
            bad = str(tmp_path / "missing")
        else:
            continue
        option = max(p.opts, key=len)
        code, out = _run([*command.split(), "--lang", "fr", option, bad], tmp_path)
        assert code == 2 and "Valeur refusée pour" in out, (command, option, out)
        assert not clicks.search(out), (command, option, out)
        tried += 1
    assert tried >= 20
