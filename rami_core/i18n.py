"""Everything rami says to a person, in English and in French.

One catalogue for the terminal game, the replay and the narration of events,
so that a language is complete or visibly not (tests/test_i18n.py fails when
a key lacks its French text). Messages are looked up by key and formatted
with keyword arguments. The engine's refusals have their own catalogue,
keyed by reason with named parameters (:mod:`.refusals`): nothing here reads
an English sentence back.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from typing import Any

from rich.text import Text

from .errors import RuleError
from .refusals import LANGS, refusal_words

__all__ = ["LANGS", "MESSAGES", "Messages"]

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "puzzle_title": "Casse-tête {id} - difficulty {difficulty}",
        "puzzle_goal_all": "Goal: lay every card of your hand in this turn (the whole table may be rebuilt).",
        "puzzle_goal_cards_one": "Goal: lay {n} card of your hand in this turn (the whole table may be rebuilt).",
        "puzzle_goal_cards_many": "Goal: lay {n} cards of your hand in this turn (the whole table may be rebuilt).",
        "puzzle_goal_points_one": "Goal: lay {n} point of your hand in this turn (the whole table may be rebuilt).",
        "puzzle_goal_points_many": "Goal: lay {n} points of your hand in this turn (the whole table may be rebuilt).",
        "puzzle_help": "Edit the table with r (r move 7C 1 2; split 3 9H; join 1 4; add 5C 2; new 8D 9D 10D, or r and the whole table), m and l as in rami play; u undoes, h reveals one meld of the solution, sol shows it all, q quits.",
        "puzzle_solved": "Solved! Every card is down ({moves} table cards moved at the fewest).",
        "puzzle_given_up": "Not solved. The solution: {solution}",
        "puzzle_hint": "Hint {n} of {total}: the solution holds the meld {meld}",
        "puzzle_hint_done": "Every meld of the solution has been shown: type sol for the command.",
        "puzzle_solution": "Solution: {command}",
        "puzzle_ended": "The turn ended without the goal: the puzzle is not solved.",
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
        "cards_many": "{n} cards",
        "cards_one": "{n} card",
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
        "timeout": "Time is up for {name}: the turn ends by the clock.",
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
        "hint_unavailable": "hint unavailable: {detail}",
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
        "bots_capped": "The bots stop: a round reached {turns} turns or the game {rounds} rounds.",
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
            "Cards: 7H 10D QS AC JK, or 7♥ 10♦ Q♠ A♣ (T for 10); the French notation is read too: 7Co DP RCa VT.\n"
            "Melds are numbered as on the table.\n"
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
            "  sc, scores         the score sheet\n"
            "  save FILE          save the game;  q, quit  leave the game\n"
            "  Enter              redraw the screen"
        ),
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
        "ev_rebuilt": "the stock is rebuilt from the discard pile ({cards})",
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
        "ev_rearranged_added": "{name} adds {items} and rearranges the table: {melds}",
        "ev_undone": "{name} takes back the moves of this turn",
        "evy_undone": "You take back the moves of this turn",
        "evy_rearranged_added": "You add {items} and rearrange the table: {melds}",
        "ev_round_over_out": "Round over: {name} goes out{sec}; penalties {penalties}; scores {scores}",
        "evy_round_over_out": "Round over: you go out{sec}; penalties {penalties}; scores {scores}",
        "ev_round_over_stock": "Round over: the stock ran out; penalties {penalties}; scores {scores}",
        "ev_game_over": "Game over: {name} wins; scores {scores}",
        "ev_game_over_tie": "Game over: a tie; scores {scores}",
        "round_winner_you": "You go out{sec}.",
        "game_winner_you": "You win the game.",
        "players_one": "{n} player",
        "players_many": "{n} players",
        "replay_title": "{variant} - {players}, seed {seed}, {entries}",
        "entries_one": "{n} log entry",
        "entries_many": "{n} log entries",
        "replay_ok": "replay matches the saved snapshot",
        "cannot_replay": "cannot replay:",
        "cannot_resume": "cannot resume:",
        "card_empty": "no card written",
        "card_unreadable": "not a card: {card}",
        "card_no_suit": "{card!r} is not a card: no suit (S H D C, or ♠ ♥ ♦ ♣)",
        "card_bad_rank": "{card!r} is not a card: the rank is A, 2-10, J, Q or K (T for 10)",
        "card_ambiguous": "{card!r} is ambiguous",
        "bad_card_text": "{text}",
        "score_sheet": "Score sheet",
        "sheet_round": "Round",
        "sheet_total": "Total",
        "sheet_target": "game to {target}",
        "sheet_single": "one round",
        "sheet_penalties": "penalties, lower is better",
        "sheet_points": "points, higher is better",
        "what_scores": "sc score sheet",
        "save_offer": "Save the game before leaving? Type a file name, or Enter to leave without saving: ",
        "name_prompt": "Name of player {n} [{default}]: ",
        "bot_one": "{bot} bot",
        "unknown_variant": "no preset or house file named {name!r}",
        "bots_for_players": "{bots} for {players}",
        "bots_one": "{n} bot",
        "bots_many": "{n} bots",
        "played_by": "{name} is played by {counts} players, not {n}",
        "give_one": "give --variant or --rules, not both",
    },
    "fr": {
        "puzzle_title": "Casse-tête {id} - difficulté {difficulty}",
        "puzzle_goal_all": "But : poser toutes les cartes de votre main dans ce tour (toute la table peut être refaite).",
        "puzzle_goal_cards_one": "But : poser {n} carte de votre main dans ce tour (toute la table peut être refaite).",
        "puzzle_goal_cards_many": "But : poser {n} cartes de votre main dans ce tour (toute la table peut être refaite).",
        "puzzle_goal_points_one": "But : poser {n} point de votre main dans ce tour (toute la table peut être refaite).",
        "puzzle_goal_points_many": "But : poser {n} points de votre main dans ce tour (toute la table peut être refaite).",
        "puzzle_help": "Modifiez la table avec r (r move 7Co 1 2; split 3 9Co; join 1 4; add 5T 2; new 8Ca 9Ca 10Ca, ou r et toute la table), m et l comme dans rami play ; u annule, h dévoile une combinaison de la solution, sol la montre entière, q quitte.",
        "puzzle_solved": "Résolu ! Toutes les cartes sont posées ({moves} cartes de la table déplacées au moins).",
        "puzzle_given_up": "Non résolu. La solution : {solution}",
        "puzzle_hint": "Indice {n} sur {total} : la solution contient la combinaison {meld}",
        "puzzle_hint_done": "Toutes les combinaisons de la solution ont été montrées : tapez sol pour la commande.",
        "puzzle_solution": "Solution : {command}",
        "puzzle_ended": "Le tour s'est terminé sans atteindre le but : le casse-tête n'est pas résolu.",
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
        "cards_many": "{n} cartes",
        "cards_one": "{n} carte",
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
        "timeout": "Temps écoulé pour {name} : le tour se termine à l'horloge.",
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
        "bad_command": "Commande non comprise : {detail}  (tapez ? pour l'aide)",
        "unknown_command": "commande inconnue {cmd!r}",
        "usage_meld": "écrivez les cartes de chaque combinaison, séparées par | ou / : m 7Co 8Co 9Co | RP RCo RT",
        "usage_layoff": "écrivez la ou les cartes puis le numéro de la combinaison : l 7Co 2  (un joker : l JK 2 comme 6Co)",
        "usage_swap": "écrivez la ou les cartes données puis le numéro de la combinaison : s 6Co 2",
        "usage_discard": "écrivez la carte à défausser : x 7Co",
        "usage_rearrange": "r <toute la nouvelle table, combinaisons séparées par |>, ou des modifications séparées par ';' : déplacer CARTE DE VERS, ajouter CARTES VERS, nouvelle CARTES, couper COMBI CARTE, joindre A B",
        "usage_save": "écrivez un nom de fichier : enregistrer partie.json",
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
        "hint_unavailable": "conseil indisponible : {detail}",
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
        "bots_capped": "Les robots s'arrêtent : une manche a atteint {turns} tours ou la partie {rounds} manches.",
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
            "Cartes : 7Co 10Ca DP AT JK, ou 7♥ 10♦ D♠ A♣ (pique P, cœur Co, carreau Ca, trèfle T ;\n"
            "valet V, dame D, roi R). La notation anglaise est lue aussi (7H, QS) ; C seul est ambigu\n"
            "(trèfle en anglais, cœur pour un Français) : écrivez Co ou T. Les combinaisons sont numérotées comme sur la table.\n"
            "  d, pioche          piocher\n"
            "  dd                 prendre la carte du dessus de la défausse\n"
            "  m, poser CARTES | CARTES   poser des combinaisons, ex. m 7Co 8Co 9Co | RP RCo RT\n"
            "  l, compléter CARTES N [comme C]   compléter la combinaison N, ex. l 7Co 2, l JK 2 comme 6Co ;\n"
            "                     plusieurs : l 7Co 2 | 5T 1\n"
            "  s, échanger CARTES N   donner la ou les cartes pour le joker de la combinaison N, ex. s 6Co 2\n"
            "  r, réorganiser CARTES | CARTES   tapez toute la nouvelle table (étiquettes '1:' permises)\n"
            "  r MODIF; MODIF     ou modifiez-la : déplacer CARTE DE VERS (DE : main ou un numéro, VERS : nouvelle\n"
            "                     ou un numéro), ajouter CARTES VERS, nouvelle CARTES, couper COMBI CARTE, joindre A B\n"
            "  x, défausse CARTE  défausser (fin du tour)\n"
            "  e, fin             finir le tour (variantes sans défausse)\n"
            "  u, annuler         reprendre votre dernier coup de ce tour (pas une pioche)\n"
            "  h, conseil         le meilleur coup selon le solveur\n"
            "  sc, marque         la feuille de marque\n"
            "  enregistrer FICHIER   enregistrer la partie ;  q, quitter   quitter la partie\n"
            "  Entrée             réafficher l'écran"
        ),
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
        "ev_rebuilt": "la pioche est refaite avec la défausse ({cards})",
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
        "ev_rearranged_added": "{name} ajoute {items} et réorganise la table : {melds}",
        "ev_undone": "{name} reprend les coups de ce tour",
        "evy_undone": "Vous reprenez les coups de ce tour",
        "evy_rearranged_added": "Vous ajoutez {items} et réorganisez la table : {melds}",
        "ev_round_over_out": "Fin de la manche : {name} ferme{sec} ; pénalités {penalties} ; scores {scores}",
        "evy_round_over_out": "Fin de la manche : vous fermez{sec} ; pénalités {penalties} ; scores {scores}",
        "ev_round_over_stock": "Fin de la manche : la pioche est épuisée ; pénalités {penalties} ; scores {scores}",
        "ev_game_over": "Fin de la partie : {name} gagne ; scores {scores}",
        "ev_game_over_tie": "Fin de la partie : égalité ; scores {scores}",
        "round_winner_you": "Vous fermez{sec}.",
        "game_winner_you": "Vous gagnez la partie.",
        "players_one": "{n} joueur",
        "players_many": "{n} joueurs",
        "replay_title": "{variant} - {players}, graine {seed}, {entries}",
        "entries_one": "{n} coup enregistré",
        "entries_many": "{n} coups enregistrés",
        "replay_ok": "la relecture correspond à l'état enregistré",
        "cannot_replay": "relecture impossible :",
        "cannot_resume": "reprise impossible :",
        "card_empty": "aucune carte écrite",
        "card_unreadable": "ce n'est pas une carte : {card}",
        "card_no_suit": "{card!r} n'est pas une carte : il manque la couleur (P Co Ca T, ou ♠ ♥ ♦ ♣)",
        "card_bad_rank": "{card!r} n'est pas une carte : la valeur est A, 2-10, V, D ou R",
        "card_ambiguous": "{card!r} est ambigu : écrivez {rank}Co pour cœur ou {rank}T pour trèfle",
        "bad_card_text": "carte illisible",
        "score_sheet": "Feuille de marque",
        "sheet_round": "Manche",
        "sheet_total": "Total",
        "sheet_target": "partie en {target}",
        "sheet_single": "une manche",
        "sheet_penalties": "pénalités, le plus bas gagne",
        "sheet_points": "points, le plus haut gagne",
        "what_scores": "sc feuille de marque",
        "save_offer": "Enregistrer la partie avant de partir ? Tapez un nom de fichier, ou Entrée pour partir sans enregistrer : ",
        "name_prompt": "Nom du joueur {n} [{default}] : ",
        "bot_one": "robot {bot}",
        "unknown_variant": "aucune variante ni fichier maison nommé {name!r}",
        "bots_for_players": "{bots} pour {players}",
        "bots_one": "{n} robot",
        "bots_many": "{n} robots",
        "played_by": "{name} se joue à {counts} joueurs, pas {n}",
        "give_one": "donnez --variant ou --rules, pas les deux",
    },
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

    def count(self, key: str, n: int, **kw: object) -> str:
        """A message about `n` things: `key_one` for one (and zero in French), else `key_many`."""
        one = n == 1 or (self.lang == "fr" and n == 0)
        return self(f"{key}_{'one' if one else 'many'}", n=n, **kw)

    def text(self, key: str, **kw: Any) -> Text:
        """A message with rich Text values (cards in their colours) kept as they are."""
        template = self._table.get(key) or MESSAGES["en"][key]
        out = Text()
        for literal, name, spec, conv in string.Formatter().parse(template):
            out.append(literal)
            if name is None:
                continue
            value = kw[name]
            if isinstance(value, Text):
                out.append_text(value)
            else:
                out.append(format(repr(value) if conv == "r" else value, spec or ""))
        return out

    def refusal(self, error: RuleError, card_text: Callable[[str], str] = str) -> str:
        """A refused move in this language, from its code, reason and parameters."""
        return refusal_words(
            error.code, error.reason, error.params, self.lang, card_text, error.message, error.texts
        )
