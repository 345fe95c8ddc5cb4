"""Whose the cards are that were played from a seat whose owner nobody read: told by the fans they lie in."""

from __future__ import annotations

from referee.cards import Card
from referee.centre import CentreCard, Stack
from referee.events import Placement
from referee.tracker.counting import CentreFan
from referee.tracker.owners import seat_name
from referee.tracker.seat_backs import name_seats, renamed

WEST, EAST = seat_name(4), seat_name(5)
"""Two seats beyond the picture's edges, their owners unknown."""
UNOWNED = ("red-pink", "blue-orange")
"""The players no read seat owns."""


def _stack(id: int, cards: str, x: float) -> Stack:
    return Stack(id, tuple(CentreCard(Card.parse(c), placement=Placement(x, 0.0)) for c in cards.split()))


def _fan(x: float, **backs: int) -> CentreFan:
    """A fan laid from (``x``, 0) along +y, a card every 14 mm, reading ``backs`` (underscores for dashes)."""
    n = sum(backs.values())
    return CentreFan(tuple((x, 14.0 * i) for i in range(n)), {b.replace("_", "-"): k for b, k in backs.items()})


STACKS = [_stack(1, "r1 r2 r3 r4", 0.0), _stack(2, "g1 g2 g3 g4", 300.0)]
MIXED = [["red-red", WEST, WEST, EAST], ["blue-blue", EAST, EAST, WEST]]
"""Play's names: one card each of red-red's and blue-blue's, the rest from the two seats cut off."""
WEST_PINK_EAST_ORANGE = [
    ["red-red", "red-pink", "red-pink", "blue-orange"],
    ["blue-blue", "blue-orange", "blue-orange", "red-pink"],
]


def test_each_seats_cards_are_the_player_whose_back_their_fans_read_beyond_the_cards_play_named() -> None:
    fans = [_fan(0.0, red_red=1, red_pink=2, blue_orange=1), _fan(300.0, blue_blue=1, blue_orange=2, red_pink=1)]
    assert renamed(MIXED, name_seats(STACKS, MIXED, fans, UNOWNED)) == WEST_PINK_EAST_ORANGE


def test_reads_of_backs_play_named_or_a_read_seat_owns_name_no_seat() -> None:
    # the fans read only red-red beyond play: a read seat's misread, not the unread seats' backs
    owners = [["red-red", WEST, WEST, None], ["blue-blue", EAST, EAST, None]]
    fans = [_fan(0.0, red_red=4), _fan(300.0, blue_blue=2, red_red=2)]
    assert renamed(owners, name_seats(STACKS, owners, fans, UNOWNED)) == [
        ["red-red", None, None, None],
        ["blue-blue", None, None, None],
    ]


def test_a_seat_whose_cards_hold_under_one_cards_worth_of_any_unowned_back_stays_unnamed() -> None:
    # west's one card shares its fan's red-pink and blue-orange reads with a card play did not name: half of each
    owners = [["red-red", "red-red", WEST, None], ["blue-blue", "blue-blue", EAST, EAST]]
    fans = [_fan(0.0, red_red=2, red_pink=1, blue_orange=1), _fan(300.0, blue_blue=2, blue_orange=2)]
    named = renamed(owners, name_seats(STACKS, owners, fans, (*UNOWNED, "red-black")))
    assert named == [["red-red", "red-red", None, None], ["blue-blue", "blue-blue", "blue-orange", "blue-orange"]]


def test_the_last_seat_left_is_the_last_unowned_player_left_though_its_back_was_never_read() -> None:
    # the blue-orange strips were all read as another back: east, the one seat left, is the one player left
    fans = [_fan(0.0, red_red=1, red_pink=2, blue_green=1), _fan(300.0, blue_blue=1, blue_green=2, red_pink=1)]
    assert renamed(MIXED, name_seats(STACKS, MIXED, fans, UNOWNED)) == WEST_PINK_EAST_ORANGE
    # with a third player unowned, who the seat left is stays unknown
    assert renamed(MIXED, name_seats(STACKS, MIXED, fans, (*UNOWNED, "red-black")))[0][3] is None
