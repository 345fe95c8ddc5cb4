"""Quad refinement: a detected face's outline re-fitted to the card's own colour in the picture.

The shipped detector finds cards well but often gets a small card's angle and aspect wrong (its model card: IoU <
0.5 even when found); a crop through such a quad cuts the number off and the recogniser misreads it (sample
round: 32 % of >= 60 %-visible faces read right through the detector's quads, 100 % through the true ones).
A face is one saturated colour, so the pixels of the detection's dominant hue around it, as a rotated
rectangle, give the card's outline. The fit is kept only when it looks like one card (aspect 91 : 59 within
limits, about the detection's area); otherwise there is no fit and the other candidates of
:func:`vision.recognise.quads.reading_candidates` stand.

Cards of one colour on one stack, each a little off the one below, are one blob of that colour: the fit then
takes more than the top card, and its crop may show two cards' digits side by side, which reads as a 10 (seed
99801, four players: a red 9 on the red 8 read "10" at 0.99 through its fit, "9" at 1.0 through the detector's
box). Such a fit says so (:attr:`FaceFit.one_card`), for the recogniser to read a 10 again through the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognise.quads import CARD_ASPECT, labelled_like

MIN_SATURATION, MIN_VALUE, HUE_TOLERANCE = 80, 60, 12
ASPECT_LIMITS = (1.3, 1.85)
AREA_LIMITS = (0.5, 1.8)  # the fit's area over the detection's
MERGED_AREA_LIMIT = 2.5  # a blob larger still is not a stack but a table or a wall of one colour
ONE_CARD_AREA = 1.3
"""A card-shaped fit this much larger than the detection holds more than the card: the detector's box is a card
or a little less (its long side 6 % short at the median), and a stack's top over the card below, offset by a
tenth of a card or more, makes a blob 1.4-1.7 times the box (seed 99801, four players)."""


@dataclass(frozen=True)
class FaceFit:
    """A face's outline fitted to its colour (:func:`fit_face`)."""

    quad: npt.NDArray[np.float32]
    one_card: bool = True
    """False: the colour's blob took more than one card (cards of one colour on one stack), so the quad holds
    the top card and some of the card below it."""


def fit_face(image: npt.NDArray[np.uint8], quad: npt.NDArray[np.float32]) -> FaceFit | None:
    """The face's outline fitted to its colour around the detected ``quad``, or None when no card-like fit."""
    centre = quad.mean(axis=0)
    reach = float(np.linalg.norm(quad - centre, axis=1).max()) * 1.3
    height, width = image.shape[:2]
    x0, y0 = max(0, int(centre[0] - reach)), max(0, int(centre[1] - reach))
    x1, y1 = min(width, int(centre[0] + reach) + 1), min(height, int(centre[1] + reach) + 1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    roi = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2HSV)  # only round the card: cheap
    local = (quad - [x0, y0]).astype(np.float32)
    inside = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(local).astype(np.int32), 1)
    coloured = (roi[..., 1] >= MIN_SATURATION) & (roi[..., 2] >= MIN_VALUE)
    hues = roi[..., 0][coloured & (inside > 0)]
    if hues.size < 0.2 * inside.sum():
        return None
    hue = _dominant_hue(hues)
    distance = np.abs(roi[..., 0].astype(np.int16) - hue)
    distance = np.minimum(distance, 180 - distance)  # hue is circular (red at both ends)
    mask = (coloured & (distance <= HUE_TOLERANCE)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    here = (float(centre[0] - x0), float(centre[1] - y0))
    holding = [c for c in contours if cv2.pointPolygonTest(c, here, False) >= 0]
    if not holding:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(max(holding, key=cv2.contourArea))
    if min(w, h) < 4:
        return None
    aspect = max(w, h) / min(w, h)
    detected = max(float(cv2.contourArea(local)), 1.0)
    area = w * h / detected
    if ASPECT_LIMITS[0] <= aspect <= ASPECT_LIMITS[1] and AREA_LIMITS[0] <= area <= AREA_LIMITS[1]:
        box = cv2.boxPoints(((cx + x0, cy + y0), (w, h), angle)).astype(np.float32)
        one_card = area < ONE_CARD_AREA
    elif 1.0 < area <= MERGED_AREA_LIMIT and aspect < ASPECT_LIMITS[0]:
        # cards of one colour on one stack merge into one squarish blob: its angle is still the cards', the
        # detector's centre and area (not its angle) are about right, and a card is 91 x 59
        short = (detected / CARD_ASPECT) ** 0.5
        size = (short, short * CARD_ASPECT) if h >= w else (short * CARD_ASPECT, short)
        box = cv2.boxPoints(((float(centre[0]), float(centre[1])), size, angle)).astype(np.float32)
        one_card = False
    else:
        return None
    return FaceFit(labelled_like(box, quad), one_card)


def _dominant_hue(hues: np.ndarray) -> int:
    counts = np.bincount(hues.ravel() // 6, minlength=30)
    counts = counts + np.r_[counts[-1:], counts[:-1]] + np.r_[counts[1:], counts[:1]]  # neighbours too (circular)
    return int(counts.argmax()) * 6 + 3
