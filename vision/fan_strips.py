"""The ink colour of each card along a fan of backs: what tells whose each card of a fanned stack is.

After the round the centre stacks may be spread out face down where they lay, each into a fan: every card's back
shows as a strip, the card laid last whole. The detector boxes few of the strips, and the recogniser, made for
whole cards, reads a strip's back poorly; its colour says more. A set's lettering and frame are printed in one
colour (red, light blue, pink, black, ...), and a strip shows the end of its card's frame.

:func:`fan_strips` finds the fan's cards in the picture (the boxes give its direction and its whole card; its
strips' edges, which run right across it, give its step) and gives each card's ink colour, from the whole card
on. Whose each colour is, and which end of the stack the whole card is, are for the caller to say: it knows
whose some of the cards are.

Vision only: no rules, no table plane, no owners. Pixels in, colours out.

>>> import cv2
>>> picture = np.full((200, 400, 3), (40, 70, 110), np.uint8)               # a brown table
>>> inks = [(0, 0, 200), (200, 120, 0), (0, 0, 200), (40, 40, 40)]         # red, blue, red, black lettering
>>> for i, ink in enumerate(inks):                                          # each card over the last, 20 px on
...     x = 100 + 20 * i
...     _ = cv2.rectangle(picture, (x, 60), (x + 40, 120), (245, 245, 245), -1)
...     _ = cv2.rectangle(picture, (x + 6, 64), (x + 34, 116), ink, 4)        # a frame, and a logo inside
...     _ = cv2.rectangle(picture, (x + 12, 80), (x + 28, 100), ink, -1)
>>> strip, whole = [[100, 60], [120, 60], [120, 120], [100, 120]], [[160, 60], [200, 60], [200, 120], [160, 120]]
>>> fan = fan_strips(picture, np.float32([strip, whole]), cards=4, card_px=40.0)
>>> [_hue(ink) for ink in fan.inks], [round(v) for v in fan.whole_end]     # from the whole card on
(['black', 'red', 'blue', 'red'], [200, 90])
>>> fan_strips(picture, np.float32([strip, strip]), cards=4, card_px=40.0) is None   # no whole card boxed
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.shingles import in_view, straightened_band

Ink = tuple[float, float, float]
"""A card's ink colour in the fan: the median CIELAB colour (OpenCV's 8-bit scale: L 0-255, a and b centred on 0)
of its pixels unlike the backs' paper (lettering, frame, pattern)."""

PAPER_SHARE = 0.25
"""The backs' paper: the median of the fan's brightest pixels, this share of them."""
INK_CONTRAST = 30.0
"""A pixel is ink when it lies this far (CIELAB levels) from the paper."""
STRIP_MARGIN = 0.2
"""Each end of a strip, this share of it, is left out: the card edge's shadow, and the next card's edge where
the step is found a pixel off."""
MIN_STEP_PX = 3.0
"""A strip narrower than this shows no colour of its own (see :data:`vision.shingles.MIN_STEP_PX`)."""
MAX_STEP_SHARE = 0.8
"""A step wider than this share of a card is no fan: the cards lie apart."""
REACH_SHARE = 0.3
"""The fan is looked for this share of a card, and a card more, past its boxes at each end: the boxes of its
strips alone reach only to its whole card."""
CARD_SLACK = 0.08
"""The card's length along the fan, as the caller measures it, may be this share off in the picture (a table
plane found a little off, the camera's tilt)."""
WHOLE_OFF_LINE = 0.3
"""The fan's whole card is a box about a card long along the fan whose middle lies at most this share of the
fan's width off its line."""
WHOLE_SLACK = 0.1
"""The fan's whole card begins within this share of a card of where such a box does."""
WHOLE_INNER = 0.15
"""The whole card's inside, less this share of it at each end (its frame's edges), is crossed by no card's edge."""
BOX_SLACK = 0.15
"""The fan spans its boxes but for this share of a card at each end (a box a little too long)."""


@dataclass(frozen=True)
class FanStrips:
    """A fan of ``len(inks)`` cards: where its whole card lies and where its last strip ends (image pixels, the
    middles of the fan's two outer edges), each card's ink from the whole card on, and the step (pixels)."""

    whole_end: tuple[float, float]
    strips_end: tuple[float, float]
    inks: tuple[Ink, ...]
    step_px: float


def fan_strips(
    image: npt.NDArray[np.uint8],
    quads: npt.ArrayLike,
    cards: int,
    card_px: float,
    others: npt.ArrayLike | None = None,
) -> FanStrips | None:
    """The fan boxed (in part) by ``quads`` (N, 4, 2 image pixels, two boxes at least) in ``image`` (BGR), read as
    ``cards`` cards (see the module's docstring). ``card_px``: a card's length along the fan, in pixels near it.
    ``others``: boxes of other cards nearby (N, 4, 2), among which the fan's whole card may be (the detector
    boxed it, but its place was not linked with the fan's strips).

    Along the fan's band (:func:`_band`), the edge profile (:func:`_edge_profile`) is matched with the fan's comb:
    ``cards`` - 1 strips at one step and the whole card, at either end, where a box says a whole card lies
    (:func:`_fit_comb`). None when the band is out of the picture, no box is the whole card's, or no comb fits."""
    boxes = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    if len(boxes) < 2 or cards < 2 or card_px <= 0:
        return None
    centres = boxes.mean(axis=1)
    _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
    along = vt[0]
    across = np.array([-along[1], along[0]])
    reach = card_px * (1.0 + REACH_SHARE)
    projected = boxes @ along
    a0, a1 = float(projected.min() - reach), float(projected.max() + reach)
    sides = boxes @ across
    s0, s1 = float(np.median(sides.min(axis=1))), float(np.median(sides.max(axis=1)))
    middle, width = (s0 + s1) / 2, s1 - s0
    half = 0.4 * width  # most of a card's width: a strip's end of its frame runs right across it
    if not in_view(image, (along * a0, along * a1), across * (middle - half), across * (middle + half), card_px):
        return None
    band = straightened_band(image, along, across, (a0, a1), (middle, half)).astype(np.uint8)
    near = boxes if others is None else np.concatenate([boxes, np.asarray(others, np.float64).reshape(-1, 4, 2)])
    wholes = _whole_cards(near, along, across, (middle, width), card_px)
    inside = (float(projected.min()), float(projected.max()))
    comb = _fit_comb(_edge_profile(band), cards, card_px, [lo - a0 for lo in inside], [w - a0 for w in wholes])
    if comb is None:
        return None
    first, step, card, whole_first = comb
    span = card + (cards - 1) * step
    # each card is read over the part a strip shows: its last step, away from the whole card's outer edge
    edges = [card + k * step for k in range(cards)]
    if whole_first:
        spans = [(first + edge - step, first + edge) for edge in edges]
        whole, strips = first, first + span
    else:
        spans = [(first + span - edge, first + span - edge + step) for edge in edges]
        whole, strips = first + span, first
    lab = cv2.cvtColor(band, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] -= 128.0
    paper = _paper(lab[:, int(first) : int(first + span) + 1])

    def point(at: float) -> tuple[float, float]:
        p = along * (a0 + at) + across * middle
        return round(float(p[0]), 1), round(float(p[1]), 1)

    return FanStrips(point(whole), point(strips), tuple(_ink(lab, paper, lo, hi) for lo, hi in spans), step)


def _edge_profile(band: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """How strongly an edge crosses the band at each column: a card's edge runs right across it, the table's
    grain and the backs' print do not. The gradient along the band (its strongest colour channel), its median
    across the band (so that an edge must cross most of it), less the profile's local level."""
    gradient = np.abs(cv2.Sobel(band.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)).max(axis=2)
    profile = np.median(gradient, axis=0)
    return np.asarray(profile - np.convolve(profile, np.ones(15, np.float32) / 15, "same"), np.float32)


def _whole_cards(
    boxes: npt.NDArray[np.float64],
    along: npt.NDArray[np.float64],
    across: npt.NDArray[np.float64],
    line: tuple[float, float],
    card_px: float,
) -> list[float]:
    """Where the boxes that may be the fan's whole card begin on ``along`` (see :data:`WHOLE_OFF_LINE`; ``line``:
    the fan's middle across it and its width)."""
    middle, width = line
    extents, offsets = boxes @ along, (boxes @ across).mean(axis=1)
    fits = (np.abs(np.ptp(extents, axis=1) - card_px) <= 2 * CARD_SLACK * card_px) & (
        np.abs(offsets - middle) <= WHOLE_OFF_LINE * width
    )
    return [float(lo) for lo in extents[fits].min(axis=1)]


def _fit_comb(
    profile: npt.NDArray[np.float32],
    cards: int,
    card_px: float,
    inside: list[float],
    wholes: list[float],
) -> tuple[float, float, float, bool] | None:
    """The fan's comb that the edge ``profile`` best agrees with: the column it starts at, its step, its whole
    card's length (``card_px`` give or take :data:`CARD_SLACK`) and whether the whole card comes first. Its edges
    are the outer edge at each end and one between each two cards; it is scored by the profile at its edges less
    the profile halfway between them. It spans the boxes (``inside``: their first and last column, give or take
    :data:`BOX_SLACK` of a card), and
    its whole card begins where one of ``wholes`` does (columns, see :data:`WHOLE_SLACK`). None when no comb
    fits, or none scores above nothing."""
    if not wholes:
        return None
    everywhere = np.arange(0, len(profile), 1.0)
    cards_px = card_px * (1.0 + np.linspace(-CARD_SLACK, CARD_SLACK, 5))
    steps = np.arange(MIN_STEP_PX, MAX_STEP_SHARE * card_px, 0.5)
    best = _best_comb(profile, cards, cards_px, steps, everywhere, (True, False), inside, wholes)
    if best is None:
        return None
    start, step, card, whole_first = best[1]
    # then to a tenth of a pixel: half a pixel off, the step misplaces a long fan's last strip by a third of it
    finer = _best_comb(
        profile,
        cards,
        [card],
        np.arange(step - 0.5, step + 0.51, 0.1),
        np.arange(start - 1.5, start + 1.6, 0.25),
        (whole_first,),
        inside,
        wholes,
    )
    best = finer if finer is not None and finer[0] >= best[0] else best
    return best[1] if best[0] > 0 else None


def _best_comb(
    profile: npt.NDArray[np.float32],
    cards: int,
    cards_px: npt.ArrayLike,
    steps: npt.ArrayLike,
    starts: npt.NDArray[np.float64],
    orientations: tuple[bool, ...],
    inside: list[float],
    wholes: list[float],
) -> tuple[float, tuple[float, float, float, bool]] | None:
    """The best scoring comb (see :func:`_fit_comb`) of whole cards ``cards_px`` long, ``steps``, starting at one
    of ``starts``, the whole card first or last (``orientations``), with its score."""
    n = len(profile)
    columns = np.arange(n, dtype=np.float64)
    k = np.arange(cards, dtype=np.float64)
    best: tuple[float, tuple[float, float, float, bool]] | None = None
    for card in np.asarray(cards_px, np.float64):
        slack = WHOLE_SLACK * card
        for step in np.asarray(steps, np.float64):
            if step < MIN_STEP_PX:
                continue
            span = card + (cards - 1) * step
            fits = starts[(starts <= inside[0] + BOX_SLACK * card) & (starts + span >= inside[1] - BOX_SLACK * card)]
            fits = fits[(fits >= 0) & (fits + span < n - 1)]
            for whole_first in orientations:
                edges = np.concatenate([[0.0], card + step * k]) if whole_first else np.append(step * k, span)
                whole_at = fits if whole_first else fits + span - card
                here = fits[np.any([np.abs(whole_at - w) <= slack for w in wholes], axis=0)]
                if not len(here):
                    continue
                at = here[:, None] + edges[None, :]
                between = here[:, None] + ((edges[1:] + edges[:-1]) / 2)[None, :]
                score = np.interp(at, columns, profile).mean(axis=1) - np.interp(between, columns, profile).mean(axis=1)
                # the whole card lies on top: no card's edge crosses it
                whole_start = here if whole_first else here + span - card
                inner = whole_start[:, None] + card * np.linspace(WHOLE_INNER, 1 - WHOLE_INNER, 16)[None, :]
                score -= np.maximum(np.interp(inner, columns, profile), 0.0).mean(axis=1)
                j = int(np.argmax(score))
                if best is None or score[j] > best[0]:
                    best = (float(score[j]), (float(here[j]), float(step), float(card), whole_first))
    return best


def _paper(lab: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The backs' paper colour: the median of the brightest :data:`PAPER_SHARE` of ``lab``'s pixels."""
    pixels = lab.reshape(-1, 3)
    bright = pixels[pixels[:, 0] >= np.quantile(pixels[:, 0], 1 - PAPER_SHARE)]
    return np.asarray(np.median(bright, axis=0), np.float32)


def _ink(lab: npt.NDArray[np.float32], paper: npt.NDArray[np.float32], lo: float, hi: float) -> Ink:
    """The ink colour (:data:`Ink`) of the band's columns ``lo`` to ``hi``, their ends left out; the paper's
    when none of it is ink."""
    margin = STRIP_MARGIN * (hi - lo)
    first, last = round(lo + margin), round(hi - margin)
    region = lab[:, max(0, first) : max(first + 1, last)].reshape(-1, 3)
    ink = region[np.linalg.norm(region - paper, axis=1) > INK_CONTRAST]
    colour = np.median(ink, axis=0) if len(ink) else paper
    return float(colour[0]), float(colour[1]), float(colour[2])


def _hue(ink: Ink) -> str:
    """A rough name for an ink, for the examples."""
    lightness, a, b = ink
    if lightness < 100 and abs(a) < 15 and abs(b) < 15:
        return "black"
    return "red" if a > 20 else "blue" if b < -20 else "other"
