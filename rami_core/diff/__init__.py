"""`rami diff`: what a house rule changes, as settings and as situations.

A comparison of two resolved profiles, in the order a club argues about its
file: the settings that differ with their meaning (:mod:`.settings`), then
the situations where the referee rules differently, found by search and
shrunk to the fewest cards and moves, then the scenarios a club can keep as
its file's tests. Every ruling comes from the engine under each profile:
nothing here reads a rule on its own.
"""

from __future__ import annotations

from rami_core.diff.settings import SettingChange, settings_diff

__all__ = ["SettingChange", "settings_diff"]
