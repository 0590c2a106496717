"""Taking back a person's moves within a turn.

Each entry restores the game (rami_core.referee.engine.Game.checkpoint: state, log
and events) and what the screen had told, so a save made after an undo
replays. A stock draw clears the stack: the card drawn has been seen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Entry:
    checkpoint: Any
    shown: int
    recent: dict[int, list[Any]]
    turn_recent: list[Any]
    what: str


@dataclass
class UndoStack:
    entries: list[Entry] = field(default_factory=list)

    def push(self, entry: Entry) -> None:
        self.entries.append(entry)

    def pop(self) -> Entry | None:
        return self.entries.pop() if self.entries else None

    def clear(self) -> None:
        self.entries.clear()
