"""Proving a puzzle: every claim it carries, measured from the position alone.

:func:`prove` takes a position and a goal and returns the :class:`Proof`:

* the solver's certificate (:func:`rami_core.solver.whole_table` proves the most
  hand cards, or points, a rearrangement lays; the goal must be within it);
* every final table reaching the goal (:mod:`.arrange`), hence the count of
  solutions, the fewest card moves and melds broken, and the witness (the
  closest solution), which the referee itself plays (a ``Rearrange`` applied
  by :class:`rami_core.referee.engine.Game` to the position);
* no shortcut: no final table that keeps every meld as it lies (lay offs and
  new melds only, zero moves) reaches the goal; :func:`best_lay_offs` proves
  the same by its own search where the goal counts cards;
* every hand card needed (goal ``all``): without any one of them, the
  position is not a puzzle of the same depth (unsolvable, solvable without a
  rearrangement, or by fewer moves);
* the bots: whether the greedy and the expert bot, playing the seat, reach
  the goal in the turn;
* the solver's effort: the smallest budget of a doubling ladder of search
  states under which it finds the goal.

:func:`check` proves a stored puzzle again and compares: the claims that are
facts of the position (witness, optimum, no shortcut, solutions, moves,
broken, every card needed) must be equal; the bots and the effort depend on
the bots' and the solver's search, which may change between versions, and
are reported when they differ, not refused (docs/puzzles.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product

from rami_core.cards import Card, build_deck
from rami_core.cards.melds import read_meld, why_invalid
from rami_core.game import actions as A
from rami_core.profile.loader import load_profile
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.puzzles.arrange import DEFAULT_CAP, Arranger, Face, FaceMeld, Table, faces, moves_and_broken
from rami_core.puzzles.format import Bots, Goal, Proof, Puzzle, PuzzleError, cards_text, meld_text
from rami_core.referee.position import build_setup
from rami_core.solver import best_lay_offs, solve
from rami_core.words.errors import Located, ProfileError, RuleError
from rami_core.words.problems import Said

EFFORT_LADDER = tuple(250 * 2**k for k in range(12))  # 250 .. 512,000 search states
BOT_ACTIONS = 12  # a bot's turn is a few actions; more is a loop


_RULES: dict[str, tuple[Profile, Rules]] = {}


def _rules_of(variant: str) -> tuple[Profile, Rules]:
    """The profile and rules of a variant, read once per process."""
    if variant not in _RULES:
        try:
            profile = load_profile(variant)
        except ProfileError as exc:  # an unknown name, a broken file: its first problem, located
            first = Located(ProfileError(exc.problems[:1]))
            raise PuzzleError(Said("puzzle_variant", variant=repr(variant), detail=first)) from None
        _RULES[variant] = (profile, rules_for(profile, profile.player_counts()[0]))
    return _RULES[variant]


def puzzle_rules(variant: str) -> tuple[Profile, Rules]:
    """The profile and rules of a variant puzzles can be set in (one that
    rearranges the table), or the located refusal, before anything is written."""
    profile, rules = _rules_of(variant)
    if not rules.may_rearrange:
        raise PuzzleError(Said("puzzle_variant_no_rearranging", variant=repr(variant)))
    return profile, rules


@dataclass
class Position:
    """A puzzle's position resolved under its profile: physical cards (copies
    numbered table first), the rules, the goal."""

    profile: Profile
    rules: Rules
    table: list[list[Card]]
    hand: list[Card]
    goal: Goal
    variant: str = "voleur"

    @classmethod
    def of(cls, variant: str, table: Sequence[Sequence[Card]], hand: Sequence[Card], goal: Goal) -> Position:
        profile, rules = puzzle_rules(variant)
        seen: Counter = Counter()

        def physical(c: Card, where: Said) -> Card:
            limit = rules.deck_jokers if c.is_joker else rules.decks
            if seen[c.face] >= limit:
                raise PuzzleError(Said("puzzle_copies", where=where, card=meld_text([c]), limit=limit))
            out = Card(c.rank, c.suit, seen[c.face])
            seen[c.face] += 1
            return out

        melds = []
        for i, m in enumerate(table, 1):
            where = Said("puzzle_where_table_meld", n=i)
            cards = [physical(c, where) for c in m]
            if read_meld(cards, rules.melds) is None:
                reason = why_invalid(cards, rules.melds)
                raise PuzzleError(Said("puzzle_meld_invalid", where=where, cards=meld_text(m), reason=reason))
            melds.append(cards)
        held = [physical(c, Said("puzzle_where_hand")) for c in hand]
        if not held:
            raise PuzzleError(Said("puzzle_hand_empty"))
        if goal.kind == "cards" and (goal.count or 0) > len(held):
            raise PuzzleError(Said("puzzle_goal_too_many", count=goal.count, held=len(held)))
        return cls(profile, rules, melds, held, goal, variant)

    @classmethod
    def of_puzzle(cls, pz: Puzzle) -> Position:
        return cls.of(pz.variant, pz.table_cards(), pz.hand_cards(), pz.goal)

    # ---- the goal

    def value(self, c: Card) -> int:
        return self.rules.card_value(c)

    def reaches(self, laid: Sequence[Card]) -> bool:
        """Whether laying these hand cards meets the goal."""
        if self.goal.kind == "all":
            return len(laid) == len(self.hand)
        if self.goal.kind == "cards":
            return len(laid) >= (self.goal.count or 0)
        return sum(self.value(c) for c in laid) >= (self.goal.points or 0)

    def measure(self, laid: Sequence[Card]) -> int:
        """The goal's measure of a lay: points for a points goal, else cards."""
        return sum(self.value(c) for c in laid) if self.goal.kind == "points" else len(laid)

    def hand_faces(self) -> list[Card]:
        return [Card(c.rank, c.suit, 0) for c in self.hand]

    def start(self) -> list[FaceMeld]:
        return [tuple(sorted(faces(m))) for m in self.table]


@dataclass
class Search:
    """Every final table reaching the goal and what they say."""

    solutions: list[Table]
    capped: bool
    moves: int = 0
    broken: int = 0
    witness: Table = ()
    shortcut: Table | None = None  # a solution with no move at all
    per_solution: dict[Table, tuple[int, int]] = field(default_factory=dict)


def _sub_hands(pos: Position) -> list[list[Face]]:
    """The sub-multisets of the hand that meet the goal (the whole hand for ``all``)."""
    hand = faces(pos.hand)
    if pos.goal.kind == "all":
        return [hand]
    counts = Counter(hand)
    keys = sorted(counts)
    out = []
    for pick in product(*(range(counts[k] + 1) for k in keys)):
        sub = [k for k, n in zip(keys, pick) for _ in range(n)]
        cards = [Card(f[0], f[1], 0) for f in sub]
        if pos.reaches(cards):
            out.append(sub)
    return out


def search(pos: Position, cap: int = DEFAULT_CAP, arranger: Arranger | None = None) -> Search:
    """Every final table reaching the goal (up to ``cap``), the closest first."""
    arr = arranger or Arranger(pos.rules.melds, cap=cap)
    table = [f for m in pos.table for f in faces(m)]
    found: set[Table] = set()
    for sub in _sub_hands(pos):
        found |= arr.partitions(table + sub)
        if len(found) >= cap:
            break
    start = pos.start()
    scored = {t: moves_and_broken(start, t) for t in found}
    sols = sorted(found, key=lambda t: (*scored[t], t))
    out = Search(sols, arr.capped, per_solution=scored)
    if sols:
        out.witness = sols[0]
        out.moves = min(m for m, _ in scored.values())
        out.broken = min(b for _, b in scored.values())
        zero = [t for t in sols if scored[t][0] == 0]
        out.shortcut = zero[0] if zero else None
    return out


def every_card_needed(pos: Position, found: Search, arranger: Arranger | None = None) -> bool:
    """Goal ``all``: no hand card can go with the rest still a puzzle of the same depth."""
    if pos.goal.kind != "all":
        return True
    for c in dict.fromkeys(pos.hand_faces()):
        rest = list(pos.hand)
        rest.remove(next(x for x in rest if x.face == c.face))
        if not rest:
            continue
        sub = Position(pos.profile, pos.rules, pos.table, rest, pos.goal, pos.variant)
        s = search(sub, arranger=arranger)
        if s.solutions and s.shortcut is None and s.moves >= found.moves:
            return False
    return True


def game_of(pos: Position):
    """The position as a game the referee runs: seat 0 to lay, both seats
    opened, the other seat and the stock holding cards the puzzle does not use."""
    used = Counter(c.face for m in pos.table for c in m) + Counter(c.face for c in pos.hand)
    spare = []
    for c in build_deck(pos.rules.decks, pos.rules.deck_jokers):
        if used[c.face] > 0:
            used[c.face] -= 1
            continue
        spare.append(c)
    players = pos.rules.players
    setup = {
        "hands": [[meld_text([c]) for c in pos.hand]]
        + [[meld_text([c]) for c in spare[5 * i : 5 * i + 5]] for i in range(players - 1)],
        "table": [[meld_text([c]) for c in m] for m in pos.table],
        "stock": [meld_text([c]) for c in spare[5 * (players - 1) : 5 * (players - 1) + 10]],
        "opened": [True] * players,
        "phase": "lay",
    }
    return build_setup(pos.profile, setup)


def referee_plays(pos: Position, witness: Sequence[Sequence[Card]]) -> Said | None:
    """The referee plays the witness as one rearrangement; None when it is
    accepted and reaches the goal, else what went wrong."""
    game = game_of(pos)
    before = list(game.state.hands[0])
    try:
        game.apply(A.Rearrange(0, tuple(tuple(Card(c.rank, c.suit, 0) for c in m) for m in witness)))
    except RuleError as exc:
        return Said("puzzle_witness_refused", refusal=exc.said)
    after = Counter(c.face for c in game.state.hands[0])
    laid = []
    for c in before:
        if after[c.face] > 0:
            after[c.face] -= 1
        else:
            laid.append(c)
    if not pos.reaches(laid):
        return Said("puzzle_witness_short")
    return None


def bot_reaches(pos: Position, name: str) -> bool:
    """Whether the bot, playing seat 0's turn, lays what the goal asks."""
    from rami_core.players.bots import make_bot

    game = game_of(pos)
    bot = make_bot(name, 0)
    start = len(game.state.hands[0])
    for _ in range(BOT_ACTIONS):
        s = game.state
        if s.turn != 0 or s.phase != "lay" or s.round_over:
            break
        action = bot.choose(game.view(0), game.rules)
        if isinstance(action, (A.EndTurn, A.Discard)):
            break
        try:
            game.apply(action)
        except RuleError:
            return False
    left = game.state.hands[0] if game.state.hands else []
    laid_n = start - len(left)
    if pos.goal.kind == "points":
        left_faces = Counter(c.face for c in left)
        laid = []
        for c in pos.hand:
            if left_faces[c.face] > 0:
                left_faces[c.face] -= 1
            else:
                laid.append(c)
        return pos.reaches(laid)
    return laid_n >= (len(pos.hand) if pos.goal.kind == "all" else (pos.goal.count or 0))


def solver_best(pos: Position, max_states: int | None = None):
    objective = "points" if pos.goal.kind == "points" else "cards"
    return solve(
        pos.table, pos.hand, pos.rules.melds, objective=objective, points=pos.value, max_states=max_states
    )


def solver_effort(pos: Position) -> int:
    """The smallest budget of :data:`EFFORT_LADDER` under which the solver finds the goal."""
    for budget in EFFORT_LADDER:
        sol = solver_best(pos, budget)
        if sol.feasible and pos.reaches(sol.laid):
            return budget
    return EFFORT_LADDER[-1] * 2


@dataclass
class Proved:
    """A proof and the facts behind it."""

    proof: Proof
    found: Search
    needed: bool


def prove(pos: Position, *, cap: int = DEFAULT_CAP) -> Proved:
    """Every claim of the position, or a PuzzleError saying which one fails.
    ``cap``: the most solutions counted (more: ``solutions_capped``)."""
    sol = solver_best(pos)
    if not sol.optimal:
        raise PuzzleError(Said("puzzle_not_proven"))
    if not pos.reaches(sol.laid):
        raise PuzzleError(Said("puzzle_out_of_reach", best=pos.measure(sol.laid)))
    readings = [read_meld(m, pos.rules.melds) for m in pos.table]
    plan = best_lay_offs(readings, pos.hand, pos.rules.melds)  # type: ignore[arg-type]
    if pos.goal.kind != "points" and pos.reaches(plan.laid):
        raise PuzzleError(Said("puzzle_no_rearrangement"))
    arranger = Arranger(pos.rules.melds, cap=cap)
    found = search(pos, arranger=arranger)
    if not found.solutions:
        raise PuzzleError(Said("puzzle_enumeration"))
    if found.shortcut is not None:
        raise PuzzleError(Said("puzzle_no_rearrangement"))
    witness = [list(_cards_of(m)) for m in found.witness]
    problem = referee_plays(pos, witness)
    if problem:
        raise PuzzleError(problem)
    needed = every_card_needed(pos, found, arranger)
    proof = Proof(
        witness=[cards_text(_cards_of(m)) for m in found.witness],
        solver_optimum=pos.measure(sol.laid),
        lay_offs_best=len(plan.laid),
        solutions=len(found.solutions),
        solutions_capped=found.capped,
        min_moves=found.moves,
        min_broken=found.broken,
        every_card_needed=needed,
        bots=Bots(greedy=bot_reaches(pos, "greedy"), expert=bot_reaches(pos, "expert")),
        solver_effort=solver_effort(pos),
    )
    return Proved(proof, found, needed)


def _cards_of(meld: FaceMeld) -> list[Card]:
    return [Card(f[0], f[1], 0) for f in meld]


FACTS = (
    "solver_optimum",
    "lay_offs_best",
    "solutions",
    "solutions_capped",
    "min_moves",
    "min_broken",
    "every_card_needed",
)


def check(pz: Puzzle) -> tuple[list[Said], list[Said]]:
    """Prove a stored puzzle again: (problems, notes). A problem is a claim
    that does not hold; a note, a measure of the bots or the solver's effort
    that differs from the one recorded (their searches may change). Each is
    a problem of the catalogue (rami_core.words.problems), worded in any language."""
    from rami_core.puzzles.grade import grade

    problems: list[Said] = []
    notes: list[Said] = []
    try:
        pos = Position.of_puzzle(pz)
        witness_problem = referee_plays(pos, pz.witness_cards())
        if witness_problem:
            problems.append(witness_problem)
        got = prove(pos)
    except PuzzleError as exc:
        return problems + [exc.said], notes
    new, old = got.proof, pz.proof
    for name in FACTS:
        if getattr(new, name) != getattr(old, name):
            problems.append(
                Said("puzzle_claim_differs", name=name, claimed=getattr(old, name), proved=getattr(new, name))
            )
    if table_of(pz.witness_cards()) not in set(got.found.solutions):
        problems.append(Said("puzzle_witness_not_solution"))
    elif got.found.per_solution[table_of(pz.witness_cards())][0] != new.min_moves:
        problems.append(Said("puzzle_witness_not_closest"))
    for name in ("greedy", "expert"):
        if getattr(new.bots, name) != getattr(old.bots, name):
            recorded, now = getattr(old.bots, name), getattr(new.bots, name)
            notes.append(Said("puzzle_bot_differs", name=name, recorded=recorded, now=now))
    if new.solver_effort != old.solver_effort:
        notes.append(Said("puzzle_effort_differs", recorded=old.solver_effort, now=new.solver_effort))
    if grade(old) != pz.difficulty:
        problems.append(Said("puzzle_grade_differs", difficulty=pz.difficulty, grade=grade(old)))
    return problems, notes


def table_of(melds: Sequence[Sequence[Card]]) -> Table:
    return tuple(sorted(tuple(sorted(faces(m))) for m in melds))
