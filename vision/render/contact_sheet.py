"""A grid of rendered scenes for judging realism at a glance, optionally with their labels drawn on.

>>> tiles = [np.full((40, 40, 3), v, np.uint8) for v in (0, 80, 160, 240)]
>>> contact_sheet(tiles, columns=2, tile=(20, 20)).shape
(42, 42, 3)
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import numpy.typing as npt

from vision.render.labels import CardLabel

Image = npt.NDArray[np.uint8]

_KIND_BGR = {"face": (0, 255, 255), "back": (255, 0, 255)}


def draw_labels(image: Image, labels: Sequence[CardLabel], min_visible: float = 0.0) -> Image:
    """A copy of ``image`` with each card's quad (face yellow, back magenta) and a dot on its own top-left."""
    out = image.copy()
    for label in labels:
        if label.visible < min_visible:
            continue
        quad = np.round(label.corners_array).astype(np.int32)
        colour = _KIND_BGR[label.kind]
        cv2.polylines(out, [quad], True, colour, 1, cv2.LINE_AA)
        cv2.circle(out, (int(quad[0, 0]), int(quad[0, 1])), 3, (0, 0, 255), -1, cv2.LINE_AA)
    return out


def contact_sheet(images: Sequence[Image], columns: int = 4, tile: tuple[int, int] = (320, 320), gap: int = 2) -> Image:
    """``images`` resized to ``tile`` (width, height) and laid out in rows of ``columns``."""
    rows = (len(images) + columns - 1) // columns
    tw, th = tile
    sheet = np.full((rows * th + (rows - 1) * gap, columns * tw + (columns - 1) * gap, 3), 255, np.uint8)
    for i, image in enumerate(images):
        r, c = divmod(i, columns)
        y, x = r * (th + gap), c * (tw + gap)
        sheet[y : y + th, x : x + tw] = cv2.resize(image, (tw, th), interpolation=cv2.INTER_AREA)
    return sheet
