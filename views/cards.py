"""Counting cards: the card grid (a plain GET form) and the JSON it asks on each tap.

The arranging is models/melds.py; this module only reads the taps, adds the
knock rules (limit, gin, big gin) and words the answer, the same words for the
page and for the JSON, so the page script never counts anything itself.
"""
from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, jsonify, render_template, request, url_for
from flask_babel import gettext, lazy_gettext, ngettext

from forms import UPCARDS
from models.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, CardError, parse_card
from i18n import translated
from models.errors import N_, MatchError
from models.hand import knock_limit, other
from models.melds import Arrangement, MeldError, best_after_layoffs, best_arrangement, parse_meld
from models.rules import Rules

from .common import match_or_404

bp = Blueprint("cards", __name__)

HAND_SIZE = 10
MAX_CARDS = 11  # the knocker may hold 11 for big gin
RANK_WORDS = {"A": lazy_gettext("ace"), "J": lazy_gettext("jack"), "Q": lazy_gettext("queen"),
              "K": lazy_gettext("king")}
SUIT_WORDS = {"spades": lazy_gettext("spades"), "hearts": lazy_gettext("hearts"),
              "diamonds": lazy_gettext("diamonds"), "clubs": lazy_gettext("clubs")}
OKLAHOMA = Rules(oklahoma=True)


# --------------------------------------------------------------------------
# Reading the taps
# --------------------------------------------------------------------------

def codes_from(values: list[str]) -> list[str]:
    """Repeated parameters, each of which may also hold several codes split by spaces."""
    return [code for value in values for code in value.split()]


def read_cards(codes: list[str], field: str, limit: int = MAX_CARDS,
               taken: frozenset[Card] = frozenset(), taken_by: str = "") -> list[Card]:
    """Card codes to Cards; a refusal names the field (k, d, cards) and the card."""
    if len(codes) > limit:
        raise MatchError(field, N_("at most {limit} cards, not {count}"), limit=limit, count=len(codes))
    cards: list[Card] = []
    for code in codes:
        try:
            card = parse_card(code)
        except CardError as error:
            raise MatchError(field, error) from None
        if card in cards:
            raise MatchError(field, N_("{code} appears twice"), code=card.code)
        if card in taken:
            raise MatchError(field, N_("{card} is in the knocker's hand too"), card=card.code)
        cards.append(card)
    return cards


def read_limit(text: str | None) -> int | None:
    if text is None or text == "":
        return None
    if not text.isdigit() or not 0 <= int(text) <= 10:
        raise MatchError("limit", N_("must be a whole number from 0 to 10, not {text!r}"), text=text)
    return int(text)


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


# --------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Count:
    """One side's cards counted: the arrangement shown, the status and the number to enter."""

    arrangement: Arrangement
    status: str            # incomplete, too_many, gin, big_gin, knock, over, counted
    text: str
    count: int | None      # the deadwood to enter, None until the hand is complete
    discard: Card | None = None
    onto: tuple = ()       # the knocker's melds the defender laid off onto

    def to_dict(self) -> dict:
        out = self.arrangement.to_dict()
        out.update(status=self.status, text=self.text, count=self.count,
                   discard=self.discard.code if self.discard else None,
                   onto=[[card.code for card in meld] for meld in self.onto])
        return out

    @property
    def gin(self) -> bool:
        return self.status in ("gin", "big_gin")

    @property
    def knocks(self) -> bool:
        """A complete knocker's hand that is not gin: the defender may lay off onto it."""
        return self.status in ("knock", "over")


def face(card: Card) -> str:
    return card.code[:-1] + SUIT_SYMBOLS[card.suit]


def limit_phrase(rules: Rules, upcard: str | None) -> tuple[int, str]:
    """The deal's knock limit and how to name it (Oklahoma: from the upcard)."""
    if rules.oklahoma and upcard is not None:
        return upcard_limit(parse_card(upcard))
    limit = knock_limit(rules, None)
    return limit, gettext("the knock limit %(limit)s", limit=limit)


def upcard_limit(upcard: Card) -> tuple[int, str]:
    """Oklahoma: the upcard's value is the limit, an ace means gin only (as models/hand.py)."""
    limit = knock_limit(OKLAHOMA, upcard.code)
    if limit == 0:
        return 0, gettext("the Oklahoma limit 0 (upcard %(upcard)s, an ace: gin only)", upcard=face(upcard))
    return limit, gettext("the Oklahoma limit %(limit)s (upcard %(upcard)s)", limit=limit, upcard=face(upcard))


def best_discard(cards: list[Card]) -> tuple[Card, Arrangement]:
    """With 11 cards the knocker discards one: the discard leaving the least deadwood."""
    best: tuple[Card, Arrangement] | None = None
    for card in sorted(cards, key=lambda c: (-c.value, c)):  # ties: throw the higher card
        arrangement = best_arrangement([c for c in cards if c != card])
        if best is None or arrangement.points < best[1].points:
            best = (card, arrangement)
    return best


def count_knocker(cards: list[Card], limit: int, phrase: str) -> Count:
    arrangement = best_arrangement(cards)
    if len(cards) < HAND_SIZE:
        return Count(arrangement, "incomplete", tapped(len(cards)), None)
    if len(cards) == MAX_CARDS and arrangement.points == 0:
        return Count(arrangement, "big_gin", gettext("Big gin: all 11 cards melded (no lay-offs)."), 0)
    discard = None
    if len(cards) == MAX_CARDS:
        discard, arrangement = best_discard(cards)
    points = arrangement.points
    if points == 0:
        status, text = "gin", gettext("Gin: all 10 cards melded (no lay-offs).")
    elif points <= limit:
        status, text = "knock", gettext("May knock with %(points)s (within %(limit)s).", points=points, limit=phrase)
    else:
        status, text = "over", gettext("Cannot knock: %(points)s is over %(limit)s.", points=points, limit=phrase)
    if discard is not None:
        text = gettext("Discard %(card)s: %(then)s", card=face(discard), then=text)
    return Count(arrangement, status, text, points, discard)


def tapped(count: int) -> str:
    return ngettext("%(num)d of 10 cards tapped.", "%(num)d of 10 cards tapped.", count)


def count_defender(cards: list[Card], knocker: Count | None) -> Count:
    """After a knock the defender lays off onto the knocker's melds; never after gin."""
    onto = tuple(knocker.arrangement.melds) if knocker and knocker.knocks else ()
    arrangement = best_after_layoffs(cards, onto) if onto else best_arrangement(cards)
    return defender_count(arrangement, len(cards), onto)


def defender_count(arrangement: Arrangement, size: int, onto: tuple) -> Count:
    if size < HAND_SIZE:
        return Count(arrangement, "incomplete", tapped(size), None, onto=onto)
    if size > HAND_SIZE:
        return Count(arrangement, "too_many", gettext("The defender holds 10 cards; untap one."), None, onto=onto)
    points = arrangement.points
    if onto:
        laid = len(arrangement.laid_off)
        text = ngettext("Deadwood %(points)s after laying off %(num)d card.",
                        "Deadwood %(points)s after laying off %(num)d cards.", laid, points=points)
    else:
        text = gettext("Deadwood %(points)s.", points=points)
    return Count(arrangement, "counted", text, points, onto=onto)


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


@bp.app_template_global("card_face")
def _card_face(code: str) -> dict | None:
    return card_face(code)


def use_url(match_id: int, knocker: str | None, upcard: str | None, k_cards, d_cards,
            k_count: Count | None, d_count: Count | None) -> str:
    """The match page with the hand form filled from the counts."""
    args: dict = {}
    if knocker:
        args["knocker"] = knocker
    if k_count and k_count.count is not None:
        args["knocker_deadwood"] = k_count.count
        if k_count.status == "big_gin":
            args["big_gin"] = "y"
    if d_count and d_count.count is not None:
        args["opponent_deadwood"] = d_count.count
    if upcard:
        args["upcard"] = upcard
    if k_cards:
        args["cards_knocker"] = " ".join(card.code for card in k_cards)
    if d_cards:
        args["cards_defender"] = " ".join(card.code for card in d_cards)
    return url_for("matches.show", match_id=match_id, **args) + "#hand-form"


@bp.get("/matches/<int:match_id>/count")
def count(match_id: int):
    stored = match_or_404(match_id)
    match = stored.match
    knocker = request.args.get("knocker")
    knocker = knocker if knocker in match.players else None
    errors: list[MatchError] = []
    upcard = request.args.get("upcard") or None
    if upcard is not None:
        try:
            upcard = parse_card(upcard).code
        except CardError as error:
            errors.append(MatchError("upcard", error))
            upcard = None
    if not match.rules.oklahoma:
        upcard = None
    k_codes, d_codes = codes_from(request.args.getlist("k")), codes_from(request.args.getlist("d"))
    k_cards = d_cards = None
    try:
        k_cards = read_cards(k_codes, "k")
    except MatchError as error:
        errors.append(error)
    try:
        d_cards = read_cards(d_codes, "d", taken=frozenset(k_cards or ()), taken_by="knocker")
    except MatchError as error:
        errors.append(error)
    limit, phrase = limit_phrase(match.rules, upcard)
    k_count = count_knocker(k_cards, limit, phrase) if k_cards is not None else None
    d_count = count_defender(d_cards, k_count) if d_cards is not None else None
    return render_template(
        "count.html", stored=stored, match=match, sheet=stored.sheet(),
        knocker=knocker, defender=other(match.players, knocker) if knocker else None,
        upcard=upcard, upcards=UPCARDS, errors=errors, ranks=RANKS, suits=SUITS,
        k_codes=[c.code for c in k_cards or ()], d_codes=[c.code for c in d_cards or ()],
        k_count=k_count, d_count=d_count, limit=limit,
        use_url=use_url(match_id, knocker, upcard, k_cards or (), d_cards or (), k_count, d_count),
    ), 400 if errors else 200


# --------------------------------------------------------------------------
# The JSON the page script asks on each tap
# --------------------------------------------------------------------------

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
        if upcard is not None:
            result = count_knocker(cards, *upcard_limit(upcard))
        elif limit is not None:
            result = count_knocker(cards, limit, gettext("the knock limit %(limit)s", limit=limit))
        else:
            arrangement = best_after_layoffs(cards, onto) if onto else best_arrangement(cards)
            result = defender_count(arrangement, len(cards), tuple(onto))
    except MeldError as error:
        return jsonify(error=gettext("%(field)s: %(reason)s", field="onto", reason=translated(error))), 400
    except MatchError as error:
        return jsonify(error=translated(error)), 400
    return jsonify(result.to_dict())
