"""Measuring a line of shingled cards in the picture: how long it is, and the step its cards are laid at.

A line of cards laid each partly over the last (a player's leftover Ligretto pile, a fan) is hard to count by its
boxes: the detector boxes a card under another twice (its strip, and its whole outline), or two strips as one,
and one box more or less is one card more or less. The picture itself holds the count more plainly. Along the
line, every card's edge crosses it at the same step, a strong straight edge the whole way across; and the line
of cards runs, unlike the table, from the outer edge of the first card to the outer edge of the last.

:func:`measure_shingles` cuts the band along the line out of the picture, straightened, and measures both:

- the **step**: the edges' profile along the band (the horizontal gradient, averaged across it) repeats at the
  step, so its autocorrelation peaks there, and at its multiples (every second edge), and wherever the backs'
  own printed pattern repeats. All peaks are returned with their strength; which one is the line's step is for
  the caller to say, who knows the cards' size (:func:`referee.tracker.fan_length.shingled_count`).
- the **extent**: the run of the band's columns whose colour differs from the table's (the band's two ends,
  taken beyond the boxes, are table), around the line's middle; where the cards' colours are all the cloth's
  too, the run of columns nearer the line's own colours than the table's (marked as not ``seen``).

Vision only: no rules, no table plane. Pixels in, pixels out.

>>> import cv2
>>> picture = np.full((200, 400, 3), (40, 70, 110), np.uint8)          # a brown table
>>> for i in range(6):                                                   # six cards 20 px apart, each over the last
...     x = 100 + 20 * i
...     _ = cv2.rectangle(picture, (x, 60), (x + 40, 120), (60, 60, 220), -1)
...     _ = cv2.rectangle(picture, (x, 60), (x + 40, 120), (255, 255, 255), 2)
>>> boxes = np.float32([[[x, 60], [x + 40, 60], [x + 40, 120], [x, 120]] for x in range(100, 220, 20)])
>>> line = measure_shingles(picture, boxes, card_px=40.0)
>>> round(line.extent_px), round(line.strongest_step())
(143, 20)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt
from scipy.spatial.distance import cdist

MIN_STEP_PX = 3
"""Steps shorter than this are no step: at 720p a 3 px strip hides the card's back."""
MAX_STEP_SHARE = 0.8
"""Steps up to this share of a card's extent along the line (a wider step is no longer a shingled line)."""
MIN_PEAK = 0.15
"""An autocorrelation peak below this is the table's grain or noise, not a step."""
TABLE_MARGIN = 0.8
"""The band runs this many cards' extents beyond the boxes at each end: half of it is taken as the table."""
MIN_CONTRAST = 25.0
"""A pixel of the band is a card's when its colour lies this far (BGR levels) from the table's, at least."""
TABLE_SAMPLES = 64
"""The table's colours: this many pixels taken evenly from the band's two ends."""
GAP_PX = 3
"""Columns like the table no wider than this inside the line are a card's edge or a shadow, not its end."""
OUTSIDE = 0.75
"""The line's band may run this share of a card's extent out of the picture and still be measured: the boxes
carry a card cut by the picture's edge on beyond it, and the picture's border, carried on too, keeps the card's
colour to about where it ends. Of 14 leftover lines cut by 15-25 px at the top of the picture (four-player rounds,
seeds 100700-100706 and 100800-100806, the final count's boxes and picture), 8 measured, all 8 right (the
lattice of their spots: 1 of 8); the other 6 failed on their colours as lines wholly in the picture do."""
AGREEMENT = 0.3
"""The extent found and the boxes' own (from the first box's outer edge to the last's) must agree within this
share of a card, or the colours misled (a back much like the cloth, a neighbouring card taken for the line):
over 10 lines of rendered rounds the two agreed within 5 px where the picture was read right, and one line of
pale backs on a pale table measured 33 px against its boxes' 79."""


REACH = 1.0
"""Where the table's colours bound no extent, the line's own colours may run this many cards' extents past its
boxes' ends: the detector misses a line's end card most often, its whole top card among them (white and pale
backs on a cloth of their colours). The final counts of 35 rendered two- and four-player rounds, re-counted offline:
leftovers exact 106 -> 108 of 122 players (cards miscounted 18 -> 15) against the boxes' own extent; a reach of
two cards ran lines into their neighbours (an eight-player line of 6 counted 10)."""


@dataclass(frozen=True)
class Shingles:
    """A line of cards as the picture shows it: ``extent_px`` from the outer edge of its first card to that of
    its last, along ``axis`` (a unit vector in image pixels), and ``steps``: the candidate steps (pixels) with
    their strength (the autocorrelation's peak, 0..1), shortest first. ``seen``: whether the picture's colours
    bound the extent; where they tell nothing the boxes agree with (a pale back on a cloth of its colours, a dark
    patterned back on a dark dotted cloth), the extent is the run of the line's own colours, up to :data:`REACH`
    past its boxes, else the boxes' own (from the first box's outer edge to the last's): good to a card's edge or
    two, not to the millimetre."""

    extent_px: float
    axis: tuple[float, float]
    steps: tuple[tuple[float, float], ...]
    seen: bool = True

    def strongest_step(self) -> float | None:
        return max(self.steps, key=lambda s: s[1])[0] if self.steps else None


def measure_shingles(
    image: npt.NDArray[np.uint8], quads: npt.ArrayLike, card_px: float, axis: npt.ArrayLike | None = None
) -> Shingles | None:
    """The line of cards boxed by ``quads`` (N, 4, 2 image pixels) in ``image`` (BGR): its extent and candidate
    steps (see the module's docstring). ``card_px``: a card's extent along the line, in pixels near it.
    ``axis``: the line's direction (unit vector); None: the boxes' centres' main direction (two boxes at least).
    None when the line cannot be measured: too few boxes for an axis, or its band out of the picture. Where the
    table's colours (:func:`_extent`) and their median (:func:`_extent_by_median`) find no extent that agrees with
    the boxes' (see :data:`AGREEMENT`), the line is not ``seen``: its extent is the run of its own colours
    (:func:`_extent_by_own_colours`) where that lies within :data:`REACH` past the boxes' ends, else the boxes'."""
    boxes = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if axis is None:
        if len(boxes) < 2:
            return None
        centres = boxes.mean(axis=1)
        _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
        axis = vt[0]
    along_axis = np.asarray(axis, np.float64) / np.linalg.norm(axis)
    across = np.array([-along_axis[1], along_axis[0]])
    along = boxes.reshape(-1, 2) @ along_axis
    pad = TABLE_MARGIN * card_px
    a0, a1 = float(along.min() - pad), float(along.max() + pad)
    sides = boxes @ across
    s0, s1 = float(np.median(sides.min(axis=1))), float(np.median(sides.max(axis=1)))
    middle, half = (s0 + s1) / 2, (s1 - s0) / 4  # the middle half across: clear of neighbouring rows
    length = round(a1 - a0)
    edge = int(0.5 * pad)
    if edge < 2 or length - 2 * edge < 2 * MIN_STEP_PX + 2:
        return None
    sides_across = (across * (middle - half), across * (middle + half))
    if not in_view(image, (along_axis * (a0 + pad), along_axis * (a1 - pad)), *sides_across, OUTSIDE * card_px):
        return None  # the line's end is out of the picture: its extent is unknown
    band = straightened_band(image, along_axis, across, (a0, a1), (middle, half))
    boxes_extent = a1 - a0 - 2 * pad
    measures = (measure(band, edge) for measure in (_extent, _extent_by_median))  # the second only if need be
    extent = next((e for e in measures if e is not None and abs(e - boxes_extent) <= AGREEMENT * card_px), None)
    inner = slice(int(pad), length - int(pad))
    direction = (float(along_axis[0]), float(along_axis[1]))
    steps = _steps(band[:, inner], card_px)
    if extent is not None:
        return Shingles(extent, direction, steps)
    reach = REACH * card_px
    past_the_boxes = (along_axis * (a0 + pad - reach), along_axis * (a1 - pad + reach))
    if in_view(image, past_the_boxes, *sides_across, 0.5 * card_px):
        wide = straightened_band(image, along_axis, across, (a0 - reach, a1 + reach), (middle, half))
        between = slice(int(pad + reach) + 2, length - int(pad) + int(reach) - 2)  # clear of the boxes' rims
        own = _extent_by_own_colours(wide, edge, between)
        if own is not None and -AGREEMENT * card_px <= own - boxes_extent <= reach:
            return Shingles(own, direction, steps, seen=False)
    return Shingles(boxes_extent, direction, steps, seen=False)


def straightened_band(
    image: npt.NDArray[np.uint8],
    along: npt.NDArray[np.float64],
    across: npt.NDArray[np.float64],
    ends: tuple[float, float],
    middle_half: tuple[float, float],
) -> npt.NDArray[np.float32]:
    """The band from ``ends[0]`` to ``ends[1]`` along ``along`` (pixels on that axis), ``middle_half[1]`` either
    side of ``middle_half[0]`` across, straightened: one column per pixel along."""
    (a0, a1), (middle, half) = ends, middle_half
    length, height = round(a1 - a0), max(4, round(2 * half))
    corners = [along * a0 + across * (middle - half), along * a1 + across * (middle - half)]
    source = np.array([*corners, along * a0 + across * (middle + half)], np.float32)
    warp = cv2.getAffineTransform(source, np.array([[0, 0], [length, 0], [0, height]], np.float32))
    warped = cv2.warpAffine(image, warp, (length, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(warped, np.float32)


def in_view(
    image: npt.NDArray[np.uint8],
    ends: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    side0: npt.NDArray[np.float64],
    side1: npt.NDArray[np.float64],
    outside: float,
) -> bool:
    """Whether the band from ``ends[0]`` to ``ends[1]`` between the sides ``side0`` and ``side1`` (offsets across)
    lies in ``image``, or no further than ``outside`` pixels out of it."""
    corners = np.array([end + side for end in ends for side in (side0, side1)])
    rows, cols = image.shape[:2]
    return bool(corners.min() >= -outside and (corners - (cols, rows)).max() <= outside)


def _steps(band: npt.NDArray[np.float32], card_px: float) -> tuple[tuple[float, float], ...]:
    """The autocorrelation peaks of the band's edge profile (a card's edge crosses the whole band; the strongest
    colour channel's gradient, so that a pale back on a pale cloth still shows), sub-pixel."""
    gradient = np.abs(cv2.Sobel(band, cv2.CV_32F, 1, 0, ksize=3)).max(axis=2).mean(axis=0)
    if len(gradient) < 2 * MIN_STEP_PX + 2:
        return ()
    profile = gradient - np.convolve(gradient, np.ones(9, np.float32) / 9, "same")
    ac = np.correlate(profile, profile, "full")[len(profile) - 1 :]
    if ac[0] <= 0:
        return ()
    ac = ac / ac[0]
    steps = []
    for k in range(MIN_STEP_PX, min(int(MAX_STEP_SHARE * card_px), len(ac) - 2) + 1):
        before, here, after = ac[k - 1], ac[k], ac[k + 1]
        if here >= before and here >= after and here > MIN_PEAK:
            curve = before - 2 * here + after
            steps.append((k + (0.5 * (before - after) / curve if curve else 0.0), float(here)))
    return tuple(steps)


def _extent(band: npt.NDArray[np.float32], edge: int) -> float | None:
    """The run of columns unlike the table around the band's middle (pixels), the table's colours taken from the
    band's ``edge`` columns at each end; None when the middle is table-coloured.

    A column is a card's where most of its pixels lie :data:`MIN_CONTRAST` or more from every colour the table
    shows at the ends (:data:`TABLE_SAMPLES` of them): a striped or checked cloth shows two or three colours, and a
    pale back lies far from each although near their mean (seed 101018, four players: a red-pink line on a grey
    and green striped cloth measured 136 px against its boxes' 180 by the ends' median colour, 184 by their
    colours). Where it finds no run the boxes agree with, :func:`_extent_by_median` may. The 49 leftover lines of
    16 four-player rounds (seeds 101000-101020, measured again offline) and the 21 of two eight-player ones (seeds
    101000-101001): cards miscounted 34 -> 24 and 37 -> 37, no player's count made worse."""
    table = _samples(np.concatenate([band[:, :edge], band[:, -edge:]], axis=1))
    near = _nearest(table, table, self_excluded=True)
    threshold = max(MIN_CONTRAST, 1.5 * float(np.percentile(near, 90)))
    far = _nearest(band.reshape(-1, 3), table).reshape(band.shape[:2]) > threshold
    return _run_around_middle(far.mean(axis=0) > 0.5)


def _extent_by_median(band: npt.NDArray[np.float32], edge: int) -> float | None:
    """The run of columns unlike the table around the band's middle, the table being the median colour of the
    band's ``edge`` columns at each end: on a plain cloth, :func:`_extent` loses a line where a neighbouring card,
    or the line's own last corner, reaches into an end and lends the table its colours (eight players, seeds
    101000-101001: three lines measured by the median, none by the colours; four players, seed 101000, one)."""
    columns = np.median(band, axis=0)  # (length, 3)
    ends = np.concatenate([columns[:edge], columns[-edge:]])
    table = np.median(ends, axis=0)
    distance = np.linalg.norm(columns - table, axis=1)
    threshold = max(MIN_CONTRAST, 1.5 * float(np.percentile(np.linalg.norm(ends - table, axis=1), 90)))
    return _run_around_middle(distance > threshold)


def _extent_by_own_colours(band: npt.NDArray[np.float32], edge: int, inner: slice) -> float | None:
    """The run of columns around the band's middle most of whose pixels lie nearer the line's own colours (taken
    between its boxes, ``inner``) than the table's (the ``edge`` columns at each end). Where every colour of the
    cards is also one of the cloth's (a white back printed black, on white dots on dark blue), no threshold tells
    them apart, but each pixel's nearest sample still does: the back's black lies nearer its own black than the
    cloth's blue. The run may pass the boxes' ends, over a card the detector missed there."""
    table = _samples(np.concatenate([band[:, :edge], band[:, -edge:]], axis=1))
    cards = _samples(band[:, inner])
    if not len(table) or not len(cards):
        return None
    pixels = band.reshape(-1, 3)
    nearer_own = (_nearest(pixels, cards) < _nearest(pixels, table)).reshape(band.shape[:2])
    return _run_around_middle(nearer_own.mean(axis=0) > 0.5)


def _samples(region: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """About :data:`TABLE_SAMPLES` of ``region``'s pixels (BGR rows), taken evenly."""
    pixels = region.reshape(-1, 3)
    return pixels[:: max(1, len(pixels) // TABLE_SAMPLES)]


def _run_around_middle(card: npt.NDArray[np.bool_]) -> float | None:
    """The length of the run of card columns around the band's middle; None when the middle is no card's."""
    middle = len(card) // 2
    if not card[max(0, middle - 2) : middle + 3].any():
        return None
    return float(_run_end(card, middle, +1) - _run_end(card, middle, -1) + 1)


def _nearest(
    colours: npt.NDArray[np.float32], table: npt.NDArray[np.float32], self_excluded: bool = False
) -> npt.NDArray[np.float64]:
    """Each of ``colours``' distance to the nearest of ``table``'s (BGR levels); ``self_excluded``: ``colours``
    are ``table`` itself, each compared with the others only."""
    distances = cdist(colours, table)
    if self_excluded:
        np.fill_diagonal(distances, np.inf)
    return distances.min(axis=1)


def _run_end(card: npt.NDArray[np.bool_], start: int, direction: int) -> int:
    """The last card column from ``start`` going ``direction``, across gaps of up to :data:`GAP_PX` columns."""
    last, i, gap = start, start, 0
    while 0 <= i + direction < len(card) and gap <= GAP_PX:
        i += direction
        if card[i]:
            last, gap = i, 0
        else:
            gap += 1
    return last
