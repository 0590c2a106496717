"""The table server (`rami serve`): a referee on the network.

The server holds every game; clients only ever see a seat's view. `app`
(Starlette routes), `lobby` (the profile a new table is played with), `hub`
(the tables: judge, store, tell, undo), `table` (one table's game, seats and
connections), `clocks` (turn clock, round pause, bots), `views` (what a seat
or the lobby sees), `store` (SQLite), `protocol` (the pydantic models, their
JSON Schemas and the server's refusals), `static/` (the pages).
"""
