"""Input checks: a position the game's deck could not deal is refused up front.

The search is bounded anyway, but a position with three copies of a card in a
two-deck game, or jokers the game does not have, has no meaning: saying so in
one line helps more than a "not proven" after a long search.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rami_core.cards import Card, format_card
from rami_core.solver.results import SolverInputError
from rami_core.words.problems import Said


def check_position(cards: Iterable[Card], *, decks: int, jokers: int) -> None:
    """Raise :class:`SolverInputError` if the table and hand together hold more
    cards than a deck of ``decks`` 52-card decks and ``jokers`` jokers."""
    cards = list(cards)
    deck_size = 52 * decks + jokers
    if len(cards) > deck_size:
        raise SolverInputError(Said("solve_too_many_cards", n=len(cards), size=deck_size))
    njokers = sum(1 for c in cards if c.is_joker)
    if njokers > jokers:
        if jokers:
            raise SolverInputError(Said("solve_too_many_jokers", n=njokers, jokers=jokers))
        raise SolverInputError(Said("solve_no_jokers", n=njokers))
    faces = Counter((c.rank, c.suit) for c in cards if not c.is_joker)
    over = sorted(f for f, n in faces.items() if n > decks)
    if over:
        f = over[0]
        card = format_card(Card(f[0], f[1], 0))
        raise SolverInputError(Said("solve_too_many_copies", n=faces[f], card=card, decks=decks))
