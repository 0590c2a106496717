"""What the table page asks besides playing: the table's rules in words, the
terminal's hint, and whether a move being prepared would be accepted.

The page judges nothing itself: the rules panel comes from the profile
(`rami_core.players.rules_words`), the hint from the terminal's planner
(`rami_core.players.hint`), and a check from the engine and the meld
reader on a copy of the state (`handlers.play_on`: nothing is changed,
nothing stored, nobody told).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rami_core.cards import Card, CardError, parse_card
from rami_core.cards.melds import read_meld, why_invalid
from rami_core.game import actions as A
from rami_core.game.state import card_code
from rami_core.players.hint import hint_words
from rami_core.players.rules_words import rules_panel
from rami_core.referee.handlers import play_on
from rami_core.server.page_words import Words, page_lang
from rami_core.server.protocol import ServerError
from rami_core.words.errors import RuleError
from rami_core.words.messages import Messages
from rami_core.words.refusals import Reason, refusal_json

if TYPE_CHECKING:
    from rami_core.game.state import GameState
    from rami_core.game.views import SeatView
    from rami_core.server.hub import Hub
    from rami_core.server.table import HostedTable


def table_rules(t: HostedTable, lang: str) -> dict[str, Any]:
    """The page's title (the profile's description in the page's language,
    else its name) and its rules panel."""
    p = t.game.rules.profile
    msg = Messages(page_lang(lang))
    return {
        "title": p.description_in(page_lang(lang)) or p.name or t.variant,
        "name": p.name,
        "rules": rules_panel(t.game.rules, msg),
    }


def hint_view(t: HostedTable, seat: int | None) -> SeatView:
    """What the hint is thought from: the seat's view, taken while the game
    holds still (the thinking, `hint_of`, may then run off the loop)."""
    if seat is None:
        raise ServerError(403, "spectator", "a spectator cannot play: join with a seat's link")
    g = t.game
    if g.state.turn != seat or g.state.phase == "over":
        raise ServerError(409, "not_your_turn", "a hint is given to the seat to play, in its turn")
    return g.view(seat)


def hint_of(view: SeatView, t: HostedTable, lang: str) -> dict[str, Any]:
    """The terminal's hint for the seat to play, in the page's words: the
    moves said, not the terminal's commands (nothing is typed on the page)."""
    words = Words(lang)
    ok, text = hint_words(view, t.game.rules, words.msg, lambda c: words.card(_code(c)))
    return {"ok": ok, "text": text}


def _code(card: Card) -> str:
    return card_code(card).split("/")[0]


def _melds_of(data: Any) -> list[list[str]] | None:
    """The melds a meld or rearrange action lays, as the page wrote them."""
    if not isinstance(data, dict):
        return None
    melds = data.get("meld", data.get("rearrange"))
    if isinstance(melds, list) and all(isinstance(m, list) for m in melds):
        return [[c for c in m if isinstance(c, str)] for m in melds]
    return None


def check_melds(t: HostedTable, melds: list[list[str]], lang: str) -> list[dict[str, Any]]:
    """Each meld read by the meld rules of the table: valid (with its cards
    in their places: a run in order, a joker where it stands) or why not."""
    rules = t.game.rules
    words = Words(lang)
    out: list[dict[str, Any]] = []
    for i, m in enumerate(melds):
        try:
            cards = [parse_card(c) for c in m]
        except CardError as e:
            out.append({"ok": False, "cards": m, "text": str(e)})
            continue
        reading = read_meld(cards, rules.melds) if cards else None
        if reading is not None:
            out.append(
                {"ok": True, "cards": [_code(c) for c in reading.cards], "kind": reading.kind, "text": ""}
            )
            continue
        why = why_invalid(cards, rules.melds) if cards else Reason("empty_meld")
        err = RuleError("table_invalid", Reason("new_meld_reason", meld=i, reason=why))
        out.append({"ok": False, "cards": m, "text": words.refused(err)})
    return out


def check_action(
    hub: Hub, t: HostedTable, seat: int | None, data: Any, lang: str, state: GameState | None = None
) -> dict[str, Any]:
    """Would the engine accept this action now? The action is parsed as
    `POST .../actions` parses it and played on a copy of the state (`state`:
    a copy taken while the game held still, so that this may run off the
    loop): the answer is {ok, error (the refusal as data, with its words)}
    and, for a meld or a rearrangement, each meld read (`check_melds`)."""
    if seat is None:
        raise ServerError(403, "spectator", "a spectator cannot play: join with a seat's link")
    action = hub.parse_action(t, seat, data)
    if isinstance(action, (str, A.NextRound)):
        raise ServerError(400, "invalid_action", "only a move of the game is checked")
    out: dict[str, Any] = {"ok": True, "error": None}
    melds = _melds_of(data)
    if melds is not None:
        out["melds"] = check_melds(t, melds, lang)
    try:
        play_on(t.game.rules, t.game.state if state is None else state, action)
    except RuleError as e:
        out["ok"] = False
        out["error"] = {**refusal_json(e), "text": Words(lang).refused(e)}
    return out
