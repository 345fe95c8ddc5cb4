"""The referee's lines of cards read in the latest picture: the bridge from the table plane to the pixels.

The count (:class:`referee.tracker.counting.SpreadCounter`) knows a leftover line or a centre fan as spots on the
table plane; the picture knows how long the line is and the step its cards are laid at (:mod:`vision.shingles`),
and each fanned card's ink (:mod:`vision.fan_strips`). An :class:`ImageLineReader` holds the session's latest
picture and the table geometry, and answers the counter's question (:data:`referee.tracker.counting.LineReader`)
in table millimetres, and the owners' (:data:`referee.tracker.strip_owners.StripReader`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from referee.sightings import Point, Quad
from referee.tracker.fan_length import LineLength
from vision.fan_strips import fan_strips
from vision.geometry import TableGeometry
from vision.shingles import measure_shingles


class ImageLineReader:
    """Measures lines of cards in :attr:`image`, the latest picture the session saw, through :attr:`geometry`
    (either None: not yet, and nothing is measured; a live table finds its geometry after the first frames)."""

    def __init__(self, geometry: TableGeometry | None) -> None:
        self.geometry = geometry
        self.image: np.ndarray | None = None

    def __call__(self, quads: Sequence[Quad], card_mm: float, along: Point | None = None) -> LineLength | None:
        if self.image is None or self.geometry is None or len(quads) < (1 if along is not None else 2):
            return None
        boxes, axis, mm_per_px = self._in_image(quads, along)
        if mm_per_px <= 0:
            return None
        measured = measure_shingles(self.image, boxes, card_mm / mm_per_px, axis)
        if measured is None:
            return None
        return LineLength(
            measured.extent_px * mm_per_px,
            tuple((step * mm_per_px, strength) for step, strength in measured.steps),
            seen=measured.seen,
        )

    def fan_inks(
        self, quads: Sequence[Quad], others: Sequence[Quad], card_mm: float, cards: int
    ) -> tuple[tuple[float, float, float], ...] | None:
        """The inks of a fan's ``cards`` cards from its whole card on (see :func:`vision.fan_strips.fan_strips`),
        ``quads`` its cards' outlines and ``others`` other cards' nearby, on the table plane; None where the
        picture cannot tell."""
        if self.image is None or self.geometry is None or len(quads) < 2:
            return None
        boxes, _, mm_per_px = self._in_image(quads)
        if mm_per_px <= 0:
            return None
        nearby = self.geometry.to_image(np.asarray(others, np.float64).reshape(-1, 2)).reshape(-1, 4, 2)
        fan = fan_strips(self.image, boxes, cards, card_mm / mm_per_px, nearby if len(others) else None)
        return None if fan is None else fan.inks

    def _in_image(self, quads: Sequence[Quad], along: Point | None = None) -> tuple[np.ndarray, np.ndarray, float]:
        """``quads`` in the picture (N, 4, 2), the line's direction there (``along`` on the table plane, else their
        centres' main direction), and millimetres per pixel along it."""
        assert self.geometry is not None
        boxes = self.geometry.to_image(np.asarray(quads, np.float64).reshape(-1, 2)).reshape(-1, 4, 2)
        centres = boxes.mean(axis=1)
        middle = centres.mean(axis=0)
        if along is not None:
            on_table = np.asarray(quads, np.float64).reshape(-1, 2).mean(axis=0)
            step = np.asarray(along, np.float64) / (np.linalg.norm(along) or 1.0)
            ends = self.geometry.to_image(np.array([on_table, on_table + 20.0 * step]))
            axis = (ends[1] - ends[0]) / (np.linalg.norm(ends[1] - ends[0]) or 1.0)
        else:
            _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
            axis = vt[0]
        ends = self.geometry.to_table(np.array([middle, middle + 20.0 * axis]))
        return boxes, axis, float(np.linalg.norm(ends[1] - ends[0])) / 20.0
