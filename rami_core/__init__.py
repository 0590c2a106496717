"""rami: a referee engine for the French rummy family.

A variant is data (a :class:`~rami_core.profile.model.Profile` loaded from YAML by
:mod:`rami_core.profile.loader`); the engine reads its settings and never a variant's
name.

The package's folders are its layers (docs/architecture.md). Modules that
stood at the top before the folders existed are still importable by their
former names (``rami_core.engine``, ``rami_core.hookspecs``...), so that a
plugin written against them keeps working; each such import warns
(DeprecationWarning) with the name to use instead.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from types import ModuleType

__version__ = "0.1.0"

__all__ = ["__version__"]

# former module -> where it lives now (a former package carries its submodules)
FORMER_NAMES = {
    "printable": "words.printable",
    "problems": "words.problems",
    "refusals": "words.refusals",
    "errors": "words.errors",
    "i18n": "words.messages",
    "resources": "files.resources",
    "userfiles": "files.userfiles",
    "melds": "cards.melds",
    "state": "game.state",
    "actions": "game.actions",
    "events": "game.events",
    "views": "game.views",
    "hooks": "profile.hooks",
    "hookspecs": "profile.hookspecs",
    "going_out": "profile.going_out",
    "loader": "profile.loader",
    "rules": "profile.rules",
    "engine": "referee.engine",
    "legal": "referee.legal",
    "opening": "referee.opening",
    "scoring": "referee.scoring",
    "caps": "referee.caps",
    "table_jokers": "referee.table_jokers",
    "bots": "players.bots",
    "savegame": "players.savegame",
    "narration": "players.narration",
    "rules_words": "players.rules_words",
    "bot_games": "players.bot_games",
    "scenario": "conformance.scenario",
}


def current_name(name: str) -> str | None:
    """Where a former module name lives now, or None if it is no former name."""
    parts = name.split(".")
    if len(parts) < 2 or parts[0] != __name__ or parts[1] not in FORMER_NAMES:
        return None
    return ".".join([__name__, FORMER_NAMES[parts[1]], *parts[2:]])


class _FormerNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a former name as the module it became (the same object, not a copy)."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if current_name(fullname) is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        new = current_name(module.__name__)
        assert new is not None
        warnings.warn(
            f"{module.__name__} is now {new}; the former name will be removed",
            DeprecationWarning,
            stacklevel=2,
        )
        sys.modules[module.__name__] = importlib.import_module(new)


# First in line: a former package's submodule (rami_core.bots.greedy) would
# otherwise be found by the path finder in the new folder and loaded a second
# time, as a copy with classes of its own.
if not any(isinstance(f, _FormerNames) for f in sys.meta_path):
    sys.meta_path.insert(0, _FormerNames())
