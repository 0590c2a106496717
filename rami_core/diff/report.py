"""The report of `rami diff` as lines of text, in the reader's language.

Plain lines, no colour and no table widths that depend on the terminal, so
the output of a seed is the same everywhere and docs/diff.md can show it as
it prints (tests/test_docs.py runs the page's examples).
"""

from __future__ import annotations

from rami_core.diff.settings import SettingChange, shown_value
from rami_core.diff.words import words


def setting_value(change: SettingChange, value: object, lang: str) -> str:
    """A value of a change as the report shows it (a plugin: on or off, with its settings)."""
    if change.plugin is not None and change.path.count(".") == 1:
        if value is None:
            return words(lang, "plugin_off")
        return words(lang, "plugin_on") + ("" if value == {} else f" {shown_value(value)}")
    return shown_value(value)


def settings_lines(changes: list[SettingChange], lang: str) -> list[str]:
    if not changes:
        return [words(lang, "no_difference")]
    out = [words(lang, "settings_title", n=len(changes))]
    for c in changes:
        out.append(
            words(lang, "setting", path=c.path, a=setting_value(c, c.a, lang), b=setting_value(c, c.b, lang))
        )
        if c.meaning:
            out.append(words(lang, "meaning", meaning=c.meaning))
    return out
