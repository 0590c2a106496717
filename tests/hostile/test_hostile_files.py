"""Every file rami writes or reads on a user's word is handled safely (issue
23, item 5, the class beyond `rami play --save`): `rami diff --scenarios`
writes through a unique temporary file then a rename, `rami puzzle
collection --out` appends without following a link, and neither it nor
`rami puzzle check` hangs on a FIFO: a target that is not a regular file is
refused in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rami_core.cli import main
from rami_core.puzzles.collection import build
from rami_core.puzzles.format import PuzzleError, read_file
from tests.hostile.support import assert_refused, run_rami


def _plant(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """A target of the given kind, and the victim a link would reach."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    target = tmp_path / "out.yaml"
    if kind == "symlink":
        target.symlink_to(victim)
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    return target, victim


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder"])
def test_diff_scenarios_refuses_a_target_that_is_not_a_file(tmp_path, kind):
    target, victim = _plant(tmp_path, kind)
    code = 2 if kind == "folder" else 1  # a folder: click's own usage error
    out = assert_refused(run_rami("diff", "rami51", "rami51", "--scenarios", str(target)), code)
    assert "Traceback" not in out and str(target) in out
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_diff_scenarios_leaves_a_planted_tmp_alone(tmp_path):
    target = tmp_path / "out.yaml"
    planted = tmp_path / "out.yaml.tmp"
    planted.write_text("not rami's\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["diff", "rami51", "rami51", "--scenarios", str(target)])
    assert r.exit_code == 0, r.output
    assert target.read_text(encoding="utf-8") == "" and planted.read_text(encoding="utf-8") == "not rami's\n"


@pytest.mark.parametrize("kind", ["symlink", "fifo", "folder"])
def test_a_puzzle_collection_is_never_appended_through_a_link_or_a_fifo(tmp_path, kind):
    target, victim = _plant(tmp_path, kind)
    with pytest.raises(PuzzleError) as info:
        build(target, per_grade=1, seed=1, attempts=1)
    assert str(target) in str(info.value)
    assert victim.read_text(encoding="utf-8") == "precious\n"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_reading_a_puzzle_file_that_is_not_a_file_never_hangs(tmp_path, kind):
    target, _ = _plant(tmp_path, kind)
    with pytest.raises(PuzzleError) as info:
        read_file(target)
    assert str(target) in str(info.value)
    out = assert_refused(run_rami("puzzle", "check", str(target)))
    assert str(target) in out
