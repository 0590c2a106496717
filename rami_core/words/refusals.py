"""Refusals as data: a code and named parameters, put into words per language.

The engine refuses a move with a :class:`~rami_core.words.errors.RuleError` whose
``code`` is the contract's (:data:`~rami_core.words.errors.ERROR_CODES`) and whose
``reason`` is a key of :data:`REFUSALS` with its ``params``: the cards
(canonical notation, a string; several cards space-separated), the meld
(counted from 0 as in the actions; a person reads it from 1), the points
needed and reached, a nested reason... The English and the French words of
every key are written here and nowhere else; a client (the terminal, the
table page, ``rami diff``) asks :func:`refusal_words` for them with the
code, the reason and the parameters, never by reading the English sentence
back (tests/test_i18n.py enumerates every key in every language, and checks
that each template shows every parameter the engine gives it).

Where a reason is made (:mod:`.melds`, :mod:`.opening`, the engine, the
bundled plugins) it is a :class:`Reason`: a ``str`` holding its English words,
so that it reads as before wherever a reason is shown or logged, which
carries its key and parameters along.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from rami_core.words.printable import visible_params

LANGS = ("en", "fr")

# A refusal's frame: the code (English only, for a bug report) and the reason.
REFUSED: dict[str, dict[str, str]] = {
    "en": {
        "refused": "Refused ({code}): {detail}",
        "refused_plugin": "Refused by a house rule ({code}): {detail}",
    },
    "fr": {
        "refused": "Refusé : {detail}",
        "refused_plugin": "Refusé par une règle maison ({code}) : {detail}",
    },
}

# The parameters whose value is cards (canonical notation, space-separated),
# meld numbers (counted from 0, shown from 1), nested reasons, or an action
# phrase of WHATS.
CARD_PARAMS = ("card", "cards")
MELD_PARAMS = ("meld", "last")
RANK_PARAMS = ("rank",)
RANKS: dict[str, dict[int, str]] = {
    "en": {1: "A", 11: "J", 12: "Q", 13: "K"},
    "fr": {1: "A", 11: "V", 12: "D", 13: "R"},
}
NESTED_PARAMS = ("reason", "how")

# Engine refusals by error code: the general sense of each code (what a
# refusal says when it has no reason of its own).
CODES: dict[str, dict[str, str]] = {
    "not_your_turn": {"en": "not your turn", "fr": "ce n'est pas votre tour"},
    "wrong_phase": {"en": "not now", "fr": "ce n'est pas le moment"},
    "action_forbidden": {"en": "not in this variant", "fr": "action interdite dans cette variante"},
    "card_not_in_hand": {"en": "card not in your hand", "fr": "cette carte n'est pas dans votre main"},
    "no_such_meld": {"en": "no such meld", "fr": "cette combinaison n'est pas sur la table"},
    "not_opened": {"en": "not opened yet", "fr": "vous n'avez pas encore ouvert"},
    "invalid_meld": {"en": "invalid meld", "fr": "combinaison invalide"},
    "opening_requirement": {
        "en": "the opening falls short",
        "fr": "l'ouverture ne remplit pas les conditions",
    },
    "table_invalid": {"en": "the new table is not valid", "fr": "la table réorganisée n'est pas valide"},
    "no_card_from_hand": {
        "en": "no card from your hand",
        "fr": "la réorganisation doit poser au moins une carte de votre main",
    },
    "joker_swap_forbidden": {"en": "joker swap refused", "fr": "échange de joker refusé"},
    "joker_not_reused": {
        "en": "the joker taken must be laid again",
        "fr": "le joker repris doit retourner sur la table ce tour-ci",
    },
    "discard_not_laid": {
        "en": "the card taken from the discard pile must be laid",
        "fr": "la carte prise à la défausse doit être posée ce tour-ci",
    },
    "draw_forbidden": {"en": "draw refused", "fr": "pioche refusée"},
    "discard_forbidden": {"en": "discard refused", "fr": "défausse refusée"},
    "must_keep_discard": {"en": "keep a card to discard", "fr": "gardez une carte pour la défausse"},
}

# The reasons: key -> (the English words, the French words), each with its
# named parameters.
_REASONS: tuple[tuple[str, str, str], ...] = (
    (
        "round_not_over",
        "the round is not over, or the game is",
        "la manche n'est pas finie, ou la partie l'est",
    ),
    ("undo_own_turn", "undo takes back only your own turn", "annuler ne reprend que votre propre tour"),
    ("no_timeout", "the turn cannot be ended by a timeout", "ce tour ne peut pas finir par le temps écoulé"),
    ("round_is_over", "the round is over", "la manche est finie"),
    (
        "other_turn",
        "it is seat {turn}'s turn, not seat {seat}'s",
        "c'est à la place {turn} de jouer, pas à la place {seat}",
    ),
    ("draw_first", "draw a card before {what}", "piochez une carte avant de {what}"),
    ("not_in_hand_n", "{card} is not in your hand {n} times", "{card} n'est pas {n} fois dans votre main"),
    ("not_in_hand", "{card} is not in your hand", "{card} n'est pas dans votre main"),
    ("open_first", "open before you {what}", "ouvrez avant de {what}"),
    (
        "next_turn",
        "you may {what} from the turn after your opening",
        "vous pourrez {what} au tour qui suit votre ouverture",
    ),
    (
        "keep_one",
        "keep one card: the round ends with a discard",
        "gardez une carte : la manche finit par une défausse",
    ),
    ("drawn_already", "you have already drawn this turn", "vous avez déjà pioché ce tour-ci"),
    ("stock_only", "this variant draws from the stock only", "cette variante ne pioche que dans la pioche"),
    (
        "discard_after_opening",
        "you may not take the discard before you have opened",
        "vous ne pouvez pas prendre la défausse avant d'avoir ouvert",
    ),
    ("discard_empty", "the discard pile is empty", "la défausse est vide"),
    ("no_pile", "no such pile: {pile}", "pas de tas {pile}"),
    ("stock_empty", "the stock is empty", "la pioche est vide"),
    (
        "no_new_meld",
        "this variant lays no new meld after the opening turn",
        "cette variante ne pose plus de nouvelle combinaison après le tour d'ouverture",
    ),
    ("lay_one_meld", "lay at least one meld of cards", "posez au moins une combinaison"),
    ("no_lay_off", "this variant does not allow laying off", "cette variante ne permet pas de compléter"),
    ("lay_off_one", "lay off at least one card", "complétez avec au moins une carte"),
    (
        "no_meld_range",
        "there is no meld {meld} on the table (melds 0 to {last})",
        "il n'y a pas de combinaison {meld} sur la table (combinaisons 1 à {last})",
    ),
    ("no_meld", "there is no meld {meld} on the table", "il n'y a pas de combinaison {meld} sur la table"),
    (
        "all_at_once_only",
        "nothing is laid off in this variant: go out by laying all but one card at once",
        "cette variante ne complète rien : on sort en posant d'un coup toutes ses cartes sauf une",
    ),
    ("meld_reason", "meld {meld}: {reason}", "combinaison {meld} : {reason}"),
    ("new_meld_reason", "new meld {meld}: {reason}", "nouvelle combinaison {meld} : {reason}"),
    ("empty_meld", "empty meld", "combinaison vide"),
    ("no_swap", "no joker swap in this variant: {how}", "pas d'échange de joker dans cette variante : {how}"),
    (
        "swap_on_table",
        "jokers move only when the table is rearranged",
        "les jokers ne bougent qu'en réorganisant la table",
    ),
    ("joker_stays", "a laid joker stays where it is", "un joker posé reste où il est"),
    (
        "no_rearrange",
        "this variant does not allow rearranging the table",
        "cette variante ne permet pas de réorganiser la table",
    ),
    (
        "table_loses",
        "the new table loses {cards}: every table card must stay on the table",
        "la nouvelle table perd {cards} : toute carte posée doit rester sur la table",
    ),
    (
        "add_from_hand",
        "a rearrangement must add at least one card from your hand",
        "une réorganisation doit poser au moins une carte de votre main",
    ),
    (
        "joker_back_discard",
        "the joker you took must go back on the table this turn, not on the discard pile",
        "le joker repris doit retourner sur la table ce tour-ci, pas à la défausse",
    ),
    (
        "joker_back",
        "the joker you took must go back on the table this turn",
        "le joker repris doit retourner sur la table ce tour-ci",
    ),
    (
        "lay_taken",
        "the card taken from the discard pile must be laid this turn",
        "la carte prise à la défausse doit être posée ce tour-ci",
    ),
    (
        "lay_taken_card",
        "the {card} taken from the discard pile must be laid this turn",
        "le {card} pris à la défausse doit être posé ce tour-ci",
    ),
    (
        "throw_back",
        "the {card} taken from the discard pile may not be discarded this turn",
        "le {card} pris à la défausse ne peut pas être redéfaussé ce tour-ci",
    ),
    (
        "no_discard",
        "this variant has no discard: end your turn instead",
        "cette variante n'a pas de défausse : finissez votre tour",
    ),
    ("ends_with_discard", "your turn ends with a discard", "votre tour finit par une défausse"),
    ("spectator", "a spectator plays no move", "un spectateur ne joue pas"),
    (
        "nothing_to_discard",
        "no card of your hand may be discarded now",
        "aucune carte de votre main ne peut être défaussée maintenant",
    ),
    (
        "nothing_to_lay",
        "no meld of your hand may go down now",
        "aucune combinaison de votre main ne peut être posée maintenant",
    ),
    (
        "nothing_to_lay_off",
        "no card of your hand joins a table meld now",
        "aucune carte de votre main ne complète une combinaison de la table maintenant",
    ),
    (
        "no_joker_to_swap",
        "no joker on the table is won back by a card of your hand",
        "aucun joker de la table ne se reprend avec une carte de votre main",
    ),
    (
        "nothing_to_rearrange",
        "no rearrangement of the table takes a card of your hand",
        "aucune réorganisation de la table ne prend une carte de votre main",
    ),
    ("no_natural", "[{cards}] has no natural card", "[{cards}] n'a aucune carte naturelle"),
    (
        "min_naturals",
        "[{cards}] needs at least {n} natural cards",
        "[{cards}] demande au moins {n} cartes naturelles",
    ),
    (
        "max_jokers",
        "[{cards}] holds {k} jokers, at most {n} allowed",
        "[{cards}] contient {k} jokers, {n} au plus permis",
    ),
    (
        "set_short",
        "[{cards}] is too short for a set (at least {n} cards)",
        "[{cards}] est trop court pour un brelan ou un carré (au moins {n} cartes)",
    ),
    (
        "set_long",
        "[{cards}] is too long for a set (at most {n} cards)",
        "[{cards}] est trop long pour un brelan ou un carré (au plus {n} cartes)",
    ),
    (
        "set_suits",
        "[{cards}] repeats a suit: a set's cards are all of different suits",
        "[{cards}] répète une couleur : les cartes d'un brelan sont toutes de couleurs différentes",
    ),
    (
        "run_short",
        "[{cards}] is too short for a run (at least {n} cards)",
        "[{cards}] est trop courte pour une suite (au moins {n} cartes)",
    ),
    (
        "run_repeat",
        "[{cards}] repeats a card: a run's cards are all different",
        "[{cards}] répète une carte : les cartes d'une suite sont toutes différentes",
    ),
    (
        "run_corner",
        "[{cards}] turns the corner K-A-2, which this variant forbids",
        "[{cards}] tourne par R-A-2, ce que cette variante interdit",
    ),
    (
        "run_gap",
        "[{cards}] is not a run: the cards do not follow one another",
        "[{cards}] n'est pas une suite : les cartes ne se suivent pas",
    ),
    (
        "no_meld_kind",
        "[{cards}] is neither a run (one suit, consecutive) nor a set (one rank)",
        "[{cards}] n'est ni une suite (une couleur, cartes consécutives) ni un brelan (une valeur)",
    ),
    ("set_rank", "{card} is not of the set's rank", "{card} n'a pas la valeur du brelan"),
    (
        "set_joker_for",
        "a joker stands for {card} in that set: give it by a joker swap",
        "un joker tient la place de {card} dans ce brelan : donnez la carte par un échange de joker",
    ),
    ("set_has_suit", "the set already holds that suit ({card})", "le brelan a déjà cette couleur ({card})"),
    (
        "set_invalid",
        "the set would no longer be valid: {reason}",
        "le brelan ne serait plus valide : {reason}",
    ),
    ("run_suit", "{card} is not of the run's suit", "{card} n'est pas de la couleur de la suite"),
    (
        "run_joker_cannot",
        "a joker laid off on that run cannot stand for {card}",
        "un joker ajouté à cette suite ne peut pas tenir la place de {card}",
    ),
    (
        "run_joker_for",
        "a joker stands for {card} in that run: give it by a joker swap",
        "un joker tient la place de {card} dans cette suite : donnez la carte par un échange de joker",
    ),
    ("run_has_card", "{card} already has its place in that run", "{card} a déjà sa place dans cette suite"),
    (
        "run_jokers",
        "the run would hold {n} jokers, more than allowed",
        "la suite aurait {n} jokers, plus que permis",
    ),
    (
        "run_ends",
        "those cards do not extend the run at its ends",
        "ces cartes ne prolongent pas la suite à ses bouts",
    ),
    ("no_joker_there", "that meld holds no joker", "cette combinaison n'a pas de joker"),
    ("joker_for_joker", "a joker cannot be given for a joker", "on ne donne pas un joker pour un joker"),
    (
        "run_swap_one",
        "a joker in a run is freed by exactly the one card it stands for",
        "un joker d'une suite se reprend avec exactement la carte qu'il remplace",
    ),
    (
        "run_no_joker_for",
        "no joker in that run stands for {card}",
        "aucun joker de cette suite ne remplace {card}",
    ),
    (
        "swap_rank",
        "the cards given are not of the set's rank",
        "les cartes données n'ont pas la valeur du brelan",
    ),
    (
        "swap_suit",
        "the cards given repeat a suit of the set",
        "les cartes données répètent une couleur du brelan",
    ),
    (
        "swap_both",
        "a joker in a three-card set is freed only by both missing cards at once",
        "le joker d'un brelan de trois cartes se reprend seulement avec les deux cartes manquantes à la fois",
    ),
    (
        "run_joker_stays",
        "a joker leaves a run only when the card it stands for ({card}) takes its place",
        "un joker ne quitte une suite que si la carte qu'il remplace ({card}) prend sa place",
    ),
    (
        "set_joker_stays",
        "a joker leaves a set only when the set is a full carré of four cards afterwards",
        "un joker ne quitte un brelan que si le brelan reste un carré complet de quatre cartes",
    ),
    (
        "set_no_joker_for",
        "no joker in that set stands for {card}",
        "aucun joker de ce brelan ne remplace {card}",
    ),
    (
        "swap_two",
        "two cards free a joker only from a three-card set holding one joker",
        "deux cartes ne reprennent un joker que d'un brelan de trois cartes à un joker",
    ),
    (
        "swap_invalid",
        "the set with those cards would not be valid",
        "le brelan avec ces cartes ne serait pas valide",
    ),
    (
        "swap_count",
        "a joker swap gives one card (two for a three-card set)",
        "un échange de joker donne une carte (deux pour un brelan de trois cartes)",
    ),
    (
        "partner_pure",
        "your partner has opened; your first lay needs a run without a joker",
        "votre partenaire a ouvert ; votre première pose demande une suite sans joker",
    ),
    (
        "all_at_once",
        "nothing is laid before going out: lay your whole hand at once (but the card to discard)",
        "rien ne se pose avant de sortir : posez toute votre main d'un coup (sauf la carte à défausser)",
    ),
    ("opening_no_joker", "an opening may not use a joker", "une ouverture ne peut pas utiliser de joker"),
    ("opening_pure", "an opening needs a run without a joker", "une ouverture demande une suite sans joker"),
    (
        "opening_run_set",
        "an opening needs at least one run and one set",
        "une ouverture demande au moins une suite et un brelan",
    ),
    (
        "opening_points",
        "an opening needs {points} points; these melds make {total}",
        "une ouverture demande {points} points ; ces combinaisons en font {total}",
    ),
    (
        "go_out_run",
        "going out below the points after taking the discard needs a run built without that card",
        "sortir sous les points après avoir pris la défausse demande une suite faite sans cette carte",
    ),
    # The bundled house-rule plugins (plugins/) give these reasons.
    (
        "playable_discard",
        "{card} could be laid off on meld {meld}: it may not be discarded",
        "{card} pourrait compléter la combinaison {meld} : elle ne peut pas être défaussée",
    ),
    (
        "discard_to_open",
        "before opening you may take the discard only to open with it this turn: lay it in your opening",
        "avant d'ouvrir, vous ne prenez la défausse que pour ouvrir avec ce tour-ci : posez-la dans votre ouverture",
    ),
    (
        "joker_own_card",
        "the joker of meld {meld} stood for {card}: a joker is freed only with that card from your own hand, not from the table",
        "le joker de la combinaison {meld} remplaçait {card} : un joker ne se reprend qu'avec cette carte venue de votre main, pas de la table",
    ),
    (
        "joker_own_rank",
        "the joker of meld {meld} stood for a {rank} of the missing suit: a joker is freed only with that card from your own hand, not from the table",
        "le joker de la combinaison {meld} remplaçait un {rank} de la couleur manquante : un joker ne se reprend qu'avec cette carte venue de votre main, pas de la table",
    ),
    (
        "joker_new_meld",
        "the joker you took back must go into a new meld, not be laid off on a meld already on the table",
        "le joker repris doit aller dans une nouvelle combinaison, pas compléter une combinaison déjà posée",
    ),
    (
        "early_discard_draw",
        "you may not take the discard in your first turn of the round",
        "vous ne pouvez pas prendre la défausse à votre premier tour de la manche",
    ),
    (
        "single_card_draw",
        "you may not take the discard while holding a single card",
        "vous ne pouvez pas prendre la défausse avec une seule carte en main",
    ),
    (
        "joker_split_meld",
        "meld {meld} ({cards}) holds a joker: it may not be split, all its cards must stay together in one meld",
        "la combinaison {meld} ({cards}) a un joker : elle ne peut pas être coupée, toutes ses cartes restent ensemble",
    ),
    (
        "joker_split",
        "melds holding a joker may not be split: each must stay together in one meld",
        "une combinaison qui a un joker ne peut pas être coupée : elle reste entière",
    ),
)

REFUSALS: dict[str, dict[str, str]] = {key: {"en": en, "fr": fr} for key, en, fr in _REASONS}

# How some reasons are shown to a person where the engine's words would
# mislead (its meld numbers count from 0, the screen's from 1).
SHOWN: dict[str, dict[str, str]] = {
    "no_meld_range": {"en": "there is no meld {meld} on the table (melds 1 to {last})"},
    "no_meld_empty": {
        "en": "there is no meld {meld} on the table (the table is empty)",
        "fr": "il n'y a pas de combinaison {meld} sur la table (la table est vide)",
    },
}

# The actions a reason names (its `what` parameter): the engine's English
# phrase, and the French infinitive.
WHATS: dict[str, str] = {
    "laying": "poser",
    "laying off": "compléter",
    "swapping a joker": "échanger un joker",
    "rearranging the table": "réorganiser la table",
    "discarding": "défausser",
    "ending your turn": "finir votre tour",
    "lay off": "compléter",
    "swap a joker": "échanger un joker",
    "rearrange the table": "réorganiser la table",
}


FR_VOWELS = frozenset("aeiouyéèêàâîôû")  # before these, French writes d' for de


def template_params(template: str) -> set[str]:
    """The named parameters a template shows."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}


class Reason(str):
    """A reason to refuse: its English words (what ``str`` gives, so it reads
    as a sentence wherever a reason is shown or logged) with its ``key`` in
    :data:`REFUSALS` and its ``params`` kept for the other languages.

    ``Reason("opening_points", points=51, total=40)``; a parameter may be a
    nested Reason (``reason``, ``how``)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, **params: Any) -> Reason:
        if key not in REFUSALS:
            raise KeyError(f"no refusal {key!r} in the catalogue")
        self = super().__new__(cls, _english(key, params))
        self.key = key
        self.params = params
        return self

    def __reduce__(self):  # pickled across processes (simulate's workers)
        return (_rebuild, (self.key, self.params))

    def to_json(self) -> dict[str, Any]:
        """The key and its parameters as plain data (nested reasons as dicts)."""
        return {"reason": self.key, "params": params_json(self.params)}

    def words(self, lang: str, card_text: Callable[[str], str] = str) -> str:
        """This reason as a person reads it in `lang` (meld numbers from 1)."""
        return _render(self.key, self.params, lang, card_text, person=True)


def _rebuild(key: str, params: dict[str, Any]) -> Reason:
    return Reason(key, **params)


def params_json(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters as JSON data: a nested reason becomes ``{"reason", "params"}``."""
    return {k: (v.to_json() if isinstance(v, Reason) else v) for k, v in params.items()}


# The English words of reasons already rendered: the legal moves refuse the
# same few moves with the same parameters at every step of a game.
_ENGLISH: dict[tuple[Any, ...], str] = {}
_ENGLISH_LIMIT = 4096


def _english(key: str, params: Mapping[str, Any]) -> str:
    try:
        memo = (key, *((name, type(v), v) for name, v in params.items()))
        words = _ENGLISH.get(memo)
    except TypeError:  # a parameter that is not hashable (a list): rendered each time
        return _render(key, params, "en", str, person=False)
    if words is None:
        words = _render(key, params, "en", str, person=False)
        if len(_ENGLISH) < _ENGLISH_LIMIT:
            _ENGLISH[memo] = words
    return words


def _param(value: Any) -> Reason | Any:
    """A parameter read back from JSON data (a nested reason rebuilt)."""
    if isinstance(value, Mapping) and "reason" in value and value["reason"] in REFUSALS:
        return Reason(value["reason"], **{k: _param(v) for k, v in dict(value.get("params") or {}).items()})
    return value


def _cards(value: Any, card_text: Callable[[str], str]) -> str:
    return " ".join(card_text(c) for c in str(value).split())


def _render(
    key: str, params: Mapping[str, Any], lang: str, card_text: Callable[[str], str], person: bool
) -> str:
    shown: dict[str, Any] = {}
    for name, value in params.items():
        value = _param(value)
        if name in CARD_PARAMS:
            shown[name] = _cards(value, card_text) if person else value
        elif name in MELD_PARAMS and person and isinstance(value, int):
            shown[name] = value + 1
        elif name in RANK_PARAMS and isinstance(value, int):
            shown[name] = RANKS[lang].get(value, str(value))
        elif name in NESTED_PARAMS and isinstance(value, Reason):
            shown[name] = _render(value.key, value.params, lang, card_text, person)
        elif name == "what" and lang == "fr":
            shown[name] = WHATS.get(str(value), value)
        else:
            shown[name] = value
    if person and key == "no_meld_range" and shown.get("last") == 0:
        key = "no_meld_empty"
    template = (SHOWN.get(key, {}).get(lang) if person else None) or REFUSALS[key][lang]
    if lang == "fr" and str(shown.get("what", "x"))[:1] in FR_VOWELS:
        template = template.replace("de {what}", "d'{what}")  # elision: « avant d'échanger »
    return template.format(**visible_params(shown))


def reason_words(
    reason: str, params: Mapping[str, Any], lang: str, card_text: Callable[[str], str] = str
) -> str:
    """The words of reason `reason` with `params` in `lang`, as a person reads
    them (cards through `card_text`, meld numbers from 1)."""
    return _render(reason, params, lang, card_text, person=True)


def refusal_detail(
    code: str,
    reason: str | None,
    params: Mapping[str, Any] | None,
    lang: str,
    card_text: Callable[[str], str] = str,
    message: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """Why a move was refused, in `lang`, without the "Refused" frame (what a
    page shows after its own word for it): the reason's words, else the
    code's general sense. A plugin's reason that the catalogue does not know
    is shown in its own words: ``texts[lang]`` where the plugin wrote the
    language, else its ``message``."""
    params = dict(params or {})
    if reason in REFUSALS:
        return reason_words(reason, params, lang, card_text)
    if texts and texts.get(lang):
        return texts[lang].format(**params) if params else texts[lang]
    general = CODES.get(code, {}).get(lang)
    if general is not None and lang != "en":  # no words of its own in this language
        return general
    return message or general or code


def refusal_as_written(
    code: str,
    reason: str | None,
    params: Mapping[str, Any] | None,
    lang: str,
    message: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """Why a move was refused, in `lang`, for the author of a file of actions
    (``rami check``'s scenarios, a save): cards in the files' notation and
    meld numbers counted from 0, as the actions count them. In English, the
    refusal's own message."""
    if reason in REFUSALS:
        return _render(reason, dict(params or {}), lang, str, person=False)
    return refusal_detail(code, reason, params, lang, str, message, texts)


def refusal_words(
    code: str,
    reason: str | None,
    params: Mapping[str, Any] | None,
    lang: str,
    card_text: Callable[[str], str] = str,
    message: str = "",
    texts: Mapping[str, str] | None = None,
) -> str:
    """What a refused move says to a person in `lang`, from its code, reason
    and parameters alone (the words the terminal shows, and ``rami diff``'s).

    English keeps the code, the contract a bug report quotes; French shows it
    only for a plugin's code."""
    detail = refusal_detail(code, reason, params, lang, card_text, message, texts)
    frame = "refused" if code in CODES else "refused_plugin"
    return REFUSED[lang][frame].format(code=code, detail=detail)


def refusal_json(error: Any, card_text: Callable[[str], str] = str) -> dict[str, Any]:
    """A :class:`~rami_core.words.errors.RuleError` as a client receives it: code,
    reason, parameters, the English ``message`` and ``messages``, the words
    in every language (:func:`refusal_detail`), so a page shows the
    refusal in its reader's language without a catalogue of its own."""
    out = error.to_json()
    out["messages"] = {
        lang: refusal_detail(
            error.code, error.reason, error.params, lang, card_text, error.message, error.texts
        )
        for lang in LANGS
    }
    return out
