"""Every terminal sink safe (issue 44): a name given with --names, typed in
hot seat, or a profile's name and description never reach the terminal as
raw control bytes (escape sequences, BEL, C1, bidi overrides)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.files.userfiles import visible

BAD = ["\x1b[31m", "\x07", "\x9b", "\x7f", "\u202e", "\u2066", "\x1b]0;title\x07"]
RAW = ["\x1b", "\x07", "\x9b", "\x7f", "\u202e", "\u2066"]


def _clean(text: str) -> None:
    for ch in RAW:
        assert ch not in text, repr(ch)


@pytest.mark.parametrize("bad", BAD)
def test_visible_drops_every_control(bad):
    _clean(visible(f"a{bad}b"))
    assert visible("Anne Lüc") == "Anne Lüc"


@pytest.mark.parametrize(
    "args", [["--names", "A\x1b[31mnne\x07,L\x9buc"], ["--hotseat", "--names", "A\x1b[2J,B\u202e\x07"]]
)
def test_play_names_are_shown_not_obeyed(args):
    r = CliRunner().invoke(main, ["play", "--seed", "1", *args], input="q\n")
    _clean(r.output)
    _clean(r.stderr if r.stderr_bytes is not None else "")


def test_a_profile_name_is_shown_not_obeyed(tmp_path):
    path = tmp_path / "evil.yaml"
    path.write_text(
        'extends: rami51\nname: "e\\e[31mvil\\a\\x9b\\u202e"\ndescription: "d\\e[2J"\n', encoding="utf-8"
    )
    for args in (["play", "--seed", "1", "--rules", str(path)], ["show", str(path)], ["validate", str(path)]):
        r = CliRunner().invoke(main, args, input="q\n")
        _clean(r.output)
