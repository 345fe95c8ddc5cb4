"""Compositing: a layer (a picture with alpha at a canvas offset) is laid over the canvas with its shadow.

Cards and occluders both become layers, so one compositor writes the picture and the id mask that
labels are computed from: every pixel of the mask holds the id of the topmost thing drawn there
(0 table, 1.. cards, ``OCCLUDER_ID`` occluders). Work is confined to each layer's bounding box.

>>> canvas = np.zeros((20, 20, 3), np.float32); ids = np.zeros((20, 20), np.uint16)
>>> layer = Layer(5, 5, np.full((4, 4, 3), 200, np.float32), np.ones((4, 4), np.float32))
>>> composite(canvas, ids, layer, layer_id=3)
>>> int(ids[6, 6]), float(canvas[6, 6, 0]), int(ids[0, 0])
(3, 200.0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Float = npt.NDArray[np.float32]
Ids = npt.NDArray[np.uint16]

OCCLUDER_ID = 65535
OPAQUE = 0.5  # alpha at or above which a pixel belongs to the layer in the id mask


@dataclass(frozen=True, eq=False)
class Layer:
    """``bgr`` (h x w x 3, float 0..255) and ``alpha`` (h x w, 0..1) placed with top-left at (x0, y0)."""

    x0: int
    y0: int
    bgr: Float
    alpha: Float


@dataclass(frozen=True)
class Shadow:
    """A soft shadow cast by a layer: its alpha blurred, shifted and darkening what lies beneath."""

    dx: float
    dy: float
    sigma: float
    opacity: float


def _clip_box(x0: int, y0: int, w: int, h: int, canvas_w: int, canvas_h: int) -> tuple[int, int, int, int] | None:
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + w, canvas_w), min(y0 + h, canvas_h)
    if cx0 >= cx1 or cy0 >= cy1:
        return None
    return cx0, cy0, cx1, cy1


def cast_shadow(canvas: Float, layer: Layer, shadow: Shadow) -> None:
    """Darkens the canvas under ``layer`` as its soft, offset shadow.

    A shadow is soft, so it is blurred at a reduced scale (a quarter of sigma per pixel at most) and
    scaled back up: the cost stays small however large the card or the blur.
    """
    if shadow.opacity <= 0:
        return
    pad = int(3 * shadow.sigma + max(abs(shadow.dx), abs(shadow.dy))) + 2
    h, w = layer.alpha.shape
    x0, y0 = layer.x0 - pad, layer.y0 - pad
    box = _clip_box(x0, y0, w + 2 * pad, h + 2 * pad, canvas.shape[1], canvas.shape[0])
    if box is None:
        return
    step = max(1.0, shadow.sigma / 2.0)
    small_w, small_h = max(1, round((w + 2 * pad) / step)), max(1, round((h + 2 * pad) / step))
    sx, sy = small_w / (w + 2 * pad), small_h / (h + 2 * pad)
    # place the layer's alpha shifted by the shadow offset, shrunk, in one affine warp
    matrix = np.array([[sx, 0, (pad + shadow.dx) * sx], [0, sy, (pad + shadow.dy) * sy]], np.float32)
    small = cv2.warpAffine(
        layer.alpha, matrix, (small_w, small_h), flags=cv2.INTER_AREA if step > 1 else cv2.INTER_LINEAR
    )
    if shadow.sigma > 0.3:
        small = cv2.GaussianBlur(small, (0, 0), shadow.sigma / step)
    cx0, cy0, cx1, cy1 = box
    big = cv2.resize(small, (w + 2 * pad, h + 2 * pad), interpolation=cv2.INTER_LINEAR) if step > 1 else small
    part = big[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    canvas[cy0:cy1, cx0:cx1] *= (1.0 - shadow.opacity * part)[..., None]


def composite(canvas: Float, ids: Ids, layer: Layer, layer_id: int, shadow: Shadow | None = None) -> None:
    """Lays ``layer`` (and its shadow) over ``canvas`` and writes ``layer_id`` where it is opaque."""
    if shadow is not None:
        cast_shadow(canvas, layer, shadow)
    h, w = layer.alpha.shape
    box = _clip_box(layer.x0, layer.y0, w, h, canvas.shape[1], canvas.shape[0])
    if box is None:
        return
    cx0, cy0, cx1, cy1 = box
    sy, sx = slice(cy0 - layer.y0, cy1 - layer.y0), slice(cx0 - layer.x0, cx1 - layer.x0)
    alpha = layer.alpha[sy, sx]
    region = canvas[cy0:cy1, cx0:cx1]
    region += (layer.bgr[sy, sx] - region) * alpha[..., None]
    ids[cy0:cy1, cx0:cx1][alpha >= OPAQUE] = layer_id
