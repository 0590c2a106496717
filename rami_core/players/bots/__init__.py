"""Bots: players that see only `view(seat)` and return one action at a time.

`make_bot(name, seed)` builds one by name; `BOTS` lists the names. A bot is
any object with `name` and `choose(view, rules) -> Action`.
"""

from __future__ import annotations

from rami_core.players.bots.base import BOTS, Bot, BotRegistry, legal, make_bot, register_bot, state_from_view

__all__ = ["BOTS", "Bot", "BotRegistry", "legal", "make_bot", "register_bot", "state_from_view"]
