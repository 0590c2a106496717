"""Saved games of `rami play`: the savegame format plus who sits where.

The file is read once: its JSON gives both the game (checked against its
snapshot by rami_core.savegame) and the seating and names `rami play` adds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..engine import Game
from ..savegame import MAX_SAVE_BYTES, SaveError, from_save, to_save


def write_save(game: Game, path: str | Path, seats: list[dict[str, Any]], lang: str) -> None:
    """Write atomically (a temporary file renamed), so a crash leaves the last good save."""
    data = to_save(game, extra={"play": {"seats": seats, "lang": lang}})
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(target)


def read_save(path: str | Path) -> tuple[Game, dict[str, Any]]:
    """The game and its seating (empty if the save has none)."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(f"{p}: too large for a saved game")
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise SaveError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{p}: not a saved game (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        raise SaveError(f"{p}: not a saved game (bad JSON at line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise SaveError(f"{p}: not a saved game (JSON nested too deeply)") from None
    try:
        game = from_save(data)
    except SaveError as e:
        raise SaveError(f"{p}: {e}") from None
    play = data.get("play") if isinstance(data, dict) else None
    return game, play if isinstance(play, dict) else {}
