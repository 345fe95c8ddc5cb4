"""Each landing's arm goes to the referee once the frames after it are in, on the table plane."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import Card
from referee.events import CardPlayed, Event, Placement, StackStarted
from referee.session_arms import ARM_AFTER_S, LandingArms
from referee.tracker.rivals import RIVAL_TOLD_S, ArmEnd
from vision.change import ChangeClock
from vision.geometry import TableGeometry

# image pixels are table millimetres, the picture's middle the table's
GEOMETRY = TableGeometry(np.array([[1.0, 0.0, -640.0], [0.0, 1.0, -360.0], [0.0, 0.0, 1.0]]))
FPS = 30.0


class Told:
    """Stands in for the referee: what it was told."""

    def __init__(self) -> None:
        self.arms: list[tuple[Card, float, tuple[float, float], list[tuple[float, float]]]] = []
        self.rivals: list[tuple[CardPlayed, list[list[ArmEnd]]]] = []

    def see_arms(self, card: Card, t: float, at: tuple[float, float], towards: list[tuple[float, float]]) -> None:
        self.arms.append((card, t, at, list(towards)))

    def see_rivals(self, landing: CardPlayed, frames: list[list[ArmEnd]]) -> list[Event]:
        self.rivals.append((landing, [list(arms) for arms in frames]))
        return []


def frames_with_an_arm(
    hand: tuple[int, int], shoulder: tuple[int, int], from_s: float, to_s: float, *others: tuple[int, int]
) -> LandingArms:
    """Two seconds of an empty table with an arm over it from ``from_s`` to ``to_s``, and one from each of
    ``others`` (shoulders) to the same hand."""
    arms, clock = LandingArms(GEOMETRY), ChangeClock()
    for i in range(round(2.0 * FPS)):
        t = i / FPS
        image = np.full((720, 1280, 3), (60, 110, 70), np.uint8)
        if from_s <= t <= to_s:
            for end in (shoulder, *others):
                cv2.line(image, hand, end, (140, 170, 210), 60)
        clock.tick(image, t)
        arms.add(clock.reading())
    return arms


def test_a_landings_arm_is_told_once_the_frames_after_it_are_in_pointing_back_to_where_it_came_from() -> None:
    arms = frames_with_an_arm(hand=(700, 380), shoulder=(700, 900), from_s=0.9, to_s=1.1)
    told = Told()
    arms.note([CardPlayed(t=1.0, card=Card.parse("r7"), stack=1, placement=Placement(60.0, 20.0))])
    arms.tell(told, now=1.0 + ARM_AFTER_S / 2)
    assert told.arms == []
    arms.tell(told, now=1.0 + ARM_AFTER_S)
    ((card, t, at, towards),) = told.arms
    assert (card, t, at) == (Card.parse("r7"), 1.0, (60.0, 20.0))
    assert len(towards) >= 3  # one per frame round the landing
    assert all(abs(x - 60.0) < 20 and y >= 355.0 for x, y in towards)  # down to the picture's bottom edge
    arms.tell(told)  # told once
    assert len(told.arms) == 1


def test_a_landing_without_a_place_or_no_arm_over_it_tells_nothing() -> None:
    arms = frames_with_an_arm(hand=(700, 380), shoulder=(700, 900), from_s=0.9, to_s=1.1)
    told = Told()
    arms.note([StackStarted(t=1.0, card=Card.parse("r1"), stack=1)])  # no placement
    arms.note([CardPlayed(t=1.0, card=Card.parse("g2"), stack=2, placement=Placement(-400.0, -200.0))])  # elsewhere
    arms.note([CardPlayed(t=0.5, card=Card.parse("b3"), stack=3, placement=Placement(60.0, 20.0))])  # before the arm
    arms.tell(told)
    assert told.arms == []
    assert arms.waiting == []


def test_every_arm_at_a_card_played_is_told_once_the_frames_after_it_are_in() -> None:
    # two players slap a card at once: one arm from the picture's bottom, one from its right
    arms = frames_with_an_arm((700, 380), (700, 900), 0.9, 1.1, (1400, 380))
    told = Told()
    arms.note([CardPlayed(t=1.0, card=Card.parse("r7"), stack=1, placement=Placement(60.0, 20.0))])
    arms.tell(told, now=1.0 + RIVAL_TOLD_S / 2)
    assert told.rivals == []
    arms.tell(told, now=1.0 + RIVAL_TOLD_S)
    ((landing, frames),) = told.rivals
    assert landing.card == Card.parse("r7")
    two = [arms for arms in frames if len(arms) == 2]
    assert len(two) >= 5  # the frames from 0.9 to 1.1 s
    for first, second in two:
        assert first.off_picture and second.off_picture
        ends = sorted([first.end, second.end])
        assert abs(ends[0][0] - 60.0) < 20 and ends[0][1] >= 355.0  # down to the bottom edge
        assert ends[1][0] >= 635.0 and abs(ends[1][1] - 20.0) < 20  # right to the right edge
    arms.tell(told)  # told once
    assert len(told.rivals) == 1


def test_one_arm_at_a_card_played_shows_no_second() -> None:
    arms = frames_with_an_arm(hand=(700, 380), shoulder=(700, 900), from_s=0.9, to_s=1.1)
    told = Told()
    arms.note([CardPlayed(t=1.0, card=Card.parse("r7"), stack=1, placement=Placement(60.0, 20.0))])
    arms.tell(told)
    ((_, frames),) = told.rivals
    assert frames and all(len(arms) < 2 for arms in frames)
