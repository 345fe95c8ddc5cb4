"""Whose the cards are that were played from a seat whose owner nobody read: told by the fans they lie in.

Play names a centre card's owner by the seat it left (:mod:`referee.tracker.owners`), and a seat's owner is the
back read on its hand stack. Where that stack lies beyond the picture's edge (an eight-player table cut at its
sides) the seat's plays are still seen leaving it, but not whose they are: they were left unnamed, to the centre
spread's backs read strip by strip, which in a fan of mixed backs are right about six times in ten. Named by
their seat instead (:func:`referee.tracker.owners.seat_name`), a seat's cards are one player's, and all of them
together say whose far more surely than each does alone: each lies in a stack fanned where it lay, and what that
fan read of each back beyond the cards play named there is shared out over the fan's cards play did not name.
The seat is the player whose back its cards' shares hold most of, each seat a different player, among the
players no read seat owns (:func:`name_seats`).

Twenty eight-player rounds pickled at the score (seeds 101000-101086 and 105000-105006, their seats' watch and
count scored again offline): 27 seats so named, 25 rightly (one round's two seats cut off traded players: one
player's strips were never read as theirs). Over all 72 rounds pickled (2-8 players): centres exact 186 -> 192 of
324 players, players exact 153 -> 156 (eight players: centres 56 -> 62 of 160, players 30 -> 33); no two- or
four-player round changed. With the players so completed, the fans and the rules (one copy of a card per player)
could name more cards (:func:`referee.tracker.fan_owners.owners_by_fans`, ``owed_by_elimination``): on 21
eight-player rounds one centre more exact and one fewer, so they are left to the players read or given.

>>> from referee.cards import Card
>>> from referee.centre import CentreCard, Stack
>>> from referee.events import Placement
>>> from referee.tracker.counting import CentreFan
>>> def stack(id, x):
...     return Stack(id, tuple(CentreCard(Card.parse(f"r{n}"), placement=Placement(x, 0.0)) for n in (1, 2, 3)))
>>> stacks = [stack(1, 0.0), stack(2, 300.0)]
>>> fans = [CentreFan(((0.0, 0.0),), {"red-red": 1, "red-pink": 2}), CentreFan(((300.0, 0.0),), {"red-red": 3})]
>>> rows = [["red-red", "seat@4", "seat@4"], ["red-red", "red-red", "seat@5"]]
>>> seats = name_seats(stacks, rows, fans, ("red-pink", "red-black", "blue-blue"))
>>> seats
{'seat@4': 'red-pink'}
>>> renamed(rows, seats)
[['red-red', 'red-pink', 'red-pink'], ['red-red', 'red-red', None]]
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from referee.centre import Stack
from referee.tracker.counting import CentreFan
from referee.tracker.fan_owners import fan_of
from referee.tracker.owners import is_seat_name

MIN_SHARE = 1.0
"""The fewest cards' worth of a back a seat's cards must hold, in their fans' reads, to be named that back: one
strip read so is as likely a misread."""


def name_seats(
    stacks: Sequence[Stack],
    owners: Sequence[Sequence[str | None]],
    fans: Sequence[CentreFan],
    candidates: Sequence[str],
) -> dict[str, str]:
    """The back of each seat named in ``owners`` (per stack, per card bottom first: a back, a seat's name, or
    None) that its cards' fans show (see the module docstring); a seat is left out where they show none of the
    ``candidates`` (the players no read seat owns) clearly enough (:data:`MIN_SHARE`)."""
    shares: defaultdict[str, dict[str, float]] = defaultdict(dict)
    in_fan: defaultdict[int, list[int]] = defaultdict(list)
    for i, stack in enumerate(stacks):
        fan = fan_of(stack, fans)
        if fan is not None:
            in_fan[fan].append(i)
    for f, members in in_fan.items():
        row = [owner for i in members for owner in owners[i]]
        named = Counter(owner for owner in row if owner and not is_seat_name(owner))
        unnamed = sum(1 for owner in row if owner is None or is_seat_name(owner))
        spare = {b: n - named[b] for b, n in fans[f].backs.items() if b in candidates and n > named[b]}
        for owner in row:
            if is_seat_name(owner):
                for back, n in spare.items():
                    shares[owner][back] = shares[owner].get(back, 0.0) + n / unnamed
    seats = sorted({o for row in owners for o in row if is_seat_name(o)})
    backs = sorted({b for share in shares.values() for b in share})
    named_as: dict[str, str] = {}
    if seats and backs:
        held = np.array([[shares[seat].get(back, 0.0) for back in backs] for seat in seats])
        for s, b in zip(*linear_sum_assignment(held, maximize=True), strict=True):
            if held[s, b] >= MIN_SHARE:
                named_as[seats[s]] = backs[b]
    seats_left = [seat for seat in seats if seat not in named_as]
    backs_left = [back for back in candidates if back not in named_as.values()]
    if len(seats) == len(candidates) and len(seats_left) == len(backs_left) == 1:
        # every player no read seat owns played from one of these seats: the one left is the one left's
        named_as[seats_left[0]] = backs_left[0]
    return named_as


def renamed(owners: Sequence[Sequence[str | None]], seats: dict[str, str]) -> list[list[str | None]]:
    """``owners`` with each seat's name replaced by its back in ``seats``, or by None where it has none."""
    return [[seats.get(o) if is_seat_name(o) else o for o in row] for row in owners]
