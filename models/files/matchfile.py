"""The JSON match file of MATCHFILE.md: read and validate it, and write it back.

`load_match` refuses anything the contract refuses with a MatchError naming the
hand and field; `match_document` writes a Match so that reading it again gives
the same Match. The scores are never in the file's input part: they are the
fold's to compute.
"""
from __future__ import annotations

import json

from models.game.entry import read_hand
from models.errors import N_, MatchError
from models.game.ledger import Sheet, score_sheet
from models.game.match import FORMATS, Match
from models.game.names import codes, identity, refused_characters, which_player
from models.game.rules import TABLE_SETTING, Table, table_rules
from models.game.tables.entries import read_deal
from models.game.tables.seats import check_seats

MAX_NAME = 40
MAX_IMPORT_BYTES = 1_000_000  # a file of MAX_HANDS hands with their cards is about 300 KB


def parse_json(text: str | bytes) -> object:
    """JSON with integers kept exact; floats stay floats so they can be refused."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MatchError("file", N_("is not UTF-8 text (byte {byte})"), byte=error.start) from None
    text = text.removeprefix("\ufeff")  # the byte-order mark Windows Notepad writes first
    try:
        doc = json.loads(text, parse_constant=reject_constant, object_pairs_hook=KeysOnce)
    except json.JSONDecodeError as error:
        raise MatchError("file", N_("is not JSON: {problem} at line {line} column {column}"),
                         problem=error.msg, line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise MatchError("file", N_("is nested too deeply")) from None
    except MatchError:
        raise
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise MatchError("file", N_("holds a number too long to be a score")) from None
    refuse_doubled_keys(doc)
    refuse_surrogates(doc)
    return doc


class KeysOnce(dict):
    """A JSON object that remembers a key given twice (`doubled`), which a plain dict keeps silently, the last
    one winning; parse_json then refuses the file, naming the key and the object that holds it."""

    def __init__(self, pairs: list[tuple[str, object]]):
        super().__init__(pairs)
        self.doubled = None
        if len(self) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    self.doubled = key
                    break
                seen.add(key)


def refuse_doubled_keys(doc: object) -> None:
    """The first object in the file's order with a key twice, refused as `hand N, cards.melds` or `rules.target`."""
    todo: list[tuple[object, tuple]] = [(doc, ())]
    while todo:  # a loop, not a recursion: the file may be nested as deeply as json itself takes
        node, path = todo.pop()
        if isinstance(node, KeysOnce) and node.doubled is not None:
            raise doubled_key(path + (node.doubled,))
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        todo.extend(reversed([(child, path + (key,)) for key, child in children]))


def doubled_key(path: tuple) -> MatchError:
    hand = None
    if len(path) > 2 and path[0] == "hands" and isinstance(path[1], int):
        hand, path = path[1] + 1, path[2:]
    field = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in path).removeprefix(".")
    return MatchError(field, N_("is given twice; each key may appear once in an object"), hand)


def refuse_surrogates(doc: object) -> None:
    """A lone surrogate (JSON's \\ud800) is not text: no page or file could show it."""
    try:
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise MatchError("file", N_("holds a lone surrogate escape, which is not valid Unicode text")) from None


def reject_constant(name: str) -> None:
    raise MatchError("file", N_("{name} is not a JSON number"), name=name)


def read_players(doc: dict, table: Table = Table.TWO) -> tuple[str, ...]:
    players = doc.get("players")
    if table == Table.TWO and (not isinstance(players, list) or len(players) != 2):
        raise MatchError("players", N_("must be a list of exactly two names"))
    check_seats(table, players if isinstance(players, list) else ())
    for name in players:
        check_name(name, "players")
    if table == Table.TWO and same_person(players[0], players[1]):
        raise MatchError("players", N_("the two players must differ, both are {name!r}"), name=players[0])
    for n, name in enumerate(players):
        if any(same_person(name, before) for before in players[:n]):
            raise MatchError("players", N_("{name!r} is named twice: each player sits once"), name=name)
    return tuple(players)


def read_table(doc: dict) -> Table:
    table = doc.get(TABLE_SETTING, Table.TWO.value)
    if not isinstance(table, str) or table not in Table._value2member_map_:
        raise MatchError(TABLE_SETTING, N_("must be two, partners or chouette, not {table!r}"), table=table)
    return Table(table)


def read_rules(doc: dict, table: Table):
    """The file's settings over the table's defaults; the table itself is the file's own key."""
    settings = doc.get("rules")
    if isinstance(settings, dict) and TABLE_SETTING in settings:
        # The contract's rules are the settings of RULES.md; the table is the file's own key (MATCHFILE.md).
        raise MatchError(f"rules.{TABLE_SETTING}", N_("unknown setting"))
    return table_rules(table, settings)


def name_key(name: str) -> str:
    """Who a name is (models/game/names.identity)."""
    return identity(name)


def same_person(one: str, two: str) -> bool:
    return name_key(one) == name_key(two)


def check_name(name: object, field: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise MatchError(field, N_("a player's name must be a non-empty string"))
    if len(name) > MAX_NAME:
        raise MatchError(field, N_("a name may have at most {most} characters"), most=MAX_NAME)
    if name != name.strip():
        raise MatchError(field, N_("{name!r} starts or ends with a space"), name=name)
    if refused_characters(name):
        raise MatchError(field, N_("may not hold control or invisible formatting characters ({codes})"),
                         codes=codes(refused_characters(name)))
    return name


def read_format(doc: dict) -> str:
    form = doc.get("format", "hollywood")
    if not isinstance(form, str) or form not in FORMATS:
        raise MatchError("format", N_("must be hollywood or single, not {format!r}"), format=form)
    return form


def read_first_dealer(doc: dict, players: tuple[str, str]) -> str:
    dealer = which_player(doc.get("first_dealer", players[0]), players)
    if dealer is None:
        raise MatchError("first_dealer", N_("{dealer!r} is not one of the players"), dealer=doc["first_dealer"])
    return dealer


def match_from_document(doc: object, most_hands: int | None = None) -> Match:
    """Validate a parsed document: the match's fields, every hand, and the fold."""
    match = read_document(doc, most_hands)
    score_sheet(match)  # refuses a hand after the match is over
    return match


def read_document(doc: object, most_hands: int | None = None) -> Match:
    """The match's fields and every hand, checked one by one (the fold checks the rest).

    `most_hands` is the app's limit (models/game/match.MAX_HANDS), checked before any hand is read;
    `replay` and the benchmarks score files of any length."""
    if not isinstance(doc, dict):
        raise MatchError("file", N_("must be a JSON object"))
    table = read_table(doc)
    players = read_players(doc, table)
    rules = read_rules(doc, table)
    read = read_hand if table == Table.TWO else read_deal
    hands = doc.get("hands", [])
    if not isinstance(hands, list):
        raise MatchError("hands", N_("must be a list"))
    if most_hands is not None and len(hands) > most_hands:
        raise MatchError("hands", N_("a match may have at most {most} hands, not {count}"),
                         most=most_hands, count=len(hands))
    return Match(
        players=players,
        format=read_format(doc),
        first_dealer=read_first_dealer(doc, players),
        rules=rules,
        hands=tuple(read(raw, players, rules, n) for n, raw in enumerate(hands, start=1)),
    )


def load_match(text: str | bytes, most_hands: int | None = None) -> Match:
    return match_from_document(parse_json(text), most_hands)


def match_document(match: Match) -> dict:
    """The input part of the match file, every setting written out (a table of three or four's `table`
    as the file's own key, first)."""
    rules = match.rules.to_dict()
    table = {} if match.table == Table.TWO else {TABLE_SETTING: rules.pop(TABLE_SETTING)}
    return {
        **table,
        "format": match.format,
        "players": list(match.players),
        "first_dealer": match.dealer,
        "rules": rules,
        "hands": [hand.to_dict() for hand in match.hands],
    }


def export_document(match: Match, sheet: Sheet | None = None) -> dict:
    """What the app exports: the input plus the replay output under `result`."""
    doc = match_document(match)
    doc["result"] = (sheet or score_sheet(match)).to_dict()
    return doc


def replay(text: str | bytes) -> dict:
    """The output of `flask --app app replay FILE`: one fold, which also refuses late hands."""
    return score_sheet(read_document(parse_json(text))).to_dict()
