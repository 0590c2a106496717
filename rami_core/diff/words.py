"""What `rami diff` says to a person, in English and in French.

The refusals themselves are worded by the refusal catalogue
(:mod:`rami_core.refusals`); this table holds only the report's own frame
(headings, "under A", "accepted"), so a language is complete or visibly not
(tests/test_diff.py checks both have the same keys and parameters).
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "profiles": "A: {a}\nB: {b}",
        "no_difference": "No difference: A and B resolve to the same rules.",
        "settings_title": "Settings that differ ({n}):",
        "setting": "  {path}: {a} -> {b}",
        "meaning": "      {meaning}",
        "plugin_off": "off",
        "plugin_on": "on",
        "situations_title": "Situations where the referee rules differently ({n}; seed {seed}, {tried} states tried):",
        "no_situation": "No situation found where the referee rules differently ({tried} states tried, seed {seed}).",
        "situation": "  {n}. {kind}, from {settings}",
        "several": "several settings together",
        "hands": "     hands: {hands}",
        "seat_hand": "seat {seat} [{cards}]",
        "table": "     table: {melds}",
        "meld_owner": "[{cards}] (seat {seat})",
        "piles": "     stock (top first): [{stock}]  discard (top last): [{discard}]",
        "opened": "     opened: {opened}",
        "scores": "     scores: {scores}",
        "turn": "     seat {seat} to play, phase {phase}",
        "steps": "     moves: {steps}",
        "under": "     under {side}: {verdict}",
        "accepted": "accepted",
        "outcome": "accepted; {what}",
        "untouched_title": "Settings with no situation found ({n}):",
        "untouched": "  {path}",
        "deal_title": "The deal ({players} players, seed {seed}):",
        "deal_row": "  {what}: A {a} / B {b}",
        "players_row": "  player counts: A {a} / B {b}",
        "games_title": "Bot games on the same deals ({games} games, {players} players, bots {bots}, seed {seed}):",
        "kind_draw": "a draw",
        "kind_meld": "a meld",
        "kind_layoff": "a lay off",
        "kind_swap": "a joker swap",
        "kind_rearrange": "a rearrangement",
        "kind_discard": "a discard",
        "kind_end_turn": "the end of a turn",
        "kind_end": "the end of a round",
        "yes": "yes",
        "no": "no",
        "none": "nothing",
    },
    "fr": {
        "profiles": "A : {a}\nB : {b}",
        "no_difference": "Aucune différence : A et B donnent les mêmes règles.",
        "settings_title": "Réglages qui diffèrent ({n}) :",
        "setting": "  {path} : {a} -> {b}",
        "meaning": "      {meaning}",
        "plugin_off": "désactivé",
        "plugin_on": "activé",
        "situations_title": "Situations où l'arbitre tranche autrement ({n} ; graine {seed}, {tried} états essayés) :",
        "no_situation": "Aucune situation trouvée où l'arbitre tranche autrement ({tried} états essayés, graine {seed}).",
        "situation": "  {n}. {kind}, à cause de {settings}",
        "several": "plusieurs réglages ensemble",
        "hands": "     mains : {hands}",
        "seat_hand": "place {seat} [{cards}]",
        "table": "     table : {melds}",
        "meld_owner": "[{cards}] (place {seat})",
        "piles": "     talon (dessus en premier) : [{stock}]  défausse (dessus en dernier) : [{discard}]",
        "opened": "     ouvert : {opened}",
        "scores": "     scores : {scores}",
        "turn": "     à la place {seat} de jouer, phase {phase}",
        "steps": "     coups : {steps}",
        "under": "     avec {side} : {verdict}",
        "accepted": "accepté",
        "outcome": "accepté ; {what}",
        "untouched_title": "Réglages sans situation trouvée ({n}) :",
        "untouched": "  {path}",
        "deal_title": "La donne ({players} joueurs, graine {seed}) :",
        "deal_row": "  {what} : A {a} / B {b}",
        "players_row": "  nombres de joueurs : A {a} / B {b}",
        "games_title": "Parties de robots sur les mêmes donnes ({games} parties, {players} joueurs, robots {bots}, graine {seed}) :",
        "kind_draw": "une pioche",
        "kind_meld": "une pose",
        "kind_layoff": "un ajout",
        "kind_swap": "un échange de joker",
        "kind_rearrange": "un réarrangement",
        "kind_discard": "une défausse",
        "kind_end_turn": "une fin de tour",
        "kind_end": "une fin de manche",
        "yes": "oui",
        "no": "non",
        "none": "rien",
    },
}


def words(lang: str, key: str, **params: object) -> str:
    """The report's text `key` in `lang`, its parameters filled in."""
    text = WORDS[lang][key]
    return text.format(**params) if params else text
