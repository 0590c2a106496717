"""The documentation site's API reference: every object it shows has a docstring.

`mkdocs build --strict` (in .ci/run) fails on a broken link or a reference to
an object that does not exist; it does not fail on an object without a
docstring, which would show as a bare signature. This test reads the `:::`
directives of docs/api/ and asks each object, and the public members of each
class it shows, for a docstring.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"


def _directives() -> list[tuple[str, list[str] | None]]:
    out = []
    for page in sorted(API.glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"^::: ([\w.]+)((?:\n    .*)*)", text, flags=re.M):
            opts = m.group(2)
            members = re.search(r"members: \[([^\]]*)\]", opts)
            if re.search(r"members: false", opts):
                chosen: list[str] | None = []
            else:
                chosen = [x.strip() for x in members.group(1).split(",")] if members else None
            out.append((m.group(1), chosen))
    return out


def _resolve(path: str):
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError as e:
            if e.name and not e.name.startswith("rami_core"):
                pytest.skip(
                    f"{path} needs {e.name}: its extra is not installed (pip install -e '.[rl]' or '.[ray]')"
                )
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise AssertionError(f"docs/api names {path}, which does not exist")


def _own_public_members(obj) -> list[tuple[str, object]]:
    if inspect.ismodule(obj):
        names = getattr(obj, "__all__", None) or [
            n
            for n, v in vars(obj).items()
            if not n.startswith("_") and getattr(v, "__module__", None) == obj.__name__
        ]
        return [(n, getattr(obj, n)) for n in names]
    if inspect.isclass(obj):
        return [
            (n, v)
            for n, v in vars(obj).items()
            if not n.startswith("_")
            and (inspect.isfunction(v) or isinstance(v, (property, classmethod, staticmethod)))
        ]
    return []


def _doc(value) -> str | None:
    if isinstance(value, (classmethod, staticmethod)):
        value = value.__func__
    if isinstance(value, property):
        value = value.fget
    return (
        inspect.getdoc(value)
        if callable(value) or inspect.isclass(value) or inspect.ismodule(value)
        else "data"
    )


def test_the_reference_shows_the_public_api():
    shown = {path for path, _ in _directives()}
    for needed in (
        "rami_core.referee.engine.Game",
        "rami_core.profile.rules.Rules",
        "rami_core.profile.hookspecs",
        "rami_core.solver",
        "rami_core.referee.legal",
        "rami_core.words.refusals",
    ):
        assert needed in shown


@pytest.mark.parametrize("path, members", _directives(), ids=[p for p, _ in _directives()])
def test_every_object_shown_has_a_docstring(path, members):
    obj = _resolve(path)
    assert inspect.getdoc(obj), f"{path} has no docstring"
    shown = _own_public_members(obj) if members is None else [(n, getattr(obj, n)) for n in members]
    undocumented = [n for n, v in shown if not _doc(v)]
    assert not undocumented, f"{path}: members without a docstring: {undocumented}"
