"""A profile read from YAML, judged, and resolved into the rules of one game.

`rami_core.profile` was once the model's module: ``from rami_core.profile
import Profile`` still works (with a DeprecationWarning naming
`rami_core.profile.model`).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    model = importlib.import_module("rami_core.profile.model")
    if name.startswith("__") or not hasattr(model, name):
        raise AttributeError(name)
    warnings.warn(
        f"rami_core.profile.{name} is now rami_core.profile.model.{name}", DeprecationWarning, stacklevel=2
    )
    return getattr(model, name)
