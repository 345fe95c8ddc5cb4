"""The live picture: a frame with the referee's view drawn on it, as a small JPEG for the page."""

from __future__ import annotations

import cv2
import numpy as np

from referee.events import IllegalPlay, withdrawn_rulings
from referee.sightings import card_quad
from referee.tracker import Referee
from vision.annotate import IllegalMark, OverlayState, StackMark, annotate
from vision.geometry import TableGeometry

ILLEGAL_SHOWN_S = 3.0
PICTURE_WIDTH = 640


def overlay_state(referee: Referee | None, geometry: TableGeometry | None, t: float) -> OverlayState:
    """Stacks outlined with their top card, illegal plays of the last seconds circled in red."""
    if referee is None or geometry is None:
        return OverlayState(t, phase="waiting for a round" if referee is None else "looking for the table")
    centre = {s.id: s for s in referee.centre.stacks}
    marks = []
    for pile in referee.tracker.stacks:
        stack_id = referee.judge.stack_of(pile.id)
        if stack_id is None or stack_id not in centre:
            continue
        quad = geometry.to_image(np.asarray(card_quad(pile.position, pile.angle)))
        stack = centre[stack_id]
        marks.append(StackMark(stack_id, str(stack.top), stack.height, tuple(map(tuple, quad.tolist()))))
    illegal = []
    recent = referee.events[-50:]
    withdrawn = withdrawn_rulings(recent)
    for event in reversed(recent):
        if t - event.t > ILLEGAL_SHOWN_S:
            break
        if isinstance(event, IllegalPlay) and event.placement is not None and not withdrawn(event):
            x, y = geometry.to_image([[event.placement.x, event.placement.y]])[0]
            illegal.append(IllegalMark(str(event.card), event.reason, (float(x), float(y))))
    return OverlayState(t, tuple(marks), tuple(illegal), str(referee.phase))


def picture(image: np.ndarray, state: OverlayState, width: int = PICTURE_WIDTH) -> bytes | None:
    """The annotated frame, scaled to ``width``, as JPEG bytes."""
    drawn = annotate(image, state)
    small = drawn
    if drawn.shape[1] > width:
        height = round(drawn.shape[0] * width / drawn.shape[1])
        small = np.asarray(cv2.resize(drawn, (width, height), interpolation=cv2.INTER_AREA), np.uint8)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
    return data.tobytes() if ok else None
