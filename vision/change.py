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

import bisect
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

SCALE = 16
"""Image pixels per thumbnail pixel along each side. Small and blurred: a camera shake of a pixel or two at
720p, sensor noise and a dotted cloth stay below the threshold, a card (40 px wide at 720p: 10 thumbnail
pixels) does not."""

REARRANGED_SHARE = 0.12
"""The share of the middle of a card's outline that must come to rest rearranged for the card to count as
rearranged: a copy lifted 12 mm off its twin changes about a sixth of it (p4 seed 100204's b7: 14 %), a card
landing a tenth to a third, a hand that passed over it none. Development rounds (seeds 100250-100251 and
100260-100262, 14 rounds): at 0.06, 4 of 33 conflicts found with 31 said; at 0.12 the same 4 with 28 said."""
REARRANGED_SPREAD_S = 0.5
MIN_DRIFT_RESPONSE = 0.2
MAX_DRIFT_PX = 4.0
"""A drift is believed when the phase correlation's peak stands out this much and the shift is at most this many
fine pixels (16 image pixels: a phone drifts by 1-2 pixels in a second)."""
STILL_BINNING_S = 0.25
"""Pixels coming to rest in one frame that last lay still within this stretch of each other are compared with
the same pictures (a card's pixels stop changing over a few frames; each comparison costs a phase correlation)."""


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

    Watching a region (the centre, during play), it also keeps the last pictures, to tell a card lifted off a
    pile from a hand passing over it: when part of the picture lies still again (for ``settle_s``), it is
    compared with the pictures from the stretch it last lay still through; differing, the picture there was
    rearranged. A copy of the top slapped 12 mm off and lifted again (the loser of a conflict taking it back)
    leaves the same face showing, moved; a hand that passes leaves the picture as it was.
    :meth:`ClockReading.rearranged_at` says when a card's outline was last rearranged.

    >>> centre, watching = Region.box(0, 0, 640, 360), ChangeClock()
    >>> for t, picture in [(0.0, table), (1.0, table), (2.0, slapped), (3.0, slapped)]:
    ...     watching.tick(picture, t, centre)
    >>> watching.reading().rearranged_at(np.array([card], float)).tolist()  # the slapped card settled at 3.0 s
    [3.0]
    >>> hand = slapped.copy(); hand[90:270, 0:200] = hand[90:200, 200:400] = 20  # a hand over the card and beside
    >>> lifted = table.copy(); lifted[110:170, 310:350] = 250  # the copy on top taken back: its twin lies 10 px off
    >>> for t, picture in [(4.0, hand), (5.0, lifted), (6.0, lifted)]:
    ...     watching.tick(picture, t, centre)
    >>> watching.reading().rearranged_at(np.array([card, elsewhere], float)).tolist()
    [6.0, nan]
    """

    threshold: int = 10
    scale: int = 8
    unsteady_share: float = 0.3
    unsteady_s: float = 1.0
    """A frame where this share of the picture changed is the camera moving or the light changing, not a card:
    everything counts as changed then, and for ``unsteady_s`` after it the clock cannot tell (:meth:`since`
    says NaN), so a shaky camera never passes for a still table."""
    settle_s: float = 0.3
    """A pixel unchanged for this long lies still (a hand moves on within a few frames); what it shows then is
    compared with what it showed when it last lay still. An unsteady frame forgets the pictures kept, so a
    camera that moved never reads as a table rearranged."""
    fine_scale: int = 4
    rearranged_threshold: int = 15
    history: int = 150
    """The settled looks are compared in grey at a quarter of each side, by more than ``rearranged_threshold``
    levels, after the camera's own drift between the two pictures is taken out (a phone drifts by a pixel or two
    in a second, which moves the edges and digits of every card: p2 seed 100204, a b4 a hand passed over read 12 %
    changed uncorrected). The pictures of the last ``history`` frames are kept for it."""
    _last: npt.NDArray[np.uint8] | None = field(default=None, repr=False, init=False)
    _changed: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    _t: float = field(default=0.0, repr=False, init=False)
    _steady_from: float = field(default=0.0, repr=False, init=False)
    _pictures: dict[float, npt.NDArray[np.uint8]] = field(default_factory=dict, repr=False, init=False)
    _last_still: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    """When each fine pixel last lay still (NaN: never since the clock last forgot)."""
    _calm_from: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    """Since when it lay still then."""
    _still: npt.NDArray[np.bool_] | None = field(default=None, repr=False, init=False)
    _rearranged: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    _rearranged_from: npt.NDArray[np.float64] | None = field(default=None, repr=False, init=False)
    """The last time each rearranged pixel had lain still before (its picture then is what it differs from)."""

    def tick(
        self,
        image: npt.NDArray[np.uint8],
        t: float,
        watch: Region | None = None,
        half: npt.NDArray[np.uint8] | None = None,
    ) -> None:
        """Takes the next frame (at video time ``t``); rearrangements are looked for inside ``watch`` only (None:
        nowhere, and what was kept for it is dropped: a look costs about a millisecond a frame). ``half``: the
        picture already halved by linear interpolation (:attr:`vision.sources.Frame.half`), the first step down
        to the thumbnail, made elsewhere: the same thumbnails."""
        size = _thumb_size(image.shape[1], image.shape[0], self.scale)
        start = image
        if half is not None and image.shape[1] >= 4 * size[0] and image.shape[0] >= 4 * size[1]:
            start = half  # the first step _halved would take
        halved = _halved(start, size)
        thumb = np.asarray(cv2.GaussianBlur(_shrunk(halved, size), (3, 3), 0), np.uint8)
        fine_size = _thumb_size(image.shape[1], image.shape[0], self.fine_scale)
        if self._last is None or self._changed is None or thumb.shape != self._last.shape:
            self._changed = np.full(thumb.shape[:2], t, np.float64)  # nothing known before the first frame
            self._forget((fine_size[1], fine_size[0]))
        else:
            diff = cv2.absdiff(thumb, self._last)
            moved = greatest_channel(diff) > self.threshold
            # a fresh array each frame, never changed in place: a :meth:`reading` taken before stays as it was
            if moved.mean() >= self.unsteady_share:
                self._changed = np.full_like(self._changed, t)
                self._steady_from = t + self.unsteady_s
                self._forget((fine_size[1], fine_size[0]))
            else:
                self._changed = np.where(moved, t, self._changed)
        if watch is None:
            if self._pictures:
                self._forget((fine_size[1], fine_size[0]))
        else:
            # the fine picture is the thumbnail's last step on the way down (at 720p a quarter of each side already)
            if (halved.shape[1], halved.shape[0]) != fine_size:
                halved = np.asarray(cv2.resize(halved, fine_size, interpolation=cv2.INTER_AREA), np.uint8)
            x0, y0, x1, y1 = watch.bounds(image.shape)
            box = (x0 // self.fine_scale, y0 // self.fine_scale, -(-x1 // self.fine_scale), -(-y1 // self.fine_scale))
            self._settle(_grey(halved), t, box)
        self._last, self._t = thumb, t

    def _forget(self, shape: tuple[int, ...]) -> None:
        """Forgets every picture and stillness kept; ``shape``: the fine pictures' (rearrangements are marked at
        that size, stillness kept at the thumbnail's)."""
        self._pictures = {}
        self._last_still = self._calm_from = None
        self._still = None
        self._rearranged = np.full(shape, np.nan)
        self._rearranged_from = np.full(shape, np.nan)

    def _settle(self, fine: npt.NDArray[np.uint8], t: float, box: tuple[int, int, int, int] | None) -> None:
        """Pixels lying still again are compared with the pictures of the stretch they last lay still through,
        the camera's drift since taken out (see ``history``); the picture is kept. Stillness is followed at the
        thumbnail's size (cheap), pictures compared at the fine size."""
        assert self._changed is not None
        if self._last_still is None or self._calm_from is None or self._still is None:
            self._last_still = np.full(self._changed.shape, np.nan)
            self._calm_from = np.full(self._changed.shape, np.nan)
            self._still = np.zeros(self._changed.shape, bool)
        still = t - self._changed >= self.settle_s
        again = still & ~self._still & ~np.isnan(self._last_still)
        if box is not None:
            k = self.fine_scale / self.scale
            inside = np.zeros_like(again)
            inside[int(box[1] * k) : int(box[3] * k), int(box[0] * k) : int(box[2] * k)] = True
            again &= inside
        if again.any():
            self._compare(fine, t, again, box)
        self._calm_from = np.where(still, self._changed, self._calm_from)
        self._last_still = np.where(still, t, self._last_still)
        self._still = still
        self._pictures[t] = fine
        while len(self._pictures) > self.history:
            del self._pictures[next(iter(self._pictures))]

    def _compare(
        self, fine: npt.NDArray[np.uint8], t: float, again: npt.NDArray[np.bool_], box: tuple[int, int, int, int] | None
    ) -> None:
        assert self._last_still is not None and self._calm_from is not None
        assert self._rearranged is not None and self._rearranged_from is not None
        h, w = fine.shape
        marks = np.zeros((h, w), bool)
        before = np.full((h, w), np.nan)
        drifts: dict[int, tuple[float, float]] = {}  # one phase correlation per picture compared, per frame
        # pixels that last lay still within one stretch of STILL_BINNING_S are compared together
        bins = np.where(again, np.floor(np.nan_to_num(self._last_still) / STILL_BINNING_S), -1)
        # what came to rest is left out of the drift's estimate: on a plain cloth the cards that moved would
        # otherwise be all it goes by, and a copy lifted 12 mm off its twin would pass for the camera drifting
        moving = cv2.resize(again.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST)
        hidden = cv2.dilate(moving, np.ones((5, 5), np.uint8)).astype(bool)
        for b in np.unique(bins[again]):
            group = bins == b
            last = float(np.max(self._last_still[group]))
            calm = float(np.median(self._calm_from[group]))
            differs = self._differs(fine, calm, last, drifts, box, hidden)
            if differs is not None:
                hit = cv2.resize(group.view(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).astype(bool) & differs
                marks |= hit
                before[hit] = last
        self._rearranged = np.where(marks, t, self._rearranged)
        self._rearranged_from = np.where(marks, before, self._rearranged_from)

    def _differs(
        self,
        now: npt.NDArray[np.uint8],
        calm: float,
        last: float,
        drifts: dict[int, tuple[float, float]],
        box: tuple[int, int, int, int] | None,
        hidden: npt.NDArray[np.bool_],
    ) -> npt.NDArray[np.bool_] | None:
        """Where ``now`` differs from every picture kept from the stretch ``calm``..``last`` that its pixels lay
        still through, the camera's drift taken out; None when no picture that old is kept. Several pictures:
        the clock sees a pixel still while a hand's blurred edge is already over it, or while a card just
        slapped still shivers, by less than its threshold at an eighth of each side."""
        # a stretch longer than the pictures kept is seen by the oldest kept: else only its last moments are, and
        # those may hold the blurred edge of the hand that ended it (seed 108004, two players: a y5 lying still for
        # 14 s compared with its last tenth of a second alone, a hand passing over it then; it read "rearranged",
        # and a misread "y3" on it passed for a card laid)
        oldest = next(iter(self._pictures), None)
        if oldest is not None and calm <= oldest <= last:
            calm = oldest
        times = sorted({last - 0.1, (calm + last) / 2, calm + 0.05})
        pictures = [p for p in (self._picture_at(max(calm, x)) for x in times) if p is not None]
        if not pictures:
            return None
        middle = pictures[len(pictures) // 2]
        shift = drifts.get(id(middle))
        if shift is None:
            shift = drifts[id(middle)] = self._drift(middle, now, box, hidden)
        back = self._moved(now, (-shift[0], -shift[1]))  # now as the camera saw the table then
        least = None
        for picture in pictures:
            diff = cv2.absdiff(back, picture)
            least = diff if least is None else np.minimum(least, diff)
        assert least is not None
        return least > self.rearranged_threshold

    def _picture_at(self, t: float) -> npt.NDArray[np.uint8] | None:
        """The latest picture kept from no later than ``t``."""
        times = list(self._pictures)
        i = bisect.bisect_right(times, t)
        return None if i == 0 else self._pictures[times[i - 1]]

    @staticmethod
    def _drift(
        picture: npt.NDArray[np.uint8],
        now: npt.NDArray[np.uint8],
        box: tuple[int, int, int, int] | None,
        hidden: npt.NDArray[np.bool_],
    ) -> tuple[float, float]:
        """How far the camera drifted from ``picture`` to ``now``: one shift for the part watched but ``hidden``
        (most of a table lies still while a hand moves), found by phase correlation at half the pictures' size
        (a tenth of a pixel is enough; a third of the cost)."""
        if box is not None:
            picture, now = picture[box[1] : box[3], box[0] : box[2]], now[box[1] : box[3], box[0] : box[2]]
            hidden = hidden[box[1] : box[3], box[0] : box[2]]
        half = (max(1, now.shape[1] // 2), max(1, now.shape[0] // 2))
        if min(half) < 8:
            return 0.0, 0.0
        a = np.asarray(cv2.resize(picture, half, interpolation=cv2.INTER_AREA), np.float32)
        b = np.asarray(cv2.resize(now, half, interpolation=cv2.INTER_AREA), np.float32)
        out = cv2.resize(hidden.view(np.uint8), half, interpolation=cv2.INTER_NEAREST).astype(bool)
        a[out], b[out] = float(a.mean()), float(b.mean())
        # no window: one that fades the edges out weighs the middle, where the cards and hands are
        (dx, dy), response = cv2.phaseCorrelate(a, b)
        if response < MIN_DRIFT_RESPONSE or max(abs(dx), abs(dy)) > MAX_DRIFT_PX / 2:
            return 0.0, 0.0  # no texture to tell by, or not the camera's drift (a hand, a card) that it found
        return 2 * float(dx), 2 * float(dy)

    @staticmethod
    def _moved(picture: npt.NDArray[np.uint8], shift: tuple[float, float]) -> npt.NDArray[np.uint8]:
        if abs(shift[0]) < 0.05 and abs(shift[1]) < 0.05:
            return picture
        move = np.asarray([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
        size = (picture.shape[1], picture.shape[0])
        return np.asarray(cv2.warpAffine(picture, move, size, borderMode=cv2.BORDER_REPLICATE))

    def reading(self) -> ClockReading:
        """The clock as it stands now, unchanged by the frames ticked after: what :meth:`since` says for this
        frame, asked later (the session reads the next frame's cards while this one's are still being read)."""
        return ClockReading(
            self._changed,
            self._t,
            self._steady_from,
            self.scale,
            self._rearranged,
            self._rearranged_from,
            self.fine_scale,
            self._last,
        )

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
    rearranged: npt.NDArray[np.float64] | None = None
    rearranged_from: npt.NDArray[np.float64] | None = None
    fine_scale: int = 4
    picture: npt.NDArray[np.uint8] | None = None
    """The frame's thumbnail (blurred, colour, ``scale`` image pixels per pixel), never changed in place."""

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

    def rearranged_at(self, corners: npt.ArrayLike, min_share: float = REARRANGED_SHARE) -> npt.NDArray[np.float64]:
        """For each outline (N, 4, 2 image pixels), the latest time at which at least ``min_share`` of the
        picture inside it settled to something other than what it showed before (within
        :data:`REARRANGED_SPREAD_S`: a card's pixels settle over a few frames); NaN when never, before the first
        frame and while the picture is unsteady. A card landing on a neighbouring pile that reaches a corner
        of the outline rearranges less than that share."""
        return self.rearrangement(corners, min_share)[:, 0]

    def rearrangement(self, corners: npt.ArrayLike, min_share: float = REARRANGED_SHARE) -> npt.NDArray[np.float64]:
        """(N, 2): :meth:`rearranged_at`, and the latest time the picture it differs from was seen still (a
        card lifted off one that had lain still since it landed differs from a picture of that card; a card
        that landed and was covered by a hand before it lay still long enough differs from one before it)."""
        boxes = np.asarray(corners, np.float64).reshape(-1, 4, 2)
        out = np.full((len(boxes), 2), np.nan)
        if self.rearranged is None or self.rearranged_from is None or self.t < self.steady_from:
            return out
        h, w = self.rearranged.shape
        for i, box in enumerate(boxes):
            # the middle of the outline's box (a fifth off each side): inside the card however it is turned,
            # and a neighbour's card rarely reaches it; plain slices, as this runs for every card every frame
            small = box / self.fine_scale
            low, high = small.min(axis=0), small.max(axis=0)
            inset = (high - low) / 5
            x0, y0 = np.maximum(np.floor(low + inset).astype(int), 0)
            x1, y1 = np.minimum(np.ceil(high - inset).astype(int), (w, h))
            if x1 <= x0 or y1 <= y0:
                continue
            times = self.rearranged[y0:y1, x0:x1].ravel()
            marked = ~np.isnan(times)
            need = min_share * times.size
            if np.count_nonzero(marked) < need:
                continue  # the common case, cheaply: too little of it ever came to rest rearranged
            times, before = times[marked], self.rearranged_from[y0:y1, x0:x1].ravel()[marked]
            ordered = np.sort(times)
            ends = np.unique(ordered)
            counts = np.searchsorted(ordered, ends, "right") - np.searchsorted(ordered, ends - REARRANGED_SPREAD_S)
            enough = np.nonzero(counts >= need)[0]
            if len(enough):
                latest = float(ends[enough[-1]])
                recent = (times <= latest) & (times >= latest - REARRANGED_SPREAD_S)
                out[i] = (latest, float(np.max(before[recent])))
        return out


def greatest_channel(image: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Each pixel's greatest channel (a grey picture as it is): ``image.max(axis=2)`` in a twentieth of its time
    on a thumbnail (numpy reduces a short last axis element by element; this takes whole planes at once).

    >>> image = np.random.default_rng(0).integers(0, 256, (9, 16, 3), dtype=np.uint8)
    >>> bool(np.array_equal(greatest_channel(image), image.max(axis=2)))
    True
    """
    if image.ndim != 3:
        return image
    out = image[..., 0].copy()
    for channel in range(1, image.shape[2]):
        np.maximum(out, image[..., channel], out=out)
    return out


def _thumb_size(width: int, height: int, scale: int = SCALE) -> tuple[int, int]:
    return max(1, width // scale), max(1, height // scale)


def _thumb(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    size = _thumb_size(image.shape[1], image.shape[0])
    small = _shrunk(image, (size[0] * 2, size[1] * 2)) if min(image.shape[:2]) >= 4 * SCALE else image
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    return np.asarray(cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (5, 5), 0), np.uint8)


def _grey(image: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return np.asarray(cv2.GaussianBlur(grey, (3, 3), 0), np.uint8)


def _halved(image: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """``image`` halved by interpolation while still at least four times ``size`` (width, height)."""
    while image.shape[1] >= 4 * size[0] and image.shape[0] >= 4 * size[1]:
        half = (image.shape[1] // 2, image.shape[0] // 2)
        image = np.asarray(cv2.resize(image, half, interpolation=cv2.INTER_LINEAR), np.uint8)
    return image


def _shrunk(image: npt.NDArray[np.uint8], size: tuple[int, int]) -> npt.NDArray[np.uint8]:
    """``image`` averaged down to ``size`` (width, height): halved by interpolation first while still at least
    four times as big, then averaged over areas. The same numbers as averaging at once (within a level at 720p)
    in half the time: most of an area average's cost is in the full-size picture.

    >>> image = np.random.default_rng(0).integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    >>> at_once = cv2.resize(image, (160, 90), interpolation=cv2.INTER_AREA).astype(int)
    >>> bool(np.abs(_shrunk(image, (160, 90)).astype(int) - at_once).max() <= 1)
    True
    """
    image = _halved(image, size)
    return np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
