"""Where the arm that put a card down came from: a card's player, told by the arm holding it as it lands.

Every card played reaches the centre in a hand whose arm runs back to the player who played it; the seat it
leaves the picture by (or ends at) names the player even when the card was never seen face up in front of them.
:class:`ArmWatch` keeps what lies over the table at rest (each thumbnail pixel's colour once the change clock
saw it still for ``still_s``: :class:`~vision.change.ChangeClock`), and, for the last ``keep_s`` of frames,
where something lies over it now: a hand, an arm, a card in flight. :meth:`ArmWatch.arms_to` then answers, for a
point (a card that just landed) and a stretch of video time, where each frame's arm reaching to that point runs
back to: of the rays cast from the point, the longest run of foreground from it (an arm is long and starts at
the hand over the card; another player's arm crossing a ray leaves a gap before it, and ends that ray's run);
the middle of the band of rays about as long, since a ray along the arm's edge runs as far as one along its
middle. Which seat that is, is the referee's business (:meth:`referee.tracker.seats.SeatSorter.seat_reaching`).

>>> import numpy as np
>>> from vision.change import ChangeClock
>>> clock, watch = ChangeClock(), ArmWatch()
>>> table = np.full((360, 640, 3), 90, np.uint8)
>>> for i in range(10):  # the table at rest for a second
...     clock.tick(table, i / 10); watch.add(clock.reading())
>>> reaching = table.copy(); reaching[170:190, 300:640] = 200  # an arm from the right edge to x = 300
>>> clock.tick(reaching, 1.0); watch.add(clock.reading())
>>> [(round(x), round(y)) for x, y in watch.arms_to((305.0, 180.0), 0.9, 1.1)]  # runs off the right edge
[(636, 180)]
>>> watch.arms_to((100.0, 100.0), 0.9, 1.1)  # nothing reaches there
[]
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from vision.change import ClockReading, greatest_channel

Point = tuple[float, float]

RAYS = 60
"""Directions cast from the point (6 degrees apart): at a thumbnail pixel per 8 image pixels, a ray 40 pixels long
sweeps past a neighbour's sample by 4 pixels, an arm at 720p is 6-10 wide."""
STEP_PX = 0.75
"""Thumbnail pixels between samples along a ray."""
GAP_PX = 3.0
"""A ray's run ends after this many thumbnail pixels of table: a knuckle's shading, a sleeve's cuff, a card in
flight held by its edge break an arm for a pixel or two; another arm crossing lies farther off."""
START_PX = 2.0
"""The run starts this near the point: the hand is over the card that lands."""
BAND = 0.7
"""Rays whose run is at least this share of the longest, next to it, make the arm's band."""
APART_DEG = 30.0
"""A second arm's rays lie at least this far round from the first's band (a wide arm's edge rays are its own)."""
EDGE_PX = 0.5
"""An arm's end this near the picture's edge (thumbnail pixels) ran off it."""
OTHER_ARM_PX = 12.0
"""A second arm runs at least this far back from the card (thumbnail pixels, 96 image pixels at 720p): a hand
alone over the card, or the first arm's shadow, runs less far."""


@dataclass
class ArmWatch:
    """Foreground over the table at rest for the last ``keep_s`` of frames (see the module docstring).
    ``threshold``: levels (any colour channel, in the clock's blurred thumbnail) by which a pixel must differ from
    the table at rest to lie over it; ``busy_share``: a frame with more than this share over the table (the
    camera moved, the light changed) shows no arm."""

    still_s: float = 0.5
    threshold: int = 20
    keep_s: float = 3.0
    busy_share: float = 0.3
    _rest: npt.NDArray[np.int16] | None = field(default=None, repr=False)
    _scale: int = field(default=8, repr=False)
    _frames: deque[tuple[float, npt.NDArray[np.bool_]]] = field(default_factory=deque, repr=False)

    def add(self, reading: ClockReading) -> None:
        """Takes the change clock's reading of the next frame (:meth:`~vision.change.ChangeClock.reading`)."""
        picture, changed = reading.picture, reading.changed
        if picture is None or changed is None:
            return
        now = picture.astype(np.int16)
        if self._rest is None or self._rest.shape != now.shape:
            self._rest, self._frames = now, deque()
        else:
            # a pixel the clock saw still long enough shows the table at rest (or a card come to rest on it)
            self._rest = np.where((changed <= reading.t - self.still_s)[..., None], now, self._rest)
        self._scale = reading.scale
        diff = np.abs(now - self._rest)
        over = greatest_channel(diff) > self.threshold
        self._frames.append((reading.t, over))
        while self._frames and self._frames[0][0] < reading.t - self.keep_s:
            self._frames.popleft()

    def arms_to(self, point: Point, t0: float, t1: float) -> list[Point]:
        """For each frame kept from ``t0`` to ``t1`` (video seconds) in which something reaches ``point`` (image
        pixels), where it runs back to, in image pixels (the picture's edge when it runs off it); frames too busy
        to tell (see ``busy_share``) are left out."""
        out = []
        for t, over in self._frames:
            if t0 <= t <= t1 and over.mean() <= self.busy_share:
                # a thumbnail pixel's middle lies half a pixel in, at either scale
                scale = self._scale
                end = arm_end(over, ((point[0] + 0.5) / scale - 0.5, (point[1] + 0.5) / scale - 0.5))
                if end is not None:
                    out.append(((end[0] + 0.5) * scale - 0.5, (end[1] + 0.5) * scale - 0.5))
        return out

    def every_arm_to(self, point: Point, t0: float, t1: float) -> list[list[Reach]]:
        """For each frame kept from ``t0`` to ``t1`` (video seconds), each arm reaching ``point`` (image pixels):
        where it runs back to, longest first (:func:`arm_ends`: two at most), and whether it runs off the picture;
        frames too busy to tell are left out, frames where nothing reaches it give an empty list."""
        out = []
        scale = self._scale
        at = ((point[0] + 0.5) / scale - 0.5, (point[1] + 0.5) / scale - 0.5)
        for t, over in self._frames:
            if t0 <= t <= t1 and over.mean() <= self.busy_share:
                h, w = over.shape
                out.append(
                    [
                        Reach(((x + 0.5) * scale - 0.5, (y + 0.5) * scale - 0.5), _at_edge(x, y, w, h))
                        for x, y in arm_ends(over, at)
                    ]
                )
        return out


class Reach(NamedTuple):
    """Where an arm reaching a point runs back to (image pixels), and whether it runs off the picture there."""

    end: Point
    off_picture: bool


def _at_edge(x: float, y: float, w: int, h: int) -> bool:
    return min(x, y, w - 1 - x, h - 1 - y) <= EDGE_PX


def arm_end(over: npt.NDArray[np.bool_], point: Point) -> Point | None:
    """Where the foreground in ``over`` that reaches ``point`` runs back to (both in ``over``'s pixels): the
    middle of the band of longest runs of rays cast from the point (see the module docstring), clipped to the
    picture; None when nothing lies over the point.

    >>> over = np.zeros((40, 80), bool); over[18:23, 30:] = True   # an arm from the right edge
    >>> over[0:18, 33:36] = True                                    # another crossing it, from the top
    >>> [round(v) for v in arm_end(over, (31.0, 20.0))]
    [79, 20]
    """
    ends = arm_ends(over, point, most=1)
    return ends[0] if ends else None


def arm_ends(over: npt.NDArray[np.bool_], point: Point, *, most: int = 2, min_px: float = OTHER_ARM_PX) -> list[Point]:
    """Where each arm in ``over`` that reaches ``point`` runs back to, longest first, at most ``most``: the first
    as :func:`arm_end`; each next one the band of longest runs among the rays at least :data:`APART_DEG` from
    every band found, if its run is at least ``min_px`` long (a hand alone, a knuckle's shadow beside the arm is
    shorter than an arm from a seat); two players reaching one card at once show two.

    >>> over = np.zeros((40, 80), bool); over[18:23, 30:] = True   # an arm from the right edge
    >>> over[0:20, 29:34] = True                                    # another from the top, its hand on it too
    >>> [[round(v) for v in end] for end in arm_ends(over, (31.0, 20.0))]
    [[79, 20], [31, 0]]
    >>> over[0:12, 29:34] = False                                   # a hand alone, no arm behind it
    >>> [[round(v) for v in end] for end in arm_ends(over, (31.0, 20.0))]
    [[79, 20]]
    """
    h, w = over.shape
    cx, cy = point
    radii = np.arange(START_PX, math.hypot(w, h), STEP_PX)
    angles = np.linspace(0.0, 2 * math.pi, RAYS, endpoint=False)
    xs = cx + np.cos(angles)[:, None] * radii
    ys = cy + np.sin(angles)[:, None] * radii
    inside = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    hit = np.zeros(xs.shape, bool)
    hit[inside] = over[np.round(ys[inside]).astype(int), np.round(xs[inside]).astype(int)]
    near = over[int(np.clip(round(cy), 0, h - 1)), int(np.clip(round(cx), 0, w - 1))] or hit[:, :3].any()
    if not near:
        return []
    gap = max(1, round(GAP_PX / STEP_PX))
    runs = _runs(hit, inside.sum(axis=1), gap)
    free = np.ones(RAYS, bool)
    apart = round(APART_DEG / 360 * RAYS)
    ends: list[Point] = []
    while len(ends) < most and free.any():
        longest = int(np.flatnonzero(free)[np.argmax(runs[free])])
        if runs[longest] <= 0 or (ends and runs[longest] * STEP_PX + START_PX < min_px):
            break
        band = _band(runs, longest, free)
        for k in range(band[0] - apart, band[-1] + apart + 1):
            free[k % RAYS] = False
        ends.append(_reach(runs, band, point, w, h))
    return ends


def _band(runs: npt.NDArray[np.float64], longest: int, free: npt.NDArray[np.bool_]) -> list[int]:
    """The rays next to ``longest`` (free ones, in order round the circle, as numbers that may run past either
    end) whose runs are at least :data:`BAND` of its run."""
    band = [longest]
    for step in (-1, 1):
        k = longest + step
        while len(band) < RAYS and free[k % RAYS] and runs[k % RAYS] >= BAND * runs[longest]:
            band.append(k)
            k += step
    return sorted(band)


def _reach(runs: npt.NDArray[np.float64], band: list[int], point: Point, w: int, h: int) -> Point:
    """Where the arm along ``band``'s middle ray runs back to from ``point``: as far as the band's shortest run,
    no farther than the picture's edge."""
    cx, cy = point
    middle = float(np.mean(band)) * 2 * math.pi / RAYS
    reach = float(min(runs[k % RAYS] for k in band)) * STEP_PX + START_PX
    dx, dy = math.cos(middle), math.sin(middle)
    # no farther than the picture's edge, along the arm (clipping x and y apart would turn it)
    for d, c, size in ((dx, cx, w), (dy, cy, h)):
        if d > 1e-9:
            reach = min(reach, (size - 1 - c) / d)
        elif d < -1e-9:
            reach = min(reach, -c / d)
    return (cx + dx * max(reach, 0.0), cy + dy * max(reach, 0.0))


def _runs(hit: npt.NDArray[np.bool_], edge: npt.NDArray[np.int_], gap: int) -> npt.NDArray[np.float64]:
    """Per ray (a row of ``hit``), how many samples from the start its foreground runs before more than ``gap``
    samples of table in a row; a run that reaches the picture's edge (the ray's sample ``edge``) runs on beyond
    it, and counts double its length (the arm goes on out of the picture)."""
    rays, samples = hit.shape
    index = np.arange(samples)
    miss = ~hit
    before = np.concatenate([np.zeros((rays, 1), np.int64), np.cumsum(miss, axis=1)], axis=1)
    window = before[:, gap + 1 :] - before[:, : -(gap + 1)]  # misses in [j, j + gap], each j
    broken = (window == gap + 1) & (index[None, : window.shape[1]] + gap < edge[:, None])
    first = np.where(broken.any(axis=1), broken.argmax(axis=1), samples)
    within = hit & (index[None, :] < np.minimum(first, edge)[:, None])
    last = np.where(within, index[None, :], -1).max(axis=1)
    ran_out = (first == samples) & (last >= 0)
    return np.where(ran_out, 2.0 * edge, last + 1.0)
