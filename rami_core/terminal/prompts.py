"""Questions the terminal game asks outside a turn, each with a closed set of answers.

A line typed (or pasted) at a question is taken only when it is an answer to
that question: "yes"/"no" words at a yes/no question, Enter or a quit word at
"press Enter", a plain file name at "file name". Anything else is refused with
a word on what is expected and the question is asked again, a few times; then
the question's default (never the risky choice) is taken. A pasted shell
command therefore never becomes a file name or a decision.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from rami_core.terminal.console import TIMEOUT, Terminal

YES_WORDS = ("y", "yes", "o", "oui")
NO_WORDS = ("n", "no", "non")
QUIT_WORDS = ("q", "quit", "exit", "quitter")
TRIES = 3
# Characters no save-file name of ours needs, and that mark a line as
# something else (a shell command, a pattern, a redirection).
_NOT_IN_A_NAME = set(";|&$`<>*?\"'\\!{}()[]#~=%^")
MAX_NAME = 120
NAME_LIMIT = 40  # a player's name typed at the hot-seat prompt


def saves_dir() -> Path:
    """Where `rami play` proposes to keep saved games: the XDG data folder."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "rami" / "saves"


def default_save_path(variant: str, now: float | None = None) -> Path:
    stamp = time.strftime("%Y-%m-%d-%H%M%S", time.localtime(now))
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in variant)[:40] or "game"
    return saves_dir() / f"{safe}-{stamp}.json"


def save_name_problem(line: str) -> str | None:
    """Why a line is not a save-file name (a message key), or None if it is one."""
    if len(line) > MAX_NAME:
        return "save_name_long"
    if not line.isprintable() or any(ch in _NOT_IN_A_NAME for ch in line):
        return "save_name_chars"
    if line.startswith("-") or "  " in line or len(line.split()) > 3:
        return "save_name_chars"
    return None


def save_path_from(line: str) -> Path:
    """A typed name as a path: a bare name goes into the saves folder, `.json` added when it has no suffix."""
    path = Path(line)
    if not path.suffix:
        path = path.with_name(path.name + ".json")
    if len(path.parts) == 1:
        path = saves_dir() / path
    return path


class Questions:
    """The closed questions of a session, asked on its terminal in its language."""

    def __init__(self, term: Terminal, msg: Callable[..., str], say: Callable[..., None]):
        self.term = term
        self.msg = msg
        self.say = say

    def yes_no(self, key: str, **kw: object) -> bool:
        """A yes/no question whose default (Enter, end of input, timeout, no answer) is no."""
        for _ in range(TRIES):
            line = self.term.read(self.msg(key, **kw) + self.msg("yes_no_hint"))
            if line is None or line == TIMEOUT:
                return False
            word = line.strip().lower()
            if word in YES_WORDS:
                return True
            if word in NO_WORDS or not word:
                return False
            self.say("answer_yes_no", "yellow")
        return False

    def enter_or_quit(self, key: str) -> bool:
        """True to go on (Enter), False to quit (a quit word, end of input)."""
        while True:
            line = self.term.read(self.msg(key))
            if line is None:
                return False
            word = line.strip().lower()
            if line == TIMEOUT or not word:
                return True
            if word in QUIT_WORDS:
                return False
            self.say("answer_enter", "yellow")

    def save_path(self, default: Path) -> Path | None:
        """A file to save into (Enter takes `default`), or None to leave without saving."""
        for _ in range(TRIES):
            line = self.term.read(self.msg("save_name_prompt", default=str(default)))
            if line is None or line == TIMEOUT:
                return None
            typed = line.strip()
            if not typed:
                path = default
            else:
                problem = save_name_problem(typed)
                if problem is not None:
                    self.say(problem, "yellow", limit=MAX_NAME)
                    continue
                path = save_path_from(typed)
            if path.exists():
                self.say("save_exists", "yellow", path=str(path))
                continue
            return path
        return None

    def name(self, default: str, limit: int, **kw: object) -> str:
        """A player's name: Enter keeps `default`; a line with control characters or too long is asked again."""
        for _ in range(TRIES):
            line = self.term.read(self.msg("name_prompt", default=default, **kw))
            if line is None or line == TIMEOUT:
                return default
            typed = " ".join(line.split())
            if not typed:
                return default
            if typed.isprintable() and len(typed) <= limit:
                return typed
            self.say("name_refused", "yellow", limit=limit)
        return default
