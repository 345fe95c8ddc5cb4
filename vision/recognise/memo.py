"""Readings remembered between frames: a card that lies where it lay and has not changed is not read again.

Between two plays most of a round's frames show the same stacks, and each reading of the centre reads every
stack's top again: in an eight-player round the recogniser takes a third of the replay's time, nearly all of it
on cards nobody touched. A :class:`ReadingMemo` keeps each card's last reading with the box the detector found
it in and the video time it was read at. A card found again in the same box (within :data:`SAME_BOX_PX` on every
side) where the picture has not changed since that reading (a :class:`vision.change.ClockReading` says when each
outline last changed) takes the remembered reading: the same pixels would be read the same way. Anything else,
and any reading older than ``max_age_s``, is read afresh, so a camera that shakes, a hand over a stack or a card
slapped on top is always read.

>>> import numpy as np
>>> from vision.detections import CardDetections
>>> card = np.array([[[100, 100], [140, 100], [140, 160], [100, 160]]], np.float32)
>>> found = CardDetections.from_quads(card, [0], [0.9])
>>> read = found.with_identity(colour=[2], number=[7], identity_confidence=[0.99])
>>> memo = ReadingMemo()
>>> memo.remember(found.corners, read, since=np.array([0.5]), t=1.0)     # still since 0.5 s: settled
>>> known, reading = memo.recall(found.with_corners(card + 2), since=np.array([0.5]), t=1.5)
>>> known.tolist(), reading.number.tolist()
([True], [7])
>>> memo.recall(found, since=np.array([1.2]), t=1.5)[0].tolist()   # the picture changed there since
[False]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from vision.detections import BACK, CardDetections
from vision.recognise.quads import SURE_FACE

SAME_BOX_PX = 4.0
"""How far each side of a box may lie from where the card was read (image pixels) and still be the same card:
a detector's boxes of one still card move by a pixel or two from frame to frame; a card nudged or slapped askew
moves further (and changes the picture, which alone would send it to be read)."""
MAX_AGE_S = 1.0
"""A remembered reading stands this long at most: however still a card lies, it is read afresh now and then, so
that the tracker's vote gathers readings through the detector's slightly different boxes."""
SETTLED_S = 0.3
"""Only a reading of a picture that had stayed still this long is remembered. Just after a card lands the box
round a stack straddles the new top and the card under it, and a hand may still be leaving: such a reading is
as likely wrong as right, and its neighbours, read through slightly different boxes, outvote it; remembered, it
would be repeated for every reading up to ``max_age_s`` and outvote them (a rendered two-player round, seed
99703: the reading of a stack taken as a yellow 3 landed on its yellow 2, at 3.3 s, kept, and the play said 7 s
late)."""


@dataclass
class ReadingMemo:
    """The last reading of each card, by the box the detector found it in (see the module's docstring)."""

    max_age_s: float = MAX_AGE_S
    same_box_px: float = SAME_BOX_PX
    settled_s: float = SETTLED_S
    sure_face: float = SURE_FACE
    """Only a face read at least as surely as the recogniser trusts a first reading is remembered (an unsure one
    is read again, through the recogniser's other quads, at each reading); a back when it matched a design."""
    _bounds: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 4), np.float32), repr=False)
    _kind: npt.NDArray[np.int8] = field(default_factory=lambda: np.zeros(0, np.int8), repr=False)
    _read_at: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0, np.float64), repr=False)
    _readings: CardDetections = field(default_factory=CardDetections.empty, repr=False)

    def __len__(self) -> int:
        return len(self._readings)

    def recall(
        self, found: CardDetections, since: npt.NDArray[np.float64], t: float
    ) -> tuple[npt.NDArray[np.bool_], CardDetections]:
        """Which of the cards ``found`` (detector boxes) at video time ``t`` have a reading that still stands, and
        those readings (in the order of the cards it knows, each with the detector's confidence of now).

        ``since``: per card, the video time the picture inside its box last changed (NaN: unknown, never
        remembered)."""
        known = np.zeros(len(found), bool)
        if not len(self) or not len(found):
            return known, CardDetections.empty()
        gap = np.abs(_bounds(found.corners)[:, None, :] - self._bounds[None, :, :])  # (found, remembered, 4)
        near = (gap.max(axis=2) <= self.same_box_px) & (found.kind[:, None] == self._kind[None, :])
        fresh = (t - self._read_at <= self.max_age_s)[None, :]
        unchanged = since[:, None] <= self._read_at[None, :]  # NaN compares False: unknown is changed
        distance = np.where(near & fresh & unchanged, gap.sum(axis=2), np.inf)
        nearest = distance.argmin(axis=1)
        known = np.isfinite(distance[np.arange(len(found)), nearest])
        taken = nearest[known]
        if len(np.unique(taken)) < len(taken):  # two boxes on one remembered card: neither is sure, read both
            ids, counts = np.unique(taken, return_counts=True)
            known &= ~np.isin(nearest, ids[counts > 1])
            taken = nearest[known]
        return known, replace(self._readings[taken], confidence=found.confidence[known])

    def remember(
        self, boxes: npt.ArrayLike, readings: CardDetections, since: npt.NDArray[np.float64], t: float
    ) -> None:
        """``readings`` made at video time ``t`` of the cards the detector found in ``boxes`` (N, 4, 2), the
        picture inside each unchanged ``since`` (see :meth:`recall`): those of a settled picture read surely
        replace what was remembered of the same boxes; readings past their age are forgotten."""
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4, 2)
        bounds = _bounds(boxes)
        matched = np.array([back is not None for back in readings.back], bool)
        sure = np.where(readings.kind == BACK, matched, readings.identity_confidence >= self.sure_face)
        worth = sure & (since <= t - self.settled_s)  # NaN compares False: a picture not known still is not
        bounds, readings = bounds[worth], readings[worth]
        keep = t - self._read_at <= self.max_age_s
        if len(self) and len(bounds):
            replaced = np.abs(self._bounds[:, None, :] - bounds[None, :, :]).max(axis=2) <= self.same_box_px
            keep &= ~replaced.any(axis=1)
        self._bounds = np.concatenate([self._bounds[keep], bounds])
        self._kind = np.concatenate([self._kind[keep], readings.kind])
        self._read_at = np.concatenate([self._read_at[keep], np.full(len(readings), t)])
        self._readings = CardDetections.concatenate([self._readings[keep], readings])


def _bounds(corners: npt.ArrayLike) -> npt.NDArray[np.float32]:
    """(N, 4): each quad's ``x0, y0, x1, y1``."""
    quads = np.asarray(corners, np.float32).reshape(-1, 4, 2)
    return np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1)
