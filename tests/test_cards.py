"""The one card reader (models/game/cards.parse_cards) and the places that use it name what they refuse."""
import pytest

from models.game.cards import MOST_HELD, Card, CardError, parse_card, parse_cards
from models.game.entry import read_cards
from models.errors import MatchError
from models.game.meld_codes import MeldError, parse_hand, parse_meld


def test_codes_become_cards_in_their_order():
    assert parse_cards(["10H", "AS", "KD"]) == [Card(10, "H"), Card(1, "S"), Card(13, "D")]
    assert parse_cards([]) == []
    assert [card.face for card in parse_cards(["7H", "10S", "AD", "KC"])] == ["7♥", "10♠", "A♦", "K♣"]


@pytest.mark.parametrize("codes, most, knockers, reason", [
    (["7S", "ZZ"], None, (), "'ZZ' is not a card (rank A 2 ... 10 J Q K, then suit S H D C)"),
    (["7s"], None, (), "'7s' is not a card"),
    ([7], None, (), "a card is a string such as 7S, 10H, QD or AC"),
    (["7S", "8S", "7S"], None, (), "7S appears twice"),
    (["AS"] * 12, MOST_HELD, (), "at most 11 cards, not 12"),
    (["2C", "7H"], MOST_HELD, {Card(7, "H")}, "7H is in the knocker's hand too"),
])
def test_refusals_say_which_card_and_why(codes, most, knockers, reason):
    with pytest.raises(CardError) as caught:
        parse_cards(codes, most, knockers)
    assert str(caught.value).startswith(reason)


def test_the_count_is_checked_before_the_cards():
    """Twelve cards are too many whatever they are, so the count is what is said."""
    with pytest.raises(CardError, match="at most 11 cards, not 12"):
        parse_cards(["ZZ"] * 12, MOST_HELD)
    assert len(parse_cards([c + "S" for c in "A 2 3 4 5 6 7 8 9 10 J".split()], MOST_HELD)) == 11


def test_melds_read_cards_through_the_same_reader():
    for read in (parse_hand, parse_meld):
        with pytest.raises(MeldError, match="'ZZ' is not a card"):
            read(["ZZ", "7H", "8H"])
        with pytest.raises(MeldError, match="^7H appears twice$"):
            read(["7H", "7H", "8H"])
    assert parse_meld(["8H", "7H", "9H"]) == tuple(parse_cards(["7H", "8H", "9H"]))


@pytest.mark.parametrize("raw, field, reason", [
    ({"knocker": ["ZZ"]}, "cards.knocker", "'ZZ' is not a card"),
    ({"knocker": ["3S", "3S"]}, "cards.knocker", "3S appears twice"),
    ({"defender": ["AS"] * 12}, "cards.defender", "at most 11 cards, not 12"),
    # Either order in the file: the defender's side is the one that holds a card twice.
    ({"knocker": ["7H", "8H"], "defender": ["7H"]}, "cards.defender", "7H is in the knocker's hand too"),
    ({"defender": ["7H"], "knocker": ["7H", "8H"]}, "cards.defender", "7H is in the knocker's hand too"),
    ({"knocker": "7H 8H"}, "cards.knocker", "must be a list of at most 11 cards"),
    ({"dealer": []}, "cards.dealer", "unknown side"),
])
def test_a_stored_hands_cards_are_refused_with_the_side_named(raw, field, reason):
    with pytest.raises(MatchError) as caught:
        read_cards(raw)
    assert caught.value.field == field
    assert caught.value.reason.startswith(reason)


def test_a_stored_hands_cards_are_kept_as_codes():
    assert read_cards({"defender": ["10H"], "knocker": ["AS", "KD"]}) == {"knocker": ["AS", "KD"], "defender": ["10H"]}
    assert read_cards(None) is None
    assert parse_card("10H") == Card(10, "H")
