"""Saved games: the profile, the seed and the action log, plus a snapshot.

A save is replayed, not trusted: loading deals the game again from its seed,
plays every logged action through the engine, and checks that the result is
the snapshot. A save that is corrupt, tampered with or written by another
format is refused with a clear error and nothing is half-loaded: the game
object is returned only once the whole replay has matched.

The deal is reproducible across versions because every shuffle uses
Python's Mersenne Twister seeded with a string naming the seed and the
event (`rami_core.engine.rng_for`); changing that is a format change.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from . import __version__
from .actions import ActionFormatError, NextRound, action_from_dict, action_to_dict
from .cards import CardError
from .engine import Game
from .errors import ProfileError, RamiError, RuleError
from .profile import Profile
from .state import GameState

SAVE_FORMAT = "rami-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 16 * 1024 * 1024


class SaveError(RamiError, ValueError):
    """A saved game that cannot be loaded; says what is wrong with it."""


def _digest(body: dict[str, Any]) -> str:
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def to_save(game: Game, seed: int | None = None, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The referee's record of a game (it holds the seed: not for players' eyes).
    `extra`: an app's own keys (who sits where...), covered by the checksum."""
    body = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "rami": __version__,
        "profile": game.profile.model_dump(mode="json"),
        "players": game.rules.players,
        "seed": game.state.seed if seed is None else seed,
        "log": [action_to_dict(a) for a in game.log],
        "snapshot": game.state.to_dict(),
        **(extra or {}),
    }
    return {**body, "sha256": _digest(body)}


def save(game: Game, path: str | Path) -> None:
    data = to_save(game)
    tmp = Path(path).with_suffix(Path(path).suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)  # never leave a half-written save behind


def from_save(data: Any, *, plugins=(), check_digest: bool = True) -> Game:
    if not isinstance(data, dict):
        raise SaveError("not a saved game: expected a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a saved game: format is {data.get('format')!r}, expected {SAVE_FORMAT!r}")
    version = data.get("version")
    if version != SAVE_VERSION:
        raise SaveError(
            f"saved game format version {version!r} is not supported (this rami reads version {SAVE_VERSION})"
        )
    missing = [k for k in ("profile", "players", "seed", "log", "snapshot") if k not in data]
    if missing:
        raise SaveError(f"saved game is missing {', '.join(missing)}")
    if check_digest:
        body = {k: v for k, v in data.items() if k != "sha256"}
        if data.get("sha256") != _digest(body):
            raise SaveError("saved game is corrupt or was edited: its checksum does not match its content")
    try:
        profile = Profile.model_validate(data["profile"])
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        where = ".".join(map(str, err["loc"]))
        raise SaveError(
            f"saved game's profile is invalid: {where + ': ' if where else ''}{err['msg']}"
        ) from None
    players, seed = data["players"], data["seed"]
    if isinstance(players, bool) or not isinstance(players, int) or not profile.allows_players(players):
        raise SaveError(f"saved game has a bad player count: {players!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise SaveError(f"saved game has a bad seed: {seed!r}")
    if not isinstance(data["log"], list):
        raise SaveError("saved game's log is not a list")
    try:
        game = Game.new(profile, players, seed=seed, plugins=plugins)
    except ProfileError as e:  # a plugin the profile names is unknown here, or its settings are bad
        raise SaveError(f"saved game's profile is invalid: {e}") from None
    for i, entry in enumerate(data["log"], start=1):
        try:
            if entry == {"next_round": True}:
                game.next_round()
            else:
                game.apply(action_from_dict(entry))
        except (ActionFormatError, CardError) as e:
            raise SaveError(f"saved game's action {i} is unreadable: {e}") from None
        except RuleError as e:
            raise SaveError(
                f"saved game's action {i} ({entry}) is refused on replay: {e.code}: {e.message}"
            ) from None
        except (TypeError, AttributeError):
            raise SaveError(f"saved game's action {i} is malformed: {entry!r}") from None
    try:
        snapshot = GameState.from_dict(data["snapshot"]).to_json()
    except (KeyError, TypeError, ValueError, CardError) as e:
        raise SaveError(f"saved game's snapshot is unreadable: {e}") from None
    if snapshot != game.state.to_json():
        raise SaveError("saved game does not replay to its snapshot: the log or the snapshot was changed")
    return game


def load(path: str | Path, *, plugins=()) -> Game:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_SAVE_BYTES:
            raise SaveError(f"{p}: too large for a saved game")
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise SaveError(f"{p}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{p}: not a saved game (not UTF-8 text)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SaveError(f"{p}: not a saved game (bad JSON at line {e.lineno}: {e.msg})") from None
    except RecursionError:
        raise SaveError(f"{p}: not a saved game (JSON nested too deeply)") from None
    try:
        return from_save(data, plugins=plugins)
    except SaveError as e:
        raise SaveError(f"{p}: {e}") from None


def seat_record(game: Game, seat: int) -> dict[str, Any]:
    """What may be handed to one player: its view and its own event stream;
    never the seed, the stock or another hand."""
    return {
        "format": "rami-seat-record",
        "version": SAVE_VERSION,
        "seat": seat,
        "view": game.view(seat).to_dict(),
        "events": [e.for_seat(seat).to_dict() for e in game.events],
    }


__all__ = ["NextRound", "SaveError", "from_save", "load", "save", "seat_record", "to_save"]
