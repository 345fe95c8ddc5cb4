"""Has the picture changed since the cards were last read? A cheap gate that spares the detector still frames.

Most frames of a round show the same cards as the frame before: between plays nothing on the table moves. The
gate compares a small grey thumbnail of each frame (a sixteenth of its width and height: 80 x 45 at 720p, a
fraction of a millisecond) with the one taken when the detector last ran; only when enough of it changed (a
card landed, a hand moved) is the detector needed again. ``max_age`` frames at most pass without a reading, so
a slow change is never missed for long.

A ``region`` (a box in image pixels) limits the comparison to the part of the table that matters: during play
only the centre's cards are read, so a hand sorting its row at the edge of the view need not wake the detector.
A new region starts afresh (the first frame seen through it is always read).

>>> import numpy as np
>>> gate = ChangeGate()
>>> still = np.full((360, 640, 3), 90, np.uint8)
>>> gate.needs_reading(still), gate.needs_reading(still.copy())
(True, False)
>>> moved = still.copy(); moved[100:160, 300:340] = 250     # a card came down
>>> gate.needs_reading(moved)
True
>>> centre = Region(200, 0, 640, 360)
>>> gate.needs_reading(moved, centre), gate.needs_reading(still, centre)  # a new region, then the card goes
(True, True)
>>> hand = still.copy(); hand[0:100, 0:150] = 30                         # something moves outside the centre
>>> gate.needs_reading(hand, centre)
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

SCALE = 16
"""Thumbnail pixels per image pixel along each side. Small and blurred: a camera shake of a pixel or two at
720p, sensor noise and a dotted cloth stay below the threshold, a card (40 px wide at 720p: 10 thumbnail
pixels) does not."""


class Region(NamedTuple):
    """A box in image pixels: ``x0 <= x < x1``, ``y0 <= y < y1``."""

    x0: int
    y0: int
    x1: int
    y1: int

    @classmethod
    def around(cls, points: npt.ArrayLike, margin: float, size: tuple[int, int]) -> Region:
        """The box around ``points`` (N, 2) grown by ``margin`` pixels and clipped to an image of ``size``
        (width, height).

        >>> Region.around([[100, 50], [300, 90.5]], 20, (320, 240))
        Region(x0=80, y0=30, x1=320, y1=111)
        """
        xy = np.asarray(points, np.float64).reshape(-1, 2)
        x0, y0 = np.floor(xy.min(axis=0) - margin).astype(int)
        x1, y1 = np.ceil(xy.max(axis=0) + margin).astype(int)
        width, height = size
        return cls(max(0, int(x0)), max(0, int(y0)), min(width, int(x1)), min(height, int(y1)))


@dataclass
class ChangeGate:
    """``threshold``: grey levels a thumbnail pixel must change by; ``share``: the share of the whole frame's
    thumbnail pixels that must change (0.08%, about 3 thumbnail pixels: a card at the far side of a 720p frame
    covers about 0.3% of it; the same count of pixels holds inside a region); ``max_age``: readings at most this
    many frames apart whatever the gate says (0.13 s at 30 fps; the session derives it from the tracker's vote).

    Why 12 and 0.08% (the sample round and a rendered 4-player round, real detector, every frame read as the
    baseline): 20 and 0.15% read only 46% of the frames but let a card's digits come clear under a lifting
    finger unseen, and misreads repeated over 8 frames added false illegal plays (11 -> 16); 12 and 0.08% read
    61-66% and referee as well as reading every frame (plays the same, false illegal plays 11 -> 9 and 62 -> 61)."""

    threshold: int = 12
    share: float = 0.0008
    max_age: int = 4
    _reference: npt.NDArray[np.uint8] | None = field(default=None, repr=False)
    _region: Region | None = field(default=None, repr=False)
    _age: int = 0

    def needs_reading(self, image: npt.NDArray[np.uint8], region: Region | None = None) -> bool:
        """True when the frame must go through the detector (and becomes the new reference); ``region``: only
        that part of the picture counts (None: all of it)."""
        thumb = _thumb(image if region is None else image[region.y0 : region.y1, region.x0 : region.x1])
        self._age += 1
        if self._reference is not None and region == self._region and self._age < self.max_age:
            whole = (image.shape[0] // SCALE) * (image.shape[1] // SCALE)
            changed = np.count_nonzero(cv2.absdiff(thumb, self._reference) > self.threshold)
            if changed < self.share * whole:
                return False
        self._reference, self._region, self._age = thumb, region, 0
        return True


def _thumb(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    size = (max(1, grey.shape[1] // SCALE), max(1, grey.shape[0] // SCALE))
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (5, 5), 0), np.uint8)
