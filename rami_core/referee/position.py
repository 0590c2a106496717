"""A position built from a setup, and a game observed, as the scenario format writes them.

The conformance runner (`rami_core.conformance`), `rami diff`'s situations
and the puzzles' proofs all start a game from a table named card by card, and
read a game back through the same keys: one builder, below the front ends
that share it. A setup that the game's deck could not deal, or that names
something the rules do not have, is refused with a located `SetupInvalid`.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeGuard

from rami_core.cards import Card, CardError, format_card, parse_card
from rami_core.cards.melds import read_meld, why_invalid
from rami_core.files.userfiles import short
from rami_core.game.events import round_dealt
from rami_core.game.state import DRAW, LAY, OVER, GameState, TableMeld
from rami_core.profile.hookspecs import hookimpl
from rami_core.profile.model import Profile
from rami_core.profile.resolve import rules_for
from rami_core.profile.rules import Rules
from rami_core.referee.caps import TURN_CAP, round_capped, turns_in_round
from rami_core.referee.engine import Game, deal
from rami_core.referee.scoring import EMPTY_ALL_PAY, EMPTY_NOBODY, OUT, REPLAY
from rami_core.referee.seeds import rng_for
from rami_core.words.problems import Said, said
from rami_core.words.refusals import refusal_as_written

SETUP_KEYS = (
    "hands",
    "stock",
    "discard",
    "table",
    "opened",
    "turn",
    "phase",
    "scores",
    "round",
    "first_player",
    "reshuffle",
)


# A seeded start deals from the scenario's `seed`: only these may be set.
SEEDED_SETUP_KEYS = ("seed", "players", "scores", "round", "first_player", "reshuffle")


# How a round ended, as `expect.round_end` names it (the state's own words on the right).
ROUND_ENDS = {
    OUT: "out",
    EMPTY_ALL_PAY: "empty_stock_all_pay",
    EMPTY_NOBODY: "empty_stock_none_pay",
    REPLAY: "replayed",
}


CAPPED = "capped"  # the round reached the scenario's turn cap without ending


def unknown_key(keys: Iterable[Any], known: Iterable[str], where: str | Said) -> Said | None:
    """The message for the first unknown key, with the nearest known one suggested."""
    known = list(known)
    for key in keys:
        if key not in known:
            near = difflib.get_close_matches(str(key), known, n=1, cutoff=0.6)
            if near:
                return Said("scenario_unknown_key_near", where=where, key=short(key), near=near[0])
            return Said("scenario_unknown_key_known", where=where, key=short(key), known=", ".join(known))
    return None


class SetupInvalid(Exception):
    """A setup that breaks the closed world; its argument is a :class:`Said`."""

    @property
    def said(self) -> Said:
        return said(self.args[0]) if self.args else Said("text", text="")


class _Reason:
    """A refusal catalogue's reason (why a meld is invalid) as a problem's parameter."""

    def __init__(self, reason: Any):
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)

    def words(self, lang: str) -> str:
        r = self.reason
        return refusal_as_written("invalid_meld", r.key, r.params, lang, str(r))

    def to_json(self) -> Any:
        return self.reason.to_json()


def is_int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def card_list(value: Any, where: str) -> list[Card]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise SetupInvalid(Said("at", where=where, detail=Said("scenario_card_list")))
    try:
        return [parse_card(x) for x in value]
    except CardError as e:
        raise SetupInvalid(Said("at", where=where, detail=e.said)) from None


class ScenarioReshuffle:
    """The order a scenario names for the next reshuffle of a round
    (`setup.reshuffle`, top card first), given to the engine through the
    `rami_reshuffle` hook; without one, the seeded shuffle stands."""

    name = "scenario_reshuffle"

    def __init__(self) -> None:
        self.order: list[Card] | None = None

    @hookimpl
    def rami_reshuffle(self, rules: Rules, state: GameState, cards: list[Card]) -> list[Card] | None:
        if self.order is None:
            return None
        faces, self.order = self.order, None
        pool = list(cards)
        out: list[Card] = []
        for face in faces:
            match = next((c for c in pool if c.face == face.face), None)
            if match is None:
                raise ValueError(Said("scenario_reshuffle_unknown", card=format_card(face)))
            pool.remove(match)
            out.append(match)
        if pool:
            raise ValueError(Said("scenario_reshuffle_count", named=len(faces), given=len(cards)))
        return list(reversed(out))  # the state holds the stock top card last


@dataclass
class SetupGame:
    """A scenario's game and what the scenario adds to it: the order of a
    reshuffle named in a setup, and the turn cap of its play_out steps."""

    game: Game
    reshuffle: ScenarioReshuffle
    turn_cap: int = TURN_CAP


def build_setup(profile: Profile, setup: dict) -> Game:
    """A closed setup's game (the API callers used before seeds and rounds)."""
    return start(profile, setup).game


def start(profile: Profile, setup: Any, *, seed: int | None = None, players: Any = None) -> SetupGame:
    """The scenario's first round: a closed setup (`hands` given), or dealt from
    `seed` to `players` seats (a setup without `hands`)."""
    if not isinstance(setup, dict):
        raise SetupInvalid(Said("scenario_setup_mapping"))
    reshuffle = ScenarioReshuffle()
    if "hands" not in setup and ("seed" in setup or seed is not None):
        seed = setup.get("seed", seed)
        players = setup.get("players", players)
        if not is_int(seed):
            raise SetupInvalid(Said("scenario_whole_number", where="seed", value=short(seed)))
        game = _seeded(profile, setup, seed, players, reshuffle)
    else:
        unknown = unknown_key(setup, SETUP_KEYS, "setup")
        if unknown:
            raise SetupInvalid(unknown)
        hands_in = setup.get("hands")
        if not isinstance(hands_in, list) or not hands_in:
            raise SetupInvalid(Said("scenario_hands_or_seed"))
        n = len(hands_in)
        if not profile.allows_players(n):
            raise SetupInvalid(Said("scenario_players", variant=profile.name, n=n))
        rules = rules_for(profile, n, [reshuffle])
        turn = setup.get("turn", 0)
        first = setup.get("first_player", turn)
        round_no = setup.get("round", 1)
        if not is_int(round_no) or round_no < 1:
            raise SetupInvalid(Said("scenario_number_from", where="round", min=1, value=short(round_no)))
        teams = rules.teams
        sides = 2 if teams else n
        scores = setup.get("scores", [0] * sides)
        state = closed_setup_state(
            rules, setup, round_no=round_no, first=first, scores=scores, seed=seed if seed is not None else 0
        )
        game = Game(profile, n, state, rules=rules)
    if "reshuffle" in setup:
        reshuffle.order = card_list(setup["reshuffle"], "reshuffle")
    return SetupGame(game, reshuffle)


def closed_state(rules: Rules, setup: dict) -> GameState:
    """The state a closed setup names, under rules built once by the caller
    (``rami diff`` judges hundreds of setups under the same rules): the
    checks of :func:`start`, SetupInvalid where the setup breaks them."""
    unknown = unknown_key(setup, SETUP_KEYS, "setup")
    if unknown:
        raise SetupInvalid(unknown)
    hands_in = setup.get("hands")
    if not isinstance(hands_in, list) or len(hands_in) != rules.players:
        raise SetupInvalid(Said("scenario_hands_per_seat", n=rules.players))
    turn = setup.get("turn", 0)
    round_no = setup.get("round", 1)
    if not is_int(round_no) or round_no < 1:
        raise SetupInvalid(Said("scenario_number_from", where="round", min=1, value=short(round_no)))
    scores = setup.get("scores", [0] * rules.sides)
    return closed_setup_state(
        rules, setup, round_no=round_no, first=setup.get("first_player", turn), scores=scores, seed=0
    )


def _seeded(profile: Profile, setup: dict, seed: int, players: Any, reshuffle: ScenarioReshuffle) -> Game:
    """Round `setup.round` (1 by default) dealt from the seed, as Game.new deals it."""
    unknown = unknown_key(setup, SEEDED_SETUP_KEYS, Said("scenario_where_seeded"))
    if unknown:
        raise SetupInvalid(Said("scenario_seeded_key", detail=unknown))
    n = players
    if not is_int(n) or not profile.allows_players(n):
        raise SetupInvalid(Said("scenario_players", variant=profile.name, n=short(n)))
    rules = rules_for(profile, n, [reshuffle])
    round_no = setup.get("round", 1)
    if not is_int(round_no) or round_no < 1:
        raise SetupInvalid(Said("scenario_number_from", where="round", min=1, value=short(round_no)))
    if "first_player" in setup:
        first = setup["first_player"]
        if not is_int(first) or not 0 <= first < n:
            raise SetupInvalid(Said("scenario_not_seat", where="first_player", value=short(first)))
    elif rules.random_first_player:
        first = rng_for(seed, "first").randrange(n)
    else:
        first = 0
    scores = setup.get("scores", [0] * rules.sides)
    _check_scores(scores, rules)
    state = deal(rules, seed, round_no, first, list(scores))
    game = Game(profile, n, state, rules=rules)
    for e in [round_dealt(state)]:
        rules.hooks.call_all("rami_event", rules=rules, event=e)
        game.events.append(e)
    return game


def _check_scores(scores: Any, rules: Rules) -> None:
    sides = rules.sides
    if not isinstance(scores, list) or len(scores) != sides or not all(is_int(x) for x in scores):
        raise SetupInvalid(Said("scenario_scores_teams" if rules.teams else "scenario_scores_seats", n=sides))


def closed_setup_state(
    rules: Rules, setup: dict, *, round_no: int, first: Any, scores: Any, seed: int | None
) -> GameState:
    """The table a closed setup names card by card (round 1, or the next round's)."""
    hands_in = setup.get("hands")
    n = rules.players
    if not isinstance(hands_in, list) or len(hands_in) != n:
        raise SetupInvalid(Said("scenario_hands_per_seat", n=n))
    copies: Counter = Counter()

    def physical(face: Card, where: str) -> Card:
        key = face.face
        limit = rules.deck_jokers if face.is_joker else rules.decks
        if copies[key] >= limit:
            raise SetupInvalid(Said("scenario_copies", where=where, card=format_card(face), limit=limit))
        c = Card(face.rank, face.suit, copies[key])
        copies[key] += 1
        return c

    hands = [
        [physical(c, f"hands[{i}]") for c in card_list(h, f"hands[{i}]")] for i, h in enumerate(hands_in)
    ]
    stock_top_first = [physical(c, "stock") for c in card_list(setup.get("stock"), "stock")]
    discard = [physical(c, "discard") for c in card_list(setup.get("discard"), "discard")]
    if discard and not rules.ends_with_discard:
        raise SetupInvalid(Said("scenario_no_discard_pile"))
    meld_rules = rules.melds
    table: list[TableMeld] = []
    table_in = setup.get("table") or []
    if not isinstance(table_in, list):
        raise SetupInvalid(Said("scenario_table_list"))
    for i, m in enumerate(table_in):
        owner = None
        if isinstance(m, dict):
            if set(m) - {"cards", "owner"}:
                raise SetupInvalid(Said("scenario_table_meld_form", where=f"table[{i}]"))
            owner = m.get("owner")
            if owner is not None and (
                isinstance(owner, bool) or not isinstance(owner, int) or not 0 <= owner < n
            ):
                raise SetupInvalid(Said("scenario_not_seat", where=f"table[{i}].owner", value=short(owner)))
            m = m.get("cards")
        cards = [physical(c, f"table[{i}]") for c in card_list(m, f"table[{i}]")]
        r = read_meld(cards, meld_rules)
        if r is None:
            raise SetupInvalid(
                Said("at", where=f"table[{i}]", detail=_Reason(why_invalid(cards, meld_rules)))
            )
        table.append(TableMeld(r, owner))
    owners = {m.owner for m in table if m.owner is not None}
    if not rules.has_opening:
        opened = [True] * n
    else:
        opened = [i in owners for i in range(n)]
    if "opened" in setup:
        o = setup["opened"]
        if not isinstance(o, list) or len(o) != n or not all(isinstance(x, bool) for x in o):
            raise SetupInvalid(Said("scenario_opened_per_seat", n=n))
        opened = list(o) if rules.has_opening else [True] * n
    _check_scores(scores, rules)
    turn = setup.get("turn", first)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < n:
        raise SetupInvalid(Said("scenario_not_seat", where="turn", value=short(turn)))
    if not is_int(first) or not 0 <= first < n:
        raise SetupInvalid(Said("scenario_not_seat", where="first_player", value=short(first)))
    phase = setup.get("phase", DRAW)
    if phase not in (DRAW, LAY):
        raise SetupInvalid(Said("scenario_phase", value=short(phase)))
    marked = setup.get("opened") or [False] * n
    laid_before = [i in owners or marked[i] is True for i in range(n)]
    return GameState(
        players=n,
        hands=hands,
        stock=list(reversed(stock_top_first)),
        discard=discard,
        table=table,
        opened=opened,
        laid_before=laid_before,
        scores=list(scores),
        turn=turn,
        phase=phase,
        round_no=round_no,
        first_player=first,
        seed=seed,
    )


def _faces(cards: Iterable[Card]) -> list[str]:
    return sorted(format_card(c) for c in cards)


def observe(game: Game, turn_cap: int = TURN_CAP) -> dict[str, Any]:
    """The state as `expect` keys see it."""
    s = game.state
    n = s.players
    rules = game.rules
    if s.phase == OVER:
        round_end: str | None = ROUND_ENDS.get(s.round_end or "", s.round_end)
    else:
        round_end = CAPPED if round_capped(s, turn_cap) else None
    return {
        "hands": {i: _faces(h) for i, h in enumerate(s.hands)},
        "hand_sizes": [len(h) for h in s.hands],
        "table": sorted(_faces(m.cards) for m in s.table),
        "discard_top": format_card(s.discard[-1]) if s.discard else None,
        "stock_size": len(s.stock),
        "opened": list(s.opened),
        "turn": s.turn,
        "phase": s.phase,
        "round_over": s.phase == OVER,
        "winner": s.winner if s.phase == OVER else None,
        "penalties": list(s.penalties) if s.phase == OVER and s.penalties else [0] * n,
        "scores": list(s.scores),
        "game_over": s.game_over,
        "game_winner": s.game_winner if s.game_over else None,
        "game_loser": rules.game_loser(s.scores) if s.game_over else None,
        "round": s.round_no,
        "round_end": round_end,
        "rami_sec": s.phase == OVER and s.rami_sec,
        "dealer": rules.dealer(s.first_player),
        "first_player": s.first_player,
        "discard_size": len(s.discard),
        "turns": turns_in_round(s),
    }
