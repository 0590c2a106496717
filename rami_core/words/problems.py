"""Profile and scenario problems as data: a code and named parameters, put into words per language.

A mistake in a profile, a house-rule file, a ``--set`` or a scenario file is
a :class:`~rami_core.words.errors.Problem` located by file, line and key path; what
it says is a :class:`Said`: a stable code of :data:`PROBLEMS` with its named
parameters (the limit, the value written, the file named by ``extends``...).
The English and the French words of every code are written here and nowhere
else, so ``rami validate --lang fr`` and the French lobby say the whole
problem in French; nothing reads an English sentence back to translate it
(tests/test_problem_words.py enumerates every code in every language and
checks that each template shows every parameter).

A :class:`Said` is a ``str`` holding its English words, as :class:`Reason`
is for refusals, so that every place that shows or compares a problem's
message as text reads it as before.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping
from typing import Any

from rami_core.words.printable import visible_params

LANGS = ("en", "fr")

# The frame of a located problem: the suggestion, the words joining a list of
# alternatives.
FRAME: dict[str, dict[str, str]] = {
    "en": {"suggest": " (did you mean '{suggestion}'?)", "or": " or ", "warning": "warning: "},
    "fr": {"suggest": " (vouliez-vous dire « {suggestion} » ?)", "or": " ou ", "warning": "avertissement : "},
}

# code -> (English, French). Parameters: `value` a value as written (quoted
# text, true/false, null, or a nested Said for a mapping or a list), `limit` a
# bound, `path` and `name` as written in the file, `error` a program's own
# words (an exception's class and text, an errno name), `text` free text.
_PROBLEMS: tuple[tuple[str, str, str], ...] = (
    # ------------------------------------------------------------ reading a file
    ("path_not_path", "not a path", "ce n'est pas un chemin"),
    ("path_nul", "the path holds a NUL byte", "le chemin contient un octet NUL"),
    (
        "path_too_long",
        "the path is longer than {limit} characters",
        "le chemin dépasse {limit} caractères",
    ),
    ("path_not_text", "the path is not valid text", "le chemin n'est pas un texte valable"),
    (
        "path_name_too_long",
        "a name in the path is longer than {limit} bytes",
        "un nom du chemin dépasse {limit} octets",
    ),
    ("no_such_file", "no such file", "fichier introuvable"),
    (
        "no_such_file_part",
        "no such file (a part of the path is not a folder)",
        "fichier introuvable (une partie du chemin n'est pas un dossier)",
    ),
    ("is_folder", "is a folder, not a file", "est un dossier, pas un fichier"),
    (
        "is_symlink",
        "is a symbolic link: refused (it could point at any file)",
        "est un lien symbolique : refusé (il pourrait mener à n'importe quel fichier)",
    ),
    ("is_folder_profile", "is a folder, not a profile file", "est un dossier, pas un fichier de profil"),
    ("permission_denied", "permission denied", "permission refusée"),
    ("unreadable_file", "cannot be read: {error}", "illisible : {error}"),
    (
        "not_regular_file",
        "is not a regular file (a pipe, a device or a socket): refused",
        "n'est pas un fichier ordinaire (un tube, un périphérique ou une socket) : refusé",
    ),
    ("file_too_large", "larger than {limit} bytes: refused", "plus de {limit} octets : refusé"),
    (
        "file_too_large_mib",
        "larger than {limit} bytes ({mib} MiB): refused",
        "plus de {limit} octets ({mib} Mio) : refusé",
    ),
    ("not_utf8", "not UTF-8 text (byte {byte})", "ce n'est pas du texte UTF-8 (octet {byte})"),
    (
        "file_nul",
        "holds a NUL character: not a text file",
        "contient un caractère NUL : ce n'est pas un fichier texte",
    ),
    (
        "file_nul_at",
        "holds a NUL character (at character {at}): not a text file",
        "contient un caractère NUL (au caractère {at}) : ce n'est pas un fichier texte",
    ),
    # ------------------------------------------------------------ YAML
    ("yaml_syntax", "invalid YAML: {detail}", "YAML invalide : {detail}"),
    ("yaml_detail", "{context}: {problem}", "{context} : {problem}"),
    (
        "yaml_documents",
        "invalid YAML: several documents (---) where one profile is expected",
        "YAML invalide : plusieurs documents (---) là où un seul profil est attendu",
    ),
    (
        "yaml_aliases",
        "more than {limit} aliases: refused (a small file must not expand into a huge one)",
        "plus de {limit} alias : refusé (un petit fichier ne doit pas se déployer en un énorme)",
    ),
    (
        "yaml_values",
        "more than {limit} values: a profile holds a few hundred settings: refused",
        "plus de {limit} valeurs : un profil tient en quelques centaines de réglages : refusé",
    ),
    (
        "yaml_alias_bomb",
        "expands to more than {limit} values (an alias bomb?): refused",
        "se déploie en plus de {limit} valeurs (une bombe d'alias ?) : refusé",
    ),
    (
        "yaml_depth",
        "nesting deeper than {limit} levels: refused",
        "imbrication de plus de {limit} niveaux : refusé",
    ),
    ("yaml_tag", "unsupported YAML tag '{tag}'", "étiquette YAML non prise en charge « {tag} »"),
    (
        "yaml_merge_key",
        "merge keys (<<) are not supported: use extends",
        "les clés de fusion (<<) ne sont pas prises en charge : utilisez extends",
    ),
    (
        "yaml_key_not_name",
        "a key must be a plain name, not a mapping or a list",
        "une clé doit être un simple nom, pas un dictionnaire ni une liste",
    ),
    ("yaml_duplicate_key", "duplicate key", "clé en double"),
    (
        "yaml_long_int",
        "an integer longer than {limit} digits: refused",
        "un entier de plus de {limit} chiffres : refusé",
    ),
    ("yaml_unreadable_value", "unreadable value {value}", "valeur illisible {value}"),
    # ------------------------------------------------------------ layers
    ("unknown_preset", "unknown preset {name}", "variante inconnue {name}"),
    (
        "unknown_variant",
        "no preset named {name} (known: {known})",
        "aucune variante nommée {name} (connues : {known})",
    ),
    (
        "not_mapping_list",
        "a profile is a mapping of settings (key: value), not a list",
        "un profil est un dictionnaire de réglages (clé: valeur), pas une liste",
    ),
    (
        "not_mapping_value",
        "a profile is a mapping of settings (key: value), not a single {type} value",
        "un profil est un dictionnaire de réglages (clé: valeur), pas une valeur seule ({type})",
    ),
    (
        "extends_not_name",
        "must be a preset name or a path relative to this file",
        "doit être le nom d'une variante ou un chemin relatif à ce fichier",
    ),
    ("extends_cycle", "cycle: {chain}", "cycle : {chain}"),
    (
        "extends_too_long",
        "more than {limit} files in the extends chain",
        "plus de {limit} fichiers dans la chaîne extends",
    ),
    (
        "extends_outside",
        "{path} is outside the folders a profile may extend from "
        "(the first file's folder and its subfolders, and the presets)",
        "{path} est hors des dossiers dont un profil peut hériter "
        "(le dossier du premier fichier et ses sous-dossiers, et les variantes prédéfinies)",
    ),
    ("extends_no_file", "no such file {path}", "fichier introuvable {path}"),
    (
        "set_syntax",
        "expected key.path=value, e.g. opening.points=71",
        "attendu clé.chemin=valeur, par exemple opening.points=71",
    ),
    (
        "set_too_deep",
        "a key path deeper than {limit} levels: refused",
        "un chemin de clé de plus de {limit} niveaux : refusé",
    ),
    ("set_extends", "cannot be set from the command line", "ne se règle pas depuis la ligne de commande"),
    # ------------------------------------------------------------ validation (pydantic's types)
    ("unknown_key", "unknown key", "clé inconnue"),
    ("missing", "required setting is missing", "réglage obligatoire manquant"),
    ("not_one_of", "{value} is not one of: {choices}", "{value} n'est pas l'une des valeurs : {choices}"),
    ("int_type", "input should be a valid integer, got {value}", "attendu un nombre entier, reçu {value}"),
    (
        "int_parsing",
        "input should be a valid integer, unable to parse string as an integer, got {value}",
        "attendu un nombre entier, ce texte n'en est pas un : {value}",
    ),
    (
        "int_from_float",
        "input should be a valid integer, got a number with a fractional part, got {value}",
        "attendu un nombre entier, reçu un nombre à virgule : {value}",
    ),
    (
        "int_parsing_size",
        "unable to parse input string as an integer, exceeded maximum size, got {value}",
        "nombre entier trop grand pour être lu : {value}",
    ),
    (
        "int_got_bool",
        "input should be a valid integer, got {value}: a boolean (true, yes, on) is not a number",
        "attendu un nombre entier, reçu {value} : un booléen (true, yes, on) n'est pas un nombre",
    ),
    (
        "int_got_float",
        "input should be a valid integer, got {value}: write a whole number without a decimal point",
        "attendu un nombre entier, reçu {value} : écrivez un nombre entier sans virgule",
    ),
    (
        "int_got_text",
        "input should be a valid integer, got the text {value}: write the number without quotes",
        "attendu un nombre entier, reçu le texte {value} : écrivez le nombre sans guillemets",
    ),
    (
        "bool_got_text",
        "input should be a valid boolean, got the text {value}: write true or false without quotes",
        "attendu un booléen (true ou false), reçu le texte {value} : écrivez true ou false sans guillemets",
    ),
    (
        "bool_type",
        "input should be a valid boolean, got {value}",
        "attendu un booléen (true ou false), reçu {value}",
    ),
    (
        "bool_parsing",
        "input should be a valid boolean, unable to interpret input, got {value}",
        "attendu un booléen (true ou false), ce texte n'en est pas un : {value}",
    ),
    ("string_type", "input should be a valid string, got {value}", "attendu un texte, reçu {value}"),
    ("float_type", "input should be a valid number, got {value}", "attendu un nombre, reçu {value}"),
    (
        "float_parsing",
        "input should be a valid number, unable to parse string as a number, got {value}",
        "attendu un nombre, ce texte n'en est pas un : {value}",
    ),
    (
        "dict_type",
        "input should be a valid dictionary, got {value}",
        "attendu un dictionnaire (clé: valeur), reçu {value}",
    ),
    ("list_type", "input should be a valid list, got {value}", "attendu une liste, reçu {value}"),
    ("union", "input should be {expected}, got {value}", "attendu {expected}, reçu {value}"),
    (
        "greater_than_equal",
        "input should be greater than or equal to {limit}, got {value}",
        "attendu un nombre d'au moins {limit}, reçu {value}",
    ),
    (
        "greater_than",
        "input should be greater than {limit}, got {value}",
        "attendu un nombre supérieur à {limit}, reçu {value}",
    ),
    (
        "less_than_equal",
        "input should be less than or equal to {limit}, got {value}",
        "attendu un nombre d'au plus {limit}, reçu {value}",
    ),
    (
        "less_than",
        "input should be less than {limit}, got {value}",
        "attendu un nombre inférieur à {limit}, reçu {value}",
    ),
    (
        "string_too_long",
        "string should have at most {limit} characters, got {value}",
        "texte de {limit} caractères au plus attendu, reçu {value}",
    ),
    (
        "string_too_short",
        "string should have at least {limit} characters, got {value}",
        "texte d'au moins {limit} caractères attendu, reçu {value}",
    ),
    (
        "too_long",
        "should have at most {limit} items, not {count}",
        "{limit} éléments au plus attendus, pas {count}",
    ),
    (
        "too_short",
        "should have at least {limit} items, not {count}",
        "au moins {limit} éléments attendus, pas {count}",
    ),
    ("invalid_value", "not a valid value ({kind}), got {value}", "valeur refusée ({kind}), reçu {value}"),
    ("more_problem", "and {n} more problem", "et {n} autre problème"),
    ("more_problems", "and {n} more problems", "et {n} autres problèmes"),
    # the kinds a union's members expect, and how a value too big to show is shown
    ("a_valid_int", "a valid integer", "un nombre entier"),
    ("a_valid_bool", "a valid boolean", "un booléen (true ou false)"),
    ("a_valid_str", "a valid string", "un texte"),
    ("a_valid_number", "a valid number", "un nombre"),
    ("a_valid_dict", "a valid dictionary", "un dictionnaire (clé: valeur)"),
    ("a_valid_list", "a valid list", "une liste"),
    ("a_null", "None", "null (rien)"),
    ("a_mapping", "a mapping", "un dictionnaire"),
    ("a_list", "a list", "une liste"),
    # ------------------------------------------------------------ cross-field checks
    (
        "players_min_above_max",
        "players.min ({min}) is above players.max ({max})",
        "players.min ({min}) dépasse players.max ({max})",
    ),
    (
        "players_counts_outside",
        "players.counts names a count outside players.min..max",
        "players.counts nomme un nombre de joueurs hors de players.min..max",
    ),
    (
        "deck_too_small",
        "at {players} players the deal needs {need} cards but the deck holds {size} "
        "(deck.decks {decks}, deck.jokers {jokers})",
        "à {players} joueurs la donne demande {need} cartes mais le paquet n'en a que {size} "
        "(deck.decks {decks}, deck.jokers {jokers})",
    ),
    (
        "hand_never_out",
        "a hand of {hand} cards can never go out: the smallest meld holds {meld} cards",
        "une main de {hand} cartes ne peut jamais finir : la plus petite combinaison a {meld} cartes",
    ),
    (
        "min_naturals_beyond_hand",
        "jokers.min_naturals ({naturals}) is more than a hand of {hand} cards can hold: no meld could be laid",
        "jokers.min_naturals ({naturals}) dépasse ce qu'une main de {hand} cartes peut tenir : "
        "aucune combinaison ne pourrait être posée",
    ),
    (
        "opening_out_of_reach",
        "an opening of {points} points is out of reach: at {players} players a lay holds at most "
        "{cards} cards, worth {most} points at the very most",
        "une ouverture de {points} points est hors d'atteinte : à {players} joueurs une pose tient au plus "
        "{cards} cartes, qui valent {most} points tout au plus",
    ),
    (
        "opening_set_impossible",
        "the opening needs a set, but no set can be laid: jokers.min_naturals ({naturals}) is above "
        "melds.set_max ({set_max})",
        "l'ouverture demande un brelan, mais aucun ne peut être posé : "
        "jokers.min_naturals ({naturals}) dépasse melds.set_max ({set_max})",
    ),
    (
        "opening_run_and_set_beyond_lay",
        "an opening with a run and a set needs {need} cards, but at {players} players a lay holds at most {cards}",
        "une ouverture avec une suite et un brelan demande {need} cartes, mais à {players} joueurs "
        "une pose en tient au plus {cards}",
    ),
    # ------------------------------------------------------------ warnings: possible, hardly ever seen
    (
        "sets_never_laid",
        "no set can ever be laid: jokers.min_naturals ({naturals}) is above melds.set_max ({set_max}); "
        "only runs of {run} cards or more, few hands ever go out",
        "aucun brelan ne peut jamais être posé : jokers.min_naturals ({naturals}) dépasse "
        "melds.set_max ({set_max}) ; seules des suites de {run} cartes ou plus, peu de mains finiront",
    ),
    (
        "opening_rarely_reached",
        "an opening of {points} points is rarely reached: at {players} players a lay of all {cards} cards "
        "it may hold is worth {average} points on average",
        "une ouverture de {points} points est rarement atteinte : à {players} joueurs une pose des "
        "{cards} cartes qu'elle peut tenir vaut {average} points en moyenne",
    ),
    (
        "hand_size_players_outside",
        "deal.hand_size_by_players names {players} players, outside players.min..max",
        "deal.hand_size_by_players nomme {players} joueurs, hors de players.min..max",
    ),
    (
        "no_discard_to_draw",
        "draw.from_discard is true but discard.enabled is false: there is no discard pile to draw from",
        "draw.from_discard vaut true mais discard.enabled vaut false : il n'y a pas de défausse où piocher",
    ),
    (
        "no_discard_upcard",
        "deal.upcard is true but discard.enabled is false: there is no discard pile to start",
        "deal.upcard vaut true mais discard.enabled vaut false : il n'y a pas de défausse à ouvrir",
    ),
    (
        "no_discard_keep_last",
        "discard.keep_last is true but discard.enabled is false: there is no discard to go out with",
        "discard.keep_last vaut true mais discard.enabled vaut false : il n'y a pas de défausse pour finir",
    ),
    (
        "no_discard_rebuild",
        "draw.empty_stock is {empty_stock} but discard.enabled is false: "
        "there is no pile to rebuild the stock from",
        "draw.empty_stock vaut {empty_stock} mais discard.enabled vaut false : "
        "il n'y a pas de défausse pour refaire la pioche",
    ),
    (
        "no_discard_dealer_extra",
        "deal.dealer_extra_card needs a discard: the first player starts by discarding",
        "deal.dealer_extra_card demande une défausse : le premier joueur commence par défausser",
    ),
    (
        "taken_discard_without_draw",
        "draw.taken_discard_must_be_laid is true but draw.from_discard is false",
        "draw.taken_discard_must_be_laid vaut true mais draw.from_discard vaut false",
    ),
    (
        "set_min_above_max",
        "melds.set_min ({min}) is above melds.set_max ({max})",
        "melds.set_min ({min}) dépasse melds.set_max ({max})",
    ),
    (
        "set_max_four_suits",
        "melds.set_max is above 4 but melds.set_distinct_suits is true: there are only four suits",
        "melds.set_max dépasse 4 mais melds.set_distinct_suits vaut true : il n'y a que quatre couleurs",
    ),
    (
        "wrap_needs_ace_both",
        "melds.wrap needs melds.ace: both (K-A-2 puts the ace on both sides)",
        "melds.wrap demande melds.ace: both (R-A-2 met l'as des deux côtés)",
    ),
    (
        "jokers_never_laid",
        "jokers.max_per_meld is 0 but deck.jokers is {jokers}: the jokers could never be laid "
        "(set deck.jokers: 0)",
        "jokers.max_per_meld vaut 0 mais deck.jokers vaut {jokers} : les jokers ne pourraient jamais être posés "
        "(mettez deck.jokers: 0)",
    ),
    (
        "go_out_run_needs_below",
        "opening.go_out_run_without_taken_discard needs opening.go_out_below_points",
        "opening.go_out_run_without_taken_discard demande opening.go_out_below_points",
    ),
    (
        "all_at_once_rearrange",
        "opening.all_at_once and table.rearrange contradict: "
        "nothing stays on the table to rearrange before going out",
        "opening.all_at_once et table.rearrange se contredisent : "
        "rien ne reste sur la table à réorganiser avant de finir",
    ),
    (
        "opening_not_required",
        "opening.required is false but an opening condition (pure_run, points or run_and_set) is set",
        "opening.required vaut false mais une condition d'ouverture (pure_run, points ou run_and_set) est fixée",
    ),
    (
        "rearrange_swap_never",
        "table.rearrange is true but jokers.swap is never: "
        "a rearranged table must be free to move its jokers (use on_table)",
        "table.rearrange vaut true mais jokers.swap vaut never : "
        "une table réorganisée doit pouvoir déplacer ses jokers (utilisez on_table)",
    ),
    (
        "swap_on_table_no_rearrange",
        "jokers.swap is on_table but table.rearrange is false: jokers can only move by rearranging",
        "jokers.swap vaut on_table mais table.rearrange vaut false : "
        "les jokers ne bougent qu'en réorganisant la table",
    ),
    (
        "teams_need_four",
        "teams.enabled is true but players.max is below 4: teams play at four",
        "teams.enabled vaut true mais players.max est sous 4 : les équipes se jouent à quatre",
    ),
    # ------------------------------------------------------------ plugins
    (
        "plugin_unknown",
        "no plugin named {name} is bundled or installed",
        "aucune extension nommée {name} n'est fournie ni installée",
    ),
    (
        "plugin_failed_load",
        "the plugin failed to load: {error}",
        "l'extension n'a pas pu se charger : {error}",
    ),
    (
        "plugin_failed_start",
        "the plugin failed to start: {error}",
        "l'extension n'a pas pu démarrer : {error}",
    ),
    # ------------------------------------------------------------ scenario files
    (
        "scenarios_too_many",
        "more than {limit} scenarios in one file: split it",
        "plus de {limit} scénarios dans un fichier : coupez-le",
    ),
    (
        "scenario_variant",
        "must name a preset or a profile file",
        "doit nommer une variante ou un fichier de profil",
    ),
    ("scenario_rules", "must be a mapping", "doit être un dictionnaire (clé: valeur)"),
    # what `rami check` says of a scenario (rami_core.conformance.scenario); `where` is a
    # key path as written in the file, `refusal` the engine's refusal (its
    # own words in each language, from rami_core.words.refusals)
    ("at", "{where}: {detail}", "{where} : {detail}"),
    (
        "scenario_unreadable",
        "cannot read scenario file: {detail}",
        "fichier de scénario illisible : {detail}",
    ),
    (
        "scenario_empty_file",
        "the file holds no scenario: checks nothing",
        "le fichier ne contient aucun scénario : il ne vérifie rien",
    ),
    (
        "scenario_internal_error",
        "internal error: {error}",
        "erreur interne : {error}",
    ),
    (
        "plugin_failed_hook",
        "plugin {plugin} failed in hook {hook}: {error}",
        "l'extension {plugin} a échoué dans le point d'accroche {hook} : {error}",
    ),
    ("scenario_not_mapping", "a scenario is a mapping", "un scénario est un dictionnaire (clé: valeur)"),
    ("scenario_steps_not_list", "steps must be a list", "steps doit être une liste"),
    (
        "scenario_checks_nothing",
        "checks nothing: no step has an `expect` (a state to check or an error to expect)",
        "ne vérifie rien : aucune étape n'a d'`expect` (un état à vérifier ou une erreur attendue)",
    ),
    ("scenario_profile", "profile: {detail}", "profil : {detail}"),
    ("scenario_setup_invalid", "setup_invalid: {detail}", "setup_invalid : {detail}"),
    (
        "scenario_next_round_setup_invalid",
        "next_round: setup_invalid: {detail}",
        "next_round : setup_invalid : {detail}",
    ),
    (
        "scenario_unknown_key_near",
        "{where}: unknown key {key} (did you mean `{near}`?)",
        "{where} : clé inconnue {key} (vouliez-vous dire `{near}` ?)",
    ),
    (
        "scenario_unknown_key_known",
        "{where}: unknown key {key} (known: {known})",
        "{where} : clé inconnue {key} (connues : {known})",
    ),
    (
        "scenario_seeded_key",
        "{detail}: a table given card by card needs `hands`",
        "{detail} : une table donnée carte par carte demande `hands`",
    ),
    ("scenario_where_seeded", "setup (dealt from the seed)", "setup (distribué depuis la graine)"),
    (
        "scenario_whole_number",
        "{where}: a whole number, got {value}",
        "{where} : attendu un nombre entier, reçu {value}",
    ),
    (
        "scenario_number_range",
        "{where}: a whole number from {min} to {max}, got {value}",
        "{where} : attendu un nombre entier de {min} à {max}, reçu {value}",
    ),
    (
        "scenario_number_from",
        "{where}: a whole number from {min}, got {value}",
        "{where} : attendu un nombre entier à partir de {min}, reçu {value}",
    ),
    (
        "scenario_seeded_players",
        "players: a seeded start deals to `players` seats: give their number",
        "players : un départ tiré de la graine distribue à `players` places : donnez leur nombre",
    ),
    (
        "scenario_step_not_mapping",
        "a step is a mapping, got {value}",
        "une étape est un dictionnaire, reçu {value}",
    ),
    (
        "scenario_step_actions",
        "a step holds one action, got {actions}",
        "une étape tient une seule action, reçu {actions}",
    ),
    (
        "scenario_round_step_player",
        "{step}: no seat takes it, so no `player`",
        "{step} : aucune place ne le joue, donc pas de `player`",
    ),
    (
        "scenario_action_needs_player",
        "{action}: a step with an action needs `player`",
        "{action} : une étape avec une action demande `player`",
    ),
    (
        "scenario_player_without_action",
        "`player` without an action: a step is `player` with one action, or `expect` alone",
        "`player` sans action : une étape est `player` avec une action, ou `expect` seul",
    ),
    (
        "scenario_empty_step",
        "an empty step: give `player` with an action, `next_round`, `play_out`, or `expect`",
        "une étape vide : donnez `player` avec une action, `next_round`, `play_out` ou `expect`",
    ),
    ("scenario_expect_not_mapping", "expect must be a mapping", "expect doit être un dictionnaire"),
    (
        "scenario_expect_error_no_action",
        "expect.error needs an action (or `next_round`) in the same step",
        "expect.error demande une action (ou `next_round`) dans la même étape",
    ),
    (
        "scenario_expect_empty_mapping",
        "expect.{key}: an empty mapping checks nothing: give at least one seat",
        "expect.{key} : un dictionnaire vide ne vérifie rien : donnez au moins une place",
    ),
    (
        "scenario_next_round_value",
        "`true` (deal from the seed) or the round's setup, got {value}",
        "`true` (distribuer depuis la graine) ou le setup de la manche, reçu {value}",
    ),
    ("scenario_mapping_expected", "a mapping, got {value}", "attendu un dictionnaire, reçu {value}"),
    (
        "scenario_play_out_value",
        "`true` or {{turns: N}}, got {value}",
        "`true` ou {{turns: N}}, reçu {value}",
    ),
    ("scenario_expected", "expected {kind}, got {value}", "attendu {kind}, reçu {value}"),
    ("kind_whole_number", "a whole number", "un nombre entier"),
    ("kind_one_of_or_null", "one of {names}, or null", "l'une des valeurs {names}, ou null"),
    ("kind_one_of", "one of {names}", "l'une des valeurs {names}"),
    ("kind_bool", "true or false", "true ou false"),
    ("kind_seat_or_null", "a seat number or null", "un numéro de place ou null"),
    ("kind_int_list", "a list of whole numbers", "une liste de nombres entiers"),
    ("kind_bool_list", "a list of true/false", "une liste de true/false"),
    (
        "kind_error_code",
        "an error code, or a list of the codes a club's text allows",
        "un code d'erreur, ou la liste des codes que le texte d'un club admet",
    ),
    ("kind_card_or_null", "a card or null", "une carte ou null"),
    (
        "kind_melds",
        "a list of melds, each a list of cards",
        "une liste de combinaisons, chacune une liste de cartes",
    ),
    ("scenario_hands_mapping", "expected a mapping seat -> cards", "attendu un dictionnaire place -> cartes"),
    (
        "scenario_not_seat_number",
        "seat {seat} is not a seat number",
        "la place {seat} n'est pas un numéro de place",
    ),
    (
        "scenario_seat_cards",
        "seat {seat}: expected a list of cards",
        "place {seat} : attendu une liste de cartes",
    ),
    ("scenario_bad_action", "bad action: {detail}", "action mal écrite : {detail}"),
    ("scenario_refused", "refused with {error_code}: {refusal}", "refusé avec {error_code} : {refusal}"),
    (
        "scenario_refused_instead",
        "refused with {error_code} instead of {want}: {refusal}",
        "refusé avec {error_code} au lieu de {want} : {refusal}",
    ),
    (
        "scenario_refused_changed",
        "a refused action changed the state",
        "une action refusée a changé l'état",
    ),
    (
        "scenario_accepted_not_refused",
        "accepted, expected refusal with {want}",
        "acceptée, alors qu'un refus avec {want} était attendu",
    ),
    ("scenario_no_next_round", "no next round: {refusal}", "pas de manche suivante : {refusal}"),
    (
        "scenario_next_round_dealt",
        "the next round was dealt, expected refusal with {want}",
        "la manche suivante a été distribuée, alors qu'un refus avec {want} était attendu",
    ),
    (
        "scenario_next_round_given",
        "{key}: the game gives {given}, the setup says {said}"
        " (a next round's number, first player and scores follow from the game)",
        "{key} : la partie donne {given}, le setup dit {said}"
        " (le numéro, le premier joueur et les scores d'une manche suivante découlent de la partie)",
    ),
    (
        "scenario_play_out_no_discard",
        "play_out: seat {seat} has no card it may discard",
        "play_out : la place {seat} n'a aucune carte qu'elle puisse défausser",
    ),
    (
        "scenario_play_out_refused",
        "play_out: seat {seat}'s plain turn refused with {error_code}: {refusal}",
        "play_out : le tour simple de la place {seat} est refusé avec {error_code} : {refusal}",
    ),
    ("scenario_card_list", "expected a list of cards", "attendu une liste de cartes"),
    (
        "scenario_reshuffle_unknown",
        "setup.reshuffle: {card} is not among the cards reshuffled",
        "setup.reshuffle : {card} n'est pas parmi les cartes remélangées",
    ),
    (
        "scenario_reshuffle_count",
        "setup.reshuffle names {named} cards, the discard pile gives {given}",
        "setup.reshuffle nomme {named} cartes, la défausse en donne {given}",
    ),
    ("scenario_setup_mapping", "setup must be a mapping", "setup doit être un dictionnaire"),
    (
        "scenario_hands_or_seed",
        "setup.hands: one list of cards per seat (or a top-level `seed` to deal)",
        "setup.hands : une liste de cartes par place (ou une `seed` en tête du scénario pour distribuer)",
    ),
    (
        "scenario_hands_per_seat",
        "setup.hands: one list of cards per seat ({n})",
        "setup.hands : une liste de cartes par place ({n})",
    ),
    ("scenario_players", "{variant} is not played by {n} players", "{variant} ne se joue pas à {n} joueurs"),
    ("scenario_not_seat", "{where}: not a seat: {value}", "{where} : ce n'est pas une place : {value}"),
    (
        "scenario_scores_seats",
        "scores: one whole number per seat ({n})",
        "scores : un nombre entier par place ({n})",
    ),
    (
        "scenario_scores_teams",
        "scores: one whole number per team ({n})",
        "scores : un nombre entier par équipe ({n})",
    ),
    (
        "scenario_copies",
        "{where}: more {card} than the deck holds ({limit})",
        "{where} : plus de {card} que le paquet n'en contient ({limit})",
    ),
    (
        "scenario_no_discard_pile",
        "discard: this variant has no discard pile",
        "discard : cette variante n'a pas de défausse",
    ),
    ("scenario_table_list", "table: a list of melds", "table : une liste de combinaisons"),
    (
        "scenario_table_meld_form",
        "{where}: a meld is a card list or {{cards, owner}}",
        "{where} : une combinaison est une liste de cartes ou {{cards, owner}}",
    ),
    (
        "scenario_opened_per_seat",
        "opened: one true/false per seat ({n})",
        "opened : un true/false par place ({n})",
    ),
    ("scenario_phase", "phase: draw or lay, not {value}", "phase : draw ou lay, pas {value}"),
    ("scenario_hands_no_seat", "hands: no seat {seat}", "hands : pas de place {seat}"),
    ("scenario_hands_differ", "hands[{seat}] differ", "hands[{seat}] diffèrent"),
    ("scenario_table_differs", "table differs", "la table diffère"),
    ("scenario_discard_top_differs", "discard_top differs", "discard_top diffère"),
    ("scenario_bad_expectation", "{key}: bad expectation: {detail}", "{key} : attente mal écrite : {detail}"),
    (
        "scenario_cards_expected",
        "expected a list of cards, got {value}",
        "attendu une liste de cartes, reçu {value}",
    ),
    ("scenario_differs", "{key}: expected {want}, got {got}", "{key} : attendu {want}, obtenu {got}"),
    # ------------------------------------------------------------ saved games (rami_core.players.savegame)
    (
        "save_cannot_write",
        "cannot save to {path}: {reason}",
        "impossible d'enregistrer dans {path} : {reason}",
    ),
    ("save_is_folder", "it is a folder: give a file name", "c'est un dossier : donnez un nom de fichier"),
    ("save_cannot_read", "{path}: cannot read: {reason}", "{path} : lecture impossible : {reason}"),
    (
        "save_too_large",
        "too large for a saved game: {detail}",
        "trop grand pour une partie enregistrée : {detail}",
    ),
    (
        "save_not_json",
        "{path}: not a saved game ({detail})",
        "{path} : ce n'est pas une partie enregistrée ({detail})",
    ),
    (
        "save_not_object",
        "not a saved game: expected a JSON object",
        "ce n'est pas une partie enregistrée : un objet JSON est attendu",
    ),
    (
        "save_format",
        "not a saved game: format is {value}, expected {expected}",
        "ce n'est pas une partie enregistrée : le format est {value}, {expected} attendu",
    ),
    (
        "save_version",
        "saved game format version {value} is not supported (this rami reads version {version})",
        "la version {value} du format de partie enregistrée n'est pas prise en charge "
        "(ce rami lit la version {version})",
    ),
    ("save_missing", "saved game is missing {keys}", "il manque à la partie enregistrée : {keys}"),
    (
        "save_checksum",
        "saved game is corrupt or was edited: its checksum does not match its content",
        "la partie enregistrée est abîmée ou a été modifiée : sa somme de contrôle ne correspond pas à son contenu",
    ),
    (
        "save_profile_not_mapping",
        "saved game's profile is not a mapping",
        "le profil de la partie enregistrée n'est pas un dictionnaire",
    ),
    (
        "save_profile_invalid",
        "saved game's profile is invalid: {detail}",
        "le profil de la partie enregistrée est invalide : {detail}",
    ),
    (
        "save_bad_players",
        "saved game has a bad player count: {value}",
        "la partie enregistrée a un nombre de joueurs invalide : {value}",
    ),
    (
        "save_bad_seed",
        "saved game has a bad seed: {value}",
        "la partie enregistrée a une graine invalide : {value}",
    ),
    (
        "save_log_not_list",
        "saved game's log is not a list",
        "le journal de la partie enregistrée n'est pas une liste",
    ),
    (
        "save_action_unreadable",
        "saved game's action {n} is unreadable: {detail}",
        "l'action {n} de la partie enregistrée est illisible : {detail}",
    ),
    (
        "save_action_refused",
        "saved game's action {n} ({action}) is refused on replay: {error_code}: {refusal}",
        "l'action {n} de la partie enregistrée ({action}) est refusée à la relecture : {error_code} : {refusal}",
    ),
    (
        "save_action_malformed",
        "saved game's action {n} is malformed: {action}",
        "l'action {n} de la partie enregistrée est mal formée : {action}",
    ),
    (
        "save_snapshot_unreadable",
        "saved game's snapshot is unreadable: {error}",
        "l'instantané de la partie enregistrée est illisible : {error}",
    ),
    (
        "save_snapshot_differs",
        "saved game does not replay to its snapshot: the log or the snapshot was changed",
        "la partie enregistrée ne se rejoue pas jusqu'à son instantané : le journal ou l'instantané a été modifié",
    ),
    (
        "save_replay_failed",
        "saved game cannot be replayed: {detail}",
        "la partie enregistrée ne peut pas être rejouée : {detail}",
    ),
    ("save_malformed", "saved game is malformed: {error}", "la partie enregistrée est mal formée : {error}"),
    # ------------------------------------------------------------ JSON files (rami_core.files.userfiles.loads_json)
    ("json_bad", "bad JSON at line {line}: {detail}", "JSON invalide à la ligne {line} : {detail}"),
    ("json_too_deep", "JSON nested too deeply", "JSON trop imbriqué"),
    ("json_deeper", "JSON nested deeper than {limit} levels", "JSON imbriqué sur plus de {limit} niveaux"),
    (
        "json_long_int",
        "an integer of {digits} digits (at most {limit}): refused",
        "un entier de {digits} chiffres (au plus {limit}) : refusé",
    ),
    (
        "json_constant",
        "{name} is not a number a game uses: refused",
        "{name} n'est pas un nombre qu'une partie utilise : refusé",
    ),
    (
        "json_duplicate_key",
        "the key {key} appears twice in one object: refused",
        "la clé {key} apparaît deux fois dans un même objet : refusé",
    ),
    # ------------------------------------------------------------ card notation in files (rami_core.cards.parse_card)
    ("card_not_a_card", "not a card: {card}", "ce n'est pas une carte : {card}"),
    ("card_empty", "empty card", "carte vide"),
    (
        "card_no_suit",
        "not a card: {card} (no suit S, H, D, C or ♠ ♥ ♦ ♣)",
        "ce n'est pas une carte : {card} (il manque la couleur S, H, D, C ou ♠ ♥ ♦ ♣)",
    ),
    (
        "card_bad_rank",
        "not a card: {card} (rank must be A, 2-10, T, J, Q, K)",
        "ce n'est pas une carte : {card} (la valeur est A, 2-10, T, J, Q, K, ou V, D, R devant un symbole)",
    ),
    # ------------------------------------------------------------ actions written as data (rami_core.game.actions)
    (
        "action_cards_list",
        "{where}: expected a list of cards, got {value}",
        "{where} : attendu une liste de cartes, reçu {value}",
    ),
    (
        "action_melds_list",
        "{where}: expected a list of melds, got {value}",
        "{where} : attendu une liste de combinaisons, reçu {value}",
    ),
    (
        "action_whole_number",
        "{where}: expected a whole number, got {value}",
        "{where} : attendu un nombre entier, reçu {value}",
    ),
    (
        "action_one_of",
        "a step needs exactly one action among {actions}; got {keys}",
        "une étape demande exactement une action parmi {actions} ; reçu {keys}",
    ),
    ("action_needs_player", "{action}: a step needs `player`", "{action} : une étape demande `player`"),
    (
        "action_draw_pile",
        "draw: expected stock or discard, got {value}",
        "draw : attendu stock ou discard, reçu {value}",
    ),
    (
        "action_layoff_list",
        "layoff: expected a list of {{card, to}}, got {value}",
        "layoff : attendu une liste de {{card, to}}, reçu {value}",
    ),
    (
        "action_layoff_item",
        "layoff: each item needs card and to, got {value}",
        "layoff : chaque élément demande card et to, reçu {value}",
    ),
    ("action_layoff_keys", "layoff: unknown keys {keys}", "layoff : clés inconnues {keys}"),
    (
        "action_swap_form",
        "swap: expected {{card: C, meld: I}} or {{cards: [C1, C2], meld: I}}, got {value}",
        "swap : attendu {{card: C, meld: I}} ou {{cards: [C1, C2], meld: I}}, reçu {value}",
    ),
    # ------------------------------------------------------------ a refused move reaching the command line
    ("rule_refused", "refused ({error_code}): {refusal}", "refusé ({error_code}) : {refusal}"),
    # ------------------------------------------------------------ puzzles (rami_core.puzzles, rami puzzle)
    ("puzzle_where_table_meld", "table meld {n}", "combinaison {n} de la table"),
    ("puzzle_where_witness_meld", "witness meld {n}", "combinaison {n} du témoin"),
    ("puzzle_where_hand", "hand", "main"),
    ("puzzle_no_cards", "{where}: no cards", "{where} : aucune carte"),
    (
        "puzzle_goal_needs",
        "goal kind {kind} needs {field}",
        "un objectif de type {kind} demande {field}",
    ),
    (
        "puzzle_not_json",
        "{where}: not JSON ({detail} at column {column})",
        "{where} : ce n'est pas du JSON ({detail} à la colonne {column})",
    ),
    ("puzzle_not_object", "{where}: a puzzle is a JSON object", "{where} : un casse-tête est un objet JSON"),
    (
        "puzzle_collection_missing",
        "the bundled collection is missing ({path})",
        "la collection fournie avec rami manque ({path})",
    ),
    (
        "puzzle_no_grade",
        "no puzzle of difficulty {difficulty} in the collection",
        "aucun casse-tête de difficulté {difficulty} dans la collection",
    ),
    ("puzzle_the_collection", "the collection", "la collection"),
    ("puzzle_no_id", "no puzzle {id} in {where}", "aucun casse-tête {id} dans {where}"),
    ("puzzle_file_empty", "{path}: no puzzle in it", "{path} : aucun casse-tête dedans"),
    (
        "puzzle_not_found",
        "no puzzle of difficulty {difficulty} found from seed {seed} in {attempts} attempts",
        "aucun casse-tête de difficulté {difficulty} trouvé depuis la graine {seed} en {attempts} essais",
    ),
    (
        "puzzle_not_found_any",
        "no puzzle found from seed {seed} in {attempts} attempts",
        "aucun casse-tête trouvé depuis la graine {seed} en {attempts} essais",
    ),
    ("puzzle_variant", "variant {variant}: {detail}", "variante {variant} : {detail}"),
    (
        "puzzle_variant_no_rearranging",
        "variant {variant} never rearranges the table: a puzzle needs one that does",
        "la variante {variant} ne réarrange jamais la table : un casse-tête en demande une qui le fait",
    ),
    (
        "puzzle_copies",
        "{where}: more {card} than the decks hold ({limit})",
        "{where} : plus de {card} que les paquets n'en contiennent ({limit})",
    ),
    ("puzzle_meld_invalid", "{where} ({cards}): {reason}", "{where} ({cards}) : {reason}"),
    ("puzzle_hand_empty", "the hand is empty", "la main est vide"),
    (
        "puzzle_goal_too_many",
        "the goal asks {count} cards of a hand of {held}",
        "l'objectif demande {count} cartes d'une main de {held}",
    ),
    (
        "puzzle_witness_refused",
        "the referee refuses the witness: {refusal}",
        "l'arbitre refuse le témoin : {refusal}",
    ),
    ("puzzle_witness_short", "the witness does not reach the goal", "le témoin n'atteint pas l'objectif"),
    (
        "puzzle_not_proven",
        "the solver could not prove its optimum within its default budget",
        "le solveur n'a pas pu prouver son optimum dans son budget par défaut",
    ),
    (
        "puzzle_out_of_reach",
        "the goal is out of reach: the solver's proven best is {best}",
        "l'objectif est hors d'atteinte : le meilleur prouvé par le solveur est {best}",
    ),
    (
        "puzzle_no_rearrangement",
        "no rearrangement is needed: laying off and new melds reach the goal",
        "aucun réarrangement n'est nécessaire : des ajouts et de nouvelles combinaisons atteignent l'objectif",
    ),
    (
        "puzzle_enumeration",
        "no final table reaches the goal (the enumeration disagrees with the solver)",
        "aucune table finale n'atteint l'objectif (l'énumération contredit le solveur)",
    ),
    (
        "puzzle_claim_differs",
        "{name}: claimed {claimed}, proved {proved}",
        "{name} : annoncé {claimed}, prouvé {proved}",
    ),
    (
        "puzzle_witness_not_solution",
        "the witness is not among the final tables that reach the goal",
        "le témoin n'est pas parmi les tables finales qui atteignent l'objectif",
    ),
    (
        "puzzle_witness_not_closest",
        "the witness is not a closest solution",
        "le témoin n'est pas une des solutions les plus proches",
    ),
    (
        "puzzle_bot_differs",
        "bot {name}: recorded {recorded}, now {now}",
        "robot {name} : enregistré {recorded}, maintenant {now}",
    ),
    (
        "puzzle_effort_differs",
        "solver effort: recorded {recorded}, now {now}",
        "effort du solveur : enregistré {recorded}, maintenant {now}",
    ),
    (
        "puzzle_grade_differs",
        "difficulty {difficulty} is not the grade of its recorded proof ({grade})",
        "la difficulté {difficulty} n'est pas le grade de sa preuve enregistrée ({grade})",
    ),
    # ------------------------------------------------------------ positions to solve (rami solve)
    (
        "solve_table_type",
        "a table is a string or a list, not {type}",
        "une table est un texte ou une liste, pas {type}",
    ),
    (
        "solve_meld_empty",
        "table meld {n} is empty (two '|' in a row?)",
        "la combinaison {n} de la table est vide (deux « | » de suite ?)",
    ),
    (
        "solve_meld_invalid",
        "table meld {n} ({cards}) is not a valid meld in this game",
        "la combinaison {n} de la table ({cards}) n'est pas valable dans ce jeu",
    ),
    (
        "solve_table_unarranged",
        "the table's cards cannot all be arranged into valid melds",
        "les cartes de la table ne se rangent pas toutes en combinaisons valables",
    ),
    (
        "solve_give_melds",
        "this game does not rearrange the table: give its melds separated by '|', e.g. --table '3C 4C 5C | 8S 8H 8D'",
        "ce jeu ne réarrange pas la table : donnez ses combinaisons séparées par « | », "
        "par exemple --table '3C 4C 5C | 8S 8H 8D'",
    ),
    (
        "solve_too_many_cards",
        "{n} cards in the table and the hand: the game's deck holds {size}",
        "{n} cartes sur la table et dans la main : le jeu n'en compte que {size}",
    ),
    (
        "solve_too_many_jokers",
        "{n} joker(s) in the table and the hand: the game has {jokers}",
        "{n} joker(s) sur la table et dans la main : le jeu n'en a que {jokers}",
    ),
    (
        "solve_no_jokers",
        "{n} joker(s) in the table and the hand: the game has no jokers",
        "{n} joker(s) sur la table et dans la main : le jeu n'a pas de joker",
    ),
    (
        "solve_too_many_copies",
        "{n} copies of {card}: the game's {decks} deck(s) hold {decks}",
        "{n} exemplaires de {card} : le jeu n'en a que {decks} (jeux de cartes : {decks})",
    ),
    ("solve_position_object", "a position is a JSON object", "une position est un objet JSON"),
    ("solve_line", "line {n}: {detail}", "ligne {n} : {detail}"),
    (
        "solve_stdin_too_large",
        "--batch: standard input holds more than {limit} bytes",
        "--batch : l'entrée standard dépasse {limit} octets",
    ),
    ("solve_stdin_refused", "--batch: standard input: {reason}", "--batch : entrée standard : {reason}"),
    # ------------------------------------------------------------ the table server's store (rami serve --db)
    (
        "store_not_file",
        "{path}: not a file (a folder or a device): give a SQLite file",
        "{path} : ce n'est pas un fichier (un dossier ou un périphérique) : donnez un fichier SQLite",
    ),
    ("store_no_folder", "{path}: no such folder {folder}", "{path} : dossier introuvable {folder}"),
    (
        "store_unusable",
        "{path}: cannot be used as rami's store ({error})",
        "{path} : ne peut pas servir de stockage à rami ({error})",
    ),
    ("store_cannot_open", "{path}: cannot be opened ({error})", "{path} : ouverture impossible ({error})"),
    (
        "store_empty",
        "{path}: an empty SQLite file, not a rami database",
        "{path} : un fichier SQLite vide, pas une base de rami",
    ),
    (
        "store_foreign",
        "{path}: not a rami database (its tables: {tables})",
        "{path} : ce n'est pas une base de rami (ses tables : {tables})",
    ),
    (
        "store_tables_unreadable",
        "{path}: its list of tables cannot be read ({error})",
        "{path} : sa liste de tables est illisible ({error})",
    ),
    # ------------------------------------------------------------ words not ours
    ("text", "{text}", "{text}"),
    ("yaml_phrase", "{phrase}", "{phrase}"),
)

PROBLEMS: dict[str, dict[str, str]] = {code: {"en": en, "fr": fr} for code, en, fr in _PROBLEMS}

# Codes whose French template is the English one on purpose: free text given
# by a third party (a plugin's own message), shown as written; one of PyYAML's
# phrases, worded from YAML_PHRASES.
VERBATIM = frozenset({"text", "yaml_phrase"})

# PyYAML's fixed phrases (the constants of its scanner and parser, quoted as
# they are written there: a table of a library's codes, not a reading of
# sentences), in French. A phrase not listed is quoted as PyYAML gives it.
YAML_PHRASES: dict[str, str] = {
    "mapping values are not allowed here": "« clé: valeur » n'est pas permis ici",
    "could not find expected ':'": "le « : » attendu manque",
    "found unexpected end of stream": "le fichier finit trop tôt",
    "did not find expected key": "une clé attendue manque",
    "did not find expected node content": "une valeur attendue manque",
    "did not find expected '-' indicator": "le « - » attendu manque",
    "expected a comment or a line break": "un commentaire ou une fin de ligne attendu",
    "found unexpected ':'": "« : » inattendu",
    "while parsing a flow sequence": "en lisant une liste entre crochets",
    "while parsing a flow mapping": "en lisant un dictionnaire entre accolades",
    "while parsing a block mapping": "en lisant un dictionnaire",
    "while parsing a block collection": "en lisant une liste",
    "while parsing a block node": "en lisant une valeur",
    "while parsing a flow node": "en lisant une valeur",
    "while parsing a node": "en lisant une valeur",
    "while scanning a simple key": "en lisant une clé",
    "while scanning a quoted scalar": "en lisant un texte entre guillemets",
    "while scanning a plain scalar": "en lisant une valeur",
    "while scanning a block scalar": "en lisant un texte sur plusieurs lignes",
    "while scanning an anchor": "en lisant une ancre (&)",
    "while scanning an alias": "en lisant un alias (*)",
    "while scanning a tag": "en lisant une étiquette (!)",
    "while scanning a directive": "en lisant une directive (%)",
    "while scanning for the next token": "en lisant le mot suivant",
    "expected ',' or ']', but got '<stream end>'": "« , » ou « ] » attendu, mais le fichier finit",
    "expected ',' or '}', but got '<stream end>'": "« , » ou « } » attendu, mais le fichier finit",
    "found character '\\t' that cannot start any token": "une tabulation ne peut pas commencer un mot (indentez par des espaces)",
    "found undefined alias": "alias non défini",
}


class Said(str):
    """What a problem says: its English words (what ``str`` gives) with its
    ``code`` in :data:`PROBLEMS` and its ``params``, for the other languages.

    ``Said("greater_than_equal", limit=2, value="1")``; a parameter may be a
    nested Said (a value shown as "a list"), or a tuple of them (the kinds
    a union expects, joined by "or")."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> Said:
        if code not in PROBLEMS:
            raise KeyError(f"no problem {code!r} in the catalogue")
        self = super().__new__(cls, _render(code, params, "en"))
        self.code = code
        self.params = params
        return self

    def __reduce__(self):  # pickled across processes like the errors that carry it
        return (_rebuild, (self.code, self.params))

    def words(self, lang: str) -> str:
        """These words in `lang` (English where the catalogue lacks the language)."""
        return _render(self.code, self.params, lang)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {k: _json(v) for k, v in self.params.items()}}

    def with_params(self, change: Callable[[Any], Any]) -> Said:
        """The same code with every plain parameter passed through `change`
        (the lobby hides its temporary folder from the paths it names)."""
        return Said(
            self.code, **{k: v if isinstance(v, Said | tuple) else change(v) for k, v in self.params.items()}
        )


def _rebuild(code: str, params: dict[str, Any]) -> Said:
    return Said(code, **params)


def _json(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _shown(value: Any, lang: str) -> Any:
    # A nested value worded per language: a Said, or another catalogue's
    # words (a refusal, a located problem) carried with a `words(lang)`.
    if callable(getattr(value, "words", None)):
        return value.words(lang)
    if isinstance(value, tuple):
        return FRAME.get(lang, FRAME["en"])["or"].join(str(_shown(v, lang)) for v in value)
    return value


def _render(code: str, params: Mapping[str, Any], lang: str) -> str:
    texts = PROBLEMS[code]
    template = texts.get(lang) or texts["en"]
    return template.format(**visible_params({k: _shown(v, lang) for k, v in params.items()}))


def said(message: str) -> Said:
    """A message as a Said: itself where it is one, else free text (``text``)."""
    return message if isinstance(message, Said) else Said("text", text=str(message))


def words(message: str, lang: str) -> str:
    """A problem's message in `lang`: a Said's words, free text as written."""
    return message.words(lang) if isinstance(message, Said) else str(message)


def template_params(template: str) -> set[str]:
    """The named parameters a template shows."""
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name}


def yaml_phrase(phrase: str) -> Said:
    """One of PyYAML's fixed phrases in every language where the table has it."""
    return _YamlPhrase(phrase)


class _YamlPhrase(Said):
    """A PyYAML phrase: the English as PyYAML writes it, the French from the
    table (PyYAML's words where the table lacks the phrase)."""

    def __new__(cls, phrase: str) -> _YamlPhrase:
        self = str.__new__(cls, phrase)
        self.code = "yaml_phrase"
        self.params = {"phrase": phrase}
        return self

    def words(self, lang: str) -> str:
        return YAML_PHRASES.get(str(self), str(self)) if lang == "fr" else str(self)

    def __reduce__(self):
        return (_YamlPhrase, (str(self),))


# --------------------------------------------------------------------------- pydantic's errors

_KINDS = {
    "int_type": "a_valid_int",
    "int_parsing": "a_valid_int",
    "int_from_float": "a_valid_int",
    "int_got_bool": "a_valid_int",
    "int_got_float": "a_valid_int",
    "int_got_text": "a_valid_int",
    "bool_got_text": "a_valid_bool",
    "bool_type": "a_valid_bool",
    "bool_parsing": "a_valid_bool",
    "string_type": "a_valid_str",
    "float_type": "a_valid_number",
    "float_parsing": "a_valid_number",
    "dict_type": "a_valid_dict",
    "model_type": "a_valid_dict",
    "model_attributes_type": "a_valid_dict",
    "list_type": "a_valid_list",
    "none_required": "a_null",
}
# The codes named after pydantic's own error types: from_validation gives them
# from the error's type, the problem says them in words.
PYDANTIC_TYPES = frozenset(
    {
        "missing",
        "int_type",
        "int_parsing",
        "int_from_float",
        "int_parsing_size",
        "bool_type",
        "bool_parsing",
        "string_type",
        "float_type",
        "float_parsing",
        "dict_type",
        "list_type",
        "greater_than_equal",
        "greater_than",
        "less_than_equal",
        "less_than",
        "string_too_long",
        "string_too_short",
        "too_long",
        "too_short",
    }
)
_LIMITS = {
    "greater_than_equal": "ge",
    "greater_than": "gt",
    "less_than_equal": "le",
    "less_than": "lt",
    "string_too_long": "max_length",
    "string_too_short": "min_length",
}


def shown_value(value: Any) -> Any:
    """A value as a problem shows it: text quoted (cut short, control characters
    escaped), true/false, null, a number, or "a mapping" / "a list"."""
    if isinstance(value, str):
        if len(value) <= 40 and value.isprintable():
            return f"'{value}'"
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return Said("a_mapping")
    if isinstance(value, list | tuple):
        return Said("a_list")
    return str(value)


def kind_of(error_type: str) -> Said | None:
    """What a union member expects, from its pydantic error type."""
    return Said(_KINDS[error_type]) if error_type in _KINDS else None


def from_validation(err: Mapping[str, Any]) -> Said:
    """One of pydantic's errors (type, ctx, input) as a Said, never from its English ``msg``."""
    kind = str(err.get("type", ""))
    ctx = err.get("ctx") or {}
    value = shown_value(err.get("input"))
    if kind == "missing":
        return Said("missing")
    if kind == "extra_forbidden":
        return Said("unknown_key")
    if kind in _LIMITS and _LIMITS[kind] in ctx:
        return Said(kind, limit=ctx[_LIMITS[kind]], value=value)
    if kind in ("too_long", "too_short"):
        limit = ctx.get("max_length") if kind == "too_long" else ctx.get("min_length")
        return Said(kind, limit=limit, count=ctx.get("actual_length", "?"))
    if kind in ("literal_error", "enum") and "expected" in ctx:
        return Said("not_one_of", value=value, choices=str(ctx["expected"]))
    raw = err.get("input")
    if kind == "int_type":  # strict: what was given instead says how to write it
        if isinstance(raw, bool):
            return Said("int_got_bool", value=value)
        if isinstance(raw, float):
            return Said("int_got_float", value=value)
        if isinstance(raw, str):  # '51' is a number in quotes, 'lots' no number at all
            return Said("int_got_text" if raw.strip().lstrip("+-").isdigit() else "int_parsing", value=value)
    if kind == "bool_type" and isinstance(raw, str):
        return Said(
            "bool_got_text" if raw.strip().lower() in ("true", "false") else "bool_parsing", value=value
        )
    if kind in PROBLEMS and template_params(PROBLEMS[kind]["en"]) == {"value"}:
        return Said(kind, value=value)
    if kind in ("model_type", "model_attributes_type"):
        return Said("dict_type", value=value)
    return Said("invalid_value", kind=kind or "?", value=value)
