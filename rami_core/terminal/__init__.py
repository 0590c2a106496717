"""`rami play`: a game in the terminal against bots, or between people at one screen.

- :mod:`.card_text`: cards as shown and typed (symbols or letters, each language's notation, colours)
- :mod:`.commands`: what the player types, read into typed commands
- :mod:`.dispatch`: commands to engine actions (and back, for the hint)
- :mod:`.screen`: the screen and the score sheet, built from one seat's view
- :mod:`.hint`: the solver's best move for the seat to play
- :mod:`.console`: reading and writing, with a turn clock that ends a read by itself
- :mod:`.undo`: taking back a person's moves of the turn
- :mod:`.saves`: saved games with their seating
- :mod:`.session`: the game loop (people, bots, round ends)

The words are in rami_core.words.messages and the narration of events in
rami_core.players.narration, shared with `rami replay`.
"""

from __future__ import annotations

from rami_core.terminal.console import Terminal
from rami_core.terminal.saves import read_save, write_save
from rami_core.terminal.session import Seat, Session

__all__ = ["Seat", "Session", "Terminal", "read_save", "write_save"]
