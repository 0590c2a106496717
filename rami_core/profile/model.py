"""Variant profiles: everything a rami table can disagree on, as data.

The engine never tests a variant's name; it reads these settings. The groups
mirror the way the rules are told (deck, deal, draw, discard, melds, opening,
table, jokers, scoring, game, teams, turn) so a house-rule file reads like the
rules it changes; they are defined in `groups`, and the whole `Profile` here,
with the checks across groups. Every field has a default and a description so
that `rami schema` can drive an editor's completion.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, StrictBool, StrictInt, model_validator

from rami_core.profile.going_out import impossible
from rami_core.profile.groups import (
    AceRule,
    Deal,
    Deck,
    Discard,
    Draw,
    EmptyStock,
    FirstPlayer,
    Game,
    GameEnd,
    JokerReplay,
    Jokers,
    JokerSwap,
    Melds,
    Opening,
    PartnerOpening,
    Penalty,
    Players,
    RamiSec,
    Scoring,
    SetSwap,
    Strict,
    SwapWho,
    Table,
    TargetOutcome,
    Teams,
    TimeoutAction,
    Turn,
)
from rami_core.words.problems import Said

# The groups and their choices are named here too: `rami_core.profile.model` is
# where plugins and front ends import a profile's types from.
__all__ = [
    "FORMAT_VERSION",
    "AceRule",
    "Deal",
    "Deck",
    "Descriptions",
    "Discard",
    "Draw",
    "EmptyStock",
    "FirstPlayer",
    "Game",
    "GameEnd",
    "JokerReplay",
    "JokerSwap",
    "Jokers",
    "Melds",
    "Opening",
    "PartnerOpening",
    "Penalty",
    "Players",
    "Profile",
    "ProfileConflicts",
    "RamiSec",
    "Scoring",
    "SetSwap",
    "Strict",
    "SwapWho",
    "Table",
    "TargetOutcome",
    "Teams",
    "TimeoutAction",
    "Turn",
]

FORMAT_VERSION = 1


class ProfileConflicts(ValueError):
    """Cross-field problems of a profile, each a ``(key path, what it says)`` pair
    (a :class:`~rami_core.words.problems.Said`: a code and its parameters).

    Raised from the profile's own validator, so pydantic carries it in the
    error's context and the loader can point at each key path's file and line
    without reading the message.
    """

    def __init__(self, problems: list[tuple[str, Said]]):
        super().__init__("; ".join(message for _, message in problems))
        self.problems = problems


class Descriptions(Strict):
    """A variant's one line in each language rami speaks: a French table must
    not be titled in English. A language left out is shown in English."""

    en: str = Field("", max_length=2000, description="The line in English.")
    fr: str = Field("", max_length=2000, description="The line in French.")


class Profile(Strict):
    """A whole variant: the presets and every house-rule file resolve to one."""

    format: StrictInt = Field(FORMAT_VERSION, ge=1, le=FORMAT_VERSION, description="Profile format version.")
    name: str = Field("custom", max_length=200, description="Short name of the variant.")
    description: Annotated[str, Field(max_length=2000)] | Descriptions = Field(
        "",
        description=(
            "One line saying what the variant is: a text, or one per language ({en: ..., fr: ...}). "
            "Replaced whole by a file that extends this one (a parent's line in a language the child "
            "does not write would describe the parent)."
        ),
    )
    source: str = Field("", max_length=2000, description="Where the rules come from.")
    players: Players = Field(default_factory=Players)
    deck: Deck = Field(default_factory=Deck)
    deal: Deal = Field(default_factory=Deal)
    draw: Draw = Field(default_factory=Draw)
    discard: Discard = Field(default_factory=Discard)
    melds: Melds = Field(default_factory=Melds)
    opening: Opening = Field(default_factory=Opening)
    table: Table = Field(default_factory=Table)
    jokers: Jokers = Field(default_factory=Jokers)
    scoring: Scoring = Field(default_factory=Scoring)
    game: Game = Field(default_factory=Game)
    teams: Teams = Field(default_factory=Teams)
    turn: Turn = Field(default_factory=Turn)
    plugins: dict[str, dict[str, Any] | StrictBool | None] = Field(
        default_factory=dict,
        description="House-rule plugins by name, each with its own settings ({} or true: on with defaults; false or null: off, e.g. to switch off a plugin the parent profile turns on).",
    )

    # ------------------------------------------------------------ cross-field

    @model_validator(mode="after")
    def _coherent(self) -> Profile:
        problems: list[tuple[str, Said]] = []
        if self.players.min > self.players.max:
            problems.append(
                ("players.min", Said("players_min_above_max", min=self.players.min, max=self.players.max))
            )
        if self.players.counts is not None and any(
            not self.players.min <= n <= self.players.max for n in self.players.counts
        ):
            problems.append(("players.counts", Said("players_counts_outside")))
        deck_size = 52 * self.deck.decks + self.deck.jokers
        for n in range(self.players.min, self.players.max + 1):
            need = (
                self.hand_size(n) * n
                + (1 if self.deal.dealer_extra_card else 0)
                + (1 if self.deal.upcard else 0)
            )
            if need > deck_size:
                problems.append(
                    (
                        "deck.decks",
                        Said(
                            "deck_too_small",
                            players=n,
                            need=need,
                            size=deck_size,
                            decks=self.deck.decks,
                            jokers=self.deck.jokers,
                        ),
                    )
                )
                break
        # A game nobody can finish (a hand below the smallest meld, an
        # opening no lay can reach): refused here, where every reader of a
        # profile meets it. What is merely unlikely is `going_out.unlikely`.
        if not problems:
            problems.extend(impossible(self))
        for n in self.deal.hand_size_by_players:
            if not self.players.min <= n <= self.players.max:
                problems.append(
                    (
                        "deal.hand_size_by_players",
                        Said("hand_size_players_outside", players=n),
                    )
                )
        if not self.discard.enabled:
            if self.draw.from_discard:
                problems.append(
                    (
                        "draw.from_discard",
                        Said("no_discard_to_draw"),
                    )
                )
            if self.deal.upcard:
                problems.append(
                    (
                        "deal.upcard",
                        Said("no_discard_upcard"),
                    )
                )
            if self.discard.keep_last:
                problems.append(
                    (
                        "discard.keep_last",
                        Said("no_discard_keep_last"),
                    )
                )
            if self.draw.empty_stock in (EmptyStock.reshuffle, EmptyStock.turn_over):
                problems.append(
                    (
                        "draw.empty_stock",
                        Said("no_discard_rebuild", empty_stock=self.draw.empty_stock.value),
                    )
                )
            if self.deal.dealer_extra_card:
                problems.append(
                    (
                        "deal.dealer_extra_card",
                        Said("no_discard_dealer_extra"),
                    )
                )
        if not self.draw.from_discard and self.draw.taken_discard_must_be_laid:
            problems.append(
                (
                    "draw.taken_discard_must_be_laid",
                    Said("taken_discard_without_draw"),
                )
            )
        if self.melds.set_min > self.melds.set_max:
            problems.append(
                (
                    "melds.set_min",
                    Said("set_min_above_max", min=self.melds.set_min, max=self.melds.set_max),
                )
            )
        if self.melds.set_distinct_suits and self.melds.set_max > 4:
            problems.append(
                (
                    "melds.set_max",
                    Said("set_max_four_suits"),
                )
            )
        if self.melds.wrap and self.melds.ace != AceRule.both:
            problems.append(("melds.wrap", Said("wrap_needs_ace_both")))
        if self.jokers.max_per_meld == 0 and self.deck.jokers > 0:
            problems.append(
                (
                    "jokers.max_per_meld",
                    Said("jokers_never_laid", jokers=self.deck.jokers),
                )
            )
        if self.opening.go_out_run_without_taken_discard and not self.opening.go_out_below_points:
            problems.append(
                (
                    "opening.go_out_run_without_taken_discard",
                    Said("go_out_run_needs_below"),
                )
            )
        if self.opening.all_at_once and self.table.rearrange:
            problems.append(
                (
                    "opening.all_at_once",
                    Said("all_at_once_rearrange"),
                )
            )
        if not self.opening.required and (
            self.opening.pure_run or self.opening.points or self.opening.run_and_set
        ):
            problems.append(
                (
                    "opening.required",
                    Said("opening_not_required"),
                )
            )
        if self.table.rearrange and self.jokers.swap == JokerSwap.never:
            problems.append(
                (
                    "table.rearrange",
                    Said("rearrange_swap_never"),
                )
            )
        if self.jokers.swap == JokerSwap.on_table and not self.table.rearrange:
            problems.append(
                (
                    "jokers.swap",
                    Said("swap_on_table_no_rearrange"),
                )
            )
        if self.teams.enabled and self.players.max < 4:
            problems.append(("teams.enabled", Said("teams_need_four")))
        if self.game.end == GameEnd.single_round and self.game.end_on_empty_stock:
            pass
        if problems:
            raise ProfileConflicts(problems)
        return self

    # ------------------------------------------------------------ derived

    def description_in(self, lang: str) -> str:
        """The line in ``lang``, else in English, else in the other language:
        a text written once (the old form) is the line in every language."""
        d = self.description
        if isinstance(d, str):
            return d
        words = d.model_dump()
        return words.get(lang) or d.en or next((w for w in words.values() if w), "")

    @property
    def active_plugins(self) -> dict[str, dict[str, Any]]:
        """The plugins switched on, with their settings."""
        return {
            k: (v if isinstance(v, dict) else {}) for k, v in self.plugins.items() if v not in (False, None)
        }

    def player_counts(self) -> list[int]:
        """Every player count the profile allows, smallest first."""
        return [n for n in range(self.players.min, self.players.max + 1) if self.allows_players(n)]

    def allows_players(self, players: int) -> bool:
        if not self.players.min <= players <= self.players.max:
            return False
        return self.players.counts is None or players in self.players.counts

    def hand_size(self, players: int) -> int:
        """Cards dealt to each player at this player count."""
        return self.deal.hand_size_by_players.get(players, self.deal.hand_size)

    def teams_at(self, players: int) -> bool:
        """Whether a game with this many players is played in two teams."""
        return self.teams.enabled and players == 4

    def target_for(self, players: int) -> int:
        if self.teams_at(players) and self.game.team_target is not None:
            return self.game.team_target
        return self.game.target
