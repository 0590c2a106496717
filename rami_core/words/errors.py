"""The three families of errors rami raises.

- :class:`ProfileError`: a user's configuration is wrong (a profile, a house-rule
  file, a ``--set``). It carries located :class:`Problem` records and reads as
  one line per problem: ``FILE:LINE: key.path: message (did you mean 'x'?)``;
  each problem's message is a code and parameters of the problem catalogue
  (:mod:`rami_core.words.problems`), worded in any language by ``format(lang)``.
- :class:`RuleError`: an illegal move. It has a stable ``code`` from
  :data:`ERROR_CODES` (or ``<plugin>.<code>`` for a plugin's own) and a readable
  message; the refused action changed nothing.
- :class:`InternalError`: a bug in rami itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rami_core.words.problems import FRAME, Said, said, words
from rami_core.words.refusals import Reason, params_json, refusal_as_written

# The contract's error codes, in a fixed order: where several apply,
# the first one here wins.
ERROR_CODES: tuple[str, ...] = (
    "not_your_turn",
    "wrong_phase",
    "action_forbidden",
    "card_not_in_hand",
    "no_such_meld",
    "not_opened",
    "invalid_meld",
    "opening_requirement",
    "table_invalid",
    "no_card_from_hand",
    "joker_swap_forbidden",
    "joker_not_reused",
    "discard_not_laid",
    "draw_forbidden",
    "discard_forbidden",
    "must_keep_discard",
)


class RamiError(Exception):
    """Base of every error rami raises on purpose.

    Raised with a :class:`~rami_core.words.problems.Said` as its message, it is
    told in the user's language (``said``); plain text is shown as written."""

    @property
    def said(self) -> Said:
        """What the error says, as a problem of the catalogue (rami_core.words.problems)."""
        first = self.args[0] if self.args else ""
        return first if isinstance(first, Said) else Said("text", text=str(self))


# --------------------------------------------------------------------------- configuration


@dataclass(frozen=True)
class Problem:
    """One located mistake in a profile.

    ``file`` is the file as shown to the user (or a label such as
    ``--set opening.points=x``), ``line`` and ``column`` are 1-based (``None``
    when unknown), ``key_path`` is dotted (``opening.points``; empty for the
    whole file), ``suggestion`` the nearest valid key or value, if any.
    ``message`` is a :class:`~rami_core.words.problems.Said` (its English words,
    with its ``code`` and ``params``); plain text is a third party's own
    words (code ``text``), shown as written in every language.
    """

    file: str
    line: int | None
    column: int | None
    key_path: str
    message: str
    suggestion: str | None = None

    @property
    def code(self) -> str:
        """The stable code of what the problem says (a key of :data:`~rami_core.words.problems.PROBLEMS`)."""
        return said(self.message).code

    @property
    def params(self) -> dict[str, Any]:
        return said(self.message).params

    def words(self, lang: str = "en") -> str:
        """What the problem says in `lang`, without its location."""
        return words(self.message, lang)

    def format(self, lang: str = "en") -> str:
        """The problem on one line in `lang`: ``FILE:LINE: key.path: words (did you mean 'x'?)``."""
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        parts = [where]
        if self.key_path:
            parts.append(self.key_path)
        text = ": ".join(parts) + f": {self.words(lang)}"
        if self.suggestion is not None:
            text += FRAME.get(lang, FRAME["en"])["suggest"].format(suggestion=self.suggestion)
        return text

    def to_json(self) -> dict[str, Any]:
        """The problem as plain data: location, code, parameters and the words in every language."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "key_path": self.key_path,
            "suggestion": self.suggestion,
            **said(self.message).to_json(),
            "messages": {lang: self.format(lang) for lang in FRAME},
        }

    def __str__(self) -> str:
        return self.format()


class ProfileError(RamiError, ValueError):
    """A profile or house-rule file that cannot be used; lists every problem found."""

    def __init__(self, problems: Iterable[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem("<profile>", None, None, "", said(problems))]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: list[Problem] = list(problems)
        super().__init__(self.format())

    def format(self, lang: str = "en") -> str:
        """Every problem on its own line, in `lang`."""
        return "\n".join(p.format(lang) for p in self.problems)

    def messages(self) -> dict[str, str]:
        """The whole error in every language (what the lobby sends a page)."""
        return {lang: self.format(lang) for lang in FRAME}

    def __str__(self) -> str:
        return self.format()


# --------------------------------------------------------------------------- moves


class RuleError(RamiError):
    """An illegal move, refused without changing anything.

    ``code`` is one of :data:`ERROR_CODES`, or ``<plugin>.<code>`` for a code a
    plugin adds. The refusal is data: ``reason`` (a key of the refusal
    catalogue, :data:`rami_core.words.refusals.REFUSALS`, or None for a code's
    general sense) and its named ``params``; ``message`` is its English words
    and :func:`rami_core.words.refusals.refusal_words` gives them in any language.
    A :class:`~rami_core.words.refusals.Reason` given as the message brings its
    key and parameters. ``texts``: a plugin's own words by language, for a
    reason the catalogue does not know.
    """

    def __init__(
        self,
        code: str,
        message: str = "",
        *,
        reason: str | None = None,
        params: Mapping[str, Any] | None = None,
        texts: Mapping[str, str] | None = None,
    ):
        if code not in ERROR_CODES and "." not in code:
            raise InternalError(f"unknown rule error code {code!r}")
        if isinstance(message, Reason):
            reason, params = message.key, message.params
        self.code = code
        self.message = str(message) or code.replace("_", " ")
        self.reason = reason
        self.params: dict[str, Any] = dict(params or {})
        self.texts: dict[str, str] | None = dict(texts) if texts else None
        super().__init__(f"{code}: {self.message}")

    def to_json(self) -> dict[str, Any]:
        """The refusal as plain data: code, reason, parameters and the English message."""
        return {
            "code": self.code,
            "reason": self.reason,
            "params": params_json(self.params),
            "message": self.message,
        }

    @property
    def said(self) -> Said:
        """The refusal as a problem, worded per language by the refusal catalogue."""
        return Said("rule_refused", error_code=self.code, refusal=Refused(self))

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"


# --------------------------------------------------------------------------- bugs


class InternalError(RamiError):
    """Something rami itself got wrong: a bug to report, never the user's fault."""


# --------------------------------------------------------------------------- errors as problems' parameters


class Refused:
    """A refusal as a problem's parameter (a scenario's step, a save's
    action refused on replay), worded per language by the refusal catalogue
    with meld numbers from 0, as a file of actions counts them."""

    def __init__(self, error: RuleError):
        self.error = error

    def __str__(self) -> str:
        return self.error.message

    def words(self, lang: str) -> str:
        e = self.error
        return refusal_as_written(e.code, e.reason, e.params, lang, e.message, e.texts)

    def to_json(self) -> dict[str, Any]:
        return self.error.to_json()


class Located:
    """A profile error as a problem's parameter: its located problems in each language."""

    def __init__(self, error: ProfileError):
        self.error = error

    def __str__(self) -> str:
        return str(self.error)

    def words(self, lang: str) -> str:
        return self.error.format(lang)

    def to_json(self) -> list[dict[str, Any]]:
        return [p.to_json() for p in self.error.problems]
