"""Command-line tools: `flask --app app replay FILE` and friends."""
from __future__ import annotations

import json
import os
import shlex
import sqlite3
import sys

import click
from flask.cli import ScriptInfo, with_appcontext
from flask_babel import gettext, ngettext

from views.site import i18n
from models.errors import DestinationNotEmpty, MatchError
from models.files.matchfile import replay
from models.game.meld_codes import MeldError, parse_hand, parse_knocker_melds
from models.game.melds import best_after_layoffs, best_arrangement
from models.storage.connection import backup
from models.storage.ledger_file import open_ledger, restore


def refuse(message: str) -> None:
    """One line on stderr, nothing on stdout, exit 2: what scripts can rely on."""
    click.echo(message, err=True)
    sys.exit(2)


def the_app():
    """The app this command runs for (it holds the catalogues), or None if it cannot be had."""
    info = click.get_current_context().find_object(ScriptInfo)
    try:
        return info.load_app() if info is not None else None
    except Exception:  # no app: the refusal is still said, in English
        return None


def say(text) -> str:
    """`text(...)` in the language of the environment (LANGUAGE, LC_ALL, LC_MESSAGES, LANG; English by default).

    `text` is a function that calls gettext/ngettext or i18n.translated, so it runs with that language in force.
    """
    app = the_app()
    if app is None:
        return text()
    with i18n.speaking(app):
        return text()


@click.command("replay")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True))
def replay_command(path: str) -> None:
    """Score a match file and print the replay output of MATCHFILE.md."""
    try:
        with click.open_file(path, "rb") as stream:
            data = stream.read()
    except OSError as error:
        refuse(say(lambda error=error: gettext("file: cannot read %(path)s: %(reason)s", path=path,
                                                   reason=error.strerror)))
    try:
        result = replay(data)
    except MatchError as error:
        refuse(say(lambda error=error: i18n.translated(error)))
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))


@click.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
@with_appcontext
def backup_command(path: str) -> None:
    """Write a consistent copy of the database while the app keeps running."""
    from flask import current_app

    from models.storage.address import POSTGRESQL, read_address

    address = read_address(current_app.config["DATABASE"])
    if address.engine == POSTGRESQL:
        # The online backup is SQLite's; PostgreSQL's own tool takes a consistent dump while the app runs.
        refuse(say(lambda: gettext("backup: the database is PostgreSQL: use pg_dump (pg_dump -Fc -f %(path)s "
                                   "%(address)s), and pg_restore to bring it back",
                                   path=shlex.quote(path), address=shlex.quote(address.shown))))
    try:
        pages = backup(current_app.config["DATABASE"], path)
    except (OSError, sqlite3.Error) as error:
        refuse(say(lambda error=error: gettext("backup: %(reason)s", reason=error)))
    click.echo(say(lambda: ngettext("Backed up %(num)d page to %(path)s", "Backed up %(num)d pages to %(path)s",
                                    pages, path=path)))


@click.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@with_appcontext
def restore_command(path: str) -> None:
    """Put a backup (from `flask backup`) back in place of the database, while the app keeps running."""
    from flask import current_app

    from models.storage.address import POSTGRESQL, read_address
    from models.errors import LedgerError

    address = read_address(current_app.config["DATABASE"])
    if address.engine == POSTGRESQL:
        refuse(say(lambda: gettext("restore: the database is PostgreSQL: use pg_restore (pg_restore --clean -d "
                                   "%(address)s %(path)s)", path=shlex.quote(path), address=shlex.quote(address.shown))))
    try:
        hands = restore(address.target, path)
    except (LedgerError, OSError, sqlite3.Error) as error:
        refuse(say(lambda error=error: gettext("restore: %(reason)s; nothing was restored", reason=error)))
    click.echo(say(lambda: ngettext("Restored %(path)s: the database holds %(num)d hand now",
                                    "Restored %(path)s: the database holds %(num)d hands now", hands, path=path)))


def rows_of(table: str, num: int) -> str:
    """How many rows of `table`, in words ("12 matches"); runs inside `say`."""
    if table == "play_table":
        return ngettext("%(num)d table", "%(num)d tables", num)
    if table == "player":
        return ngettext("%(num)d player", "%(num)d players", num)
    if table == "preset":
        return ngettext("%(num)d preset", "%(num)d presets", num)
    if table == "match":
        return ngettext("%(num)d match", "%(num)d matches", num)
    if table == "hand":
        return ngettext("%(num)d hand", "%(num)d hands", num)
    return ngettext("%(num)d history row", "%(num)d history rows", num)


def held_words(held: dict[str, int]) -> str:
    """What a destination holds, in words; its tables are counted besides its home table."""
    return ", ".join(ngettext("%(num)d table besides the home table", "%(num)d tables besides the home table", num)
                     if table == "play_table" else rows_of(table, num) for table, num in held.items())


def refuse_held(dest, held: dict[str, int]) -> None:
    refuse(say(lambda: gettext("copy-db: %(dest)s is not empty (it holds %(held)s): copy into a new, empty "
                               "database; nothing was changed", dest=dest.shown, held=held_words(held))))


def same_database(one, other) -> bool:
    """The same address written the same way (a file by its real path): a copy onto itself is refused."""
    if one.engine != other.engine:
        return False
    if one.engine == "sqlite":
        return os.path.realpath(one.target) == os.path.realpath(other.target)
    return one.target == other.target


@click.command("copy-db")
@click.argument("source")
@click.argument("dest")
def copy_db_command(source: str, dest: str) -> None:
    """Copy every table, player, preset, match, hand and history row from SOURCE into DEST, an empty
    database (a file path for SQLite, or postgresql://USER@HOST:PORT/DATABASE); logins stay behind."""
    import psycopg

    from models.storage import copy_ledger
    from models.storage.address import read_address
    from models.errors import LedgerError

    failures = (LedgerError, sqlite3.Error, psycopg.Error, OSError)
    try:
        source_at, dest_at = read_address(source), read_address(dest)
    except LedgerError as error:
        refuse(say(lambda error=error: gettext("copy-db: %(reason)s", reason=error)))
    if same_database(source_at, dest_at):
        refuse(say(lambda: gettext("copy-db: %(source)s and %(dest)s are the same database: copy into another, "
                                   "empty one", source=source_at.shown, dest=dest_at.shown)))
    try:
        version, _ = copy_ledger.peek(source)
        _, held = copy_ledger.peek(dest)
    except failures as error:
        refuse(say(lambda error=error: gettext("copy-db: %(reason)s", reason=error)))
    if version == 0:
        refuse(say(lambda: gettext("copy-db: there is no ledger at %(source)s: nothing was copied",
                                   source=source_at.shown)))
    if held:  # said before anything is opened for writing, so a refused destination is left as it was
        refuse_held(dest_at, held)
    source_conn = dest_conn = None
    try:
        source_conn = open_ledger(source)
        dest_conn = open_ledger(dest)
        counts = copy_ledger.copy_ledger(source_conn, dest_conn)
    except DestinationNotEmpty as error:
        refuse_held(dest_at, error.held)
    except failures as error:
        refuse(say(lambda error=error: gettext("copy-db: %(reason)s", reason=error)))
    finally:
        for conn in (source_conn, dest_conn):
            if conn is not None:
                conn.close()
    click.echo(say(lambda: gettext(
        "Copied %(tables)s, %(players)s, %(matches)s, %(hands)s, %(events)s and %(presets)s from %(source)s "
        "to %(dest)s.", tables=rows_of("play_table", counts["play_table"]), players=rows_of("player", counts["player"]),
        matches=rows_of("match", counts["match"]), hands=rows_of("hand", counts["hand"]),
        events=rows_of("hand_event", counts["hand_event"]), presets=rows_of("preset", counts["preset"]),
        source=source_at.shown, dest=dest_at.shown)))


@click.command("deadwood")
@click.argument("cards", nargs=-1)
@click.option("--onto", multiple=True, metavar='"4H 5H 6H"',
              help="A knocker's meld the cards may be laid off onto (repeatable).")
def deadwood_command(cards: tuple[str, ...], onto: tuple[str, ...]) -> None:
    """Arrange a 10- or 11-card hand for the least deadwood, after lay-offs onto --onto melds."""
    try:
        hand = parse_hand(list(cards))
        melds = parse_knocker_melds([group.split() for group in onto], hand)
    except MeldError as error:
        refuse(say(lambda error=error: i18n.translated(error)))
    arrangement = best_after_layoffs(hand, melds) if melds else best_arrangement(hand)
    click.echo(json.dumps(arrangement.to_dict()))


@click.command("serve")
@click.option("--host", default="0.0.0.0", show_default=True)
@click.option("--port", default=8080, show_default=True, type=int)
@click.option("--threads", default=8, show_default=True, type=int)
# Each phone keeps a connection or two open between its polls, and waitress answers no more than this many at
# once (its own default, 100, left 203 of 300 phones arriving at once unanswered: bench/phones_at_once.py);
# poll, not select, so connections past file descriptor 1024 are served too.
@click.option("--connection-limit", default=1000, show_default=True, type=int)
@with_appcontext
def serve_command(host: str, port: int, threads: int, connection_limit: int) -> None:
    """Serve with waitress (for a club server), after printing where phones can open it."""
    import waitress
    from flask import current_app

    from views.site import netinfo

    for url in netinfo.urls(port) if host in ("0.0.0.0", "") else [f"http://{host}:{port}/"]:
        click.echo(say(lambda: gettext("Open on a phone on the same Wi-Fi: %(url)s", url=url)))
    # waitress 3 drops X-Forwarded-* by default; with FLASK_PROXY_HOPS the app's ProxyFix reads them instead.
    behind_proxy = bool(current_app.config.get("PROXY_HOPS"))
    waitress.serve(current_app._get_current_object(), host=host, port=port, threads=threads,
                   connection_limit=connection_limit, asyncore_use_poll=True,
                   clear_untrusted_proxy_headers=not behind_proxy)


def register(app) -> None:
    app.cli.add_command(replay_command)
    app.cli.add_command(deadwood_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(restore_command)
    app.cli.add_command(copy_db_command)
    app.cli.add_command(serve_command)
