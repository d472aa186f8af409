"""Reading one hand from its match-file keys (the web forms use the same keys).

Every refusal is a MatchError naming the hand and the field, so the replay
command, the import and the hand form all say the same thing.
"""
from __future__ import annotations

from .cards import MOST_HELD, Card, CardError, parse_card, parse_cards
from models.errors import N_, MatchError, Message
from .hand import MAX_DEADWOOD, Hand, HandKind, knock_limit
from .names import which_player
from .rules import LARGEST, Rules, is_integer

KNOCK_KEYS = {"knocker", "knocker_deadwood", "opponent_deadwood", "big_gin", "upcard", "cards"}
POINTS_KEYS = {"winner", "points", "upcard"}
DRAW_KEYS = {"draw", "upcard"}
CARD_SIDES = ("knocker", "defender")


def read_hand(raw: object, players: tuple[str, str], rules: Rules, number: int) -> Hand:
    """Validate one hand (number is 1-based) and return it as a Hand."""
    try:
        return read_entry(raw, players, rules)
    except MatchError as error:
        raise error.at_hand(number) from None


def read_entry(raw: object, players: tuple[str, str], rules: Rules) -> Hand:
    if not isinstance(raw, dict):
        raise MatchError("hand", N_("must be an object with knocker, winner or draw"))
    if "draw" in raw:
        return read_draw(raw, rules)
    if "winner" in raw or "points" in raw:
        return read_points(raw, players, rules)
    if "knocker" in raw:
        return read_knock(raw, players, rules)
    raise MatchError("knocker", N_("missing: a hand needs a knocker, a winner with points, or draw"))


NOT_A_FIELD = {
    HandKind.DRAW: N_("not a field of a draw hand"),
    HandKind.POINTS: N_("not a field of a points hand"),
    HandKind.KNOCK: N_("not a field of a knock hand"),
}


def refuse_unknown_keys(raw: dict, allowed: set[str], kind: HandKind) -> None:
    for key in raw:
        if key not in allowed:
            raise MatchError(str(key), NOT_A_FIELD[kind])


def read_draw(raw: dict, rules: Rules) -> Hand:
    refuse_unknown_keys(raw, DRAW_KEYS, HandKind.DRAW)
    if raw["draw"] is not True:
        raise MatchError("draw", N_("must be true"))
    return Hand(HandKind.DRAW, upcard=read_upcard(raw, rules, required=False))


def read_points(raw: dict, players: tuple[str, str], rules: Rules) -> Hand:
    refuse_unknown_keys(raw, POINTS_KEYS, HandKind.POINTS)
    winner = read_player(raw, "winner", players)
    points = read_int(raw, "points", 1, LARGEST)
    return Hand(HandKind.POINTS, winner=winner, points=points, upcard=read_upcard(raw, rules, required=False))


def read_knock(raw: dict, players: tuple[str, str], rules: Rules) -> Hand:
    refuse_unknown_keys(raw, KNOCK_KEYS, HandKind.KNOCK)
    knocker = read_player(raw, "knocker", players)
    upcard = read_upcard(raw, rules, required=rules.oklahoma)
    limit = knock_limit(rules, upcard)
    kd = read_int(raw, "knocker_deadwood", 0, MAX_DEADWOOD)
    if kd > limit:
        raise MatchError("knocker_deadwood", knock_limit_reason(kd, limit, rules, upcard))
    od = read_int(raw, "opponent_deadwood", 0, MAX_DEADWOOD)
    big_gin = raw.get("big_gin")
    if big_gin is not None and not isinstance(big_gin, bool):
        raise MatchError("big_gin", N_("must be true or false"))
    if big_gin and kd != 0:
        raise MatchError("big_gin", N_("big gin means all 11 cards melded: the knocker's deadwood must be 0, not {kd}"), kd=kd)
    return Hand(HandKind.KNOCK, knocker=knocker, knocker_deadwood=kd, opponent_deadwood=od,
                big_gin=big_gin, upcard=upcard, cards=read_cards(raw.get("cards")))


def knock_limit_reason(kd: int, limit: int, rules: Rules, upcard: str | None) -> Message:
    """The upcard goes in as a Card: its code in the English text, its face (3♥) on a page."""
    if rules.oklahoma and upcard is not None:
        card = parse_card(upcard)
        if limit == 0:
            return Message(N_("the upcard {upcard} is an ace: gin only (0), not {kd}"), upcard=card, kd=kd)
        return Message(N_("{kd} is over the knock limit {limit} set by the upcard {upcard}"),
                       kd=kd, limit=limit, upcard=card)
    return Message(N_("{kd} is over the knock limit {limit}"), kd=kd, limit=limit)


def read_player(raw: dict, key: str, players: tuple[str, str]) -> str:
    if key not in raw:
        raise MatchError(key, N_("missing"))
    name = which_player(raw[key], players)
    if name is None:
        raise MatchError(key, N_("{name!r} is not a player of this match ({first} or {second})"),
                         name=raw[key], first=players[0], second=players[1])
    return name


def read_int(raw: dict, key: str, low: int, high: int) -> int:
    if key not in raw:
        raise MatchError(key, N_("missing"))
    value = raw[key]
    if not is_integer(value):
        raise MatchError(key, N_("must be a whole number, not {value!r}"), value=value)
    if not low <= value <= high:
        raise MatchError(key, N_("must be between {low} and {high}, not {value}"), low=low, high=high, value=value)
    return value


def read_upcard(raw: dict, rules: Rules, required: bool) -> str | None:
    upcard = raw.get("upcard")
    if upcard is None:
        if required:
            raise MatchError("upcard", N_("missing: Oklahoma needs the first upcard of the deal"))
        return None
    try:
        return parse_card(upcard).code
    except CardError as error:
        raise MatchError("upcard", error) from None


def read_cards(raw: object) -> dict | None:
    """The optional cards tapped in the card picker; replay ignores them.

    The knocker's side is read first, so a defender's card that the knocker
    holds too is refused on the defender's side, as the count page does.
    """
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise MatchError("cards", N_("must be an object with knocker and defender lists"))
    for side in raw:
        if side not in CARD_SIDES:
            raise MatchError(f"cards.{side}", N_("unknown side (knocker or defender)"))
    out: dict[str, list[str]] = {}
    knockers: frozenset[Card] = frozenset()
    for side in (side for side in CARD_SIDES if side in raw):
        cards = read_side(raw[side], f"cards.{side}", knockers)
        if side == "knocker":
            knockers = frozenset(cards)
        out[side] = [card.code for card in cards]
    return out


def read_side(codes: object, field: str, knockers: frozenset[Card]) -> list[Card]:
    if not isinstance(codes, list):
        raise MatchError(field, N_("must be a list of at most 11 cards"))
    try:
        return parse_cards(codes, MOST_HELD, knockers)
    except CardError as error:
        raise MatchError(field, error) from None
