"""From a detected quad to the quads the recogniser reads through: the one place a rough box becomes crops.

The shipped detector's oriented boxes are rough (train-split tuning set of 120 scenes: centre off by 8 % of
the card's short side at the median and 20 % at the 90th percentile, the long side 6 % short, angles +-13
degrees at the 10th/90th percentiles, 7 % of them turned by a quarter, nearly square). A crop through such a
box cuts a digit or the balls off, and the number reads one off ("r10 read as r8").
So a detection read unsurely is read again through a few candidate quads and the most confident reading
wins (:func:`reading_candidates`; :class:`vision.recognise.Recogniser` decides when): the detector's own box;
the card-shaped box of the same centre, area and angle (a card is 91 x 59 mm, the detector's aspect is not),
with its long side along either of the box's axes (that also covers a quarter-turned box); and for faces the
outline fitted to the card's own colour (:mod:`vision.recognise.refine`) when a fit is found.

>>> box = np.float32([[0, 0], [60, 0], [60, 60], [0, 60]])  # a square box: which way is the card long?
>>> [q.shape for q in reading_candidates(box)]
[(4, 2), (4, 2), (4, 2)]
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from vision.detections import TURNS
from vision.rectify import CROP_HEIGHT, CROP_WIDTH, rectify

Quad = npt.NDArray[np.float32]
Point = npt.NDArray[np.float32]
CARD_ASPECT = CARD_HEIGHT_MM / CARD_WIDTH_MM  # long side over short side
# A face read at least this sure through its first quad is not searched further. Tuning scenes (120 train-split
# renders, the round 4 faces net, first quad its own box): 82 % of detected faces are that sure and 98.8 % of
# those right; searching only the rest reads 93.9 % right, searching all 94.2 %, for 1.7 instead of 3.7 crops
# per face (first quad the colour fit where found, as shipped: 93.3 %).
SURE_FACE = 0.9


def portrait(corners: npt.ArrayLike) -> Quad:
    """The same quad, re-labelled if needed so its first edge (top) is a short side: the crop is portrait.

    >>> portrait([[0, 0], [90, 0], [90, 60], [0, 60]]).tolist()  # a landscape labelling turns by 90 degrees
    [[0.0, 60.0], [0.0, 0.0], [90.0, 0.0], [90.0, 60.0]]
    """
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    top = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    side = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    return np.roll(quad, 1, axis=0) if top > side else quad


def crops_of(image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32]) -> npt.NDArray[np.uint8]:
    """(N, 96, 64, 3) rectified portrait crops of the quads ``corners`` (N, 4, 2) in a BGR ``image``."""
    out = np.zeros((len(corners), CROP_HEIGHT, CROP_WIDTH, 3), np.uint8)
    for i, quad in enumerate(corners):
        out[i] = rectify(image, portrait(quad), CROP_WIDTH, CROP_HEIGHT)
    return out


def card_shaped(quad: npt.ArrayLike, long_along_first_axis: bool) -> Quad:
    """The rectangle of a card's aspect with ``quad``'s centre, area and angle, its long side along the
    rectangle's first or second axis (``cv2.minAreaRect``'s width or height).

    >>> box = card_shaped([[0, 0], [100, 0], [100, 100], [0, 100]], True)
    >>> sides = sorted(np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1).tolist())
    >>> round(sides[0], 1), round(sides[-1], 1), round(sides[0] * sides[-1])
    (80.5, 124.2, 10000)
    """
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.asarray(quad, np.float32).reshape(4, 2))
    short = (max(w * h, 1.0) / CARD_ASPECT) ** 0.5
    size = (short * CARD_ASPECT, short) if long_along_first_axis else (short, short * CARD_ASPECT)
    return np.asarray(cv2.boxPoints(((cx, cy), size, angle)), np.float32)


def reading_candidates(quad: npt.ArrayLike, fitted: npt.ArrayLike | None = None) -> list[Quad]:
    """The quads one detection is read through (see the module's docstring): the detector's box, two
    card-shaped ones, and ``fitted`` (a face's colour fit, :func:`vision.recognise.refine.fit_face`) if any."""
    box = np.asarray(quad, np.float32).reshape(4, 2)
    candidates = [box, card_shaped(box, True), card_shaped(box, False)]
    if fitted is not None:
        candidates.append(np.asarray(fitted, np.float32).reshape(4, 2))
    return candidates


def past_the_edge(quad: npt.ArrayLike, size: tuple[int, int], margin: float = 3.0) -> list[Quad]:
    """For a box one of whose sides lies along the picture's edge (within ``margin`` pixels, or beyond): the
    card it is the visible part of, continued past that edge to a card's aspect, taking the side along the edge
    as the card's short side, or as its long side where the card is then still longer than the box.

    The detector boxes the part of a card inside the picture; through that box a seat's card cut in half
    by the edge reads turned by a quarter, where a 6 and a 9 look alike (five rendered rounds, seeds
    100250-100251, every 3rd frame: 542 of 4,707 readings of faces whose box lies along the edge wrong with the
    round-10 net). The frame's last pixels are smeared beyond it (:func:`vision.rectify.rectify`), as the
    recogniser learnt them.

    >>> box = np.float32([[100, 0], [159, 0], [159, 45], [100, 45]])  # a card's upper half, cut by the top
    >>> [q.round().tolist() for q in past_the_edge(box, (640, 480))]
    [[[100.0, -46.0], [159.0, -46.0], [159.0, 45.0], [100.0, 45.0]]]
    """
    box = np.asarray(quad, np.float32).reshape(4, 2)
    width, height = size
    out = []
    for k in range(4):
        a, b = box[k], box[(k + 1) % 4]
        if not _along_the_edge(a, b, width, height, margin):
            continue
        other = box[(k + 2) % 4], box[(k + 3) % 4]  # b's and a's neighbours across the box
        inward = other[0] - b
        depth = float(np.linalg.norm(inward))
        along = float(np.linalg.norm(b - a))
        if depth < 1 or along < 1:
            continue
        unit = inward / depth
        for length in (along * CARD_ASPECT, along / CARD_ASPECT):
            if length > depth * 1.05:  # the card is longer across than what shows: continue it outward
                outward = unit * (length - depth)
                out.append(np.array([a - outward, b - outward, other[0], other[1]], np.float32))
    return out


def _along_the_edge(a: Point, b: Point, width: int, height: int, margin: float) -> bool:
    """Whether the segment a-b lies along one of the picture's four edges (or beyond it)."""
    points = np.stack([a, b])
    return bool(
        (points[:, 0] <= margin).all()
        or (points[:, 1] <= margin).all()
        or (points[:, 0] >= width - margin).all()
        or (points[:, 1] >= height - margin).all()
    )


def labelled_like(box: npt.ArrayLike, quad: npt.ArrayLike) -> Quad:
    """``box``'s corners in the cyclic order closest to ``quad``'s (keeps a detection's own labelling).

    >>> labelled_like([[10, 0], [10, 20], [0, 20], [0, 0]], [[0, 0], [10, 0], [10, 20], [0, 20]]).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 20.0], [0.0, 20.0]]
    """
    points, target = np.asarray(box, np.float32).reshape(4, 2), np.asarray(quad, np.float32).reshape(4, 2)
    shifts = points[TURNS]
    return np.asarray(shifts[int(np.linalg.norm(shifts - target, axis=2).sum(axis=1).argmin())], np.float32)
