"""The referee's leftover lines measured in the latest picture: the bridge from the table plane to the pixels.

The count (:class:`referee.tracker.counting.SpreadCounter`) knows a leftover line as spots on the table plane;
the picture knows how long the line is and the step its cards are laid at (:mod:`vision.shingles`). An
:class:`ImageLineReader` holds the session's latest picture and the table geometry, and answers the counter's
question (:data:`referee.tracker.counting.LineReader`) in table millimetres.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from referee.sightings import Quad
from referee.tracker.fan_length import LineLength
from vision.geometry import TableGeometry
from vision.shingles import measure_shingles


class ImageLineReader:
    """Measures lines of cards in :attr:`image`, the latest picture the session saw, through :attr:`geometry`
    (either None: not yet, and nothing is measured; a live table finds its geometry after the first frames)."""

    def __init__(self, geometry: TableGeometry | None) -> None:
        self.geometry = geometry
        self.image: np.ndarray | None = None

    def __call__(self, quads: Sequence[Quad], card_mm: float) -> LineLength | None:
        if self.image is None or self.geometry is None or len(quads) < 2:
            return None
        boxes = self.geometry.to_image(np.asarray(quads, np.float64).reshape(-1, 2)).reshape(-1, 4, 2)
        centres = boxes.mean(axis=1)
        _, _, vt = np.linalg.svd(centres - centres.mean(axis=0))
        axis = vt[0]
        middle = centres.mean(axis=0)
        ends = self.geometry.to_table(np.array([middle, middle + 20.0 * axis]))
        mm_per_px = float(np.linalg.norm(ends[1] - ends[0])) / 20.0
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
