"""Reading a deal of a table of three or four from its match-file keys (the web's forms use the same keys).

A board is read as a hand of two is (models/game/entry.py), so it is refused for the same reasons in
the same words; its fields are named `boards.N.field` (N from 1), so a refusal says the deal, the board
and the field: "hand 3, boards.2.knocker_deadwood: 12 is over the knock limit 10".
"""
from __future__ import annotations

from models.errors import N_, MatchError
from ..entry import read_entry
from ..hand import Hand
from ..names import which_player
from ..rules import Rules, Table
from .deal import Deal, Entry, check_at_board
from .seats import board_pairs, seat

BOARDS = 2  # partners play two boards at once


def read_deal(raw: object, players: tuple[str, ...], rules: Rules, number: int) -> Entry:
    """Validate deal `number` (1-based) of a table of three or four; the fold checks chouette's captain."""
    try:
        return read_table_entry(raw, players, rules, number)
    except MatchError as error:
        raise error.at_hand(number) from None


def read_table_entry(raw: object, players: tuple[str, ...], rules: Rules, number: int) -> Entry:
    if isinstance(raw, dict) and "boards" in raw:
        if rules.table != Table.PARTNERS:
            raise MatchError("boards", N_("a chouette deal is one hand, between the player in the box and "
                                          "the captain"))
        return read_boards(raw, players, rules, number)
    if rules.table == Table.PARTNERS and not (isinstance(raw, dict) and ("winner" in raw or "points" in raw)):
        raise MatchError("boards", N_("missing: a deal of partners is its two boards, or a winner with points"))
    return read_seated(raw, players, rules, "")


def read_boards(raw: dict, players: tuple[str, ...], rules: Rules, number: int) -> Deal:
    for key in raw:
        if key != "boards":
            raise MatchError(str(key), N_("not a field of a deal of two boards"))
    boards = raw["boards"]
    if not isinstance(boards, list) or len(boards) != BOARDS:
        raise MatchError("boards", N_("must be a list of two boards, one per pair of opponents"))
    pairs = board_pairs(seat(rules.table, players), rules, number)
    read = []
    for n, (board, pair) in enumerate(zip(boards, pairs), start=1):
        hand = read_seated(board, players, rules, f"boards.{n}.")
        check_at_board(hand, pair, f"boards.{n}.")
        read.append(hand)
    return Deal(tuple(read))


def read_seated(raw: object, players: tuple[str, ...], rules: Rules, field: str) -> Hand:
    """A two-player hand whose knocker or winner is one of the table's players (which board's, the
    caller checks); `field` prefixes the key of a refusal."""
    try:
        named = seated_name(raw, players)
        # read_entry looks the knocker or winner up among the names it is given: the one already found.
        return read_entry(raw, (named, named) if named else players[:2], rules)
    except MatchError as error:
        raise MatchError(f"{field}{error.field}", error.message) from None


def seated_name(raw: object, players: tuple[str, ...]) -> str | None:
    """The player a hand's knocker or winner names, as the table spells him; refused when nobody sits there."""
    if not isinstance(raw, dict) or "draw" in raw:
        return None
    key = "winner" if ("winner" in raw or "points" in raw) else "knocker" if "knocker" in raw else None
    if key is None or key not in raw:
        return None
    name = which_player(raw[key], players)
    if name is None:
        raise MatchError(key, N_("{name!r} is not a player of this table ({names})"),
                         name=raw[key], names=", ".join(players))
    return name

