"""The groups a profile's settings are told in: deck, deal, draw, discard,
melds, opening, table, jokers, scoring, game, teams, turn, and the choices
their settings name.

Apart from the whole `Profile` (`model`) so that what reads a few groups
without the rest (`going_out`, which the profile's own validator asks) can
name their types without importing the profile that asks it. Every field
has a default and a description so that `rami schema` can drive an
editor's completion.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt


class Strict(BaseModel):
    """Base for every profile group: unknown keys are a typo, never ignored."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


# --------------------------------------------------------------------------- enums


class AceRule(str, Enum):
    low = "low"
    high = "high"
    both = "both"


class EmptyStock(str, Enum):
    reshuffle = "reshuffle"
    turn_over = "turn_over"
    end_all_pay = "end_all_pay"
    end_nobody_pays = "end_nobody_pays"
    replay = "replay"


class JokerSwap(str, Enum):
    never = "never"
    on_table = "on_table"
    to_hand = "to_hand"


class JokerReplay(str, Enum):
    same_turn = "same_turn"
    any_time = "any_time"


class SetSwap(str, Enum):
    fourth_card = "fourth_card"
    any = "any"


class SwapWho(str, Enum):
    opened = "opened"
    anyone = "anyone"


class Penalty(str, Enum):
    hand = "hand"
    fixed = "fixed"


class RamiSec(str, Enum):
    double = "double"
    bonus = "bonus"
    none = "none"


class GameEnd(str, Enum):
    target = "target"
    single_round = "single_round"
    rounds = "rounds"


class TargetOutcome(str, Enum):
    lowest_wins = "lowest_wins"
    reacher_loses = "reacher_loses"


class PartnerOpening(str, Enum):
    free = "free"
    pure_run = "pure_run"


class FirstPlayer(str, Enum):
    random = "random"
    seat0 = "seat0"


class TimeoutAction(str, Enum):
    draw_then_pass = "draw_then_pass"


# --------------------------------------------------------------------------- groups


class Players(Strict):
    min: StrictInt = Field(
        2, ge=2, le=8, description="Fewest players the variant is played with (a game needs two)."
    )
    max: StrictInt = Field(4, ge=2, le=8, description="Most players the variant is played with.")
    counts: list[StrictInt] | None = Field(
        None,
        min_length=1,
        max_length=7,  # 2 to 8 players: a longer list can only repeat itself
        description="The player counts allowed, where not every count from min to max is (rami71: 2, or 4 as two teams).",
    )


class Deck(Strict):
    decks: StrictInt = Field(
        2, ge=1, le=4, description="Number of 52-card decks shuffled together; identical cards stay distinct."
    )
    jokers: StrictInt = Field(2, ge=0, le=8, description="Number of jokers added to the decks.")


class Deal(Strict):
    hand_size: StrictInt = Field(13, ge=1, le=30, description="Cards dealt to each player.")
    hand_size_by_players: dict[int, Annotated[StrictInt, Field(ge=1, le=30)]] = Field(
        default_factory=dict,
        max_length=7,
        description="Hand size by player count, overriding hand_size for the counts listed (classic: 2: 10, 3: 7 ...).",
    )
    dealer_extra_card: StrictBool = Field(
        False,
        description="The first player receives one more card and starts by laying or discarding, without drawing.",
    )
    upcard: StrictBool = Field(
        False, description="One card is turned up from the stock to start the discard pile."
    )
    first_player: FirstPlayer = Field(
        FirstPlayer.random,
        description="Who plays first in the first round: drawn at random (seeded) or seat 0.",
    )
    rotate: StrictBool = Field(
        True, description="The first player moves one seat to the left each new round."
    )


class Draw(Strict):
    from_discard: StrictBool = Field(
        True, description="A player may draw the top card of the discard pile instead of the stock."
    )
    discard_before_opening: StrictBool = Field(
        True, description="A player who has not opened may draw from the discard pile."
    )
    taken_discard_must_be_laid: StrictBool = Field(
        False, description="A card drawn from the discard pile must be on the table by the end of that turn."
    )
    empty_stock: EmptyStock = Field(
        EmptyStock.reshuffle,
        description=(
            "When the stock runs out. reshuffle: the discard pile but its top card is shuffled into a new stock "
            "(nothing to shuffle ends the round, nobody pays); turn_over: the whole pile turned over as it lies; "
            "end_all_pay: the round ends after the turn that drew the last card, everybody pays; "
            "end_nobody_pays: same, nobody pays; replay: same, and the round is dealt again."
        ),
    )


class Discard(Strict):
    enabled: StrictBool = Field(
        True, description="Each turn ends by discarding one card; false: there is no discard pile at all."
    )
    keep_last: StrictBool = Field(
        True,
        description="Going out must end with a discard: laying the last card of the hand is refused.",
    )
    throw_back: StrictBool = Field(
        True,
        description=(
            "The card taken from the discard pile may be discarded again the same turn; false: that "
            "discard is refused (discard_forbidden), and so is its twin from the other deck."
        ),
    )


class Melds(Strict):
    run_min: StrictInt = Field(3, ge=2, le=13, description="Fewest cards in a run.")
    set_min: StrictInt = Field(3, ge=2, le=8, description="Fewest cards in a set.")
    set_max: StrictInt = Field(4, ge=2, le=8, description="Most cards in a set.")
    set_distinct_suits: StrictBool = Field(True, description="The cards of a set are all of different suits.")
    ace: AceRule = Field(
        AceRule.both, description="Where an ace stands in a run: low (A-2-3), high (Q-K-A) or both ends."
    )
    wrap: StrictBool = Field(False, description="A run may turn the corner K-A-2 (needs ace: both).")


class Opening(Strict):
    required: StrictBool = Field(
        True,
        description="A player must open before laying off, rearranging or swapping; false: everybody counts as opened.",
    )
    pure_run: StrictBool = Field(False, description="The opening must contain a run with no joker.")
    points: StrictInt = Field(
        0, ge=0, le=500, description="Points the opening melds must reach (0: no threshold)."
    )
    jokers: StrictBool = Field(True, description="Jokers may be used in the opening.")
    run_and_set: StrictBool = Field(
        False, description="The opening must contain at least one run and one set."
    )
    all_at_once: StrictBool = Field(
        False,
        description="Nothing is laid before going out: every meld action must lay the whole hand (all but one card where a discard ends the round).",
    )
    go_out_below_points: StrictBool = Field(
        False,
        description="A player may open below the points by going out at once (all but the discard); the other opening conditions still hold.",
    )
    go_out_run_without_taken_discard: StrictBool = Field(
        False,
        description="When going out below the points after taking the discard top this turn, some run must be built without that card.",
    )


class Table(Strict):
    new_melds: StrictBool = Field(
        True, description="After opening, a player may lay new melds in later turns."
    )
    lay_off: StrictBool = Field(
        True, description="After opening, a player may add cards to any meld on the table."
    )
    rearrange: StrictBool = Field(
        False,
        description="After opening, a player may rebuild the whole table (every meld valid, every table card kept, at least one card from the hand).",
    )
    in_opening_turn: StrictBool = Field(
        True, description="Lay offs, swaps and rearrangements are allowed in the turn the player opens."
    )


class Jokers(Strict):
    max_per_meld: StrictInt | None = Field(
        None, ge=0, le=8, description="Most jokers in one meld (null: no limit)."
    )
    min_naturals: StrictInt = Field(1, ge=1, le=8, description="Fewest natural (non-joker) cards in a meld.")
    penalty: StrictInt = Field(25, ge=0, le=500, description="What a joker left in hand costs.")
    swap: JokerSwap = Field(
        JokerSwap.to_hand,
        description="never: a laid joker stays where it is; on_table: it moves between melds when the table is rearranged but never returns to a hand; to_hand: giving the card it stands for takes it into the hand.",
    )
    replay: JokerReplay = Field(
        JokerReplay.same_turn,
        description="A joker taken into the hand must go back on the table the same turn, or may be kept.",
    )
    set_swap: SetSwap = Field(
        SetSwap.fourth_card,
        description="fourth_card: a joker leaves a set only when the set is a full carré of four cards afterwards (both missing cards from a three-card set, the card it stands for in a carré), by a swap or a rearrangement alike; any: one card frees it.",
    )
    who: SwapWho = Field(
        SwapWho.opened, description="Who may swap a joker: only a player who has opened, or anyone."
    )


class Scoring(Strict):
    penalty: Penalty = Field(
        Penalty.hand,
        description="hand: each loser pays the points left in hand; fixed: each loser pays fixed_penalty.",
    )
    fixed_penalty: StrictInt = Field(
        100, ge=0, le=10000, description="What each loser pays under penalty: fixed."
    )
    ace_points: StrictInt = Field(
        11, ge=0, le=100, description="An ace's value (in hand, and in a meld except at the bottom of a run)."
    )
    ace_low_points: StrictInt = Field(
        1, ge=0, le=100, description="An ace's opening value at the bottom of a run (A-2-3)."
    )
    court_points: StrictInt = Field(10, ge=0, le=100, description="Value of J, Q and K.")
    positive: StrictBool = Field(
        False, description="The winner scores what the others hold and the highest total wins."
    )
    rami_sec: RamiSec = Field(
        RamiSec.none,
        description="Going out in the turn of one's first lay: losers pay double, a bonus, or nothing special.",
    )
    rami_sec_bonus: StrictInt = Field(
        10,
        ge=0,
        le=1000,
        description="With rami_sec: bonus, what each loser pays on top (or the winner scores, when positive).",
    )


class Game(Strict):
    end: GameEnd = Field(
        GameEnd.target,
        description="target: a score reaching the target ends the game; single_round; rounds: a fixed number.",
    )
    target: StrictInt = Field(100, ge=1, le=100000, description="The score that ends the game.")
    team_target: StrictInt | None = Field(
        None, ge=1, le=100000, description="The target in a team game (null: same as target)."
    )
    target_outcome: TargetOutcome = Field(
        TargetOutcome.lowest_wins,
        description="lowest_wins: the game ends and the lowest score wins; reacher_loses: the side reaching the target loses (lowest of the others wins).",
    )
    rounds: StrictInt = Field(1, ge=1, le=1000, description="Rounds in a game under end: rounds.")
    end_on_empty_stock: StrictBool = Field(
        False, description="The game ends when the stock is empty at the end of a turn."
    )


class Teams(Strict):
    enabled: StrictBool = Field(
        False, description="At four players, partners facing (seats 0 and 2 against 1 and 3) share one score."
    )
    partner_opening: PartnerOpening = Field(
        PartnerOpening.free,
        description="Once a partner has opened: the other's first lay is free, or needs a pure run.",
    )
    opponents_pay_only: StrictBool = Field(
        True, description="Only the winner's opposing side pays; the partner pays nothing."
    )


class Turn(Strict):
    time_limit: StrictInt | None = Field(
        None, ge=1, le=3600, description="Seconds per turn (null: no clock)."
    )
    timeout: TimeoutAction = Field(
        TimeoutAction.draw_then_pass,
        description="What a timeout does: draw from the stock if not drawn, then end the turn (discarding the card drawn where there is a discard).",
    )
