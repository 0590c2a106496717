"""Every hook a house rule can implement, grouped by the phase of play.

A house rule that no profile setting can say is a plugin: an object (or
module) with functions named after these hooks and marked with `hookimpl`.
Deciding hooks are `firstresult`: the first plugin with an opinion decides,
and `None` means "no opinion"; the host (`hooks.PluginHost`) calls a hook
by its mark and refuses to call a deciding hook as an observing one, or the
reverse. A hook that refuses an action returns a
`Refusal` (or a plain string, the reason); the engine turns it into a
RuleError whose code is the plugin's name, a dot and the refusal's code
(`no_joker_split.split`), unless the refusal uses one of rami's own error codes
(`rami_core.words.errors.ERROR_CODES`) for a rule those codes already cover.

Hooks receive the game's `Rules` (profile and player count) and, where the
state matters, the working copy of the `GameState` that the action is being
judged on: a hook must not change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

import pluggy
from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:  # the hooks' parameter types; importing them at run time would be a cycle
    from rami_core.cards import Card
    from rami_core.cards.melds import Reading
    from rami_core.game.actions import Action
    from rami_core.game.events import Event
    from rami_core.game.state import GameState, TableMeld
    from rami_core.profile.rules import Rules


PROJECT = "rami"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@dataclass(frozen=True)
class Refusal:
    """A plugin's reason to refuse an action: `code` becomes `<plugin>.<code>`
    (or stays as is when it is one of `ERROR_CODES`), `message` is shown to the player.

    The refusal is data like the engine's: a :class:`rami_core.words.refusals.Reason`
    as the message brings its catalogue key and parameters (the bundled
    plugins' reasons are in the catalogue); a plugin of its own gives
    ``params`` and ``texts``, its words by language (``{"fr": "..."}``, the
    parameters named in braces), else every language shows ``message``."""

    code: str
    message: str
    params: dict | None = None
    texts: dict | None = None


class PluginSettings(BaseModel):
    """The base of a plugin's settings: a pydantic model that refuses unknown keys,
    so a misspelt setting in a profile is an error, not a silent default, and
    converts nothing (strict): ``true`` is not the number 1, ``"3"`` and ``3.0``
    are not the integer 3, as in the profile's own groups. A plugin whose
    setting is an Enum declares that field ``Field(strict=False)`` (a YAML
    file gives the enum's value as a string)."""

    model_config = ConfigDict(extra="forbid", strict=True)


S = TypeVar("S", bound=PluginSettings)


class HousePlugin(Generic[S]):
    """A base for a plugin: ``name``, its ``Settings`` model and ``self.settings``.

    Subclass it as ``class Plugin(HousePlugin[Settings])``, set ``name`` and
    ``Settings``, and add ``@hookimpl`` methods; the host builds it with the
    profile's settings, validated by ``Settings``."""

    name: str = ""
    Settings: type[PluginSettings] = PluginSettings

    def __init__(self, settings: S):
        self.settings = settings


# --------------------------------------------------------------------------- dealing


@hookspec
def rami_deal(rules: Rules, state: GameState) -> None:
    """Adjust a freshly dealt round before its first turn (all plugins are called).

    :param rules: the game's Rules.
    :param state: the new GameState; the plugin may reorder the stock or the
        hands, but must neither create nor lose a card.
    :return: nothing.
    """


# --------------------------------------------------------------------------- drawing


@hookspec(firstresult=True)
def rami_draw_allowed(
    rules: Rules, state: GameState, seat: int, source: Literal["stock", "discard"]
) -> Refusal | str | None:
    """Whether `seat` may draw from `source` ("stock" or "discard") now.

    Called after the profile's own draw rules allowed the draw.

    :return: None (no opinion), or a Refusal / reason string to refuse.
    """


# --------------------------------------------------------------------------- laying


@hookspec(firstresult=True)
def rami_meld_valid(rules: Rules, cards: list[Card], reading: Reading) -> Refusal | str | None:
    """Whether a new meld is acceptable beyond the profile's meld rules.

    :param cards: the meld's cards as laid.
    :param reading: the melds.Reading the profile's rules gave it.
    :return: None (no opinion), or a Refusal / reason string to refuse.
    """


@hookspec(firstresult=True)
def rami_opening_met(
    rules: Rules, state: GameState, seat: int, readings: list[Reading], going_out: bool
) -> Refusal | str | None:
    """Whether these melds, laid in one action by a seat that has not opened, open.

    Called after the profile's opening settings accepted them.

    :param readings: the melds.Reading of each meld laid.
    :param going_out: the action leaves only the card to discard (or nothing).
    :return: None (no opinion), or a Refusal / reason string to refuse.
    """


@hookspec(firstresult=True)
def rami_table_acceptable(
    rules: Rules,
    state: GameState,
    seat: int,
    old_table: Sequence[TableMeld],
    new_table: list[TableMeld],
    given: list[Card],
    action: Action,
) -> Refusal | str | None:
    """Whether the table after a lay (meld, lay off, swap or rearrangement) may stand.

    Called once the profile's own rules accepted the action, before the turn
    goes on; a refusal undoes the whole action.

    :param old_table: the table melds (state.TableMeld) before the action.
    :param new_table: the table melds after it.
    :param given: the hand cards the action put on the table.
    :param action: the action (actions.Meld, LayOff, Swap or Rearrange).
    :return: None (no opinion), or a Refusal / reason string to refuse.
    """


# --------------------------------------------------------------------------- discarding


@hookspec(firstresult=True)
def rami_discard_allowed(rules: Rules, state: GameState, seat: int, card: Card) -> Refusal | str | None:
    """Whether `seat` may discard `card`.

    Called after the profile's own discard rules allowed it, with the card
    already out of `state.hands[seat]` (so an empty hand means this discard
    goes out).

    :return: None (no opinion), or a Refusal / reason string to refuse.
    """


# --------------------------------------------------------------------------- timeouts


@hookspec
def rami_timeout(rules: Rules, state: GameState, seat: int) -> None:
    """The seat's clock ran out and the engine has played its default turn;
    a plugin may add a penalty (all plugins are called).

    :param state: the working GameState after the default turn.
    :return: nothing.
    """


@hookspec(firstresult=True)
def rami_reshuffle(rules: Rules, state: GameState, cards: list[Card]) -> list[Card] | None:
    """The order of a stock rebuilt from the discard pile (empty_stock: reshuffle).

    Called when the stock runs out and the discard pile but its top card is
    to be shuffled into a new stock; a scenario's `setup.reshuffle` names the
    order through it, so a later draw can be checked card by card.

    :param cards: the physical cards to shuffle (the discard pile without its top).
    :return: None (the seeded shuffle), or the same cards in the new stock's
        order, top card last (as ``state.stock`` holds it).
    """


# --------------------------------------------------------------------------- scoring


@hookspec(firstresult=True)
def rami_hand_cost(rules: Rules, cards: list[Card]) -> int | None:
    """What a hand left at the end of a round costs.

    :param cards: the cards left in the hand.
    :return: None (the profile's values), or a whole number.
    """


@hookspec(firstresult=True)
def rami_round_scores(rules: Rules, state: GameState, penalties: list[int]) -> list[int] | None:
    """The round's payments once the profile has computed them.

    :param penalties: the per-seat list the profile's scoring produced.
    :return: None (keep them), or a new per-seat list.
    """


@hookspec(firstresult=True)
def rami_game_over(rules: Rules, state: GameState) -> bool | None:
    """Whether the game is over after a round, once the profile has said.

    :return: None (the profile decides), True or False.
    """


# --------------------------------------------------------------------------- observing


@hookspec
def rami_event(rules: Rules, event: Event) -> None:
    """Follow every change the engine makes (all plugins are called).

    :param event: an events.Event (drawn, laid, swapped, rearranged,
        discarded, round over, game over...).
    :return: nothing.
    """
