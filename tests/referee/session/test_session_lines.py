"""The session measures the count's leftover lines in its latest picture, in table millimetres."""

from __future__ import annotations

import cv2
import numpy as np

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.session_lines import ImageLineReader
from referee.tracker.fan_length import shingled_count
from vision.geometry import TableGeometry

MM_PER_PX = 1.5
GEOMETRY = TableGeometry(np.diag([MM_PER_PX, MM_PER_PX, 1.0]))


def _picture_of_a_line(n: int, step_mm: float, x0_mm: float = 300.0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A 1280 x 720 picture of ``n`` upright cards laid ``step_mm`` apart along the table's x axis, each over the
    last; and each card's outline on the table plane (mm)."""
    picture = np.full((720, 1280, 3), (35, 60, 95), np.uint8)
    quads = []
    for i in range(n):
        x, y = x0_mm + step_mm * i, 500.0
        quad = np.array(
            [[x, y], [x + CARD_WIDTH_MM, y], [x + CARD_WIDTH_MM, y + CARD_HEIGHT_MM], [x, y + CARD_HEIGHT_MM]]
        )
        pixels = np.round(quad / MM_PER_PX).astype(np.int32)
        cv2.fillConvexPoly(picture, pixels, (50, 50, 200))
        cv2.polylines(picture, [pixels], True, (245, 245, 245), 2)
        quads.append(quad)
    return picture, quads


def test_a_line_in_the_picture_is_measured_in_millimetres_and_counts_its_cards() -> None:
    picture, quads = _picture_of_a_line(6, 29.0)
    reader = ImageLineReader(GEOMETRY)
    reader.image = picture
    line = reader([tuple(map(tuple, q)) for q in quads], CARD_WIDTH_MM)  # type: ignore[misc]
    assert line is not None
    assert abs(line.extent - (5 * 29.0 + CARD_WIDTH_MM)) < 5 * MM_PER_PX  # the drawn borders and whole pixels
    assert shingled_count(line, CARD_WIDTH_MM) == 6


def test_a_line_boxed_as_one_card_is_measured_along_the_direction_given_and_shows_the_strip_under_it() -> None:
    picture, quads = _picture_of_a_line(2, 26.0)
    reader = ImageLineReader(GEOMETRY)
    reader.image = picture
    top = [tuple(map(tuple, quads[-1]))]  # the top card alone was boxed
    assert reader(top, CARD_WIDTH_MM) is None  # one box: no direction of its own
    line = reader(top, CARD_WIDTH_MM, along=(1.0, 0.0))
    assert line is not None
    assert abs(line.extent - (26.0 + CARD_WIDTH_MM)) < 5 * MM_PER_PX
    across = reader(top, CARD_HEIGHT_MM, along=(0.0, 1.0))
    assert across is not None and abs(across.extent - CARD_HEIGHT_MM) < 5 * MM_PER_PX


def test_a_line_running_out_of_the_picture_is_not_measured() -> None:
    picture, quads = _picture_of_a_line(6, 29.0, x0_mm=1280 * MM_PER_PX - 120.0)
    reader = ImageLineReader(GEOMETRY)
    reader.image = picture
    assert reader([tuple(map(tuple, q)) for q in quads], CARD_WIDTH_MM) is None  # type: ignore[misc]


def test_before_any_picture_nothing_is_measured() -> None:
    _, quads = _picture_of_a_line(3, 29.0)
    assert ImageLineReader(GEOMETRY)([tuple(map(tuple, q)) for q in quads], CARD_WIDTH_MM) is None  # type: ignore[misc]


def test_a_fans_cards_inks_are_read_from_its_whole_card_on_given_its_outlines_on_the_table_plane() -> None:
    inks = [(0, 0, 200), (200, 120, 0), (40, 40, 40), (0, 0, 200), (200, 120, 0)]  # BGR: red, blue, black, ...
    picture = np.full((720, 1280, 3), (35, 60, 95), np.uint8)
    quads = []
    for i, ink in enumerate(inks):  # each card over the last, 20 mm on: the last whole
        x, y = 300.0 + 20.0 * i, 500.0
        quad = np.array(
            [[x, y], [x + CARD_WIDTH_MM, y], [x + CARD_WIDTH_MM, y + CARD_HEIGHT_MM], [x, y + CARD_HEIGHT_MM]]
        )
        pixels = np.round(quad / MM_PER_PX).astype(np.int32)
        cv2.fillConvexPoly(picture, pixels, (245, 245, 245))
        cv2.polylines(picture, [pixels + np.array([[3, 3], [-3, 3], [-3, -3], [3, -3]])], True, ink, 3)  # a frame
        cv2.circle(picture, tuple(pixels.mean(axis=0).astype(int)), 8, ink, -1)
        quads.append(tuple(map(tuple, quad)))
    reader = ImageLineReader(GEOMETRY)
    assert reader.fan_inks(quads[:2], quads[-1:], CARD_WIDTH_MM, 5) is None  # no picture yet
    reader.image = picture
    read = reader.fan_inks(quads[:2], quads[-1:], CARD_WIDTH_MM, 5)  # two strips boxed; the whole card beside
    assert read is not None
    distinct = inks[:3]
    lab = cv2.cvtColor(np.uint8([distinct]), cv2.COLOR_BGR2LAB)[0].astype(float) - [0, 128, 128]
    nearest = [distinct[int(np.argmin(np.linalg.norm(lab - ink, axis=1)))] for ink in read]
    assert nearest == inks[::-1]
