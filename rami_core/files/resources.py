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

_REPO = Path(__file__).resolve().parents[2]  # the checkout: rami_core/files/ is two below it

# The variant `rami play`, `rami solve` and `rami simulate` use when none is
# given: Rami 51, the most played French rami.
DEFAULT_VARIANT = "rami51"


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


PROFILE_ENTRY_POINT_GROUP = "rami.profiles"


def house_names() -> list[str]:
    """Names of the bundled house-rule files (``rami51_atlas`` for ``variants/house/rami51_atlas.yaml``)."""
    folder = house_dir()
    if not folder.is_dir():
        return []
    return sorted(p.stem for p in folder.glob("*.yaml") if not p.name.startswith("_"))


def installed_profiles() -> dict[str, Path]:
    """Profiles shipped by installed packages, by name.

    A package declares each under the entry-point group ``rami.profiles``:
    the entry's name is the profile's name and its value the package that
    holds ``<name>.yaml``, e.g. in its pyproject.toml::

        [project.entry-points."rami.profiles"]
        rami51_no_joker_discard = "rami_plugin_example"

    An entry whose file cannot be found is left out (``rami variants --all``
    lists what is found)."""
    from importlib.metadata import entry_points

    out: dict[str, Path] = {}
    for ep in entry_points(group=PROFILE_ENTRY_POINT_GROUP):
        module = ep.value.partition(":")[0].strip()
        try:
            root = importlib.resources.files(module)
            path = Path(str(root)) / f"{ep.name}.yaml"
        except (ModuleNotFoundError, TypeError, ValueError):
            continue
        if path.is_file():
            out.setdefault(ep.name, path)
    return out


def profile_path(name: str) -> Path | None:
    """The file of a profile named ``name``: a preset, else a bundled house
    file, else a profile an installed package ships; None if none is."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    for path in (preset_path(name), house_dir() / f"{name}.yaml"):
        if path.is_file():
            return path
    return installed_profiles().get(name)


def profile_names() -> list[str]:
    """Every name `profile_path` resolves: presets, house files, installed profiles."""
    return sorted(set(preset_names()) | set(house_names()) | set(installed_profiles()))


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
