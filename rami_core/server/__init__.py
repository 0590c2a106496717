"""The table server (`rami serve`): a referee on the network.

The server holds every game; clients only ever see a seat's view. `app`
(Starlette routes), `tables` (games, seats, clock, bots), `store` (SQLite),
`protocol` (the pydantic models and their JSON Schemas), `static/` (the page).
"""
