"""The turn clock of `rami play` (--clock): off unless asked for; when on,
the seconds left count down on the screen and the turn ends when time runs
out, with no key pressed; a command typed in time is played."""

from __future__ import annotations

import io
import os
import re
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

pytestmark = pytest.mark.filterwarnings("ignore:setDaemon:DeprecationWarning")
ANSI = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|[78])")


def spawn(*args: str) -> pexpect.spawn:
    """`rami play` on a pseudo-terminal; everything it writes is kept in `child.logfile_read`."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update({"PYTHONUTF8": "1", "TERM": "xterm", "NO_COLOR": "1"})
    child = pexpect.spawn(
        sys.executable,
        ["-m", "rami_core.cli", "play", "--variant", "rami51", "--bots", "greedy", "--delay", "0", *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 160),
    )
    child.logfile_read = io.StringIO()
    return child


def test_the_clock_fires_without_input_and_counts_down():
    """Three of our turns in one game: nothing typed, then text typed without
    Enter (`m 10Co`: the next prompt must read `d`, not `m 10Cod`), then a
    command typed in time."""
    child = spawn("--seed", "3", "--clock", "2")
    child.expect(r"clock: 2 s per turn, 2 s left")
    child.expect(r"> ")
    # Nothing is typed: the clock ends the turn by itself.
    child.expect(r"Time is up for You: the turn ends by the clock\.", timeout=10)
    child.expect(r"You run out of time")
    seen = child.logfile_read.getvalue()
    assert "\x1b7" in seen and (
        "1 s left" in seen or "0 s left" in seen
    )  # the clock line rewritten as time ran
    # The bot plays, and the next turn starts with a full clock.
    child.expect(r"clock: 2 s per turn, 2 s left", timeout=30)
    child.expect(r"> ")
    child.send("m 10Co")  # typed, no Enter: dropped when the clock runs out
    child.expect(r"Time is up for You: the turn ends by the clock\.", timeout=10)
    child.expect(r"clock: 2 s per turn, 2 s left", timeout=30)  # the bot played: our turn again
    child.expect(r"> ")
    child.sendline("d")  # typed in time: played, not thrown away
    child.expect([r"You draw ", "not understood", "is not a card", "Unknown"])
    assert child.after == "You draw ", ANSI.sub("", child.before)
    child.sendline("q")
    child.expect("Save the game before leaving")
    child.sendline("")
    child.expect(pexpect.EOF)
    child.close()


def test_no_clock_unless_asked_and_quit_offers_to_save(tmp_path):
    child = spawn("--seed", "3")
    child.expect(r"> ")
    assert "clock" not in ANSI.sub("", child.before)
    child.sendline("q")
    child.expect(r"Save the game before leaving\? \[y/N\]")
    # A pasted command is not an answer to a yes/no question: asked again, nothing created.
    child.sendline("clear; time pytest -q 2>&1 | tail -15")
    child.expect("Answer y")
    child.sendline("y")
    child.expect(r"File name \[")
    child.sendline("rm -rf *; echo")  # not a file name either: asked again
    child.expect("That is not a file name")
    child.sendline(str(tmp_path / "kept"))
    child.expect("Game saved to")
    child.expect(pexpect.EOF)
    assert (tmp_path / "kept.json").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.json"]
