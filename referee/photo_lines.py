"""Leftover cards counted in a still photo: each player's line measured in the picture, not counted box by box.

A photo of the leftover Ligretto-pile cards shows each player's cards in a line, each card partly over the last.
The detector boxes such a card twice (its strip and its outline) or two strips as one, so boxes miscount a line;
:mod:`vision.shingles` measures the line's extent and the step its edges repeat at instead. A photo has no table
plane, so the card's own size is the ruler: the widest box's short side is a card's width (59 mm), which turns
pixels into millimetres for :func:`referee.tracker.fan_length.shingled_count`. A line the picture cannot measure
(one box, a back like the cloth, a line the photo's edge cuts) keeps its boxes' count.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.tracker.fan_length import LineLength, shingled_count
from vision.detections import BACK
from vision.shingles import measure_shingles

LINK_SHARE = 0.75
"""Two backs lie in one line when their middles lie closer than this share of a card's long side (shingled cards
lie a strip apart; two players' lines lie a card or more apart)."""
EDGE_PX = 3.0
"""A box this close to the photo's edge may be cut by it: the line's extent is then unknown."""


def line_counts(image: np.ndarray, detections: Any, min_confidence: float) -> tuple[dict[str, int], int]:
    """Cards per back in the photo's lines of backs (each line one player's: the back read most on it), and how
    many lines were measured in the picture (the others counted box by box). Unrecognised backs count for the
    back of their line; a line with no recognised back is not counted."""
    keep = [
        i
        for i in range(len(detections))
        if int(detections.kind[i]) == BACK and float(detections.confidence[i]) >= min_confidence
    ]
    quads = np.asarray(detections.corners, np.float64)[keep].reshape(-1, 4, 2)
    counts: Counter[str] = Counter()
    measured = 0
    for line in _lines(quads):
        backs = Counter(b for b in (detections.back[keep[i]] for i in line) if b)
        if not backs:
            continue
        cards = _measured(image, quads[line])
        measured += cards is not None
        counts[backs.most_common(1)[0][0]] += cards if cards is not None else len(line)
    return dict(sorted(counts.items())), measured


def _lines(quads: np.ndarray) -> list[list[int]]:
    """The boxes in chains (single linkage at :data:`LINK_SHARE` of a card's long side)."""
    from scipy.sparse.csgraph import connected_components  # imported here: scipy is slow to import
    from scipy.spatial.distance import cdist

    if not len(quads):
        return []
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    link = LINK_SHARE * float(np.median(sides.max(axis=1)))
    centres = quads.mean(axis=1)
    _, label = connected_components(cdist(centres, centres) <= link, directed=False)
    return [np.flatnonzero(label == k).tolist() for k in range(int(label.max()) + 1)]


def _measured(image: np.ndarray, quads: np.ndarray) -> int | None:
    """A line's cards from the picture, or None when it cannot be measured."""
    height, width = image.shape[:2]
    if len(quads) < 2 or quads.min() < EDGE_PX or quads[..., 0].max() > width - EDGE_PX:
        return None
    if quads[..., 1].max() > height - EDGE_PX:
        return None
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    top = int(sides.min(axis=1).argmax())  # the widest box: the top card, whole
    short, long = float(sides[top].min()), float(sides[top].max())
    if short <= 0:
        return None
    centres = quads.mean(axis=1)
    _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
    axis = vt[0]
    k = int(sides[top].argmax())
    edge = quads[top][(k + 1) % 4] - quads[top][k]  # its long side
    across = abs(float(edge @ axis)) < 0.5 * float(np.linalg.norm(edge))
    # cards shingled side by side show their width along the line; laid end to end, their length
    card_mm, card_px = (CARD_WIDTH_MM, short) if across else (CARD_HEIGHT_MM, long)
    mm_per_px = CARD_WIDTH_MM / short
    line = measure_shingles(image, quads, card_px, axis)
    if line is None or not line.seen:
        return None
    in_mm = LineLength(line.extent_px * mm_per_px, tuple((s * mm_per_px, v) for s, v in line.steps))
    counted = shingled_count(in_mm, card_mm)
    # far from the boxes' own count, the picture misled (a printed pattern taken for the step)
    return counted if counted is not None and len(quads) / 2 <= counted <= 2 * len(quads) + 1 else None
