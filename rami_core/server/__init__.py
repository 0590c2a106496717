"""The table server (`rami serve`): a referee on the network.

The server holds every game; clients only ever see a seat's view. `app`
(Starlette routes), `lobby` (the profile a new table is played with), `hub`
(what changes a table: judge, store, tell, undo; handed the parts below),
`registry` (the tables by id and seat code), `storage` (the store's
interface, and a store in memory), `store` (SQLite), `broadcast` (telling
the connections), `expiry` (tables forgotten unasked), `table` (one table's
game, seats and connections), `clocks` (turn clock, round pause, bots),
`views` (what a seat or the lobby sees), `protocol` (the pydantic models,
their JSON Schemas and the server's refusals), `static/` (the pages).
"""
