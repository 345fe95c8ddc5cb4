"""Whose the centre cards are that play left unnamed: told by the backs read on the fan their stack was spread into."""

from __future__ import annotations

from referee.cards import Card
from referee.centre import CentreCard, Stack
from referee.events import Placement
from referee.tracker.counting import CentreFan
from referee.tracker.fan_owners import owners_by_fans

PLAYERS = ("red-red", "red-light-blue")


def _stack(id: int, cards: str, at: tuple[float, float]) -> Stack:
    return Stack(id, tuple(CentreCard(Card.parse(c), placement=Placement(*at)) for c in cards.split()))


def _fan(at: tuple[float, float], **backs: int) -> CentreFan:
    """A fan laid from ``at`` along +y, a card every 14 mm, reading ``backs`` (underscores for dashes)."""
    n = sum(backs.values())
    return CentreFan(
        tuple((at[0], at[1] + 14.0 * i) for i in range(n)), {b.replace("_", "-"): k for b, k in backs.items()}
    )


def test_a_fan_reading_more_of_one_back_than_play_named_in_its_stack_names_the_unnamed_cards_that_back() -> None:
    stack = _stack(1, "g1 g2 g3 g4", (0.0, 0.0))
    owners = owners_by_fans(
        [stack], [["red-red", None, "red-light-blue", None]], [_fan((0, 0), red_red=3, red_light_blue=1)], PLAYERS
    )
    assert owners == [["red-red", "red-red", "red-light-blue", "red-red"]]


def test_a_fan_names_no_more_cards_than_it_reads_beyond_play() -> None:
    stack = _stack(1, "g1 g2 g3", (0.0, 0.0))
    owners = owners_by_fans([stack], [["red-red", None, None]], [_fan((0, 0), red_red=2)], PLAYERS)
    assert owners == [["red-red", "red-red", None]]


def test_a_fan_reading_more_than_play_of_two_backs_names_nothing() -> None:
    stack = _stack(1, "g1 g2 g3", (0.0, 0.0))
    owners = owners_by_fans([stack], [["red-red", None, None]], [_fan((0, 0), red_red=2, red_light_blue=1)], PLAYERS)
    assert owners == [["red-red", None, None]]


def test_a_player_whose_copy_of_the_card_is_named_on_another_stack_is_not_named_again() -> None:
    # red-red's y1 started stack 2; the unnamed y1 of stack 1 cannot be red-red's too
    first, second = _stack(1, "y1 y2", (0.0, 0.0)), _stack(2, "y1", (300.0, 0.0))
    owners = owners_by_fans(
        [first, second],
        [[None, "red-light-blue"], ["red-red"]],
        [_fan((0, 0), red_red=1, red_light_blue=1), _fan((300, 0), red_red=1)],
        PLAYERS,
    )
    assert owners == [[None, "red-light-blue"], ["red-red"]]


def test_a_fan_lying_away_from_where_the_stack_lay_names_nothing() -> None:
    # handed back before a seat, 200 mm from the stack's place
    stack = _stack(1, "g1 g2", (0.0, 0.0))
    owners = owners_by_fans([stack], [["red-red", None]], [_fan((0, 200), red_red=2)], PLAYERS)
    assert owners == [["red-red", None]]


def test_stacks_fanned_into_one_fan_are_read_together() -> None:
    # two stacks' fans touching read as one fan: the backs beyond play are shared by both stacks' unnamed cards
    first, second = _stack(1, "b1 b2", (0.0, 0.0)), _stack(2, "r1", (0.0, 40.0))
    owners = owners_by_fans(
        [first, second], [["red-red", None], [None]], [_fan((0, 0), red_red=1, red_light_blue=2)], PLAYERS
    )
    assert owners == [["red-red", "red-light-blue"], ["red-light-blue"]]


def test_without_the_players_or_the_fans_nothing_is_named() -> None:
    stack = _stack(1, "g1 g2", (0.0, 0.0))
    assert owners_by_fans([stack], [["red-red", None]], [_fan((0, 0), red_red=2)], ()) == [["red-red", None]]
    assert owners_by_fans([stack], [["red-red", None]], [], PLAYERS) == [["red-red", None]]
