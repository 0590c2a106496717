"""The layers of docs/architecture.md, checked against the code's imports.

The page's table "Layers" is the map: each row a layer, bottom first, with the
folders of `rami_core` it holds. A module may import from its own folder, and
from the folders of the layers below; never above, and never a sibling folder
of a layer marked "apart" (the front ends: each stands on the layers below,
none on another). No group of modules imports itself round: an import cycle
is counted with the imports inside functions (a lazy import still ties two
modules) and with those under `if TYPE_CHECKING:` (a type named from above
is a dependency on it all the same: a part is handed a narrow interface
instead). The bundled plugins (`plugins/`) may import the layers up to the
referee, as a third-party plugin does. A new folder must be placed in the
table before it can be imported: the test names it.
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
    """The table's rows, bottom first: (layer name, its folders)."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("<!-- layers -->")[1].split("<!-- /layers -->")[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].isdigit():
            continue
        units = set(re.findall(r"`(\w+)/`", cells[2]))
        rows.append((int(cells[0]), cells[1], units))
    rows.sort()
    return [(name, units) for _, name, units in rows]


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_module(name: str) -> bool:
    path = ROOT.joinpath(*name.split("."))
    compiled = any(path.parent.glob(path.name + ".*.so")) or path.with_suffix(".c").exists()
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists() or compiled


def _imports(path: Path, module: str) -> set[str]:
    """The rami_core modules `module` imports (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.split(".")[0] == "rami_core":
                target = node.module
            else:
                continue
            named = [f"{target}.{alias.name}" for alias in node.names]
            # `from rami_core.solver import lp` imports the module lp, not what the
            # package's __init__ gathers: the package itself is no dependency then.
            if not all(_is_module(n) for n in named) and (node.module is not None or not node.level):
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


def test_every_module_is_in_a_folder_of_the_table():
    placed = [u for _, units in _layers() for u in units]
    assert len(placed) == len(set(placed)), "a folder is in two layers of docs/architecture.md"
    loose = sorted(m for m in _graph() if m.count(".") == 1 and (PACKAGE / m.split(".")[1]).is_dir() is False)
    assert not loose, f"modules outside every folder (give each a folder of the layers table): {loose}"
    units = {_unit(m) for m in _graph()} - {"__init__"}
    missing = units - set(placed)
    assert not missing, f"place these in the layers table of docs/architecture.md: {sorted(missing)}"
    assert not set(placed) - units, (
        f"the table names folders that do not exist: {sorted(set(placed) - units)}"
    )


def test_no_import_names_a_former_module():
    """The former top-level names (``rami_core.FORMER_NAMES``) import with a
    DeprecationWarning for code outside; rami's own code and bundled plugins
    name the new modules (a user saw the warning from `rami simulate`)."""
    from rami_core import FORMER_NAMES

    former = {f"rami_core.{old}" for old in FORMER_NAMES}
    paths = [(p, _module_name(p)) for p in PACKAGE.rglob("*.py")]
    paths += [(p, "plugins." + p.stem) for p in (ROOT / "plugins").rglob("*.py")]
    wrong = sorted(
        f"{path.relative_to(ROOT)} -> {target}"
        for path, module in paths
        for target in _imports(path, module)
        if target in former or any(target.startswith(f + ".") for f in former)
    )
    assert not wrong, "imports of former module names:\n" + "\n".join(wrong)


def test_no_module_name_twice():
    """A module's name says what it holds: two modules of one name (two
    `views`, two `legal`) make a reader guess which one an import means."""
    seen: dict[str, list[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.stem not in ("__init__", "__main__"):
            seen.setdefault(path.stem, []).append(path.relative_to(ROOT).as_posix())
    twice = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not twice, f"module names used twice: {twice}"


def _upward(graph: dict[str, set[str]]) -> list[str]:
    layers = _layers()
    level = {u: i for i, (_, units) in enumerate(layers) for u in units}
    apart = {u for name, units in layers if "apart" in name for u in units}
    level["__init__"] = -1  # rami_core/__init__.py: the version and the former names, importing nothing
    found = []
    for module, targets in graph.items():
        for target in targets:
            a, b = _unit(module), _unit(target)
            if a == b:
                continue
            if level[b] > level[a] or (level[b] == level[a] and a in apart):
                found.append(f"{module} -> {target}")
    return sorted(found)


def test_no_module_imports_from_a_layer_above_its_own_or_a_front_end_beside_it():
    upward = _upward(_graph())
    assert not upward, "imports that go up a layer or across the front ends:\n" + "\n".join(upward)


PLUGIN_LAYERS = 7  # words .. referee: what a plugin may build on


def test_the_bundled_plugins_import_only_what_a_plugin_may():
    layers = _layers()
    allowed = {u for _, units in layers[:PLUGIN_LAYERS] for u in units}
    assert "referee" in allowed and "players" not in allowed
    wrong = []
    for path in sorted((ROOT / "plugins").rglob("*.py")):
        for target in _imports(path, "plugins." + path.stem):
            if target.startswith("rami_core.") and _unit(target) not in allowed:
                wrong.append(f"{path.relative_to(ROOT)} -> {target}")
    assert not wrong, "plugins importing above the referee:\n" + "\n".join(sorted(set(wrong)))


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
    TYPE_CHECKING are both read, and both count."""
    src = tmp_path / "rami_core" / "cards" / "text.py"
    src.parent.mkdir(parents=True)
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from ..referee.engine import Game\n"
        "def f():\n    from ..profile.rules import Rules\n    return Rules\n",
        encoding="utf-8",
    )
    found = _imports(src, "rami_core.cards.text")
    assert found == {
        "rami_core.referee.engine",
        "rami_core.referee.engine.Game",
        "rami_core.profile.rules",
        "rami_core.profile.rules.Rules",
    }
    graph = {"rami_core.cards.text": {"rami_core.referee.engine", "rami_core.profile.rules"}}
    assert _upward(graph) == [
        "rami_core.cards.text -> rami_core.profile.rules",
        "rami_core.cards.text -> rami_core.referee.engine",
    ]
    assert _upward({"rami_core.server.hub": {"rami_core.terminal.session"}}) == [
        "rami_core.server.hub -> rami_core.terminal.session"
    ]
