"""What `rami play` says, in English and in French.

Messages are looked up by key and formatted with keyword arguments. Engine
refusals are translated by their error code; the engine's own detail is kept
after the translation (it names the cards and melds involved).
"""

from __future__ import annotations

LANGS = ("en", "fr")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "title": "{variant} - round {round}",
        "scores": "Scores",
        "target": "game to {target}",
        "single_round": "one round",
        "team": "team {n}",
        "table": "Table",
        "table_empty": "Table: nothing laid yet",
        "discard": "Discard",
        "discard_empty": "empty",
        "no_discard_pile": "no discard pile",
        "stock": "Stock",
        "cards": "{n} cards",
        "card": "{n} card",
        "opened": "opened",
        "not_opened": "not opened",
        "others": "Others",
        "players": "Players",
        "since": "Since your last turn",
        "recent": "Last moves",
        "your_hand": "Your hand ({n})",
        "hand_of": "{name}'s hand ({n})",
        "hand_hidden": "(hand hidden)",
        "turn_of": "{name} to play",
        "your_turn": "Your turn",
        "you": "You",
        "player": "Player {n}",
        "bot_name": "{bot} bot {n}",
        "seat": "seat {n}",
        "clock": "clock: {limit} s per turn, {left} s left",
        "clock_off": "clock: {limit} s per turn (not enforced when commands come from a script)",
        "timeout": "Time is up: {name}'s turn ends by the clock.",
        "can_draw": "Draw: d = stock{discard}",
        "can_draw_discard": ", dd = discard pile ({card})",
        "can_lay": "Now: {what}",
        "what_meld": "m meld",
        "what_layoff": "l lay off",
        "what_swap": "s swap a joker",
        "what_rearrange": "r rearrange the table",
        "what_discard": "x discard (ends the turn)",
        "what_end": "e end the turn",
        "what_undo": "u undo",
        "what_hint": "h hint",
        "what_help": "? help",
        "must_open": "To open: {req}.",
        "req_points": "at least {points} points",
        "req_pure": "a pure run (no joker)",
        "req_run_set": "a run and a set",
        "req_no_joker": "no joker",
        "req_all_at_once": "lay your whole hand at once{but_one}",
        "req_but_one": " but one card",
        "req_any": "any meld",
        "owe_joker": "The joker you took ({cards}) must go back on the table this turn.",
        "owe_discard": "The {card} you took from the discard pile must be laid this turn.",
        "prompt": "> ",
        "refused": "Refused ({code}): {detail}",
        "refused_plugin": "Refused by a house rule ({code}): {detail}",
        "bad_command": "Not understood: {detail}  (type ? for help)",
        "unknown_command": "unknown command {cmd!r}",
        "usage_meld": "write the cards of each meld, melds separated by | or /: m 7H 8H 9H | KS KH KC",
        "usage_layoff": "write the card(s) then the meld number: l 7H 2  (a joker: l JK 2 as 6H)",
        "usage_swap": "write the card(s) you give then the meld number: s 6H 2",
        "usage_discard": "write the card to discard: x 7H",
        "usage_rearrange": "r <whole new table, melds separated by |>, or edits separated by ';': move CARD FROM TO, add CARD... TO, new CARD..., split MELD CARD, join A B",
        "usage_save": "write a file name: save game.json",
        "bad_meld_no": "{text!r} is not a meld number",
        "bad_card": "{detail}",
        "table_is_empty": "the table is empty",
        "no_meld": "there is no meld {n} on the table",
        "not_in_meld": "meld {n} holds no {card}",
        "cant_split": "meld {n} cannot be cut before {card}",
        "bad_draw_source": "draw from the stock (d) or the discard pile (dd)",
        "not_your_turn_now": "it is not your turn",
        "nothing_to_undo": "Nothing to undo in this turn (a card drawn from the stock stays drawn).",
        "undone": "Undone: {what}.",
        "hint": "Hint: {text}",
        "hint_none": "Hint: no lay found; {then}",
        "hint_draw_stock": "draw from the stock (d)",
        "hint_draw_discard": "take the {card} from the discard pile (dd)",
        "hint_then": "then",
        "hint_discard": "discard {card} (x {code})",
        "hint_end": "end your turn (e)",
        "saved": "Game saved to {path}.",
        "save_failed": "Could not save to {path}: {error}",
        "resumed": "Game resumed from {path}.",
        "abandoned": "Game abandoned.",
        "round_over": "Round {round} over",
        "round_winner": "{name} goes out{sec}.",
        "rami_sec": " (rami sec)",
        "round_no_winner": "The stock ran out: no winner this round.",
        "round_replay": "The stock ran out: the round is dealt again.",
        "hands_shown": "Every hand",
        "penalty": "pays {n}",
        "penalty_zero": "pays nothing",
        "game_over": "Game over.",
        "game_winner": "{name} wins the game.",
        "game_tie": "The game ends in a tie.",
        "continue": "Press Enter for the next round (q to quit).",
        "pass_to": "Pass the screen to {name}. Press Enter when {name} is ready.",
        "ready_prompt": "[Enter] ",
        "continue_prompt": "[Enter] ",
        "watching": "Watching: {names}.",
        "help": (
            "Cards: 7H 10D QS AC JK (also 7♥, T for 10{fr}). Melds are numbered as on the table.\n"
            "  d, draw            draw from the stock\n"
            "  dd, draw discard   take the top of the discard pile\n"
            "  m CARDS | CARDS    lay new melds, e.g. m 7H 8H 9H | KS KH KC\n"
            "  l CARDS N [as C]   lay off on meld N, e.g. l 7H 2, l JK 2 as 6H; several: l 7H 2 | 5C 1\n"
            "  s CARDS N          give the card(s) for the joker of meld N, e.g. s 6H 2\n"
            "  r CARDS | CARDS    rearrange: type the whole new table (optional '1:' labels)\n"
            "  r EDIT; EDIT       or edit it: move CARD FROM TO (FROM may be h for your hand, TO may be new),\n"
            "                     add CARDS TO, new CARDS, split MELD CARD (cut before CARD), join A B\n"
            "  x CARD, discard    discard a card (ends the turn)\n"
            "  e, end             end the turn (variants without a discard)\n"
            "  u, undo            take back your last move of this turn (not a stock draw)\n"
            "  h, hint            the solver's best move\n"
            "  save FILE          save the game;  q, quit  leave the game\n"
            "  Enter              redraw the screen"
        ),
        "help_fr": ", V D R with a suit symbol",
        "ev_draw_stock": "{name} draws from the stock",
        "ev_draw_stock_card": "{name} draws {card} from the stock",
        "ev_draw_discard": "{name} takes {card} from the discard pile",
        "ev_opened": "{name} opens",
        "ev_laid": "{name} lays {melds}",
        "ev_laid_off": "{name} lays off {items}",
        "ev_on_meld": "{card} on meld {n}",
        "ev_swapped": "{name} gives {cards} for the joker of meld {n}",
        "ev_rearranged": "{name} rearranges the table: {melds}",
        "ev_discarded": "{name} discards {card}",
        "ev_turn_ended": "{name} ends the turn",
        "ev_timed_out": "{name} runs out of time",
        "ev_timed_out_undone": "{name} runs out of time (the turn is undone)",
        "ev_rebuilt": "the stock is rebuilt from the discard pile ({n} cards)",
        "ev_dealt": "Round {round} dealt: {name} plays first.",
        "evy_dealt": "Round {round} dealt: you play first.",
        "evy_draw_stock": "You draw from the stock",
        "evy_draw_stock_card": "You draw {card} from the stock",
        "evy_draw_discard": "You take {card} from the discard pile",
        "evy_opened": "You open",
        "evy_laid": "You lay {melds}",
        "evy_laid_off": "You lay off {items}",
        "evy_swapped": "You give {cards} for the joker of meld {n}",
        "evy_rearranged": "You rearrange the table: {melds}",
        "evy_discarded": "You discard {card}",
        "evy_turn_ended": "You end your turn",
        "evy_timed_out": "You run out of time",
        "evy_timed_out_undone": "You run out of time (the turn is undone)",
        "bot_error": "{name} could not play ({detail}); the clock ends its turn.",
        "no_bot": "no bot named {name!r}; bots: {bots}",
    },
    "fr": {
        "title": "{variant} - manche {round}",
        "scores": "Scores",
        "target": "partie en {target}",
        "single_round": "une manche",
        "team": "équipe {n}",
        "table": "Table",
        "table_empty": "Table : rien n'est posé",
        "discard": "Défausse",
        "discard_empty": "vide",
        "no_discard_pile": "pas de défausse",
        "stock": "Pioche",
        "cards": "{n} cartes",
        "card": "{n} carte",
        "opened": "a ouvert",
        "not_opened": "n'a pas ouvert",
        "others": "Adversaires",
        "players": "Joueurs",
        "since": "Depuis votre dernier tour",
        "recent": "Derniers coups",
        "your_hand": "Votre main ({n})",
        "hand_of": "Main de {name} ({n})",
        "hand_hidden": "(main cachée)",
        "turn_of": "À {name} de jouer",
        "your_turn": "À vous de jouer",
        "you": "Vous",
        "player": "Joueur {n}",
        "bot_name": "robot {bot} {n}",
        "seat": "place {n}",
        "clock": "horloge : {limit} s par tour, {left} s restantes",
        "clock_off": "horloge : {limit} s par tour (non appliquée quand les commandes viennent d'un script)",
        "timeout": "Temps écoulé : le tour de {name} se termine à l'horloge.",
        "can_draw": "Piochez : d = pioche{discard}",
        "can_draw_discard": ", dd = défausse ({card})",
        "can_lay": "Maintenant : {what}",
        "what_meld": "m poser",
        "what_layoff": "l compléter",
        "what_swap": "s échanger un joker",
        "what_rearrange": "r réorganiser la table",
        "what_discard": "x défausser (fin du tour)",
        "what_end": "e finir le tour",
        "what_undo": "u annuler",
        "what_hint": "h conseil",
        "what_help": "? aide",
        "must_open": "Pour ouvrir : {req}.",
        "req_points": "au moins {points} points",
        "req_pure": "une tierce franche (sans joker)",
        "req_run_set": "une suite et un brelan",
        "req_no_joker": "sans joker",
        "req_all_at_once": "poser toute votre main d'un coup{but_one}",
        "req_but_one": " sauf une carte",
        "req_any": "n'importe quelle combinaison",
        "owe_joker": "Le joker repris ({cards}) doit retourner sur la table ce tour-ci.",
        "owe_discard": "Le {card} pris à la défausse doit être posé ce tour-ci.",
        "prompt": "> ",
        "refused": "Refusé ({code}) : {detail}",
        "refused_plugin": "Refusé par une règle maison ({code}) : {detail}",
        "bad_command": "Commande non comprise : {detail}  (tapez ? pour l'aide)",
        "unknown_command": "commande inconnue {cmd!r}",
        "usage_meld": "écrivez les cartes de chaque combinaison, séparées par | ou / : m 7♥ 8♥ 9♥ | R♠ R♥ R♣",
        "usage_layoff": "écrivez la ou les cartes puis le numéro de la combinaison : l 7♥ 2  (un joker : l JK 2 as 6♥)",
        "usage_swap": "écrivez la ou les cartes données puis le numéro de la combinaison : s 6♥ 2",
        "usage_discard": "écrivez la carte à défausser : x 7♥",
        "usage_rearrange": "r <toute la nouvelle table, combinaisons séparées par |>, ou des modifications séparées par ';' : move CARTE DE VERS, add CARTES VERS, new CARTES, split COMBI CARTE, join A B",
        "usage_save": "écrivez un nom de fichier : save partie.json",
        "bad_meld_no": "{text!r} n'est pas un numéro de combinaison",
        "bad_card": "carte illisible : {detail}",
        "table_is_empty": "la table est vide",
        "no_meld": "il n'y a pas de combinaison {n} sur la table",
        "not_in_meld": "la combinaison {n} ne contient pas {card}",
        "cant_split": "la combinaison {n} ne peut pas être coupée avant {card}",
        "bad_draw_source": "piochez dans la pioche (d) ou la défausse (dd)",
        "not_your_turn_now": "ce n'est pas votre tour",
        "nothing_to_undo": "Rien à annuler dans ce tour (une carte piochée reste piochée).",
        "undone": "Annulé : {what}.",
        "hint": "Conseil : {text}",
        "hint_none": "Conseil : rien à poser ; {then}",
        "hint_draw_stock": "piochez (d)",
        "hint_draw_discard": "prenez le {card} de la défausse (dd)",
        "hint_then": "puis",
        "hint_discard": "défaussez {card} (x {code})",
        "hint_end": "finissez votre tour (e)",
        "saved": "Partie enregistrée dans {path}.",
        "save_failed": "Impossible d'enregistrer dans {path} : {error}",
        "resumed": "Partie reprise depuis {path}.",
        "abandoned": "Partie abandonnée.",
        "round_over": "Fin de la manche {round}",
        "round_winner": "{name} ferme{sec}.",
        "rami_sec": " (rami sec)",
        "round_no_winner": "La pioche est épuisée : pas de gagnant pour cette manche.",
        "round_replay": "La pioche est épuisée : la manche est redistribuée.",
        "hands_shown": "Toutes les mains",
        "penalty": "paie {n}",
        "penalty_zero": "ne paie rien",
        "game_over": "Fin de la partie.",
        "game_winner": "{name} gagne la partie.",
        "game_tie": "La partie se termine par une égalité.",
        "continue": "Appuyez sur Entrée pour la manche suivante (q pour quitter).",
        "pass_to": "Passez l'écran à {name}. Appuyez sur Entrée quand {name} est prêt.",
        "ready_prompt": "[Entrée] ",
        "continue_prompt": "[Entrée] ",
        "watching": "Vous regardez : {names}.",
        "help": (
            "Cartes : 7♥ 10♦ D♠ A♣ JK (aussi 7H, QS, T pour 10). Les combinaisons sont numérotées comme sur la table.\n"
            "  d, piocher         piocher\n"
            "  dd                 prendre la carte du dessus de la défausse\n"
            "  m CARTES | CARTES  poser des combinaisons, ex. m 7♥ 8♥ 9♥ | R♠ R♥ R♣\n"
            "  l CARTES N [as C]  compléter la combinaison N, ex. l 7♥ 2, l JK 2 as 6♥ ; plusieurs : l 7♥ 2 | 5♣ 1\n"
            "  s CARTES N         donner la ou les cartes pour le joker de la combinaison N, ex. s 6♥ 2\n"
            "  r CARTES | CARTES  réorganiser : tapez toute la nouvelle table (étiquettes '1:' permises)\n"
            "  r MODIF; MODIF     ou modifiez-la : move CARTE DE VERS (DE peut être h pour la main, VERS new),\n"
            "                     add CARTES VERS, new CARTES, split COMBI CARTE (coupe avant CARTE), join A B\n"
            "  x CARTE            défausser (fin du tour)\n"
            "  e, fin             finir le tour (variantes sans défausse)\n"
            "  u, annuler         reprendre votre dernier coup de ce tour (pas une pioche)\n"
            "  h, conseil         le meilleur coup selon le solveur\n"
            "  save FICHIER       enregistrer ;  q, quitter  quitter la partie\n"
            "  Entrée             réafficher l'écran"
        ),
        "help_fr": "",
        "ev_draw_stock": "{name} pioche",
        "ev_draw_stock_card": "{name} pioche {card}",
        "ev_draw_discard": "{name} prend {card} à la défausse",
        "ev_opened": "{name} ouvre",
        "ev_laid": "{name} pose {melds}",
        "ev_laid_off": "{name} complète : {items}",
        "ev_on_meld": "{card} sur la combinaison {n}",
        "ev_swapped": "{name} donne {cards} pour le joker de la combinaison {n}",
        "ev_rearranged": "{name} réorganise la table : {melds}",
        "ev_discarded": "{name} défausse {card}",
        "ev_turn_ended": "{name} finit son tour",
        "ev_timed_out": "{name} dépasse le temps",
        "ev_timed_out_undone": "{name} dépasse le temps (le tour est annulé)",
        "ev_rebuilt": "la pioche est refaite avec la défausse ({n} cartes)",
        "ev_dealt": "Manche {round} distribuée : {name} commence.",
        "evy_dealt": "Manche {round} distribuée : vous commencez.",
        "evy_draw_stock": "Vous piochez",
        "evy_draw_stock_card": "Vous piochez {card}",
        "evy_draw_discard": "Vous prenez {card} à la défausse",
        "evy_opened": "Vous ouvrez",
        "evy_laid": "Vous posez {melds}",
        "evy_laid_off": "Vous complétez : {items}",
        "evy_swapped": "Vous donnez {cards} pour le joker de la combinaison {n}",
        "evy_rearranged": "Vous réorganisez la table : {melds}",
        "evy_discarded": "Vous défaussez {card}",
        "evy_turn_ended": "Vous finissez votre tour",
        "evy_timed_out": "Vous dépassez le temps",
        "evy_timed_out_undone": "Vous dépassez le temps (le tour est annulé)",
        "bot_error": "{name} n'a pas pu jouer ({detail}) ; l'horloge finit son tour.",
        "no_bot": "aucun robot nommé {name!r} ; robots : {bots}",
    },
}

# Engine refusals in French, by error code (rami_core.errors.ERROR_CODES).
ERRORS_FR: dict[str, str] = {
    "not_your_turn": "ce n'est pas votre tour",
    "wrong_phase": "ce n'est pas le moment",
    "action_forbidden": "action interdite dans cette variante",
    "card_not_in_hand": "cette carte n'est pas dans votre main",
    "no_such_meld": "cette combinaison n'est pas sur la table",
    "not_opened": "vous n'avez pas encore ouvert",
    "invalid_meld": "combinaison invalide",
    "opening_requirement": "l'ouverture ne remplit pas les conditions",
    "table_invalid": "la table réorganisée n'est pas valide",
    "no_card_from_hand": "la réorganisation doit poser au moins une carte de votre main",
    "joker_swap_forbidden": "échange de joker interdit",
    "joker_not_reused": "le joker repris doit retourner sur la table ce tour-ci",
    "discard_not_laid": "la carte prise à la défausse doit être posée ce tour-ci",
    "draw_forbidden": "pioche interdite",
    "discard_forbidden": "défausse interdite",
    "must_keep_discard": "gardez une carte pour la défausse",
}


class Messages:
    """The messages of one language."""

    def __init__(self, lang: str = "en"):
        if lang not in LANGS:
            raise ValueError(f"language must be one of {', '.join(LANGS)}, not {lang!r}")
        self.lang = lang
        self._table = MESSAGES[lang]

    def __call__(self, key: str, **kw: object) -> str:
        text = self._table.get(key) or MESSAGES["en"][key]
        return text.format(**kw) if kw else text

    def refusal(self, code: str, detail: str) -> str:
        """An engine refusal: translated by code, the engine's detail kept."""
        if self.lang == "fr":
            if code in ERRORS_FR:
                return f"Refusé : {ERRORS_FR[code]} ({code} : {detail})"
            return self("refused_plugin", code=code, detail=detail)
        return self("refused", code=code, detail=detail)
