"""The card vocabulary: notation round trip, JSON round trip, and clear errors for bad notation."""

from __future__ import annotations

import pytest

from referee.cards import FULL_SET, Card, Colour
from referee.errors import NotationError


@pytest.mark.parametrize("card", FULL_SET, ids=str)
def test_every_card_notation_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert eval(repr(card), {"Card": Card}) == card
    assert Card.from_json(card.to_json()) == card


def test_a_set_holds_forty_distinct_cards_ten_per_colour() -> None:
    assert len(set(FULL_SET)) == 40
    for colour in Colour:
        assert sorted(c.number for c in FULL_SET if c.colour is colour) == list(range(1, 11))


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("r7", Card(Colour.RED, 7)),
        ("Y10", Card(Colour.YELLOW, 10)),
        (" b 1 ", Card(Colour.BLUE, 1)),
        ("green 3", Card(Colour.GREEN, 3)),
        ("Blue10", Card(Colour.BLUE, 10)),
    ],
)
def test_notation_accepts_letters_words_and_spaces(text: str, card: Card) -> None:
    assert Card.parse(text) == card


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x4", "unknown card notation 'x4'"),
        ("r11", "unknown card notation 'r11'"),
        ("r0", "unknown card notation 'r0'"),
        ("7r", "unknown card notation '7r'"),
        ("", "unknown card notation ''"),
        ("purple 3", "unknown card notation 'purple 3'"),
    ],
)
def test_an_unknown_notation_names_the_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Card.parse(text)


@pytest.mark.parametrize(
    "data",
    [
        {"colour": "red"},
        {"colour": "red", "number": "5"},
        {"colour": "red", "number": True},
        {"colour": "pink", "number": 5},
        {"colour": "red", "number": 12},
        ["red", 5],
        None,
    ],
)
def test_a_malformed_json_card_is_a_notation_error(data: object) -> None:
    with pytest.raises(NotationError):
        Card.from_json(data)


@pytest.mark.parametrize(("card", "top", "follows"), [("r5", "r4", True), ("r6", "r4", False), ("y5", "r4", False)])
def test_follows_means_same_colour_next_number(card: str, top: str, follows: bool) -> None:
    assert Card.parse(card).follows(Card.parse(top)) is follows


def test_cards_sort_by_colour_then_number() -> None:
    assert sorted([Card.parse("r2"), Card.parse("r10"), Card.parse("b3")]) == [
        Card.parse("b3"),
        Card.parse("r2"),
        Card.parse("r10"),
    ]
