"""Injected mistakes: how often bots break each rule, what they do wrong, and the ground truth of it.

Every rate is a share of the cards that land in the centre: ``wrong_colour=0.01`` means that about 1 card
in 100 that hits the centre is a wrong-colour mistake, and ``MistakeRates.uniform(0.05)`` (what
``ligretto simulate --mistakes 0.05`` asks for) that about 5 in 100 are mistakes of some kind, split evenly
over the six kinds: the four a card can commit while the round runs (``wrong_colour``, ``wrong_number``,
``not_a_one``, ``stack_full``), a card slapped after "Ligretto stop" (``after_stop``) and a card slapped onto a
stack in the same instant as an identical one (``conflict``: the second card is the mistake).

How the simulator keeps to it: each card landing in the centre makes a mistake of each kind *owed* with
that kind's rate, and the next bot whose cards allow an owed mistake commits it (an ``after_stop`` is owed
until the stop, then up to one bot per owed mistake slaps one more card). A mistake that the table does not
allow yet (no full stack for ``stack_full``, nobody holding the same card for a ``conflict``) waits for a
moment that does; whatever is still owed when the round ends is dropped, so the realised share falls a little
short, most with 2 players (short rounds, rarely a rival holding the same card). Measured with ``--mistakes
0.05`` over 200-600 seeds per table: 0.87 of the rate with 2 players, 0.92 with 3, 0.94 with 4, 0.96-0.97 with
6 to 12 (tests/referee/simulator/test_sim_mistake_share.py holds the tolerance table).

>>> MistakeRates.uniform(0.06).wrong_colour, MistakeRates.uniform(0.06).total, MistakeRates().any
(0.01, 0.06, False)
>>> MistakeRates.parse("wrong_colour=0.01,conflict=0.02").to_json()["conflict"]
0.02
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
AFTER_STOP = Violation.AFTER_STOP.value
CONFLICT = "conflict"
KINDS: tuple[str, ...] = (*CENTRE_MISTAKES, AFTER_STOP, CONFLICT)
"""Every kind of injected mistake, in the order of :class:`MistakeRates`' fields."""


MAX_TOTAL = 0.5
"""At most half the cards landing may be mistakes: beyond that a round is more taking back than playing."""


@dataclass(frozen=True)
class MistakeRates:
    """One rate per violation type plus simultaneous conflicts, each a share of the cards landing in the
    centre (see the module's docstring). All zero: a clean round."""

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
        if self.total > MAX_TOTAL + 1e-9:
            total, most = f"{self.total:g}", f"{MAX_TOTAL:g}"
            raise SetupError(f"mistake rates add up to {total}; at most {most} of the plays can be mistakes")

    @classmethod
    def uniform(cls, total: float) -> MistakeRates:
        """About ``total`` of all centre plays are mistakes, split evenly over the six kinds
        (``ligretto simulate --mistakes RATE``)."""
        if not 0.0 <= total <= MAX_TOTAL:
            raise SetupError(f"the mistake rate must be between 0 and {MAX_TOTAL:g}, not {total}")
        share = total / len(KINDS)
        return cls(*(share for _ in KINDS))

    @classmethod
    def parse(cls, text: str, base: MistakeRates | None = None) -> MistakeRates:
        """Per-kind rates from ``kind=rate`` pairs separated by commas, replacing those kinds in ``base``."""
        rates = (base or cls()).to_json()
        for pair in filter(None, (p.strip() for p in text.split(","))):
            kind, _, value = pair.partition("=")
            kind = kind.strip()
            if kind not in rates:
                raise SetupError(f"unknown mistake kind {kind!r} in {pair!r}: the kinds are {', '.join(KINDS)}")
            try:
                rates[kind] = float(value)
            except ValueError:
                raise SetupError(f"{pair!r} needs a number after '=', such as {kind}=0.01") from None
        return cls(**rates)

    @property
    def any(self) -> bool:
        return self.total > 0

    @property
    def total(self) -> float:
        """The share of centre plays that are mistakes of any kind."""
        return round(sum(getattr(self, f.name) for f in fields(self)), 12)

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
