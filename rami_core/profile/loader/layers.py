"""Layering a profile: ``extends`` chains, a scenario's ``rules`` and ``--set``.

``extends:`` names a preset or a path relative to the file; the parent is
resolved first (recursively, cycles refused, only inside the first file's folder
and the presets), then the child is deep-merged over it: mappings merge key by
key, lists and scalars replace. Scenario ``rules`` and ``--set key.path=value``
(value parsed as YAML) are merged last, in order. Every value keeps the location
it was written at, so a validation error can point at the right file and line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rami_core.files import resources
from rami_core.files.userfiles import path_problem, short
from rami_core.profile.loader.safe_yaml import (
    MAX_DEPTH,
    MAX_EXTENDS,
    MAX_PROFILE_VALUES,
    KeyPath,
    Loc,
    YamlDoc,
    display_path,
    dotted,
    load_yaml_file,
    load_yaml_text,
    suggest,
)
from rami_core.words.errors import Problem, ProfileError
from rami_core.words.problems import Said


def _path_like(text: str) -> bool:
    return (
        "/" in text
        or os.sep in text
        or (os.altsep is not None and os.altsep in text)
        or text.startswith(".")
        or text.lower().endswith((".yaml", ".yml"))
    )


def _inside(path: Path, folders: Iterable[Path]) -> bool:
    return any(path == f or path.is_relative_to(f) for f in folders)


def _preset_file(name: str, problem_at: Loc, key_path: str) -> Path:
    # A name is a preset, a bundled house file or an installed package's profile (resources.profile_path).
    path = resources.profile_path(name) if name and "/" not in name else None
    if path is not None and path_problem(path) is None and path.is_file():
        return path.resolve()
    raise ProfileError(
        Problem(
            problem_at.file,
            problem_at.line,
            problem_at.column,
            key_path,
            Said("unknown_preset", name=short(name)),
            suggest(name, resources.profile_names()),
        )
    )


def deep_merge(base: Any, over: Any) -> Any:
    """Mappings merge key by key; lists and scalars replace."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = deep_merge(base[key], value) if key in base else value
        return out
    return over


# Values a child replaces whole even where they are mappings: a description's
# languages belong together (a child writing its English line must not keep
# its parent's French one, which describes the parent).
WHOLE: frozenset[KeyPath] = frozenset({("description",)})


def _get(data: Any, path: KeyPath) -> Any:
    for key in path:
        data = data[key]
    return data


@dataclass
class Layer:
    data: dict
    locations: dict[KeyPath, Loc]

    def over(self, child: Layer) -> Layer:
        """``child`` deep-merged over this layer, locations following the values."""
        replaced = {
            p for p in child.locations if p and (p in WHOLE or not isinstance(_get(child.data, p), dict))
        }
        locations = {
            p: loc
            for p, loc in self.locations.items()
            if not any(p[:i] in replaced for i in range(1, len(p)))
        }
        locations.update({p: loc for p, loc in child.locations.items() if p})
        locations[()] = self.locations.get((), child.locations.get((), Loc("<profile>")))
        merged = deep_merge(self.data, child.data)
        for path in WHOLE:
            holder: Any = child.data
            for key in path[:-1]:
                holder = holder.get(key) if isinstance(holder, dict) else None
            if isinstance(holder, dict) and path[-1] in holder:
                _get(merged, path[:-1])[path[-1]] = holder[path[-1]]
        return Layer(merged, locations)


def _as_mapping(doc: YamlDoc) -> dict:
    if doc.data is None:
        return {}
    if not isinstance(doc.data, dict):
        loc = doc.locations.get((), Loc(doc.file))
        # Never the value itself: a file that is not a profile (a key, a password) must not be printed.
        kind = (
            Said("not_mapping_list")
            if isinstance(doc.data, list)
            else Said("not_mapping_value", type=type(doc.data).__name__)
        )
        raise ProfileError(Problem(doc.file, loc.line, loc.column, "", kind))
    return doc.data


class _Resolver:
    def __init__(self, allowed: list[Path]):
        self.allowed = allowed

    def file(self, path: Path, chain: list[tuple[Path, str]]) -> Layer:
        path = path.resolve()
        doc = load_yaml_file(path, max_values=MAX_PROFILE_VALUES)
        data = dict(_as_mapping(doc))
        locations = dict(doc.locations)
        layer_chain = [*chain, (path, doc.file)]
        if "extends" not in data:
            return Layer(data, locations)
        parent_ref = data.pop("extends")
        at = locations.pop(("extends",), Loc(doc.file))
        if not isinstance(parent_ref, str) or not parent_ref.strip():
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    Said("extends_not_name"),
                )
            )
        parent_ref = parent_ref.strip()
        parent = self._target(parent_ref, path.parent, at)
        for seen, shown in layer_chain:
            if seen == parent:
                names = [s for _, s in layer_chain[[p for p, _ in layer_chain].index(seen) :]] + [shown]
                raise ProfileError(
                    Problem(
                        at.file,
                        at.line,
                        at.column,
                        "extends",
                        Said("extends_cycle", chain=" -> ".join(names)),
                    )
                )
        if len(layer_chain) >= MAX_EXTENDS:
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    Said("extends_too_long", limit=MAX_EXTENDS),
                )
            )
        merged = self.file(parent, layer_chain).over(Layer(data, locations))
        merged.locations[()] = doc.locations.get((), Loc(doc.file))
        return merged

    def _target(self, ref: str, here: Path, at: Loc) -> Path:
        if not _path_like(ref):
            return _preset_file(ref, at, "extends")
        problem = path_problem(ref)
        if problem is not None:
            raise ProfileError(Problem(at.file, at.line, at.column, "extends", problem))
        target = (here / Path(ref).expanduser()).resolve()
        if not _inside(target, self.allowed):
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    Said("extends_outside", path=short(ref)),
                )
            )
        if not target.is_file():
            siblings = [p.name for p in target.parent.glob("*.y*ml")] if target.parent.is_dir() else []
            hint = suggest(target.name, siblings)
            if hint is not None:
                hint = str(Path(ref).parent / hint) if Path(ref).parent != Path(".") else hint
            raise ProfileError(
                Problem(
                    at.file, at.line, at.column, "extends", Said("extends_no_file", path=short(ref)), hint
                )
            )
        return target


def _override_layer(text: str) -> Layer:
    # Messages name the --set as written, cut short: a long value is not echoed whole.
    label = f"--set {text if len(text) <= 60 and text.isprintable() else short(text, 60)[1:-1]}"
    key, sep, raw = text.partition("=")
    parts = key.strip().split(".")
    if not sep or not all(p.strip() for p in parts):
        raise ProfileError(Problem(label, None, None, "", Said("set_syntax")))
    if len(parts) > MAX_DEPTH:
        raise ProfileError(Problem(label, None, None, "", Said("set_too_deep", limit=MAX_DEPTH)))
    # Only ASCII digits make a number: `²` passes str.isdigit but is no integer.
    path: KeyPath = tuple(
        int(p.strip()) if p.strip().isascii() and p.strip().isdigit() and len(p.strip()) <= 9 else p.strip()
        for p in parts
    )
    if path[0] == "extends":
        raise ProfileError(Problem(label, None, None, "extends", Said("set_extends")))
    try:
        value = load_yaml_text(raw, label).data
    except ProfileError as exc:
        at = dotted(path)
        raise ProfileError(
            Problem(label, None, None, ".".join(x for x in (at, p.key_path) if x), p.message, p.suggestion)
            for p in exc.problems
        ) from None
    data: Any = value
    for part in reversed(path):
        data = {part: data}
    loc = Loc(label)
    locations = {path[:i]: loc for i in range(1, len(path) + 1)}
    # keys inside a mapping value are located at the --set too
    _locate_inside(path, value, loc, locations)
    locations[()] = loc
    return Layer(data, locations)


def _mapping_layer(rules: Mapping[str, Any], label: str) -> Layer:
    loc = Loc(label)
    locations: dict[KeyPath, Loc] = {(): loc}
    _locate_inside((), dict(rules), loc, locations)
    return Layer(dict(rules), locations)


def _locate_inside(path: KeyPath, value: Any, loc: Loc, locations: dict[KeyPath, Loc]) -> None:
    """Every key path inside ``value`` (below ``path``) is located at ``loc``:
    a value given whole (a --set, a scenario's rules) has one place for all it holds."""
    stack: list[tuple[KeyPath, Any]] = [(path, value)]
    while stack:
        prefix, item = stack.pop()
        children = (
            item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        )
        for k, v in children:
            locations[(*prefix, k)] = loc
            stack.append(((*prefix, k), v))


def resolve(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    rules_label: str = "rules",
) -> tuple[Layer, str]:
    presets = resources.variants_dir().resolve()
    if isinstance(name_or_path, os.PathLike) or _path_like(str(name_or_path)):
        problem = path_problem(name_or_path)
        if problem is not None:
            raise ProfileError(Problem("<profile>", None, None, "", problem))
        path = Path(name_or_path).expanduser()
        if not path.is_absolute():
            path = Path(base_dir or Path.cwd()) / path
        shown = display_path(path)
        problem = path_problem(path)
        if problem is not None:
            raise ProfileError(Problem(shown, None, None, "", problem))
        if path.is_dir():
            raise ProfileError(Problem(shown, None, None, "", Said("is_folder_profile")))
        if not path.exists():
            raise ProfileError(Problem(shown, None, None, "", Said("no_such_file")))
        path = path.resolve()
        allowed = [path.parent, presets]
    else:
        name = str(name_or_path).strip()
        path = _preset_file(name, Loc("rami"), "")
        shown = display_path(path)
        allowed = [presets, path.parent]
    layer = _Resolver(allowed).file(path, [])
    if rules:
        layer = layer.over(_mapping_layer(rules, rules_label))
    for text in overrides:
        layer = layer.over(_override_layer(text))
    return layer, shown


def resolve_profile_data(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
) -> dict:
    """The merged raw mapping of a profile (extends, rules, ``--set``), before validation."""
    layer, _ = resolve(name_or_path, overrides, base_dir=base_dir, rules=rules)
    return layer.data
