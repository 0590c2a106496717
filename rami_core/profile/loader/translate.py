"""Pydantic's validation errors as located problems.

Each error is mapped back to the file and line its value came from (the
locations recorded by :mod:`rami_core.profile.loader.safe_yaml` and carried through the
layers), with the nearest valid key or value suggested. Cross-field checks
arrive as ``(key path, message)`` pairs and are located by their key path.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from rami_core.profile.loader.layers import Layer
from rami_core.profile.loader.safe_yaml import KeyPath, Loc, dotted, suggest
from rami_core.profile.model import Profile, ProfileConflicts
from rami_core.words.errors import Problem, ProfileError
from rami_core.words.problems import Said, from_validation, kind_of, shown_value


def ordered(problems: list[Problem]) -> list[Problem]:
    """Problems without repeats, by file (first seen first), then line and column."""
    unique = list(dict.fromkeys(problems))
    order = {f: i for i, f in enumerate(dict.fromkeys(p.file for p in unique))}
    return sorted(unique, key=lambda p: (order[p.file], p.line or 0, p.column or 0))


def _data_prefix(data: Any, path: KeyPath) -> KeyPath:
    """The longest prefix of ``path`` that exists in ``data``."""
    for i, key in enumerate(path):
        if (isinstance(data, dict) and key in data) or (
            isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data)
        ):
            data = data[key]
        else:
            return path[:i]
    return path


def _untagged(loc: KeyPath, data: Any) -> KeyPath:
    """``loc`` without the union members' names pydantic puts in it where the
    value goes on below them (``description.Descriptions.de`` is the ``de``
    written under ``description``)."""
    out: list[Any] = []
    for i, key in enumerate(loc):
        if (isinstance(data, dict) and key in data) or (
            isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data)
        ):
            data = data[key]
        elif isinstance(key, str) and isinstance(data, dict) and i + 1 < len(loc) and loc[i + 1] in data:
            continue
        else:
            return (*out, *loc[i:])
        out.append(key)
    return tuple(out)


def merge_union_errors(errors: Iterable[Mapping[str, Any]], data: Any) -> list[dict[str, Any]]:
    """One error per value for a union field: pydantic gives one per union member,
    located below the value by the member's name (``plugins.x.bool``); the
    merged error's ``_kinds`` are what the members expect (from their types).

    A member the value has the type of is the one the writer meant: where
    one member's error is not about the type (a text too long, an unknown
    key inside a mapping), the other members' "not a text" / "not a mapping"
    are dropped and that error is said at the value itself."""
    out: list[dict[str, Any]] = []
    members: dict[KeyPath, list[dict[str, Any]]] = {}
    fitted: set[KeyPath] = set()
    for err in errors:
        raw = tuple(p for p in err["loc"] if p != "[key]")
        loc = _untagged(raw, data)
        if loc != raw:
            fitted.update(loc[:i] for i in range(1, len(loc)))
        if err["type"] == "extra_forbidden" or not loc:
            out.append(dict(err, loc=loc))
            continue
        inside = _data_prefix(data, loc)
        if inside == loc:
            out.append(dict(err, loc=loc))
            continue
        members.setdefault(inside, []).append(dict(err))
    for inside, errs in members.items():
        if inside in fitted or any(kind_of(str(e["type"])) is None for e in errs):
            out.extend(dict(e, loc=inside) for e in errs if kind_of(str(e["type"])) is None)
            continue
        kinds: list[Said] = []
        for e in errs:
            what = kind_of(str(e["type"]))
            if what is not None and what not in kinds:
                kinds.append(what)
        out.append(dict(errs[0], loc=inside, type="union", _kinds=kinds, input=_get_in(data, inside)))
    return out


def _get_in(data: Any, path: KeyPath) -> Any:
    for key in path:
        data = data[key]
    return data


def _unwrap(annotation: Any) -> Any:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return _unwrap(args[0])
    return annotation


def _model_at(path: KeyPath) -> type[BaseModel] | None:
    model: type[BaseModel] | None = Profile
    for key in path:
        if model is None or not isinstance(key, str) or key not in model.model_fields:
            return None
        ann = _unwrap(model.model_fields[key].annotation)
        if typing.get_origin(ann) in (typing.Union, types.UnionType):
            # A union with one model among its members (a text or a mapping): the mapping's keys are the model's.
            found = [a for a in typing.get_args(ann) if isinstance(a, type) and issubclass(a, BaseModel)]
            ann = found[0] if len(found) == 1 else None
        model = ann if isinstance(ann, type) and issubclass(ann, BaseModel) else None
    return model


def _annotation_at(path: KeyPath) -> Any:
    if not path:
        return Profile
    parent = _model_at(path[:-1])
    if parent is None or not isinstance(path[-1], str) or path[-1] not in parent.model_fields:
        return None
    return _unwrap(parent.model_fields[path[-1]].annotation)


def locate(path: KeyPath, layer: Layer, top: str) -> Loc:
    for i in range(len(path), -1, -1):
        if path[:i] in layer.locations:
            return layer.locations[path[:i]]
    return Loc(top)


def locate_setting(keys: str, layer: Layer, top: str) -> Loc:
    """Where a cross-field problem is shown: `keys` names the settings it
    involves, space-separated, most telling first (`opening.points
    deal.hand_size`); the first one the user's own file writes wins (a
    smaller hand makes the preset's opening unreachable: the hand's line is
    shown), else the first one's line wherever it is written."""
    paths = [tuple(k.split(".")) for k in keys.split()] or [()]
    found = [(path, layer.locations.get(path)) for path in paths]
    for _, loc in found:
        if loc is not None and loc.file == top:
            return loc
    return locate(paths[0], layer, top)


def problems_of(err: Mapping[str, Any], layer: Layer, top: str) -> list[Problem]:
    path: KeyPath = tuple(p for p in err["loc"] if p != "[key]")
    kind = err["type"]
    value = err.get("input")
    loc = locate(path, layer, top)
    key_path = dotted(path)

    if kind == "extra_forbidden":
        parent = _model_at(path[:-1])
        choices = list(parent.model_fields) if parent is not None else []
        if not path[:-1]:
            choices.append("extends")
        return [
            Problem(loc.file, loc.line, loc.column, key_path, Said("unknown_key"), suggest(path[-1], choices))
        ]

    conflicts = err.get("ctx", {}).get("error")
    if kind == "value_error" and not path and isinstance(conflicts, ProfileConflicts):
        out = []
        for key_path_text, message in conflicts.problems:
            at = locate_setting(key_path_text, layer, top)
            out.append(Problem(at.file, at.line, at.column, "", message))
        return out

    ann = _annotation_at(path)
    if kind == "enum" or (isinstance(ann, type) and issubclass(ann, enum.Enum) and kind != "missing"):
        choices = [m.value for m in ann] if isinstance(ann, type) and issubclass(ann, enum.Enum) else []
        expected = ", ".join(str(c) for c in choices) or str(err.get("ctx", {}).get("expected", ""))
        return [
            Problem(
                loc.file,
                loc.line,
                loc.column,
                key_path,
                Said("not_one_of", value=shown_value(value), choices=expected),
                suggest(value, choices) if isinstance(value, str) else None,
            )
        ]

    if kind == "union":
        kinds = tuple(err.get("_kinds") or ())
        message = Said("union", expected=kinds, value=shown_value(value)) if kinds else from_validation(err)
    else:
        message = from_validation(err)
    suggestion = None
    if ann is bool and isinstance(value, str):
        suggestion = suggest(value.lower(), ["true", "false"])
    return [Problem(loc.file, loc.line, loc.column, key_path, message, suggestion)]


MAX_PROBLEMS = 20  # problems reported for one profile; the rest are counted


def validation_problems(exc: ValidationError, layer: Layer, shown: str) -> ProfileError:
    """A pydantic error on a layered profile as one :class:`ProfileError`, every problem located.

    At most MAX_PROBLEMS are put in words (each with its suggestion, the
    costly part), then one line says how many more there are: a file of ten
    thousand mistakes is refused as fast as a file of one."""
    top = layer.locations.get((), Loc(shown))
    problems: list[Problem] = []
    errors = merge_union_errors(exc.errors(include_url=False), layer.data)
    for err in errors[:MAX_PROBLEMS]:
        problems.extend(problems_of(err, layer, top.file))
    out = ordered(problems)
    if len(errors) > MAX_PROBLEMS:
        more = len(errors) - MAX_PROBLEMS
        out.append(
            Problem(top.file, None, None, "", Said("more_problems" if more > 1 else "more_problem", n=more))
        )
    return ProfileError(out)


def located_plugin_problems(exc: ProfileError, layer: Layer, shown: str) -> ProfileError:
    """Plugin problems (key paths under ``plugins``) located at the nearest written key."""
    top = layer.locations.get((), Loc(shown))
    located = []
    for p in exc.problems:
        path: KeyPath = tuple(p.key_path.split(".")) if p.key_path else ()
        loc = None
        while path and loc is None:
            loc = layer.locations.get(path)
            path = path[:-1]
        loc = loc or top
        located.append(Problem(loc.file, loc.line, loc.column, p.key_path, p.message, p.suggestion))
    return ProfileError(ordered(located))


def located_warnings(warnings: Iterable[tuple[str, Said]], layer: Layer, shown: str) -> list[Problem]:
    """A profile's warnings (key path, what it says) at the line of their setting."""
    top = layer.locations.get((), Loc(shown))
    out = []
    for key_path_text, message in warnings:
        at = locate_setting(key_path_text, layer, top.file)
        out.append(Problem(at.file, at.line, at.column, "", message))
    return ordered(out)
