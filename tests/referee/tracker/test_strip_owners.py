"""Whose each card of a fanned stack is, told by its strip's ink in the fan, card by card in the stack's order."""

from __future__ import annotations

from collections.abc import Sequence

from referee.cards import Card
from referee.centre import CentreCard, Stack
from referee.events import Placement
from referee.sightings import Quad
from referee.tracker.counting import CentreFan
from referee.tracker.strip_owners import Ink, owners_by_strips

RED: Ink = (180.0, 40.0, 15.0)
BLUE: Ink = (220.0, -25.0, -12.0)
INK = {"a": RED, "b": BLUE}


def _stack(id: int, cards: str, at: tuple[float, float] = (0.0, 0.0)) -> Stack:
    return Stack(id, tuple(CentreCard(Card.parse(c), placement=Placement(*at)) for c in cards.split()))


def _fan(at: tuple[float, float] = (0.0, 0.0)) -> CentreFan:
    return CentreFan((at, (at[0], at[1] + 14.0)), {}, quads=(((at[0], at[1]),) * 4,) * 2, card_mm=91.0)


def _reader(*fans: str):
    """A picture whose fans show these backs' inks from the whole card on, one string of owners per fan (in the
    order asked)."""
    shown = {i: [INK[owner] for owner in fan] for i, fan in enumerate(fans)}
    asked: list[int] = []

    def read(quads: Sequence[Quad], others: Sequence[Quad], card_mm: float, cards: int) -> list[Ink] | None:
        asked.append(cards)
        inks = shown.get(len(asked) - 1)
        return inks if inks is not None and len(inks) == cards else None

    return read


def test_a_strip_play_named_wrongly_is_named_by_its_ink_where_the_fan_agrees_with_play_elsewhere() -> None:
    stack = _stack(1, "g1 g2 g3 g4 g5 g6")
    owners = owners_by_strips([stack], [list("abaaba")], [_fan()], (), _reader("abaabb"))
    assert owners == [list("abaabb")]


def test_a_card_play_left_unnamed_is_named_by_its_ink() -> None:
    stack = _stack(1, "g1 g2 g3 g4 g5")
    owners = owners_by_strips([stack], [["a", "b", None, "a", "b"]], [_fan()], (), _reader("abbab"))
    assert owners == [list("abbab")]


def test_a_fan_whose_inks_disagree_with_play_names_nothing() -> None:
    # its strips read where they do not lie: two of five named cards nearest another player's ink
    stack = _stack(1, "g1 g2 g3 g4 g5 g6")
    owners = owners_by_strips([stack], [["a", "b", None, "a", "b", "a"]], [_fan()], (), _reader("abbbab"))
    assert owners == [["a", "b", None, "a", "b", "a"]]


def test_the_whole_card_keeps_the_owner_play_named() -> None:
    # other fans cross the whole card lying at the fan's end: its ink is the least sure
    stack = _stack(1, "g1 g2 g3 g4 g5 g6")
    owners = owners_by_strips([stack], [list("babbab")], [_fan()], (), _reader("aabbab"))
    assert owners == [list("babbab")]


def test_the_stacks_order_is_the_one_the_inks_agree_with_play_in() -> None:
    # fanned the other way: the whole card is the top card, g6
    stack = _stack(1, "g1 g2 g3 g4 g5 g6")
    owners = owners_by_strips([stack], [["a", "a", "b", None, "a", "b"]], [_fan()], (), _reader("babbaa"))
    assert owners == [list("aabbab")]


def test_a_player_whose_copy_of_the_card_is_named_on_another_stack_is_not_named_again() -> None:
    fanned, other = _stack(1, "y1 y2 y3 y4 y5"), _stack(2, "y1 y2 y3", at=(300.0, 0.0))
    owners = owners_by_strips(
        [fanned, other], [["a", "b", None, "a", "b"], ["a", "b", "b"]], [_fan()], (), _reader("abbab")
    )
    assert owners == [["a", "b", None, "a", "b"], ["a", "b", "b"]]


def test_two_stacks_spread_into_one_fan_are_not_read_card_by_card() -> None:
    first, second = _stack(1, "g1 g2 g3"), _stack(2, "r1 r2 r3", at=(0.0, 20.0))
    owners = owners_by_strips([first, second], [["a", None, "a"], ["b", "b", None]], [_fan()], (), _reader("aba"))
    assert owners == [["a", None, "a"], ["b", "b", None]]


def test_a_fan_the_picture_cannot_read_names_nothing() -> None:
    stack = _stack(1, "g1 g2 g3 g4")
    owners = owners_by_strips([stack], [["a", None, "b", "a"]], [_fan()], (), _reader())
    assert owners == [["a", None, "b", "a"]]
