"""Profiles from YAML: presets, house-rule files, ``extends`` chains and ``--set``.

How a profile is read (DESIGN.md, "Profiles"):

1. The argument is a preset name (``rami51`` -> ``variants/rami51.yaml``) or a
   file path (anything with a slash, a ``.yaml``/``.yml`` suffix, or a leading dot).
2. Each file is parsed with PyYAML's *composer* only (``yaml.SafeLoader``'s
   reader, scanner, parser and composer; no constructor ever runs). Our own
   small builder turns the node tree into plain dicts, lists and scalars, and
   records the line and column of every mapping key and list item by key path.
   Only the core tags (map, seq, str, int, float, bool, null) are accepted, so a
   ``!!python/...`` tag is an error and never code; aliases, nesting and the
   expanded size are bounded, and so is the file size.
3. ``extends:`` names a preset or a path relative to the file; the parent is
   resolved first (recursively, cycles refused), then the child is deep-merged
   over it: mappings merge key by key, lists and scalars replace.
4. Scenario ``rules`` (if given) and ``--set key.path=value`` (value parsed as
   YAML) are merged last, in order.
5. The result is validated by :class:`~rami_core.profile.Profile`; pydantic's
   errors are mapped back to files and lines with the recorded locations, with
   the nearest valid key or value suggested.
"""

from __future__ import annotations

import difflib
import enum
import os
import re
import types
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from rami_core.errors import Problem, ProfileError
from rami_core.profile import Profile
from rami_core.resources import profile_names, profile_path, variants_dir

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_VALUES",
    "YamlDoc",
    "load_profile",
    "load_yaml_file",
    "load_yaml_text",
    "resolve_profile_data",
]

MAX_FILE_BYTES = 1 << 20  # 1 MiB
MAX_DEPTH = 50  # nested mappings and lists
MAX_ALIASES = 100  # *alias uses in one document
MAX_VALUES = 100_000  # values once aliases are expanded
MAX_EXTENDS = 32  # length of an extends chain

KeyPath = tuple[Any, ...]


@dataclass(frozen=True)
class Loc:
    """Where a key was written: the file as shown, 1-based line and column."""

    file: str
    line: int | None = None
    column: int | None = None


@dataclass
class YamlDoc:
    """A parsed YAML document with the location of every key and list item.

    ``locations[("opening", "points")]`` is where the key ``points`` under
    ``opening`` was written; the empty path ``()`` is the document itself.
    """

    file: str
    data: Any
    locations: dict[KeyPath, Loc] = field(default_factory=dict)


# =========================================================================== YAML


_CORE = "tag:yaml.org,2002:"
_MAP, _SEQ, _MERGE = _CORE + "map", _CORE + "seq", _CORE + "merge"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null")}
_TIMESTAMP = _CORE + "timestamp"


class _Stop(Exception):
    """A limit hit while composing; carries the mark and the message."""

    def __init__(self, mark: yaml.Mark | None, message: str):
        super().__init__(message)
        self.mark = mark
        self.message = message


class _Composer(yaml.SafeLoader):
    """SafeLoader used for composing only, counting aliases and nesting."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Stop(
                    self.peek_event().start_mark,
                    f"more than {MAX_ALIASES} aliases: refused (a small file must not expand into a huge one)",
                )
            return super().compose_node(parent, index)
        nested = self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent)
        if nested:
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise _Stop(self.peek_event().start_mark, f"nesting deeper than {MAX_DEPTH} levels: refused")
        try:
            return super().compose_node(parent, index)
        finally:
            if nested:
                self._depth -= 1


_SCALARS = yaml.constructor.SafeConstructor()


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag


class _Builder:
    """Turns a composed node tree into plain data, recording locations."""

    def __init__(self, label: str):
        self.label = label
        self.locations: dict[KeyPath, Loc] = {}
        self.budget = MAX_VALUES

    def loc(self, node: yaml.Node) -> Loc:
        return Loc(self.label, node.start_mark.line + 1, node.start_mark.column + 1)

    def fail(self, node: yaml.Node, path: KeyPath, message: str) -> ProfileError:
        loc = self.loc(node)
        return ProfileError(Problem(self.label, loc.line, loc.column, _dotted(path), message))

    def build(self, node: yaml.Node, path: KeyPath = (), depth: int = 0) -> Any:
        self.budget -= 1
        if self.budget < 0:
            # Report at the top-level key being expanded: deeper paths mean nothing here.
            at = self.locations.get(path[:1], self.loc(node))
            raise ProfileError(
                Problem(
                    self.label,
                    at.line,
                    at.column,
                    _dotted(path[:1]),
                    f"expands to more than {MAX_VALUES} values (an alias bomb?): refused",
                )
            )
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth + 1)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise self.fail(node, path, f"unsupported YAML tag '{_short_tag(node.tag)}'")
            if depth + 1 > MAX_DEPTH:
                raise self.fail(node, path, f"nesting deeper than {MAX_DEPTH} levels: refused")
            out = []
            for i, item in enumerate(node.value):
                self.locations.setdefault(path + (i,), self.loc(item))
                out.append(self.build(item, path + (i,), depth + 1))
            return out
        return self._scalar(node, path)

    def _mapping(self, node: yaml.MappingNode, path: KeyPath, depth: int) -> dict:
        if node.tag != _MAP:
            raise self.fail(node, path, f"unsupported YAML tag '{_short_tag(node.tag)}'")
        if depth > MAX_DEPTH:
            raise self.fail(node, path, f"nesting deeper than {MAX_DEPTH} levels: refused")
        out: dict[Any, Any] = {}
        for knode, vnode in node.value:
            if knode.tag == _MERGE:
                raise self.fail(knode, path, "merge keys (<<) are not supported: use extends")
            if not isinstance(knode, yaml.ScalarNode):
                raise self.fail(knode, path, "a key must be a plain name, not a mapping or a list")
            key = self._scalar(knode, path)
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                key = knode.value  # `no:` or `1.5:` is a name as written
            sub = path + (key,)
            if key in out:
                raise self.fail(knode, sub, "duplicate key")
            self.locations[sub] = self.loc(knode)
            out[key] = self.build(vnode, sub, depth)
        return out

    def _scalar(self, node: yaml.Node, path: KeyPath) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value  # a date stays the text written
        if node.tag not in _SCALAR_TAGS:
            raise self.fail(node, path, f"unsupported YAML tag '{_short_tag(node.tag)}'")
        return _SCALARS.construct_object(node)


def load_yaml_text(text: str, label: str = "<string>") -> YamlDoc:
    """Parse one YAML document safely, keeping the location of every key.

    Raises :class:`ProfileError` on a syntax error, an unsupported tag, or a
    document past the limits (nesting, aliases, expanded size).
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise ProfileError(
            Problem(label, None, None, "", f"larger than {MAX_FILE_BYTES} bytes (1 MiB): refused")
        )
    loader = None
    try:
        loader = _Composer(text)
        node = loader.get_single_node()
    except _Stop as stop:
        line = stop.mark.line + 1 if stop.mark else None
        col = stop.mark.column + 1 if stop.mark else None
        raise ProfileError(Problem(label, line, col, "", stop.message)) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        message = "invalid YAML: " + ": ".join(x for x in (exc.context, exc.problem) if x)
        line = mark.line + 1 if mark else None
        col = mark.column + 1 if mark else None
        raise ProfileError(Problem(label, line, col, "", message)) from None
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ProfileError(Problem(label, None, None, "", f"invalid YAML: {first}")) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise ProfileError(Problem(label, None, None, "", "nesting too deep: refused")) from None
    finally:
        if loader is not None:
            loader.dispose()
    builder = _Builder(label)
    if node is None:
        return YamlDoc(label, None, {(): Loc(label, 1, 1)})
    builder.locations[()] = builder.loc(node)
    data = builder.build(node)
    return YamlDoc(label, data, builder.locations)


def load_yaml_file(path: str | os.PathLike[str], label: str | None = None) -> YamlDoc:
    """Read a YAML file safely (at most 1 MiB), with the location of every key."""
    path = Path(path)
    label = label or _display(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ProfileError(
                Problem(label, None, None, "", f"larger than {MAX_FILE_BYTES} bytes (1 MiB): refused")
            )
        with path.open("rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise ProfileError(Problem(label, None, None, "", "no such file")) from None
    except IsADirectoryError:
        raise ProfileError(Problem(label, None, None, "", "is a folder, not a file")) from None
    except OSError as exc:
        raise ProfileError(Problem(label, None, None, "", f"cannot be read: {exc.strerror or exc}")) from None
    if len(raw) > MAX_FILE_BYTES:
        raise ProfileError(
            Problem(label, None, None, "", f"larger than {MAX_FILE_BYTES} bytes (1 MiB): refused")
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ProfileError(Problem(label, None, None, "", f"not UTF-8 text (byte {exc.start})")) from None
    return load_yaml_text(text, label)


# =========================================================================== files and names


def _display(path: Path) -> str:
    """A path as shown in messages: relative to the current folder when inside it."""
    path = Path(path)
    try:
        resolved = path.resolve()
    except OSError:  # pragma: no cover
        return str(path)
    for base, prefix in ((Path.cwd().resolve(), ""), (variants_dir().resolve(), "variants")):
        try:
            rel = resolved.relative_to(base)
        except ValueError:
            continue
        return str(Path(prefix) / rel) if prefix else str(rel)
    return str(resolved)


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


def _suggest(word: Any, choices: Iterable[Any]) -> str | None:
    found = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return found[0] if found else None


def _dotted(path: KeyPath) -> str:
    return ".".join(str(p) for p in path)


def _preset_file(name: str, problem_at: Loc, key_path: str) -> Path:
    # A name is a preset, a bundled house file or an installed package's profile (resources.profile_path).
    path = profile_path(name)
    if path is not None:
        return path.resolve()
    raise ProfileError(
        Problem(
            problem_at.file,
            problem_at.line,
            problem_at.column,
            key_path,
            f"unknown preset '{name}'",
            _suggest(name, profile_names()),
        )
    )


# =========================================================================== merging


def _deep_merge(base: Any, over: Any) -> Any:
    """Mappings merge key by key; lists and scalars replace."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = _deep_merge(base[key], value) if key in base else value
        return out
    return over


def _get(data: Any, path: KeyPath) -> Any:
    for key in path:
        data = data[key]
    return data


@dataclass
class _Layer:
    data: dict
    locations: dict[KeyPath, Loc]

    def over(self, child: _Layer) -> _Layer:
        """``child`` deep-merged over this layer, locations following the values."""
        replaced = {p for p in child.locations if p and not isinstance(_get(child.data, p), dict)}
        locations = {
            p: loc
            for p, loc in self.locations.items()
            if not any(p[:i] in replaced for i in range(1, len(p)))
        }
        locations.update({p: loc for p, loc in child.locations.items() if p})
        locations[()] = self.locations.get((), child.locations.get((), Loc("<profile>")))
        return _Layer(_deep_merge(self.data, child.data), locations)


def _as_mapping(doc: YamlDoc) -> dict:
    if doc.data is None:
        return {}
    if not isinstance(doc.data, dict):
        loc = doc.locations.get((), Loc(doc.file))
        kind = "a list" if isinstance(doc.data, list) else f"the value {doc.data!r}"
        raise ProfileError(
            Problem(
                doc.file,
                loc.line,
                loc.column,
                "",
                f"a profile is a mapping of settings (key: value), not {kind}",
            )
        )
    return doc.data


class _Resolver:
    def __init__(self, allowed: list[Path]):
        self.allowed = allowed

    def file(self, path: Path, chain: list[tuple[Path, str]]) -> _Layer:
        path = path.resolve()
        doc = load_yaml_file(path)
        data = dict(_as_mapping(doc))
        locations = dict(doc.locations)
        layer_chain = chain + [(path, doc.file)]
        if "extends" not in data:
            return _Layer(data, locations)
        parent_ref = data.pop("extends")
        at = locations.pop(("extends",), Loc(doc.file))
        if not isinstance(parent_ref, str) or not parent_ref.strip():
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    "must be a preset name or a path relative to this file",
                )
            )
        parent_ref = parent_ref.strip()
        parent = self._target(parent_ref, path.parent, at)
        for seen, shown in layer_chain:
            if seen == parent:
                names = [s for _, s in layer_chain[[p for p, _ in layer_chain].index(seen) :]] + [shown]
                raise ProfileError(
                    Problem(at.file, at.line, at.column, "extends", "cycle: " + " -> ".join(names))
                )
        if len(layer_chain) >= MAX_EXTENDS:
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    f"more than {MAX_EXTENDS} files in the extends chain",
                )
            )
        merged = self.file(parent, layer_chain).over(_Layer(data, locations))
        merged.locations[()] = doc.locations.get((), Loc(doc.file))
        return merged

    def _target(self, ref: str, here: Path, at: Loc) -> Path:
        if not _path_like(ref):
            return _preset_file(ref, at, "extends")
        target = (here / Path(ref).expanduser()).resolve()
        if not _inside(target, self.allowed):
            raise ProfileError(
                Problem(
                    at.file,
                    at.line,
                    at.column,
                    "extends",
                    f"'{ref}' is outside the folders a profile may extend from "
                    "(the first file's folder and its subfolders, and the presets)",
                )
            )
        if not target.is_file():
            siblings = [p.name for p in target.parent.glob("*.y*ml")] if target.parent.is_dir() else []
            hint = _suggest(target.name, siblings)
            if hint is not None:
                hint = str(Path(ref).parent / hint) if Path(ref).parent != Path(".") else hint
            raise ProfileError(Problem(at.file, at.line, at.column, "extends", f"no such file '{ref}'", hint))
        return target


def _override_layer(text: str) -> _Layer:
    label = f"--set {text}"
    key, sep, raw = text.partition("=")
    parts = key.strip().split(".")
    if not sep or not all(p.strip() for p in parts):
        raise ProfileError(Problem(label, None, None, "", "expected key.path=value, e.g. opening.points=71"))
    path: KeyPath = tuple(int(p) if p.strip().isdigit() else p.strip() for p in parts)
    if path[0] == "extends":
        raise ProfileError(Problem(label, None, None, "extends", "cannot be set from the command line"))
    try:
        value = load_yaml_text(raw, label).data
    except ProfileError as exc:
        dotted = _dotted(path)
        raise ProfileError(
            Problem(
                label, None, None, ".".join(x for x in (dotted, p.key_path) if x), p.message, p.suggestion
            )
            for p in exc.problems
        ) from None
    data: Any = value
    for part in reversed(path):
        data = {part: data}
    loc = Loc(label)
    locations = {path[:i]: loc for i in range(1, len(path) + 1)}
    # keys inside a mapping value are located at the --set too
    if isinstance(value, (dict, list)):
        stack: list[tuple[KeyPath, Any]] = [(path, value)]
        while stack:
            prefix, item = stack.pop()
            children = (
                item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
            )
            for k, v in children:
                locations[prefix + (k,)] = loc
                stack.append((prefix + (k,), v))
    locations[()] = loc
    return _Layer(data, locations)


def _mapping_layer(rules: Mapping[str, Any], label: str) -> _Layer:
    loc = Loc(label)
    locations: dict[KeyPath, Loc] = {(): loc}
    stack: list[tuple[KeyPath, Any]] = [((), dict(rules))]
    while stack:
        prefix, item = stack.pop()
        children = (
            item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        )
        for k, v in children:
            locations[prefix + (k,)] = loc
            stack.append((prefix + (k,), v))
    return _Layer(dict(rules), locations)


def _resolve(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    rules_label: str = "rules",
) -> tuple[_Layer, str]:
    presets = variants_dir().resolve()
    if isinstance(name_or_path, os.PathLike) or _path_like(str(name_or_path)):
        path = Path(name_or_path).expanduser()
        if not path.is_absolute():
            path = Path(base_dir or Path.cwd()) / path
        shown = _display(path)
        if not path.is_file():
            if path.is_dir():
                raise ProfileError(Problem(shown, None, None, "", "is a folder, not a profile file"))
            raise ProfileError(Problem(shown, None, None, "", "no such file"))
        path = path.resolve()
        allowed = [path.parent, presets]
    else:
        name = str(name_or_path).strip()
        path = _preset_file(name, Loc("rami"), "")
        shown = _display(path)
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
    layer, _ = _resolve(name_or_path, overrides, base_dir=base_dir, rules=rules)
    return layer.data


def load_profile(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    rules_label: str = "rules",
) -> Profile:
    """Load and validate a profile.

    ``name_or_path``: a preset name (``rami51``) or a YAML file (relative paths
    against ``base_dir``, default the current folder). ``rules``: a mapping
    merged over it like a child file (a scenario's ``rules:``). ``overrides``:
    ``key.path=value`` strings, values parsed as YAML, merged last.

    Raises :class:`ProfileError` with located problems.
    """
    layer, shown = _resolve(name_or_path, overrides, base_dir=base_dir, rules=rules, rules_label=rules_label)
    try:
        profile = Profile.model_validate(layer.data)
    except ValidationError as exc:
        top = layer.locations.get((), Loc(shown))
        problems: list[Problem] = []
        for err in _merge_union_errors(exc.errors(include_url=False), layer.data):
            problems.extend(_problems(err, layer, top.file))
        raise ProfileError(_ordered(problems)) from None
    _check_plugins(profile, layer, shown)
    return profile


def _check_plugins(profile: Profile, layer: _Layer, shown: str) -> None:
    """Unknown plugins and bad plugin settings are profile errors, located like any other."""
    from .hooks import check_plugins

    try:
        check_plugins(profile.active_plugins)
    except ProfileError as exc:
        top = layer.locations.get((), Loc(shown))
        located = []
        for p in exc.problems:
            path = tuple(p.key_path.split(".")) if p.key_path else ()
            loc = None
            while path and loc is None:
                loc = layer.locations.get(path)
                path = path[:-1]
            loc = loc or top
            located.append(Problem(loc.file, loc.line, loc.column, p.key_path, p.message, p.suggestion))
        raise ProfileError(_ordered(located)) from None


# =========================================================================== validation errors


def _ordered(problems: list[Problem]) -> list[Problem]:
    seen: set[Problem] = set()
    unique = [p for p in problems if not (p in seen or seen.add(p))]
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


def _merge_union_errors(errors: list[Mapping[str, Any]], data: Any) -> list[Mapping[str, Any]]:
    """One error per value for a union field: pydantic gives one per union member,
    located below the value by the member's name (``plugins.x.bool``)."""
    out: list[dict[str, Any]] = []
    merged: dict[KeyPath, dict[str, Any]] = {}
    for err in errors:
        loc = tuple(p for p in err["loc"] if p != "[key]")
        if err["type"] == "extra_forbidden" or not loc:
            out.append(dict(err))
            continue
        inside = _data_prefix(data, loc)
        if inside == loc:
            out.append(dict(err))
            continue
        msg = str(err.get("msg", ""))
        what = (
            msg.removeprefix("Input should be ").split(",")[0] if msg.startswith("Input should be ") else msg
        )
        if inside in merged:
            if what not in merged[inside]["_whats"]:
                merged[inside]["_whats"].append(what)
            continue
        entry = dict(err, loc=inside, type="union", _whats=[what])
        merged[inside] = entry
        out.append(entry)
    for entry in merged.values():
        whats = entry.pop("_whats")
        entry["msg"] = "Input should be " + " or ".join(whats)
    return out


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
        model = ann if isinstance(ann, type) and issubclass(ann, BaseModel) else None
    return model


def _annotation_at(path: KeyPath) -> Any:
    if not path:
        return Profile
    parent = _model_at(path[:-1])
    if parent is None or not isinstance(path[-1], str) or path[-1] not in parent.model_fields:
        return None
    return _unwrap(parent.model_fields[path[-1]].annotation)


def _locate(path: KeyPath, layer: _Layer, top: str) -> Loc:
    for i in range(len(path), -1, -1):
        if path[:i] in layer.locations:
            return layer.locations[path[:i]]
    return Loc(top)


def _show(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return str(value)


_KEY_PATH = re.compile(r"\b([a-z_]+(?:\.[a-z_]+)+)\b")


def _problems(err: Mapping[str, Any], layer: _Layer, top: str) -> list[Problem]:
    path: KeyPath = tuple(p for p in err["loc"] if p != "[key]")
    kind = err["type"]
    value = err.get("input")
    loc = _locate(path, layer, top)
    key_path = _dotted(path)

    if kind == "extra_forbidden":
        parent = _model_at(path[:-1])
        choices = list(parent.model_fields) if parent is not None else []
        if not path[:-1]:
            choices.append("extends")
        return [Problem(loc.file, loc.line, loc.column, key_path, "unknown key", _suggest(path[-1], choices))]

    if kind == "value_error" and not path:
        text = str(err.get("msg", "")).removeprefix("Value error, ")
        out = []
        for part in (p.strip() for p in text.split("; ") if p.strip()):
            at = Loc(top)
            for match in _KEY_PATH.finditer(part):
                candidate = tuple(match.group(1).split("."))
                if candidate in layer.locations:
                    at = layer.locations[candidate]
                    if at.file == top:
                        break
            out.append(Problem(at.file, at.line, at.column, "", part))
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
                f"{_show(value)} is not one of: {expected}",
                _suggest(value, choices) if isinstance(value, str) else None,
            )
        ]

    message = str(err.get("msg", kind))
    message = message[:1].lower() + message[1:]
    if kind == "missing":
        return [Problem(loc.file, loc.line, loc.column, key_path, "required setting is missing")]
    suggestion = None
    if ann is bool and isinstance(value, str):
        suggestion = _suggest(value.lower(), ["true", "false"])
    return [Problem(loc.file, loc.line, loc.column, key_path, f"{message}, got {_show(value)}", suggestion)]
