"""Sightings: what the camera saw in one frame, as plain data on the table plane (the tracker's input).

Pixels stop at ``vision/``. The vision side turns each detected card into a :class:`Sighting` (its identity and
its four corners mapped to the table plane through the homography) and each frame into a
:class:`FrameSightings`. The referee core never sees an image, so the tracker and the judge are tested, and fed
by the simulator, without a camera.

Coordinates: millimetres on the table plane, origin at the table centre, ``x`` to the right and ``y`` down as
the camera sees it (image-like axes), the same frame as :class:`referee.events.Placement`. A quad lists the
card's own top-left corner first, then clockwise as seen from above. ``angle`` is the direction of the card's own
top edge in degrees, ``0`` for an upright card, positive turning clockwise on screen.

>>> s = Sighting.face_at(Card.parse("r5"), (100.0, -20.0), angle=30.0)
>>> s.centre
(100.0, -20.0)
>>> round(s.angle, 6)
30.0
>>> s.label
'r5'
>>> FrameSightings(t=0.5, frame=15, sightings=(s,)).faces == (s,)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, Card
from referee.errors import NotationError

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
Kind = Literal["face", "back"]


@dataclass(frozen=True, slots=True)
class Sighting:
    """One card seen in one frame.

    ``confidence`` is the detector's belief that a card is there; ``identity_confidence`` the recogniser's belief
    in ``card`` (a face) or ``back`` (a back). ``visible`` is the fraction of the card's area not hidden (by a
    hand, another card), when the vision side can tell; None when it cannot. ``still_since`` is the video time
    since which the picture inside the card's outline has not changed, when the vision side watches for change:
    a card lands with a hand and a slap, so a face read anew where nothing moved is a misread.
    ``rearranged_at`` is the latest video time the picture inside the outline came to rest other than it lay
    before (a card put down or picked up there; a hand that only passed leaves it as it was), when the vision
    side can tell: the same face showing after a rearrangement is a copy of it lifted off (a conflict's loser
    taking their card back). ``rearranged_from`` is when the picture it came to rest other than was last seen
    still (a copy lifted off a card that had lain still since it landed: after that landing).
    ``runner_up`` is the card the recogniser found second likeliest for a face, and ``runner_up_confidence`` its
    belief in it, when it tells: the rules may make it the likelier one (a card due on a stack, read as one that
    would be a mistake there). ``back_runner_up`` is, for a back, the likeliest design of another box than the
    one read, when the recogniser tells: the table's other backs may make it the likelier one (a lone back of
    another box, read on a seat whose box-mates all lie round the table; see :mod:`referee.tracker.seats`).
    """

    kind: Kind
    card: Card | None
    back: str | None
    quad: Quad
    confidence: float = 1.0
    identity_confidence: float = 1.0
    visible: float | None = None
    still_since: float | None = None
    rearranged_at: float | None = None
    rearranged_from: float | None = None
    runner_up: Card | None = None
    runner_up_confidence: float = 0.0
    back_runner_up: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("face", "back"):
            raise NotationError(f"a sighting's kind is 'face' or 'back', not {self.kind!r}")
        if len(self.quad) != 4:
            raise NotationError(f"a sighting needs 4 corners, not {len(self.quad)}")
        confidences = (self.confidence, self.identity_confidence, self.runner_up_confidence)
        if not all(0.0 <= c <= 1.0 for c in confidences):
            raise NotationError("sighting confidences must lie in 0..1")

    @classmethod
    def face_at(
        cls,
        card: Card,
        centre: Point,
        *,
        angle: float = 0.0,
        confidence: float = 1.0,
        identity_confidence: float = 1.0,
        visible: float | None = None,
        size: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM),
    ) -> Sighting:
        """A face-up card of the standard size lying at ``centre``, turned by ``angle`` degrees."""
        return cls("face", card, None, card_quad(centre, angle, size), confidence, identity_confidence, visible)

    @classmethod
    def back_at(
        cls,
        back: str | None,
        centre: Point,
        *,
        angle: float = 0.0,
        confidence: float = 1.0,
        identity_confidence: float = 1.0,
        visible: float | None = None,
        size: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM),
        runner_up: str | None = None,
    ) -> Sighting:
        """A face-down card (its back design ``back``, None if unrecognised; ``runner_up`` the design that came
        second) lying at ``centre``."""
        quad = card_quad(centre, angle, size)
        return cls("back", None, back, quad, confidence, identity_confidence, visible, back_runner_up=runner_up)

    @property
    def centre(self) -> Point:
        """The mean of the four corners (the card's centre for a rectangle)."""
        # unrolled, in sum()'s order (the same bits): the tracker asks for it hundreds of thousands of times a round
        a, b, c, d = self.quad
        return ((a[0] + b[0] + c[0] + d[0]) / 4.0, (a[1] + b[1] + c[1] + d[1]) / 4.0)

    @property
    def angle(self) -> float:
        """Direction of the card's own top edge in degrees, in (-180, 180]; 0 when upright."""
        (x0, y0), (x1, y1) = self.quad[0], self.quad[1]
        degrees = math.degrees(math.atan2(y1 - y0, x1 - x0))
        return 180.0 if degrees == -180.0 else degrees

    @property
    def label(self) -> str:
        """``r5`` for a face, ``back:<id>`` for a back, ``?`` for a face whose number was not read."""
        if self.kind == "face":
            return str(self.card) if self.card is not None else "?"
        return f"back:{self.back or '?'}"


def card_quad(centre: Point, angle: float = 0.0, size: tuple[float, float] = (CARD_WIDTH_MM, CARD_HEIGHT_MM)) -> Quad:
    """The four corners of a card of ``size`` (width, height) lying at ``centre``, turned by ``angle`` degrees.

    >>> card_quad((0.0, 0.0), 0.0, (2.0, 4.0))
    ((-1.0, -2.0), (1.0, -2.0), (1.0, 2.0), (-1.0, 2.0))
    """
    cx, cy = centre
    half_w, half_h = size[0] / 2.0, size[1] / 2.0
    cos_a, sin_a = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = ((-half_w, -half_h), (half_w, -half_h), (half_w, half_h), (-half_w, half_h))
    turned = tuple((cx + dx * cos_a - dy * sin_a, cy + dx * sin_a + dy * cos_a) for dx, dy in corners)
    return (turned[0], turned[1], turned[2], turned[3])


@dataclass(frozen=True, slots=True)
class FrameSightings:
    """Everything seen in one video frame: its time ``t`` (seconds from the start of the source), its number,
    and the cards. ``zone`` is the centre zone's polygon on the table plane when the vision side knows it.

    A frame that could not be read is not a FrameSightings with no cards (an empty table) but ``None`` passed
    to the tracker: time passes, nothing is seen.
    """

    t: float
    frame: int
    sightings: tuple[Sighting, ...] = ()
    zone: tuple[Point, ...] | None = None

    @property
    def faces(self) -> tuple[Sighting, ...]:
        return tuple(s for s in self.sightings if s.kind == "face")

    @property
    def backs(self) -> tuple[Sighting, ...]:
        return tuple(s for s in self.sightings if s.kind == "back")

    def in_zone(self, sighting: Sighting) -> bool:
        """True when the sighting's centre lies inside ``zone`` (always True without a zone).

        >>> frame = FrameSightings(0.0, 0, zone=((0, 0), (10, 0), (10, 10), (0, 10)))
        >>> frame.in_zone(Sighting.back_at(None, (5, 5))), frame.in_zone(Sighting.back_at(None, (15, 5)))
        (True, False)
        """
        return self.zone is None or point_in_polygon(sighting.centre, self.zone)


def run_direction(points: Sequence[Point]) -> float:
    """The direction points lying along a line run (their principal axis), in radians (-pi/2 .. pi/2].

    >>> round(math.degrees(run_direction([(0.0, 0.0), (10.0, 10.0), (20.0, 20.0)])))
    45
    """
    n = len(points)
    mx, my = sum(x for x, _ in points) / n, sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    syy = sum((y - my) ** 2 for _, y in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    return 0.5 * math.atan2(2 * sxy, sxx - syy)


def frame_before(t: float, frame: int, seconds: float) -> int:
    """The frame ``seconds`` before ``frame``, shown at ``t``: frames count from t = 0 at the source's own rate.

    >>> frame_before(3.0, 90, 0.5), frame_before(0.0, 0, 0.5)
    (75, 0)
    """
    return frame - round(seconds * frame / t) if t > 0 else frame


def polygon_area(polygon: Sequence[Point]) -> float:
    """The signed area of a polygon (shoelace; positive counter-clockwise with y up).

    >>> polygon_area([(0.0, 0.0), (2.0, 0.0), (2.0, 3.0), (0.0, 3.0)])
    6.0
    """
    following = [*polygon[1:], *polygon[:1]]
    return 0.5 * sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(polygon, following, strict=True))


def point_in_polygon(point: Point, polygon: tuple[Point, ...]) -> bool:
    """Even-odd rule (ray casting); a point on an edge may fall either way."""
    x, y = point
    inside = False
    for i, (x0, y0) in enumerate(polygon):
        x1, y1 = polygon[(i + 1) % len(polygon)]
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside
