"""Saved games: the profile, the seed and the action log, plus a snapshot.

A save is replayed, not trusted: loading deals the game again from its seed,
plays every logged action through the engine, and checks that the result is
the snapshot. A save that is corrupt, tampered with or written by another
format is refused with a clear error and nothing is half-loaded: the game
object is returned only once the whole replay has matched.

The deal is reproducible across versions because every shuffle uses
Python's Mersenne Twister seeded with a string naming the seed and the
event (`rami_core.referee.seeds.rng_for`); changing that is a format change.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rami_core import __version__
from rami_core.cards import CardError
from rami_core.files.userfiles import (
    MAX_INT_DIGITS,
    FileRefused,
    cut,
    loads_json,
    path_problem,
    read_text,
    short,
    write_text_safely,
)
from rami_core.game.actions import ActionFormatError, NextRound, action_from_dict, action_to_dict
from rami_core.game.state import GameState
from rami_core.profile.hooks import PluginError
from rami_core.profile.model import Profile
from rami_core.referee.engine import Game
from rami_core.words.errors import Located, ProfileError, RamiError, Refused, RuleError
from rami_core.words.problems import Said, from_validation, said

SAVE_FORMAT = "rami-save"
SAVE_VERSION = 1
MAX_SAVE_BYTES = 16 * 1024 * 1024


class SaveError(RamiError, ValueError):
    """A saved game that cannot be loaded or written; says what is wrong with it.
    Its message is a :class:`~rami_core.words.problems.Said` (``said``: a code
    with its parameters, worded in any language; ``str()`` the English).
    ``reason`` is the cause alone, without the path (set when writing failed)."""

    reason: str = ""

    @property
    def said(self) -> Said:
        return said(self.args[0]) if self.args else Said("text", text="")


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


def _save_failed(path: str | Path, reason: str) -> SaveError:
    error = SaveError(Said("save_cannot_write", path=cut(str(path), 200), reason=said(reason)))
    error.reason = reason
    return error


def save(game: Game, path: str | Path, extra: dict[str, Any] | None = None) -> None:
    """Write the save atomically: a temporary file beside the target, then a rename.

    Raises :class:`SaveError` naming the reason (a folder, no such folder, no
    permission, a NUL byte...), and leaves no file behind when it fails."""
    problem = path_problem(path)
    if problem is not None:
        raise _save_failed(path, problem)
    target = Path(path)
    if not target.name or target.name in (".", "..") or str(path).endswith(("/", os.sep)) or target.is_dir():
        raise _save_failed(path, Said("save_is_folder"))
    text = json.dumps(to_save(game, extra=extra), indent=1, ensure_ascii=False)
    try:
        write_text_safely(target, text)  # a unique temporary file, then a rename
    except FileRefused as e:
        raise _save_failed(path, e.reason) from None
    except OSError as e:
        raise _save_failed(path, Said("text", text=(e.strerror or type(e).__name__).lower())) from None


def from_save(data: Any, *, plugins=(), check_digest: bool = True) -> Game:
    """The game a save describes, replayed and checked; :class:`SaveError` for anything else.

    Every field is checked for its type before use, and any other error met while
    replaying a hostile save is reported as a SaveError too: loading a save either
    gives a game or says why not."""
    try:
        return _from_save(data, plugins=plugins, check_digest=check_digest)
    except SaveError:
        raise
    except PluginError as e:
        raise SaveError(Said("save_replay_failed", detail=e.said)) from None
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as e:
        raise SaveError(Said("save_malformed", error=_error_text(e))) from None


def _error_text(e: BaseException) -> Said:
    """An exception met reading a hostile save, as the program's own words."""
    return Said("text", text=f"{type(e).__name__}: {cut(str(e), 120)}")


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _from_save(data: Any, *, plugins=(), check_digest: bool = True) -> Game:
    if not isinstance(data, dict):
        raise SaveError(Said("save_not_object"))
    if data.get("format") != SAVE_FORMAT:
        raise SaveError(Said("save_format", value=short(data.get("format")), expected=repr(SAVE_FORMAT)))
    version = data.get("version")
    if not _int(version) or version != SAVE_VERSION:  # `true` and `1.0` are not the integer 1
        raise SaveError(Said("save_version", value=short(version), version=SAVE_VERSION))
    missing = [k for k in ("profile", "players", "seed", "log", "snapshot") if k not in data]
    if missing:
        raise SaveError(Said("save_missing", keys=", ".join(missing)))
    if check_digest:
        body = {k: v for k, v in data.items() if k != "sha256"}
        if not isinstance(data.get("sha256"), str) or data.get("sha256") != _digest(body):
            raise SaveError(Said("save_checksum"))
    if not isinstance(data["profile"], dict):
        raise SaveError(Said("save_profile_not_mapping"))
    try:
        profile = Profile.model_validate(data["profile"])
    except ValidationError as e:
        err = e.errors(include_url=False)[0]
        where = ".".join(map(str, err["loc"]))
        detail = from_validation(err)  # by pydantic's error type, never its English msg
        raise SaveError(
            Said("save_profile_invalid", detail=Said("at", where=where, detail=detail) if where else detail)
        ) from None
    players, seed = data["players"], data["seed"]
    if not _int(players) or not profile.allows_players(players):
        raise SaveError(Said("save_bad_players", value=short(players)))
    if seed is not None and (not _int(seed) or len(str(abs(seed))) > MAX_INT_DIGITS):
        raise SaveError(Said("save_bad_seed", value=short(seed)))
    if not isinstance(data["log"], list):
        raise SaveError(Said("save_log_not_list"))
    try:
        game = Game.new(profile, players, seed=seed, plugins=plugins)
    except ProfileError as e:  # a plugin the profile names is unknown here, or its settings are bad
        raise SaveError(Said("save_profile_invalid", detail=Located(e))) from None
    for i, entry in enumerate(data["log"], start=1):
        try:
            if entry == {"next_round": True}:
                game.next_round()
            else:
                game.apply(action_from_dict(entry))
        except (ActionFormatError, CardError) as e:
            raise SaveError(Said("save_action_unreadable", n=i, detail=e.said)) from None
        except RuleError as e:
            message = Said(
                "save_action_refused", n=i, action=short(entry, 80), error_code=e.code, refusal=Refused(e)
            )
            raise SaveError(message) from None
        except (TypeError, AttributeError):
            raise SaveError(Said("save_action_malformed", n=i, action=short(entry, 80))) from None
    try:
        snapshot = GameState.from_dict(data["snapshot"]).to_json()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, CardError) as e:
        raise SaveError(Said("save_snapshot_unreadable", error=_error_text(e))) from None
    if snapshot != game.state.to_json():
        raise SaveError(Said("save_snapshot_differs"))
    return game


def read_save_data(path: str | Path) -> Any:
    """The JSON of a save file, read by the safe reader (a regular file, size and digits capped)."""
    shown = cut(str(path), 200)
    try:
        text = read_text(path, MAX_SAVE_BYTES)
    except FileRefused as e:
        reason = said(e.reason)
        if reason.code in ("file_too_large", "file_too_large_mib"):
            reason = Said("save_too_large", detail=reason)
        raise SaveError(Said("save_cannot_read", path=shown, reason=reason)) from None
    try:
        return loads_json(text)
    except ValueError as e:
        detail = e.args[0] if e.args and isinstance(e.args[0], Said) else Said("text", text=str(e))
        raise SaveError(Said("save_not_json", path=shown, detail=detail)) from None


def load_with_data(path: str | Path, *, plugins=()) -> tuple[Game, dict[str, Any]]:
    """The game of a save file and the file's whole mapping (for an app's own keys), read once."""
    data = read_save_data(path)
    try:
        return from_save(data, plugins=plugins), data
    except SaveError as e:
        raise SaveError(Said("at", where=cut(str(path), 200), detail=e.said)) from None


def load(path: str | Path, *, plugins=()) -> Game:
    return load_with_data(path, plugins=plugins)[0]


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


__all__ = [
    "NextRound",
    "SaveError",
    "from_save",
    "load",
    "load_with_data",
    "read_save_data",
    "save",
    "seat_record",
    "to_save",
]
