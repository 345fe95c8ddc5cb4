"""Card vocabulary: the four face colours and the 40 cards of a set, with a notation that round-trips.

A card is written as its colour letter followed by its number:

>>> Card.parse("r7")
Card.parse('r7')
>>> str(Card(Colour.YELLOW, 10))
'y10'
>>> Card.parse("Green 3") == Card(Colour.GREEN, 3)
True
>>> len(FULL_SET)
40
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from referee.errors import NotationError

LOWEST = 1
HIGHEST = 10

# Playing-card format, portrait (card-look.md); the aspect is a setting where it matters (renderer).
CARD_WIDTH_MM = 59.0
CARD_HEIGHT_MM = 91.0


class Colour(StrEnum):
    """The four face colours. The value is the word used in JSON."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        return self.value[0]

    @classmethod
    def parse(cls, text: str) -> Colour:
        """Accepts the JSON word or its first letter, in any case."""
        key = text.strip().lower()
        for colour in cls:
            if key in (colour.value, colour.letter):
                return colour
        raise NotationError(f"unknown colour {text!r}: expected one of red, yellow, green, blue (r, y, g, b)")

    def __str__(self) -> str:
        return self.value


COLOURS: tuple[Colour, ...] = tuple(Colour)

_NOTATION = re.compile(r"^\s*([a-z]+)\s*(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One face: a colour and a number 1..10. Fronts are identical across sets; the back says whose it is."""

    colour: Colour
    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise NotationError(f"card colour must be a Colour, not {self.colour!r}")
        if not LOWEST <= self.number <= HIGHEST:
            raise NotationError(f"card number {self.number} is outside {LOWEST}..{HIGHEST}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Reads ``r7``, ``y10``, ``B 1`` or ``green 3``."""
        match = _NOTATION.match(text) if isinstance(text, str) else None
        if match is None:
            raise NotationError(f"unknown card notation {text!r}: expected a colour letter and a number, like r7")
        try:
            colour = Colour.parse(match.group(1))
        except NotationError:
            raise NotationError(f"unknown card notation {text!r}: the colour must be r, y, g or b") from None
        number = int(match.group(2))
        if not LOWEST <= number <= HIGHEST:
            raise NotationError(f"unknown card notation {text!r}: the number must be {LOWEST}..{HIGHEST}")
        return cls(colour, number)

    def __str__(self) -> str:
        return f"{self.colour.letter}{self.number}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour.value, "number": self.number}

    @classmethod
    def from_json(cls, data: Any) -> Card:
        if not isinstance(data, dict) or "colour" not in data or "number" not in data:
            raise NotationError(f"a card must be an object with colour and number, not {data!r}")
        number = data["number"]
        if not isinstance(number, int) or isinstance(number, bool):
            raise NotationError(f"card number must be an integer, not {number!r}")
        return cls(Colour.parse(str(data["colour"])), number)

    def follows(self, top: Card) -> bool:
        """True when this card is the one that may go on ``top``: same colour, next number."""
        return self.colour == top.colour and self.number == top.number + 1


FULL_SET: tuple[Card, ...] = tuple(Card(c, n) for c in COLOURS for n in range(LOWEST, HIGHEST + 1))
"""The 40 cards every player owns, in a fixed order (red 1..10, yellow, green, blue)."""
