"""Where the bundled presets and plugins are, installed or in a source checkout.

An installed wheel carries the repository's ``variants/`` as the package
``rami_core.variants`` (and ``plugins/`` as ``rami_core.plugins``); an editable
install maps the same names onto the repository folders. Running straight from
a checkout without installing, neither package exists, and the repository
folders next to ``rami_core/`` are used.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

_REPO = Path(__file__).resolve().parent.parent


def _package_dir(package: str, fallback: str) -> Path:
    try:
        root = importlib.resources.files(package)
    except (ModuleNotFoundError, TypeError):
        root = None
    if root is not None:
        try:
            path = Path(str(root))
        except TypeError:  # pragma: no cover - a zipped install
            path = None
        if path is not None and path.is_dir():
            return path
    return _REPO / fallback


def variants_dir() -> Path:
    """The folder holding the preset profiles (``<name>.yaml``)."""
    return _package_dir("rami_core.variants", "variants")


def house_dir() -> Path:
    """The folder holding the bundled house-rule examples."""
    return variants_dir() / "house"


def plugins_dir() -> Path:
    """The folder holding the bundled house-rule plugins."""
    return _package_dir("rami_core.plugins", "plugins")


def preset_names() -> list[str]:
    """Names of the presets, sorted (``rami51`` for ``variants/rami51.yaml``)."""
    folder = variants_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def preset_path(name: str) -> Path:
    """The file of preset ``name`` (which may not exist)."""
    return variants_dir() / f"{name}.yaml"


def plugins_package():
    """The package of bundled plugins, importable as ``rami_core.plugins``.

    From a source checkout that was not installed, the package does not exist
    under that name; it is then made from the repository's ``plugins/``
    folder, so that plugin modules import the same way in both cases.
    """
    import importlib
    import sys
    import types

    try:
        return importlib.import_module("rami_core.plugins")
    except ModuleNotFoundError:
        folder = _REPO / "plugins"
        module = types.ModuleType("rami_core.plugins", "House-rule plugins bundled with rami.")
        module.__path__ = [str(folder)]
        module.__file__ = str(folder / "__init__.py")
        sys.modules["rami_core.plugins"] = module
        import rami_core

        rami_core.plugins = module  # type: ignore[attr-defined]
        return module
