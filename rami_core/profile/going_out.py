"""Whether a profile's hands can ever go out: the sense check of a profile.

A profile can be valid setting by setting and still describe a game nobody
can finish: a hand smaller than the smallest meld, an opening worth more
than any lay could ever be, more natural cards per meld than the hand can
lay. Such a table would be played until the turn cap stops it. What is
impossible is an error (`impossible`, raised by the profile's own validator,
so `rami validate`, `rami play`, `rami simulate`, `rami serve` and the lobby
all refuse it); what is possible but hardly ever happens is a warning
(`unlikely`: `rami validate` prints it and exits 0, `--strict` refuses it,
the lobby shows it).

Both are judged from the settings alone, with bounds that can only err on
the side of saying yes: "impossible" is said only when no deal whatever can
get there. Every problem is a (key path, Said) pair, located by the loader
at the setting's line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from rami_core.profile.groups import Deck, Discard, Jokers, Melds, Opening, Scoring
from rami_core.words.problems import Said


class Settings(Protocol):
    """What the sense check reads of a profile: the groups below and the
    player counts. The `Profile` is one; naming only this lets the profile's
    own validator ask `impossible` without this module naming the profile."""

    @property
    def deck(self) -> Deck: ...
    @property
    def discard(self) -> Discard: ...
    @property
    def melds(self) -> Melds: ...
    @property
    def jokers(self) -> Jokers: ...
    @property
    def scoring(self) -> Scoring: ...
    @property
    def opening(self) -> Opening: ...
    def player_counts(self) -> list[int]: ...
    def hand_size(self, players: int) -> int: ...


# The settings a problem involves, named so that the loader shows the line
# of the one the user's file wrote (see loader.translate.locate_setting).
HAND = "deal.hand_size deal.hand_size_by_players discard.keep_last"
MELD_SIZES = "melds.run_min melds.set_min melds.set_max jokers.min_naturals"
POINTS = "scoring.ace_points scoring.court_points"


@dataclass(frozen=True)
class Reach:
    """What a lay can hold at one player count."""

    players: int
    hand: int  # cards dealt
    lay: int  # the most cards one turn's lay can hold


def reaches(p: Settings) -> Iterator[Reach]:
    """Each allowed player count's hand and the most cards a lay can hold.

    With a discard pile the hand stays at its size between turns: a lay
    holds the hand and the card drawn, less the card kept for the discard
    where the round must end with one (`discard.keep_last`). Without one
    (voleur) the hand grows by a card a turn: at most its share of the
    stock comes to it."""
    deck = 52 * p.deck.decks + p.deck.jokers
    for n in p.player_counts():
        hand = p.hand_size(n)
        if p.discard.enabled:
            lay = hand + 1 - (1 if p.discard.keep_last else 0)
        else:
            stock = max(0, deck - n * hand)
            lay = hand + -(-stock // n)
        yield Reach(n, hand, lay)


def smallest_melds(p: Settings) -> tuple[int, int | None]:
    """The fewest cards of a run, and of a set (None: no set can hold the
    natural cards a meld needs), given `jokers.min_naturals`."""
    run = max(p.melds.run_min, p.jokers.min_naturals)
    set_ = max(p.melds.set_min, p.jokers.min_naturals)
    return run, (set_ if set_ <= p.melds.set_max else None)


def best_card(p: Settings) -> int:
    """The most one card can count in an opening (a joker counts as the card it stands for)."""
    return max(p.scoring.ace_points, p.scoring.court_points, 10)


def mean_card(p: Settings) -> float:
    """What one card of a suit counts on average (ace high, courts, 2 to 10)."""
    return (p.scoring.ace_points + 3 * p.scoring.court_points + sum(range(2, 11))) / 13


def impossible(p: Settings) -> list[tuple[str, Said]]:
    """What makes going out impossible at some allowed player count (errors)."""
    run, set_ = smallest_melds(p)
    smallest = min(run, set_) if set_ is not None else run
    for r in reaches(p):
        if smallest > r.lay:
            if p.jokers.min_naturals > min(p.melds.run_min, p.melds.set_min):
                return [
                    (
                        f"jokers.min_naturals {HAND}",
                        Said("min_naturals_beyond_hand", naturals=p.jokers.min_naturals, hand=r.hand),
                    )
                ]
            return [(f"{HAND} {MELD_SIZES}", Said("hand_never_out", hand=r.hand, meld=smallest))]
        if p.opening.run_and_set:
            if set_ is None:
                return [
                    (
                        "opening.run_and_set jokers.min_naturals melds.set_max",
                        Said(
                            "opening_set_impossible", naturals=p.jokers.min_naturals, set_max=p.melds.set_max
                        ),
                    )
                ]
            if run + set_ > r.lay:
                return [
                    (
                        f"opening.run_and_set {HAND} {MELD_SIZES}",
                        Said(
                            "opening_run_and_set_beyond_lay", need=run + set_, cards=r.lay, players=r.players
                        ),
                    )
                ]
        most = r.lay * best_card(p)
        if p.opening.points > most and not p.opening.go_out_below_points:
            return [
                (
                    f"opening.points {HAND} {POINTS}",
                    Said(
                        "opening_out_of_reach",
                        points=p.opening.points,
                        players=r.players,
                        cards=r.lay,
                        most=most,
                    ),
                )
            ]
    return []


def unlikely(p: Settings) -> list[tuple[str, Said]]:
    """What makes going out possible but hardly ever seen (warnings).
    Asked of a profile `impossible` accepted."""
    out: list[tuple[str, Said]] = []
    run, set_ = smallest_melds(p)
    if set_ is None:
        out.append(
            (
                "jokers.min_naturals melds.set_max",
                Said("sets_never_laid", naturals=p.jokers.min_naturals, set_max=p.melds.set_max, run=run),
            )
        )
    if p.opening.points and not p.opening.go_out_below_points:
        for r in reaches(p):
            average = round(r.lay * mean_card(p))
            if p.opening.points > average:
                out.append(
                    (
                        f"opening.points {HAND} {POINTS}",
                        Said(
                            "opening_rarely_reached",
                            points=p.opening.points,
                            players=r.players,
                            cards=r.lay,
                            average=average,
                        ),
                    )
                )
                break
    return out
