"""Text from outside shown on a terminal: the one place control characters are made visible.

Names, profile text, file names, puzzle ids and every other string a user,
a file or a peer supplies may hold an escape sequence, a bell, a C1 control
or a bidi override that would act on the reader's terminal. `visible` shows
each such character as its Python escape (``\\x1b``, ``\\u202e``) instead:
nothing acts, nothing is silently lost. The message catalogues (problems,
refusals, the terminal's messages) pass every text parameter through it, so
a command that words a message never prints one raw; a command that prints a
supplied text outside the catalogues calls it itself.
"""

from __future__ import annotations

import unicodedata

# Control (Cc), format (Cf: bidi overrides, zero-width characters), surrogate,
# private-use and unassigned code points.
_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def visible(text: str, keep_lines: bool = False) -> str:
    """`text` with every control or format character shown as its escape;
    `keep_lines` keeps newlines and tabs (a multi-line parameter)."""
    if text.isprintable():
        return text
    kept = "\n\t" if keep_lines else ""
    return "".join(
        ch
        if ch == " " or ch in kept or unicodedata.category(ch) not in _HIDDEN
        else ch.encode("unicode_escape").decode("ascii")
        for ch in text
    )


def visible_params(params: dict) -> dict:
    """Catalogue parameters with every text made visible (newlines kept)."""
    return {k: visible(v, keep_lines=True) if isinstance(v, str) else v for k, v in params.items()}
