"""The settings two resolved profiles disagree on, each with what it means.

A club compares files, but a file only says what it changes from its parent:
two files that read differently may resolve to the same rules, and one line
(`extends: rami51`) may hide forty settings. So the comparison is made on the
resolved profiles, key path by key path, and each differing key is explained
by the description the profile model gives it (the text `rami schema` shows
an editor and docs/settings.md names); a plugin by its docstring, a plugin's
setting by its settings model.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from rami_core.profile.model import Profile

# What a profile says about itself rather than about the rules.
NOT_RULES = ("format", "name", "description", "source")


@dataclass(frozen=True)
class SettingChange:
    """One key path whose resolved value differs (``None`` for a plugin that is off)."""

    path: str
    a: Any
    b: Any
    meaning: str

    @property
    def plugin(self) -> str | None:
        """The plugin this change is about, if it is one."""
        parts = self.path.split(".")
        return parts[1] if parts[0] == "plugins" and len(parts) > 1 else None


def shown_value(value: Any) -> str:
    """A value as a profile file writes it (YAML-like: true, null, [2, 4])."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict) and not value:
        return "{}"
    return json.dumps(value, ensure_ascii=False, sort_keys=True).replace('"', "")


def settings_diff(a: Profile, b: Profile) -> list[SettingChange]:
    """Every rule setting that differs between `a` and `b`, in the profile's own order."""
    da, db = a.model_dump(mode="json"), b.model_dump(mode="json")
    out: list[SettingChange] = []
    for group, field in Profile.model_fields.items():
        if group in NOT_RULES or group == "plugins":
            continue
        model = field.annotation
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            continue
        for key, sub in model.model_fields.items():
            va, vb = da[group][key], db[group][key]
            if va != vb:
                out.append(SettingChange(f"{group}.{key}", va, vb, _words(sub.description)))
    out.extend(_plugin_changes(a.active_plugins, b.active_plugins))
    return out


def _plugin_changes(pa: dict[str, dict[str, Any]], pb: dict[str, dict[str, Any]]) -> list[SettingChange]:
    from rami_core.profile.hooks import plugin_class, settings_model

    out: list[SettingChange] = []
    for name in sorted(set(pa) | set(pb)):
        cls = plugin_class(name)
        if name not in pa or name not in pb:
            out.append(
                SettingChange(f"plugins.{name}", _on(pa.get(name)), _on(pb.get(name)), _plugin_doc(cls))
            )
            continue
        model = settings_model(cls)
        sa = model.model_validate(pa[name]).model_dump(mode="json")
        sb = model.model_validate(pb[name]).model_dump(mode="json")
        for key in sorted(set(sa) | set(sb)):
            if sa.get(key) != sb.get(key):
                sub = model.model_fields.get(key)
                meaning = _words(sub.description if sub is not None else None)
                out.append(SettingChange(f"plugins.{name}.{key}", sa.get(key), sb.get(key), meaning))
    return out


def _on(settings: dict[str, Any] | None) -> Any:
    """A plugin's value in the comparison: off is null, on with its settings ({} for the defaults)."""
    return None if settings is None else dict(settings)


def _plugin_doc(cls: type) -> str:
    import sys

    doc = cls.__doc__ or getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
    first = doc.strip().split("\n\n")[0]
    return _words(first) or "a house-rule plugin"


def _words(text: str | None) -> str:
    return " ".join((text or "").split())


def profile_with(profile: Profile, path: str, value: Any) -> Profile | None:
    """`profile` with one setting (a key path of :func:`settings_diff`) set to
    `value`, or None where that alone makes an incoherent profile (a setting
    that only holds together with another): what tells which setting a
    different ruling comes from."""
    return profile_with_all(profile, [(path, value)])


def moved(
    profile: Profile, change: SettingChange, changes: list[SettingChange], to_b: bool
) -> tuple[Profile, tuple[str, ...]] | None:
    """`profile` with `change` moved to the other file's value (B's where
    `to_b`, else A's), and the companions it needs: a setting that holds only
    together with another (voleur's jokers on the table move only where the
    table is rearranged) is moved with the fewest other differing settings
    that make a coherent profile, one at most. None: no such profile."""
    value = change.b if to_b else change.a
    alone = profile_with(profile, change.path, value)
    if alone is not None:
        return alone, ()
    for other in changes:
        if other.path == change.path:
            continue
        first = profile_with_all(profile, [(change.path, value), (other.path, other.b if to_b else other.a)])
        if first is not None:
            return first, (other.path,)
    return None


def profile_with_all(profile: Profile, values: list[tuple[str, Any]]) -> Profile | None:
    """`profile` with several settings set at once (None: incoherent)."""
    current: Any = profile.model_dump(mode="json")
    plugins: dict[str, Any] = dict(profile.active_plugins)  # what the file switches on, settings resolved
    for path, value in values:
        parts = path.split(".")
        if parts[0] == "plugins":
            if len(parts) == 2:
                if value is None:
                    plugins.pop(parts[1], None)
                else:
                    plugins[parts[1]] = dict(value)
            else:
                plugins[parts[1]] = {**plugins.get(parts[1], {}), parts[2]: value}
            current["plugins"] = plugins
        else:
            current[parts[0]] = {**current[parts[0]], parts[1]: value}
    try:
        return Profile.model_validate(current)
    except ValueError:
        return None
