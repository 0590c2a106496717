"""Checks run by .ci/run against the installed wheel, from outside the checkout.

    /path/to/wheel-venv/bin/python .ci/check_wheel.py REPO

REPO is the checkout the wheel was built from: every package under its
rami_core/ (and its variants/ and plugins/, which install under rami_core)
must be in the wheel, and every module of the installed rami_core must
import (with every extra installed). An editable install hides a package the
build forgets (rami_core.rl once); this does not. To check more against the
installed wheel, add a function to CHECKS.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path


def expected_packages(repo: Path) -> set[str]:
    out = set()
    for root, prefix in (
        (repo / "rami_core", "rami_core"),
        (repo / "variants", "rami_core.variants"),
        (repo / "plugins", "rami_core.plugins"),
    ):
        for init in root.rglob("__init__.py"):
            rel = init.parent.relative_to(root).parts
            if "__pycache__" not in rel:
                out.add(".".join((prefix, *rel)))
    return out


def check_outside_the_checkout(repo: Path) -> None:
    import rami_core

    where = Path(rami_core.__file__).resolve()
    assert repo.resolve() not in where.parents, f"rami_core imported from the checkout: {where}"
    assert "site-packages" in where.parts, f"rami_core is not the installed wheel: {where}"


def check_every_package_shipped(repo: Path) -> None:
    missing = sorted(p for p in expected_packages(repo) if importlib.util.find_spec(p) is None)
    assert not missing, f"the wheel lacks these packages: {', '.join(missing)}"


def check_every_module_imports(repo: Path) -> None:
    import rami_core

    failed = []
    count = 0
    for info in pkgutil.walk_packages(rami_core.__path__, "rami_core."):
        if info.name.endswith(".__main__"):
            continue  # `python -m` entry points: importing one runs the command
        count += 1
        try:
            importlib.import_module(info.name)
        except Exception as e:  # every extra is installed: nothing may fail to import
            failed.append(f"{info.name}: {type(e).__name__}: {e}")
    assert count > 20, f"only {count} modules found in the installed rami_core"
    assert not failed, "modules that do not import from the wheel:\n" + "\n".join(failed)
    print(f"check_wheel: {count} modules of the installed rami_core import")


CHECKS: list[Callable[[Path], None]] = [
    check_outside_the_checkout,
    check_every_package_shipped,
    check_every_module_imports,
]


def main() -> None:
    repo = Path(sys.argv[1])
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != repo.resolve()]
    for check in CHECKS:
        check(repo)
        print(f"check_wheel: {check.__name__} ok")


if __name__ == "__main__":
    main()
