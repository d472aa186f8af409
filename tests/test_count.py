"""The knock advice of models/game/count.py, without Flask: statuses, counts, discards and their English words."""
import pytest

from models.game.cards import Card, parse_cards
from models.game.count import (BIG_GIN, COUNTED, GIN, INCOMPLETE, KNOCK, OVER, TOO_MANY, Deal, count_deal,
                               count_defender, count_knocker, count_onto, deal_limit, fixed_limit, upcard_limit)
from models.errors import Message
from models.game.rules import Rules

KNOCKER = "3S 4S 5S 7H 7D 7C 9H 10H JH 2C"   # 3-4-5S, 7s, 9-10-JH; deadwood 2C = 2
DEFENDER = "6S 2S QH 8H KD KC KS 4D 9C 5C"   # KKK; lays off 2S 6S 8H QH; deadwood 4D 5C 9C = 18
GIN_HAND = "AS 2S 3S 4S 5D 5H 5C JD QD KD"
TEN = fixed_limit(10)


def cards(text: str) -> list[Card]:
    return parse_cards(text.split())


def test_a_knock_within_the_limit():
    count = count_knocker(cards(KNOCKER), TEN)
    assert (count.status, count.count, count.discard) == (KNOCK, 2, None)
    assert count.knocks and not count.gin
    assert count.arrangement.deadwood == tuple(cards("2C"))
    assert str(count.text) == "May knock with 2 (within the knock limit 10)."
    # The words stay a template with blanks until the web layer translates them.
    assert count.text.template == "May knock with {points} (within {limit})."
    assert count.text.params["limit"] == Message("the knock limit {limit}", limit=10)


def test_over_the_limit_may_not_knock():
    count = count_knocker(cards(KNOCKER), fixed_limit(1))
    assert (count.status, count.count) == (OVER, 2)
    assert count.knocks  # the defender still lays off: the count is what the table sees
    assert str(count.text) == "Cannot knock: 2 is over the knock limit 1."


def test_gin_and_big_gin():
    gin = count_knocker(cards(GIN_HAND), TEN)
    assert (gin.status, gin.count, gin.gin, gin.knocks) == (GIN, 0, True, False)
    assert str(gin.text) == "Gin: all 10 cards melded (no lay-offs)."
    big = count_knocker(cards(GIN_HAND + " 10D"), TEN)
    assert (big.status, big.count, big.discard) == (BIG_GIN, 0, None)
    assert str(big.text) == "Big gin: all 11 cards melded (no lay-offs)."


def test_eleven_cards_advise_the_discard_leaving_least_deadwood():
    count = count_knocker(cards("2S 3S 4S 5D 5H 5C JD QD KD 3C KH"), TEN)
    assert count.discard == Card(13, "H")
    assert (count.status, count.count) == (KNOCK, 3)
    assert count.arrangement.deadwood == tuple(cards("3C"))
    assert str(count.text) == "Discard K♥: May knock with 3 (within the knock limit 10)."
    # Eleven cards, one of which spoils gin: the discard makes it gin, not big gin.
    gin = count_knocker(cards(GIN_HAND + " KH"), TEN)
    assert (gin.status, gin.discard, gin.count) == (GIN, Card(13, "H"), 0)
    assert str(gin.text) == "Discard K♥: Gin: all 10 cards melded (no lay-offs)."


def test_fewer_than_ten_cards_are_not_yet_advice():
    count = count_knocker(cards(KNOCKER)[:1], TEN)
    assert (count.status, count.count) == (INCOMPLETE, None)
    assert str(count.text) == "1 of 10 cards tapped."
    assert str(count_knocker(cards(KNOCKER)[:7], TEN).text) == "7 of 10 cards tapped."


@pytest.mark.parametrize("upcard, points, words", [
    ("3H", 3, "the Oklahoma limit 3 (upcard 3♥)"),
    ("KS", 10, "the Oklahoma limit 10 (upcard K♠)"),
    ("AD", 0, "the Oklahoma limit 0 (upcard A♦, an ace: gin only)"),
])
def test_the_oklahoma_upcard_sets_the_limit(upcard, points, words):
    limit = upcard_limit(Card(*{"3H": (3, "H"), "KS": (13, "S"), "AD": (1, "D")}[upcard]))
    assert (limit.points, str(limit.phrase)) == (points, words)
    assert deal_limit(Rules(oklahoma=True), parse_cards([upcard])[0]) == limit


def test_an_oklahoma_ace_means_gin_only():
    limit = upcard_limit(Card(1, "D"))
    hand = cards("AS 2S 3S 7D 8D 9D KC KH KS 4C")  # deadwood 4
    count = count_knocker(hand, limit)
    assert (count.status, count.count) == (OVER, 4)
    assert str(count.text) == "Cannot knock: 4 is over the Oklahoma limit 0 (upcard A♦, an ace: gin only)."
    assert count_knocker(cards(GIN_HAND), limit).status == GIN


def test_the_rules_limit_without_oklahoma_or_without_an_upcard():
    assert deal_limit(Rules(knock_limit=7), Card(3, "H")) == fixed_limit(7)
    assert deal_limit(Rules(oklahoma=True), None) == fixed_limit(Rules(oklahoma=True).knock_limit)


def test_the_defender_lays_off_after_a_knock_only():
    knock = count_knocker(cards(KNOCKER), TEN)
    defender = count_defender(cards(DEFENDER), knock)
    assert (defender.status, defender.count) == (COUNTED, 18)
    assert defender.arrangement.laid_off == tuple(sorted(cards("2S 6S 8H QH")))
    assert defender.onto == knock.arrangement.melds
    assert str(defender.text) == "Deadwood 18 after laying off 4 cards."
    alone = count_defender(cards(DEFENDER), None)
    assert (alone.count, alone.onto, str(alone.text)) == (44, (), "Deadwood 44.")
    after_gin = count_defender(cards("6S QH 8H KC KH KS 4D 9C 6C 7C"), count_knocker(cards(GIN_HAND), TEN))
    assert (after_gin.count, after_gin.arrangement.laid_off) == (50, ())


def test_one_card_laid_off_is_said_in_the_singular():
    count = count_onto(cards("6H KC KD KS 2C 3D 4S 8C 9D JS"), [tuple(cards("3H 4H 5H"))])
    assert count.arrangement.laid_off == tuple(cards("6H"))
    assert str(count.text) == f"Deadwood {count.count} after laying off 1 card."


def test_a_defender_holds_ten():
    assert count_onto(cards(DEFENDER)[:9], ()).status == INCOMPLETE
    over = count_onto(cards(DEFENDER + " AH"), ())
    assert (over.status, over.count, str(over.text)) == (TOO_MANY, None, "The defender holds 10 cards; untap one.")


def test_a_deal_says_what_the_hand_form_takes():
    deal = count_deal(Rules(), None, cards(KNOCKER), cards(DEFENDER))
    assert deal.entry() == {"knocker_deadwood": 2, "opponent_deadwood": 18}
    big = count_deal(Rules(), None, cards(GIN_HAND + " 10D"), None)
    assert big.defender is None and big.entry() == {"knocker_deadwood": 0, "big_gin": True}
    assert count_deal(Rules(), None, cards(KNOCKER)[:5], cards(DEFENDER)).entry() == {"opponent_deadwood": 44}
    assert Deal(TEN, None, None).entry() == {}


def test_to_dict_is_codes_and_the_words_given():
    body = count_knocker(cards(GIN_HAND + " KH"), TEN).to_dict(lambda message: message.template.upper())
    assert body == {"melds": [["AS", "2S", "3S", "4S"], ["5C", "5D", "5H"], ["JD", "QD", "KD"]], "laid_off": [],
                    "deadwood": [], "points": 0, "status": GIN, "text": "DISCARD {CARD}: {THEN}", "count": 0,
                    "discard": "KH", "onto": []}


def test_an_oklahoma_ace_knocks_with_one_when_the_table_says_so():
    rules = Rules(oklahoma=True, oklahoma_ace="one")
    limit = deal_limit(rules, Card(1, "D"))
    assert (limit.points, str(limit.phrase)) == (1, "the Oklahoma limit 1 (upcard A♦)")
    # without a match's rules (the card picker's own count) the ace is gin only
    assert upcard_limit(Card(1, "D")).points == 0
