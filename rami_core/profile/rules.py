"""The fixed rules of one table: a profile read once, for a player count.

This is the one reader of a profile's settings. `Rules.read` turns the
groups of a `Profile` into named, typed facts, each named for what it
decides (may this seat lay off, what does it need to open now, where does a
freed joker go, what is a card worth); the engine, the bots, the hint, the
screen, simulate and the test harness ask these facts, and no other module
reads `profile.opening`, `profile.table` and the rest (a guard test,
tests/test_rules_facts.py, keeps it so). A setting is thus given its meaning
in one place, and a new setting that nothing reads fails that test.

`rules.profile` stays available: plugins and the CLI use it for the name and
the plugin settings, and for anything the facts do not say.

The game's plugins are handed in (`Plugins`: what the rules and the referee
ask of them), not built here: the plugin host (`hooks`) names `Rules` in its
hooks' parameters, so building it here would tie the two modules round.
`resolve.rules_for` builds both, and is what a caller asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rami_core.cards import Card, card_points
from rami_core.cards.melds import (
    MeldRules,
    Reading,
    joins_meld,
    lay_off_positional,
    meld_points,
    might_join_reading,
)
from rami_core.profile.model import (
    EmptyStock,
    FirstPlayer,
    GameEnd,
    JokerReplay,
    JokerSwap,
    PartnerOpening,
    Penalty,
    Profile,
    RamiSec,
    SetSwap,
    SwapWho,
    TargetOutcome,
    TimeoutAction,
)

if TYPE_CHECKING:
    from rami_core.game.state import GameState


class Opinion(Protocol):
    """A plugin's answer to a deciding hook, and which plugin gave it."""

    @property
    def plugin(self) -> str: ...
    @property
    def value(self) -> Any: ...


class Plugins(Protocol):
    """What the rules and the referee ask of a game's plugins: the plugin host
    (`hooks.PluginHost`) is one. Named here so that `Rules` holds the host
    without importing it (the host's hooks are typed with `Rules`)."""

    def has(self, hook: str) -> bool:
        """Whether some plugin implements the hook (else it is not called at all)."""
        ...

    def decide(self, hook: str, **kwargs: Any) -> Opinion | None:
        """The first plugin's opinion on a deciding (``firstresult``) hook, or None."""
        ...

    def call_all(self, hook: str, **kwargs: Any) -> list[Any]:
        """Every plugin's answer to a hook that is not ``firstresult``."""
        ...

    def refuse_if(self, hook: str, **kwargs: Any) -> None:
        """Ask a refusing hook; raise the RuleError a plugin asks for."""
        ...


@dataclass(frozen=True, slots=True)
class OpeningNeed:
    """What a seat's first lay must contain, as it stands for that seat now
    (a partner's opening included). The solver's `best_opening` reads the
    first four fields by name."""

    points: int = 0
    pure_run: bool = False
    run_and_set: bool = False
    jokers: bool = True
    partner: bool = False  # the need comes from the partner rule (a team game, the partner opened)
    all_at_once: bool = False  # the whole hand goes down at once, but the cards kept (Rules.kept_going_out)
    go_out_below_points: bool = False  # going out may lay fewer points than `points`

    @property
    def anything(self) -> bool:
        """Any meld opens (no points, no pure run, no run and set)."""
        return not (self.points or self.pure_run or self.run_and_set)


def meld_rules_for(profile: Profile) -> MeldRules:
    """What a valid meld is, from the profile's melds and jokers groups."""
    p = profile
    ace = p.melds.ace.value
    return MeldRules(
        run_min=p.melds.run_min,
        set_min=p.melds.set_min,
        set_max=p.melds.set_max,
        set_distinct_suits=p.melds.set_distinct_suits,
        ace_low=ace in ("low", "both"),
        ace_high=ace in ("high", "both"),
        wrap=p.melds.wrap,
        max_jokers=p.jokers.max_per_meld,
        min_naturals=p.jokers.min_naturals,
    )


@dataclass(frozen=True)
class Rules:
    profile: Profile
    players: int
    melds: MeldRules
    teams: bool
    hooks: Plugins = field(compare=False, repr=False)  # this game's plugins (none: an empty host)

    # ---- the deal
    decks: int = 1
    deck_jokers: int = 0
    hand_size: int = 13
    dealer_extra_card: bool = False
    upcard: bool = False
    random_first_player: bool = False
    rotate_first_player: bool = True
    # ---- drawing
    draw_from_discard: bool = True
    discard_draw_before_opening: bool = True
    taken_discard_must_be_laid: bool = False
    empty_stock: EmptyStock = EmptyStock.reshuffle
    # ---- ending a turn
    ends_with_discard: bool = True  # a turn ends with a discard (else: end the turn)
    keep_last: bool = False  # a card is always kept to discard: going out is a discard
    throw_back: bool = True  # the card taken from the discard pile may be discarded the same turn
    # ---- the opening
    has_opening: bool = True
    opening: OpeningNeed = OpeningNeed()  # the need of a seat whose partner has not opened
    partner_opening: PartnerOpening = PartnerOpening.free
    opening_points_going_out_needs_run: bool = False  # going out below the points after taking the discard
    # ---- the table
    may_lay_off: bool = True
    may_rearrange: bool = False
    new_melds_after_opening: bool = True
    lay_in_opening_turn: bool = True  # lay off / swap / rearrange in the turn one opens
    positional_jokers: bool = True  # a laid joker keeps its place (the table is not rearranged)
    # ---- jokers
    joker_swap: JokerSwap = JokerSwap.to_hand
    swap_needs_opening: bool = True
    set_swap_any: bool = False  # one missing card frees a three-card set's joker
    freed_joker_same_turn: bool = False  # a freed joker goes back on the table in the same turn
    joker_penalty: int = 25
    # ---- scoring
    ace_points: int = 11
    ace_low_points: int = 1
    court_points: int = 10
    fixed_penalty: int | None = None  # every loser pays this, whatever the hand
    rami_sec: RamiSec = RamiSec.none
    rami_sec_bonus: int = 0
    positive_scores: bool = False  # the winner scores what the others hold; highest total wins
    opponents_pay_only: bool = True
    # ---- the game
    game_end: GameEnd = GameEnd.target
    target: int = 100
    target_outcome: TargetOutcome = TargetOutcome.lowest_wins
    rounds: int = 1
    end_on_empty_stock: bool = False
    # ---- the clock
    turn_time_limit: int | None = None
    timeout_action: TimeoutAction = TimeoutAction.draw_then_pass

    @classmethod
    def read(cls, profile: Profile, players: int, hooks: Plugins) -> Rules:
        """Every setting of `profile` read once, for `players`, with the game's
        plugins `hooks` (built by `resolve.rules_for`, which callers ask)."""
        p = profile
        teams = p.teams_at(players)
        return cls(
            profile=p,
            players=players,
            melds=meld_rules_for(p),
            teams=teams,
            hooks=hooks,
            decks=p.deck.decks,
            deck_jokers=p.deck.jokers,
            hand_size=p.hand_size(players),
            dealer_extra_card=p.deal.dealer_extra_card,
            upcard=p.deal.upcard,
            random_first_player=p.deal.first_player == FirstPlayer.random,
            rotate_first_player=p.deal.rotate,
            draw_from_discard=p.draw.from_discard,
            discard_draw_before_opening=p.draw.discard_before_opening,
            taken_discard_must_be_laid=p.draw.taken_discard_must_be_laid,
            empty_stock=p.draw.empty_stock,
            ends_with_discard=p.discard.enabled,
            keep_last=p.discard.keep_last,
            throw_back=p.discard.throw_back,
            has_opening=p.opening.required,
            opening=OpeningNeed(
                points=p.opening.points if p.opening.required else 0,
                pure_run=p.opening.pure_run and p.opening.required,
                run_and_set=p.opening.run_and_set and p.opening.required,
                jokers=p.opening.jokers or not p.opening.required,
                all_at_once=p.opening.all_at_once and p.opening.required,
                go_out_below_points=p.opening.go_out_below_points,
            ),
            partner_opening=p.teams.partner_opening,
            opening_points_going_out_needs_run=p.opening.go_out_run_without_taken_discard,
            may_lay_off=p.table.lay_off,
            may_rearrange=p.table.rearrange,
            new_melds_after_opening=p.table.new_melds,
            lay_in_opening_turn=p.table.in_opening_turn,
            positional_jokers=not p.table.rearrange,
            joker_swap=p.jokers.swap,
            swap_needs_opening=p.jokers.who == SwapWho.opened,
            set_swap_any=p.jokers.set_swap == SetSwap.any,
            freed_joker_same_turn=p.jokers.replay == JokerReplay.same_turn,
            joker_penalty=p.jokers.penalty,
            ace_points=p.scoring.ace_points,
            ace_low_points=p.scoring.ace_low_points,
            court_points=p.scoring.court_points,
            fixed_penalty=p.scoring.fixed_penalty if p.scoring.penalty == Penalty.fixed else None,
            rami_sec=p.scoring.rami_sec,
            rami_sec_bonus=p.scoring.rami_sec_bonus,
            positive_scores=p.scoring.positive,
            opponents_pay_only=p.teams.opponents_pay_only,
            game_end=p.game.end,
            target=p.target_for(players),
            target_outcome=p.game.target_outcome,
            rounds=p.game.rounds,
            end_on_empty_stock=p.game.end_on_empty_stock,
            turn_time_limit=p.turn.time_limit,
            timeout_action=p.turn.timeout,
        )

    # ------------------------------------------------------------ seats and sides

    @property
    def sides(self) -> int:
        """The number of sides that score: two teams in a partnership game, else one per seat."""
        return 2 if self.teams else self.players

    def side(self, seat: int) -> int:
        """The side `seat` scores for: its team (seats i and i+2 play together) or itself."""
        return seat % 2 if self.teams else seat

    def partners(self, seat: int) -> list[int]:
        """The seats playing with `seat` (none outside a team game): a partner's opening may open the team."""
        if not self.teams:
            return []
        return [s for s in range(self.players) if s != seat and s % 2 == seat % 2]

    # ------------------------------------------------------------ who may do what

    def partner_opened(self, s: GameState, seat: int) -> bool:
        """A seat that has not opened, whose partner has (team games)."""
        return not s.opened[seat] and any(s.opened[q] for q in self.partners(seat))

    def may_lay_freely(self, s: GameState, seat: int) -> bool:
        """Opened, or (in a team game where the partner's opening frees the other) covered by a partner."""
        if s.opened[seat]:
            return True
        return self.teams and self.partner_opening == PartnerOpening.free and self.partner_opened(s, seat)

    @property
    def empty_stock_ends_round(self) -> bool:
        """Drawing the last stock card ends the round when the turn ends (no reshuffle, no turn over)."""
        return self.empty_stock in (EmptyStock.end_all_pay, EmptyStock.end_nobody_pays, EmptyStock.replay)

    @property
    def lay_offs_ever(self) -> bool:
        """Cards are ever added to table melds (by lay off, or by rearranging)."""
        return self.may_lay_off or self.may_rearrange

    @property
    def has_discard_pile(self) -> bool:
        """The table has a discard pile at all: turns end with a discard, or a card is turned up."""
        return self.ends_with_discard or self.upcard

    @property
    def lays_all_at_once(self) -> bool:
        """A seat's melds all go down in the turn it goes out (Simple). The
        one reading of ``opening.all_at_once``: without an opening to judge
        (``opening.required: false``) it says nothing."""
        return self.opening.all_at_once

    @property
    def kept_going_out(self) -> int:
        """The cards a hand keeps when its last lay goes down: one to discard
        where the round ends with a discard (``discard.keep_last``), else none."""
        return 1 if self.keep_last else 0

    def may_add_to_table(self, s: GameState, seat: int) -> bool:
        """The seat may lay off (or rearrange) now, as far as opening goes."""
        if not self.lay_offs_ever or self.lays_all_at_once:
            return False
        if not self.may_lay_freely(s, seat):
            return False
        return not (s.opened_this_turn and not self.lay_in_opening_turn)

    def must_open(self, s: GameState, seat: int) -> bool:
        """The seat's next lay is judged as an opening (or, all at once, as going out)."""
        return not self.may_lay_freely(s, seat) or self.lays_all_at_once

    def opening_need(self, s: GameState, seat: int) -> OpeningNeed:
        """What this seat's first lay must contain now, the partner rule included:
        once a partner has opened, a joker-free run (pure_run partners) or any
        meld (free partners) opens."""
        if self.teams and self.partner_opened(s, seat):
            pure = self.partner_opening == PartnerOpening.pure_run
            return OpeningNeed(
                points=0,
                pure_run=pure,
                run_and_set=self.opening.run_and_set if self.lays_all_at_once else False,
                jokers=True,
                partner=True,
                all_at_once=self.opening.all_at_once,
                go_out_below_points=self.opening.go_out_below_points,
            )
        return self.opening

    @property
    def swaps_to_hand(self) -> bool:
        """A joker on the table may be won back into the hand with the card it stands for."""
        return self.joker_swap == JokerSwap.to_hand

    def could_join(self, meld: Reading, card: Card) -> bool:
        """`card` alone could be laid off on this table meld, as the engine
        would judge the lay off (jokers kept in place unless the table may be
        rearranged). House rules are not asked: this is about the meld."""
        if not might_join_reading(meld, card):
            return False
        if self.positional_jokers:
            nat, jok = ([], [(card, None)]) if card.is_joker else ([card], [])
            return not isinstance(lay_off_positional(meld, nat, jok, self.melds), str)
        return joins_meld(tuple(meld.cards), card, self.melds)

    # ------------------------------------------------------------ values

    def card_value(self, c: Card) -> int:
        """What a card left in hand costs (before plugins)."""
        return card_points(c, ace=self.ace_points, court=self.court_points, joker=self.joker_penalty)

    def hand_value(self, cards: list[Card]) -> int:
        """What `cards` left in a hand cost at the round's end: the profile's values, unless a plugin's rami_hand_cost says otherwise."""
        if self.hooks.has("rami_hand_cost"):
            d = self.hooks.decide("rami_hand_cost", rules=self, cards=list(cards))
            if d is not None:
                return int(d.value)
        return sum(self.card_value(c) for c in cards)

    def hand_payment(self, cards: list[Card]) -> int:
        """What a loser's hand pays before a rami sec doubles it or adds its
        bonus: the fixed penalty where the profile has one, else the hand's value."""
        if self.fixed_penalty is not None:
            return self.fixed_penalty
        return self.hand_value(cards)

    def meld_value(self, reading: Reading) -> int:
        """The points a laid meld counts toward an opening, each joker worth the card it stands for."""
        return meld_points(reading, **self.score_args)

    def throw_back_forbidden(self, state: Any, card: Card) -> bool:
        """Whether discarding `card` now would throw back the card taken from
        the discard pile this turn, where discard.throw_back is false. Asked by
        the engine; bots and the hint see the refusal through it."""
        taken = getattr(state, "taken_discard", None)
        return not self.throw_back and taken is not None and card.face == taken.face

    @property
    def score_args(self) -> dict[str, int]:
        """The card values `meld_points` (and the solver's openings) count with."""
        return {"ace": self.ace_points, "ace_low": self.ace_low_points, "court": self.court_points}

    def top_points(self, c: Card) -> int:
        """The most `c` can count for in an opening meld (a joker at the face it
        stands for, an ace high or low)."""
        if c.is_joker:
            return max(self.ace_points, self.ace_low_points, self.court_points, 10)
        if c.rank == 1:
            return max(self.ace_points, self.ace_low_points)
        if c.rank >= 11:
            return self.court_points
        return c.rank

    # ------------------------------------------------------------ the game's end

    def dealer(self, first_player: int) -> int:
        """The seat that dealt a round whose first player is `first_player`:
        where the dealer keeps a fourteenth card it also plays first; else the
        deal goes round and the seat after the dealer plays first (not in the
        sources, which name no dealer: common practice)."""
        if self.dealer_extra_card:
            return first_player
        return (first_player - 1) % self.players

    def game_loser(self, scores: list[int]) -> int | None:
        """The side that loses a finished game (None: no single one). Under
        `reacher_loses`, the side that reached the target (the highest of them
        if several did); with positive scores the lowest total; otherwise the
        highest."""
        pool = list(range(len(scores)))
        if self.positive_scores:
            worst = min(scores)
        else:
            if self.target_outcome == TargetOutcome.reacher_loses:
                pool = [i for i in pool if scores[i] >= self.target] or pool
            worst = max(scores[i] for i in pool)
        losers = [i for i in pool if scores[i] == worst]
        return losers[0] if len(losers) == 1 else None

    def game_winner(self, scores: list[int]) -> int | None:
        """The side that wins a finished game (None: a tie). With positive
        scores the highest total wins; otherwise the lowest, and under
        `reacher_loses` only among the sides that have not reached the
        target (all of them if every side has)."""
        if self.positive_scores:
            best = max(scores)
            leaders = [i for i, v in enumerate(scores) if v == best]
        else:
            pool = list(range(len(scores)))
            if self.target_outcome == TargetOutcome.reacher_loses:
                below = [i for i in pool if scores[i] < self.target]
                pool = below or pool
            best = min(scores[i] for i in pool)
            leaders = [i for i in pool if scores[i] == best]
        return leaders[0] if len(leaders) == 1 else None
