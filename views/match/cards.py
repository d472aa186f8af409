"""Counting cards: the card grid (a plain GET form), its JSON, and "Use these counts".

The view only reads the taps, asks the engine (models/game/count.py: the knock
advice; models/game/melds.py: the arranging) and shows or sends the answer in the
page's language, the same words for the page and the JSON, so the page
script never counts or decides anything itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext, lazy_gettext

from .forms import UPCARDS
from views.site.i18n import render, translated
from models.game.cards import (MOST_HELD, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, CardError, parse_card,
                               parse_cards)
from models.game.digits import read_count
from models.game.count import Deal, count_deal, count_knocker, count_onto, fixed_limit, upcard_limit
from models.errors import N_, MatchError
from models.game.hand import other
from models.game.meld_codes import MeldError, parse_meld

from .deals import carried, next_boards
from .match_page import is_table, match_or_404

bp = Blueprint("cards", __name__)

RANK_WORDS = {"A": lazy_gettext("ace"), "J": lazy_gettext("jack"), "Q": lazy_gettext("queen"),
              "K": lazy_gettext("king")}
SUIT_WORDS = {"spades": lazy_gettext("spades"), "hearts": lazy_gettext("hearts"),
              "diamonds": lazy_gettext("diamonds"), "clubs": lazy_gettext("clubs")}


# --------------------------------------------------------------------------
# Reading the taps
# --------------------------------------------------------------------------

def codes_from(values: list[str]) -> list[str]:
    """Repeated parameters, each of which may also hold several codes split by spaces."""
    return [code for value in values for code in value.split()]


def read_cards(codes: list[str], field: str, knockers: frozenset[Card] = frozenset()) -> list[Card]:
    """Card codes to Cards (models/game/cards.parse_cards); a refusal names the field (k, d, cards)."""
    try:
        return parse_cards(codes, MOST_HELD, knockers)
    except CardError as error:
        raise MatchError(field, error) from None


def read_limit(text: str | None) -> int | None:
    if text is None or text == "":
        return None
    limit = read_count(text, 2)
    if limit is None or not 0 <= limit <= 10:
        raise MatchError("limit", N_("must be a whole number from 0 to 10, not {text!r}"), text=text[:20])
    return limit


def read_upcard(text: str | None) -> Card | None:
    if not text:
        return None
    try:
        return parse_card(text)
    except CardError as error:
        raise MatchError("upcard", error) from None


def read_onto(values: list[str]) -> list[tuple[Card, ...]]:
    melds = []
    for value in values:
        try:
            melds.append(parse_meld(value.split()))
        except MeldError as error:
            raise MatchError("onto", error) from None
    return melds


@dataclass
class Taps:
    """The count form as sent: who knocked, the upcard, each side's cards (None where refused)."""

    knocker: str | None
    upcard: Card | None
    k: list[Card] | None
    d: list[Card] | None
    errors: list[MatchError]


def read_taps(players: tuple[str, str], oklahoma: bool) -> Taps:
    """Every field read on its own, so one bad field is named and the others still count."""
    errors: list[MatchError] = []

    def attempt(read, *args):
        try:
            return read(*args)
        except MatchError as error:
            errors.append(error)
            return None

    knocker = request.args.get("knocker")
    upcard = attempt(read_upcard, request.args.get("upcard"))
    k = attempt(read_cards, codes_from(request.args.getlist("k")), "k")
    d = attempt(read_cards, codes_from(request.args.getlist("d")), "d", frozenset(k or ()))
    return Taps(knocker if knocker in players else None, upcard if oklahoma else None, k, d, errors)


def board_of(stored) -> dict | None:
    """A table's board of the next deal that the grid counts (?board=N, else the first): its number and its
    two players, as the deal form names them (views/match/deals.py); None for a match of two."""
    if not is_table(stored):
        return None
    sheet = stored.sheet() if stored.refusal is None else None
    boards = next_boards(stored, sheet) if sheet is not None and not sheet.finished else []
    text = request.args.get("board") or "1"
    number = read_count(text, 1)
    if number is None or not 1 <= number <= len(boards):
        abort(400, description=gettext("board: the next deal has no board %(board)s.", board=text[:20]))
    return boards[number - 1]


def counted(match_id: int):
    """The stored match, the board counted (a table's), the taps and their count: what the page, its JSON
    and "Use" all start from."""
    stored = match_or_404(match_id)
    board = board_of(stored)
    taps = read_taps(board["players"] if board else stored.match.players, stored.match.rules.oklahoma)
    return stored, board, taps, count_deal(stored.match.rules, taps.upcard, taps.k, taps.d)


# --------------------------------------------------------------------------
# The no-script page
# --------------------------------------------------------------------------

def card_face(code: str) -> dict | None:
    """What a template needs to draw a card: rank, symbol, suit class, spoken name."""
    try:
        card = parse_card(code)
    except CardError:
        return None
    rank = card.code[:-1]
    suit = str(SUIT_WORDS[SUIT_NAMES[card.suit]])
    return {"code": card.code, "rank": rank, "symbol": SUIT_SYMBOLS[card.suit], "suit": card.suit.lower(),
            "suit_name": suit, "label": gettext("%(rank)s of %(suit)s", rank=RANK_WORDS.get(rank, rank), suit=suit)}



def use_url(match_id: int, taps: Taps, deal: Deal) -> str:
    """The match page with the hand form filled from the counts (matches.prefilled_form reads it)."""
    args: dict = {"knocker": taps.knocker}
    args.update(deal.entry())
    if args.pop("big_gin", False):
        args["big_gin"] = "y"
    args["upcard"] = taps.upcard.code if taps.upcard else None
    args["cards_knocker"] = " ".join(card.code for card in taps.k or ()) or None
    args["cards_defender"] = " ".join(card.code for card in taps.d or ()) or None
    return url_for("matches.show", match_id=match_id, **{k: v for k, v in args.items() if v is not None}) + "#hand-form"


def board_use_url(match_id: int, board: dict, taps: Taps, deal: Deal) -> str:
    """The table's page with the deal form as it was sent to the grid, board N's knocker, result and
    deadwoods from the counts (what is not counted yet stays as typed), the other board's untouched."""
    p = f"b{board['number']}_"
    args = carried(request.args)
    entry = deal.entry()
    if taps.knocker:
        args[p + "knocker"] = taps.knocker
    if "knocker_deadwood" in entry:
        points = entry["knocker_deadwood"]
        args[p + "result"] = "big_gin" if entry.get("big_gin") else "gin" if points == 0 else "knock"
        args[p + "kd"] = str(points)
    if "opponent_deadwood" in entry:
        args[p + "od"] = str(entry["opponent_deadwood"])
    if taps.upcard:
        args[p + "upcard"] = taps.upcard.code
    return url_for("matches.show", match_id=match_id, **args) + "#deal-form"


def show_count(stored, board: dict | None, taps: Taps, deal: Deal):
    """The grid with both sides counted; 400 when a field was refused (it is named above the grid).
    A table's names its board's two players and carries the deal form's entries through the round trip."""
    match = stored.match
    players = board["players"] if board else match.players
    return render_template(
        "count.html", stored=stored, match=match, sheet=stored.sheet(), players=players, board=board,
        entries=carried(request.args) if board else {},
        knocker=taps.knocker, defender=other(players, taps.knocker) if taps.knocker else None,
        upcard=taps.upcard.code if taps.upcard else None, upcards=UPCARDS, errors=taps.errors,
        ranks=RANKS, suits=SUITS, k_codes=[c.code for c in taps.k or ()], d_codes=[c.code for c in taps.d or ()],
        k_count=deal.knocker, d_count=deal.defender,
        k_text=render(deal.knocker.text) if deal.knocker else "",
        d_text=render(deal.defender.text) if deal.defender else "",
    ), 400 if taps.errors else 200


@bp.get("/matches/<int:match_id>/count")
def count(match_id: int):
    return show_count(*counted(match_id))


@bp.get("/matches/<int:match_id>/count/use")
def use(match_id: int):
    """"Use these counts": the count form sent here, counted again, and on to the hand form, or a table's
    deal form (303)."""
    stored, board, taps, deal = counted(match_id)
    if taps.errors:
        return show_count(stored, board, taps, deal)
    if board:
        return redirect(board_use_url(match_id, board, taps, deal), 303)
    return redirect(use_url(match_id, taps, deal), 303)


# --------------------------------------------------------------------------
# The JSON the page script asks on each tap
# --------------------------------------------------------------------------

@bp.get("/matches/<int:match_id>/count.json")
def count_json(match_id: int):
    """The count form's query, both sides counted and worded: all the page script shows."""
    _, _, taps, deal = counted(match_id)
    if taps.errors:
        return jsonify(error="; ".join(translated(error) for error in taps.errors)), 400
    return jsonify(k=deal.knocker.to_dict(render), d=deal.defender.to_dict(render))


@bp.get("/api/arrange")
def arrange():
    """?cards=..&cards=..[&onto=4H+5H+6H ...][&limit=N | &upcard=7H]: the arrangement and a status.

    With `limit` (or an Oklahoma `upcard`, which sets the limit) the cards are
    a knocker's: gin, big gin, may knock, cannot knock.  Otherwise they are
    counted as a defender's, laying off onto the `onto` melds if any.
    """
    try:
        limit = read_limit(request.args.get("limit"))
        upcard = read_upcard(request.args.get("upcard"))
        onto = read_onto(request.args.getlist("onto"))
        if limit is not None and upcard is not None:
            raise MatchError("upcard", N_("send limit or an Oklahoma upcard, not both"))
        if (limit is not None or upcard is not None) and onto:
            raise MatchError("onto", N_("a knocker does not lay off; send limit (or upcard) or onto, not both"))
        cards = read_cards(codes_from(request.args.getlist("cards")), "cards")
        if upcard is not None or limit is not None:
            result = count_knocker(cards, upcard_limit(upcard) if upcard else fixed_limit(limit))
        else:
            result = count_onto(cards, onto)
    except MeldError as error:
        return jsonify(error=gettext("%(field)s: %(reason)s", field="onto", reason=translated(error))), 400
    except MatchError as error:
        return jsonify(error=translated(error)), 400
    return jsonify(result.to_dict(render))
