"""`rami solve`: the best arrangement of a table and a hand, one position or a batch."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from rami_core.cards import Card, CardError, format_card, parse_cards
from rami_core.melds import MeldRules
from rami_core.resources import DEFAULT_VARIANT
from rami_core.solver import check_solution, solve


def _cards(text: str, what: str) -> list[Card]:
    try:
        return parse_cards(text)
    except CardError as e:
        raise click.BadParameter(str(e), param_hint=what) from None


def _with_copies(table: list[Card], hand: list[Card]) -> tuple[list[Card], list[Card]]:
    """Physical cards: identical faces get distinct copies, table first."""
    seen: dict[tuple[int, int], int] = {}

    def tag(c: Card) -> Card:
        k = c[:2]
        n = seen.get(k, 0)
        seen[k] = n + 1
        return Card(c.rank, c.suit, n)

    return [tag(c) for c in table], [tag(c) for c in hand]


def _solve_one(
    table: list[Card], hand: list[Card], rules: MeldRules, objective: str, profile
) -> dict[str, Any]:
    table, hand = _with_copies(table, hand)
    start = time.perf_counter()
    sol = solve(table, hand, rules, objective=objective, points=profile)
    seconds = time.perf_counter() - start
    problem = check_solution(table, hand, sol, rules)
    if problem:  # the solver's answer is always re-checked; a failure is a bug
        raise click.ClickException(f"internal error: the solver's answer does not check: {problem}")
    return {
        "max_cards_laid": sol.max_cards_laid,
        "laid": [format_card(c) for c in sol.laid],
        "melds": [[format_card(c) for c in m] for m in sol.melds],
        "feasible": sol.feasible,
        "seconds": round(seconds, 6),
    }


@click.command("solve")
@click.option("--variant", default=None, help="A preset or profile name (default: rami51).")
@click.option(
    "--rules", "rules_file", default=None, type=click.Path(dir_okay=False), help="A house-rule file."
)
@click.option("--table", default="", help="The table's cards, e.g. '8S 8H 8D 8C'.")
@click.option("--hand", default="", help="The hand's cards, e.g. '6H 7H'.")
@click.option(
    "--objective",
    type=click.Choice(["cards", "points"]),
    default="cards",
    show_default=True,
    help="Lay the most cards, or the most penalty points.",
)
@click.option(
    "--batch",
    type=click.File("r"),
    default=None,
    help='A JSON-lines file, one position a line: {"id", "table": [...], "hand": [...]}.',
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def solve_cmd(variant, rules_file, table, hand, objective, batch, as_json) -> None:
    """The arrangement of the whole table that lays the most hand cards (a proven optimum)."""
    from rami_core.loader import load_profile

    if variant and rules_file:
        raise click.UsageError("give --variant or --rules, not both")
    profile = load_profile(rules_file or variant or DEFAULT_VARIANT)
    rules = MeldRules.from_profile(profile)
    if batch is None:
        out = _solve_one(_cards(table, "--table"), _cards(hand, "--hand"), rules, objective, profile)
        if as_json:
            click.echo(json.dumps(out))
            return
        click.echo(f"{out['max_cards_laid']} hand card(s) laid: {' '.join(out['laid']) or '-'}")
        for i, m in enumerate(out["melds"], 1):
            click.echo(f"  {i}. {' '.join(m)}")
        click.echo(f"({out['seconds'] * 1000:.1f} ms)")
        return
    failed = 0
    for n, line in enumerate(batch, 1):
        if not line.strip():
            continue
        try:
            pos = json.loads(line)
            ident = pos.get("id", n)
            t = parse_cards(pos.get("table", []))
            h = parse_cards(pos.get("hand", []))
        except (json.JSONDecodeError, CardError, AttributeError, TypeError) as e:
            click.echo(f"line {n}: {e}", err=True)
            failed += 1
            continue
        result = _solve_one(t, h, rules, objective, profile)
        click.echo(
            json.dumps(
                {"id": ident, **{k: result[k] for k in ("max_cards_laid", "laid", "melds", "seconds")}}
            )
        )
    if failed:
        sys.exit(1)
