"""A photo of the leftover cards: each player's line counted by its extent and step in the picture."""

from __future__ import annotations

import cv2
import numpy as np

from referee.photo_lines import line_counts
from vision.detections import BACK, CardDetections

W, H = 40, 62  # a card's width and length in pixels


def _photo(lines: list[tuple[str, int, int, int]]) -> tuple[np.ndarray, CardDetections]:
    """A photo of lines of upright cards (back, cards, step px, top y), each card over the last; and the boxes a
    detector would find: every card's outline, and the second card of each line boxed twice (its strip too)."""
    photo = np.full((480, 640, 3), (45, 75, 115), np.uint8)
    colours = {"red-red": (50, 50, 210), "blue-blue": (200, 110, 40)}
    quads, backs = [], []
    for back, n, step, y in lines:
        x0 = 320 - (step * (n - 1) + W) // 2
        for i in range(n):
            x = x0 + step * i
            cv2.rectangle(photo, (x, y), (x + W, y + H), colours[back], -1)
            cv2.rectangle(photo, (x, y), (x + W, y + H), (245, 245, 245), 2)
            quads.append([[x, y], [x + W, y], [x + W, y + H], [x, y + H]])
            backs.append(back)
        strip = x0 + step
        quads.append([[strip, y], [strip + step, y], [strip + step, y + H], [strip, y + H]])
        backs.append(back)
    found = CardDetections.from_quads(np.asarray(quads, np.float32), [BACK] * len(quads), [0.9] * len(quads))
    return photo, found.with_identity(back=backs)


def test_each_players_line_counts_its_cards_not_its_boxes() -> None:
    photo, boxes = _photo([("red-red", 6, 20, 80), ("blue-blue", 4, 22, 300)])
    assert len(boxes) == 12  # ten cards, two of them boxed twice
    assert line_counts(photo, boxes, 0.4) == ({"blue-blue": 4, "red-red": 6}, 2)


def test_a_line_the_photos_edge_cuts_keeps_its_boxes_count() -> None:
    photo, boxes = _photo([("red-red", 5, 20, 480 - H)])  # the line's bottom edge on the photo's
    assert line_counts(photo, boxes, 0.4) == ({"red-red": 6}, 0)
