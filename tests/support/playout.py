"""Random playouts for the invariant tests: a seeded random bot that tries
every kind of action a profile allows, and a loop that plays whole rounds.

The bot is a test bot: it reads ``game.state`` directly (hands, table
readings) to propose actions with a useful hit rate, and it also proposes
actions that are wrong on purpose (wrong seat, wrong phase, cards not in
hand, invalid melds, bad swaps and rearrangements) so that refusals are
exercised too. Every attempt, accepted or refused, goes through an observer
callback, which is where the tests check their invariants.

Nothing here asserts: ``tests/test_playout.py`` and ``tests/test_refusals.py``
do.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import combinations

from rami_core.cards import JOKER, Card
from rami_core.cards.melds import AMBIGUOUS, RUN, SET, MeldRules, rank_at, read_meld
from rami_core.game import actions as A
from rami_core.game.actions import action_to_dict
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.profile.model import JokerSwap
from rami_core.referee.engine import Game
from rami_core.words.errors import ERROR_CODES, RuleError

TURN_CAP = (
    400  # turns per round before the playout gives the round up (a reshuffled stock can go on for ever)
)
LAY_STEPS_PER_TURN = 6  # accepted lay actions per turn before the bot only tries to end its turn

# Action kinds as counted in the reports.
KINDS = (
    "draw_stock",
    "draw_discard",
    "meld",
    "layoff",
    "swap",
    "rearrange",
    "discard",
    "end_turn",
    "timeout",
)


def kind_of(action: A.Action) -> str:
    return A.action_kind(action)


ALL_FACES = [Card(r, s, 0) for s in range(4) for r in range(1, 14)] + [JOKER]


# --------------------------------------------------------------------------- attempts


@dataclass(frozen=True)
class Attempt:
    """One action the bot proposes. `expect` is set for an action that is
    wrong on purpose: the error code it must be refused with (or a code
    listed before it in rami_core.words.errors.ERROR_CODES, which wins where several apply)."""

    action: A.Action
    expect: str | None = None
    note: str = ""

    @property
    def kind(self) -> str:
        return kind_of(self.action)


Observer = Callable[[Game, Attempt, "RuleError | None"], None]


@dataclass
class Tally:
    """What a playout did: attempts per kind and outcome, refusal codes, rounds."""

    accepted: Counter = field(default_factory=Counter)
    refused: Counter = field(default_factory=Counter)
    codes: Counter = field(default_factory=Counter)  # (kind, code) -> refusals
    noise: Counter = field(default_factory=Counter)  # deliberately wrong attempts, by note
    rounds: int = 0
    rounds_ended: int = 0
    turn_caps: int = 0
    turns: int = 0
    stuck: int = 0  # turns the bot could not end, even by a timeout (should stay 0)
    stuck_states: list = field(default_factory=list)  # the states where it was stuck (JSON)
    round_ends: Counter = field(default_factory=Counter)  # how rounds ended (out, empty_stock ...)

    def merge(self, other: Tally) -> None:
        self.accepted.update(other.accepted)
        self.refused.update(other.refused)
        self.codes.update(other.codes)
        self.noise.update(other.noise)
        self.round_ends.update(other.round_ends)
        self.rounds += other.rounds
        self.rounds_ended += other.rounds_ended
        self.turn_caps += other.turn_caps
        self.turns += other.turns
        self.stuck += other.stuck
        self.stuck_states.extend(other.stuck_states)


# --------------------------------------------------------------------------- meld search


def hand_melds(
    cards: Iterable[Card], meld_rules: MeldRules, *, jokers_ok: bool = True, limit_jokers: int = 2
) -> list[list[Card]]:
    """Runs and sets (as faces, runs in place order with jokers at their
    places) that the given cards can make, with and without jokers."""
    counts = Counter(c.face_card for c in cards)
    jokers = counts.pop(JOKER, 0) if jokers_ok else 0
    counts.pop(JOKER, None)
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    jokers = min(jokers, limit_jokers)
    out: list[list[Card]] = []
    # Runs: windows of places whose gaps the jokers can fill.
    for suit in range(4):
        places: set[int] = set()
        for f in counts:
            if f.suit == suit:
                places.update(p for p in meld_rules.places_of(f.rank) if p <= 14)
        if not places:
            continue
        for a in range(meld_rules.low_bound, meld_rules.high_bound + 1):
            missing = 0
            for b in range(a, meld_rules.high_bound + 1):
                if b not in places:
                    missing += 1
                    if missing > jokers:
                        break
                n = b - a + 1
                if n > 13:
                    break
                if n >= meld_rules.run_min and n - missing >= meld_rules.min_naturals and n - missing >= 1:
                    out.append([Card(rank_at(p), suit, 0) if p in places else JOKER for p in range(a, b + 1)])
    # Sets: distinct suits of one rank, jokers filling up to the size.
    by_rank: dict[int, set[int]] = {}
    for f in counts:
        by_rank.setdefault(f.rank, set()).add(f.suit)
    for r, suits in by_rank.items():
        suits_l = sorted(suits)
        for k in range(1, len(suits_l) + 1):
            for chosen in combinations(suits_l, k):
                nat = [Card(r, s, 0) for s in chosen]
                for size in range(max(meld_rules.set_min, k), meld_rules.set_max + 1):
                    j = size - k
                    if j > jokers or k < meld_rules.min_naturals:
                        continue
                    if meld_rules.set_distinct_suits and size > 4:
                        continue
                    out.append(nat + [JOKER] * j)
    return out


def fits(meld: list[Card], avail: Counter) -> bool:
    need = Counter(meld)
    return all(avail[f] >= k for f, k in need.items())


def take(meld: list[Card], avail: Counter) -> None:
    for f in meld:
        avail[f] -= 1


def covers(
    hand: list[Card], melds: list[list[Card]], leftover: int, limit: int = 400
) -> Iterator[list[list[Card]]]:
    """Ways to lay the whole hand but `leftover` cards (at most) as melds."""
    avail = Counter(c.face_card for c in hand)
    order = sorted(avail, key=lambda f: (f.is_joker, f.suit, f.rank))
    by_face: dict[Card, list[list[Card]]] = {}
    for m in melds:
        for f in set(m):
            by_face.setdefault(f, []).append(m)
    nodes = [0]

    def rec(chosen: list[list[Card]], left: int) -> Iterator[list[list[Card]]]:
        nodes[0] += 1
        if nodes[0] > limit:
            return
        first = next((f for f in order if avail[f] > 0), None)
        if first is None:
            yield list(chosen)
            return
        for m in by_face.get(first, ()):
            if fits(m, avail):
                take(m, avail)
                chosen.append(m)
                yield from rec(chosen, left)
                chosen.pop()
                for f in m:
                    avail[f] += 1
        if left > 0:
            avail[first] -= 1
            yield from rec(chosen, left - 1)
            avail[first] += 1

    yield from rec([], leftover)


# --------------------------------------------------------------------------- the bot


class RandomBot:
    """Proposes actions for the seat to play, most of them plausible, some
    wrong on purpose. Deterministic for a given `random.Random`."""

    def __init__(self, rng: random.Random, *, noise: float = 0.12, bad: float = 0.08):
        self.rng = rng
        self.noise = noise  # chance per step of one deliberately wrong attempt first
        self.bad = bad  # chance per lay step of a random, probably invalid, candidate

    # ------------------------------------------------------------ helpers

    def usefulness(self, card: Card, hand: list[Card]) -> int:
        if card.is_joker:
            return 100
        score = 0
        seen_same = False
        for o in hand:
            if o.is_joker:
                continue
            if o.face == card.face:
                if not seen_same:
                    seen_same = True  # the card itself
                continue
            if o.rank == card.rank and o.suit != card.suit:
                score += 3
            elif o.suit == card.suit:
                d = abs(o.rank - card.rank)
                if card.rank == 1 or o.rank == 1:
                    d = min(d, 14 - max(o.rank, card.rank))
                score += 3 if d == 1 else 2 if d == 2 else 0
        return score

    def discard_order(self, hand: list[Card]) -> list[Card]:
        faces = [c.face_card for c in hand]
        if self.rng.random() < 0.15:
            self.rng.shuffle(faces)
            return faces
        return sorted(faces, key=lambda c: (self.usefulness(c, hand), self.rng.random()))

    # ------------------------------------------------------------ noise

    def noise_attempt(self, game: Game) -> Attempt | None:
        s = game.state
        facts = game.rules
        seat = s.turn
        hand = s.hands[seat]
        other = self.rng.choice([q for q in range(s.players) if q != seat])
        held = {c.face_card for c in hand}
        absent = [f for f in ALL_FACES if f not in held and (f != JOKER or facts.deck_jokers)]
        choice = self.rng.randrange(4)
        if choice == 0:
            act: A.Action = self.rng.choice(
                [
                    A.Draw(other, "stock"),
                    A.EndTurn(other),
                    A.Meld(other, ((hand[0].face_card,),)) if hand else A.EndTurn(other),
                ]
            )
            return Attempt(act, "not_your_turn", "wrong_seat")
        if choice == 1:
            if s.phase == DRAW:
                acts: list[A.Action] = [A.EndTurn(seat), A.Rearrange(seat, ())]
                if hand:
                    acts.append(A.Discard(seat, hand[0].face_card))
                    acts.append(A.Meld(seat, ((hand[0].face_card,),)))
                return Attempt(self.rng.choice(acts), "wrong_phase", "wrong_phase")
            acts = [A.Draw(seat, "stock"), A.Draw(seat, "discard")]
            if facts.ends_with_discard:
                acts.append(A.EndTurn(seat))
            return Attempt(self.rng.choice(acts), "wrong_phase", "wrong_phase")
        if s.phase != LAY or not absent:
            return None
        ghost = self.rng.choice(absent)
        if choice == 2:
            acts = [A.Meld(seat, ((ghost, ghost, ghost),)), A.LayOff(seat, (A.LayOffItem(ghost, 0),))]
            if facts.ends_with_discard:
                acts.append(A.Discard(seat, ghost))
            if facts.swaps_to_hand:
                acts.append(A.Swap(seat, (ghost,), 0))
            return Attempt(self.rng.choice(acts), "card_not_in_hand", "not_in_hand")
        # A rearrangement that adds a card the seat does not hold.
        if facts.may_rearrange and s.table:
            melds = [tuple(c.face_card for c in m.cards) for m in s.table]
            i = self.rng.randrange(len(melds))
            melds[i] = melds[i] + (ghost,)
            return Attempt(A.Rearrange(seat, tuple(melds)), "card_not_in_hand", "not_in_hand")
        return None

    # ------------------------------------------------------------ draw phase

    def draw_attempts(self, game: Game) -> list[Attempt]:
        s = game.state
        seat = s.turn
        stock = Attempt(A.Draw(seat, "stock"))
        if not game.rules.draw_from_discard:
            return [stock, Attempt(A.Draw(seat, "discard"))] if self.rng.random() < 0.05 else [stock]
        disc = Attempt(A.Draw(seat, "discard"))
        take_it = False
        if s.discard:
            top = s.discard[-1]
            take_it = self.usefulness(top, s.hands[seat] + [top]) >= 3 and self.rng.random() < 0.7
        take_it = take_it or self.rng.random() < 0.15
        return [disc, stock] if take_it else [stock, disc]

    # ------------------------------------------------------------ lay phase

    def meld_attempts(self, game: Game) -> list[Attempt]:
        s = game.state
        facts = game.rules
        meld_rules = game.rules.melds
        seat = s.turn
        hand = s.hands[seat]
        out: list[Attempt] = []
        jokers_ok = facts.opening.jokers or s.opened[seat]
        melds = hand_melds(hand, meld_rules, jokers_ok=True)
        if not jokers_ok:
            clean = [m for m in melds if JOKER not in m]
        else:
            clean = melds
        leftover = 1 if facts.keep_last else (1 if facts.ends_with_discard else 0)
        # Going out (every profile; the only way to lay in an all-at-once profile).
        n = 0
        for cover in covers(hand, clean if not s.opened[seat] else melds, leftover):
            if leftover and len(hand) - sum(map(len, cover)) == 0 and facts.keep_last:
                continue
            out.append(Attempt(A.Meld(seat, tuple(tuple(m) for m in cover)), note="go_out"))
            n += 1
            if n >= 3:
                break
        if facts.opening.all_at_once:
            if self.rng.random() < 0.3 and melds:  # a partial lay, refused
                out.append(Attempt(A.Meld(seat, (tuple(self.rng.choice(melds)),)), note="partial"))
            return out
        if not melds:
            return out
        if s.opened[seat] or not facts.has_opening:
            self.rng.shuffle(melds)
            for m in melds[:3]:
                out.append(Attempt(A.Meld(seat, (tuple(m),))))
            return out
        # An opening: a packing of disjoint melds, the profile's needs first.
        for _ in range(2):
            pack = self.packing(game, clean)
            if pack:
                out.append(Attempt(A.Meld(seat, tuple(tuple(m) for m in pack)), note="opening"))
        return out

    def packing(self, game: Game, melds: list[list[Card]]) -> list[list[Card]]:
        s = game.state
        facts = game.rules
        meld_rules = game.rules.melds
        hand = s.hands[s.turn]
        avail = Counter(c.face_card for c in hand)
        scored = []
        for m in melds:
            r = read_meld(m, meld_rules)
            if r is None:
                continue
            scored.append((game.rules.meld_value(r) + self.rng.random() * 8, r.kind, r.pure, m))
        scored.sort(key=lambda t: -t[0])
        chosen: list[list[Card]] = []
        needs = []
        if facts.opening.pure_run:
            needs.append(lambda t: t[2])
        if facts.opening.run_and_set:
            needs.append(lambda t: t[1] == RUN)
            needs.append(lambda t: t[1] == SET)
        for need in needs:
            for t in scored:
                if need(t) and fits(t[3], avail):
                    take(t[3], avail)
                    chosen.append(t[3])
                    break
        for t in scored:
            if fits(t[3], avail):
                take(t[3], avail)
                chosen.append(t[3])
        if facts.keep_last and chosen and sum(map(len, chosen)) >= len(hand):
            chosen.pop()
        return chosen

    def layoff_attempts(self, game: Game) -> list[Attempt]:
        s = game.state
        seat = s.turn
        hand = s.hands[seat]
        out: list[Attempt] = []
        if not s.table or not hand:
            return out
        meld_rules = game.rules.melds
        for c in hand:
            f = c.face_card
            for i, m in enumerate(s.table):
                r = m.reading
                if f == JOKER:
                    if r.kind == RUN:
                        ends = [
                            p
                            for p in (r.start - 1, r.end + 1)
                            if meld_rules.low_bound <= p <= meld_rules.high_bound
                        ]
                        for p in ends:
                            out.append(
                                Attempt(
                                    A.LayOff(seat, (A.LayOffItem(f, i, Card(rank_at(p), r.suit, 0)),)),
                                    note="joker_as",
                                )
                            )
                        out.append(Attempt(A.LayOff(seat, (A.LayOffItem(f, i),)), note="joker"))
                    elif len(r.cards) < meld_rules.set_max:
                        out.append(Attempt(A.LayOff(seat, (A.LayOffItem(f, i),)), note="joker"))
                    continue
                if r.kind == RUN:
                    if f.suit != r.suit:
                        continue
                    if any(p in (r.start - 1, r.end + 1) for p in meld_rules.places_of(f.rank)):
                        out.append(Attempt(A.LayOff(seat, (A.LayOffItem(f, i),))))
                elif f.rank == r.rank and len(r.cards) < meld_rules.set_max:
                    out.append(Attempt(A.LayOff(seat, (A.LayOffItem(f, i),))))
        self.rng.shuffle(out)
        out = out[:6]
        # Two cards at once onto a run end, or a random (probably invalid) one.
        if len(hand) > 2 and self.rng.random() < self.bad:
            c = self.rng.choice(hand).face_card
            i = self.rng.randrange(len(s.table))
            as_ = self.rng.choice(ALL_FACES[:-1]) if c == JOKER and self.rng.random() < 0.5 else None
            out.append(Attempt(A.LayOff(seat, (A.LayOffItem(c, i, as_),)), note="random"))
        if self.rng.random() < 0.02:
            out.append(
                Attempt(
                    A.LayOff(seat, (A.LayOffItem(hand[0].face_card, len(s.table) + 1),)),
                    "no_such_meld",
                    "bad_index",
                )
            )
        return out

    def swap_attempts(self, game: Game) -> list[Attempt]:
        s = game.state
        seat = s.turn
        hand = s.hands[seat]
        held = Counter(c.face_card for c in hand)
        out: list[Attempt] = []
        for i, m in enumerate(s.table):
            r = m.reading
            if not r.jokers:
                continue
            for c, st in zip(r.cards, r.stands):
                if not c.is_joker:
                    continue
                if st[1] != AMBIGUOUS and held[Card(st[0], st[1], 0)]:
                    out.append(Attempt(A.Swap(seat, (Card(st[0], st[1], 0),), i)))
            if r.kind == SET and len(r.cards) == 3 and r.jokers == 1:
                nat_suits = {c.suit for c in r.cards if not c.is_joker}
                missing = [Card(r.rank, su, 0) for su in range(4) if su not in nat_suits]
                if all(held[f] for f in missing):
                    out.append(Attempt(A.Swap(seat, tuple(missing), i), note="two_cards"))
                elif any(held[f] for f in missing) and self.rng.random() < 0.3:
                    f = next(f for f in missing if held[f])
                    out.append(Attempt(A.Swap(seat, (f,), i), note="one_for_set"))
        if s.table and hand and self.rng.random() < self.bad:
            out.append(
                Attempt(
                    A.Swap(seat, (self.rng.choice(hand).face_card,), self.rng.randrange(len(s.table))),
                    note="random",
                )
            )
        return out

    def rearrange_attempts(self, game: Game) -> list[Attempt]:
        s = game.state
        seat = s.turn
        hand = s.hands[seat]
        meld_rules = game.rules.melds
        out: list[Attempt] = []
        if not s.table or not hand:
            return out
        table = [[c.face_card for c in m.cards] for m in s.table]
        faces = [c.face_card for c in hand]
        rng = self.rng

        def emit(new: list[list[Card]], note: str) -> None:
            out.append(Attempt(A.Rearrange(seat, tuple(tuple(m) for m in new)), note=note))

        # Add a hand card to a meld that stays valid (a likely fit first).
        order = list(range(len(table)))
        rng.shuffle(order)
        found = 0
        for i in order:
            r = s.table[i].reading
            if r.kind == RUN:
                fit = [
                    f
                    for f in faces
                    if f == JOKER
                    or (
                        f.suit == r.suit
                        and any(p in (r.start - 1, r.end + 1) for p in meld_rules.places_of(f.rank))
                    )
                ]
            else:
                fit = [f for f in faces if f == JOKER or f.rank == r.rank]
            if not fit:
                continue
            f = rng.choice(fit)
            cand = table[i] + [f]
            if read_meld(cand, meld_rules) is not None:
                emit(table[:i] + [cand] + table[i + 1 :], "add")
                found += 1
                if found >= 2:
                    break
        # Split a run by its duplicate: 3-4-5-6-7 + 5 = 3-4-5 and 5-6-7.
        for i in order:
            m = s.table[i].reading
            if m.kind != RUN or len(m.cards) < 5:
                continue
            for k in range(2, len(m.cards) - 2):
                dup = m.cards[k]
                if dup.is_joker or dup.face_card not in faces:
                    continue
                left, right = table[i][: k + 1], [dup.face_card] + table[i][k + 1 :]
                if read_meld(left, meld_rules) and read_meld(right, meld_rules):
                    emit(table[:i] + [left, right] + table[i + 1 :], "split")
                    break
        # Take a card the table can spare (the 4th card of a carré, a run's
        # end, a joker that is not needed) and build a new meld with hand cards.
        spares: list[tuple[int, int]] = []
        for i, m in enumerate(table):
            if len(m) < 4 and JOKER not in m:
                continue
            kind = s.table[i].reading.kind
            for k in range(len(m)):
                if kind == RUN and 0 < k < len(m) - 1 and m[k] != JOKER:
                    continue
                spares.append((i, k))
        rng.shuffle(spares)
        tried = 0
        for i, k in spares:
            if tried >= 3:
                break
            donor = table[i][k]
            rest = table[i][:k] + table[i][k + 1 :]
            if len(rest) < 3 or read_meld(rest, meld_rules) is None:
                continue
            tried += 1
            if donor == JOKER:
                near = faces
            else:
                near = [
                    f
                    for f in faces
                    if f == JOKER
                    or f.rank == donor.rank
                    or (f.suit == donor.suit and abs(f.rank - donor.rank) <= 2)
                ]
            news = [
                m
                for m in hand_melds(near + [donor], meld_rules, limit_jokers=1)
                if donor in m and m.count(donor) <= near.count(donor) + 1
            ]
            if news:
                emit(table[:i] + [rest] + table[i + 1 :] + [rng.choice(news)], "take")
                break
        # Melds from the hand laid by rearranging (a meld action in disguise).
        if rng.random() < 0.2:
            hm = hand_melds(hand, meld_rules)
            if hm:
                emit(table + [rng.choice(hm)], "new_meld")
        # Bad ones: a table card lost, nonsense, nothing from the hand.
        if rng.random() < self.bad * 2:
            what = rng.randrange(3)
            if what == 0:
                i = rng.randrange(len(table))
                emit(table[:i] + [table[i][:-1] + [faces[0]]] + table[i + 1 :], "lose")
            elif what == 1:
                flat = [c for m in table for c in m] + [faces[0]]
                rng.shuffle(flat)
                emit([flat[j : j + 3] for j in range(0, len(flat), 3)], "nonsense")
            else:
                new = list(table)
                rng.shuffle(new)
                out.append(Attempt(A.Rearrange(seat, tuple(tuple(m) for m in new)), note="nothing_added"))
        return out

    # ------------------------------------------------------------ end of turn

    def end_attempts(self, game: Game, everything: bool = False) -> list[Attempt]:
        s = game.state
        seat = s.turn
        if not game.rules.ends_with_discard:
            return [Attempt(A.EndTurn(seat))]
        order = list(dict.fromkeys(self.discard_order(s.hands[seat])))
        return [Attempt(A.Discard(seat, f)) for f in (order if everything else order[:4])]

    def replay_attempts(self, game: Game) -> list[Attempt]:
        """A swapped joker that must go back on the table: every lay off of it."""
        s = game.state
        seat = s.turn
        out = []
        for i in range(len(s.table)):
            out.append(Attempt(A.LayOff(seat, (A.LayOffItem(JOKER, i),)), note="replay"))
        hand = s.hands[seat]
        for m in hand_melds(hand, game.rules.melds, limit_jokers=1):
            if JOKER in m:
                out.append(Attempt(A.Meld(seat, (tuple(m),)), note="replay"))
        return out

    def attempts(self, game: Game, lay_steps: int, force: bool = False) -> Iterator[Attempt]:
        """Candidates for one step, in the order to try them. `force`: an
        earlier pass found nothing to accept, so try every lay and every
        discard."""
        s = game.state
        if self.rng.random() < self.noise:
            a = self.noise_attempt(game)
            if a is not None:
                yield a
        if s.phase == DRAW:
            yield from self.draw_attempts(game)
            return
        facts = game.rules
        if s.jokers_to_replay:
            yield from self.replay_attempts(game)
        if force or (lay_steps < LAY_STEPS_PER_TURN and self.rng.random() < 0.9):
            makers = [self.meld_attempts]
            if facts.may_lay_off or facts.may_rearrange or facts.opening.all_at_once:
                makers.append(self.layoff_attempts)
            if facts.joker_swap != JokerSwap.never:
                makers.append(self.swap_attempts)
            if facts.may_rearrange or self.rng.random() < 0.02:
                makers.append(self.rearrange_attempts)
            # Going out first; then the kinds in random order.
            first, rest = makers[0], makers[1:]
            self.rng.shuffle(rest)
            for mk in [first] + rest:
                yield from mk(game)
        yield from self.end_attempts(game, everything=force)


# --------------------------------------------------------------------------- the loop


class EngineCrash(AssertionError):
    """The engine raised something other than a RuleError."""


PASSES = 4  # passes over the bot's candidates before the clock is made to run out


def step(
    game: Game, bot: RandomBot, lay_steps: int, tally: Tally | None = None, observe: Observer | None = None
) -> Attempt | None:
    """One step of the seat to play: try candidates until one is accepted
    (several passes, the later ones trying everything); if none is, a
    timeout. Returns the accepted attempt, or None if even the timeout was
    refused (the bot is stuck)."""

    def attempt(att: Attempt) -> bool:
        err = None
        before = game.state
        try:
            game.apply(att.action)
        except RuleError as e:
            err = e
        except Exception as e:  # an engine crash: say where, so it can be replayed
            raise EngineCrash(
                f"{type(e).__name__}: {e}\n  action={action_to_dict(att.action)}\n  game seed={before.seed} "
                f"round={before.round_no}\n  state={before.to_json()}"
            ) from e
        if tally is not None:
            k = att.kind
            if err is None:
                tally.accepted[k] += 1
            else:
                tally.refused[k] += 1
                tally.codes[(k, err.code)] += 1
            if att.expect is not None:
                tally.noise[att.note] += 1
        if observe is not None:
            observe(game, att, err)
        return err is None

    for n in range(PASSES):
        for att in bot.attempts(game, lay_steps, force=n > 0):
            if attempt(att):
                return att
    # Nothing ends the turn (every card may be laid off but must not be
    # discarded, a joker that cannot be replayed): the clock runs out.
    att = Attempt(A.Timeout(game.state.turn))
    return att if attempt(att) else None


def play_round(
    game: Game, bot: RandomBot, tally: Tally, observe: Observer | None = None, turn_cap: int = TURN_CAP
) -> bool:
    """Play the current round to its end, or to `turn_cap` turns. Returns
    True when the round ended."""
    tally.rounds += 1
    turns = 0
    lay_steps = 0
    while game.state.phase != OVER:
        if turns >= turn_cap:
            tally.turn_caps += 1
            return False
        s = game.state
        seat, round_no = s.turn, s.round_no
        accepted = step(game, bot, lay_steps, tally, observe)
        if accepted is None:
            tally.stuck += 1
            tally.stuck_states.append(game.state.to_json())
            return False
        if accepted.kind in ("meld", "layoff", "swap", "rearrange"):
            lay_steps += 1
        s = game.state
        if s.phase == OVER or s.turn != seat or s.round_no != round_no:
            turns += 1
            tally.turns += 1
            lay_steps = 0
    tally.rounds_ended += 1
    tally.round_ends[game.state.round_end] += 1
    return True


def playout(
    profile,
    players: int,
    rounds: int,
    seed: int,
    observe: Observer | None = None,
    turn_cap: int = TURN_CAP,
    on_new_game: Callable[[Game], None] | None = None,
) -> Tally:
    """Play `rounds` rounds at this table: a game goes on by `next_round`
    until it is over (or a round hits the turn cap), then a new game is dealt
    with the next seed."""
    tally = Tally()
    rng = random.Random(f"playout:{profile.name}:{players}:{seed}")
    bot = RandomBot(rng)
    game_no = 0
    game: Game | None = None
    for _ in range(rounds):
        if game is None or game.state.phase != OVER or game.state.game_over:
            game = Game.new(profile, players, seed=seed * 100_003 + game_no)
            game_no += 1
            if on_new_game is not None:
                on_new_game(game)
        else:
            game.next_round()
            if on_new_game is not None:
                on_new_game(game)
        play_round(game, bot, tally, observe, turn_cap)
    return tally


def play_prefix(game: Game, rng: random.Random, steps: int) -> None:
    """Play `steps` bot steps without checks: a random reachable state for
    the refusal tests."""
    bot = RandomBot(rng)
    lay_steps = 0
    for _ in range(steps):
        s = game.state
        if s.phase == OVER:
            return
        seat = s.turn
        att = step(game, bot, lay_steps)
        if att is None:
            return
        lay_steps = lay_steps + 1 if att.kind in ("meld", "layoff", "swap", "rearrange") else lay_steps
        if game.state.turn != seat:
            lay_steps = 0


__all__ = [
    "ALL_FACES",
    "ERROR_CODES",
    "KINDS",
    "TURN_CAP",
    "Attempt",
    "RandomBot",
    "Tally",
    "covers",
    "hand_melds",
    "kind_of",
    "play_prefix",
    "play_round",
    "playout",
]
