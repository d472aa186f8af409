"""A match's number as players see it: on a hosted server its number at its table (1, 2, 3 ...), at
home its id, as always.

Ids count across every table of a server, so a hosted table shown them (its matches 1, 4, 9) learns
that other tables exist. Inside the app a match is named by its id everywhere; on a hosted server the
number takes the id's place in every address as it is built (`add_number`, after `url_for`) and the id
takes the number's place in every address matched (`find_match`, before the view runs), so views and
templates keep naming matches by id. What else shows a match's number (a file's name, an ETag) asks
`shown_number`.
"""
from __future__ import annotations

from flask import g

from models.errors import NoSuchMatch
from models.storage.matches import match_id_of, match_number
from views.site.db import get_db

from .scope import hosted

KEY = "match_id"  # every address of one match names it so (views/*: "/matches/<int:match_id>...")


def shown(match_id: int, number: int) -> int:
    """What names a match to its players: its number at its table on a hosted server, else its id."""
    return number if hosted() else match_id


def shown_number(stored) -> int:
    return shown(stored.id, stored.number)


NO_MATCH = 0  # no match has this id (both engines count ids from 1): the view's own 404


def id_shown_as(number: int) -> int:
    """The id of the match its players call `number` (an address's, a form's), NO_MATCH for none."""
    table = g.get("table")
    if not hosted() or table is None:
        return number
    try:
        return match_id_of(get_db(), number, table=table.id)
    except NoSuchMatch:
        return NO_MATCH


def find_match(endpoint: str | None, values: dict | None) -> None:
    """After views/tables/tables.find_table: the number in a hosted table's address becomes the match's id.

    A number the table has not given becomes NO_MATCH, whatever the id that number would be at another
    table: the view answers 404, after the passphrase's checks (which run after this), so a browser not
    let in learns nothing of how many matches the table has."""
    if hosted() and g.get("table") is not None and values and KEY in values:
        values[KEY] = id_shown_as(values[KEY])


def known(matches) -> None:
    """The matches a view is about to list (StoredMatch): their addresses are built without a query."""
    if hosted():
        g.match_numbers = {**g.get("match_numbers", {}), **{stored.id: stored.number for stored in matches}}


def add_number(endpoint: str, values: dict) -> None:
    """An address built for a match of a hosted table names its number, never its id.

    Each match's number is read once a request (one indexed row; a list's are `known` before); an id
    that is no match of the table becomes NO_MATCH, which no table gives (a 404, telling nothing)."""
    table = g.get("table")
    if not hosted() or table is None or KEY not in values:
        return
    numbers = g.match_numbers = g.get("match_numbers", {})
    match_id = values[KEY]
    if match_id not in numbers:
        try:
            numbers[match_id] = match_number(get_db(), match_id, table=table.id)
        except NoSuchMatch:
            numbers[match_id] = NO_MATCH
    values[KEY] = numbers[match_id]
