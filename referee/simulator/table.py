"""The physical table: seats around a round table, the places in front of each player, the centre zone.

Coordinates are the table plane as a camera above sees it: millimetres, origin at the table centre, x to
the right, y down, angles in degrees clockwise. A card at angle 0 stands upright in the camera image. Seat 0
sits at the bottom of the image; the others follow clockwise. Each player's cards face them, so a card of
the seat at the top of the image lies at 180 degrees.

>>> table = Table.for_players(4, row=3)
>>> [round(seat.angle) for seat in table.seats]
[0, 90, 180, 270]
>>> sorted(table.seats[0].places)
['discard', 'hand', 'pile', 'row:0', 'row:1', 'row:2']
>>> table.seats[0].places["pile"].y > table.centre_radius
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from referee.cards import CARD_HEIGHT_MM, CARD_WIDTH_MM
from referee.events import Placement

SLOT_PITCH_MM = 72.0
"""Distance between neighbouring places in front of a player: a card width and a finger's gap."""
JITTER_OFFSET = 0.15
"""A slapped card lands up to this fraction of a card away from the stack it goes on."""
JITTER_ANGLE_DEG = 20.0
"""... and turned by up to this many degrees against it."""
CARD_REACH_MM = math.hypot(CARD_WIDTH_MM, CARD_HEIGHT_MM) / 2 + math.hypot(
    JITTER_OFFSET * CARD_WIDTH_MM, JITTER_OFFSET * CARD_HEIGHT_MM
)
"""How far from its stack's spot a card can reach, whatever its turn and jitter (about 70 mm)."""
STACK_GAP_MM = 2 * CARD_REACH_MM + 2.0
"""Distance between neighbouring stack spots: two cards' reach, so stacks can never overlap."""


def row_place(slot: int) -> str:
    """The name of a row slot in the trace: ``row:0`` is the player's leftmost."""
    return f"row:{slot}"


def centre_place(stack: int | None) -> str:
    """The name of a centre stack in the trace; a card off any stack (an illegal start) is ``centre:loose``."""
    return "centre:loose" if stack is None else f"centre:{stack}"


def rotate(u: float, v: float, angle: float) -> tuple[float, float]:
    """Turns the vector (u, v) clockwise by ``angle`` degrees on the table plane (y down)."""
    rad = math.radians(angle)
    cos, sin = math.cos(rad), math.sin(rad)
    return u * cos - v * sin, u * sin + v * cos


@dataclass(frozen=True)
class Seat:
    """One player's seat: where they sit and where each of their places lies.

    ``anchor`` is the middle of the line of places; ``angle`` turns the player's frame (u to the player's
    right, v towards the player) onto the table.
    """

    index: int
    back: str
    anchor: Placement
    places: dict[str, Placement]

    @property
    def angle(self) -> float:
        return self.anchor.angle

    def local(self, u: float, v: float, turn: float = 0.0) -> Placement:
        """The table placement of a point given in this player's frame, ``turn`` degrees off their cards."""
        dx, dy = rotate(u, v, self.angle)
        return Placement(self.anchor.x + dx, self.anchor.y + dy, (self.angle + turn) % 360.0)

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.index,
            "back": self.back,
            "anchor": self.anchor.to_json(),
            "places": {name: placement.to_json() for name, placement in self.places.items()},
        }


@dataclass(frozen=True)
class Table:
    """A round table: its radius, the seats around it and the zone in the middle where stacks are built."""

    radius: float
    centre_radius: float
    seats: tuple[Seat, ...]
    sites: tuple[Placement, ...] = ()
    """Spots for stacks in the centre, :data:`STACK_GAP_MM` apart, so stacks never overlap."""

    @classmethod
    def for_players(cls, players: int, row: int, backs: tuple[str, ...] | None = None, turn: float = 0.0) -> Table:
        """Seats ``players`` people evenly around a table with room for their places and, in the middle, a
        spot for every stack they can start (four each) plus one illegal card each; ``turn`` turns the
        lattice of spots (degrees) so stacks do not always line up the same way."""
        names = backs or tuple(f"seat-{i}" for i in range(players))
        sites = stack_sites(5 * players, turn)
        reach = max(math.hypot(p.x, p.y) for p in sites)
        centre_radius = reach + CARD_REACH_MM
        places_width = (row + 3) * SLOT_PITCH_MM
        around = players * (places_width + 60.0) / (2 * math.pi)
        seat_radius = max(centre_radius + 30.0 + CARD_HEIGHT_MM / 2, around)
        seats = tuple(_seat(i, names[i], players, seat_radius, row) for i in range(players))
        return cls(seat_radius + 2.2 * CARD_HEIGHT_MM, centre_radius, seats, sites)

    def to_json(self) -> dict[str, object]:
        return {
            "shape": "circle",
            "radius": round(self.radius, 1),
            "centre_radius": round(self.centre_radius, 1),
            "card_size": [CARD_WIDTH_MM, CARD_HEIGHT_MM],
            "seats": [seat.to_json() for seat in self.seats],
        }


def stack_sites(count: int, turn: float = 0.0) -> tuple[Placement, ...]:
    """The ``count`` spots of a hexagonal lattice nearest the table centre, :data:`STACK_GAP_MM` apart.

    >>> sites = stack_sites(7)
    >>> len(sites), round(min(math.hypot(p.x - q.x, p.y - q.y) for p in sites for q in sites if p != q))
    (7, 143)
    """
    span = math.ceil(math.sqrt(count)) + 2
    lattice = []
    for j in range(-span, span + 1):
        for i in range(-span, span + 1):
            u, v = (i + (j % 2) / 2) * STACK_GAP_MM, j * STACK_GAP_MM * math.sqrt(3) / 2
            x, y = rotate(u, v, turn)
            lattice.append(Placement(x, y, 0.0))
    lattice.sort(key=lambda p: (round(math.hypot(p.x, p.y), 6), p.x, p.y))
    return tuple(lattice[:count])


def slap(base: Placement, rng: random.Random) -> Placement:
    """Where a card slapped onto ``base`` comes to rest: a little off and a little turned, as by hand.

    >>> p = slap(Placement(100.0, 0.0, 30.0), random.Random(1))
    >>> abs(p.x - 100.0) <= 0.15 * 59 and abs(p.angle - 30.0) <= 20
    True
    """
    dx = rng.uniform(-JITTER_OFFSET, JITTER_OFFSET) * CARD_WIDTH_MM
    dy = rng.uniform(-JITTER_OFFSET, JITTER_OFFSET) * CARD_HEIGHT_MM
    turn = rng.triangular(-JITTER_ANGLE_DEG, JITTER_ANGLE_DEG, 0.0)
    return Placement(base.x + dx, base.y + dy, base.angle + turn)


def _seat(index: int, back: str, players: int, radius: float, row: int) -> Seat:
    bearing = 90.0 + 360.0 * index / players
    angle = (bearing - 90.0) % 360.0
    anchor = Placement(radius * math.cos(math.radians(bearing)), radius * math.sin(math.radians(bearing)), angle)
    seat = Seat(index, back, anchor, {})
    # Left to right as the player sees it: hand, discard, the row, the Ligretto pile at the right.
    names = ["hand", "discard", *(row_place(i) for i in range(row)), "pile"]
    first = -(len(names) - 1) / 2 * SLOT_PITCH_MM
    places = {name: seat.local(first + i * SLOT_PITCH_MM, 0.0) for i, name in enumerate(names)}
    return Seat(index, back, anchor, places)
