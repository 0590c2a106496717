"""Move rami_core's modules into the folder layout of docs/architecture.md.

Run once from the repository's root (`python tools/relayout.py`); kept for
branches made before the move: `python tools/relayout.py --rewrite FILE...`
rewrites the old module names in files that still use them.

It moves files with `git mv`, turns every relative import of the package
into an absolute one (a moved module's `..` no longer means what it meant),
then rewrites every dotted and slashed name of a moved module in the
sources, tests, docs and tools, in one pass (longest old name first), so no
name is rewritten twice.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from rami_core import FORMER_NAMES

ROOT = Path(__file__).resolve().parent.parent

# old module -> new module (packages map with their submodules): the former
# top-level names are rami_core's own table of them (still importable, with a
# warning); below them, the modules renamed inside their package.
MOVES: dict[str, str] = {
    **{f"rami_core.{old}": f"rami_core.{new}" for old, new in FORMER_NAMES.items()},
    "rami_core.profile": "rami_core.profile.model",  # the module became the package's model
    "rami_core.terminal.card_text": "rami_core.cards.text",
    "rami_core.terminal.hint": "rami_core.players.hint",
    "rami_core.solver.check": "rami_core.solver.deck_check",
    "rami_core.solver.solve": "rami_core.solver.whole_table",
    "rami_core.puzzles.generate": "rami_core.puzzles.compose",
    "rami_core.puzzles.play": "rami_core.terminal.puzzle_session",
    "rami_core.diff.candidates": "rami_core.diff.judged_moves",
    "rami_core.diff.generate": "rami_core.diff.edge_setups",
    "rami_core.diff.words": "rami_core.diff.report_words",
    "rami_core.rl.legal": "rami_core.rl.mask",
    "rami_core.server.views": "rami_core.server.client_view",
    "rami_core.server.words": "rami_core.server.page_words",
    "rami_core.server.puzzles": "rami_core.server.puzzle_pages",
    "rami_core.server.command": "rami_core.cli.serve",
}

NEW_PACKAGES = {
    "words": "What is said: the codes of a refusal or a problem, and their words per language.",
    "files": "The files rami reads: its bundled data and a user's own files, read safely.",
    "game": "The game's data (state, actions, events, a seat's view) and the plugin contract.",
    "profile": "A profile read from YAML, judged, and resolved into the rules of one game.",
    "referee": "The turn machine and its parts: what a seat may do, and what follows.",
    "players": "Who plays and what is kept: bots, the hint, narration, saved and simulated games.",
    "conformance": "The scenario format and its runner (`rami check`).",
}

TEXT_SUFFIXES = {".py", ".md", ".yml", ".yaml", ".toml", ".cfg", ".txt", ".js", ".json", ".ini", ""}
SKIP_DIRS = {
    "CHANGELOG.md",
    ".git",
    "node_modules",
    "build",
    "dist",
    "rami.egg-info",
    "__pycache__",
    ".hypothesis",
}


def _path_of(module: str) -> Path:
    """The file or folder of a module name, as it is now."""
    base = ROOT.joinpath(*module.split("."))
    if base.is_dir():
        return base
    return base.with_suffix(".py")


def _new_path(module: str, is_dir: bool) -> Path:
    base = ROOT.joinpath(*module.split("."))
    return base if is_dir else base.with_suffix(".py")


def _absolute_imports(path: Path) -> None:
    """Every `from .x import y` of a package module written as `from rami_core.x import y`."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    package = parts if parts[-1] == "__init__" else parts[:-1]
    if parts[-1] == "__init__":
        package = parts[:-1]
    lines = text.splitlines(keepends=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            i = node.lineno - 1
            line = lines[i]
            pattern = (
                r"from\s+"
                + r"\." * node.level
                + (re.escape(node.module) if node.module else "")
                + r"\s+import"
            )
            new, n = re.subn(pattern, f"from {target} import", line, count=1)
            if not n:
                raise SystemExit(f"{path}:{node.lineno}: cannot rewrite {line!r}")
            lines[i] = new
    path.write_text("".join(lines), encoding="utf-8")


def _from_imports(text: str) -> str:
    """`from rami_core import engine` and `from rami_core.x import y` where y
    is a moved module: `from <new parent> import <new name> [as y]`."""

    def one(m: re.Match[str]) -> str:
        parent, names, indent = m.group("parent"), m.group("names"), m.group("indent")
        out_other: list[str] = []
        moved: list[str] = []
        for raw in names.split(","):
            item = raw.strip()
            if not item:
                continue
            name, _, alias = item.partition(" as ")
            name, alias = name.strip(), alias.strip()
            full = f"{parent}.{name}"
            if full in MOVES:
                new_parent, _, new_name = MOVES[full].rpartition(".")
                use = alias or name
                moved.append(
                    f"{indent}from {new_parent} import {new_name}" + (f" as {use}" if use != new_name else "")
                )
            else:
                out_other.append(item)
        if not moved:
            return m.group(0)
        lines = []
        if out_other:
            lines.append(f"{indent}from {parent} import {', '.join(out_other)}")
        lines.extend(moved)
        return "\n".join(lines)

    return re.sub(
        r"(?m)^(?P<indent>[ \t]*)from (?P<parent>rami_core(?:\.\w+)*) import (?P<names>[\w ,]+)$", one, text
    )


_DOTTED = re.compile(
    r"(?<![\w.])(" + "|".join(re.escape(k) for k in sorted(MOVES, key=len, reverse=True)) + r")(?![\w])"
)
_SLASHED = {k.replace(".", "/"): v.replace(".", "/") for k, v in MOVES.items()}
_SLASH = re.compile(
    r"(?<![\w/])("
    + "|".join(re.escape(k) for k in sorted(_SLASHED, key=len, reverse=True))
    + r")(?=[/.]py\b|/|\.py|[^\w/]|$)"
)


# rami_core.profile is both a former module and the new package: a name
# already under the package is left as it is, so a second run changes nothing.
_UNDER_PROFILE = re.compile(r"[./](model|loader|going_out|rules|hooks|hookspecs)\b")


def _dotted(m: re.Match[str]) -> str:
    if m.group(1) == "rami_core.profile" and _UNDER_PROFILE.match(m.string, m.end()):
        return m.group(1)
    return MOVES[m.group(1)]


def _slashed(m: re.Match[str]) -> str:
    if m.group(1) == "rami_core/profile" and _UNDER_PROFILE.match(m.string, m.end()):
        return m.group(1)
    return _SLASHED[m.group(1)]


def rewrite(text: str) -> str:
    text = _from_imports(text)
    text = _DOTTED.sub(_dotted, text)
    return _SLASH.sub(_slashed, text)


def _text_files() -> list[Path]:
    out = []
    for p in ROOT.rglob("*"):
        if any(part in SKIP_DIRS for part in p.relative_to(ROOT).parts):
            continue
        if p.is_file() and (p.suffix in TEXT_SUFFIXES) and p.name != "relayout.py":
            if p.suffix == "" and p.parent.name != ".ci":
                continue
            out.append(p)
    return out


def move() -> None:
    for p in sorted((ROOT / "rami_core").rglob("*.py")):
        _absolute_imports(p)
    for name, doc in NEW_PACKAGES.items():
        folder = ROOT / "rami_core" / name
        folder.mkdir(exist_ok=True)
        init = folder / "__init__.py"
        if not init.exists() and not _path_of(f"rami_core.{name}").with_suffix(".py").exists():
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            subprocess.run(["git", "add", str(init)], cwd=ROOT, check=True)
    # rami_core/profile.py must make way for the package of the same name
    profile_py = ROOT / "rami_core" / "profile.py"
    if profile_py.exists():
        subprocess.run(
            ["git", "mv", str(profile_py), str(ROOT / "rami_core" / "profile" / "model.py")],
            cwd=ROOT,
            check=True,
        )
        (ROOT / "rami_core" / "profile" / "__init__.py").write_text(
            f'"""{NEW_PACKAGES["profile"]}"""\n', encoding="utf-8"
        )
        subprocess.run(["git", "add", "rami_core/profile/__init__.py"], cwd=ROOT, check=True)
    for old, new in MOVES.items():
        if old == "rami_core.profile":
            continue
        src = _path_of(old)
        if not src.exists():
            continue
        dst = _new_path(new, src.is_dir())
        dst.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["git", "mv", str(src), str(dst)], cwd=ROOT, check=True)
    for p in _text_files():
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new = rewrite(text)
        if new != text:
            p.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--finish"]:
        for p in _text_files():
            try:
                text = p.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
            new = rewrite(text)
            if new != text:
                p.write_text(new, encoding="utf-8")
    elif sys.argv[1:2] == ["--rewrite"]:
        for name in sys.argv[2:]:
            f = Path(name).resolve()
            if f.suffix == ".py" and f.is_relative_to(ROOT / "rami_core"):
                _absolute_imports(f)
            f.write_text(rewrite(f.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        move()
