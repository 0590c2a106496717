"""Safe YAML with locations: the one reader for every YAML file a user passes.

PyYAML's *composer* only (``yaml.SafeLoader``'s reader, scanner, parser and
composer; no constructor ever runs). A small builder turns the node tree into
plain dicts, lists and scalars and records the line and column of every mapping
key and list item by key path. Only the core tags (map, seq, str, int, float,
bool, null) are accepted, so a ``!!python/...`` tag is an error and never code;
aliases, nesting and the expanded size are bounded, and so is the file size.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rami_core.files import resources
from rami_core.files.userfiles import (
    MAX_INT_DIGITS,
    FileRefused,
    decode_text,
    path_problem,
    read_regular_file,
    short,
)
from rami_core.words.errors import Problem, ProfileError
from rami_core.words.problems import Said, yaml_phrase

MAX_FILE_BYTES = 1 << 20  # 1 MiB
MAX_DEPTH = 50  # nested mappings and lists
MAX_ALIASES = 100  # *alias uses in one document
MAX_VALUES = 100_000  # values aliases may add, once expanded (a large file of its own is fine)
MAX_PROFILE_VALUES = 4000  # values in one profile file: the fullest preset has a few hundred
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
_INT = _CORE + "int"


class _Stop(Exception):
    """A limit hit while composing; carries the mark and the message."""

    def __init__(self, mark: yaml.Mark | None, message: Said, key: str = ""):
        super().__init__(message)
        self.mark = mark
        self.message = message
        self.key = key  # the top-level key being expanded, if any


class _Composer(yaml.SafeLoader):
    """SafeLoader used for composing only, counting aliases, nesting and the
    document's size as expanded: an alias (a merge key's included) counts
    every node of what it names, so that a small text of nested aliases is
    refused at the alias that makes it too large, before anything is built."""

    def __init__(self, stream: str, max_values: int | None = None):
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0
        # Checked while composing, so that a file of a million small values
        # is refused after reading max_values of them, not after all.
        self._nodes = 0
        self._max_nodes = max_values
        # Nodes as expanded (an alias adds the size of its anchor's node),
        # and the expanded size of every node composed so far.
        self._expanded = 0
        self._sizes: dict[int, int] = {}
        self._top: yaml.Node | None = None  # the top-level key whose value is being composed

    def compose_node(self, parent, index):
        if self._depth == 1 and isinstance(index, yaml.ScalarNode):
            self._top = index
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise _Stop(mark, Said("yaml_aliases", limit=MAX_ALIASES))
            node = super().compose_node(parent, index)
            # An anchor still being composed (a recursive alias) has no size
            # yet: the builder's depth limit refuses it.
            self._expanded += self._sizes.get(id(node), 1)
            self._check_expanded(mark)
            return node
        self._nodes += 1
        self._expanded += 1
        start = self._expanded - 1
        if self._max_nodes is not None and self._nodes > 2 * self._max_nodes + 1:  # keys are nodes too
            raise _Stop(
                self.peek_event().start_mark,
                Said("yaml_values", limit=self._max_nodes),
            )
        nested = self.check_event(yaml.MappingStartEvent, yaml.SequenceStartEvent)
        if nested:
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise _Stop(self.peek_event().start_mark, Said("yaml_depth", limit=MAX_DEPTH))
        try:
            node = super().compose_node(parent, index)
        finally:
            if nested:
                self._depth -= 1
        self._sizes[id(node)] = self._expanded - start
        return node

    def _check_expanded(self, mark: yaml.Mark) -> None:
        """The document as expanded is within the profile's cap (keys are
        nodes too), or within what aliases may add to any file."""
        if self._max_nodes is not None and self._expanded > 2 * self._max_nodes + 1:
            limit = self._max_nodes
        elif self._max_nodes is None and self._expanded - self._nodes > 2 * MAX_VALUES + 1:
            limit = MAX_VALUES
        else:
            return
        # Reported at the top-level key being expanded, as the builder does.
        top = self._top
        if top is not None:
            raise _Stop(top.start_mark, Said("yaml_alias_bomb", limit=limit), str(top.value))
        raise _Stop(mark, Said("yaml_alias_bomb", limit=limit))


_SCALARS = yaml.constructor.SafeConstructor()


def _short_tag(tag: str) -> str:
    shown = "!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag
    return shown if len(shown) <= 40 else shown[:37] + "..."


class _Builder:
    """Turns a composed node tree into plain data, recording locations."""

    def __init__(self, label: str, budget: int = MAX_VALUES, max_values: int | None = None):
        self.label = label
        self.locations: dict[KeyPath, Loc] = {}
        # What aliases add: every visit of a node already built once. A large
        # file is as large as it looks and has its own size limit; only the
        # expansion is a bomb (PyYAML's own anchors in a long generated file
        # add little).
        self.budget = budget
        self.seen: set[int] = set()
        self.values = 0
        self.expanded = 0  # every value built, an alias's visits included
        self.max_values = max_values

    def loc(self, node: yaml.Node) -> Loc:
        return Loc(self.label, node.start_mark.line + 1, node.start_mark.column + 1)

    def _refuse(self, node: yaml.Node, path: KeyPath, message: Said) -> None:
        """A size limit: reported at the top-level key being expanded (deeper paths mean nothing here)."""
        at = self.locations.get(path[:1], self.loc(node))
        raise ProfileError(Problem(self.label, at.line, at.column, dotted(path[:1]), message))

    def fail(self, node: yaml.Node, path: KeyPath, message: Said) -> ProfileError:
        loc = self.loc(node)
        return ProfileError(Problem(self.label, loc.line, loc.column, dotted(path), message))

    def build(self, node: yaml.Node, path: KeyPath = (), depth: int = 0) -> Any:
        self.expanded += 1
        if id(node) in self.seen:
            self.budget -= 1
        else:
            self.seen.add(id(node))
            self.values += 1  # the file's own values; what aliases add is the budget's
        if self.max_values is not None and self.expanded > self.max_values:
            # A profile's cap counts values as expanded: what aliases add included.
            own = self.values > self.max_values
            self._refuse(node, path, Said("yaml_values" if own else "yaml_alias_bomb", limit=self.max_values))
        if self.budget < 0:
            self._refuse(node, path, Said("yaml_alias_bomb", limit=MAX_VALUES))
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path, depth + 1)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                raise self.fail(node, path, Said("yaml_tag", tag=_short_tag(node.tag)))
            if depth + 1 > MAX_DEPTH:
                raise self.fail(node, path, Said("yaml_depth", limit=MAX_DEPTH))
            out = []
            for i, item in enumerate(node.value):
                self.locations.setdefault((*path, i), self.loc(item))
                out.append(self.build(item, (*path, i), depth + 1))
            return out
        return self._scalar(node, path)

    def _mapping(self, node: yaml.MappingNode, path: KeyPath, depth: int) -> dict:
        if node.tag != _MAP:
            raise self.fail(node, path, Said("yaml_tag", tag=_short_tag(node.tag)))
        if depth > MAX_DEPTH:
            raise self.fail(node, path, Said("yaml_depth", limit=MAX_DEPTH))
        out: dict[Any, Any] = {}
        for knode, vnode in node.value:
            if knode.tag == _MERGE:
                raise self.fail(knode, path, Said("yaml_merge_key"))
            if not isinstance(knode, yaml.ScalarNode):
                raise self.fail(knode, path, Said("yaml_key_not_name"))
            key = self._scalar(knode, path)
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                key = knode.value  # `no:` or `1.5:` is a name as written
            sub = (*path, key)
            if key in out:
                raise self.fail(knode, sub, Said("yaml_duplicate_key"))
            self.locations[sub] = self.loc(knode)
            out[key] = self.build(vnode, sub, depth)
        return out

    def _scalar(self, node: yaml.Node, path: KeyPath) -> Any:
        if node.tag == _TIMESTAMP:
            return node.value  # a date stays the text written
        if node.tag not in _SCALAR_TAGS:
            raise self.fail(node, path, Said("yaml_tag", tag=_short_tag(node.tag)))
        if node.tag == _INT and sum(ch.isdigit() for ch in str(node.value)) > MAX_INT_DIGITS:
            raise self.fail(node, path, Said("yaml_long_int", limit=MAX_INT_DIGITS))
        try:
            return _SCALARS.construct_object(node)
        except (ValueError, OverflowError, yaml.YAMLError):
            raise self.fail(node, path, Said("yaml_unreadable_value", value=short(node.value))) from None


def _refused(label: str, message: Said, mark: yaml.Mark | None = None, key: str = "") -> ProfileError:
    line = mark.line + 1 if mark else None
    col = mark.column + 1 if mark else None
    return ProfileError(Problem(label, line, col, key, message))


def _syntax(context: str | None, problem: str | None) -> Said:
    """PyYAML's context and problem phrases, each cut short, as one syntax problem."""
    phrases = [p if len(p) <= 100 else p[:97] + "..." for p in (context, problem) if p]
    if not phrases:
        return Said("yaml_syntax", detail=yaml_phrase("?"))
    detail = (
        yaml_phrase(phrases[0])
        if len(phrases) == 1
        else Said("yaml_detail", context=yaml_phrase(phrases[0]), problem=yaml_phrase(phrases[1]))
    )
    return Said("yaml_syntax", detail=detail)


def _compose_all(text: str, label: str, max_values: int | None = None) -> list[yaml.Node | None]:
    """The node trees of every document in ``text``, under the alias and nesting limits."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise _refused(label, Said("file_too_large_mib", limit=MAX_FILE_BYTES, mib=MAX_FILE_BYTES >> 20))
    if "\0" in text:
        raise _refused(label, Said("file_nul"))
    loader = None
    nodes: list[yaml.Node | None] = []
    try:
        loader = _Composer(text, max_values)
        while loader.check_node():
            nodes.append(loader.get_node())
    except _Stop as stop:
        raise _refused(label, stop.message, stop.mark, stop.key) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _refused(label, _syntax(exc.context, exc.problem), mark) from None
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise _refused(label, Said("yaml_syntax", detail=yaml_phrase(first[:120]))) from None
    except RecursionError:  # pragma: no cover - the depth limit comes first
        raise _refused(label, Said("yaml_depth", limit=MAX_DEPTH)) from None
    finally:
        if loader is not None:
            loader.dispose()
    return nodes


def _build_all(nodes: list[yaml.Node | None], label: str, max_values: int | None = None) -> list[YamlDoc]:
    docs: list[YamlDoc] = []
    budget = MAX_VALUES  # shared by the documents of one file: many small bombs are one big one
    for node in nodes:
        if node is None:
            docs.append(YamlDoc(label, None, {(): Loc(label, 1, 1)}))
            continue
        builder = _Builder(label, budget, max_values)
        builder.locations[()] = builder.loc(node)
        data = builder.build(node)
        budget = builder.budget
        docs.append(YamlDoc(label, data, builder.locations))
    return docs


def load_yaml_text(text: str, label: str = "<string>", *, max_values: int | None = None) -> YamlDoc:
    """Parse one YAML document safely, keeping the location of every key.

    Raises :class:`ProfileError` on a syntax error, an unsupported tag, or a
    document past the limits (nesting, aliases, expanded size, and
    `max_values` values in all where given: a profile's cap).
    """
    key = ("one", text, label, max_values, _limits())
    kept = _kept(key)
    if kept is not None:
        return kept[0]
    nodes = _compose_all(text, label, max_values)
    if len(nodes) > 1:
        raise _refused(
            label,
            Said("yaml_documents"),
            nodes[1].start_mark if nodes[1] else None,
        )
    docs = _build_all(nodes, label, max_values)
    doc = docs[0] if docs else YamlDoc(label, None, {(): Loc(label, 1, 1)})
    _keep(key, [doc])
    return doc


def load_yaml_documents(text: str, label: str = "<string>") -> list[YamlDoc]:
    """Every document of a YAML stream (``---`` separated), each read like :func:`load_yaml_text`."""
    key = ("all", text, label, None, _limits())
    kept = _kept(key)
    if kept is not None:
        return kept
    docs = _build_all(_compose_all(text, label), label)
    _keep(key, docs)
    return docs


# Documents already read, by their text. Every load_profile reads its preset
# again (each scenario, table, bot game and `--set`), and PyYAML's pure-Python
# composer is most of what a profile costs to load. Reading is a function of
# the text, the label and the limits alone, so what it gave is kept under all
# of them, and handed out as a fresh copy each time: a caller may change it.
# A refusal is never kept (it is found again by reading again), nor is a
# reading made inside `kept_if_accepted` whose block is refused (a pasted
# profile that fails validation). What is kept is bounded by what it holds
# once expanded, not by its text (a few hundred characters of nested aliases
# expand into thousands of values): values and located keys, 20,000 an entry
# and 100,000 in all (the fullest preset holds a few hundred), and by its
# text (32 KiB a file, 512 KiB in all), the oldest let go first.
_KEEP_TEXT_CHARS = 32 * 1024
_KEEP_CHARS = 512 * 1024
_KEEP_ENTRIES = 512
_KEEP_ENTRY_VALUES = 20_000
_KEEP_VALUES = 100_000
_kept_docs: OrderedDict[tuple[Any, ...], list[YamlDoc]] = OrderedDict()
_kept_sizes: dict[tuple[Any, ...], int] = {}
_kept_chars = 0
_kept_values = 0
_kept_lock = threading.Lock()
_pending = threading.local()  # the keys kept inside this thread's kept_if_accepted blocks


def _limits() -> tuple[int, ...]:
    """The limits as they are now (tests lower some): an answer holds only under the same."""
    return (MAX_FILE_BYTES, MAX_DEPTH, MAX_ALIASES, MAX_VALUES, MAX_INT_DIGITS)


def held_values(docs: list[YamlDoc]) -> int:
    """What a reading holds: its values (as expanded) and its located keys."""
    n = 0
    for doc in docs:
        n += len(doc.locations)
        stack = [doc.data]
        while stack:
            item = stack.pop()
            n += 1
            if isinstance(item, dict):
                stack.extend(item.values())
            elif isinstance(item, list):
                stack.extend(item)
    return n


def kept_size() -> tuple[int, int, int]:
    """Entries kept, their texts' characters, and what they hold (see held_values)."""
    with _kept_lock:
        return len(_kept_docs), _kept_chars, _kept_values


def _kept(key: tuple[Any, ...]) -> list[YamlDoc] | None:
    if len(key[1]) > _KEEP_TEXT_CHARS:
        return None
    with _kept_lock:
        docs = _kept_docs.get(key)
        if docs is None:
            return None
        _kept_docs.move_to_end(key)
    return [_copy_doc(d) for d in docs]


def _keep(key: tuple[Any, ...], docs: list[YamlDoc]) -> None:
    global _kept_chars, _kept_values
    if len(key[1]) > _KEEP_TEXT_CHARS:
        return
    size = held_values(docs)
    if size > _KEEP_ENTRY_VALUES:
        return
    copies = [_copy_doc(d) for d in docs]  # the caller gets `docs`, never these
    with _kept_lock:
        if key in _kept_docs:
            return
        _kept_docs[key] = copies
        _kept_sizes[key] = size
        _kept_chars += len(key[1])
        _kept_values += size
        while len(_kept_docs) > _KEEP_ENTRIES or _kept_chars > _KEEP_CHARS or _kept_values > _KEEP_VALUES:
            old, _ = _kept_docs.popitem(last=False)
            _forget_locked(old)
    pending = getattr(_pending, "keys", None)
    if pending is not None:
        pending.append(key)


def _forget_locked(key: tuple[Any, ...]) -> None:
    global _kept_chars, _kept_values
    _kept_docs.pop(key, None)
    size = _kept_sizes.pop(key, None)
    if size is not None:
        _kept_chars -= len(key[1])
        _kept_values -= size


@contextlib.contextmanager
def kept_if_accepted() -> Iterator[None]:
    """The readings first kept inside the block are let go again if it
    raises: a refused input (a pasted profile refused by its validation,
    its extends or a plugin) leaves nothing kept."""
    outer = getattr(_pending, "keys", None)
    keys: list[tuple[Any, ...]] = []
    _pending.keys = keys
    try:
        yield
    except BaseException:
        with _kept_lock:
            for key in keys:
                _forget_locked(key)
        keys.clear()
        raise
    finally:
        _pending.keys = outer
        if outer is not None:
            outer.extend(keys)


def _copy_doc(doc: YamlDoc) -> YamlDoc:
    return YamlDoc(doc.file, _copy_data(doc.data), dict(doc.locations))


def _copy_data(data: Any) -> Any:
    """A deep copy of plain data: the builder makes only dicts, lists and immutable scalars."""
    if isinstance(data, dict):
        return {k: _copy_data(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy_data(v) for v in data]
    return data


def read_yaml_text(path: str | os.PathLike[str], label: str) -> str:
    """The text of a YAML file given by a user: a regular UTF-8 file of at most 1 MiB."""
    try:
        return decode_text(read_regular_file(path, MAX_FILE_BYTES))
    except FileRefused as exc:
        raise ProfileError(Problem(label, None, None, "", exc.reason)) from None


def load_yaml_file(
    path: str | os.PathLike[str], label: str | None = None, *, max_values: int | None = None
) -> YamlDoc:
    """Read a YAML file safely (at most 1 MiB), with the location of every key."""
    problem = path_problem(path)
    if problem is not None:
        raise ProfileError(Problem(label or "<file>", None, None, "", problem))
    label = label or display_path(Path(path))
    return load_yaml_text(read_yaml_text(path, label), label, max_values=max_values)


def display_path(path: Path) -> str:
    """A path as shown in messages: relative to the current folder when inside it."""
    if path_problem(path) is not None:
        return "<path>"
    path = Path(path)
    try:
        resolved = path.resolve()
    except OSError:  # pragma: no cover
        return str(path)
    for base, prefix in ((Path.cwd().resolve(), ""), (resources.variants_dir().resolve(), "variants")):
        try:
            rel = resolved.relative_to(base)
        except ValueError:
            continue
        return str(Path(prefix) / rel) if prefix else str(rel)
    return str(resolved)


def suggest(word: Any, choices: Iterable[Any]) -> str | None:
    found = difflib.get_close_matches(str(word), [str(c) for c in choices], n=1, cutoff=0.6)
    return found[0] if found else None


def dotted(path: KeyPath) -> str:
    return ".".join(str(p) for p in path)
