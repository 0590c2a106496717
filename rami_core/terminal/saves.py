"""Saved games of `rami play`: the savegame format plus who sits where.

The file is read once (rami_core.players.savegame.load_with_data): its JSON gives both
the game (checked against its snapshot) and the seating and names `rami play`
adds. Writing goes through rami_core.players.savegame.save (atomic, errors as
SaveError with the cause alone in ``reason``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rami_core.referee.engine import Game


def write_save(game: Game, path: str | Path, seats: list[dict[str, Any]], lang: str) -> None:
    from rami_core.players.savegame import save

    save(game, path, extra={"play": {"seats": seats, "lang": lang}})


def read_save(path: str | Path) -> tuple[Game, dict[str, Any]]:
    """The game and its seating (empty if the save has none)."""
    from rami_core.players.savegame import load_with_data

    game, data = load_with_data(path)
    play = data.get("play") if isinstance(data, dict) else None
    return game, play if isinstance(play, dict) else {}
