"""Profiles from YAML: presets, house-rule files, ``extends`` chains and ``--set``.

How a profile is read:

1. The argument is a preset name (``rami51`` -> ``variants/rami51.yaml``) or a
   file path (anything with a slash, a ``.yaml``/``.yml`` suffix, or a leading dot).
2. Each file is read by :mod:`rami_core.profile.loader.safe_yaml`: plain data only,
   bounded in size, aliases and nesting, every key's line and column recorded.
3. :mod:`rami_core.profile.loader.layers` resolves ``extends`` (parent first, then the
   child deep-merged over it), then a scenario's ``rules`` and ``--set``.
4. The result is validated by :class:`~rami_core.profile.model.Profile`;
   :mod:`rami_core.profile.loader.translate` maps pydantic's errors back to files and
   lines, with the nearest valid key or value suggested.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError

from rami_core.profile.going_out import unlikely
from rami_core.profile.loader.layers import Layer, deep_merge, resolve, resolve_profile_data
from rami_core.profile.loader.safe_yaml import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_EXTENDS,
    MAX_FILE_BYTES,
    MAX_VALUES,
    Loc,
    YamlDoc,
    kept_if_accepted,
    load_yaml_file,
    load_yaml_text,
)
from rami_core.profile.loader.translate import located_plugin_problems, located_warnings, validation_problems
from rami_core.profile.model import Profile
from rami_core.words.errors import Problem, ProfileError

__all__ = [
    "MAX_ALIASES",
    "MAX_DEPTH",
    "MAX_EXTENDS",
    "MAX_FILE_BYTES",
    "MAX_VALUES",
    "Loc",
    "YamlDoc",
    "check_profile",
    "deep_merge",
    "load_profile",
    "load_yaml_file",
    "load_yaml_text",
    "resolve_profile_data",
]


def load_profile(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    rules_label: str = "rules",
) -> Profile:
    """Load and validate a profile.

    ``name_or_path``: a preset name (``rami51``) or a YAML file (relative paths
    against ``base_dir``, default the current folder). ``rules``: a mapping
    merged over it like a child file (a scenario's ``rules:``). ``overrides``:
    ``key.path=value`` strings, values parsed as YAML, merged last.

    Raises :class:`ProfileError` with located problems.
    """
    return check_profile(name_or_path, overrides, base_dir=base_dir, rules=rules, rules_label=rules_label)[0]


def check_profile(
    name_or_path: str | os.PathLike[str],
    overrides: Iterable[str] = (),
    *,
    base_dir: str | os.PathLike[str] | None = None,
    rules: Mapping[str, Any] | None = None,
    rules_label: str = "rules",
) -> tuple[Profile, list[Problem]]:
    """:func:`load_profile`, and the profile's warnings located in its files:
    what makes going out possible but hardly ever seen
    (:func:`rami_core.profile.going_out.unlikely`; what makes it impossible is an
    error, raised as every other). `rami validate` and the lobby say them."""
    with kept_if_accepted():  # a refused profile leaves none of its readings kept
        layer, shown = resolve(
            name_or_path, overrides, base_dir=base_dir, rules=rules, rules_label=rules_label
        )
        try:
            profile = Profile.model_validate(layer.data)
        except ValidationError as exc:
            raise validation_problems(exc, layer, shown) from None
        _check_plugins(profile, layer, shown)
        return profile, located_warnings(unlikely(profile), layer, shown)


def _check_plugins(profile: Profile, layer: Layer, shown: str) -> None:
    """Unknown plugins and bad plugin settings are profile errors, located like any other."""
    from rami_core.profile.hooks import check_plugins

    try:
        check_plugins(profile.active_plugins)
    except ProfileError as exc:
        raise located_plugin_problems(exc, layer, shown) from None
