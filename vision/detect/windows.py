"""The windows a thorough pass reads: the image cut into overlapping parts that each fill the network's input
at a chosen zoom (a multiple of the scale at which the whole image fits the input in one pass).

>>> [(w.x0, w.y0, w.width, w.height) for w in windows(1280, 720, 2.0)][:4]
[(0, 0, 640, 384), (320, 0, 640, 384), (640, 0, 640, 384), (0, 168, 640, 384)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.detect.onnx_detector import Letterbox

MIN_OVERLAP = 0.3  # windows overlap by this share of their size, so most cards lie whole inside one


@dataclass(frozen=True)
class Window:
    """A part of the image read in one pass, in image pixels.

    >>> Window(0, 0, 640, 384).inner_edges(1280, 720)
    (False, False, True, True)
    """

    x0: int
    y0: int
    width: int
    height: int

    def inner_edges(self, image_width: int, image_height: int) -> tuple[bool, bool, bool, bool]:
        """Which of its left, top, right, bottom borders cut the image (rather than being the image's own)."""
        return (
            self.x0 > 0,
            self.y0 > 0,
            self.x0 + self.width < image_width,
            self.y0 + self.height < image_height,
        )


def windows(width: int, height: int, zoom: float, input_size: tuple[int, int] = (384, 640)) -> list[Window]:
    """The overlapping windows that read a ``width`` x ``height`` image at ``zoom`` times the one-pass scale.

    >>> [(w.x0, w.y0, w.width, w.height) for w in windows(1280, 720, 1.0)]
    [(0, 0, 1280, 720)]
    >>> len(windows(1280, 720, 1.5)), len(windows(1280, 720, 2.0))
    (4, 9)
    >>> windows(1280, 720, 2.0)[-1]
    Window(x0=640, y0=336, width=640, height=384)
    """
    scale = Letterbox.fit(height, width, input_size).scale * zoom
    win_w = min(width, math.ceil(input_size[1] / scale))
    win_h = min(height, math.ceil(input_size[0] / scale))
    xs = _starts(width, win_w)
    ys = _starts(height, win_h)
    return [Window(x, y, win_w, win_h) for y in ys for x in xs]


def _starts(length: int, window: int) -> list[int]:
    """Evenly spread window starts along one axis, neighbours overlapping by at least MIN_OVERLAP of a window."""
    if window >= length:
        return [0]
    step = window * (1 - MIN_OVERLAP)
    count = math.ceil((length - window) / step) + 1
    return [round(i * (length - window) / (count - 1)) for i in range(count)]
