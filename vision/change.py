"""Has the picture changed since the cards were last read? A cheap gate that spares the detector still frames.

Most frames of a round show the same cards as the frame before: between plays nothing on the table moves. The
gate compares a small grey thumbnail of each frame (a sixteenth of its width and height: 80 x 45 at 720p, a
fraction of a millisecond) with the one taken when the detector last ran; only when enough of it changed (a
card landed, a hand moved) is the detector needed again. ``max_age`` frames at most pass without a reading, so
a slow change is never missed for long.

A :class:`Region` (a polygon in image pixels) limits the comparison to the part of the table that matters:
during play only the centre's cards are read, so a hand sorting its row at the edge of the view need not wake
the detector. A new region starts afresh (the first frame seen through it is always read).

>>> import numpy as np
>>> gate = ChangeGate()
>>> still = np.full((360, 640, 3), 90, np.uint8)
>>> gate.needs_reading(still), gate.needs_reading(still.copy())
(True, False)
>>> moved = still.copy(); moved[100:160, 300:340] = 250     # a card came down
>>> gate.needs_reading(moved)
True
>>> centre = Region.box(200, 0, 640, 360)
>>> gate.needs_reading(moved, centre), gate.needs_reading(still, centre)  # a new region, then the card goes
(True, True)
>>> hand = still.copy(); hand[0:100, 0:150] = 30                         # something moves outside the centre
>>> gate.needs_reading(hand, centre)
False
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

SCALE = 16
"""Image pixels per thumbnail pixel along each side. Small and blurred: a camera shake of a pixel or two at
720p, sensor noise and a dotted cloth stay below the threshold, a card (40 px wide at 720p: 10 thumbnail
pixels) does not."""


@dataclass(frozen=True)
class Region:
    """A convex polygon in image pixels, corners in order; only changes inside it count.

    >>> Region.box(10, 20, 50, 60).bounds((720, 1280))
    (10, 20, 50, 60)
    >>> Region.around([[100, 50], [300, 90], [200, 400], [200, 80]]).bounds((240, 320))  # clipped to the picture
    (100, 50, 300, 240)
    """

    corners: tuple[tuple[float, float], ...]

    @classmethod
    def box(cls, x0: float, y0: float, x1: float, y1: float) -> Region:
        """The rectangle ``x0 <= x < x1``, ``y0 <= y < y1``."""
        return cls(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    @classmethod
    def around(cls, points: npt.ArrayLike) -> Region:
        """The convex hull of ``points`` (N, 2)."""
        hull = cv2.convexHull(np.asarray(points, np.float32).reshape(-1, 1, 2)).reshape(-1, 2)
        return cls(tuple((float(x), float(y)) for x, y in hull))

    def bounds(self, shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """``x0, y0, x1, y1``: the box around the polygon, whole pixels, clipped to a picture of ``shape``."""
        xy = np.asarray(self.corners, np.float64)
        x0, y0 = np.floor(xy.min(axis=0)).astype(int)
        x1, y1 = np.ceil(xy.max(axis=0)).astype(int)
        return max(0, int(x0)), max(0, int(y0)), min(shape[1], int(x1)), min(shape[0], int(y1))

    def mask(self, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
        """Which thumbnail pixels of the box :meth:`bounds` (thumbnail of ``shape``'s picture) lie inside."""
        x0, y0, x1, y1 = self.bounds(shape)
        size = _thumb_size(x1 - x0, y1 - y0)
        inside = np.zeros((size[1], size[0]), np.uint8)
        corners = (np.asarray(self.corners, np.float64) - (x0, y0)) * (
            size[0] / max(1, x1 - x0),
            size[1] / max(1, y1 - y0),
        )
        cv2.fillPoly(inside, [np.round(corners).astype(np.int32)], 1)
        return inside.astype(bool)


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
    _reference: npt.NDArray[np.uint8] | None = field(default=None, repr=False, init=False)
    _region: Region | None = field(default=None, repr=False, init=False)
    _mask: npt.NDArray[np.bool_] | None = field(default=None, repr=False, init=False)
    _age: int = field(default=0, init=False)

    def needs_reading(self, image: npt.NDArray[np.uint8], region: Region | None = None) -> bool:
        """True when the frame must go through the detector (and becomes the new reference); ``region``: only
        that part of the picture counts (None: all of it)."""
        if region is None:
            thumb = _thumb(image)
        else:
            x0, y0, x1, y1 = region.bounds(image.shape)
            thumb = _thumb(image[y0:y1, x0:x1])
        self._age += 1
        same_place = region == self._region and self._reference is not None and thumb.shape == self._reference.shape
        if same_place and self._age < self.max_age:
            assert self._reference is not None
            whole = (image.shape[0] // SCALE) * (image.shape[1] // SCALE)
            moved = cv2.absdiff(thumb, self._reference) > self.threshold
            changed = np.count_nonzero(moved if self._mask is None else moved & self._mask)
            if changed < self.share * whole:
                return False
        if not same_place:
            self._mask = None if region is None else region.mask(image.shape)
        self._reference, self._region, self._age = thumb, region, 0
        return True


@dataclass
class ChangeClock:
    """When the picture last changed, thumbnail pixel by thumbnail pixel: :meth:`since` tells, for each card's
    outline, the video time since which the picture inside it has stayed still.

    A card lands with a hand and a slap; a card that lay still for seconds and is suddenly read as another face
    is a misread, not a play. The clock compares each frame's thumbnail with the previous one and stamps the
    pixels where any colour channel changed by more than ``threshold`` levels. Colour, not grey: a red card on
    a green cloth can be as bright as the cloth. Its thumbnail is finer than the gate's (an eighth of each
    side, lightly blurred): a copy of the top slapped 10 mm off changes the picture only along its edges and
    digits, which a sixteenth would blur away; noise averaged over 8 x 8 pixels stays below 10 levels.

    >>> import numpy as np
    >>> clock = ChangeClock()
    >>> table = np.full((360, 640, 3), 90, np.uint8)
    >>> clock.tick(table, 0.0); clock.tick(table, 1.0)
    >>> slapped = table.copy(); slapped[100:160, 300:340] = 250
    >>> clock.tick(slapped, 2.0); clock.tick(slapped, 3.0)
    >>> card = [[300, 100], [340, 100], [340, 160], [300, 160]]
    >>> elsewhere = [[20, 200], [60, 200], [60, 260], [20, 260]]
    >>> clock.since(np.array([card, elsewhere], float)).tolist()
    [2.0, 0.0]
    """

    threshold: int = 10
    scale: int = 8
    unsteady_share: float = 0.3
    unsteady_s: float = 1.0
    """A frame where this share of the picture changed is the camera moving or the light changing, not a card:
    everything counts as changed then, and for ``unsteady_s`` after it the clock cannot tell (:meth:`since`
    says NaN), so a shaky camera never passes for a still table."""
    _last: npt.NDArray[np.uint8] | None = field(default=None, repr=False, init=False)
    _changed: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    _t: float = field(default=0.0, repr=False, init=False)
    _steady_from: float = field(default=0.0, repr=False, init=False)

    def tick(self, image: npt.NDArray[np.uint8], t: float) -> None:
        """Takes the next frame (at video time ``t``)."""
        size = _thumb_size(image.shape[1], image.shape[0], self.scale)
        thumb = np.asarray(cv2.GaussianBlur(_shrunk(image, size), (3, 3), 0), np.uint8)
        if self._last is None or self._changed is None or thumb.shape != self._last.shape:
            self._changed = np.full(thumb.shape[:2], t, np.float64)  # nothing known before the first frame
        else:
            diff = cv2.absdiff(thumb, self._last)
            moved = (diff.max(axis=2) if diff.ndim == 3 else diff) > self.threshold
            # a fresh array each frame, never changed in place: a :meth:`reading` taken before stays as it was
            if moved.mean() >= self.unsteady_share:
                self._changed = np.full_like(self._changed, t)
                self._steady_from = t + self.unsteady_s
            else:
                self._changed = np.where(moved, t, self._changed)
        self._last, self._t = thumb, t

    def reading(self) -> ClockReading:
        """The clock as it stands now, unchanged by the frames ticked after: what :meth:`since` says for this
        frame, asked later (the session reads the next frame's cards while this one's are still being read)."""
        return ClockReading(self._changed, self._t, self._steady_from, self.scale)

    def since(self, corners: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """For each outline (N, 4, 2 image pixels), the latest time the picture changed inside it (a thumbnail
        pixel's margin around it, since the thumbnail is blurred); NaN before the first frame and while the
        picture is unsteady."""
        return self.reading().since(corners)


@dataclass(frozen=True)
class ClockReading:
    """A :class:`ChangeClock` at one frame (see :meth:`ChangeClock.reading`)."""

    changed: npt.NDArray[np.float64] | None
    t: float
    steady_from: float
    scale: int

    def since(self, corners: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """See :meth:`ChangeClock.since`."""
        boxes = np.asarray(corners, np.float64).reshape(-1, 4, 2)
        out = np.full(len(boxes), np.nan)
        if self.changed is None or self.t < self.steady_from:
            return out
        h, w = self.changed.shape
        for i, box in enumerate(boxes):
            x0, y0 = np.floor(box.min(axis=0) / self.scale).astype(int) - 1
            x1, y1 = np.ceil(box.max(axis=0) / self.scale).astype(int) + 1
            x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
            if x1 > x0 and y1 > y0:
                out[i] = float(self.changed[y0:y1, x0:x1].max())
        return out


def _thumb_size(width: int, height: int, scale: int = SCALE) -> tuple[int, int]:
    return max(1, width // scale), max(1, height // scale)


def _thumb(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    size = _thumb_size(image.shape[1], image.shape[0])
    small = _shrunk(image, (size[0] * 2, size[1] * 2)) if min(image.shape[:2]) >= 4 * SCALE else image
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return np.asarray(cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (5, 5), 0), np.uint8)


def _shrunk(image: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """``image`` averaged down to ``size`` (width, height): halved by interpolation first while still at least
    four times as big, then averaged over areas. The same numbers as averaging at once (within a level at 720p)
    in half the time: most of an area average's cost is in the full-size picture.

    >>> image = np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    >>> at_once = cv2.resize(image, (160, 90), interpolation=cv2.INTER_AREA).astype(int)
    >>> bool(np.abs(_shrunk(image, (160, 90)).astype(int) - at_once).max() <= 1)
    True
    """
    while image.shape[1] >= 4 * size[0] and image.shape[0] >= 4 * size[1]:
        half = (image.shape[1] // 2, image.shape[0] // 2)
        image = np.asarray(cv2.resize(image, half, interpolation=cv2.INTER_LINEAR), np.uint8)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
