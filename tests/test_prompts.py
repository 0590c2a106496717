"""The terminal game's closed questions take only their answers (rami_core/terminal/prompts.py)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from rami_core.terminal.console import Terminal
from rami_core.terminal.prompts import (
    NAME_LIMIT,
    Questions,
    default_save_path,
    save_name_problem,
    save_path_from,
)
from rami_core.words.messages import Messages

PASTED = [
    "clear; time pytest -q 2>&1 | tail -15",
    "rm -rf ~",
    "$(reboot)",
    "`id`",
    "a > b",
    "cat x | sh",
    "--help",
    "x\x1b[31m",
    "a" * 500,
]


def questions(lines: list[str], lang: str = "en") -> tuple[Questions, list[str]]:
    feed = iter(line + "\n" for line in lines)
    out = io.StringIO()
    term = Terminal(
        Console(file=out, width=200), interactive=True, read_line=lambda: next(feed, "")
    )  # "" is the end of input
    msg = Messages(lang)
    said: list[str] = []
    return Questions(term, msg, lambda key, style="", **kw: said.append(key)), said


@pytest.mark.parametrize("line", PASTED)
def test_a_pasted_line_is_never_a_save_name(line):
    assert save_name_problem(line) is not None


@pytest.mark.parametrize("line", ["kept", "kept.json", "saves/monday night.json", "/tmp/rami/a-b_c.json"])
def test_plain_names_are_save_names(line):
    assert save_name_problem(line) is None


def test_yes_no_defaults_to_no_and_reasks_on_anything_else():
    ask, said = questions([""])
    assert ask.yes_no("save_offer") is False
    ask, said = questions([])  # end of input
    assert ask.yes_no("save_offer") is False
    ask, said = questions([PASTED[0], "y"])
    assert ask.yes_no("save_offer") is True and said == ["answer_yes_no"]
    ask, said = questions(["oui"], "fr")
    assert ask.yes_no("save_offer") is True
    ask, said = questions(PASTED[:5])  # never answered: the default, no
    assert ask.yes_no("save_offer") is False and said == ["answer_yes_no"] * 3


def test_save_path_enter_takes_the_default_in_the_saves_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    default = default_save_path("rami51", now=0)
    assert default.parent == tmp_path / "rami" / "saves" and default.suffix == ".json"
    ask, _ = questions([""])
    assert ask.save_path(default) == default
    assert save_path_from("monday") == tmp_path / "rami" / "saves" / "monday.json"


def test_save_path_refuses_commands_and_existing_files(tmp_path):
    taken = tmp_path / "taken.json"
    taken.write_text("{}")
    ask, said = questions([PASTED[0], str(taken), str(tmp_path / "new")])
    assert ask.save_path(tmp_path / "default.json") == tmp_path / "new.json"
    assert said == ["save_name_chars", "save_exists"]
    ask, said = questions(PASTED[:3])
    assert ask.save_path(tmp_path / "default.json") is None  # three wrong answers: nothing saved
    assert not list(Path(tmp_path).glob("*clear*"))


def test_enter_or_quit_takes_only_enter_or_a_quit_word():
    ask, said = questions(["m 10Co", ""])
    assert ask.enter_or_quit("continue_prompt") is True and said == ["answer_enter"]
    ask, said = questions(["quitter"])
    assert ask.enter_or_quit("continue_prompt") is False
    ask, said = questions([])
    assert ask.enter_or_quit("continue_prompt") is False


def test_name_prompt_keeps_the_default_for_control_characters():
    ask, said = questions(["\x1b]0;owned\x07", "Anne"])
    assert ask.name("Player 1", NAME_LIMIT, n=1) == "Anne" and said == ["name_refused"]
    ask, said = questions([""])
    assert ask.name("Player 1", NAME_LIMIT, n=1) == "Player 1"
