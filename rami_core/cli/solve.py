"""`rami solve`: the best lay for a table and a hand, one position or a batch.

What the answer may do follows the profile: where the table may be rearranged
(voleur) the whole table is rebuilt; elsewhere the table's melds keep their
places and the answer lays off onto them and lays new melds from the hand.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NoReturn, cast

import click

import rami_core.cli.types as types
from rami_core.cards import Card, CardError, format_card, parse_cards
from rami_core.cards.melds import MeldRules, Reading, read_meld
from rami_core.cli.common import (
    cli_words,
    current_lang,
    lang_option,
    profile_options,
    profile_source,
    said_words,
)
from rami_core.files.userfiles import FileRefused, cut, decode_text, loads_json, read_text, short
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.words.messages import Messages
from rami_core.words.problems import Said, said

# The solver is imported where a position is solved, not with this module:
# it loads HiGHS (highspy, half a second), which `rami --help` must not pay.
# Its default state limit, as `--max-states` shows it (a test keeps the two equal).
SHOWN_MAX_STATES = "300,000"

Table = list[Card] | list[list[Card]]  # one pile to arrange, or melds as they lie


@dataclass(frozen=True)
class _Game:
    """What `rami solve` needs from the rules: meld rules, the deck, what a
    turn may do with the table, and the card values (all Rules facts)."""

    rules: MeldRules
    decks: int
    jokers: int
    rearrange: bool
    lay_off: bool
    new_melds: bool
    card_value: Callable[[Card], int]

    @classmethod
    def of(cls, profile: Profile) -> _Game:
        # The table rules do not depend on the player count: the smallest allowed will do.
        r = rules_for(profile, profile.player_counts()[0])
        return cls(
            rules=r.melds,
            decks=r.decks,
            jokers=r.deck_jokers,
            rearrange=r.may_rearrange,
            lay_off=r.may_lay_off,
            new_melds=r.new_melds_after_opening,
            card_value=r.card_value,
        )


def parse_table(value: Any) -> Table:
    """A table from text ("3C 4C 5C | 8S 8H 8D": melds; without '|': one pile)
    or from JSON (a list of cards: one pile; a list of melds, each a list of
    cards or a string)."""
    if isinstance(value, str):
        if "|" in value:
            return [parse_cards(part) for part in value.split("|")]
        return parse_cards(value)
    if isinstance(value, list) and value and all(isinstance(x, list) for x in value):
        return [parse_cards(x) for x in value]
    if isinstance(value, list) and any(isinstance(x, str) and " " in x.strip() for x in value):
        return [parse_cards(x) for x in value]
    if isinstance(value, list):
        return parse_cards(value)
    kind = type(value).__name__
    raise CardError(f"a table is a string or a list, not {kind}", said=Said("solve_table_type", type=kind))


def _with_copies(table: Table, hand: list[Card]) -> tuple[Table, list[Card]]:
    """Physical cards: identical faces get distinct copies, table first."""
    seen: dict[tuple[int, int], int] = {}

    def tag(c: Card) -> Card:
        k = c[:2]
        n = seen.get(k, 0)
        seen[k] = n + 1
        return Card(c.rank, c.suit, n)

    if _is_melds(table):
        tagged: Table = [[tag(c) for c in meld] for meld in cast("list[list[Card]]", table)]
    else:
        tagged = [tag(c) for c in cast("list[Card]", table)]
    return tagged, [tag(c) for c in hand]


def _is_melds(table: Table) -> bool:
    return bool(table) and isinstance(table[0], list)


def _flat(table: Table) -> list[Card]:
    if _is_melds(table):
        return [c for meld in cast("list[list[Card]]", table) for c in meld]
    return list(cast("list[Card]", table))


def _readings(melds: list[list[Card]], rules: MeldRules) -> list[Reading]:
    from rami_core.solver import SolverInputError

    out = []
    for i, meld in enumerate(melds, 1):
        if not meld:
            raise SolverInputError(Said("solve_meld_empty", n=i))
        reading = read_meld(meld, rules)
        if reading is None:
            text = " ".join(format_card(c) for c in meld)
            raise SolverInputError(Said("solve_meld_invalid", n=i, cards=text))
        out.append(reading)
    return out


def solve_position(
    table: Table, hand: list[Card], game: _Game, objective: str, max_states: int | None
) -> dict[str, Any]:
    """One position's answer as a dict; SolverInputError for a position the
    game cannot have or a table that cannot be arranged."""
    from rami_core.solver import (
        DEFAULT_MAX_STATES,
        SolverInputError,
        best_lay_offs,
        check_position,
        check_solution,
        solve,
    )

    if max_states is None:
        max_states = DEFAULT_MAX_STATES
    table, hand = _with_copies(table, hand)
    flat = _flat(table)
    check_position(flat + hand, decks=game.decks, jokers=game.jokers)
    as_melds = _is_melds(table)
    melds_given = cast("list[list[Card]]", table)
    start = time.perf_counter()
    if game.rearrange:
        if as_melds:
            _readings(melds_given, game.rules)
        sol = solve(
            flat, hand, game.rules, objective=objective, points=game.card_value, max_states=max_states
        )
        if not sol.feasible:
            raise SolverInputError(Said("solve_table_unarranged"))
        problem = check_solution(flat, hand, sol, game.rules)
        melds, laid, proven, lay_offs = sol.melds, sol.laid, sol.optimal, []
        cards_proven = sol.cards_optimal
        if problem and not proven and sol.melds == [flat]:
            melds = []  # cut before any arrangement was found: nothing to show
        elif problem:  # the solver's answer is always re-checked; a failure is a bug
            from rami_core.words.errors import InternalError

            raise InternalError(f"the solver's answer does not check: {problem}")
    else:
        if flat and not as_melds:
            raise SolverInputError(Said("solve_give_melds"))
        readings = _readings(melds_given, game.rules) if flat else []
        plan = best_lay_offs(
            readings if game.lay_off else [],
            hand,
            game.rules,
            new_melds=game.new_melds,
            max_states=max_states,
        )
        melds = [
            list(plan.readings[i].cards) if i in plan.readings else list(r.cards)
            for i, r in enumerate(readings)
        ]
        melds += plan.new_melds
        laid, proven = plan.laid, plan.optimal
        cards_proven = proven
        lay_offs = [
            {"meld": i + 1, "cards": [format_card(c) for c in nats + [j for j, _ in joks]]}
            for i, nats, joks in plan.lay_offs
        ]
        _check_plan(flat, hand, melds, laid, game.rules)
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "max_cards_laid": len(laid),
        "laid": [format_card(c) for c in laid],
        "melds": [[format_card(c) for c in m] for m in melds],
        "proven": proven,
        "cards_proven": cards_proven,
        "seconds": round(seconds, 6),
    }
    if not game.rearrange:
        out["lay_offs"] = lay_offs
    return out


def _check_plan(
    table: list[Card], hand: list[Card], melds: list[list[Card]], laid: list[Card], rules
) -> None:
    """The lay off answer re-checked: every meld valid, the table kept, the rest from the hand."""
    from collections import Counter

    from rami_core.words.errors import InternalError

    bad = [m for m in melds if read_meld(m, rules) is None]
    down = Counter(c for m in melds for c in m)
    if bad or down - Counter(table) != Counter(laid) or Counter(laid) - Counter(hand):
        raise InternalError("the solver's lay off answer does not check")


def _echo_answer(out: dict[str, Any]) -> None:
    """The answer in words, in the language of --lang (the cards in rami's notation, as given)."""
    msg = Messages(current_lang())
    click.echo(msg.count("solve_laid", out["max_cards_laid"], cards=" ".join(out["laid"]) or "-"))
    if out["cards_proven"] and not out["proven"]:
        click.echo(cli_words("solve_points_not_proven"))
    elif not out["proven"]:
        click.echo(cli_words("solve_not_proven"))
    for i, m in enumerate(out["melds"], 1):
        click.echo(f"  {i}. {' '.join(m)}")
    for lay in out.get("lay_offs", []):
        click.echo("  " + cli_words("solve_laid_off", n=lay["meld"], cards=" ".join(lay["cards"])))
    click.echo(f"({out['seconds'] * 1000:.1f} ms)")


@click.command("solve")
@profile_options
@click.option(
    "--table",
    default="",
    help="The table: melds separated by '|' ('3C 4C 5C | 8S 8H 8D'), or without '|' "
    "one pile of cards to rearrange (where the game allows it).",
)
@click.option("--hand", default="", help="The hand's cards, e.g. '6H 7H'.")
@click.option(
    "--objective",
    type=types.Choice(["cards", "points"]),
    default="cards",
    show_default=True,
    help="Lay the most cards, or the most penalty points (where melds keep their places: the most cards).",
)
@click.option(
    "--max-states",
    type=types.IntRange(min=1),
    default=None,
    show_default=SHOWN_MAX_STATES,
    help="Search states before the answer is given as 'not proven' (a count: same answer on any machine).",
)
@click.option(
    "--batch",
    type=types.Path(dir_okay=True, allow_dash=True),
    default=None,
    help='A JSON-lines file, one position a line: {"id", "table", "hand"}; "table" is a list of '
    'cards, or a list of melds. A bad line gets {"id", "error"} and the batch goes on.',
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@lang_option(help="Language of the errors (a profile, a card, a position refused).")
def solve_cmd(
    variant, rules_file, overrides, table, hand, objective, max_states, batch, as_json, lang
) -> None:
    """The most hand cards the table and the hand allow, as the game's rules lay them.

    Where the game rearranges the table (voleur) the whole table is rebuilt;
    elsewhere its melds keep their places and the answer lays off onto them
    and lays new melds. The answer is a proven optimum unless it says 'not
    proven'. Exit status 1 for a position the game cannot have."""
    from rami_core.profile.loader import load_profile
    from rami_core.solver import SolverInputError

    game = _Game.of(load_profile(profile_source(variant, rules_file), overrides))
    if batch is None:
        try:
            t = parse_table(table)
            h = parse_cards(hand)
        except CardError as e:
            raise click.BadParameter(said_words(e.said), param_hint="--table/--hand") from None
        try:
            out = solve_position(t, h, game, objective, max_states)
        except SolverInputError as e:
            click.echo(cli_words("cli_error", message=said_words(e.said)), err=True)
            sys.exit(1)
        if as_json:
            click.echo(json.dumps(out))
        else:
            _echo_answer(out)
        return
    failed = 0
    for n, line in enumerate(_batch_lines(batch), 1):
        if not line.strip():
            continue
        ident: Any = n
        try:
            pos = loads_json(line)
            if not isinstance(pos, dict):
                raise CardError("a position is a JSON object", said=Said("solve_position_object"))
            ident = pos.get("id", n)
            result = solve_position(
                parse_table(pos.get("table", [])),
                parse_cards(pos.get("hand", [])),
                game,
                objective,
                max_states,
            )
        except (ValueError, CardError, SolverInputError, TypeError, AttributeError) as e:
            detail = said_words(Said("solve_line", n=n, detail=_said(e)))
            click.echo(json.dumps({"id": ident, "error": cut(detail)}, ensure_ascii=False))
            failed += 1
            continue
        click.echo(json.dumps({"id": ident, **result}))
    if failed:
        sys.exit(1)


BATCH_LIMIT = 64 * 1024 * 1024  # a batch of positions is text: 64 MiB is hundreds of thousands of lines


def _batch_lines(path: str) -> list[str]:
    """The batch's lines, read through the one safe reader (a regular file of
    bounded size; `-` is standard input, read within the same bound)."""
    if path == "-":
        data = sys.stdin.buffer.read(BATCH_LIMIT + 1)
        if len(data) > BATCH_LIMIT:
            _refuse(Said("solve_stdin_too_large", limit=BATCH_LIMIT))
        try:
            return decode_text(data).splitlines()
        except FileRefused as e:
            _refuse(Said("solve_stdin_refused", reason=said(e.reason)))
    try:
        return read_text(path, BATCH_LIMIT).splitlines()
    except FileRefused as e:
        _refuse(Said("at", where=f"--batch: {short(path)}", detail=said(e.reason)))


def _said(error: BaseException) -> Said:
    """What a refused line of a batch says: its error's problem of the
    catalogue where it carries one, else the error's own words."""
    carried = getattr(error, "said", None)
    if isinstance(carried, Said):
        return carried
    if error.args and isinstance(error.args[0], Said):
        return error.args[0]
    return Said("text", text=str(error))


def _refuse(message: Said) -> NoReturn:
    """A batch that cannot be read is refused input: one line, exit 1."""
    click.echo(cli_words("cli_error", message=said_words(message)), err=True)
    sys.exit(1)
