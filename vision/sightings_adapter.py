"""From pixels to the referee's input: :class:`CardDetections` + table geometry -> :class:`FrameSightings`.

This is where pixels stop. Each detected card's corners go through the homography onto the table plane
(millimetres), its identity becomes a :class:`~referee.cards.Card` or a back id, and the frame carries the
centre zone so the tracker knows which cards are on the centre stacks.

>>> import numpy as np
>>> from vision.geometry import TableGeometry
>>> from vision.detections import CardDetections, FACE
>>> quad = [[0, 0], [59, 0], [59, 91], [0, 91]]
>>> dets = CardDetections.from_quads([quad], [FACE], [0.9]).with_identity(colour=[0], number=[5],
...                                                                          identity_confidence=[0.8])
>>> frame = to_sightings(dets, TableGeometry(np.eye(3)), t=1.0, frame=30)
>>> [(s.label, s.centre) for s in frame.sightings]
[('r5', (29.5, 45.5))]
"""

from __future__ import annotations

import numpy as np

from referee.cards import COLOURS, HIGHEST, LOWEST, Card
from referee.sightings import FrameSightings, Quad, Sighting
from vision.detections import FACE, CardDetections
from vision.geometry import TableGeometry

MIN_IDENTITY = 0.6
"""A face read less surely than this is reported as a face of unknown identity (no card), not as a card: on the
sample round it drops a quarter of the wrong reads of >= 60 %-visible faces (225 -> 165) for 9 of 1,296 right."""


def to_sightings(
    detections: CardDetections,
    geometry: TableGeometry,
    *,
    t: float,
    frame: int,
    visible: np.ndarray | None = None,
    still_since: np.ndarray | None = None,
    rearranged: np.ndarray | None = None,
) -> FrameSightings:
    """One frame's detections as sightings on the table plane; ``visible`` (N,) fractions, ``still_since``
    (N,) video times since which each card's picture stayed still and ``rearranged`` (N, 2) when it last came to
    rest changed and since when (see :class:`vision.change.ChangeClock`), when known."""
    if len(detections) == 0:
        return FrameSightings(t=t, frame=frame, sightings=(), zone=geometry.zones.centre)
    table = geometry.to_table(detections.corners)
    sightings = []
    for i in range(len(detections)):
        quad: Quad = tuple((float(x), float(y)) for x, y in table[i])  # type: ignore[assignment]
        seen = None if visible is None else float(np.clip(visible[i], 0.0, 1.0))
        confidence = float(np.clip(detections.confidence[i], 0.0, 1.0))
        identity = float(np.clip(detections.identity_confidence[i], 0.0, 1.0))
        still = _time(still_since, i)
        moved = (None, None) if rearranged is None else (_time(rearranged[:, 0], i), _time(rearranged[:, 1], i))
        if int(detections.kind[i]) == FACE:
            card = _card(detections, i)
            rival, rival_p = _runner_up(detections, i) if card is not None else (None, 0.0)
            sightings.append(
                Sighting("face", card, None, quad, confidence, identity, seen, still, *moved, rival, rival_p)
            )
        else:
            back, second = detections.back[i] or None, detections.back_runner_up[i] or None
            sightings.append(
                Sighting("back", None, back, quad, confidence, identity, seen, still, *moved, back_runner_up=second)
            )
    return FrameSightings(t=t, frame=frame, sightings=tuple(sightings), zone=geometry.zones.centre)


def _time(times: np.ndarray | None, i: int) -> float | None:
    return None if times is None or np.isnan(times[i]) else float(times[i])


def _runner_up(detections: CardDetections, i: int) -> tuple[Card | None, float]:
    colour, number = (int(v) for v in detections.runner_up[i])
    p = float(np.clip(detections.runner_up_confidence[i], 0.0, 1.0))
    if 0 <= colour < len(COLOURS) and LOWEST <= number <= HIGHEST and p > 0.0:
        return Card(COLOURS[colour], number), p
    return None, 0.0


def _card(detections: CardDetections, i: int) -> Card | None:
    if detections.identity_confidence[i] < MIN_IDENTITY:
        return None
    colour, number = int(detections.colour[i]), int(detections.number[i])
    if 0 <= colour < len(COLOURS) and LOWEST <= number <= HIGHEST:
        return Card(COLOURS[colour], number)
    return None
