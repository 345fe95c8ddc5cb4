"""Where cards lie: centre stacks, players' areas, back spreads for counting and loose heaps, in millimetres.

A layout is a list of :class:`PlacedCard` in drawing order (the first lies at the bottom). Angles are
degrees, clockwise as seen from above; 0 means the card's own top points to -y (the far side).

>>> card = PlacedCard((0.0, 0.0), 0.0, Card.parse("r3"), "red-red")
>>> card.corners_mm().round(1).tolist()
[[-29.5, -45.5], [29.5, -45.5], [29.5, 45.5], [-29.5, 45.5]]
>>> stack = centre_stack(np.random.default_rng(1), (0.0, 0.0), 0.0, Colour.BLUE, 4, ("a", "b"))
>>> [str(c.face) for c in stack]
['b1', 'b2', 'b3', 'b4']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM, COLOURS, FULL_SET, Card, Colour

CARD_THICKNESS_MM = 0.3
SLAP_OFFSET = 0.15  # largest offset of a slapped card from its stack, as a fraction of the card's size
SLAP_ROTATION_DEG = 20.0


@dataclass(frozen=True)
class PlacedCard:
    """One card on the table: where, how turned, which side up, whose (back id), how high it lies."""

    centre_mm: tuple[float, float]
    angle_deg: float
    face: Card | None  # None: lying back up
    back: str
    lift_mm: float = 0.0

    @property
    def kind(self) -> str:
        return "back" if self.face is None else "face"

    def corners_mm(self, width: float = CARD_WIDTH_MM, height: float = CARD_HEIGHT_MM) -> npt.NDArray[np.float64]:
        """The 4 corners: own top-left, top-right, bottom-right, bottom-left (clockwise seen from above)."""
        local = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2.0
        a = math.radians(self.angle_deg)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        return np.asarray(local @ rot.T + np.asarray(self.centre_mm), dtype=np.float64)


def _at(base: tuple[float, float], angle_deg: float, dx: float, dy: float) -> tuple[float, float]:
    """``base`` moved by (dx, dy) in a frame turned by ``angle_deg``."""
    a = math.radians(angle_deg)
    return (base[0] + dx * math.cos(a) - dy * math.sin(a), base[1] + dx * math.sin(a) + dy * math.cos(a))


def centre_stack(
    rng: np.random.Generator,
    centre: tuple[float, float],
    angle_deg: float,
    colour: Colour,
    height: int,
    backs: Sequence[str],
) -> list[PlacedCard]:
    """Cards 1..height of one colour slapped on a centre stack: offsets and turns as real hands make them."""
    cards = []
    for number in range(1, height + 1):
        dx = float(np.clip(rng.normal(0, SLAP_OFFSET / 2), -SLAP_OFFSET, SLAP_OFFSET)) * CARD_WIDTH_MM
        dy = float(np.clip(rng.normal(0, SLAP_OFFSET / 2), -SLAP_OFFSET, SLAP_OFFSET)) * CARD_HEIGHT_MM
        turn = float(np.clip(rng.normal(0, SLAP_ROTATION_DEG / 2), -SLAP_ROTATION_DEG, SLAP_ROTATION_DEG))
        # Players on every side slap cards, so a card's own "up" may point any way: 0/90/180/270 plus jitter.
        facing = angle_deg + 90.0 * int(rng.integers(4)) if rng.random() < 0.5 else angle_deg
        owner = backs[int(rng.integers(len(backs)))]
        cards.append(
            PlacedCard(
                _at(centre, angle_deg, dx, dy), facing + turn, Card(colour, number), owner, number * CARD_THICKNESS_MM
            )
        )
    return cards


def pile(
    rng: np.random.Generator,
    centre: tuple[float, float],
    angle_deg: float,
    count: int,
    back: str,
    top_face: Card | None,
    messiness_mm: float = 2.0,
) -> list[PlacedCard]:
    """A squared pile of ``count`` cards back up (the Ligretto pile or a hand pile), the top one maybe turned up."""
    cards = []
    for i in range(count):
        jitter = rng.normal(0, messiness_mm, 2)
        face = top_face if (i == count - 1) else None
        cards.append(
            PlacedCard(
                (centre[0] + float(jitter[0]), centre[1] + float(jitter[1])),
                angle_deg + float(rng.normal(0, 2.0)),
                face,
                back,
                (i + 1) * CARD_THICKNESS_MM,
            )
        )
    return cards


def spread(
    rng: np.random.Generator,
    start: tuple[float, float],
    angle_deg: float,
    count: int,
    back: str,
    fanned: bool,
    faces: Sequence[Card | None] = (),
    *,
    lengthwise: bool = False,
    mixed_backs: Sequence[str] = (),
) -> list[PlacedCard]:
    """Cards spread for counting: shingled along a line, or fanned around a pivot near their bottom edge.

    ``lengthwise`` shingles them along their long side (each back shows a band across the card, as when a
    centre stack is lifted off card by card where it lay); ``mixed_backs``: each card's back is drawn from these
    (a centre stack holds every player's cards), else all are ``back``."""
    cards = []
    step = float(rng.uniform(9, 22))
    fan_step = float(rng.uniform(3, 9))
    pivot = _at(start, angle_deg, 0, CARD_HEIGHT_MM * 0.4)
    for i in range(count):
        face = faces[i] if i < len(faces) else None
        if fanned:
            turn = (i - (count - 1) / 2) * fan_step
            centre = _at(pivot, angle_deg + turn, 0, -CARD_HEIGHT_MM * 0.4)
            angle = angle_deg + turn
        else:
            along, across = i * step + float(rng.normal(0, 0.8)), float(rng.normal(0, 0.8))
            centre = _at(start, angle_deg, across, along) if lengthwise else _at(start, angle_deg, along, across)
            angle = angle_deg + float(rng.normal(0, 1.5))
        own = mixed_backs[int(rng.integers(len(mixed_backs)))] if mixed_backs else back
        cards.append(PlacedCard(centre, angle, face, own, (i + 1) * CARD_THICKNESS_MM))
    return cards


def loose_heap(
    rng: np.random.Generator,
    centre: tuple[float, float],
    radius_mm: float,
    count: int,
    backs: Sequence[str],
    face_share: float,
) -> list[PlacedCard]:
    """Cards dropped anyhow: any position within ``radius_mm``, any angle, faces and backs mixed."""
    cards = []
    for i in range(count):
        r = radius_mm * math.sqrt(float(rng.random()))
        a = float(rng.uniform(0, 2 * np.pi))
        face = random_card(rng) if rng.random() < face_share else None
        back = backs[int(rng.integers(len(backs)))]
        cards.append(
            PlacedCard(
                (centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)),
                float(rng.uniform(0, 360)),
                face,
                back,
                i * CARD_THICKNESS_MM,
            )
        )
    return cards


def random_card(rng: np.random.Generator) -> Card:
    return FULL_SET[int(rng.integers(len(FULL_SET)))]


def player_area(
    rng: np.random.Generator, seat: tuple[float, float], facing_deg: float, back: str, row_length: int
) -> list[PlacedCard]:
    """What lies in front of one player: the Ligretto pile (top card up), the row, hand pile and discards.

    ``facing_deg`` turns the whole area so the player's cards face them (0: a player at the near side).
    """
    cards: list[PlacedCard] = []
    gap = float(rng.uniform(4, 20))
    pitch = CARD_WIDTH_MM + gap
    row_left = -(row_length - 1) / 2 * pitch
    cards += pile(
        rng,
        _at(seat, facing_deg, row_left - pitch * 1.2, 0),
        facing_deg,
        int(rng.integers(1, 11)),
        back,
        random_card(rng),
    )
    for i in range(row_length):
        position = _at(seat, facing_deg, row_left + i * pitch + float(rng.normal(0, 2)), float(rng.normal(0, 3)))
        cards.append(
            PlacedCard(position, facing_deg + float(rng.normal(0, 4)), random_card(rng), back, CARD_THICKNESS_MM)
        )
    hand_at = _at(seat, facing_deg, row_left + row_length * pitch + pitch * 0.3, CARD_HEIGHT_MM * 0.4)
    cards += pile(rng, hand_at, facing_deg + float(rng.normal(0, 8)), int(rng.integers(0, 12)), back, None, 3.0)
    discards = int(rng.integers(0, 4))
    discard_at = _at(seat, facing_deg, row_left + row_length * pitch + pitch * 0.5, -CARD_HEIGHT_MM * 0.55)
    faces: list[Card | None] = [random_card(rng) for _ in range(discards)]
    cards += spread(rng, discard_at, facing_deg + float(rng.normal(0, 6)), discards, back, False, faces)
    return cards


def random_stacks(rng: np.random.Generator, count: int, backs: Sequence[str], spacing_mm: float) -> list[PlacedCard]:
    """``count`` centre stacks on a jittered grid around the origin, heights 1..10, colours at random."""
    columns = max(1, math.ceil(math.sqrt(count * 1.5)))
    cards: list[PlacedCard] = []
    for i in range(count):
        row, column = divmod(i, columns)
        x = (column - (columns - 1) / 2) * spacing_mm + float(rng.normal(0, spacing_mm * 0.08))
        y = (row - (count // columns) / 2) * spacing_mm * 1.3 + float(rng.normal(0, spacing_mm * 0.08))
        colour = COLOURS[int(rng.integers(len(COLOURS)))]
        height = int(rng.integers(1, 11))
        cards += centre_stack(rng, (x, y), float(rng.uniform(-25, 25)), colour, height, backs)
    return cards
