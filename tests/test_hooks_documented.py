"""Two guards that keep the hook contract honest (after datasette's).

Every hook in rami_core/profile/hookspecs.py is documented in docs/plugins.md under a
heading that is its exact signature, and has a test named
`test_hook_<name>` somewhere under tests/.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from rami_core.profile import hookspecs
from rami_core.profile.hooks import hookspecs_names

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "plugins.md"
TESTS = Path(__file__).resolve().parent
HOOKS = hookspecs_names()


def _documented() -> dict[str, str]:
    out = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^###\s+(rami_\w+)(\(.*)$", line.rstrip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in TESTS.rglob("test_*.py"):
        names.update(re.findall(r"^\s*def (test_hook_\w+)\(", path.read_text(encoding="utf-8"), flags=re.M))
    return names


def test_there_are_hooks():
    assert len(HOOKS) >= 10


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_documented_with_its_exact_signature(hook):
    documented = _documented()
    assert hook in documented, f"docs/plugins.md has no '### {hook}(...)' heading"
    assert documented[hook] == rendered_signature(getattr(hookspecs, hook))


def rendered_signature(spec) -> str:
    """The signature as the docs write it: the annotations as written in hookspecs.py, unquoted."""
    sig = inspect.signature(spec)
    params = ", ".join(
        p.name if p.annotation is p.empty else f"{p.name}: {p.annotation}" for p in sig.parameters.values()
    )
    ret = "" if sig.return_annotation is sig.empty else f" -> {sig.return_annotation}"
    return f"({params}){ret}"


def test_docs_document_no_hook_that_does_not_exist():
    assert set(_documented()) <= set(HOOKS)


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_a_test(hook):
    assert f"test_hook_{hook}" in _test_names(), f"no test named test_hook_{hook} under tests/"
