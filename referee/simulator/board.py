"""The centre of the table as the simulator knows it: ground truth, so no judge is needed to keep it.

Stacks hold their legal cards with their owners; ``wanted`` maps every card the centre needs now to the
stacks that need it, so a bot finds its plays by lookup. Illegal cards lie ``loose`` until taken back. A
stack whose last card landed less than the conflict window ago has an open :class:`Window`.

>>> import random
>>> from referee.simulator.table import stack_sites
>>> board = Board(list(stack_sites(4)))
>>> stack = board.start_stack(random.Random(0))
>>> board.put(stack, Card.parse("r1"), "red-red")
>>> board.wanted
{Card.parse('r2'): [1]}
>>> board.put(stack, Card.parse("r2"), "blue-blue")
>>> board.unplay(stack), board.wanted
((Card.parse('r2'), 'blue-blue'), {Card.parse('r2'): [1]})
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from referee.cards import HIGHEST, Card
from referee.events import Placement


@dataclass
class Plan:
    """A card on its way to the centre. ``height`` is the stack's height when the bot looked; ``kind`` is
    the mistake it commits (a violation reason, ``conflict``), None for an honest play."""

    source: str
    card: Card
    stack: int | None
    height: int
    t_start: float
    kind: str | None = None


@dataclass
class Loose:
    """A card lying in the centre that its player will take back."""

    seat: int
    card: Card
    stack: int | None
    source: str
    placement: Placement
    site: Placement | None = None
    """The spot of an illegal card that started no stack: free again once it is taken back."""


@dataclass
class Window:
    """A legal card just landed on a stack: identical cards landing before it closes make a conflict.
    ``landings`` are (seat, plan, placement), the first one being the card already on the stack."""

    t: float
    top_before: Card
    landings: list[tuple[int, Plan, Placement]]


@dataclass
class Stack:
    id: int
    base: Placement
    cards: list[tuple[Card, str]] = field(default_factory=list)
    window: Window | None = None

    @property
    def top(self) -> Card:
        return self.cards[-1][0]


class Board:
    """Stacks (ids 1, 2, ... in the order started), the cards they want, loose cards and free spots."""

    def __init__(self, sites: list[Placement]) -> None:
        self.free_sites = sites
        self.stacks: list[Stack] = []
        self.wanted: dict[Card, list[int]] = {}
        self.loose: list[Loose] = []

    def stack(self, stack_id: int) -> Stack:
        return self.stacks[stack_id - 1]

    def height(self, stack_id: int | None) -> int:
        return 0 if stack_id is None else len(self.stacks[stack_id - 1].cards)

    def open_tops(self) -> dict[int, Card]:
        """The legal top of every stack no conflict is being decided on."""
        return {stack.id: stack.top for stack in self.stacks if stack.window is None}

    def claim_site(self, rng: random.Random) -> Placement:
        """A free spot for a new stack (or an illegal card that starts none), turned at random."""
        site = self.free_sites.pop(rng.randrange(len(self.free_sites)))
        return Placement(site.x, site.y, rng.uniform(0.0, 360.0))

    def start_stack(self, rng: random.Random) -> Stack:
        stack = Stack(len(self.stacks) + 1, self.claim_site(rng))
        self.stacks.append(stack)
        return stack

    def put(self, stack: Stack, card: Card, back: str) -> None:
        """A legal card goes on ``stack``; the centre now wants the next one."""
        if stack.cards:
            self._unwant(card, stack.id)
        stack.cards.append((card, back))
        if card.number < HIGHEST:
            self.wanted.setdefault(Card(card.colour, card.number + 1), []).append(stack.id)

    def unplay(self, stack: Stack) -> tuple[Card, str]:
        """The top card leaves ``stack`` again (a conflict sent it back); the stack wants it once more."""
        card, back = stack.cards.pop()
        if card.number < HIGHEST:
            self._unwant(Card(card.colour, card.number + 1), stack.id)
        self.wanted.setdefault(card, []).append(stack.id)
        return card, back

    def lay_loose(self, loose: Loose) -> None:
        self.loose.append(loose)

    def pick_up_loose(self, loose: Loose) -> None:
        self.loose.remove(loose)
        if loose.site is not None:
            self.free_sites.append(loose.site)

    def _unwant(self, card: Card, stack: int) -> None:
        stacks = self.wanted[card]
        stacks.remove(stack)
        if not stacks:
            del self.wanted[card]
