"""`rami serve`: run the table server, or export one of its stored games."""

from __future__ import annotations

import json
import sys

import click

import rami_core.cli.types as types
from rami_core.cli.common import Seconds, cli_words, lang_option, said_words
from rami_core.files.userfiles import visible
from rami_core.server.limits import (
    MAX_TABLES,
    SOCKETS_PER_CLIENT,
    SOCKETS_PER_TABLE,
    TABLES_PER_CLIENT,
    TABLES_WINDOW,
)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=types.IntRange(0, 65535), help="Port.")
@click.option("--db", default="rami.sqlite", show_default=True, help="The SQLite file the games are kept in.")
@click.option(
    "--ephemeral",
    is_flag=True,
    help="Allow an in-memory --db (:memory:): every game is lost when the server stops (the banner says so).",
)
@click.option(
    "--sync",
    "synchronous",
    type=types.Choice(["normal", "full"]),
    default="normal",
    show_default=True,
    help="normal: nothing lost if the process dies; full: nor on a power cut (an fsync per action).",
)
@click.option(
    "--round-pause",
    default=30.0,
    show_default=True,
    type=Seconds(),
    help="Most seconds a round's end stays on screen (a countdown on the page) before the next "
    "deal; sooner once every person at the table has clicked continue.",
)
@click.option(
    "--bot-delay",
    default=0.25,
    show_default=True,
    type=Seconds(),
    help="Seconds a bot waits before each action.",
)
@click.option(
    "--think-budget",
    default=5.0,
    show_default=True,
    type=Seconds(positive=True),
    help="Seconds a bot may think per action.",
)
@click.option(
    "--public-house",
    "public_house",
    multiple=True,
    metavar="FILE",
    type=types.Path(dir_okay=False),
    help='A house-rule file offered for "play now" (public tables) beside the presets; repeatable.',
)
@click.option(
    "--public-wait",
    default=30.0,
    show_default=True,
    type=Seconds(),
    help="Seconds a public table waits for people before bots take the seats left.",
)
@click.option(
    "--expire-after",
    default=24 * 3600.0,
    show_default=True,
    type=Seconds(positive=True),
    help="Seconds a table may stay unchanged (a finished game, one nobody plays) before it is deleted.",
)
@click.option(
    "--max-tables",
    default=MAX_TABLES,
    show_default=True,
    type=types.IntRange(1),
    help="Tables the server holds in all (then 503 server_full).",
)
@click.option(
    "--tables-per-client",
    default=TABLES_PER_CLIENT,
    show_default=True,
    type=types.IntRange(1),
    help="Tables one address may create within --tables-window (then 429 too_many_tables).",
)
@click.option(
    "--tables-window",
    default=TABLES_WINDOW,
    show_default=True,
    type=Seconds(positive=True),
    help="The window of --tables-per-client, in seconds.",
)
@click.option(
    "--sockets-per-client",
    default=SOCKETS_PER_CLIENT,
    show_default=True,
    type=types.IntRange(1),
    help="WebSockets one address may hold open at once.",
)
@click.option(
    "--sockets-per-table",
    default=SOCKETS_PER_TABLE,
    show_default=True,
    type=types.IntRange(1),
    help="WebSockets on one table (players and spectators).",
)
@click.option(
    "--reproducible-seeds",
    is_flag=True,
    default=False,
    help="Deal a given seed as given at tables of several people too (tests that replay a game; "
    "never on a server strangers use: the creator could rebuild the others' hands).",
)
@click.option(
    "--export",
    "export_id",
    metavar="TABLE",
    default=None,
    help="Print table TABLE's game in the save format (for `rami replay`) and exit.",
)
@lang_option(help="Language of the errors (the store, a house file refused); each page chooses its own.")
def serve(
    host: str,
    port: int,
    db: str,
    ephemeral: bool,
    synchronous: str,
    round_pause: float,
    bot_delay: float,
    think_budget: float,
    public_house: tuple[str, ...],
    public_wait: float,
    expire_after: float,
    max_tables: int,
    tables_per_client: int,
    tables_window: float,
    sockets_per_client: int,
    sockets_per_table: int,
    reproducible_seeds: bool,
    export_id: str | None,
    lang: str,
) -> None:
    """Run the table server: open http://HOST:PORT/ to create a table and play in the browser."""
    if export_id is not None:
        _export(db, export_id)
        return
    try:
        import uvicorn

        from rami_core.server.app import create_app
    except ImportError as e:  # pragma: no cover - the [server] extra is missing
        click.echo(cli_words("serve_needs_extra", error=str(e)), err=True)
        sys.exit(1)
    from rami_core.server.store import StoreError, in_memory
    from rami_core.words.errors import ProfileError

    memory = in_memory(db)
    if memory and not ephemeral:
        click.echo(f"rami serve: {cli_words('serve_db_in_memory', db=repr(db))}", err=True)
        sys.exit(2)
    if memory:
        db = ":memory:"  # one form SQLite reads without URI parsing

    try:
        app = create_app(
            db,
            synchronous=synchronous,
            round_pause=round_pause,
            bot_delay=bot_delay,
            think_budget=think_budget,
            public_house=public_house,
            public_wait=public_wait,
            expire_after=expire_after,
            reproducible_seeds=reproducible_seeds,
            limits_options={
                "max_tables": max_tables,
                "tables_per_client": tables_per_client,
                "tables_window": tables_window,
                "sockets_per_client": sockets_per_client,
                "sockets_per_table": sockets_per_table,
            },
        )
    except StoreError as e:
        click.echo(f"rami serve: {said_words(e.args[0] if e.args else '')}", err=True)
        sys.exit(1)
    except ProfileError as e:
        click.echo(f"rami serve: --public-house: {e.format(lang)}", err=True)
        sys.exit(1)
    banner = "serve_listening_ephemeral" if memory else "serve_listening"
    click.echo(cli_words(banner, url=f"http://{host}:{port}/", db=visible(db)), err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20)


def _export(db: str, table_id: str) -> None:
    from pathlib import Path

    from rami_core.server.hub import Hub
    from rami_core.server.store import Store, StoreError
    from rami_core.words.problems import Said

    if not Path(db).is_file():
        click.echo(said_words(Said("at", where=db, detail=Said("no_such_file"))), err=True)
        sys.exit(1)
    try:
        hub = Hub(Store(db, readonly=True))  # an export writes nothing, converts nothing
        hub.load()
    except StoreError as e:
        click.echo(f"rami serve: {said_words(e.args[0] if e.args else '')}", err=True)
        sys.exit(1)
    t = hub.tables.get(table_id)
    if t is None:
        tables = ", ".join(hub.tables) or cli_words("serve_no_tables")
        click.echo(cli_words("serve_no_table", db=db, table=repr(table_id), tables=tables), err=True)
        sys.exit(1)
    click.echo(json.dumps(hub.save(t), indent=1, ensure_ascii=False))
