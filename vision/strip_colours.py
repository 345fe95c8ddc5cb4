"""Backs told by their colour where only a strip of them shows: a stack fanned where it lay after the round.

After the stop each stack may be turned over and fanned where it lay: every player's backs in one fan, each card
but the top showing a strip of 6-30 % of itself. The backs network reads such a strip right about 57 % of the time
among other backs (``models/recogniser.md``): it sees a crop of the whole outline, most of it the cards above.
What shows of a strip is mostly its border and lettering, in its set's colour (``card-look.md``: the four sets of
a box differ by lettering colour), and the picture holds the same backs whole, read surely, in the same light:
the top of each fan, the leftover lines. So each card is named by the colour of what no card above it covers,
as the nearest of the colours of the backs read whole (:func:`read_fan`).

Which end of a fan is its top the boxes do not say; the colours do: taken the wrong way, each card's "strip" is
part of the card above it as well, and the colours fit the references worse.

Vision only: quads in image pixels, colours in BGR; which back each reference is, the caller says.

>>> import cv2
>>> picture = np.full((120, 300, 3), (40, 90, 140), np.uint8)     # a brown table
>>> def back(x, colour):                                           # a white back, a border in its set's colour
...     _ = cv2.rectangle(picture, (x, 20), (x + 60, 100), (245, 245, 245), -1)
...     _ = cv2.rectangle(picture, (x, 20), (x + 60, 100), colour, 5)
>>> red, cyan = (40, 40, 220), (220, 200, 40)
>>> for i, colour in enumerate([red, cyan, cyan, red]):            # a fan, each card 15 px right of the last
...     back(20 + 15 * i, colour)
>>> quads = [np.float32([[x, 20], [x + 60, 20], [x + 60, 100], [x, 100]]) for x in (20, 35, 50, 65)]
>>> refs = {"red-red": np.float64(red), "red-light-blue": np.float64(cyan)}
>>> [(r.back, round(r.shown, 2)) for r in read_fan(picture, quads, refs)]
[('red-red', 0.25), ('red-light-blue', 0.25), ('red-light-blue', 0.25), ('red-red', 1.0)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

INKED_SATURATION = 90
INKED_DARK = 90
"""A pixel is ink (border, lettering, symbol) when its saturation exceeds ``INKED_SATURATION`` or its value is
below ``INKED_DARK`` (black lettering); the white of a back is neither. Over the last frames of 21 rendered
rounds (seeds 100400-100406), the median ink colour of what shows of each back under the others, against the
backs read whole in the same frame, named 852 of 925 strips right (the outlines drawn as rendered)."""
MIN_INK = 4
"""Fewer ink pixels than this say nothing (a strip a pixel or two wide, or the box off the card)."""
CLEAR_MARGIN = 10.0
"""A strip whose colour lies within this of two references' (BGR levels) is named by neither: sets of two boxes
may share a lettering colour (purple, green), and the light shifts them. On the strips above, the nearest named
1008 right and 58 wrong where the next lay at least this further, against 1031 and 85 without the margin."""
UNFIT = 60.0
"""What a card whose strip shows no ink costs the choice of the fan's top (see :func:`read_fan`): about as far
from the references as a strip read through its neighbour."""


@dataclass(frozen=True)
class StripReading:
    """One card of a fan: the back whose colour what shows of it is nearest (None: no ink showed), and the share
    of its outline no card above covers (1 for the top)."""

    back: str | None
    shown: float


def ink_colour(
    picture: npt.NDArray[Any], hsv: npt.NDArray[Any], mask: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64] | None:
    """The median colour (BGR) of the ink pixels under ``mask``; None when too few show."""
    hues = hsv[mask]
    inked = (hues[:, 1] > INKED_SATURATION) | (hues[:, 2] < INKED_DARK)
    if int(inked.sum()) < MIN_INK:
        return None
    return np.asarray(np.median(picture[mask][inked].astype(np.float64), axis=0))


def card_colour(picture: npt.NDArray[np.uint8], quad: npt.ArrayLike) -> npt.NDArray[np.float64] | None:
    """The ink colour of a whole card (a reference: a back read surely, nothing over it)."""
    corners = np.asarray(quad, np.float64).reshape(-1, 2)
    height, width = picture.shape[:2]
    x0, y0 = (max(0, int(v)) for v in np.floor(corners.min(axis=0)))
    x1, y1 = min(width, int(np.ceil(corners[:, 0].max())) + 1), min(height, int(np.ceil(corners[:, 1].max())) + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    part = picture[y0:y1, x0:x1]
    return ink_colour(part, cv2.cvtColor(part, cv2.COLOR_BGR2HSV), _mask(part.shape[:2], corners - (x0, y0)))


def read_fan(
    picture: npt.NDArray[np.uint8],
    quads: Sequence[npt.ArrayLike],
    references: Mapping[str, npt.NDArray[np.float64]],
) -> list[StripReading]:
    """Each card of a fan (``quads`` in order along it, image pixels) named by the colour of what no card above
    it covers, as the nearest of ``references`` (back: ink colour); the fan's top is the end that makes the
    colours fit the references best. Empty without references."""
    if not references or not quads:
        return []
    corners = np.concatenate([np.asarray(q, np.float64).reshape(-1, 2) for q in quads])
    height, width = picture.shape[:2]
    x0, y0 = (max(0, int(v)) for v in np.floor(corners.min(axis=0)))
    x1, y1 = (int(v) + 1 for v in np.ceil(corners.max(axis=0)))
    x1, y1 = min(width, x1), min(height, y1)
    if x1 <= x0 or y1 <= y0:
        return [StripReading(None, 0.0) for _ in quads]
    picture = picture[y0:y1, x0:x1]  # the fan's own box: a mask per card of the whole frame costs a frame each
    hsv = cv2.cvtColor(picture, cv2.COLOR_BGR2HSV)
    masks = [_mask(picture.shape[:2], np.asarray(quad, np.float64).reshape(-1, 2) - (x0, y0)) for quad in quads]
    names = list(references)
    colours = np.array([references[name] for name in names], np.float64)
    best: tuple[float, list[StripReading]] | None = None
    for order in (range(len(quads)), range(len(quads) - 1, -1, -1)):
        stack = list(order)  # bottom first: each card lies under every card after it
        readings: dict[int, StripReading] = {}
        cost = 0.0
        for k, i in enumerate(stack):
            shown = masks[i].copy()
            for above in stack[k + 1 :]:
                shown &= ~masks[above]
            share = float(shown.sum()) / max(1, int(masks[i].sum()))
            colour = ink_colour(picture, hsv, shown) if shown.any() else None
            if colour is None:
                readings[i] = StripReading(None, share)
                cost += UNFIT
                continue
            distances = np.linalg.norm(colours - colour, axis=1)
            ranked = np.argsort(distances)
            nearest = int(ranked[0])
            clear = len(ranked) < 2 or distances[ranked[1]] - distances[nearest] >= CLEAR_MARGIN
            readings[i] = StripReading(names[nearest] if clear else None, share)
            cost += float(distances[nearest])
        if best is None or cost < best[0]:
            best = (cost, [readings[i] for i in range(len(quads))])
    assert best is not None
    return best[1]


def _mask(shape: tuple[int, ...], quad: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(quad, np.float64)).astype(np.int32).reshape(-1, 1, 2)], 1)
    return mask.astype(bool)
