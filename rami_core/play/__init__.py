"""`rami play`: a game in the terminal against bots, or between people at one screen.

- :mod:`.cards`: cards as shown and typed (symbols or ASCII, V/D/R in French, colours)
- :mod:`.commands`: what the player types, read into commands
- :mod:`.screen`: the screen, built from one seat's view
- :mod:`.hint`: the solver's best move for the seat to play
- :mod:`.session`: the game loop (people, bots, undo, save)
- :mod:`.i18n`: the messages, in English and French
"""

from __future__ import annotations

from .session import Seat, Session, Terminal, read_save, write_save

__all__ = ["Seat", "Session", "Terminal", "read_save", "write_save"]
