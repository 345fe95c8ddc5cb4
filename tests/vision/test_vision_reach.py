"""The arm that put a card down: where what lies over the card runs back to, against the table at rest."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.change import ChangeClock
from vision.reach import ArmWatch, arm_end

CLOTH = (60, 110, 70)
SKIN = (140, 170, 210)
CARD = (40, 40, 220)


def cloth() -> np.ndarray:
    image = np.empty((720, 1280, 3), np.uint8)
    image[:] = CLOTH
    return image


def with_arm(image: np.ndarray, hand: tuple[int, int], shoulder: tuple[int, int], width: int = 60) -> np.ndarray:
    out = image.copy()
    cv2.line(out, hand, shoulder, SKIN, width)
    cv2.circle(out, hand, width, SKIN, -1)
    return out


def watched(frames: list[np.ndarray], fps: float = 10.0) -> ArmWatch:
    clock, watch = ChangeClock(), ArmWatch()
    for i, frame in enumerate(frames):
        clock.tick(frame, i / fps)
        watch.add(clock.reading())
    return watch


def direction(end: tuple[float, float], start: tuple[float, float]) -> float:
    return float(np.degrees(np.arctan2(end[1] - start[1], end[0] - start[0])))


@pytest.mark.parametrize(
    ("shoulder", "degrees"),
    [((640, 900), 90.0), ((-200, 360), 180.0), ((1500, -100), -28.1), ((1000, -300), -61.4)],
)
def test_the_arm_over_a_card_runs_back_the_way_it_came_to_the_picture_edge(
    shoulder: tuple[int, int], degrees: float
) -> None:
    card = (640, 360)
    watch = watched([cloth()] * 10 + [with_arm(cloth(), card, shoulder)])
    (end,) = watch.arms_to(card, 0.95, 1.05)
    assert direction(end, card) == pytest.approx(degrees, abs=8.0)
    h, w = 720, 1280
    assert min(end[0], end[1], w - 1 - end[0], h - 1 - end[1]) < 16  # at the picture's edge


def test_another_arm_crossing_the_first_farther_off_does_not_turn_it() -> None:
    card = (640, 360)
    crossing = with_arm(with_arm(cloth(), card, (640, 900)), (300, 560), (1400, 560))  # across, 200 px below
    (end,) = watched([cloth()] * 10 + [crossing]).arms_to(card, 0.95, 1.05)
    assert direction(end, card) == pytest.approx(90.0, abs=8.0)


def test_nothing_reaches_a_card_nobody_is_touching() -> None:
    watch = watched([cloth()] * 10 + [with_arm(cloth(), (640, 360), (640, 900))])
    assert watch.arms_to((200.0, 150.0), 0.95, 1.05) == []


def test_a_card_come_to_rest_is_part_of_the_table_and_no_longer_reaches_anywhere() -> None:
    card_down = cloth()
    card_down[330:390, 620:660] = CARD
    frames = [cloth()] * 10 + [with_arm(card_down, (640, 360), (640, 900))] + [card_down] * 10
    watch = watched(frames)
    assert watch.arms_to((640.0, 360.0), 0.95, 1.05)  # the arm putting it down
    assert watch.arms_to((640.0, 360.0), 1.9, 2.05) == []  # the card alone, at rest for a second


def test_a_frame_where_the_whole_picture_changed_shows_no_arm() -> None:
    darker = (cloth() * 0.6).astype(np.uint8)  # the light went down
    watch = watched([cloth()] * 10 + [with_arm(darker, (640, 360), (640, 900))])
    assert watch.arms_to((640.0, 360.0), 0.95, 1.05) == []


def test_only_the_frames_asked_for_and_kept_are_looked_at() -> None:
    frames = [cloth()] * 10 + [with_arm(cloth(), (640, 360), (640, 900))] * 3 + [cloth()] * 40
    watch = watched(frames)
    assert watch.arms_to((640.0, 360.0), 0.0, 10.0) == []  # kept for ArmWatch.keep_s (3 s) only: gone
    recent = watched(frames[:13])
    assert len(recent.arms_to((640.0, 360.0), 0.95, 1.25)) == 3
    assert len(recent.arms_to((640.0, 360.0), 1.05, 1.25)) == 2


def test_a_ray_runs_on_across_a_gap_of_a_pixel_or_two_but_not_across_the_table() -> None:
    over = np.zeros((45, 80), bool)
    over[20:25, 40:60] = True  # the hand and forearm
    over[20:25, 62:80] = True  # the sleeve, past a cuff two pixels wide
    end = arm_end(over, (41.0, 22.0))
    assert end is not None and end[0] == pytest.approx(79.0) and end[1] == pytest.approx(22.0, abs=1.0)
    apart = np.zeros((45, 80), bool)
    apart[20:25, 40:50] = True
    apart[20:25, 60:80] = True  # ten pixels of table between: another's arm
    end = arm_end(apart, (41.0, 22.0))
    assert end is not None and end[0] < 52
    assert arm_end(np.zeros((45, 80), bool), (41.0, 22.0)) is None
