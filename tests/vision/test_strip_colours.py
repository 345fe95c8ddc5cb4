"""Backs named by the colour of what shows of them in a fan: the strip under the next card, the top whole."""

from __future__ import annotations

import cv2
import numpy as np

from vision.strip_colours import card_colour, read_fan

RED, CYAN, PINK, BLACK = (40, 40, 220), (220, 200, 40), (180, 110, 250), (30, 30, 30)
REFERENCES = {"red-red": RED, "red-light-blue": CYAN, "red-pink": PINK, "red-black": BLACK}


def _fan(colours: list[tuple[int, int, int]], step: int = 14, top_last: bool = True) -> tuple[np.ndarray, list]:
    """A fan of white backs with borders and lettering in each set's colour on a green cloth, ``step`` px apart;
    the quads in order along it (left to right), the last drawn on top unless ``top_last`` is False."""
    picture = np.full((160, 400, 3), (60, 120, 40), np.uint8)
    quads = [np.float32([[30 + step * i, 30], [90 + step * i, 30], [90 + step * i, 120], [30 + step * i, 120]])
             for i in range(len(colours))]  # fmt: skip
    drawn = list(range(len(colours))) if top_last else list(reversed(range(len(colours))))
    for i in drawn:
        x = 30 + step * i
        cv2.rectangle(picture, (x, 30), (x + 60, 120), (245, 245, 245), -1)
        cv2.rectangle(picture, (x, 30), (x + 60, 120), colours[i], 4)
        cv2.putText(picture, "LIG", (x + 8, 80), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colours[i], 2)
    return picture, quads


def _refs() -> dict[str, np.ndarray]:
    return {name: np.float64(colour) for name, colour in REFERENCES.items()}


def test_each_strip_of_a_fan_of_mixed_backs_is_named_by_its_colour() -> None:
    colours = [RED, CYAN, PINK, BLACK, CYAN, RED]
    picture, quads = _fan(colours)
    readings = read_fan(picture, quads, _refs())
    names = {tuple(map(float, c)): n for n, c in REFERENCES.items()}
    assert [r.back for r in readings] == [names[tuple(map(float, c))] for c in colours]
    assert [round(r.shown, 2) for r in readings] == [0.23] * 5 + [1.0]


def test_the_fans_top_is_found_at_either_end() -> None:
    colours = [RED, CYAN, CYAN, RED, BLACK]
    picture, quads = _fan(colours, top_last=False)  # the first card lies on top
    readings = read_fan(picture, quads, _refs())
    assert [r.back for r in readings] == ["red-red", "red-light-blue", "red-light-blue", "red-red", "red-black"]
    assert readings[0].shown == 1.0 and readings[-1].shown < 0.3


def test_a_strip_too_thin_to_show_ink_is_named_by_nothing() -> None:
    picture, quads = _fan([RED, CYAN])
    quads = [quads[0], quads[1], quads[1].copy()]  # a third box exactly over the second: the second shows nothing
    assert read_fan(picture, quads, _refs())[1].back is None


def test_without_references_nothing_is_named() -> None:
    picture, quads = _fan([RED, CYAN])
    assert read_fan(picture, quads, {}) == []


def test_a_whole_cards_colour_is_its_ink() -> None:
    picture, quads = _fan([PINK])
    colour = card_colour(picture, quads[0])
    assert colour is not None and np.linalg.norm(colour - np.float64(PINK)) < 20
    assert card_colour(picture, quads[0] + 1000) is None  # a box outside the picture
