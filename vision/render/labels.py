"""Ground truth of one rendered picture: every card's corners, kind, identity and visible fraction.

Corners are image pixels of the final (distorted) frame, the card's own top-left first, then clockwise as
seen in the picture. ``visible`` is the share of the card's area that shows: pixels of the id mask that
belong to the card, over the area of its quadrilateral (so a card half out of the frame is at most 0.5).

>>> label = CardLabel(0, "face", Card.parse("y4"), "red-pink", ((0, 0), (10, 0), (10, 15), (0, 15)), 0.5)
>>> label.to_json()["colour"], label.to_json()["number"], label.to_json()["back"]
('yellow', 4, None)
>>> CardLabel.from_json(label.to_json()) == label
True
>>> round(quad_area([[0, 0], [10, 0], [10, 15], [0, 15]]), 1)
150.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from referee.cards import Card

KIND_CLASS: dict[str, int] = {"face": 0, "back": 1}


def quad_area(corners: npt.ArrayLike) -> float:
    """Signed area (shoelace) of a polygon in image pixels: positive when clockwise on screen (y down)."""
    p = np.asarray(corners, dtype=np.float64).reshape(-1, 2)
    x, y = p[:, 0], p[:, 1]
    return float(0.5 * (np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)))


@dataclass(frozen=True)
class CardLabel:
    """One card as it lies in the picture. ``card`` is set for faces; ``back`` for backs (the design id).

    ``owner`` is the back id of the set the card belongs to, known for faces too (not visible on them).
    ``index`` is the card's position in the scene's drawing order (0 lies at the bottom).
    """

    index: int
    kind: str
    card: Card | None
    owner: str
    corners: tuple[tuple[float, float], ...]
    visible: float

    @property
    def back(self) -> str | None:
        return self.owner if self.kind == "back" else None

    @property
    def corners_array(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.corners, dtype=np.float64)

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "colour": None if self.card is None else self.card.colour.value,
            "number": None if self.card is None else self.card.number,
            "back": self.back,
            "owner": self.owner,
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "visible": round(float(self.visible), 4),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CardLabel:
        card = None if data["kind"] == "back" else Card.from_json(data)
        corners = tuple((float(x), float(y)) for x, y in data["corners"])
        return cls(int(data["index"]), str(data["kind"]), card, str(data["owner"]), corners, float(data["visible"]))
