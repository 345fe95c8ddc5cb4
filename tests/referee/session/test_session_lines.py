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


def test_a_line_running_out_of_the_picture_is_not_measured() -> None:
    picture, quads = _picture_of_a_line(6, 29.0, x0_mm=1280 * MM_PER_PX - 120.0)
    reader = ImageLineReader(GEOMETRY)
    reader.image = picture
    assert reader([tuple(map(tuple, q)) for q in quads], CARD_WIDTH_MM) is None  # type: ignore[misc]


def test_before_any_picture_nothing_is_measured() -> None:
    _, quads = _picture_of_a_line(3, 29.0)
    assert ImageLineReader(GEOMETRY)([tuple(map(tuple, q)) for q in quads], CARD_WIDTH_MM) is None  # type: ignore[misc]


def test_a_stacks_fan_is_named_strip_by_strip_by_colour_against_the_backs_read_whole() -> None:
    # five red backs (bordered in white) at a 29 mm step; the fourth card's border and ink blue instead
    picture, quads = _picture_of_a_line(5, 29.0)
    x = round((300.0 + 3 * 29.0) / MM_PER_PX)
    cv2.rectangle(picture, (x + 2, round(500 / MM_PER_PX) + 2), (x + 18, round(590 / MM_PER_PX)), (200, 60, 40), -1)
    whole_blue = np.array([[800.0, 200.0], [859.0, 200.0], [859.0, 292.0], [800.0, 292.0]])
    cv2.fillConvexPoly(picture, np.round(whole_blue / MM_PER_PX).astype(np.int32), (200, 60, 40))
    reader = ImageLineReader(GEOMETRY)
    reader.image = picture
    as_quads = [tuple(map(tuple, q)) for q in quads]
    references = [(as_quads[-1], "red-red"), (tuple(map(tuple, whole_blue)), "blue-blue")]
    read = reader.read_strips(as_quads, references)  # type: ignore[arg-type]
    assert read is not None
    assert [back for back, _ in read] == ["red-red", "red-red", "red-red", "blue-blue", "red-red"]
    assert read[-1][1] == 1.0 and all(shown < 0.6 for _, shown in read[:-1])
    assert ImageLineReader(GEOMETRY).read_strips(as_quads, references) is None  # type: ignore[arg-type]
