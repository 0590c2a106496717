"""Where the game is shown and commands come from.

With a terminal on stdin the player types at a prompt; otherwise commands
are read line by line (a scripted game) and echoed after the prompt, so a
transcript reads like a session at the keyboard.

A turn clock needs a read that can end without input: stdin is then read
through ``select`` with a deadline, line by line from our own buffer (so
that no line typed ahead is lost between two reads), and on a terminal the
clock line above the prompt counts down every second without touching what
the player is typing. A timeout returns :data:`TIMEOUT`; a whole line typed
before it (Enter pressed) stays in the buffer and is read at the next prompt,
never thrown away. What was typed without Enter is dropped at the timeout: on
a terminal the kernel holds that unsent text, and kept it would be glued to
the next command (`m 10Co`, timeout, `q` Enter read as `m 10Coq`).
"""

from __future__ import annotations

import contextlib
import os
import select
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

from rich.console import Console
from rich.text import Text

from rami_core.files.userfiles import visible

TIMEOUT = "\x00timeout"


class _LineReader:
    """Whole lines from a file descriptor, waiting at most until a deadline."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = b""
        self.closed = False

    def pending(self) -> bool:
        return b"\n" in self.buffer

    def _take(self) -> str:
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace") + "\n"

    def read(self, deadline: float | None, tick: Callable[[], None] | None = None) -> str | None:
        """A line ("" at the end of input), or None when the deadline passed."""
        while True:
            if self.pending():
                return self._take()
            if self.closed:
                rest, self.buffer = self.buffer, b""
                return rest.decode("utf-8", "replace")
            wait = None if deadline is None else deadline - time.monotonic()
            if wait is not None and wait <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], None if wait is None else min(wait, 1.0))
            if not ready:
                if tick is not None:
                    tick()
                continue
            chunk = os.read(self.fd, 4096)
            if not chunk:
                self.closed = True
            self.buffer += chunk

    def drop_unsent(self) -> None:
        """At a timeout on a terminal: keep the whole lines already sent, drop
        the text typed without Enter (the kernel's pending line, and any part
        line read), so that it never sticks to the next command."""
        if not os.isatty(self.fd):
            return  # a pipe or a file: its bytes are a script, none of them unsent typing
        with contextlib.suppress(OSError, ValueError):
            while not self.closed and select.select([self.fd], [], [], 0)[0]:
                chunk = os.read(self.fd, 4096)
                if not chunk:
                    self.closed = True
                self.buffer += chunk
            import termios

            termios.tcflush(self.fd, termios.TCIFLUSH)
        self.buffer = self.buffer[: self.buffer.rfind(b"\n") + 1]


class Terminal:
    def __init__(
        self,
        console: Console,
        *,
        interactive: bool,
        delay: float = 0.0,
        read_line: Callable[[], str] | None = None,
    ):
        self.console = console
        self.interactive = interactive
        self.delay = delay
        self._read_line = read_line
        self._reader: _LineReader | None = None
        if read_line is None:
            try:
                self._reader = _LineReader(sys.stdin.fileno())
            except (AttributeError, ValueError, OSError):
                self._read_line = sys.stdin.readline

    @property
    def can_time_out(self) -> bool:
        """Whether a read can end by the clock (not with a line-reading callback)."""
        return self._reader is not None

    def show(self, items: Iterable[Any]) -> None:
        for item in items:
            self.console.print(item)
        self.flush()

    def line(self, item: Any) -> None:
        self.console.print(item)
        self.flush()

    def flush(self) -> None:
        with contextlib.suppress(AttributeError, ValueError, OSError):
            self.console.file.flush()

    def clear(self) -> None:
        if self.interactive and self.console.is_terminal:
            self.console.clear()

    def pause(self) -> None:
        if self.delay > 0:
            time.sleep(self.delay)

    def read(
        self,
        prompt: str,
        *,
        deadline: float | None = None,
        clock: Callable[[int], str] | None = None,
    ) -> str | None:
        """One line, None at the end of input (or ^C / ^D at a terminal), or
        TIMEOUT when `deadline` (time.monotonic) passed first. `clock` writes
        the seconds left; on a terminal its line is kept up to date."""
        if clock is not None and deadline is not None:
            self.console.print(Text(clock(max(0, round(deadline - time.monotonic()))), style="yellow"))
        self.console.print(Text(prompt, style="bold"), end="")
        self.flush()
        tick = None
        if clock is not None and deadline is not None and self.interactive and self.console.is_terminal:
            tick = lambda: self._update_clock(clock(max(0, round(deadline - time.monotonic()))))  # noqa: E731
        try:
            if self._reader is not None:
                line = self._reader.read(deadline, tick)
            else:
                line = self._read_line() if self._read_line else ""
        except KeyboardInterrupt:
            line = ""
        if line is None:
            if self._reader is not None:
                self._reader.drop_unsent()
            self.console.print()
            return TIMEOUT
        if not line:
            self.console.print()
            return None
        line = line.rstrip("\r\n")
        if not self.interactive:
            self.console.print(visible(line), markup=False, highlight=False, emoji=False)
        return line

    def _update_clock(self, text: str) -> None:
        """Rewrite the clock line just above the prompt, the cursor left where the player types."""
        out = self.console.file
        try:
            out.write(f"\x1b7\x1b[1A\r\x1b[2K\x1b[33m{text}\x1b[0m\x1b8")
            out.flush()
        except (ValueError, OSError):
            pass
