"""The physical trace of a simulated round: every card move, for a renderer to animate the table.

The first record is the ``layout``: ``table`` holds ``shape`` (circle), ``radius`` and ``centre_radius``
(mm), ``card_size`` ([width, height] mm) and ``seats``, each with ``seat`` (index, clockwise from the bottom
of the image), ``back``, ``anchor`` ([x, y, angle] of the middle of the player's places), ``places`` (name:
[x, y, angle]) and ``cards`` (name: the cards there at the start, bottom first, in card notation). The hand
lies face down, every other place face up. Then, in time order:

- ``move``: one card goes from one place to another between ``t`` and ``t_end``; ``placement`` is where it
  comes to rest, ``face`` whether its face (``up``) or its back (``down``) shows. Places are ``row:i``,
  ``pile``, ``hand``, ``discard`` of the card's owner (``back``), ``centre:<stack>``, ``centre:loose`` (an
  illegal card that started no stack), ``spread`` (centre cards turned over after the round) and
  ``leftover`` (Ligretto-pile cards laid out after the round).
- ``pickup``: a player picks the discard pile up face down and shuffles; ``cards`` is the new hand, bottom
  first.
- ``stop`` and ``scored``: the round stops, the round is scored.

>>> from referee.cards import Card
>>> Move(1.0, 1.4, "red-red", Card.parse("r1"), "pile", "centre:1", Placement(0, 0, 5)).to_json()["to"]
'centre:1'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.cards import Card
from referee.events import Placement


@dataclass(frozen=True, slots=True)
class Move:
    t: float
    t_end: float
    back: str
    card: Card
    source: str
    target: str
    placement: Placement
    face: str = "up"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "move",
            "t": round(self.t, 4),
            "t_end": round(self.t_end, 4),
            "back": self.back,
            "card": str(self.card),
            "from": self.source,
            "to": self.target,
            "placement": self.placement.to_json(),
            "face": self.face,
        }


@dataclass(frozen=True, slots=True)
class Pickup:
    t: float
    t_end: float
    back: str
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "pickup",
            "t": round(self.t, 4),
            "t_end": round(self.t_end, 4),
            "back": self.back,
            "from": "discard",
            "to": "hand",
            "cards": [str(c) for c in self.cards],
        }


@dataclass(frozen=True, slots=True)
class Mark:
    """A moment without a card move: ``stop`` (with reason and back) or ``scored`` (with the scores)."""

    t: float
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "t": round(self.t, 4), **self.data}


TraceRecord = Move | Pickup | Mark
