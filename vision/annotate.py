"""Drawing the referee's view onto a frame: ``annotate(frame, state) -> frame`` (supervision's verb).

The state is plain data in image pixels, built by the session runner from the referee: each stack with its id
and top card, illegal plays in red with their reason (shown for a few seconds), the round's phase and, once
counted, the scores. Nothing here knows the rules.

>>> import numpy as np
>>> state = OverlayState(t=1.0, stacks=(StackMark(1, "r5", 5, ((10, 10), (69, 10), (69, 101), (10, 101))),))
>>> out = annotate(np.zeros((120, 160, 3), np.uint8), state)
>>> out.shape, int(out.max()) > 0
((120, 160, 3), True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
PixelQuad = tuple[tuple[float, float], ...]

GREEN = (80, 200, 60)
RED = (40, 40, 230)
WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
AMBER = (0, 170, 255)
_FONT = cv2.FONT_HERSHEY_SIMPLEX


@dataclass(frozen=True)
class StackMark:
    """A centre stack as drawn: its id, top card label, height and where it lies in the image."""

    id: int
    top: str
    height: int
    quad: PixelQuad


@dataclass(frozen=True)
class IllegalMark:
    """An illegal play to show in red: the card, the reason and where it landed (image pixels)."""

    card: str
    reason: str
    at: tuple[float, float]


@dataclass(frozen=True)
class OverlayState:
    """Everything drawn on one frame."""

    t: float
    stacks: tuple[StackMark, ...] = ()
    illegal: tuple[IllegalMark, ...] = ()
    phase: str = "play"
    scores: tuple[tuple[str, int, int, int], ...] = ()
    """(back, centre, leftover, score) per player once the round is scored."""
    notes: tuple[str, ...] = field(default=())
    zone: PixelQuad = ()
    """The centre zone's outline in the image (what the referee counts as the centre), when known."""


def annotate(frame: Image, state: OverlayState) -> Image:
    """A copy of ``frame`` with the stacks, the illegal plays, the status line and the scores drawn on it."""
    out = frame.copy()
    scale = max(0.8, out.shape[0] / 720.0)
    if len(state.zone) >= 3:
        outline = np.asarray(state.zone, np.float32).reshape(-1, 1, 2).round().astype(np.int32)
        cv2.polylines(out, [outline], True, AMBER, 1, cv2.LINE_AA)
    for stack in state.stacks:
        _stack(out, stack, scale)
    for mark in state.illegal:
        _illegal(out, mark, scale)
    _status(out, state, scale)
    if state.scores:
        _score_table(out, state.scores, scale)
    return out


def scaled(state: OverlayState, factor: float) -> OverlayState:
    """The same overlay for a frame resized by ``factor`` (annotate after shrinking: cheaper than before).

    >>> scaled(OverlayState(0.0, illegal=(IllegalMark("r5", "wrong_number", (100.0, 50.0)),)), 0.5).illegal[0].at
    (50.0, 25.0)
    """
    stacks = tuple(replace(s, quad=tuple((x * factor, y * factor) for x, y in s.quad)) for s in state.stacks)
    illegal = tuple(replace(m, at=(m.at[0] * factor, m.at[1] * factor)) for m in state.illegal)
    zone = tuple((x * factor, y * factor) for x, y in state.zone)
    return replace(state, stacks=stacks, illegal=illegal, zone=zone)


def _stack(out: Image, stack: StackMark, scale: float) -> None:
    quad = np.asarray(stack.quad, np.float32).reshape(-1, 1, 2).round().astype(np.int32)
    cv2.polylines(out, [quad], True, GREEN, max(1, round(2 * scale)), cv2.LINE_AA)
    x, y = quad.reshape(-1, 2).min(axis=0)
    _label(out, f"#{stack.id} {stack.top} ({stack.height})", (int(x), int(y) - 4), GREEN, scale)


def _illegal(out: Image, mark: IllegalMark, scale: float) -> None:
    x, y = round(mark.at[0]), round(mark.at[1])
    radius = max(8, round(40 * scale))
    cv2.circle(out, (x, y), radius, RED, max(2, round(3 * scale)), cv2.LINE_AA)
    _label(out, f"ILLEGAL {mark.card}: {mark.reason.replace('_', ' ')}", (x - radius, y + radius + 4), RED, scale)


def _status(out: Image, state: OverlayState, scale: float) -> None:
    text = f"t {state.t:6.2f}s  {state.phase}  stacks {len(state.stacks)}"
    if state.notes:
        text += "  " + "  ".join(state.notes)
    _label(out, text, (8, int(24 * scale) + 6), WHITE, scale)


def _score_table(out: Image, rows: Sequence[tuple[str, int, int, int]], scale: float) -> None:
    line = int(30 * scale) + 4
    x, y = 8, out.shape[0] - line * (len(rows) + 1) - 8
    width = int(460 * scale)
    overlay = out.copy()
    cv2.rectangle(overlay, (x - 4, y - line), (x + width, out.shape[0] - 4), BLACK, -1)
    cv2.addWeighted(overlay, 0.6, out, 0.4, 0, dst=out)
    _label(out, "back            centre  left  score", (x, y), WHITE, scale)
    for i, (back, centre, left, score) in enumerate(rows, start=1):
        colour = GREEN if score >= 0 else RED
        _label(out, f"{back[:14]:<14}  {centre:>6}  {left:>4}  {score:>5}", (x, y + i * line), colour, scale)


def _label(out: Image, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float) -> None:
    thickness = max(1, round(1.5 * scale))
    origin = (max(2, at[0]), max(int(18 * scale), at[1]))
    cv2.putText(out, text, origin, _FONT, 0.6 * scale, BLACK, thickness + 2, cv2.LINE_AA)
    cv2.putText(out, text, origin, _FONT, 0.6 * scale, colour, thickness, cv2.LINE_AA)
