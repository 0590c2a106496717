"""The layers of docs/architecture.md, checked against the code's imports.

The page's table "Layers" is the map: each row a layer, bottom first, with the
modules and packages of `rami_core` it holds. A module may import from its
own layer and the layers below, never above, and no group of modules imports
itself round (an import cycle, counted with the imports inside functions: a
lazy import still ties two modules). Imports under `if TYPE_CHECKING:` are
for the type checker alone and are not counted. A new module must be placed
in the table before it can be imported: the test names it.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rami_core"
DOC = ROOT / "docs" / "architecture.md"


def _layers() -> list[tuple[str, set[str]]]:
    """The table's rows, bottom first: (layer name, its units)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("<!-- layers -->")[1].split("<!-- /layers -->")[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        units = set(re.findall(r"`([\w.]+)/?`", cells[2]))
        rows.append((int(cells[0]), cells[1], units))
    rows.sort()
    return [(name, units) for _, name, units in rows]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(n) for n in ast.walk(node))
    return inside


def _imports(path: Path, module: str) -> set[str]:
    """The rami_core modules `module` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "rami_core":
                target = node.module
            else:
                continue
            if node.module is not None or not node.level:
                found.add(target)
            for alias in node.names:  # `from . import x` names a module, `from .m import x` perhaps one
                found.add(f"{target}.{alias.name}")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "rami_core")
    return found


@functools.cache
def _graph() -> dict[str, set[str]]:
    """Read once for the three checks (the package does not change while the tests run)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        graph[module] = {t for t in _imports(path, module) if t in modules and t != module}
    return graph


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_unit_has_a_layer_and_the_table_names_only_real_ones():
    placed = [u for _, units in _layers() for u in units]
    assert len(placed) == len(set(placed)), "a unit is in two layers of docs/architecture.md"
    units = {_unit(m) for m in _graph()} - {"__init__"}
    missing = units - set(placed)
    assert not missing, f"place these in the layers table of docs/architecture.md: {sorted(missing)}"
    assert not set(placed) - units, f"the table names units that do not exist: {sorted(set(placed) - units)}"


def test_no_module_imports_from_a_layer_above_its_own():
    level = {u: i for i, (_, units) in enumerate(_layers()) for u in units}
    level["__init__"] = -1  # rami_core/__init__.py holds the version alone: the bottom, importing nothing
    upward = []
    for module, targets in _graph().items():
        for target in targets:
            a, b = _unit(module), _unit(target)
            if a != b and level[b] > level[a]:
                upward.append(f"{module} -> {target}")
    assert not upward, "imports that go up a layer:\n" + "\n".join(sorted(upward))


def test_no_import_cycle():
    graph = _graph()
    # Tarjan's strongly connected components: any component of two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_checker_sees_an_upward_import(tmp_path):
    """The checker itself: a relative import inside a function and one under
    TYPE_CHECKING are read as they should be."""
    src = tmp_path / "rami_core" / "cards.py"
    src.parent.mkdir()
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .engine import Game\n"
        "def f():\n    from .rules import Rules\n    return Rules\n",
        encoding="utf-8",
    )
    assert _imports(src, "rami_core.cards") == {"rami_core.rules", "rami_core.rules.Rules"}
