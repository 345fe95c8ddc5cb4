"""Whose the centre cards are that play left unnamed: told by the fan their stack was spread into.

Play names the owner of most centre cards (:mod:`referee.tracker.owners`); the few it cannot name are then
shared out over the whole centre by the backs the spreads showed, which with two similar backs is close to a coin
toss. A stack fanned where it lay keeps its cards together, though: the backs read on its fan, less those of its
cards play already named, are the backs of its unnamed ones. So a fan whose reads hold more of one back than play
named in its stacks, and of no other, names its unnamed cards that back's (as many as it holds more of, and each
only where that player's copy of the card is not named elsewhere in the centre: one player holds one of each).

A fan is its stacks' when it starts where they lay (a stack is fanned from its top card's place, along its
length, as :func:`referee.simulator.post_round.spread_centre` lays it and players do); a fan holding one player's
backs (handed back sorted) names nothing here.

>>> from referee.cards import Card
>>> from referee.centre import CentreCard, Stack
>>> from referee.events import Placement
>>> from referee.tracker.counting import CentreFan
>>> stack = Stack(1, tuple(CentreCard(Card.parse(f"r{n}"), placement=Placement(0.0, 0.0)) for n in (1, 2, 3)))
>>> fan = CentreFan(((0.0, 0.0), (0.0, 14.0), (0.0, 28.0)), {"red-red": 1, "blue-blue": 2})
>>> owners_by_fans([stack], [["red-red", "blue-blue", None]], [fan], ("red-red", "blue-blue"))
[['red-red', 'blue-blue', 'blue-blue']]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from referee.cards import CARD_HEIGHT_MM
from referee.centre import Stack
from referee.tracker.counting import CentreFan

STARTS_WITHIN_MM = 0.6 * CARD_HEIGHT_MM
"""A fan is a stack's when one of its cards lies this close to the stack's place: the stack's top card, laid
first where the stack lay, shows a strip whose box may sit half a card off that place. Stacks lie a card or more
apart, so a fan is not taken for its neighbour's."""


def owners_by_fans(
    stacks: Sequence[Stack],
    owners: Sequence[Sequence[str | None]],
    fans: Sequence[CentreFan],
    players: Sequence[str],
) -> list[list[str | None]]:
    """``owners`` (per stack, per card bottom first; None: unnamed) with the unnamed cards the fans tell named
    (see the module docstring). ``players``: every player's back; without them nothing is named."""
    named = [list(row) for row in owners]
    if not players or not fans:
        return named
    held = Counter(
        (str(c.card), o)
        for stack, row in zip(stacks, named, strict=True)
        for c, o in zip(stack.cards, row, strict=True)
        if o
    )
    groups: dict[int, list[int]] = {}
    for i, stack in enumerate(stacks):
        fan = fan_of(stack, fans)
        if fan is not None:
            groups.setdefault(fan, []).append(i)
    for f, members in groups.items():
        play = Counter(o for i in members for o in named[i] if o)
        more = {b: n - play[b] for b, n in fans[f].backs.items() if b in players and n > play[b]}
        if len(more) != 1:
            continue
        ((back, spare),) = more.items()
        for i in members:
            for j, card in enumerate(stacks[i].cards):
                if spare and named[i][j] is None and not held[(str(card.card), back)]:
                    named[i][j] = back
                    held[(str(card.card), back)] += 1
                    spare -= 1
    return named


def fan_of(stack: Stack, fans: Sequence[CentreFan]) -> int | None:
    """The fan starting where ``stack`` lay (see :data:`STARTS_WITHIN_MM`), None if none does."""
    place = stack.placement
    if place is None:
        return None
    best, near = None, STARTS_WITHIN_MM
    for f, fan in enumerate(fans):
        d = min((math.hypot(x - place.x, y - place.y) for x, y in fan.points), default=math.inf)
        if d <= near:
            best, near = f, d
    return best
