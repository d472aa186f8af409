"""Command-line tools: `flask --app app replay FILE` and friends."""
from __future__ import annotations

import json
import sqlite3
import sys

import click
from flask.cli import ScriptInfo, with_appcontext
from flask_babel import gettext, ngettext

from views import i18n
from models.errors import MatchError
from models.matchfile import replay
from models.melds import MeldError, best_after_layoffs, best_arrangement, parse_hand, parse_knocker_melds


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

    from models import storage

    try:
        pages = storage.backup(current_app.config["DATABASE"], path)
    except (OSError, sqlite3.Error) as error:
        refuse(say(lambda error=error: gettext("backup: %(reason)s", reason=error)))
    click.echo(say(lambda: ngettext("Backed up %(num)d page to %(path)s", "Backed up %(num)d pages to %(path)s",
                                    pages, path=path)))


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
@with_appcontext
def serve_command(host: str, port: int, threads: int) -> None:
    """Serve with waitress (for a club server), after printing where phones can open it."""
    import waitress
    from flask import current_app

    from views import netinfo

    for url in netinfo.urls(port) if host in ("0.0.0.0", "") else [f"http://{host}:{port}/"]:
        click.echo(say(lambda: gettext("Open on a phone on the same Wi-Fi: %(url)s", url=url)))
    # waitress 3 drops X-Forwarded-* by default; with FLASK_PROXY_HOPS the app's ProxyFix reads them instead.
    behind_proxy = bool(current_app.config.get("PROXY_HOPS"))
    waitress.serve(current_app._get_current_object(), host=host, port=port, threads=threads,
                   clear_untrusted_proxy_headers=not behind_proxy)


def register(app) -> None:
    app.cli.add_command(replay_command)
    app.cli.add_command(deadwood_command)
    app.cli.add_command(backup_command)
    app.cli.add_command(serve_command)
