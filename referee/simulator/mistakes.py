"""Injected mistakes: how often bots break each rule, what they do wrong, and the ground truth of it.

Each rate is the chance, at every decision a bot takes, that it makes that mistake when its cards allow
it (``after_stop``: the chance that a bot slaps one more card after "Ligretto stop"; ``conflict``: the chance
that a bot holding the same card slaps it onto a stack in the same instant as someone else).

>>> MistakeRates.uniform(0.05).wrong_colour, MistakeRates().any
(0.05, False)
>>> from referee.cards import Card
>>> find_mistake("wrong_number", [("row:0", Card.parse("r7"))], {4: Card.parse("r5")}, random.Random(0))
('row:0', Card.parse('r7'), 4)
>>> find_mistake("stack_full", [("row:0", Card.parse("r7"))], {4: Card.parse("r5")}, random.Random(0)) is None
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from referee.cards import HIGHEST, LOWEST, Card
from referee.errors import SetupError
from referee.rules import Violation

CENTRE_MISTAKES: tuple[str, ...] = (
    Violation.WRONG_COLOUR.value,
    Violation.WRONG_NUMBER.value,
    Violation.NOT_A_ONE.value,
    Violation.STACK_FULL.value,
)
"""The mistakes a bot can make while the round runs, in the order it considers them."""
CONFLICT = "conflict"


@dataclass(frozen=True)
class MistakeRates:
    """One rate per violation type, plus simultaneous conflicts. All zero: a clean round."""

    wrong_colour: float = 0.0
    wrong_number: float = 0.0
    not_a_one: float = 0.0
    stack_full: float = 0.0
    after_stop: float = 0.0
    conflict: float = 0.0

    def __post_init__(self) -> None:
        for f in fields(self):
            rate = getattr(self, f.name)
            if not 0.0 <= rate <= 1.0:
                raise SetupError(f"the {f.name} mistake rate must be between 0 and 1, not {rate}")

    @classmethod
    def uniform(cls, rate: float) -> MistakeRates:
        """The same rate for every kind of mistake (``ligretto simulate --mistakes RATE``)."""
        return cls(*(rate for _ in fields(cls)))

    @property
    def any(self) -> bool:
        return any(getattr(self, f.name) > 0 for f in fields(self))

    def rate(self, kind: str) -> float:
        return float(getattr(self, kind))

    def to_json(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class InjectedMistake:
    """Ground truth of one mistake: what the judge must find in the event log.

    ``kind`` is a violation reason or ``conflict``; ``stack`` is None for a card that started no stack.
    """

    kind: str
    t: float
    back: str
    card: Card
    stack: int | None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "t": round(self.t, 4),
            "back": self.back,
            "card": str(self.card),
            "stack": self.stack,
        }


def find_mistake(
    kind: str, cards: Sequence[tuple[str, Card]], tops: Mapping[int, Card], rng: random.Random
) -> tuple[str, Card, int | None] | None:
    """A play committing exactly the violation ``kind``, from the bot's playable ``cards`` (source, card)
    onto the open stacks ``tops`` (id: legal top); None when the cards on the table allow no such mistake."""
    options: list[tuple[str, Card, int | None]] = []
    if kind == Violation.NOT_A_ONE:
        options = [(source, card, None) for source, card in cards if card.number != LOWEST]
    else:
        for stack, top in tops.items():
            for source, card in cards:
                if _commits(kind, top, card):
                    options.append((source, card, stack))
    return rng.choice(options) if options else None


def _commits(kind: str, top: Card, card: Card) -> bool:
    if kind == Violation.STACK_FULL:
        return top.number == HIGHEST
    if top.number == HIGHEST:
        return False
    if kind == Violation.WRONG_COLOUR:
        return card.number == top.number + 1 and card.colour != top.colour
    if kind == Violation.WRONG_NUMBER:
        return card.colour == top.colour and card.number != top.number + 1
    return False
