"""What the table page reads in words: events and refusals, in the page's
language, from the project's one catalogue (`i18n`) and narrator
(`narration`), so the browser never writes a card code or a rule itself.

Cards are written as on a card (rank in the language, suit symbol: "V♥",
"10♠"); the joker is "Joker"; meld numbers count from 1, as shown.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.text import Text

from rami_core.cards.text import CardStyle
from rami_core.game.events import Event
from rami_core.players.narration import Teller, tell
from rami_core.words.errors import ProfileError, RuleError
from rami_core.words.messages import LANGS, Messages
from rami_core.words.refusals import CODES, REFUSED, refusal_words

if TYPE_CHECKING:
    from rami_core.server.table import HostedTable

# The server's own refusals (the engine's are in the catalogue), in French.
SERVER_FR = {
    "bad_token": "ce lien n'ouvre aucune place à cette table",
    "game_not_over": "la partie s'exporte, ou se rejoue, une fois finie",
    "invalid_action": "ce coup est mal formé",
    "invalid_json": "la requête n'est pas du JSON",
    "invalid_request": "la demande est mal formée",
    "no_such_table": "cette table n'existe pas (ou plus : supprimée par qui l'a créée, ou expirée)",
    "spectator": "un spectateur ne joue pas : rejoignez la table avec le lien d'une place",
    "too_large": "la requête est trop grande",
    "undo_forbidden": "rien à annuler : la pioche reste, les poses peuvent être reprises",
    "no_such_offer": "pas de table publique de ce jeu",
    "no_such_ticket": "cette place en attente est inconnue ici : rejoignez à nouveau",
    "already_seated": "la table est faite : la place est à vous, la pendule la joue",
    "public_full": "toutes les tables publiques sont prises : réessayez dans un moment",
    "too_many_tables": "trop de tables créées depuis cette adresse : réessayez plus tard",
    "too_many_tickets": "trop de places publiques demandées depuis cette adresse : réessayez plus tard",
    "too_many_connections": "trop de connexions ouvertes depuis cette adresse ou à cette table",
    "too_many_requests": "trop de demandes depuis cette adresse : ralentissez, puis réessayez",
    "too_many_codes": "trop de codes de place erronés depuis cette adresse : réessayez plus tard",
    "too_many_messages": "trop de messages de cette place : attendez un instant",
    "server_full": "le serveur tient déjà toutes les tables qu'il peut : réessayez plus tard",
    "busy": "le serveur est occupé : rien n'a changé, réessayez",
    "slow_reader": "cette connexion ne lisait plus ses messages : elle est fermée, rouvrez la page",
    "cross_site": "une demande venue de la page d'un autre site ne change rien ici",
    "not_json": "une demande qui change quelque chose s'envoie en application/json",
    "internal_error": "le serveur a échoué sur cette demande",
    "not_found": "cette adresse n'existe pas ici",
    "method_not_allowed": "cette adresse ne se demande pas ainsi",
    "http_error": "la demande est refusée",
}

# The bots' names as a French table calls them.
BOT_WORDS = {"fr": {"greedy": "glouton", "random": "hasard", "expert": "expert"}}


@functools.cache  # the catalogues are the process's own: asked in a loop, built once
def code_words() -> dict[str, dict[str, str]]:
    """Each language's general words for a refusal code, served to the pages
    (``GET /api/codes``) for a refusal that reaches them without words of its
    own: the engine's codes from the refusal catalogue (``refusals.CODES``),
    the server's own from :data:`SERVER_FR`, so the page keeps no copy of
    either. English is left out: there the page shows the server's message."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        if lang == "en":
            continue
        words = {code: w[lang] for code, w in CODES.items() if lang in w}
        if lang == "fr":
            words = {**SERVER_FR, **words}
        out[lang] = dict(sorted(words.items()))
    return out


def page_lang(value: str | None) -> str:
    """The page's language from a `lang` parameter: one the catalogue has, else English."""
    return value if value in LANGS else "en"


class Words:
    """One language's words for one table's page."""

    def __init__(self, lang: str):
        self.lang = page_lang(lang)
        self.msg = Messages(self.lang)
        self.style = CardStyle(self.lang)

    def card(self, code: str) -> str:
        if code == "JK":
            return "Joker"
        return self.style.code(code)

    def cards(self, codes: Sequence[str]) -> Text:
        return Text(" ".join(self.card(c) for c in codes))

    def melds(self, melds: Sequence[Sequence[str]]) -> Text:
        return Text("  ".join("[" + " ".join(self.card(c) for c in m) + "]" for m in melds))

    def event(self, t: HostedTable, e: Event, seat: int | None) -> str:
        """An event as `seat` sees it, in words ("" where the narrator says nothing)."""
        teller = Teller(
            self.msg,
            name=lambda s: t.seats[s].name,
            cards=self.cards,
            melds=self.melds,
            you=seat,
            discard_enabled=t.game.rules.ends_with_discard,
            ends=True,
        )
        try:
            said = tell(teller, e)
        except (KeyError, ValueError, IndexError, TypeError):  # a plugin's event the narrator lacks
            return e.kind
        return said.plain if said is not None else ""

    def refused(self, e: RuleError) -> str:
        """An engine refusal in words, from its code, reason and parameters
        (meld numbers from 1, cards as shown)."""
        return refusal_words(e.code, e.reason, e.params, self.lang, self.card, e.message, e.texts)

    def refusal(self, code: str, message: str) -> str:
        """A refusal known only by code and message: the server's own from its
        short list (an engine code without its reason: the code's sense)."""
        if code in CODES:
            return refusal_words(code, None, None, self.lang, self.card, message)
        if self.lang == "fr":
            return REFUSED["fr"]["refused"].format(detail=SERVER_FR.get(code, message))
        return REFUSED["en"]["refused"].format(code=code, detail=message)

    def profile_refused(self, e: ProfileError) -> str:
        """A refused profile in words: the frame, then every located problem in this language."""
        return REFUSED[self.lang]["refused"].format(code="profile_invalid", detail=e.format(self.lang))


def event_message(t: HostedTable, e: Event, seat: int | None, lang: str) -> dict[str, Any]:
    """The WebSocket message for an event: the seat's view of it, its words, and
    the table's version it belongs to (a page that fetched the events at a
    version drops the messages it already has)."""
    mine = e.for_seat(seat)
    return {
        "type": "event",
        "event": mine.to_dict(),
        "text": Words(lang).event(t, mine, seat),
        "version": t.version,
    }


def table_events(t: HostedTable, seat: int | None, lang: str) -> list[dict[str, Any]]:
    """Every event of the game so far as `seat` sees it, with its words: a page
    rebuilds its log from these when it opens."""
    words = Words(lang)
    out = []
    for e in t.game.events:
        mine = e.for_seat(seat)
        out.append({"event": mine.to_dict(), "text": words.event(t, mine, seat)})
    return out


def default_name(kind: str, seat: int, lang: str) -> str:
    """An unnamed seat's name in the table's language: "Joueur 2", "robot glouton 3"."""
    msg = Messages(page_lang(lang))
    if kind == "human":
        return msg("player", n=seat + 1)
    return msg("bot_name", bot=BOT_WORDS.get(msg.lang, {}).get(kind, kind), n=seat + 1)
