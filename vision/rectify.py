"""Cutting a card out of a picture: a quadrilateral warped to an upright, portrait rectangle.

Corners follow the project's contract: the card's own top-left first, then clockwise, in image pixels.
Used by the dataset exporter (crops for recogniser training) and by the recogniser (crops of detections),
so both see exactly the same geometry.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

# Default crop size: the card aspect (59 x 91 mm) at a height a small network reads comfortably.
CROP_WIDTH = 64
CROP_HEIGHT = 96


def rectify(
    image: npt.NDArray[np.uint8],
    corners: npt.ArrayLike,
    width: int = CROP_WIDTH,
    height: int = CROP_HEIGHT,
) -> npt.NDArray[np.uint8]:
    """Warps the quad ``corners`` (4x2: top-left, top-right, bottom-right, bottom-left) to ``height x width``.

    >>> img = np.zeros((100, 100, 3), np.uint8); img[10:50, 20:40] = 255
    >>> crop = rectify(img, [[20, 10], [40, 10], [40, 50], [20, 50]], 8, 16)
    >>> crop.shape, int(crop.min())
    ((16, 8, 3), 255)
    """
    quad = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(quad, target)
    crop = cv2.warpPerspective(image, matrix, (width, height), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(crop, dtype=np.uint8)
