"""The post-round protocol: how the table is laid out for counting once the round has stopped.

Centre cards are turned back up and spread so each back shows, either fanned out where their stack lay
(``mixed``) or sorted into one overlapping line per owner in front of that player (``grouped``); each
player's Ligretto-pile leftovers are laid out in a line in front of them, back up by default (the referee
counts cards by their backs, and that is what players are asked to do), each back showing a strip; and each
player turns the face-down stack in their hand over onto their discard pile, so that the only backs on the
table are the cards to count.

>>> table = Table.for_players(2, row=5, backs=("a", "b"))
>>> moves = lay_out_leftovers(table, {"a": [Card.parse("r7"), Card.parse("b2")], "b": []}, random.Random(0), 10.0)
>>> [(str(m.card), m.target, m.face) for m in moves]
[('b2', 'leftover', 'down'), ('r7', 'leftover', 'down')]
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.cards import CARD_HEIGHT_MM, Card
from referee.events import Placement
from referee.simulator.table import Table, centre_place, rotate
from referee.simulator.trace import Move

SPREAD_STEP_MM = 14.0
"""How far each spread card lies from the one under it: enough for its back to show."""
LINE_LENGTH = 20
"""Cards in one line of a grouped spread before a new line starts."""
LINE_GAP_MM = 8.0
"""The gap between two lines of a grouped spread."""
MOVE_SECONDS = 0.3
PACE_SECONDS = 0.06
LEFTOVER_STEP = (0.75, 1.3)
LEFTOVER_SHIFT_MM = 15.0
LEFTOVER_TURN_DEG = 2.5
"""Each player lays their leftovers their own way: each card about half over the last, at a step of two spread
steps times a share drawn per player in ``LEFTOVER_STEP`` (21-36 mm), the line's middle up to
``LEFTOVER_SHIFT_MM`` to one side of theirs, each card turned a little (``LEFTOVER_TURN_DEG``, one sigma): a
referee that counts them must not count on one hand's habits."""
LEFTOVER_FACES = ("down", "up", "either")
"""How leftovers are laid out: back up (``down``, the protocol players are asked to follow), face up, or
either way, drawn per player (a table that ignores the protocol)."""


@dataclass(frozen=True)
class CentreStack:
    """A centre stack as the counting starts: its id, where it lies, and its cards (face, owner) bottom first."""

    id: int
    base: Placement
    cards: tuple[tuple[Card, str], ...]


def spread_centre(table: Table, stacks: Sequence[CentreStack], rng: random.Random, start: float) -> list[Move]:
    """Moves turning every centre card back up and spreading it; the style is drawn per round."""
    if rng.random() < 0.5:
        return _spread_in_place(stacks, start)
    return _spread_by_owner(table, stacks, start)


def lay_out_leftovers(
    table: Table,
    piles: Mapping[str, Sequence[Card]],
    rng: random.Random,
    start: float,
    face: str = "down",
) -> list[Move]:
    """Moves laying each player's Ligretto-pile leftovers in a line in front of them, ``face`` one of
    :data:`LEFTOVER_FACES`; each card lies a step from the last (:data:`LEFTOVER_STEP`), so its back (or face)
    shows."""
    if face not in LEFTOVER_FACES:
        raise ValueError(f"leftovers lie {' or '.join(LEFTOVER_FACES)}, not {face!r}")
    moves: list[Move] = []
    for seat in table.seats:
        cards = piles.get(seat.back, ())
        side = face if face != "either" else ("up" if rng.random() < 0.5 else "down")
        if not cards:
            continue
        step = 2 * SPREAD_STEP_MM * rng.uniform(*LEFTOVER_STEP)
        first = rng.uniform(-LEFTOVER_SHIFT_MM, LEFTOVER_SHIFT_MM) - (len(cards) - 1) / 2 * step
        for i, card in enumerate(reversed(cards)):
            turn = rng.gauss(0.0, LEFTOVER_TURN_DEG)
            placement = seat.local(first + i * step, 1.15 * CARD_HEIGHT_MM, turn)
            t = start + i * PACE_SECONDS
            moves.append(Move(t, t + MOVE_SECONDS, seat.back, card, "pile", "leftover", placement, side))
    return moves


def turn_hands_up(table: Table, hands: Mapping[str, Sequence[Card]], start: float) -> list[Move]:
    """Moves turning each player's face-down hand over onto their discard pile, face up, top card first: a
    back left lying in front of a player would read as one more leftover.

    >>> table = Table.for_players(2, row=5, backs=("a", "b"))
    >>> [(m.source, m.target, m.face) for m in turn_hands_up(table, {"a": [Card.parse("g3")], "b": []}, 1.0)]
    [('hand', 'discard', 'up')]
    """
    moves: list[Move] = []
    for seat in table.seats:
        discard = seat.places["discard"]
        for i, card in enumerate(reversed(hands.get(seat.back, ()))):
            t = start + i * PACE_SECONDS
            moves.append(Move(t, t + MOVE_SECONDS, seat.back, card, "hand", "discard", discard, "up"))
    return moves


def _spread_in_place(stacks: Sequence[CentreStack], start: float) -> list[Move]:
    moves: list[Move] = []
    t = start
    for stack in stacks:
        # Fanned along the stack's own long side, top card first as it is lifted off.
        for i, (card, back) in enumerate(reversed(stack.cards)):
            du, dv = rotate(0.0, i * SPREAD_STEP_MM, stack.base.angle)
            placement = Placement(stack.base.x + du, stack.base.y + dv, stack.base.angle)
            moves.append(Move(t, t + MOVE_SECONDS, back, card, centre_place(stack.id), "spread", placement, "down"))
            t += PACE_SECONDS
    return moves


def _spread_by_owner(table: Table, stacks: Sequence[CentreStack], start: float) -> list[Move]:
    moves: list[Move] = []
    placed: dict[str, int] = {}
    seats = {seat.back: seat for seat in table.seats}
    t = start
    for stack in stacks:
        for card, back in reversed(stack.cards):
            seat = seats[back]
            k = placed.get(back, 0)
            placed[back] = k + 1
            line, along = divmod(k, LINE_LENGTH)
            u = (along - (LINE_LENGTH - 1) / 2) * SPREAD_STEP_MM
            # a new line a card's height nearer the centre, so it hides no strip of the line before it
            v = -1.2 * CARD_HEIGHT_MM - line * (CARD_HEIGHT_MM + LINE_GAP_MM)
            placement = seat.local(u, v)
            moves.append(Move(t, t + MOVE_SECONDS, back, card, centre_place(stack.id), "spread", placement, "down"))
            t += PACE_SECONDS
    return moves
